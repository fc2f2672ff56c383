#!/usr/bin/env bats
# Scans, sorts, selections, unique and searches on cuda (cumsum, cumprod,
# cummax/cummin, logcumsumexp, ...), tested without a GPU: TSR_CUDA=sim runs
# the backend's scan kernels (cuda/scan.h) over memory the host's code
# cannot touch. Expected text: PyTorch 1.13 on the CPU for the same
# statements, printed as for tensors on cuda:0 (cuda_reduce/oracle.py), for
# values a GPU computes alike (integers, or printed to 4 digits).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-scan-1.1: cumsum, cumprod, cummax, cummin, logcumsumexp: dims, dtypes, views, out=, NaN, ties, backward" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/cumulative.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/cumulative.out")"
}

@test "cuda-scan-1.2: float16 scans (CUDA's kernels take Half, the CPU's do not), the CUDA kernels' dtype errors, out= on another device" {
    sim
    # float16 values: the float32 results of the same statements, exact in float16
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'h = torch.tensor([1., 2., 3., 0.5], dtype=torch.half, device="cuda")' \
        -e 'h.cumsum(0)' -e 'h.cumprod(0)' -e 'h.cummax(0)' -e 'h[:3].logcumsumexp(0).float().round(decimals=2)' \
        -e 'torch.tensor([1, 2], device="cuda").cumsum(0, dtype=torch.bool)' \
        -e 'torch.tensor([1, 2], device="cuda").logcumsumexp(0)' \
        -e 'torch.tensor([1j, 2], device="cuda").cummax(0)' \
        -e 'torch.cumsum(h, 0, out=torch.empty(4, dtype=torch.half))'
    assert_output "tensor([1.0000, 3.0000, 6.0000, 6.5000], device='cuda:0', dtype=torch.float16)
tensor([1., 2., 6., 3.], device='cuda:0', dtype=torch.float16)
torch.return_types.cummax(
values=tensor([1., 2., 3., 3.], device='cuda:0', dtype=torch.float16),
indices=tensor([0, 1, 2, 2], device='cuda:0'))
tensor([1.0000, 2.3100, 3.4100], device='cuda:0')
RuntimeError: \"cumsum_cuda\" not implemented for 'Bool'
RuntimeError: \"logcumsumexp_cuda\" not implemented for 'Long'
RuntimeError: \"cummax_cuda\" not implemented for 'ComplexFloat'
RuntimeError: Expected out tensor to have device cuda:0, but got cpu instead"
}

@test "cuda-scan-2.1: sort, argsort, msort, topk, kthvalue, median, nanmedian, mode: NaN greatest, stable ties, out=, backward" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/sort.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/sort.out")"
}

@test "cuda-scan-2.2: float16 selections (CUDA's kernels take Half, the CPU's do not); bool refused" {
    sim
    # the float32 results of the same statements, exact in float16
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'h = torch.tensor([[1.5, -0.5, 2., 0.25]], dtype=torch.half, device="cuda")' \
        -e 'h.topk(2).values' -e 'h.kthvalue(2).values' -e 'h.median()' -e 'h.median(1).indices' \
        -e 'torch.tensor([True], device="cuda").topk(1)' \
        -e 'torch.tensor([True], device="cuda").median()'
    assert_output "tensor([[2.0000, 1.5000]], device='cuda:0', dtype=torch.float16)
tensor([0.2500], device='cuda:0', dtype=torch.float16)
tensor(0.2500, device='cuda:0', dtype=torch.float16)
tensor([3], device='cuda:0')
RuntimeError: \"topk_out_cuda\" not implemented for 'Bool'
RuntimeError: \"median_out_impl\" not implemented for 'Bool'"
}

@test "cuda-scan-3.1: unique (sorted, inverse, counts, dim=None and dim=k), unique_consecutive, index_fill's backward" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/unique.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/unique.out")"
}

@test "cuda-scan-4.1: searchsorted (right=, side=, sorter=, out_int32=, out=, scalars, N-d boundaries), bucketize" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/search.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/search.out")"
}

@test "cuda-scan-4.2: searchsorted with its operands on two devices fails cleanly, never reads device memory on the host" {
    sim
    for e in 'torch.searchsorted(torch.tensor([1, 2], device="cuda"), torch.tensor([1]))' \
             'torch.searchsorted(torch.tensor([1, 2]), torch.tensor([1], device="cuda"))' \
             'torch.bucketize(torch.tensor([1], device="cuda"), torch.tensor([1, 2]))'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^RuntimeError: "
    done
}

@test "cuda-scan-4.3: bincount (weights=, minlength=), histc, diff (n=, prepend=, append=), trapezoid, trapz, cumulative_trapezoid" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/stats.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/stats.out")"
}

@test "cuda-scan-4.4: histc skips NaN on cuda (kernelHistogram1D's x >= min && x <= max); bincount's errors" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'torch.histc(torch.tensor([float("nan"), 1., 2.], device="cuda"), bins=2, min=0, max=2)' \
        -e 'torch.tensor([1, -1], device="cuda").bincount()' \
        -e 'torch.tensor([[1]], device="cuda").bincount()' \
        -e 'torch.tensor([1, 2], device="cuda").bincount(torch.ones(3, device="cuda"))'
    assert_output "tensor([0., 2.], device='cuda:0')
RuntimeError: bincount only supports 1-d non-negative integral inputs.
RuntimeError: bincount only supports 1-d non-negative integral inputs.
RuntimeError: weights should be 1-d and have the same length as input"
}

@test "cuda-scan-5.1: isin (scalars, invert=, assume_unique=, out=), isclose (rtol, atol, equal_nan, ints, bools), allclose, equal" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_scan/compare.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_scan/compare.out")"
}
