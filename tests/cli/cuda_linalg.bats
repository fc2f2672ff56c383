#!/usr/bin/env bats
# torch.linalg on cuda (cuSOLVER's getrf/getrs/potrf/potrs/geqrf/orgqr/
# syevd/gesvdj and cuBLAS's trsm through the backend's linalg entry, and
# what composes them), tested without a GPU: TSR_CUDA=sim emulates those
# calls with LAPACK over memory the host's code cannot touch. Expected text:
# PyTorch 1.13 on the CPU for the same statements, printed as for tensors on
# cuda:0 (cuda_reduce/oracle.py), rounded to the 4 digits printed where a
# GPU's last bits may differ; vectors only through sign-free values.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-linalg-1.1: solve, inv, det, slogdet, cholesky, cholesky_solve/inverse, LU, triangular solves, matrix_power" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_linalg/solve.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_linalg/solve.out")"
}

@test "cuda-linalg-1.2: qr, geqrf, householder_product, eigh, svd, pinv, matrix_rank, cross, lstsq (gels), cond, tensorinv, tensorsolve, ormqr, trace, kron, multi_dot" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_linalg/decomp.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_linalg/decomp.out")"
}

@test "cuda-linalg-1.3: backward of solve, inv, det, cholesky, slogdet, eigvalsh, svdvals, qr, trace, kron on the device" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_linalg/backward.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_linalg/backward.out")"
}

@test "cuda-linalg-1.4: the infos come back from the device for PyTorch's errors; _ex variants keep them on the device" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'A = torch.tensor([[1., 2.], [2., 1.]], device="cuda"); S = torch.tensor([[1., 2.], [2., 4.]], device="cuda")' \
        -e 'torch.linalg.cholesky(A)' -e 'torch.linalg.inv(S)' \
        -e 'torch.linalg.solve(torch.stack([A, S]), torch.ones(2, 2, 1, device="cuda"))' -e 'torch.linalg.lu_factor(S - S)' \
        -e 'torch.linalg.inv(torch.ones(2, 2, dtype=torch.long, device="cuda"))' \
        -e 'torch.linalg.cholesky(torch.ones(2, 3, device="cuda"))' \
        -e 'print(torch.linalg.cholesky_ex(A).info, torch.linalg.inv_ex(torch.stack([A, S])).info)'
    assert_failure 1
    assert_output "_LinAlgError: linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).
_LinAlgError: linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.
_LinAlgError: torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is singular.
RuntimeError: torch.linalg.lu_factor: U[1,1] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)
RuntimeError: linalg.inv: Expected a floating point or complex tensor as input. Got Long
RuntimeError: linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices
tensor(2, device='cuda:0', dtype=torch.int32) tensor([0, 2], device='cuda:0', dtype=torch.int32)"
}

# 1.13's _linalg_svd lays Vh out row-major when cuSOLVER computes it (it
# gives V); driver= is accepted on cuda. The mixed-device messages are the
# dispatcher's CUDA wrappers' (no host read of the other tensor).
@test "cuda-linalg-1.5: svd's Vh strides and driver=, lstsq's driver; tensors on two devices refused" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'M = torch.tensor([[1., 2., 3.], [4., 5., 6.]], device="cuda")' \
        -e 'U, S, Vh = torch.linalg.svd(M); U.stride(), Vh.stride(), torch.svd(M).V.stride()' \
        -e 'torch.linalg.svdvals(M, driver="gesvd").round(decimals=4)' -e 'torch.linalg.svd(M, driver="x")' \
        -e 'torch.linalg.solve(M[:, :2], torch.ones(2))' -e 'torch.cholesky_solve(torch.ones(2, 1), M[:, :2])' \
        -e 'torch.linalg.cross(torch.ones(3), M[0])' -e 'torch.linalg.lstsq(M, M, driver="gelsd")'
    assert_failure 1
    assert_output "((1, 2), (3, 1), (1, 3))
tensor([9.5080, 0.7729], device='cuda:0')
RuntimeError: torch.linalg.svd: unknown svd driver x in svd_cusolver computation. Check doc at https://pytorch.org/docs/stable/generated/torch.linalg.svd.html
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument B in method wrapper__linalg_solve_ex)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument A in method wrapper___cholesky_solve_helper)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument other in method wrapper_linalg_cross)
RuntimeError: torch.linalg.lstsq: \`driver\` other than \`gels\` is not supported on CUDA"
}

# eig/eigvals: 1.13 computes them with MAGMA on the host (a copy to the CPU
# and back); tsr refuses rather than compute on the host. matrix_exp, vander,
# ldl and LU without pivoting have no device path yet.
@test "cuda-linalg-1.6: what has no device path refuses with the dispatcher's error" {
    sim
    for e in 'torch.linalg.eig(A)' 'torch.linalg.eigvals(A)' 'torch.linalg.matrix_exp(A)' \
             'torch.linalg.vander(A[0])' 'torch.linalg.ldl_factor(A)' \
             'torch.linalg.lu_factor(A, pivot=False)' 'torch.linalg.lu(A, pivot=False)'; do
        run --separate-stderr "$TSR" --brief-errors -e 'A = torch.tensor([[2., 1.], [1., 2.]], device="cuda")' -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_]+' with arguments from the 'CUDA' backend\\."
    done
}
