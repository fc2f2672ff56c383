#!/usr/bin/env bats
# The tensor memory budget: --max-memory SIZE / TSR_MAX_MEMORY over live
# tensor storage; an allocation past it is PyTorch's DefaultCPUAllocator
# error at once, the session goes on; :mem shows use, peak and limit.

load helpers

OOM='RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can'"'"'t allocate memory: you tried to allocate 80000000 bytes. Error code 12 (Cannot allocate memory)'

@test "mem-1.1: --max-memory: an allocation past the budget fails at once, the session goes on" {
    run --separate-stderr tsr_stdin $'a = torch.zeros(10_000_000)\nb = torch.zeros(20_000_000)\nprint(a.shape)\n' --max-memory 100M
    assert_failure 1
    assert_output "torch.Size([10000000])"
    use_stderr
    assert_line --index 0 "<stdin>:2:5: $OOM"
}

@test "mem-1.2: TSR_MAX_MEMORY sets the same budget; the option wins over it" {
    run --separate-stderr bash -c 'TSR_MAX_MEMORY=50M "$0" -e "x = torch.zeros(20_000_000)"' "$TSR"
    assert_failure 1
    use_stderr
    assert_line --index 0 "<string>:1:5: $OOM"
    run --separate-stderr bash -c 'TSR_MAX_MEMORY=50M "$0" --max-memory 1G -e "x = torch.zeros(20_000_000); print(x.shape)"' "$TSR"
    assert_success
    assert_output "torch.Size([20000000])"
}

@test "mem-1.3: freed storage returns to the budget" {
    run --separate-stderr tsr_run --max-memory 100M -e $'for i in range(20):\n    x = torch.zeros(20_000_000)\n    x = None\nprint("ok")'
    assert_success
    assert_output "ok"
}

@test "mem-1.4: a bad size is a usage error (status 2)" {
    run --separate-stderr tsr_run --max-memory lots -e 1
    assert_failure 2
    use_stderr
    assert_output "tsr: invalid memory size 'lots' (a number of bytes, or with K, M, G or T)"
    run --separate-stderr bash -c 'TSR_MAX_MEMORY=0 "$0" -e 1' "$TSR"
    assert_failure 2
    run --separate-stderr tsr_run --max-memory
    assert_failure 2
}

@test "mem-2.1: :mem shows the bytes in use, the peak and the limit" {
    run --separate-stderr tsr_stdin $':mem\na = torch.zeros(1_000_000)\nb = torch.zeros(2_000_000)\nb = None\n:mem\n:mem reset\n' --max-memory=1.5G
    assert_success
    assert_output - <<'OUT'
in use   0 bytes
peak     0 bytes
limit    1.50 GiB (1610612736 bytes)
in use   3.81 MiB (4000000 bytes)
peak     11.44 MiB (12000000 bytes)
limit    1.50 GiB (1610612736 bytes)
in use   3.81 MiB (4000000 bytes)
peak     3.81 MiB (4000000 bytes)
limit    1.50 GiB (1610612736 bytes)
OUT
}

@test "mem-2.2: the default limit is half of physical memory" {
    local phys
    phys=$(( $(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 2 ))
    run --separate-stderr tsr_stdin $':mem\n'
    assert_success
    assert_line --index 2 --regexp "^limit .*\\($phys bytes\\)$"
}

@test "mem-2.3: ':mem' takes no argument but reset" {
    run --separate-stderr tsr_stdin $':mem foo\n'
    assert_failure 1
    use_stderr
    assert_output "usage: :mem [reset]"
}
