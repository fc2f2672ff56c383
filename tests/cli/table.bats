#!/usr/bin/env bats
# The binding table: --list-functions and its coverage of PyTorch 1.13's list.

load helpers

@test "table-1.1: --list-functions prints sorted, unique qualified names" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    [ -z "$stderr" ]
    assert_line "torch.add"
    assert_line "Tensor.add_"
    assert_line "torch.where"
    sorted=$(printf '%s\n' "$output" | LC_ALL=C sort -u)
    assert_equal "$output" "$sorted"
    [ "${#lines[@]}" -ge 460 ]
}

@test "table-1.2: every listed name is a PyTorch 1.13 callable (or a newer one the seeds add)" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    known=$(sed -n 's/^    {"\([^"]*\)".*/\1/p' "$BATS_TEST_DIRNAME/../../src/bind/torch_api.c")
    extra=$(LC_ALL=C comm -23 <(printf '%s\n' "$output") <(printf '%s\n' "$known" | LC_ALL=C sort))
    assert_equal "$extra" "$(printf 'torch.get_default_device\ntorch.set_default_device')"
}
