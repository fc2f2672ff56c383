#!/usr/bin/env bats
# The composed and kernel losses of torch.nn.functional (nnf_loss.c) from
# the command line: what the conformance oracle cannot show (the warnings
# on stderr, an error raised inside a user's distance function).

load helpers

@test "nnf_loss-1.1: the legacy size_average/reduce pair warns with the reduction it stands for" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.hinge_embedding_loss(torch.ones(2), torch.ones(2), reduce=False))'
    assert_success
    assert_output 'tensor([1., 1.])'
    [ "$stderr" = "UserWarning: size_average and reduce args will be deprecated, please use reduction='none' instead." ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.soft_margin_loss(torch.zeros(2), torch.ones(2), size_average=False).item() > 1.38)'
    assert_success
    assert_output 'True'
    [ "$stderr" = "UserWarning: size_average and reduce args will be deprecated, please use reduction='sum' instead." ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.margin_ranking_loss(torch.ones(2), torch.ones(2), torch.ones(2)))'
    assert_success
    [ -z "$stderr" ]
}

@test "nnf_loss-1.2: reduction='elementwise_mean' warns where 1.13's get_enum does, and is refused by the Python losses" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.multi_margin_loss(torch.zeros(1, 2), torch.tensor([0]), reduction="elementwise_mean"))'
    assert_success
    assert_output 'tensor(0.5000)'
    [ "$stderr" = "UserWarning: reduction='elementwise_mean' is deprecated, please use reduction='mean' instead." ]
    run --separate-stderr tsr_run -e 'torch.nn.functional.gaussian_nll_loss(torch.ones(2), torch.ones(2), torch.ones(2), reduction="elementwise_mean")'
    assert_failure
    [[ "$stderr" == *"ValueError: elementwise_mean is not valid"* ]]
}

@test "nnf_loss-1.3: an error inside distance_function propagates with its own type and message" {
    run --separate-stderr tsr_run -e $'def d(x, y):\n    raise KeyError("no distance")\ntorch.nn.functional.triplet_margin_with_distance_loss(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2), distance_function=d)'
    assert_failure
    [[ "$stderr" == *"KeyError: 'no distance'"* ]]
}
