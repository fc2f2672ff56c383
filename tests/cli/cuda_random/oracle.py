#!/usr/bin/python3
"""tests/cli/cuda_random/oracle.py — the expected values of cuda_random.bats,
made without tsr and without a GPU: Philox4x32-10 as Random123 specifies it,
PyTorch 1.13's distribution_nullary_kernel element-to-thread mapping
(DistributionTemplates.h: thread idx = element % (grid*256), draw
(element // (grid*256)) // unroll, word (element // (grid*256)) % unroll,
curand_init(seed, idx, offset)), curand's conversions, and PyTorch (CPU)
to print them, for the statements of values.tsr in order.
Run: python3 oracle.py > values.out"""
import math
import struct
import sys

import torch
from torch._tensor_str import _add_suffixes, _tensor_str

M = 0xFFFFFFFF


def philox(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & M, (k1 + 0xBB67AE85) & M
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & M, p1 & M, ((p0 >> 32) ^ c3 ^ k1) & M, p0 & M
    return c0, c1, c2, c3


def draw(seed, offset, idx, k):
    """The k-th curand4() of thread idx after curand_init(seed, idx, offset), offset % 4 == 0."""
    ctr = offset // 4 + k
    return philox((ctr & M, ctr >> 32, idx & M, idx >> 32), (seed & M, seed >> 32))


def policy(n, sms=132, threads=2048):
    grid = min((n + 255) // 256, sms * (threads // 256))
    return grid, ((n - 1) // (256 * grid * 4) + 1) * 4


class Gen:
    """CUDAGeneratorImpl: seed, philox_offset_per_thread."""

    def __init__(self):
        self.seed, self.offset = 0, 0

    def manual_seed(self, s):
        self.seed, self.offset = s, 0

    def kernel(self, n):
        """philox_cuda_state(counter_offset): this kernel's (seed, offset)."""
        off = self.offset
        self.offset += (policy(n)[1] + 3) // 4 * 4
        return self.seed, off


G = Gen()


def words(n, unroll, elems=None):
    """Per element (all, or those listed): its thread's curand4 words for it,
    one word (unroll 4) or a pair (unroll 2)."""
    seed, offset = G.kernel(n)
    step = policy(n)[0] * 256
    out = []
    for l in (range(n) if elems is None else elems):
        idx, j = l % step, l // step
        w = draw(seed, offset, idx, j // unroll)
        out.append(w[j % 4] if unroll == 4 else w[2 * (j % 2): 2 * (j % 2) + 2])
    return out


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def uniform_f(w):      # _curand_uniform: exact in float
    return f32(f32(float(w)) * 2.0 ** -32 + 2.0 ** -33)


def uniform_d(p):      # _curand_uniform_double_hq
    z = p[0] ^ (p[1] << 21)
    return z * 2.0 ** -53 + 2.0 ** -54


def rev(x):            # uniform_'s reverse bound: 1 -> 0
    return 0.0 if x == 1.0 else x


def normal_f(n):
    """curand_normal4: Box-Muller on each word pair (x, y): sin, then cos."""
    seed, offset = G.kernel(n)
    step = policy(n)[0] * 256
    out = []
    for l in range(n):
        idx, j = l % step, l // step
        w = draw(seed, offset, idx, j // 4)
        ii = j % 4
        x, y = w[ii & 2], w[(ii & 2) + 1]
        c = f32(2.0 ** -32 * 6.2831855)                  # CURAND_2POW32_INV_2PI
        v = f32(f32(float(y)) * c + c / 2)                # fmaf on the device
        r = math.sqrt(-2.0 * math.log(uniform_f(x)))
        out.append(r * (math.sin(v) if ii % 2 == 0 else math.cos(v)))
    return out


def normal_d(n):
    """curand_normal2_double: one Box-Muller on the four words, sin then cos."""
    seed, offset = G.kernel(n)
    step = policy(n)[0] * 256
    out = []
    for l in range(n):
        idx, j = l % step, l // step
        w = draw(seed, offset, idx, j // 2)
        u = (w[0] ^ (w[1] << 21)) * 2.0 ** -53 + 2.0 ** -54
        v = (w[2] ^ (w[3] << 21)) * 2.0 ** -52 + 2.0 ** -53
        r = math.sqrt(-2.0 * math.log(u))
        out.append(r * (math.sin(v * math.pi) if j % 2 == 0 else math.cos(v * math.pi)))
    return out


def show(t):
    """repr(t) as PyTorch prints the same tensor on cuda:0 (_str_intern:
    the device suffix, then a dtype that is not the default's)."""
    suffixes = ["device='cuda:0'"]
    if t.dtype not in (torch.get_default_dtype(), torch.int64, torch.bool):
        suffixes.append('dtype=' + str(t.dtype))
    print(_add_suffixes('tensor(' + _tensor_str(t, 7), suffixes, 7, False))


def wide(p):
    return (p[0] << 32) | p[1]


def i64(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def state():
    print(repr(torch.tensor([G.seed, G.offset])))


def values():
    G.manual_seed(0)
    show(torch.tensor([rev(uniform_f(w)) for w in words(5, 4)]))
    show(torch.tensor([rev(uniform_f(w)) for w in words(6, 4)]).reshape(2, 3))
    show(torch.tensor([rev(uniform_d(p)) for p in words(3, 2)], dtype=torch.float64))
    show(torch.tensor([rev(uniform_f(w)) for w in words(4, 4)]).half())
    show(torch.tensor([f32(rev(uniform_f(w)) * 5 - 2) for w in words(6, 4)]))      # fmaf(rand, 5, -2)
    state()
    sel = list(range(250, 262)) + list(range(270330, 270342))
    v = [rev(uniform_f(w)) for w in words(300000, 4, sel)]
    show(torch.tensor(v[:12]))
    show(torch.tensor(v[12:]))
    sel = list(range(540670, 540674)) + list(range(1081341, 1081345))
    v = [rev(uniform_d(p)) for p in words(1081345, 2, sel)]
    show(torch.tensor(v[:4], dtype=torch.float64))
    show(torch.tensor(v[4:], dtype=torch.float64))
    state()
    G.manual_seed(3)
    # (3, 4).t(): memory order is the (3, 4) tensor's
    show(torch.tensor([rev(uniform_f(w)) for w in words(12, 4)]).reshape(3, 4).t())
    show(torch.tensor([rev(uniform_f(w)) for w in words(6, 4)]).reshape(2, 3))
    show(torch.tensor([w % 10 for w in words(12, 4)]))
    show(torch.tensor([i64(wide(p) % 2 ** 41 - 2 ** 40) for p in words(4, 2)]))
    show(torch.tensor([w % 128 for w in words(6, 4)], dtype=torch.int8))
    show(torch.tensor([float(wide(p) % (2 ** 53 + 1)) for p in words(4, 2)], dtype=torch.float64))
    show(torch.tensor([bool(w & 1) for w in words(8, 4)]))
    show(torch.tensor([i64(wide(p)) for p in words(3, 2)]))
    show(torch.tensor([float(uniform_f(w) < f32(0.3)) for w in words(8, 4)]))
    show(torch.tensor([float(uniform_d(p) < 0.5) for p in words(4, 2)], dtype=torch.float64))
    show(torch.tensor([int(uniform_f(w) < 0.5) for w in words(5, 4)], dtype=torch.int32))
    state()
    G.manual_seed(0)
    show(torch.tensor(normal_f(5)))
    show(torch.tensor([x * 2 + 10 for x in normal_f(4)]))
    show(torch.tensor(normal_d(2), dtype=torch.float64))
    show(torch.tensor([-1.0 / 2 * math.log(uniform_f(w)) for w in words(5, 4)]))
    print(G.seed)
    state()
    G.manual_seed(5)

    def bern_p(probs):      # bernoulli_tensor_cuda_kernel: thread l // 4, word l % 4, offset += 12
        seed, offset = G.seed, G.offset
        G.offset += 12
        return [uniform_f(draw(seed, offset, l // 4, 0)[l % 4]) <= p for l, p in enumerate(probs)]

    show(torch.tensor([float(v) for v in bern_p([0.5] * 10)]))
    # (3, 2).t() with p (1, 3): rearrangeDims swaps the dims, so the draw runs over the (3, 2) buffer
    v = bern_p([f32(x) for x in [0.1, 0.1, 0.9, 0.9, 0.5, 0.5]])
    show(torch.tensor([float(x) for x in v]).reshape(3, 2).t())
    show(torch.tensor([float(x) for x in bern_p([0.25, 0.5, 0.75, 0.5, 0.5])], dtype=torch.float64))
    state()
    G.manual_seed(7)
    eps = 2.0 ** -23                         # cauchy<float> keeps rand in [eps, 1 - eps]
    u = [min(max(uniform_f(w), eps), 1 - eps) for w in words(5, 4)]
    show(torch.tensor([1 + 2 * math.tan(f32(math.pi) * (x - 0.5)) for x in u]))
    show(torch.tensor([math.exp(f32(x * 0.25 + 0.5)) for x in normal_f(5)]))
    lp = math.log(f32(1 - f32(0.3)))
    show(torch.tensor([math.ceil(math.log(uniform_f(w)) / lp) for w in words(6, 4)], dtype=torch.int32))
    show(torch.tensor([math.ceil(math.log(uniform_d(p)) / math.log(0.5)) for p in words(3, 2)], dtype=torch.float64))
    state()
    G.manual_seed(11)
    show(torch.tensor([f32(f32(x * 2) + i) for i, x in enumerate(normal_f(4))]))
    show(torch.tensor([f32(f32(x * 0.5) + 1) for x in normal_f(4)]).reshape(2, 2))
    show(torch.tensor([f32(f32(x * 3) + 1) for x in normal_f(3)]))
    state()


if __name__ == '__main__':
    values()
