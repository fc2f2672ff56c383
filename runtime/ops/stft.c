/* runtime/ops/stft.c — torch.stft and torch.istft (torch/functional.py's
 * centre padding, then 1.13's SpectralOps.cpp): frames as a strided view,
 * the window product, the one-dimensional transforms of fft.c, and for istft
 * the overlap-add (unfold_backward) divided by the window envelope. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../error.h"
#include "../promote.h"
#include "../view.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "fft.h"
#include "unary.h"
#include "shape.h"
#include "viewcopy.h"

/* "torch.FloatTensor[1, 10]" as 1.13's REPR prints a tensor (toString()
 * then sizes(); braces around the window's sizes). */
static void type_sizes(char *buf, size_t cap, const tsr_tensor *t, bool braces)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(t->dtype);
    size_t k = tsr_dtype_is_complex(t->dtype)   /* no legacy type name: the backend's type name */
                   ? (size_t)snprintf(buf, cap, "CPU%sType%s[", tsr_dtype_scalar_name(t->dtype), braces ? "{" : "")
                   : (size_t)snprintf(buf, cap, "torch.%s%s[", tr ? tr->tensor_type : "", braces ? "{" : "");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]%s", braces ? "}" : "");
}

static const char *opt_bool(int v) { return v < 0 ? "None" : v ? "1" : "0"; }

/* F.pad(x, [p, p], mode) of the last dim of a 3-d view (functional.py). */
static tsr_tensor *pad_last(const tsr_tensor *x, int64_t p, const char *mode)
{
    int nd = x->ndim;
    int64_t n = x->sizes[nd - 1], sz[TSR_MAX_DIMS];
    bool reflect = !strcmp(mode, "reflect"), constant = !strcmp(mode, "constant"),
         replicate = !strcmp(mode, "replicate"), circular = !strcmp(mode, "circular");
    if (!reflect && !constant && !replicate && !circular) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                      "supported for now");
        return NULL;
    }
    if ((reflect || replicate) && !tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'", reflect ? "reflection_pad1d" : "replication_pad1d",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (reflect && p >= n) {
        char s[128];
        int k = snprintf(s, sizeof s, "[");
        for (int d = 0; d < nd; d++) k += snprintf(s + k, sizeof s - (size_t)k, "%s%lld", d ? ", " : "", (long long)x->sizes[d]);
        snprintf(s + k, sizeof s - (size_t)k, "]");
        tsr_error_set(TSR_ERR_RUNTIME, "Argument #4: Padding size should be less than the corresponding input "
                      "dimension, but got: padding (%lld, %lld) at dimension %d of input %s", (long long)p,
                      (long long)p, nd - 1, s);
        return NULL;
    }
    if (circular && p > n) {
        tsr_error_set(TSR_ERR_RUNTIME, "Padding value causes wrapping around more than once.");
        return NULL;
    }
    memcpy(sz, x->sizes, sizeof(int64_t) * (size_t)nd);
    sz[nd - 1] = n + 2 * p;
    tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *r = c ? tsr_zeros(nd, sz, x->dtype, x->device) : NULL;
    if (!r || tsr_tensor_is_meta(x)) {
        tsr_tensor_release(c);
        return r;
    }
    size_t isz = (size_t)tsr_dtype_itemsize(x->dtype);
    int64_t rows = n ? tsr_tensor_numel(c) / n : 0, m = n + 2 * p;
    const char *src = tsr_tensor_ptr(c, NULL);
    char *dst = tsr_tensor_ptr(r, NULL);
    for (int64_t row = 0; row < rows; row++) {
        memcpy(dst + (size_t)(row * m + p) * isz, src + (size_t)(row * n) * isz, (size_t)n * isz);
        for (int64_t j = 0; j < m && !constant; j++) {
            if (j == p) j = p + n;
            if (j >= m) break;
            int64_t i = j - p;
            if (reflect) i = i < 0 ? -i : 2 * (n - 1) - i;
            else if (replicate) i = i < 0 ? 0 : n - 1;
            else i = (i + n) % n;
            memcpy(dst + (size_t)(row * m + j) * isz, src + (size_t)(row * n + i) * isz, isz);
        }
    }
    tsr_tensor_release(c);
    return r;
}

static tsr_tensor *mul_t(const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand p = tsr_operand_tensor(a), q = tsr_operand_tensor(b);
    return tsr_binary(TSR_BINOP_MUL, &p, &q, NULL, NULL);
}

tsr_tensor *tsr_stft(const tsr_tensor *self, int64_t n_fft, bool has_hop, int64_t hop, bool has_win, int64_t win_length,
                     const tsr_tensor *window, bool center, const char *pad_mode, bool normalized, int onesided_opt,
                     int return_complex_opt)
{
    tsr_tensor *x = tsr_tensor_retain((tsr_tensor *)self), *t = NULL, *win_ = NULL, *frames = NULL, *out = NULL;
    if (center) {
        int sd = x->ndim;
        int64_t ext[3] = {1, 1, 1};
        if (sd > 3) goto padded;
        for (int i = 0; i < sd; i++) ext[3 - sd + i] = x->sizes[i];
        tsr_tensor *v = tsr_reshape(x, 3, ext);
        if (!v) goto fail;
        t = pad_last(v, n_fft / 2, pad_mode);
        tsr_tensor_release(v);
        if (!t) goto fail;
        tsr_tensor *back = tsr_view_view(t, sd, t->sizes + 3 - sd);
        tsr_tensor_release(t);
        tsr_tensor_release(x);
        if (!(x = back)) return NULL;
    }
padded:
    if (!has_hop) hop = n_fft >> 2;
    if (!has_win) win_length = n_fft;
    bool return_complex = return_complex_opt >= 0 ? return_complex_opt
                                                  : tsr_dtype_is_complex(x->dtype) ||
                                                        (window && tsr_dtype_is_complex(window->dtype));
    char repr[512], ts[128], ws[128];
    type_sizes(ts, sizeof ts, x, false);
    if (window) type_sizes(ws, sizeof ws, window, true);
    else snprintf(ws, sizeof ws, "None");
    snprintf(repr, sizeof repr, "stft(%s, n_fft=%lld, hop_length=%lld, win_length=%lld, window=%s, normalized=%d, "
             "onesided=%s, return_complex=%s) ", ts, (long long)n_fft, (long long)hop, (long long)win_length, ws,
             normalized, opt_bool(onesided_opt), opt_bool(return_complex_opt));
    if (!tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected a tensor of floating point or complex values", repr);
        goto fail;
    }
    if (x->ndim > 2 || x->ndim < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected a 1D or 2D tensor", repr);
        goto fail;
    }
    tsr_tensor *in = x->ndim == 1 ? tsr_view_unsqueeze(x, 0) : tsr_tensor_retain(x);
    if (!in) goto fail;
    int64_t batch = in->sizes[0], len = in->sizes[1];
    if (n_fft <= 0 || n_fft > len) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected 0 < n_fft < %lld, but got n_fft=%lld", repr, (long long)len,
                      (long long)win_length);
        goto fail_in;
    }
    if (hop <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected hop_length > 0, but got hop_length=%lld", repr, (long long)hop);
        goto fail_in;
    }
    if (win_length <= 0 || win_length > n_fft) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected 0 < win_length <= n_fft, but got win_length=%lld", repr,
                      (long long)win_length);
        goto fail_in;
    }
    if (window && (window->ndim != 1 || window->sizes[0] != win_length)) {
        char s[128];
        int k = snprintf(s, sizeof s, "[");
        for (int d = 0; d < window->ndim; d++)
            k += snprintf(s + k, sizeof s - (size_t)k, "%s%lld", d ? ", " : "", (long long)window->sizes[d]);
        snprintf(s + k, sizeof s - (size_t)k, "]");
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected a 1D window tensor of size equal to win_length=%lld, but got "
                      "window with size %s", repr, (long long)win_length, s);
        goto fail_in;
    }
    if (window) win_ = tsr_tensor_retain((tsr_tensor *)window);
    if (win_length < n_fft) {
        int64_t left = (n_fft - win_length) / 2;
        tsr_tensor *z = tsr_zeros(1, &n_fft, window ? window->dtype : x->dtype, x->device), *mid;
        if (!z || !(mid = tsr_view_narrow(z, 0, left, win_length))) { tsr_tensor_release(z); goto fail_in; }
        int rc = window ? tsr_copy_(mid, window) : tsr_fill_(mid, tsr_scalar_int(1));
        tsr_tensor_release(mid);
        tsr_tensor_release(win_);
        win_ = z;
        if (rc < 0) goto fail_in;
    }
    int64_t n_frames = 1 + (len - n_fft) / hop;
    int64_t fs[3] = {batch, n_frames, n_fft}, fst[3] = {in->strides[0], hop * in->strides[1], in->strides[1]};
    frames = tsr_tensor_alias(in, 3, fs, fst, in->storage_offset);
    tsr_tensor_release(in);
    if (!frames) goto fail;
    if (win_) {
        tsr_tensor *m = mul_t(frames, win_);
        tsr_tensor_release(frames);
        if (!(frames = m)) goto fail;
    }
    bool complex_fft = tsr_dtype_is_complex(frames->dtype);
    bool onesided = onesided_opt >= 0 ? onesided_opt : !complex_fft;
    tsr_fft_norm norm = normalized ? TSR_FFT_NORM_BY_ROOT_N : TSR_FFT_NORM_NONE;
    int64_t last = 2;
    if (complex_fft) {
        if (onesided) {
            tsr_error_set(TSR_ERR_RUNTIME, "Cannot have onesided output if window or input is complex");
            goto fail;
        }
        out = tsr_fft_c2c_raw(frames, 1, &last, norm, true);
    } else {
        tsr_tensor *f = frames;
        if (f->dtype != TSR_FLOAT32 && f->dtype != TSR_FLOAT64) {
            tsr_error_set(TSR_ERR_RUNTIME, "Unsupported dtype %s", tsr_dtype_scalar_name(f->dtype));
            goto fail;
        }
        out = tsr_fft_r2c_raw(f, 1, &last, norm, onesided);
    }
    if (!out) goto fail;
    tsr_tensor *tr = tsr_view_transpose(out, 1, 2);
    tsr_tensor_release(out);
    out = tr;
    if (out && self->ndim == 1) {
        tsr_tensor *sq = tsr_view_squeeze_dim(out, 0);
        tsr_tensor_release(out);
        out = sq;
    }
    if (out) {
        /* the transposed result is PyTorch's own tensor, not a view */
        tsr_tensor_unview(out);
        if (!return_complex) {
            tsr_tensor *vr = tsr_view_as_real(out);
            tsr_tensor_release(out);
            out = vr;
        }
    }
    tsr_tensor_release(frames);
    tsr_tensor_release(win_);
    tsr_tensor_release(x);
    return out;
fail_in:
    tsr_tensor_release(in);
fail:
    tsr_tensor_release(frames);
    tsr_tensor_release(win_);
    tsr_tensor_release(x);
    return NULL;
}

tsr_tensor *tsr_istft(const tsr_tensor *self, int64_t n_fft, bool has_hop, int64_t hop, bool has_win, int64_t win_length,
                      const tsr_tensor *window, bool center, bool normalized, int onesided_opt, bool has_length,
                      int64_t length, bool return_complex)
{
    if (!has_hop) hop = n_fft >> 2;
    if (!has_win) win_length = n_fft;
    char repr[600], ts[128], ws[128], ls[32];
    type_sizes(ts, sizeof ts, self, false);
    if (window) type_sizes(ws, sizeof ws, window, true);
    else snprintf(ws, sizeof ws, "None");
    if (has_length) snprintf(ls, sizeof ls, "%lld", (long long)length);
    else snprintf(ls, sizeof ls, "None");
    /* 1.13 still takes the real (..., 2) form, with a deprecation warning */
    bool real_in = !tsr_dtype_is_complex(self->dtype);
    int input_dim = real_in ? self->ndim : self->ndim + 1;
    if (input_dim < 3) {
        if (tsr_wrap_dim(-2, input_dim) >= 0) tsr_wrap_dim(-3, input_dim);
        return NULL;
    }
    int64_t n_frames = self->sizes[self->ndim - (real_in ? 2 : 1)];
    int64_t fft_size = self->sizes[self->ndim - (real_in ? 3 : 2)];
    snprintf(repr, sizeof repr, "istft(%s, n_fft=%lld, hop_length=%lld, win_length=%lld, window=%s, center=%d, "
             "normalized=%d, onesided=%s, length=%s, return_complex=%d) ", ts, (long long)n_fft, (long long)hop,
             (long long)win_length, ws, center, normalized, opt_bool(onesided_opt), ls, return_complex);
    if (tsr_tensor_numel(self) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: input tensor cannot be empty.", repr);
        return NULL;
    }
    if (input_dim != 3 && input_dim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected a tensor with 3 or 4 dimensions of complex, but got %d", repr,
                      input_dim);
        return NULL;
    }
    if (real_in && self->sizes[self->ndim - 1] != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected the last dimension to be 2 (corresponding to real and imaginary "
                      "parts), but got %lld", repr, (long long)self->sizes[self->ndim - 1]);
        return NULL;
    }
    int64_t expected = n_fft + hop * (n_frames - 1);
    bool onesided = onesided_opt >= 0 ? onesided_opt : fft_size != n_fft;
    if (onesided ? n_fft / 2 + 1 != fft_size : n_fft != fft_size) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected the frequency dimension (3rd to the last) of the input tensor "
                      "to match %s when onsided=%s, but got %lld", repr, onesided ? "n_fft / 2 + 1" : "n_fft",
                      onesided ? "True" : "False", (long long)fft_size);
        return NULL;
    }
    if (!(0 < hop && hop <= win_length)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected 0 < hop_length <= win_length", repr);
        return NULL;
    }
    if (!(0 < win_length && win_length <= n_fft)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected 0 < win_length <= n_fft", repr);
        return NULL;
    }
    if (window && (window->ndim != 1 || window->sizes[0] != win_length)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Invalid window shape. window has to be 1D and length of `win_length`",
                      repr);
        return NULL;
    }
    tsr_dtype rdt = tsr_dtype_to_real(self->dtype);
    tsr_tensor *wt = NULL, *in = NULL, *spec = NULL, *y = NULL, *env = NULL, *r = NULL;
    wt = window ? tsr_tensor_retain((tsr_tensor *)window) : tsr_ones(1, &win_length, rdt, self->device);
    if (!wt) return NULL;
    if (win_length != n_fft) {
        int64_t left = (n_fft - win_length) / 2;
        tsr_tensor *z = tsr_zeros(1, &n_fft, wt->dtype, wt->device), *mid = z ? tsr_view_narrow(z, 0, left, win_length) : NULL;
        int rc = mid ? tsr_copy_(mid, wt) : -1;
        tsr_tensor_release(mid);
        tsr_tensor_release(wt);
        wt = z;
        if (rc < 0) goto fail;
    }
    /* (channel, fft_size, n_frames) -> (channel, n_frames, fft_size) */
    if (real_in) {
        tsr_tensor *c = tsr_contiguous(self, TSR_MF_CONTIGUOUS);
        in = c ? tsr_view_as_complex(c) : NULL;
        tsr_tensor_release(c);
    } else in = tsr_tensor_retain((tsr_tensor *)self);
    if (!in) goto fail;
    if (input_dim == 3) {
        tsr_tensor *u = tsr_view_unsqueeze(in, 0);
        tsr_tensor_release(in);
        if (!(in = u)) goto fail;
    }
    {
        tsr_tensor *tr = tsr_view_transpose(in, 1, 2);
        tsr_tensor_release(in);
        if (!(in = tr)) goto fail;
    }
    tsr_fft_norm norm = normalized ? TSR_FFT_NORM_BY_ROOT_N : TSR_FFT_NORM_BY_N;
    int64_t last = 2;
    if (return_complex) {
        if (onesided) {
            tsr_error_set(TSR_ERR_RUNTIME, "Cannot have onesided output if window or input is complex");
            goto fail;
        }
        spec = tsr_fft_c2c_raw(in, 1, &last, norm, false);
    } else {
        if (window && tsr_dtype_is_complex(window->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Complex windows are incompatible with return_complex=False");
            goto fail;
        }
        if (!onesided) {
            tsr_tensor *nw = tsr_view_narrow(in, 2, 0, n_fft / 2 + 1);
            tsr_tensor_release(in);
            if (!(in = nw)) goto fail;
        }
        spec = tsr_fft_c2r_raw(in, 1, &last, norm, n_fft);
    }
    if (!spec) goto fail;
    /* y_tmp = spec * window; overlap-add as 1.13's col2im sums: by kernel
     * offset, so each output adds its frames from the last to the first */
    {
        int64_t ws3[3] = {1, 1, n_fft};
        tsr_tensor *wv = tsr_view_view(wt, 3, ws3), *ytmp = wv ? mul_t(spec, wv) : NULL;
        tsr_tensor_release(wv);
        if (!ytmp) goto fail;
        tsr_tensor *w2 = tsr_unary(TSR_UNOP_SQUARE, wt, NULL, NULL);
        if (!w2) { tsr_tensor_release(ytmp); goto fail; }
        int64_t ch = ytmp->sizes[0], ys[2] = {ch, expected}, es[2] = {1, expected};
        y = tsr_zeros(2, ys, ytmp->dtype, ytmp->device);
        env = tsr_zeros(2, es, w2->dtype, w2->device);
        if (!y || !env) { tsr_tensor_release(ytmp); tsr_tensor_release(w2); goto fail; }
        tsr_tensor *yc = tsr_contiguous(ytmp, TSR_MF_CONTIGUOUS), *wc = tsr_contiguous(w2, TSR_MF_CONTIGUOUS);
        tsr_tensor_release(ytmp);
        tsr_tensor_release(w2);
        if (!yc || !wc) { tsr_tensor_release(yc); tsr_tensor_release(wc); goto fail; }
        bool cpx = tsr_dtype_is_complex(yc->dtype), dbl = tsr_dtype_itemsize(tsr_dtype_to_real(yc->dtype)) == 8;
        int ncomp = cpx ? 2 : 1;
        for (int64_t c = 0; c < ch; c++)
            for (int64_t f = n_frames - 1; f >= 0; f--)
                for (int64_t k = 0; k < n_fft; k++)
                    for (int q = 0; q < ncomp; q++) {
                        int64_t si = ((c * n_frames + f) * n_fft + k) * ncomp + q, di = (c * expected + f * hop + k) * ncomp + q;
                        if (dbl) ((double *)tsr_tensor_ptr(y, NULL))[di] += ((double *)tsr_tensor_ptr(yc, NULL))[si];
                        else ((float *)tsr_tensor_ptr(y, NULL))[di] += ((float *)tsr_tensor_ptr(yc, NULL))[si];
                    }
        bool wcpx = tsr_dtype_is_complex(wc->dtype), wdbl = tsr_dtype_itemsize(tsr_dtype_to_real(wc->dtype)) == 8;
        int wn = wcpx ? 2 : 1;
        for (int64_t f = n_frames - 1; f >= 0; f--)
            for (int64_t k = 0; k < n_fft; k++)
                for (int q = 0; q < wn; q++) {
                    int64_t di = (f * hop + k) * wn + q;
                    if (wdbl) ((double *)tsr_tensor_ptr(env, NULL))[di] += ((double *)tsr_tensor_ptr(wc, NULL))[k * wn + q];
                    else ((float *)tsr_tensor_ptr(env, NULL))[di] += ((float *)tsr_tensor_ptr(wc, NULL))[k * wn + q];
                }
        tsr_tensor_release(yc);
        tsr_tensor_release(wc);
    }
    {
        int64_t start = center ? n_fft / 2 : 0;
        int64_t end = has_length ? start + length : center ? expected - n_fft / 2 : expected;
        int64_t stop = end > expected ? expected : end;
        tsr_tensor *ys = tsr_view_slice(y, 1, start, stop, 1), *es = tsr_view_slice(env, 1, start, stop, 1);
        if (!ys || !es) { tsr_tensor_release(ys); tsr_tensor_release(es); goto fail; }
        /* window_envelop.abs().min() < 1e-11 */
        int64_t ne = tsr_tensor_numel(es);
        double mn = INFINITY;
        for (int64_t i = 0; i < ne; i++) {
            double re, im;
            tsr_tensor_get_complex_at(es, i, &re, &im);
            double a = im != 0 ? hypot(re, im) : fabs(re);
            if (a < mn) mn = a;
        }
        if (ne > 0 && mn < 1e-11) {
            tsr_error_set(TSR_ERR_RUNTIME, "%swindow overlap add min: 1", repr);
            tsr_tensor_release(ys);
            tsr_tensor_release(es);
            goto fail;
        }
        tsr_operand p = tsr_operand_tensor(ys), q = tsr_operand_tensor(es);
        r = tsr_binary(TSR_BINOP_DIV, &p, &q, NULL, NULL);
        tsr_tensor_release(ys);
        tsr_tensor_release(es);
        if (!r) goto fail;
        if (input_dim == 3) {
            tsr_tensor *sq = tsr_view_squeeze_dim(r, 0);
            tsr_tensor_release(r);
            if (!(r = sq)) goto fail;
        }
        if (end > expected) {
            int nd = r->ndim;
            int64_t sz[2] = {r->sizes[0], nd == 2 ? r->sizes[1] : 0};
            sz[nd - 1] += end - expected;
            tsr_tensor *z = tsr_zeros(nd, sz, r->dtype, r->device), *mid = z ? tsr_view_narrow(z, nd - 1, 0, r->sizes[nd - 1]) : NULL;
            int rc = mid ? tsr_copy_(mid, r) : -1;
            tsr_tensor_release(mid);
            tsr_tensor_release(r);
            r = z;
            if (rc < 0) goto fail;
        }
    }
    tsr_tensor_release(wt);
    tsr_tensor_release(in);
    tsr_tensor_release(spec);
    tsr_tensor_release(y);
    tsr_tensor_release(env);
    return r;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(wt);
    tsr_tensor_release(in);
    tsr_tensor_release(spec);
    tsr_tensor_release(y);
    tsr_tensor_release(env);
    return NULL;
}
