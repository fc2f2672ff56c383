#!/usr/bin/python3
"""Expected output of a cuda_reduce, cuda_scan, cuda_linalg or cuda_speed
script from PyTorch 1.13 on the CPU: each
line runs as the interactive interpreter runs it, with the tensors made on
the CPU (device='cuda' -> 'cpu', .cuda() -> .cpu()) and printed as PyTorch
prints tensors of cuda:0 (the device suffix where the GPU run has it).
Only for values a GPU computes exactly (integers, halves, or few digits).
Usage: oracle.py script.tsr > script.out"""
import re
import sys

import torch

torch._C._get_default_device = lambda: 'cuda'   # print every tensor's device
_add_suffixes = torch._tensor_str._add_suffixes  # as cuda:0, wrapped by its length


def add_suffixes(tensor_str, suffixes, indent, force_newline):
    suffixes = [s.replace("device='cpu'", "device='cuda:0'") for s in suffixes]
    return _add_suffixes(tensor_str, suffixes, indent, force_newline)


torch._tensor_str._add_suffixes = add_suffixes
src = open(sys.argv[1]).read()
out = []


class Out:
    def write(self, s):
        out.append(s)

    def flush(self):
        pass


real, sys.stdout = sys.stdout, Out()
env = {'torch': torch}
for line in src.splitlines():
    if not line.strip() or line.lstrip().startswith('#'):
        continue
    line = re.sub(r"""device=(['"])cuda(:0)?\1""", "device='cpu'", line).replace('.cuda()', '.cpu()')
    exec(compile(line, '<script>', 'single'), env)
sys.stdout = real
sys.stdout.write(''.join(out))
