#!/usr/bin/env bats
# help(), :help EXPR and dir(): what the built-ins that describe values print.
# help() of a binding-table callable prints 1.13's summary and the signatures
# its parser accepts; of a Python built-in function, Python's own text; of
# any other value, the type and repr; dir() lists the
# session's names.

load helpers

@test "helpfn-1.1: help(len) prints Python's own help text and returns None" {
    run --separate-stderr tsr_run -e 'r = help(len)' -e 'print(r)'
    assert_success
    assert_output $'Help on built-in function len in module builtins:\n\nlen(obj, /)\n    Return the number of items in a container.\n\nNone'
    [ -z "$stderr" ]
}

@test "helpfn-1.2: help(value) prints one line with the type and the repr" {
    run --separate-stderr tsr_run -e $'help(3)\nhelp(torch.zeros(2))\nr = help(1.5)\nprint(r)'
    assert_success
    assert_line --index 0 "Help on int object: 3"
    assert_line --index 1 "Help on Tensor object: tensor([0., 0.])"
    assert_line --index 2 "Help on float object: 1.5"
    assert_line --index 3 "None"
}

@test "helpfn-1.3: help() without an argument says where help is, never silence" {
    run --separate-stderr tsr_run -e 'help()'
    assert_success
    assert_output --partial ":help"
}

@test "helpfn-1.4: help() with two arguments raises pydoc's TypeError" {
    run --separate-stderr tsr_run --brief-errors -e 'help(1, 2)'
    assert_failure 1
    assert_output "TypeError: Helper.__call__() takes from 1 to 2 positional arguments but 3 were given"
}

@test "helpfn-1.5: :help EXPR prints what help(EXPR) prints" {
    run --separate-stderr tsr_stdin $':help len\n:help 2 + 3\n'
    assert_success
    assert_line --index 0 "Help on built-in function len in module builtins:"
    assert_line --index 1 "len(obj, /)"
    assert_line --index 3 "Help on int object: 5"
}

@test "dir-1.1: dir() lists the session's names, sorted" {
    run --separate-stderr tsr_run -e $'zeta = 1\nalpha = 2\ndir()'
    assert_success
    assert_output "['__name__', 'alpha', 'torch', 'zeta']"
}

@test "dir-1.2: dir(x) lists x's attributes" {
    run --separate-stderr tsr_run -e "'shape' in dir(torch.zeros(1)), 'append' in dir([])"
    assert_success
    assert_output "(True, True)"
}

@test "helpfn-2.1: help(torch.add) prints 1.13's docstring signature, summary and parser signatures" {
    run --separate-stderr tsr_run -e 'help(torch.add)'
    assert_success
    assert_line --index 0 "Help on built-in function add in module torch:"
    assert_line "add(input, other, *, alpha=1, out=None) -> Tensor"
    assert_line "    Adds other, scaled by alpha, to input."
    assert_line "    add(Tensor input, Tensor other, *, Number alpha=1, Tensor? out=None)"
    assert_line "    add(Tensor input, Number alpha, Tensor other, *, Tensor? out=None)  (deprecated)"
    [ -z "$stderr" ]
}

@test "helpfn-2.2: help of a method and of its in-place form name each" {
    run --separate-stderr tsr_run -e $'x = torch.ones(1)\nhelp(x.exp)\nhelp(x.exp_)'
    assert_success
    assert_line "Help on method exp of Tensor:"
    assert_line "    exp()"
    assert_line "Help on method exp_ of Tensor:"
    assert_line "exp_() -> Tensor"
}
