#!/usr/bin/python3
"""tests/unit/gen_show_cases.py — regenerates the case table of
tests/unit/test_show_tensor.c from the oracle (torch 1.13): each case is a
tensor built in torch, its exact element values, the print options and
default dtype in force, and repr(t). Run: /usr/bin/python3 tests/unit/gen_show_cases.py
(rewrites the region between the GENERATED markers in place)."""
import math, os, random, torch, warnings
warnings.simplefilter('ignore')
nan, inf = float('nan'), float('inf')
T = torch.tensor
f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
c32, c64, c128 = torch.complex32, torch.complex64, torch.complex128
u8, i8, i16, i32, i64, b = torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool

random.seed(7)
def gauss(n, scale, integral=False):
    return [float(round(random.gauss(0, scale))) if integral else random.gauss(0, scale) for _ in range(n)]

# (name, expression, print options, default dtype, post) — post: 't' transpose
# dims 0 and 1 of the built tensor, 'meta', 'grad', or a tuple of names.
CASES = [
    ('f32_int_mode', 'T([1., 2., 3.])', {}, None, None),
    ('f32_fixed', 'T([1.5, 2., 3.])', {}, None, None),
    ('f32_pad', 'T([0.1, 100.])', {}, None, None),
    ('f32_ratio_sci', 'T([0.1, 1000.])', {}, None, None),
    ('f32_ratio_1000', 'T([1., 1000.])', {}, None, None),
    ('f32_ratio_1001', 'T([1., 1001.])', {}, None, None),
    ('f32_1e8', 'T([1e8])', {}, None, None),
    ('f32_1e9', 'T([1e9])', {}, None, None),
    ('f32_big_int', 'T([123456789.])', {}, None, None),
    ('f32_1e-4', 'T([1e-4, 1.])', {}, None, None),
    ('f32_neg_zero', 'T([-0., 1.])', {}, None, None),
    ('f32_zero_negzero', 'T([0., -0.])', {}, None, None),
    ('f32_nan', 'T([nan, 1.])', {}, None, None),
    ('f32_infs', 'T([inf, -inf, nan])', {}, None, None),
    ('f32_inf_fixed', 'T([inf, 1.5])', {}, None, None),
    ('f32_nan_zero', 'T([nan, 0.])', {}, None, None),
    ('f32_tiny_zero', 'T([1e-10, 0.])', {}, None, None),
    ('f32_ratio_half', 'T([0.5, 500.5])', {}, None, None),
    ('f32_sci_inf', 'T([inf, 1e10])', {}, None, None),
    ('f32_neg_nan', 'T([1.5]) * 0 - T([inf])*0', {}, None, None),
    ('f32_neg_mixed', 'T([-1.25, 3.5, -100.75, 0.])', {}, None, None),
    ('f32_subnormal', 'T([2.8026e-45])', {}, None, None),
    ('f32_scalar', 'T(3.14159)', {}, None, None),
    ('f32_scalar_negzero', 'T(-0.)', {}, None, None),
    ('f32_scalar_sci', 'T(1e20)', {}, None, None),
    ('f32_scalar_nan', 'T(nan)', {}, None, None),
    ('f32_scalar_int', 'T(2.)', {}, None, None),
    ('f32_scalar_1e5', 'T(100000.)', {}, None, None),
    ('f32_scalar_1e-5', 'T(1e-5)', {}, None, None),
    ('f32_linspace_sci', 'torch.linspace(-1, 1, 25)', {}, None, None),
    ('f32_arange30_wrap', 'torch.arange(30.)', {}, None, None),
    ('f32_summ_2x1000', 'torch.arange(2000.).reshape(2, 1000)', {}, None, None),
    ('f32_ones_40x40', 'torch.ones(40, 40)', {}, None, None),
    ('f32_3d', 'torch.arange(24.).reshape(2, 3, 4) / 7', {}, None, None),
    ('f32_4d', 'torch.arange(16.).reshape(2, 2, 2, 2) - 8', {}, None, None),
    ('f32_random_small', 'T(gauss(12, 1.0)).reshape(3, 4)', {}, None, None),
    ('f32_random_big', 'T(gauss(15, 1e5))', {}, None, None),
    ('f32_random_tiny', 'T(gauss(9, 1e-6)).reshape(3, 3)', {}, None, None),
    ('f32_random_ints', 'T(gauss(20, 300, True))', {}, None, None),
    ('f32_summ_random', 'T(gauss(1200, 10.0))', {}, None, None),
    ('f32_summ_3d', 'torch.arange(7 * 7 * 21.).reshape(7, 7, 21)', {}, None, None),
    ('f32_transposed', 'torch.arange(6.).reshape(2, 3)', {}, None, 't'),
    ('f32_requires_grad', 'T([1., 2.])', {}, None, 'grad'),
    ('f64_suffix', 'T([1.5, 2.], dtype=f64)', {}, None, None),
    ('f64_ones14', 'torch.ones(14, dtype=f64)', {}, None, None),
    ('f64_ones_3x14', 'torch.ones(3, 14, dtype=f64)', {}, None, None),
    ('f64_subnormal', 'T([1e-320], dtype=f64)', {}, None, None),
    ('f64_names_wrap', 'torch.ones(12, dtype=f64)', {}, None, ('N',)),
    ('f64_huge', 'T([1e300, -1e-300], dtype=f64)', {}, None, None),
    ('f16_tenth', 'T([0.1], dtype=f16)', {}, None, None),
    ('f16_max', 'T([65504.], dtype=f16)', {}, None, None),
    ('f16_mixed', 'T([0.3, -2.5, 1000., 0.001], dtype=f16)', {}, None, None),
    ('f16_2d', 'torch.arange(12, dtype=f16).reshape(3, 4) / 3', {}, None, None),
    ('bf16_tenth', 'T([0.1], dtype=bf16)', {}, None, None),
    ('bf16_mixed', 'T([1e10, 3.0, -7.5], dtype=bf16)', {}, None, None),
    ('i64_basic', 'T([1, -2, 300])', {}, None, None),
    ('i64_scalar', 'T(5)', {}, None, None),
    ('i64_extremes', 'T([-9223372036854775808, 9223372036854775807])', {}, None, None),
    ('i64_summ', 'torch.arange(1001)', {}, None, None),
    ('i64_summ_3d', 'torch.arange(7 * 7 * 21).reshape(7, 7, 21)', {}, None, None),
    ('i64_4d', 'torch.arange(24).reshape(2, 3, 2, 2)', {}, None, None),
    ('i64_summ_4d', 'torch.arange(8 * 8 * 4 * 5).reshape(8, 8, 4, 5)', {}, None, None),
    ('i32_wrap18', 'torch.arange(18, dtype=i32)', {}, None, None),
    ('i32_wrap19', 'torch.arange(19, dtype=i32)', {}, None, None),
    ('i32_names', 'torch.zeros(2, 3, dtype=i32)', {}, None, ('N', None)),
    ('i16_neg', 'T([-32768, 5, 32767], dtype=i16)', {}, None, None),
    ('i8_2d', 'T([[-128, 0], [7, 127]], dtype=i8)', {}, None, None),
    ('u8_basic', 'T([0, 17, 255], dtype=u8)', {}, None, None),
    ('u8_scalar', 'T(200, dtype=u8)', {}, None, None),
    ('bool_vec', 'T([True, False])', {}, None, None),
    ('bool_scalar', 'T(True)', {}, None, None),
    ('bool_one', 'T([True])', {}, None, None),
    ('bool_summ', 'torch.arange(2000).reshape(40, 50) % 3 == 0', {}, None, None),
    ('c64_basic', 'T([1 + 2j, -3.5 - 0.25j])', {}, None, None),
    ('c64_scalar', 'T(1 + 2j)', {}, None, None),
    ('c64_imag', 'T([1j])', {}, None, None),
    ('c64_negzero', 'T([complex(-0., 0.)])', {}, None, None),
    ('c64_negzero_imag', 'T([complex(0., -0.)])', {}, None, None),
    ('c64_mixed_modes', 'T([1e-5 + 1j])', {}, None, None),
    ('c64_imag_sci', 'T([1 + 1e10j])', {}, None, None),
    ('c64_nan_inf', 'T([complex(nan, inf)])', {}, None, None),
    ('c64_neg_inf_imag', 'T([complex(1, -inf), complex(2, 3)])', {}, None, None),
    ('c64_halves', 'T([0.5 + 0j, 1 + 0j])', {}, None, None),
    ('c64_2x2', 'T([[1 + 1j, 2 + 0j], [3 + 0j, 4 - 1e-9j]])', {}, None, None),
    ('c64_summ', 'torch.arange(1100.) + 1j * torch.arange(1100.)', {}, None, None),
    ('c128_suffix', 'T([1 + 2j], dtype=c128)', {}, None, None),
    ('c32_suffix', 'T([1.5 + 2j, -1 - 0.5j], dtype=c32)', {}, None, None),
    ('empty_1d', 'torch.zeros(0)', {}, None, None),
    ('empty_0x3', 'torch.zeros(0, 3)', {}, None, None),
    ('empty_1x0x2', 'torch.zeros(1, 0, 2)', {}, None, None),
    ('empty_i64', 'torch.zeros(0, dtype=i64)', {}, None, None),
    ('empty_bool', 'torch.zeros(0, 3, dtype=b)', {}, None, None),
    ('empty_c64', 'torch.zeros(0, dtype=c64)', {}, None, None),
    ('empty_names', 'torch.zeros(0, 3)', {}, None, ('A', 'B')),
    ('meta_2x3', 'torch.empty(2, 3, device="meta")', {}, None, None),
    ('meta_scalar', 'torch.empty((), device="meta")', {}, None, None),
    ('meta_empty', 'torch.empty(0, device="meta")', {}, None, None),
    ('meta_i64', 'torch.empty(3, dtype=i64, device="meta")', {}, None, None),
    ('meta_bool', 'torch.empty(2, 3, dtype=b, device="meta")', {}, None, None),
    ('opt_prec2', 'T([1.12345, 2.])', dict(precision=2), None, None),
    ('opt_prec2_sci', 'T([1e-5, 1.])', dict(precision=2), None, None),
    ('opt_sci_false', 'T([1e-5, 1.])', dict(precision=2, sci_mode=False), None, None),
    ('opt_sci_false_int', 'T([1e10])', dict(sci_mode=False), None, None),
    ('opt_sci_true', 'T([1.5, 2.])', dict(precision=2, sci_mode=True), None, None),
    ('opt_sci_true_int', 'T([1., 2.])', dict(precision=2, sci_mode=True), None, None),
    ('opt_sci_true_ints', 'T([1, 2])', dict(sci_mode=True), None, None),
    ('opt_sci_true_zeros', 'T([0., 0.])', dict(sci_mode=True), None, None),
    ('opt_sci_true_complex', 'T([1 + 0j, 2.5 + 1j])', dict(sci_mode=True), None, None),
    ('opt_prec0', 'T([1.5, 2.5, 3.7])', dict(precision=0), None, None),
    ('opt_prec0_sci', 'T([1e-5, 1.])', dict(precision=0), None, None),
    ('opt_prec10', 'T([0.1])', dict(precision=10), None, None),
    ('opt_prec10_f64', 'T([0.1], dtype=f64)', dict(precision=10), None, None),
    ('opt_linewidth40', 'torch.arange(12.)', dict(linewidth=40), None, None),
    ('opt_linewidth40_suffix', 'torch.arange(10, dtype=i32)', dict(linewidth=40), None, None),
    ('opt_linewidth_tiny', 'torch.arange(5.)', dict(linewidth=5), None, None),
    ('opt_linewidth120', 'torch.arange(40.)', dict(linewidth=120), None, None),
    ('opt_threshold5', 'torch.arange(10)', dict(threshold=5), None, None),
    ('opt_threshold5_full', 'torch.arange(5)', dict(threshold=5), None, None),
    ('opt_edge1', 'torch.arange(10)', dict(threshold=5, edgeitems=1), None, None),
    ('opt_edge1_2d', 'torch.arange(12).reshape(3, 4)', dict(threshold=5, edgeitems=1), None, None),
    ('opt_edge0_1d', 'torch.arange(10)', dict(threshold=5, edgeitems=0), None, None),
    ('opt_threshold0_scalar', 'T(2.5)', dict(threshold=0), None, None),
    ('opt_short', 'torch.arange(10.) / 3', dict(profile='short'), None, None),
    ('opt_short_summ', 'torch.arange(1001.)', dict(profile='short'), None, None),
    ('opt_full', 'torch.arange(1001)', dict(profile='full'), None, None),
    ('opt_thr_inf', 'torch.arange(1200).reshape(30, 40)', dict(threshold=inf), None, None),
    ('opt_prec6_complex', 'T([1.123456789 + 2j])', dict(precision=6), None, None),
    ('def64_f32', 'T([1., 2.])', {}, f64, None),
    ('def64_f64', 'T([1.5, 2.], dtype=f64)', {}, f64, None),
    ('def64_c64', 'T([1 + 2j], dtype=c64)', {}, f64, None),
    ('def64_c128', 'T([1 + 2j], dtype=c128)', {}, f64, None),
    ('def64_empty_f32', 'torch.zeros(0, dtype=f32)', {}, f64, None),
    ('def64_empty_f64', 'torch.zeros(0, dtype=f64)', {}, f64, None),
    ('def64_meta_f32', 'torch.empty(2, dtype=f32, device="meta")', {}, f64, None),
]

def c_str(s):
    out = '"'
    for ch in s:
        if ch == '\n': out += '\\n"\n        "'
        elif ch in '"\\': out += '\\' + ch
        else: out += ch
    return out + '"'

def dtype_id(dt): return 'TSR_' + str(dt)[6:].upper()

def emit():
    lines, arrays = [], []
    for k, (name, expr, opts, dflt, post) in enumerate(CASES):
        torch.set_printoptions(profile='default', sci_mode=None)
        torch.set_default_dtype(torch.float32)
        t = eval(expr)
        if post == 'grad': t.requires_grad_(True)
        if dflt is not None: torch.set_default_dtype(dflt)
        torch.set_printoptions(**opts)
        shown = t
        if post == 't': shown = t.t()
        if isinstance(post, tuple): shown = t.refine_names(*post)
        expected = repr(shown)
        o = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80)
        if 'profile' in opts:
            o.update({'short': dict(precision=2, edgeitems=2), 'full': dict(threshold=inf)}.get(opts['profile'], {}))
        o.update({x: y for x, y in opts.items() if x not in ('profile', 'sci_mode')})
        sci = {None: -1, False: 0, True: 1}[opts.get('sci_mode')]
        meta = t.is_meta
        n = t.numel()
        ivals = re = im = 'NULL'
        gen = 0
        if not meta and n:
            flat = t.detach().reshape(-1)
            ar = torch.arange(n, dtype=torch.float64)
            if n > 50 and torch.equal(flat.to(c128 if t.dtype.is_complex else f64), ar + 1j * ar if t.dtype.is_complex else ar):
                gen = 1
            elif n > 50 and bool((flat == 1).all()):
                gen = 2
        if gen == 0 and not meta and n:
            if t.dtype.is_complex:
                flat = flat.to(c128)
                re = 'v%d_re' % k; im = 'v%d_im' % k
                arrays.append('static const double %s[] = {%s};' % (re, ', '.join(float(x).hex() if math.isfinite(x) else ('NAN' if math.isnan(x) else ('INFINITY' if x > 0 else '-INFINITY')) for x in flat.real.tolist())))
                arrays.append('static const double %s[] = {%s};' % (im, ', '.join(float(x).hex() if math.isfinite(x) else ('NAN' if math.isnan(x) else ('INFINITY' if x > 0 else '-INFINITY')) for x in flat.imag.tolist())))
            elif t.dtype.is_floating_point:
                re = 'v%d_re' % k
                vals = []
                for x in flat.double().tolist():
                    if math.isnan(x):
                        vals.append('-NAN' if math.copysign(1, x) < 0 else 'NAN')
                    elif math.isinf(x): vals.append('INFINITY' if x > 0 else '-INFINITY')
                    else: vals.append(x.hex())
                arrays.append('static const double %s[] = {%s};' % (re, ', '.join(vals)))
            else:
                ivals = 'v%d_i' % k
                arrays.append('static const int64_t %s[] = {%s};' % (ivals, ', '.join(
                    'INT64_MIN' if x == -2**63 else '%dLL' % x for x in flat.long().tolist())))
        names = 'NULL'
        if isinstance(post, tuple):
            names = 'v%d_names' % k
            arrays.append('static const char *const %s[] = {%s};' % (names, ', '.join('"%s"' % x if x else 'NULL' for x in post)))
        shape = list(t.shape)
        thr = 'INFINITY' if o['threshold'] == inf else repr(float(o['threshold']))
        lines.append('    {%s, %s, %d, {%s}, %d, %s, %s, %s, %s, {%d, %s, %d, %d, %d}, %s, %d, %d, %d,\n        %s},' % (
            c_str(name), dtype_id(t.dtype), len(shape), ', '.join(map(str, shape)) or '0', gen, ivals, re, im, names,
            o['precision'], thr, o['edgeitems'], o['linewidth'], sci,
            dtype_id(dflt) if dflt else 'TSR_FLOAT32', meta, post == 't', post == 'grad', c_str(expected)))
    return '\n'.join(arrays) + '\n\nstatic const ShowCase cases[] = {\n' + '\n'.join(lines) + '\n};\n'

if __name__ == '__main__':
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test_show_tensor.c')
    src = open(path).read()
    a = src.index('/* BEGIN GENERATED')
    a = src.index('\n', a) + 1
    z = src.index('/* END GENERATED')
    open(path, 'w').write(src[:a] + emit() + src[z:])
    print(len(CASES), 'cases')
