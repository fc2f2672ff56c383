#!/usr/bin/env bats
# :info and :storage (src/cmd/info.c, drawn by src/show/info.c), and an allocation that cannot succeed.

load helpers

@test "info-1.1: :info prints an aligned two-column table of a contiguous tensor" {
    run --separate-stderr tsr_stdin $'x = torch.zeros(2, 3)\n:info x\n'
    assert_success
    assert_line --index 0 "dtype           torch.float32"
    assert_line --index 1 "device          cpu"
    assert_line --index 2 "layout          torch.strided"
    assert_line --index 3 "shape           (2, 3)"
    assert_line --index 4 "stride          (3, 1)"
    assert_line "storage offset  0"
    assert_line "storage size    6 elements (24 bytes)"
    assert_line "contiguity      contiguous"
    assert_line "memory format   torch.contiguous_format"
    assert_line "names           None"
}

@test "info-1.2: a transposed view is non-contiguous but dense; a slice shows its offset" {
    run --separate-stderr tsr_stdin $'x = torch.arange(12).reshape(3, 4)\n:info x.t()\n:info x[1:, ::2]\n'
    assert_success
    assert_line "stride          (1, 4)"
    assert_line "contiguity      non-contiguous (non-overlapping and dense)"
    assert_line "storage offset  4"
    assert_line "stride          (4, 2)"
    assert_line "contiguity      non-contiguous"
    assert_line "storage size    12 elements (96 bytes)"
}

@test "info-1.3: channels_last, meta and 0-dim tensors" {
    run --separate-stderr tsr_stdin $':info torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)\n:info torch.zeros(2, device="meta")\n:info torch.tensor(5)\n'
    assert_success
    assert_line "contiguity      channels_last"
    assert_line "memory format   torch.channels_last"
    assert_line "device          meta"
    assert_line "shape           ()"
}

@test "info-1.4: a value that is not a tensor is a TypeError and the session goes on" {
    run --separate-stderr tsr_stdin $':info 3\n1 + 1\n'
    assert_output "2"
    use_stderr
    assert_line --partial "TypeError: :info needs a tensor, not int"
}

@test "info-1.5: an error in EXPR is reported like any error" {
    run --separate-stderr tsr_stdin $':info nosuch\n7\n'
    assert_output "7"
    use_stderr
    assert_line --partial "NameError: name 'nosuch' is not defined"
}

@test "info-1.6: :help lists :info and :storage" {
    run --separate-stderr tsr_stdin $':help\n'
    assert_success
    assert_line --regexp '^  :info EXPR +a tensor'
    assert_line --regexp '^  :storage EXPR +the storage'
}

@test "storage-1.1: the whole storage is drawn with the view's elements marked" {
    run --separate-stderr tsr_stdin $'x = torch.arange(6)\n:storage x[1::2]\n'
    assert_success
    assert_line --index 0 "storage: 6 elements of torch.int64 on cpu (48 bytes)"
    assert_line --index 1 "view: offset 1, shape (3,), stride (2,) reaches 3 of them"
    assert_line --index 2 "index   0 1 2 3 4 5"
    assert_line --index 3 "value   0 1 2 3 4 5"
    assert_line --index 4 "          ^   ^   ^"
}

@test "storage-1.2: an expanded view marks elements reached more than once with +" {
    run --separate-stderr tsr_stdin $':storage torch.tensor([1., 2.]).expand(3, 2)\n'
    assert_success
    assert_line --partial "(2 more than once, marked +)"
    assert_line "value   1.0 2.0"
    assert_line "        +++ +++"
}

@test "storage-1.3: long storages wrap, huge ones are elided in the middle" {
    run --separate-stderr tsr_stdin $':storage torch.arange(100)\n:storage torch.arange(5000)\n'
    assert_success
    assert_line --regexp '^index +0 +1 +2 '
    assert_line --regexp '^value .* \.\.\. '
    assert_line --regexp ' 4999$'
}

@test "storage-1.4: a storage value, a meta tensor, and a non-tensor" {
    run --separate-stderr tsr_stdin $':storage torch.FloatStorage([1, 2])\n:storage torch.zeros(2, device="meta")\n:storage [1]\n'
    assert_line "storage: 2 elements of torch.float32 on cpu (8 bytes)"
    assert_line "value   1.0 2.0"
    assert_line "value   ? ?"
    use_stderr
    assert_line --partial "TypeError: :storage needs a tensor or a storage, not list"
}

@test "alloc-1.1: an allocation that cannot succeed is PyTorch's RuntimeError and the session goes on" {
    run --separate-stderr tsr_stdin $'torch.zeros(10**13)\nx = torch.ones(2)\nx.tolist()\n'
    assert_output "[1.0, 1.0]"
    use_stderr
    assert_line --index 0 --regexp "RuntimeError: \[enforce fail at alloc_cpu.cpp:75\] err == 0\. DefaultCPUAllocator: can't allocate memory: you tried to allocate 40000000000000 bytes\. Error code 12 \(Cannot allocate memory\)$"
}

@test "alloc-1.2: the same failure from a legacy constructor and from torch.empty" {
    run --separate-stderr tsr_stdin $'torch.FloatTensor(10**13)\ntorch.empty(10**13, dtype=torch.int8)\n3\n'
    assert_output "3"
    use_stderr
    assert_line --index 0 --partial "you tried to allocate 40000000000000 bytes"
    assert_line --partial "you tried to allocate 10000000000000 bytes"
}
