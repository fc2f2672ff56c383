# tests/cli/cuda_fft/oracle.py: the expected text of a .tsr script here.
# Runs its statements in PyTorch 1.13 on the CPU (/usr/bin/python3) and prints
# what tsr --keep-going --brief-errors prints, as PyTorch prints the same
# values on cuda:0 (the device suffix in the repr, line breaks included).
# A statement that fails prints "Type: message" (the same checks run before
# either device computes). A line "stmt  #! text" expects text itself: what
# differs on cuda (the strides _exec_fft gives, native/cuda/SpectralOps.cpp).
#   /usr/bin/python3 oracle.py fft.tsr > fft.out
import sys, torch, torch._tensor_str as ts
torch._C._get_default_device = lambda: 'cuda'
_orig = ts._add_suffixes
ts._add_suffixes = lambda t, s, ind, force_newline: _orig(t, [x.replace("device='cpu'", "device='cuda:0'") for x in s], ind, force_newline)
g = {'torch': torch}
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if not line.strip() or line.lstrip().startswith('#'):
        continue
    if '  #! ' in line:
        print(line.split('  #! ', 1)[1])
        continue
    src = line.replace("device='cuda'", "device='cpu'")
    try:
        try:
            code = compile(src, '<s>', 'eval')
        except SyntaxError:
            exec(compile(src, '<s>', 'exec'), g)
            continue
        v = eval(code, g)
    except Exception as e:
        print('%s: %s' % (type(e).__name__, str(e).split('\n')[0]))
        continue
    if v is not None:
        print(repr(v))
