#!/usr/bin/env bats
# Devices as newer PyTorch has them (seed 000, SEMANTICS.md §8): a device as
# a context manager and torch.set_default_device give factories their device.
# PyTorch 1.13 (the oracle) lacks both, so these are not conformance cases.

load helpers

@test "devices-1.1: with torch.device('meta') makes factories meta; an explicit device wins" {
    mkscript s.tsr $'with torch.device("meta"):\n    x = torch.zeros(2, 3)\n    y = torch.zeros(2, device="cpu")\nx.device\ny.device\nx.shape\ntorch.zeros(1).device\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'device(type=\'meta\')\ndevice(type=\'cpu\')\ntorch.Size([2, 3])\ndevice(type=\'cpu\')'
}

@test "devices-1.2: nested blocks restore the outer device; 'as' binds the device" {
    mkscript s.tsr $'with torch.device("meta") as d:\n    with torch.device("cpu"):\n        a = torch.ones(2)\n    b = torch.arange(3)\na.device\nb.device\nd\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'device(type=\'cpu\')\ndevice(type=\'meta\')\ndevice(type=\'meta\')'
}

@test "devices-1.3: an error inside the block still restores the default" {
    mkscript s.tsr $'with torch.device("cuda:1"):\n    torch.zeros(1)\ntorch.zeros(1).device\n'
    run --separate-stderr tsr_run --keep-going s.tsr
    assert_failure 1
    assert_output "device(type='cpu')"
    use_stderr
    assert_line --partial "AssertionError: Torch not compiled with CUDA enabled"
}

@test "devices-1.4: ops other than factories follow their inputs" {
    mkscript s.tsr $'x = torch.zeros(2)\nwith torch.device("meta"):\n    y = x.t()\n    z = x.clone()\ny.device\nz.device\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'device(type=\'cpu\')\ndevice(type=\'cpu\')'
}

@test "devices-2.1: torch.set_default_device, get_default_device, None restores cpu" {
    mkscript s.tsr $'torch.set_default_device("meta")\ntorch.zeros(2).device\ntorch.get_default_device()\ntorch.tensor([1, 2]).device\ntorch.set_default_device(None)\ntorch.zeros(2).device\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'device(type=\'meta\')\ndevice(type=\'meta\')\ndevice(type=\'meta\')\ndevice(type=\'cpu\')'
}

@test "devices-2.2: set_default_device rejects a bad device string with PyTorch's message" {
    mkscript s.tsr $'torch.set_default_device("gpu")\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --partial "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device string: gpu"
}

@test "devices-3.1: torch.cuda without a GPU backend" {
    mkscript s.tsr $'torch.cuda.is_available()\ntorch.cuda.device_count()\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'False\n0'
}
