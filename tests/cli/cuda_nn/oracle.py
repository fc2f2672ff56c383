#!/usr/bin/python3
"""Expected output of a cuda_nn script from PyTorch 1.13 on the CPU: each
line runs as the interactive interpreter runs it, with the tensors made on
the CPU (device='cuda' -> 'cpu', .cuda() -> .cpu()) and printed as PyTorch
prints tensors of cuda:0 (the device suffix where the GPU run has it).
Only for values a GPU computes exactly (integers, halves, or few digits).
An exception prints as tsr --brief-errors --keep-going prints it (its type
and the first line of its message) and the script goes on.
With --lowp the script's float16 / bfloat16 values are what CUDA's kernels
give (in float, rounded once): .half() and .bfloat16() are dropped from each
line and what the line prints is rounded to that dtype.
Usage: oracle.py [--lowp] script.tsr > script.out"""
import re
import sys
import warnings

import torch

torch._C._get_default_device = lambda: 'cuda'   # print every tensor's device
_add_suffixes = torch._tensor_str._add_suffixes  # as cuda:0, wrapped by its length


def add_suffixes(tensor_str, suffixes, indent, force_newline):
    suffixes = [s.replace("device='cpu'", "device='cuda:0'") for s in suffixes]
    return _add_suffixes(tensor_str, suffixes, indent, force_newline)


torch._tensor_str._add_suffixes = add_suffixes
lowp = sys.argv[1] == '--lowp'
src = open(sys.argv[-1]).read()
out = []


class Out:
    def write(self, s):
        out.append(s)

    def flush(self):
        pass


warnings.simplefilter('ignore')
real, sys.stdout = sys.stdout, Out()
env = {'torch': torch}
for line in src.splitlines():
    if not line.strip() or line.lstrip().startswith('#'):
        continue
    line = re.sub(r"""device=(['"])cuda(:0)?\1""", "device='cpu'", line).replace('.cuda()', '.cpu()')
    line = re.sub(r"""\.to\((['"])cuda(:0)?\1\)""", ".to('cpu')", line)
    if lowp:
        dt = torch.float16 if '.half()' in line else torch.bfloat16 if '.bfloat16()' in line else None
        line = line.replace('.half()', '').replace('.bfloat16()', '')

        def show(v, dt=dt):
            if v is None:
                return
            conv = lambda t: t.detach().to(dt) if dt and isinstance(t, torch.Tensor) else t
            print(repr(tuple(conv(t) for t in v) if isinstance(v, tuple) else conv(v)))
        sys.displayhook = show
    try:
        exec(compile(line, '<script>', 'single'), env)
    except Exception as e:
        print('%s: %s' % (type(e).__name__, str(e).split('\n')[0]))
sys.stdout = real
sys.stdout.write(''.join(out))
