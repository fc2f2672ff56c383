#!/usr/bin/python3
"""Writes the random/ conformance cases (run from this directory, then
scripts/oracle *.tsr for the .out files). Each case seeds the generator,
prints with precision=8 and covers sizes 1, 3, 15, 16, 17, 100 and 2-D
shapes, so that the scalar path (< 16 elements), the vectorised path
(>= 16, contiguous) and its ragged tail are all compared bit for bit."""

SEEDS = {'seed0': '0', 'seed1': '1', 'seed42': '42', 'seedbig': '2**32 + 5'}
FLOATS = ['float32', 'float64', 'float16', 'bfloat16']

# (name, template producing one tensor for a shape tuple `S` and dtype `D`)
FLOAT_FNS = {
    'rand': 'torch.rand({S}, dtype=torch.{D})',
    'randn': 'torch.randn({S}, dtype=torch.{D})',
    'normal': 'torch.normal(1.5, 0.25, {S}, dtype=torch.{D})',
    'uniform': 'torch.empty({S}, dtype=torch.{D}).uniform_(-2.5, 3.75)',
    'exponential': 'torch.empty({S}, dtype=torch.{D}).exponential_(1.5)',
    'cauchy': 'torch.empty({S}, dtype=torch.{D}).cauchy_(0.5, 2.0)',
    'log_normal': 'torch.empty({S}, dtype=torch.{D}).log_normal_(0.25, 0.5)',
}
SHAPES = ['(1,)', '(3,)', '(15,)', '(16,)', '(17,)', '(100,)', '(4, 5)', '(2, 8)']


def write(name, lines):
    with open(name + '.tsr', 'w') as f:
        f.write('\n'.join(lines) + '\n')


for fn, tmpl in FLOAT_FNS.items():
    for d in FLOATS:
        for sk, sv in SEEDS.items():
            lines = ['# %s, %s, manual_seed(%s): every size path, bit for bit at precision 8' % (fn, d, sv),
                     'torch.set_printoptions(precision=8)',
                     'torch.manual_seed(%s);' % sv]
            lines += [tmpl.format(S=s, D=d) for s in SHAPES]
            write('%s_%s_%s' % (fn, d, sk), lines)

# integer streams: randint / randperm / random_ / geometric_ / bernoulli_
for sk, sv in SEEDS.items():
    write('randint_%s' % sk, [
        '# randint: 32-bit draws below a range of 2**32, 64-bit draws above (int64 and floats)',
        'torch.manual_seed(%s);' % sv,
        'torch.randint(10, (17,))',
        'torch.randint(-5, 5, (3, 4))',
        'torch.randint(0, 2**40, (5,))',
        'torch.randint(3, 1000, (6,), dtype=torch.int16)',
        'torch.randint(0, 100, (6,), dtype=torch.float16)',
        'torch.randint(0, 100, (6,), dtype=torch.bfloat16)',
        'torch.randint(0, 2**40, (4,), dtype=torch.float64)',
        'torch.randint(0, 2, (8,), dtype=torch.bool)',
        'torch.randint(low=2, high=9, size=(2, 3), dtype=torch.uint8)',
    ])
    write('randperm_%s' % sk, [
        '# randperm: Fisher-Yates with one 32-bit draw per position',
        'torch.manual_seed(%s);' % sv,
        'torch.randperm(1)',
        'torch.randperm(5)',
        'torch.randperm(17)',
        'torch.randperm(40, dtype=torch.int32)',
        'torch.randperm(10, dtype=torch.float16)',
        'torch.randperm(12, dtype=torch.float64)',
        'torch.randperm(0)',
    ])
    write('random_%s' % sk, [
        '# random_ without bounds: [0, max] per dtype, [0, 2**digits] for floats',
        'torch.set_printoptions(precision=8)',
        'torch.manual_seed(%s);' % sv,
    ] + ['torch.empty(5, dtype=torch.%s).random_()' % d for d in
         ['uint8', 'int8', 'int16', 'int32', 'int64', 'bool', 'float16', 'bfloat16', 'float32', 'float64']])
    write('random_bounds_%s' % sk, [
        '# random_(to), random_(from, to), random_(from, None) and the full 64-bit range',
        'torch.manual_seed(%s);' % sv,
        'torch.empty(6, dtype=torch.int64).random_(100)',
        'torch.empty(6, dtype=torch.int8).random_(-20, 20)',
        'torch.empty(6, dtype=torch.int32).random_(7, None)',
        'torch.empty(6, dtype=torch.float32).random_(-1000, 1000)',
        'torch.empty(6, dtype=torch.float16).random_(0, 65504)',
        'torch.empty(4, dtype=torch.int64).random_((-9223372036854775807 - 1), None)',
        'torch.empty(4, dtype=torch.float64).random_(3, 2**40)',
        'torch.empty(4, dtype=torch.bool).random_(0, 2)',
    ])
    write('discrete_%s' % sk, [
        '# geometric_ and bernoulli_ (scalar p and tensor p of each dtype)',
        'torch.manual_seed(%s);' % sv,
        'torch.empty(8).geometric_(0.3)',
        'torch.empty(8, dtype=torch.int64).geometric_(0.05)',
        'torch.empty(8, dtype=torch.float16).geometric_(0.5)',
        'torch.empty(10).bernoulli_(0.3)',
        'torch.empty(10, dtype=torch.bool).bernoulli_()',
        'torch.empty(6, dtype=torch.int64).bernoulli_(torch.full((6,), 0.7))',
        'torch.empty(6).bernoulli_(torch.full((6,), 0.7, dtype=torch.float64))',
        'torch.empty(2, 3).bernoulli_(torch.tensor([0.1, 0.5, 0.9], dtype=torch.bfloat16))',
        'torch.bernoulli(torch.tensor([[0.2, 0.8], [0.5, 1.0]]))',
        'torch.bernoulli(torch.zeros(5, dtype=torch.float64), 0.6)',
    ])
    write('multinomial_%s' % sk, [
        '# multinomial with replacement (binary search) and without (exponential keys)',
        'torch.manual_seed(%s);' % sv,
        'p = torch.tensor([0.1, 0.2, 0.3, 0.4])',
        'torch.multinomial(p, 10, replacement=True)',
        'torch.multinomial(p, 4)',
        'torch.multinomial(p, 1)',
        'torch.multinomial(torch.tensor([[1., 2., 3.], [3., 0., 1.]], dtype=torch.float64), 6, True)',
        'torch.multinomial(torch.tensor([[1., 2., 3.], [3., 2., 1.]]), 2)',
        'torch.multinomial(torch.tensor([1., 5., 2.], dtype=torch.bfloat16), 5, True)',
        'p.multinomial(3)',
    ])
    write('poisson_%s' % sk, [
        '# poisson: multiplication method below rate 10, transformed rejection above',
        'torch.manual_seed(%s);' % sv,
        'torch.poisson(torch.tensor([0.0, 0.5, 1.0, 3.5, 9.9]))',
        'torch.poisson(torch.tensor([10.0, 31.5, 100.0, 1000.0], dtype=torch.float64))',
        'torch.poisson(torch.full((2, 6), 4.0))',
        'torch.poisson(torch.full((5,), 12.0, dtype=torch.bfloat16))',
    ])
