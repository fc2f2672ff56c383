#!/usr/bin/env bats
# bfloat16 on a CPU with AVX-512: 1.13 runs bfloat16 convolution, gelu and the
# matmul family through oneDNN there (mkldnn_bf16_device_check: avx512bw,
# avx512vl, avx512dq), and tsr takes the same kernels. onednn_bf16/avx512.out
# is what PyTorch 1.13 printed for onednn_bf16/ops.tsr on such a CPU, oneDNN
# uncapped. On other CPUs the test is skipped (the conformance suite covers
# the paths without oneDNN, with oneDNN capped at AVX2).

load helpers

avx512() { grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo && grep -qw avx512dq /proc/cpuinfo; }

@test "onednn-bf16-1.1: bfloat16 conv / gelu / mm / bmm / dot / mv print 1.13's oneDNN bits on an AVX-512 CPU" {
    avx512 || skip "this CPU has no avx512bw/avx512vl/avx512dq"
    unset ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA
    run --separate-stderr timeout 60 "$TSR" "$BATS_TEST_DIRNAME/onednn_bf16/ops.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/onednn_bf16/avx512.out")"
}

@test "onednn-bf16-1.2: with oneDNN capped below AVX-512 the same script takes the other kernels" {
    avx512 || skip "this CPU has no avx512bw/avx512vl/avx512dq"
    ONEDNN_MAX_CPU_ISA=AVX2 run --separate-stderr timeout 60 "$TSR" "$BATS_TEST_DIRNAME/onednn_bf16/ops.tsr"
    assert_success
    refute_output "$(cat "$BATS_TEST_DIRNAME/onednn_bf16/avx512.out")"
}
