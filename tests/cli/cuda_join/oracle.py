# tests/cli/cuda_join/oracle.py: the expected text of a .tsr script here or
# in cuda_fft/.
# Runs its statements in PyTorch 1.13 on the CPU (/usr/bin/python3) and prints
# what tsr --keep-going --brief-errors prints, as PyTorch prints the same
# values on cuda:0 (the device suffix in the repr, line breaks included).
# A statement that fails prints "Type: message" (the CPU's message: tsr checks
# index bounds on the host where a GPU raises a device-side assert). A line
# "stmt  #! text" expects text itself: errors that only a second device can
# raise, written as 1.13's source words them (the file cites where), and
# what only differs on cuda (the strides of _exec_fft, SpectralOps.cpp).
#   /usr/bin/python3 oracle.py index.tsr > index.out
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
