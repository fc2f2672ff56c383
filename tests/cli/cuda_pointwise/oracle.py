# tests/cli/cuda_pointwise/oracle.py: the expected text of a .tsr script here
# or in cuda_complex/.
# Runs its statements in PyTorch 1.13 on the CPU (/usr/bin/python3) and prints
# what the REPL would, as PyTorch prints the same values on cuda:0 (the
# device suffix in the repr, line breaks included). A statement whose dtype
# the CPU has no kernel for names its oracle after "  #= " (float16 math in
# float, rounded once, as the CUDA kernels compute it).
#   /usr/bin/python3 oracle.py binary.tsr > binary.out
import sys, torch, torch._tensor_str as ts
torch._C._get_default_device = lambda: 'cuda'
_orig = ts._add_suffixes
ts._add_suffixes = lambda t, s, ind, force_newline: _orig(t, [x.replace("device='cpu'", "device='cuda:0'") for x in s], ind, force_newline)
g = {'torch': torch}
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if not line.strip() or line.lstrip().startswith('#'):
        continue
    if '  #= ' in line:   # the CPU has no kernel for that dtype: the oracle's own statement
        line = line.split('  #= ', 1)[1]
    src = line.replace("device='cuda'", "device='cpu'")
    try:
        code = compile(src, '<s>', 'eval')
    except SyntaxError:
        exec(compile(src, '<s>', 'exec'), g)
        continue
    v = eval(code, g)
    if v is not None:
        print(repr(v))
