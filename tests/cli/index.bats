#!/usr/bin/env bats
# The indexing functions of the binding table seen from the command line:
# the forms --list-functions shows, help() of a row with a Scalar overload,
# and out= handing back the very tensor it was given.

load helpers

@test "index-1.1: --list-functions has searchsorted, bucketize, isin, take_along_dim, scatter_reduce and sum_to_size in 1.13's forms" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    for name in torch.searchsorted torch.bucketize torch.isin torch.take_along_dim Tensor.take_along_dim \
                torch.scatter_reduce Tensor.scatter_reduce Tensor.scatter_reduce_ Tensor.sum_to_size; do
        assert_line "$name"
    done
    refute_line Tensor.searchsorted
    refute_line Tensor.isin
    refute_line torch.sum_to_size
    refute_line torch.scatter_reduce_
}

@test "index-1.2: help(torch.searchsorted) lists the Tensor and the Number overloads" {
    run --separate-stderr tsr_run -e 'help(torch.searchsorted)'
    assert_success
    assert_line --partial "searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False"
    assert_line --partial "searchsorted(Tensor sorted_sequence, Number self, *"
    [ -z "$stderr" ]
}

@test "index-1.3: out= of searchsorted, isin, take_along_dim, complex and narrow_copy returns the out tensor itself" {
    run --separate-stderr tsr_run -e $'o = torch.empty(0, dtype=torch.long)\nprint(torch.searchsorted(torch.tensor([1, 3]), torch.tensor([2]), out=o) is o, o)\nb = torch.empty(0, dtype=torch.bool)\nprint(torch.isin(torch.tensor([1, 2]), torch.tensor([2]), out=b) is b)\nf = torch.empty(0)\nprint(torch.take_along_dim(torch.tensor([[1., 2.]]), torch.tensor([[1]]), 1, out=f) is f)\nc = torch.empty(0, dtype=torch.complex64)\nprint(torch.complex(torch.ones(1), torch.ones(1), out=c) is c)\nprint(torch.narrow_copy(torch.ones(3), 0, 1, 1, out=f) is f)'
    assert_success
    assert_output $'True tensor([1])\nTrue\nTrue\nTrue\nTrue'
    [ -z "$stderr" ]
}

@test "index-9.1: out= of searchsorted, isin, take_along_dim, gather, complex warns when it resizes a non-empty out" {
    for e in 'torch.searchsorted(torch.tensor([1., 2, 3]), torch.tensor([2.5]), out=torch.empty(5, dtype=torch.int64))' \
             'torch.isin(torch.tensor([1, 2]), torch.tensor([2]), out=torch.empty(5, dtype=torch.bool))' \
             'torch.take_along_dim(torch.arange(3.), torch.tensor([0]), out=torch.empty(5))' \
             'torch.gather(torch.ones(3), 0, torch.tensor([0]), out=torch.empty(5))' \
             'torch.complex(torch.ones(2), torch.ones(2), out=torch.empty(5, dtype=torch.complex64))'; do
        run --separate-stderr "$TSR" -e "$e"
        assert_success
        [[ "$stderr" == "UserWarning: An output with one or more elements was resized since it had shape [5], which does not match the required output shape ["*"]. This behavior is deprecated"* ]]
    done
    run --separate-stderr "$TSR" -e 'torch.gather(torch.ones(3), 0, torch.tensor([0]), out=torch.empty(0))'
    [ -z "$stderr" ]
}
