#!/usr/bin/env bats
# Big matrix products against the real PyTorch in the same environment, at
# OpenBLAS's default thread count and at one thread: tsr runs a gemm of up to
# 2^33 multiply-adds as PyTorch does (one call) when OpenBLAS is threaded, and
# in column panels with a Ctrl-C poll between them otherwise, which keeps the
# bits on one thread (skipped where /usr/bin/python3 has no torch).

load helpers

PY=${TSR_PYTHON:-/usr/bin/python3}

need_torch() {
    "$PY" -c 'import torch' 2>/dev/null || skip "no python3 with torch"
}

script() {
    cat > mm.tsr <<'TSR'
import torch
torch.manual_seed(0);
for dt in [torch.float32, torch.float64]:
    a = torch.randn(2048, 2048, dtype=dt)
    b = torch.randn(2048, 1200, dtype=dt)
    c = a @ b
    print(c[::53, ::11].tolist())
    print(torch.mm(b.t(), a.t())[::47, ::41].tolist())
TSR
}

@test "blas-1.1: a big gemm at OpenBLAS's default thread count gives PyTorch's bits" {
    need_torch
    script
    run tsr_run mm.tsr
    assert_success
    mine=$output
    run "$PY" mm.tsr
    [ "$status" -eq 0 ]
    [ "$mine" = "$output" ]
}

@test "blas-1.2: a big gemm on one OpenBLAS thread (panels) gives PyTorch's bits" {
    need_torch
    script
    OPENBLAS_NUM_THREADS=1 run tsr_run mm.tsr
    assert_success
    mine=$output
    OPENBLAS_NUM_THREADS=1 run "$PY" mm.tsr
    [ "$status" -eq 0 ]
    [ "$mine" = "$output" ]
}
