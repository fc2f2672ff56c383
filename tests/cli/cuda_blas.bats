#!/usr/bin/env bats
# The matmul family on cuda (mm, matmul and @, bmm, mv, dot, addmm, baddbmm,
# addmv, linear) through the backend's gemm entry: cuBLAS on a GPU, OpenBLAS
# in the simulator (TSR_CUDA=sim), so that the host-side mapping of 1.13's
# cuda/Blas.cpp (which operand is transposed, leading dimensions, batch
# strides, contiguous copies, beta/alpha) is tested without a GPU. Expected
# text: PyTorch's CPU result for the same statements with device='cuda:0'
# (cuda_blas/mkout), and 1.13's CUDA messages from its source.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-blas-1.1: layouts, dtypes, beta/alpha, out= and in-place, batches, matmul's paths, linear" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_blas/matmul.tsr"
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_blas/matmul.out")"
}

@test "cuda-blas-1.2: dtypes without a CUDA gemm name 1.13's CUDA kernels (AT_DISPATCH in cuda/Blas.cpp)" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'a = torch.ones(2, 3, dtype=torch.long, device="cuda")' \
        -e 'a @ a.t()' -e 'torch.mm(a.int(), a.int().t())' -e 'torch.addmm(a[:, :2], a, a.t())' \
        -e 'torch.bmm(a[None], a.t()[None])' -e 'torch.mv(a, a[0])' -e 'torch.dot(a[0], a[0])' \
        -e 'a.bool() @ a.t().bool()' -e 'torch.ones(2, dtype=torch.complex32, device="cuda") @ torch.ones(2, dtype=torch.complex32, device="cuda")' \
        -e 'torch.mm(a.float(), a.t().double())' -e 'torch.mm(a[:0], a.t())'
    assert_output "RuntimeError: \"addmm_cuda\" not implemented for 'Long'
RuntimeError: \"addmm_cuda\" not implemented for 'Int'
RuntimeError: \"addmm_cuda\" not implemented for 'Long'
RuntimeError: \"baddbmm_cuda\" not implemented for 'Long'
RuntimeError: \"addmv_impl_cuda\" not implemented for 'Long'
RuntimeError: \"dot\" not implemented for 'Long'
RuntimeError: \"addmm_cuda\" not implemented for 'Bool'
RuntimeError: \"dot\" not implemented for 'ComplexHalf'
RuntimeError: expected scalar type Float but found Double
tensor([], device='cuda:0', size=(0, 2), dtype=torch.int64)"
}

@test "cuda-blas-1.3: the device check of each CUDA wrapper (out= first, then the arguments in order)" {
    sim
    export TSR_CUDA_SIM_DEVICES=2
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'f = torch.ones(2, 3, device="cuda")' \
        -e 'f @ f.t().cpu()' -e 'f.cpu() @ f.t()' -e 'torch.mm(f, f.t().to("cuda:1"))' \
        -e 'torch.mm(f, f.t(), out=torch.empty(2, 2))' -e 'torch.addmm(torch.ones(2), f, f.t())' \
        -e 'torch.ones(2, 2, device="cuda").addmm_(f, f.t().cpu())' \
        -e 'torch.nn.functional.linear(f, f, torch.ones(2))' -e 'torch.bmm(f[None], f.t()[None].cpu())' \
        -e 'torch.baddbmm(torch.ones(1, 2, 2), f[None], f.t()[None])' -e 'torch.mv(f, torch.ones(3))' \
        -e 'torch.mv(f.cpu(), torch.ones(3, device="cuda"))' -e 'torch.addmv(torch.ones(2), f, torch.ones(3, device="cuda"))' \
        -e 'torch.dot(f[0], torch.ones(3))' -e 'torch.dot(f[0], f[1], out=torch.empty(()))' \
        -e 'torch.matmul(f[None].expand(2, 2, 3), torch.ones(3, 2))'
    assert_output "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_mm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_mm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1! (when checking argument for argument mat2 in method wrapper_mm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument self in method wrapper_mm_out)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_addmm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_addmm_)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_addmm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_bmm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument batch1 in method wrapper_baddbmm)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat in method wrapper_addmv_)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat in method wrapper_addmv_)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat in method wrapper_addmv)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument tensor in method wrapper__dot)
RuntimeError: dot(): Expected the output and input tensors to be on the same device, but got the output tensor on cpu, the 'input' tensor on cuda:0, and the 'other' tensor on cuda:0
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_mm)"
}

@test "cuda-blas-1.4: bigger products, many batches and one-row or one-column batches agree with the CPU bit for bit" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'A = (torch.arange(96 * 80) % 7 - 3.).reshape(96, 80)' -e 'B = (torch.arange(80 * 70) % 5 - 2.).reshape(80, 70)' \
        -e 'torch.equal((A.cuda() @ B.cuda()).cpu(), A @ B)' -e 'torch.equal((B.cuda().t() @ A.cuda().t()).cpu(), B.t() @ A.t())' \
        -e 'X = (torch.arange(5 * 2 * 9 * 16) % 11 - 5.).reshape(5, 2, 9, 16)' -e 'Y = (torch.arange(2 * 16 * 7) % 3 - 1.).reshape(2, 16, 7)' \
        -e 'torch.equal((X.cuda() @ Y.cuda()).cpu(), X @ Y)' -e 'torch.equal((X.cuda().double() @ Y.cuda().double()[0, :, 3]).cpu(), X.double() @ Y.double()[0, :, 3])' \
        -e 'torch.equal(torch.nn.functional.linear(A.cuda(), B.cuda().t(), torch.ones(70).cuda()).cpu(), torch.nn.functional.linear(A, B.t(), torch.ones(70)))' \
        -e 'X = (torch.arange(60) % 7 - 3.).reshape(3, 4, 5)' \
        -e 'for p in [(X[:, :, :1], X[:, :1, :]), (X[:, :1], X.transpose(1, 2)), (X[:, :1, :1], X[:, :1, :]), (X[:, :, 2:3].transpose(1, 2), X[:, :, :3]), (X.expand(2, 3, 4, 5)[1], X.transpose(1, 2)[:, :, ::2]), (X[:, :, :1], X[:, :1, :1]), (X.transpose(1, 2)[:, :1], X[:, :, :1])]: print(torch.equal(torch.bmm(p[0].cuda(), p[1].cuda()).cpu(), torch.bmm(*p)), torch.equal(torch.baddbmm(torch.ones(1).cuda(), p[0].cuda(), p[1].cuda(), alpha=2).cpu(), torch.baddbmm(torch.ones(1), *p, alpha=2)))'
    assert_output "True
True
True
True
True
True True
True True
True True
True True
True True
True True
True True"
}

@test "cuda-blas-1.5: the rest of the family still refuses on cuda, never computing on the host" {
    sim
    for e in 'torch.inner(v, v)' 'torch.outer(v, v)' 'torch.addr(torch.ones(3, 3, device="cuda"), v, v)' \
             'torch.addbmm(torch.ones(3, 3, device="cuda"), v.view(1, 3, 1), v.view(1, 1, 3))'; do
        run --separate-stderr "$TSR" --brief-errors -e 'v = torch.ones(3, device="cuda")' -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_]+' with arguments from the 'CUDA' backend\\."
    done
}
