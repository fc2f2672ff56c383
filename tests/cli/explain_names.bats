#!/usr/bin/env bats
# :explain's name-inference steps for every rule family of the coverage list
# (src/bind/table_names.c records them, src/show/explain.c prints them):
# removes dimensions (reductions, keepdim, select, squeeze, indexing),
# contracts away dims (mm, matmul's batch dims, addmm), permutes dimensions
# (transpose, t, align_to), the named API (flatten, unflatten, rename),
# out= and in-place, and refusals. Names asserted are PyTorch 1.13's.

load helpers

NC="x = torch.ones(2, 3, names=('N', 'C'))"

# assert_text PHRASE — $output with its lines joined by single spaces contains PHRASE.
assert_text() {
    local flat
    flat=$(printf '%s\n' "$output" | sed -e 's/^ *//' | tr '\n' ' ' | tr -s ' ')
    [[ $flat == *"$1"* ]] || fail "output does not contain: $1"$'\n'"$output"
}

explain() {
    run --separate-stderr tsr_stdin "$NC"$'\n'":explain $1"$'\n'
}

@test "explain-names-1.1: a reduction removes the reduced dim and its name" {
    explain "x.sum('C')"
    assert_success
    assert_line "1. sum: name inference"
    assert_line "   a  self  tensor, shape (2, 3), names ('N', 'C')"
    assert_text "names: Removes dimensions."
    assert_text "here: Removes dim 1 ('C')."
    assert_line "                a   'N'  'C'"
    assert_line "                =   'N'"
    assert_line "   result:      names ('N',)"
}

@test "explain-names-1.2: keepdim=True keeps the dim and its name" {
    explain "x.mean('N', keepdim=True)"
    assert_success
    assert_text "keepdim=True: the reduced dim 0 ('N') stays with size 1 and keeps its name."
    assert_line "   result:      names ('N', 'C')"
}

@test "explain-names-1.3: a full reduction gives a 0-dim tensor without names" {
    explain "x.sum()"
    assert_success
    assert_text "No dim given: a full reduction to a 0-dim tensor, which has no names."
    assert_text "result: a 0-dim tensor: it has no dims, so no names"
}

@test "explain-names-1.4: reducing a name the tensor lacks fails, with the reason" {
    explain "x.sum('W')"
    assert_failure
    assert_text "result: none: the operation fails with Name 'W' not found in Tensor['N', 'C']."
}

@test "explain-names-1.5: select and squeeze remove dims; indexing with an int is select" {
    run --separate-stderr tsr_stdin "y = torch.ones(1, 3, names=('N', 'C'))"$'\n'":explain y.squeeze()"$'\n'":explain y.select('C', 0)"$'\n'":explain y[0]"$'\n'
    assert_success
    assert_line "1. squeeze: name inference"
    assert_text "here: Removes dim 0 ('N')."
    assert_line "1. select: name inference"
    assert_text "here: Removes dim 1 ('C')."
    assert_line "1. __getitem__: name inference"
    assert_text "Indexing with an int is select"
}

@test "explain-names-1.6: squeeze of a dim whose size is not 1 drops every name (1.13's quirk)" {
    explain "x.squeeze('N')"
    assert_failure
    assert_text "1.13 then gives the result no names at all"
    assert_text "the result still counts as named, so printing it and ops without a names rule refuse it."
    assert_line "   result:      names (None, None)"
    [[ $stderr == *"RuntimeError: aten::_reshape_alias is not yet supported with named tensors."* ]] || fail "$stderr"
}

@test "explain-names-2.1: mm contracts away the inner dims" {
    explain "x.mm(torch.ones(3, 4, names=('in', 'out')))"
    assert_success
    assert_line "1. mm: name inference"
    assert_text "names: Contracts away dims."
    assert_text "here: The product contracts dim 1 ('C') of a with dim 0 ('in') of b; both disappear."
    assert_line "   result:      names ('N', 'out')"
}

@test "explain-names-2.2: matmul unifies the batch dims from the right" {
    run --separate-stderr tsr_stdin ":explain torch.matmul(torch.ones(2, 2, 2, 2, names=('A', 'B', 'C', 'D')), torch.ones(2, 2, 2, names=('B', 'E', 'F')))"$'\n'
    assert_success
    assert_text "The batch dims (all but the last two) are unified from the right."
    assert_line "                a   'A'  'B'  'C'  'D'"
    assert_line "                b        'B'  'E'  'F'"
    assert_line "                =   'A'  'B'  'C'  'F'"
}

@test "explain-names-2.3: matmul's batch dims that do not unify: the pair and why" {
    run --separate-stderr tsr_stdin ":explain torch.matmul(torch.ones(2, 2, 2, names=('A', 'C', 'D')), torch.ones(2, 2, 2, names=('B', 'E', 'F')))"$'\n'
    assert_failure
    assert_text "result: none: the operation fails with"
    assert_text "matmul: Expected 'A' (index 0 of ['A', 'C', 'D']) to match 'B' (index 0 of ['B', 'E', 'F']) but they do not match."
}

@test "explain-names-2.4: addmm composes mm with add" {
    explain "torch.addmm(torch.ones(2, 4, names=('N', None)), x, torch.ones(3, 4, names=(None, 'D')))"
    assert_success
    assert_text "addmm and addmv compose the rule of mm (mv) with that of add"
    assert_line "   result:      names ('N', 'D')"
}

@test "explain-names-3.1: transpose permutes the names with the dims" {
    explain "x.transpose('N', 'C')"
    assert_success
    assert_text "names: Permutes dimensions."
    assert_text "here: Swaps dims 0 ('N') and 1 ('C')."
    assert_line "                =   'C'  'N'"
}

@test "explain-names-3.2: t() and align_to" {
    explain "x.t().align_to('N', 'C')"
    assert_success
    assert_line "1. t: name inference"
    assert_text "t() of a 2-d tensor swaps its two dims and their names."
    assert_line "2. align_to: name inference"
    assert_text "align_to permutes the dims into the given order of names"
    assert_line "   result:      names ('N', 'C')"
}

@test "explain-names-3.3: flatten and unflatten" {
    explain "x.flatten(['N', 'C'], 'F').unflatten('F', (('H', 2), ('W', 3)))"
    assert_success
    assert_line "1. flatten: name inference"
    assert_text "flatten(dims, out_dim) merges consecutive dims into one dim named out_dim"
    assert_line "   result:      names ('F',)"
    assert_line "2. unflatten: name inference"
    assert_text "Splits dim 'F' into the named dims given."
    assert_line "   result:      names ('H', 'W')"
}

@test "explain-names-3.4: rename shows the old and the new names" {
    explain "x.rename(N='batch')"
    assert_success
    assert_line "1. rename: name inference"
    assert_line "                a      'N'     'C'"
    assert_line "                =  'batch'     'C'"
}

@test "explain-names-4.1: an unnamed out= receives the computed names" {
    explain "torch.sum(x, 'C', out=torch.empty(2))"
    assert_success
    assert_text "out=: the out= tensor has no names, so it receives the computed names."
}

@test "explain-names-4.2: a named out= must carry exactly the computed names" {
    explain "torch.sum(x, 'C', out=torch.empty(2, names=('B',)))"
    assert_failure
    assert_text "the out= tensor has names ('B',), which differ from the computed ('N',)"
    assert_text "Name mismatch: specified out tensor with names ['B'] are not the same as the computed output names ['N']."
}

@test "explain-names-4.3: an in-place op: an unnamed self takes the computed names" {
    run --separate-stderr tsr_stdin "$NC"$'\n'"z = torch.zeros(2, 3)"$'\n'":explain z.add_(x)"$'\n'"z.names"$'\n'
    assert_success
    assert_text "in-place: self has no names, so it receives the computed names."
    assert_line "('N', 'C')"
}

@test "explain-names-4.5: copy_ into an unnamed self (out function and in-place variants)" {
    run --separate-stderr tsr_stdin "$NC"$'\n'"z = torch.zeros(2, 3)"$'\n'":explain z.copy_(x)"$'\n'"z.names"$'\n'
    assert_success
    assert_text "names: out function and in-place variants."
    assert_line "   a  self   tensor, shape (2, 3), names (None, None)"
    assert_text "in-place: self has no names, so it receives the computed names."
    assert_line "('N', 'C')"
}

@test "explain-names-4.4: an elementwise out= with other names fails" {
    explain "torch.add(x, 1, out=torch.empty(2, 3, names=('A', None)))"
    assert_failure
    assert_text "out=: the out= tensor has names ('A', None), which differ from the computed ('N', 'C')"
}

@test "explain-names-5.1: a refusal names the op and why" {
    explain "x.sgn()"
    assert_failure
    assert_line "1. sgn: name inference"
    assert_text "names: Not supported with named tensors. PyTorch 1.13 has no name-inference rule for this op"
    assert_text "here: This call runs aten::sgn, which has no names rule in 1.13."
    assert_text "result: none: 1.13 refuses the named input (the error follows)"
    [[ $stderr == *"RuntimeError: aten::sgn is not yet supported with named tensors."* ]]
}

@test "explain-names-5.2: the step before a refusal still shows; cat unifies names" {
    explain "torch.cat([x, x], dim='N').permute(1, 0)"
    assert_failure
    assert_line "1. cat: name inference"
    assert_text "names: Unifies names from inputs."
    assert_line "2. permute: name inference"
    assert_text "here: This call runs aten::permute, which has no names rule in 1.13."
}

@test "explain-names-5.3: an elementwise failure keeps the op's own error" {
    explain "x + torch.ones(3, names=('D',))"
    assert_failure
    [[ $stderr == *"RuntimeError: Error when attempting to broadcast dims ['N', 'C'] and dims ['D']"* ]]
    [[ $stderr != *"internal error"* ]]
}
