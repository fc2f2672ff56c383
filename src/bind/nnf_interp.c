/* src/bind/nnf_interp.c — F.interpolate, F.upsample and F.upsample_nearest
 * F.upsample_bilinear, F.affine_grid and F.grid_sample (1.13's torch/nn/functional.py, its ValueError /
 * NotImplementedError texts). The nearest and linear modes (forward and
 * backward), linear and bicubic reach runtime kernels (runtime/ops/nn_interp.h);
 * 'area' of 3-d/4-d input is F's adaptive_avg_pool1d/2d as in 1.13;
 * 5-d area refuses by name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "ops/nn_grid.h"
#include "ops/nn_interp.h"
#include "value.h"

#define MOD "torch.nn.functional"

static const char *str_of(Value *v) { return v->u.s.p; }

/* "[4, 4]" / repr(v) into buf */
static int repr_into(Value *v, char *buf, size_t n)
{
    Value *r = value_repr(v);
    if (!r) return -1;
    snprintf(buf, n, "%s", str_of(r));
    decref(r);
    return 0;
}

static void spatial_repr(const tsr_tensor *x, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "[");
    for (int i = 2; i < x->ndim; i++) o += (size_t)snprintf(buf + o, n - o, "%s%lld", i > 2 ? ", " : "", (long long)x->sizes[i]);
    snprintf(buf + o, n - o, "]");
}

static Value *interpolate(Value *input, Value *size, Value *scale, const char *mode, Value *align, Value *recompute,
                          Value *antialias)
{
    bool nearest = !strcmp(mode, "nearest"), exact = !strcmp(mode, "nearest-exact");
    if (nearest || exact || !strcmp(mode, "area")) {
        if (align && !is_none(align))
            return exc_set("ValueError", "align_corners option can only be set with the interpolating modes: "
                                         "linear | bilinear | bicubic | trilinear");
    }
    if (!is_tensor(input)) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", input->type->name);
    tsr_tensor *x = tensor_of(input);
    int dim = x->ndim - 2;
    bool has_size = size && !is_none(size), has_scale = scale && !is_none(scale);
    int64_t out[3] = {0};
    double sc[3] = {-1, -1, -1};
    bool use_scales = false;
    char b1[256], b2[256];
    if (has_size && has_scale) return exc_set("ValueError", "only one of size or scale_factor should be defined");
    if (has_size) {
        if (is_type(size, &t_list) || is_type(size, &t_tuple)) {
            if ((int)seq_len(size) != dim) {
                spatial_repr(x, b1, sizeof b1);
                if (repr_into(size, b2, sizeof b2) < 0) return NULL;
                return exc_set("ValueError", "Input and output must have the same number of spatial dimensions, but got input "
                               "with spatial dimensions of %s and output size of %s. Please provide input tensor in (N, C, "
                               "d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.", b1, b2);
            }
            for (int i = 0; i < dim && i < 3; i++)
                if (value_as_int(seq_get(size, (size_t)i), &out[i]) < 0) return NULL;
        } else {
            int64_t s;
            if (value_as_int(size, &s) < 0) return NULL;
            for (int i = 0; i < dim && i < 3; i++) out[i] = s;
        }
    } else if (has_scale) {
        if (is_type(scale, &t_list) || is_type(scale, &t_tuple)) {
            if ((int)seq_len(scale) != dim) {
                spatial_repr(x, b1, sizeof b1);
                if (repr_into(scale, b2, sizeof b2) < 0) return NULL;
                return exc_set("ValueError", "Input and scale_factor must have the same number of spatial dimensions, but "
                               "got input with spatial dimensions of %s and scale_factor of shape %s. Please provide input "
                               "tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.", b1, b2);
            }
            for (int i = 0; i < dim && i < 3; i++)
                if (value_as_float(seq_get(scale, (size_t)i), &sc[i]) < 0) return NULL;
        } else {
            double s;
            if (value_as_float(scale, &s) < 0) return NULL;
            for (int i = 0; i < dim && i < 3; i++) sc[i] = s;
        }
        use_scales = true;
    } else
        return exc_set("ValueError", "either size or scale_factor should be defined");
    int rec = recompute && !is_none(recompute) ? value_truth(recompute) : 0;
    if (rec < 0) return NULL;
    if (rec && has_size) return exc_set("ValueError", "recompute_scale_factor is not meaningful with an explicit size.");
    if (!strcmp(mode, "area") && use_scales) rec = 1;   /* "area" always needs an explicit size */
    if (rec && use_scales) {
        for (int i = 0; i < dim && i < 3; i++) out[i] = (int64_t)floor((double)x->sizes[2 + i] * sc[i]);
        use_scales = false;
    }
    int aa = antialias ? value_truth(antialias) : 0;
    if (aa < 0) return NULL;
    if (aa && !((!strcmp(mode, "bilinear") || !strcmp(mode, "bicubic")) && x->ndim == 4))
        return exc_set("ValueError", "Anti-alias option is only supported for bilinear and bicubic modes");
    if ((nearest || exact) && dim >= 1 && dim <= 3) {
        if (use_scales)   /* ATen's compute_output_size: (int64_t)(double(in) * scale) */
            for (int i = 0; i < dim; i++) out[i] = (int64_t)((double)x->sizes[2 + i] * sc[i]);
        tsr_tensor *r = tsr_nn_upsample_nearest(x, out, use_scales ? sc : NULL, exact);
        if (!r) return bind_runtime_error();
        if (tsr_ag_needed(1, &x)) {
            tsr_ag_args ga = {0};
            char key[48];
            snprintf(key, sizeof key, "upsample_nearest%s%dd", exact ? "_exact" : "", dim);
            for (int i = 0; i < x->ndim; i++) ga.dims[i] = x->sizes[i];
            for (int i = 0; i < 3; i++) memcpy(&ga.dims[5 + i], &sc[i], sizeof sc[i]);
            ga.ndims = 8;
            ga.flag = use_scales;
            if (tsr_ag_record(key, 1, &x, &ga, r, false) < 0) {
                tsr_tensor_release(r);
                return bind_runtime_error();
            }
        }
        return v_tensor(r);
    }
    if (!strcmp(mode, "area") && (x->ndim == 3 || x->ndim == 4)) {   /* adaptive_avg_pool1d/2d(input, output_size) */
        Value *f = value_getattr(bind_module(MOD), x->ndim == 3 ? "adaptive_avg_pool1d" : "adaptive_avg_pool2d");
        Value *os = f ? v_tuple((size_t)dim) : NULL, *r = NULL;
        if (os) {
            for (int i = 0; i < dim; i++) os->u.seq.items[i] = v_int(out[i]);
            Value *args[2] = {input, os};
            r = value_call0(f, 2, args);
            decref(os);
        }
        if (f) decref(f);
        return r;
    }
    static const char *const lin_modes[4] = {NULL, "linear", "bilinear", "trilinear"};
    bool cubic = dim == 2 && !strcmp(mode, "bicubic");
    if ((dim >= 1 && dim <= 3 && !strcmp(mode, lin_modes[dim])) || cubic) {   /* upsample_linear1d ... bicubic2d (.vec) */
        static const char *const lin_keys[4] = {NULL, "upsample_linear1d", "upsample_bilinear2d", "upsample_trilinear3d"};
        const char *key = aa ? (cubic ? "upsample_bicubic2d_aa" : "upsample_bilinear2d_aa")   /* _upsample_*_aa.vec */
                             : cubic ? "upsample_bicubic2d" : lin_keys[dim];
        if (align && !is_none(align) && !is_type(align, &t_bool))   /* the aten function takes a bool */
            return exc_set("TypeError", "%s() received an invalid combination of arguments - got (Tensor, %s, %s, %s), "
                           "but expected one of:", key, use_scales ? "NoneType" : "list", align->type->name,
                           use_scales ? "list" : "NoneType");
        int ac = align && !is_none(align) ? value_truth(align) : 0;
        if (ac < 0) return NULL;
        if (use_scales)
            for (int i = 0; i < dim; i++) out[i] = (int64_t)((double)x->sizes[2 + i] * sc[i]);
        tsr_tensor *r = aa ? tsr_nn_upsample_aa(x, out, use_scales ? sc : NULL, ac, cubic)
                      : cubic ? tsr_nn_upsample_bicubic(x, out, use_scales ? sc : NULL, ac)
                              : tsr_nn_upsample_linear(x, out, use_scales ? sc : NULL, ac);
        if (!r) return bind_runtime_error();
        if (tsr_ag_needed(1, &x)) {
            tsr_ag_args ga = {0};
            for (int i = 0; i < x->ndim; i++) ga.dims[i] = x->sizes[i];
            for (int i = 0; i < 3; i++) memcpy(&ga.dims[5 + i], &sc[i], sizeof sc[i]);
            ga.ndims = 8;
            ga.flag = use_scales;
            ga.keepdim = ac;
            if (tsr_ag_record(key, 1, &x, &ga, r, false) < 0) {
                tsr_tensor_release(r);
                return bind_runtime_error();
            }
        }
        return v_tensor(r);
    }
    if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear") || !strcmp(mode, "trilinear") ||
        !strcmp(mode, "bicubic") || !strcmp(mode, "area")) {
        static const struct { const char *mode; int nd; } need[] = {
            {"bilinear", 4}, {"linear", 3}, {"trilinear", 5}, {"bicubic", 4}};
        for (unsigned i = 0; i < sizeof need / sizeof need[0]; i++)   /* 1.13 has no bicubic branch for 3-d or 5-d */
            if (!strcmp(mode, need[i].mode) && x->ndim != need[i].nd && x->ndim >= 3 && x->ndim <= 5 && strcmp(mode, "bicubic"))
                return exc_set("NotImplementedError", "Got %dD input, but %s mode needs %dD input", x->ndim, mode, need[i].nd);
        if (x->ndim >= 3 && x->ndim <= 5 && (strcmp(mode, "bicubic") || x->ndim == 4))
            return exc_set("NotImplementedError", "tsr: F.interpolate(mode='%s') is not implemented yet", mode);
    }
    return exc_set("NotImplementedError", "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: "
                   "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)", x->ndim, mode);
}

static Value *f_interpolate(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d ? (const char *)d : "interpolate";
    Value *v[7] = {0};
    if (args_parse(a, name, d ? "def input, size=, scale_factor=, mode=, align_corners="
                              : "def input, size=, scale_factor=, mode=, align_corners=, recompute_scale_factor=, antialias=", v) < 0)
        return NULL;
    const char *mode = "nearest";
    if (v[3] && !is_none(v[3])) {
        if (!is_type(v[3], &t_str)) return exc_set("TypeError", "interpolate(): mode must be a str");
        mode = str_of(v[3]);
    }
    if (d && !bind_warnings_ignored())
        fprintf(stderr, "UserWarning: nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.\n");
    return interpolate(v[0], v[1], v[2], mode, v[4], v[5], v[6]);
}

static Value *f_upsample_nearest(Value *self, CallArgs *a, void *d)
{
    (void)self;
    (void)d;
    Value *v[3] = {0};
    if (args_parse(a, "upsample_nearest", "def input, size=, scale_factor=", v) < 0) return NULL;
    if (!bind_warnings_ignored())
        fprintf(stderr, "UserWarning: nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.\n");
    return interpolate(v[0], v[1], v[2], "nearest", NULL, NULL, NULL);
}

static Value *f_upsample_bilinear(Value *self, CallArgs *a, void *d)
{
    (void)self;
    (void)d;
    Value *v[3] = {0};
    if (args_parse(a, "upsample_bilinear", "def input, size=, scale_factor=", v) < 0) return NULL;
    if (!bind_warnings_ignored())
        fprintf(stderr, "UserWarning: nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.\n");
    Value *t = v_bool(true);
    Value *r = t ? interpolate(v[0], v[1], v[2], "bilinear", t, NULL, NULL) : NULL;
    if (t) decref(t);
    return r;
}

/* "torch.Size([2, 2, 3])" */
static void shape_repr(const tsr_tensor *x, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "torch.Size([");
    for (int i = 0; i < x->ndim; i++) o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? ", " : "", (long long)x->sizes[i]);
    snprintf(buf + o, n - o, "])");
}

/* F.affine_grid(theta, size, align_corners=None): 1.13's checks, then affine_grid_generator */
static Value *f_affine_grid(Value *self, CallArgs *a, void *d)
{
    (void)self;
    (void)d;
    Value *v[3] = {0};
    if (args_parse(a, "affine_grid", "def theta, size, align_corners=", v) < 0) return NULL;
    int ac = 0;
    if (!v[2] || is_none(v[2])) {
        if (!bind_warnings_ignored())
            fprintf(stderr, "UserWarning: Default grid_sample and affine_grid behavior has changed to align_corners=False "
                            "since 1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                            "documentation of grid_sample for details.\n");
    } else if ((ac = value_truth(v[2])) < 0)
        return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'is_floating_point'", v[0]->type->name);
    tsr_tensor *theta = tensor_of(v[0]);
    if (!tsr_dtype_is_floating(theta->dtype))
        return exc_set("ValueError", "Expected theta to have floating point type, but got torch.%s", tsr_dtype_name(theta->dtype));
    Value *size = v[1];
    if (!is_type(size, &t_list) && !is_type(size, &t_tuple) && !is_type(size, &t_size))
        return exc_set("TypeError", "object of type '%s' has no len()", size->type->name);
    int n = (int)seq_len(size);
    int64_t sz[5] = {0};
    char b1[256], b2[128];
    if (repr_into(size, b1, sizeof b1) < 0) return NULL;
    if (n == 4 || n == 5) {
        for (int i = 0; i < n; i++)
            if (value_as_int(seq_get(size, (size_t)i), &sz[i]) < 0) return NULL;
        if (theta->ndim != 3 || theta->sizes[1] != n - 2 || theta->sizes[2] != n - 1) {
            shape_repr(theta, b2, sizeof b2);
            return exc_set("ValueError", "Expected a batch of %dD affine matrices of shape Nx%dx%d for size %s. Got %s.", n - 2,
                           n - 2, n - 1, b1, b2);
        }
    } else
        return exc_set("NotImplementedError", "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                       "respectively. Got size %s.", b1);
    int64_t smin = sz[2], amin = sz[0];
    for (int i = 2; i < n; i++) smin = sz[i] < smin ? sz[i] : smin;
    for (int i = 0; i < n; i++) amin = sz[i] < amin ? sz[i] : amin;
    if (ac && smin == 1) {
        if (!bind_warnings_ignored())
            fprintf(stderr, "UserWarning: Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                            "align_corners=True. This is not an intended use case of affine_grid. See the documentation of "
                            "affine_grid for details.\n");
    } else if (amin <= 0)
        return exc_set("ValueError", "Expected non-zero, positive output size. Got %s", b1);
    tsr_tensor *r = tsr_nn_affine_grid(theta, n, sz, ac);
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(1, &theta)) {
        tsr_ag_args ga = {0};
        for (int i = 0; i < n; i++) ga.dims[i] = sz[i];
        ga.ndims = n;
        ga.flag = ac;
        if (tsr_ag_record("affine_grid_generator", 1, &theta, &ga, r, false) < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
    }
    return v_tensor(r);
}

/* F.grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None) */
static Value *f_grid_sample(Value *self, CallArgs *a, void *d)
{
    (void)self;
    (void)d;
    Value *v[5] = {0};
    if (args_parse(a, "grid_sample", "def input, grid, mode=, padding_mode=, align_corners=", v) < 0) return NULL;
    const char *mode = v[2] && is_type(v[2], &t_str) ? str_of(v[2]) : v[2] ? "" : "bilinear";
    const char *pad = v[3] && is_type(v[3], &t_str) ? str_of(v[3]) : v[3] ? "" : "zeros";
    static const char *const modes[3] = {"bilinear", "nearest", "bicubic"}, *const pads[3] = {"zeros", "border", "reflection"};
    int m = -1, p = -1;
    for (int i = 0; i < 3; i++) {
        if (!strcmp(mode, modes[i])) m = i;
        if (!strcmp(pad, pads[i])) p = i;
    }
    char b[256];
    if (m < 0) {
        if (repr_into(v[2], b, sizeof b) < 0) return NULL;
        if (is_type(v[2], &t_str)) snprintf(b, sizeof b, "%s", mode);
        return exc_set("ValueError", "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                       "but got: '%s'", b);
    }
    if (p < 0) {
        if (repr_into(v[3], b, sizeof b) < 0) return NULL;
        if (is_type(v[3], &t_str)) snprintf(b, sizeof b, "%s", pad);
        return exc_set("ValueError", "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                       "'reflection', but got: '%s'", b);
    }
    int ac = 0;
    if (!v[4] || is_none(v[4])) {
        if (!bind_warnings_ignored())
            fprintf(stderr, "UserWarning: Default grid_sample and affine_grid behavior has changed to align_corners=False "
                            "since 1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                            "documentation of grid_sample for details.\n");
    } else if ((ac = value_truth(v[4])) < 0)
        return NULL;
    if (!is_tensor(v[0]) || !is_tensor(v[1]))
        return exc_set("TypeError", "grid_sampler(): argument '%s' (position %d) must be Tensor, not %s",
                       is_tensor(v[0]) ? "grid" : "input", is_tensor(v[0]) ? 2 : 1,
                       (is_tensor(v[0]) ? v[1] : v[0])->type->name);
    tsr_tensor *in[2] = {tensor_of(v[0]), tensor_of(v[1])};
    tsr_tensor *r = tsr_nn_grid_sampler(in[0], in[1], m, p, ac);
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(2, in)) {   /* GridSampler2DBackward0 / GridSampler3DBackward0 */
        tsr_ag_args ga = {0};
        ga.i0 = m, ga.i1 = p, ga.flag = ac;
        if (tsr_ag_record(in[0]->ndim == 5 ? "grid_sampler_3d" : "grid_sampler_2d", 2, in, &ga, r, false) < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
    }
    return v_tensor(r);
}

void bind_nnf_interp_init(void)
{
    Value *m = bind_module(MOD);
    module_add(m, "interpolate", v_builtin("interpolate", f_interpolate, NULL, NULL));
    module_add(m, "upsample", v_builtin("upsample", f_interpolate, NULL, (void *)"upsample"));
    module_add(m, "upsample_nearest", v_builtin("upsample_nearest", f_upsample_nearest, NULL, NULL));
    module_add(m, "upsample_bilinear", v_builtin("upsample_bilinear", f_upsample_bilinear, NULL, NULL));
    module_add(m, "affine_grid", v_builtin("affine_grid", f_affine_grid, NULL, NULL));
    module_add(m, "grid_sample", v_builtin("grid_sample", f_grid_sample, NULL, NULL));
}
