#!/usr/bin/env bats
# Running a script file: printed values, ';', errors, --keep-going, shebang.

load helpers

@test "script-1.1: expression statements print their repr" {
    mkscript s.tsr $'1 + 2\nx = 5\nx * 2\n\'a\' + \'b\'\n(1, [2.5, None])\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'3\n10\n\'ab\'\n(1, [2.5, None])'
    [ -z "$stderr" ]
}

@test "script-1.2: None values are not printed; print() output is" {
    mkscript s.tsr $'None\nprint(\'hi\')\nx = None\nx\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output "hi"
}

@test "script-1.3: a trailing ';' suppresses the value" {
    mkscript s.tsr $'x = 4\nx * 2;\nx + 1\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output "5"
}

@test "script-1.4: a tensor value prints as PyTorch's repr" {
    mkscript s.tsr $'torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'tensor([[1, 2],\n        [3, 4]], dtype=torch.int32)'
}

@test "script-1.5: blocks end without a blank line, as in a Python file" {
    mkscript s.tsr $'for i in range(2):\n    print(i)\nprint(\'done\')\nif False:\n    pass\nelse:\n    print(\'else\')\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'0\n1\ndone\nelse'
}

@test "script-1.6: only the last of '1; 2' prints; expressions inside blocks do not" {
    mkscript s.tsr $'1; 2\n3; 4;\nif True:\n    5\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output "2"
}

@test "script-2.1: the first error stops the script with status 1" {
    mkscript s.tsr $'print(\'a\')\n1/0\nprint(\'b\')\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output "a"
    use_stderr
    assert_line --index 0 --regexp '^s\.tsr:2:[0-9]+: ZeroDivisionError: division by zero$'
}

@test "script-2.2: --keep-going reports each error and goes on, status 1" {
    mkscript s.tsr $'1/0\nprint(\'after\')\nundefined_name\nprint(\'end\')\n'
    run --separate-stderr tsr_run --keep-going s.tsr
    assert_failure 1
    assert_output $'after\nend'
    use_stderr
    assert_line --regexp '^s\.tsr:1:[0-9]+: ZeroDivisionError: division by zero$'
    assert_line --regexp "^s\\.tsr:3:1: NameError: name 'undefined_name' is not defined\$"
    [ "$(grep -c '^s\.tsr:' <<<"$stderr")" -eq 2 ]
}

@test "script-2.3: -k is --keep-going" {
    mkscript s.tsr $'1/0\nprint(\'after\')\n'
    run --separate-stderr tsr_run -k s.tsr
    assert_failure 1
    assert_output "after"
}

@test "script-2.4: --keep-going with no error: status 0" {
    mkscript s.tsr $'print(\'fine\')\n'
    run --separate-stderr tsr_run --keep-going s.tsr
    assert_success
    assert_output "fine"
    [ -z "$stderr" ]
}

@test "script-2.5: --keep-going: a failed statement binds nothing" {
    mkscript s.tsr $'x = 1\nx = 1/0\nx\n'
    run --separate-stderr tsr_run -k s.tsr
    assert_failure 1
    assert_output "1"
}

@test "script-3.1: a '#!/usr/bin/env tsr' first line is allowed" {
    mkscript s.tsr $'#!/usr/bin/env tsr\nprint(\'ok\')\n6 * 7\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'ok\n42'
    [ -z "$stderr" ]
}

@test "script-3.2: an executable script with a shebang runs by itself" {
    mkdir -p bin
    ln -s "$(cd "$(dirname "$TSR")" && pwd)/$(basename "$TSR")" bin/tsr
    mkscript run-me $'#!/usr/bin/env tsr\nprint(\'ran\')\n'
    chmod +x run-me
    PATH="$BATS_TEST_TMPDIR/bin:$PATH" run --separate-stderr ./run-me
    assert_success
    assert_output "ran"
}

@test "script-4.1: doctest mode: a file of '>>> ' lines skips the printed output" {
    mkscript doc.tsr $'>>> x = torch.tensor([1, 2])\n>>> x\ntensor([1, 2])\n>>> for i in range(2):\n...     print(i)\n0\n1\n'
    run --separate-stderr tsr_run doc.tsr
    assert_success
    assert_output $'tensor([1, 2])\n0\n1'
}

@test "script-4.2: import torch is optional and harmless" {
    mkscript s.tsr $'import torch\nimport torch as t\nt.zeros(2)\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output "tensor([0., 0.])"
}

@test "script-4.3: an unknown module raises ModuleNotFoundError" {
    mkscript s.tsr $'import scipy\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp "^s\\.tsr:1:[0-9]+: ModuleNotFoundError: No module named 'scipy'\$"
}
