#!/usr/bin/env bats
# torch.nn.functional from the command line: the module imports three ways,
# and the UserWarnings of 1.13's Python defs (the oracle silences warnings).

load helpers

@test "nnf-1.1: torch.nn.functional imports as F, as a module attribute, and from torch.nn" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nfrom torch.nn import functional as G\nprint(F is G, F.relu(torch.tensor([-1., 2.])), torch.nn.functional.relu is F.relu)'
    assert_success
    assert_output 'True tensor([0., 2.]) True'
    [ -z "$stderr" ]
}

@test "nnf-1.2: softmax without dim warns that the implicit dim is deprecated and takes 1.13's choice" {
    run --separate-stderr tsr_run -e 'torch.nn.functional.softmax(torch.tensor([[1., 2.], [3., 5.]]))'
    assert_success
    assert_output $'tensor([[0.2689, 0.7311],\n        [0.1192, 0.8808]])'
    [ "$stderr" = "UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument." ]
}

@test "nnf-1.3: the losses warn for the legacy size_average/reduce pair and for a target of another size" {
    run --separate-stderr tsr_run -e 'torch.nn.functional.mse_loss(torch.ones(2), torch.zeros(2), size_average=False)'
    assert_success
    assert_output 'tensor(2.)'
    [ "$stderr" = "UserWarning: size_average and reduce args will be deprecated, please use reduction='sum' instead." ]
    run --separate-stderr tsr_run -e 'torch.nn.functional.l1_loss(torch.ones(2, 3), torch.zeros(3))'
    assert_success
    assert_output 'tensor(1.)'
    [ "$stderr" = "UserWarning: Using a target size (torch.Size([3])) that is different to the input size (torch.Size([2, 3])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size." ]
}

@test "nnf-1.4: F functions computed in the runtime record their graph; what they cannot record yet is refused, and computes under no_grad" {
    run --separate-stderr tsr_run -e $'x = torch.ones(2, requires_grad=True)\ntorch.nn.functional.mse_loss(x, torch.zeros(2))'
    assert_success
    assert_output 'tensor(1., grad_fn=<MseLossBackward0>)'
    run --separate-stderr tsr_run -e $'x = torch.ones(2, 3, requires_grad=True)\ntorch.nn.functional.cosine_similarity(x, torch.ones(3, dtype=torch.float64))'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"NotImplementedError: the gradient of cosine_similarity of operands of other dtypes is not supported by tsr yet"* ]]
    run --separate-stderr tsr_run -e $'x = torch.ones(2, 3, requires_grad=True)\nwith torch.no_grad():\n    print(torch.nn.functional.cosine_similarity(x, torch.ones(3, dtype=torch.float64)))'
    assert_success
    assert_output 'tensor([1.0000, 1.0000], dtype=torch.float64)'
}
