#!/usr/bin/env bats
# Joining, rearranging and indexing cuda tensors (views and device copies,
# cuda/index.h's gather/scatter/tril/nonzero launches), tested without a GPU:
# TSR_CUDA=sim runs them in libtsr_cuda_sim.so over memory the host code
# cannot touch. The expected text (cuda_join/*.out) is what PyTorch 1.13
# prints for the same statements on a GPU: cuda_join/oracle.py runs them on
# the CPU and prints them with the device suffix (integer-valued data: every
# value exact). Index bounds errors are the CPU's messages (tsr checks them
# before writing; a GPU running PyTorch raises a device-side assert).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

# script NAME: runs cuda_join/NAME.tsr; status 1 when it has error lines
script() {
    sim
    run --separate-stderr "$TSR" --keep-going --brief-errors "$BATS_TEST_DIRNAME/cuda_join/$1.tsr"
    if grep -q "Error: " "$BATS_TEST_DIRNAME/cuda_join/$1.out"; then assert_failure 1; else assert_success; fi
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_join/$1.out")"
}

@test "cuda-join-1.1: cat/stack and their cousins, repeat/tile, flip/roll/rot90, diag/diag_embed, tril/triu, out=, mixed devices" {
    script join
}

@test "cuda-join-1.2: nonzero/argwhere, gathers, scatters and advanced indexing on the device" {
    script index
}

@test "cuda-join-1.3: backward through indexing, gather, cat, flip/tril, index_select and masked_select on cuda" {
    script grad
}

@test "cuda-join-3.1: index_add_ on cuda compares the slices by size first, as index_add_cuda_impl's getSliceSize does" {
    sim
    run --separate-stderr "$TSR" --brief-errors -e 'x = torch.zeros(3, 4, device="cuda")' \
        -e 'x.index_add(0, torch.tensor([0], device="cuda"), torch.ones(1, 3, device="cuda"))'
    assert_failure 1
    assert_output "RuntimeError: Source/destination tensor have different slice sizes (4 vs 3)"
}
