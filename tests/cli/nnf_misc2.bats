#!/usr/bin/env bats
# prelu, embedding_bag, ctc_loss and multi_head_attention_forward from the
# command line: what the conformance oracle cannot show (warnings on stderr).

load helpers

@test "nnf_misc2-1.1: embedding_bag warns about the old (weight, input) argument order and swaps them" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.embedding_bag(torch.ones(3, 2), torch.tensor([[0, 2]]), mode="sum"))'
    assert_success
    assert_output 'tensor([[2., 2.]])'
    [[ "$stderr" == 'UserWarning: Argument order of nn.functional.embedding_bag was changed.'* ]]
}

@test "nnf_misc2-1.2: multi_head_attention_forward warns about a byte attn_mask" {
    run --separate-stderr tsr_run -e $'x = torch.ones(2, 1, 2)\nw = torch.eye(2).repeat(3, 1)\no, a = torch.nn.functional.multi_head_attention_forward(x, x, x, 2, 1, w, None, None, None, False, 0.0, torch.eye(2), None, attn_mask=torch.zeros(2, 2, dtype=torch.uint8))\nprint(a)'
    assert_success
    assert_output $'tensor([[[0.5000, 0.5000],\n         [0.5000, 0.5000]]])'
    [[ "$stderr" == 'UserWarning: Byte tensor for attn_mask in nn.MultiheadAttention is deprecated.'* ]]
}

@test "nnf_misc2-1.3: ctc_loss warns about reduction='elementwise_mean'" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.ctc_loss(torch.zeros(2, 1, 2), torch.tensor([[1]]), (2,), (1,), reduction="elementwise_mean"))'
    assert_success
    assert_output 'tensor(-1.0986)'
    [[ "$stderr" == "UserWarning: reduction='elementwise_mean' is deprecated, please use reduction='mean' instead." ]]
}
