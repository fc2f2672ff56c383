#!/usr/bin/env bats
# torch.nn.functional's glu, shuffles, shrinks, rrelu, unfold/fold and
# gumbel_softmax from the command line: what the conformance oracle cannot
# show (warnings on stderr, help text, the generator stream a script shares).

load helpers

@test "nnf_more-1.1: gumbel_softmax warns that eps is deprecated, and only when eps is given another value" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.gumbel_softmax(torch.zeros(1, 2), eps=0.5).shape)'
    assert_success
    assert_output 'torch.Size([1, 2])'
    [ "$stderr" = 'UserWarning: `eps` parameter is deprecated and has no effect.' ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.gumbel_softmax(torch.zeros(1, 2)).shape)'
    assert_success
    [ -z "$stderr" ]
}

@test "nnf_more-1.2: rrelu in training draws from the default generator: the same seed gives the same slopes" {
    run --separate-stderr tsr_run -e $'x = -torch.ones(4)\ntorch.manual_seed(5);\na = torch.nn.functional.rrelu(x, training=True)\ntorch.manual_seed(5);\nb = torch.rrelu(x, training=True)\nprint(a.equal(b), bool(((a <= -0.125) & (a >= -1/3)).all()))'
    assert_success
    assert_output 'True True'
}

@test "nnf_more-1.3: help() shows 1.13's signature line and the parser's signature for the new rows" {
    run --separate-stderr tsr_run -e 'help(torch.nn.functional.pixel_shuffle)'
    assert_success
    assert_line 'pixel_shuffle(input, upscale_factor) -> Tensor'
    assert_line '    pixel_shuffle(Tensor input, int64_t upscale_factor)'
    run --separate-stderr tsr_run -e 'help(torch.ones(1).hardshrink)'
    assert_success
    assert_line 'hardshrink(lambd=0.5) -> Tensor'
}
