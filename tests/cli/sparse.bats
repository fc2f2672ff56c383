#!/usr/bin/env bats
# Sparse COO tensors as a user sees them: :info and :storage show the two
# storages a sparse tensor owns (src/show/info.c, src/cmd/info.c), and no
# strided path ever reads a sparse tensor (the table's sparse step).

load helpers

S='s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))'

@test "sparse-1.1: :info of a sparse tensor shows nnz, coalescing and its indices and values" {
    run --separate-stderr tsr_stdin "$S"$'\n:info s\n:info s.coalesce()\n'
    assert_success
    assert_line "layout          torch.sparse_coo"
    assert_line "dims            2 sparse + 0 dense"
    assert_line "nnz             3"
    assert_line "coalesced       no (indices may repeat, unsorted)"
    assert_line "coalesced       yes (sorted unique indices)"
    assert_line "indices         torch.int64, shape (2, 3), stride (3, 1), storage 6 elements (48 bytes)"
    assert_line "values          torch.float32, shape (3,), stride (1,), storage 3 elements (12 bytes)"
}

@test "sparse-1.2: :storage of a sparse tensor draws the indices' and the values' storages" {
    run --separate-stderr tsr_stdin "$S"$'\n:storage s\n'
    assert_success
    assert_line "sparse_coo tensor, not coalesced: its storages are those of its indices and values"
    assert_line "indices storage: 6 elements of torch.int64 on cpu (48 bytes)"
    assert_line "values storage: 3 elements of torch.float32 on cpu (12 bytes)"
    assert_line "value   0 1 1 2 0 2"
    assert_line "value   3.0 4.0 5.0"
}

@test "sparse-1.3: strided paths refuse a sparse tensor (views, indexing, iteration), the session goes on" {
    run --separate-stderr tsr_stdin "$S"$'\ns[0]\ns.mT\nlist(s)\ns.exp()\nprint(s.to_dense())\n'
    assert_failure 1   # the errors, reported; no crash
    assert_output --partial "tensor([[0., 0., 3.],"
    [[ "$stderr" == *"NotImplementedError"* ]]
    [[ "$stderr" == *"Could not run 'aten::exp' with arguments from the 'SparseCPU' backend"* ]]
}

@test "sparse-1.4: a sparse op whose derivative tsr lacks refuses while an argument requires grad, computes without" {
    run --separate-stderr tsr_stdin "$S"$'\nw = s.clone().requires_grad_()\nw.sin()\nw.pow(2)\nw ** 2\nwith torch.no_grad():\n    print(w.sin().requires_grad)\n\nprint(w.detach().pow(2)._values())\n'
    assert_failure 1
    [[ "$stderr" == *"NotImplementedError: tsr: the derivative of sin on sparse tensors is not implemented"* ]]
    [[ "$stderr" == *"NotImplementedError: tsr: the derivative of pow on sparse tensors is not implemented"* ]]
    assert_line "False"
    assert_line "tensor([ 9., 16., 25.])"
}

@test "sparse-1.5: F.dropout(s, 1.0) in training refuses (1.13 multiplies by an uninitialised value)" {
    run --separate-stderr tsr_stdin "$S"$'\ntorch.nn.functional.dropout(s, 1.0)\n'
    assert_failure 1
    [[ "$stderr" == *"NotImplementedError: tsr: dropout with p=1 of a sparse tensor is not supported"* ]]
}
