/* src/bind/fft.c — the torch.fft module (22 functions), the window functions
 * and torch.stft/istft with PyTorch 1.13's signatures. Every rule is
 * runtime/ops/fft.h's; rows only parse and call. */
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"

typedef enum { K_FFT1, K_FFT2, K_FFTN, K_FREQ, K_RFREQ, K_SHIFT, K_ISHIFT, K_WINDOW, K_STFT, K_ISTFT } Kind;

#define ARG(name) bind_table_arg(b, name)

static const char *str_or_null(Value *v) { return v ? v->u.s.p : NULL; }

/* An int[1]? argument called name into out (*n entries; -1 when absent). */
static int list_arg(const BindArgs *b, const char *name, const char *fname, int64_t *out, int *n)
{
    *n = -1;
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->v[i] && b->param[i] && !strcmp(b->param[i]->name, name))
            return bind_table_intlist(b, i, fname, out, TSR_MAX_DIMS, n);
    return 0;
}

static int int_arg(Value *v, const char *fname, const char *name, int64_t *out)
{
    return bind_int(v, fname, name, out);
}

static Value *fft_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    Value *outv = b->v[BIND_OUT];
    tsr_tensor *out = outv ? tensor_of(outv) : NULL, *r = NULL;
    const char *pn = d->pname;
    switch ((Kind)d->kind) {
    case K_FFT1: {
        int64_t n = 0, dim = -1;
        Value *nv = ARG("n"), *dv = ARG("dim");
        if (nv && int_arg(nv, pn, "n", &n) < 0) return NULL;
        if (dv && int_arg(dv, pn, "dim", &dim) < 0) return NULL;
        r = tsr_fft1((tsr_fft_kind)d->code, tensor_of(b->v[0]), nv != NULL, n, dim, str_or_null(ARG("norm")), out);
        break;
    }
    case K_FFT2:
    case K_FFTN: {
        int64_t s[TSR_MAX_DIMS], dims[TSR_MAX_DIMS] = {-2, -1};
        int ns, nd;
        if (list_arg(b, "s", pn, s, &ns) < 0 || list_arg(b, "dim", pn, dims, &nd) < 0) return NULL;
        if (d->kind == K_FFT2 && nd < 0) { nd = 2; dims[0] = -2; dims[1] = -1; }
        r = tsr_fftn((tsr_fft_kind)d->code, tensor_of(b->v[0]), ns, s, nd, dims, str_or_null(ARG("norm")), out);
        break;
    }
    case K_FREQ:
    case K_RFREQ: {
        int64_t n;
        double dd = 1.0;
        Value *dv = ARG("d"), *dev = ARG("device"), *rg = ARG("requires_grad");
        if (int_arg(ARG("n"), pn, "n", &n) < 0) return NULL;
        if (dv && bind_float(dv, pn, "d", &dd) < 0) return NULL;
        tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
        tsr_device device = out ? out->device : bind_default_device();
        if (dev && bind_device_arg(dev, device, &device) < 0) return NULL;
        if (out && tsr_check_out_options(out, dt != TSR_DTYPE_UNDEFINED ? &dt : NULL, NULL, dev ? &device : NULL) < 0)
            return bind_runtime_error();
        r = tsr_fftfreq(d->kind == K_RFREQ, n, dd, dt, tsr_device_normalize(device), out);
        if (r && rg && rg->u.i && tsr_factory_requires_grad(r) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        break;
    }
    case K_SHIFT:
    case K_ISHIFT: {
        int64_t dims[TSR_MAX_DIMS];
        int nd;
        if (list_arg(b, "dim", pn, dims, &nd) < 0) return NULL;
        r = tsr_fftshift(tensor_of(b->v[0]), nd, dims, d->kind == K_ISHIFT);
        break;
    }
    case K_WINDOW: {
        int64_t len;
        bool periodic = true;
        double a = d->code == TSR_WIN_KAISER ? 12.0 : 0.54, bb = 0.46;
        Value *pv = ARG("periodic"), *av = ARG("alpha"), *bv = ARG("beta"), *dev = ARG("device"),
              *rg = ARG("requires_grad");
        if (int_arg(ARG("window_length"), pn, "window_length", &len) < 0) return NULL;
        if (pv) periodic = pv->u.i != 0;
        if (d->code == TSR_WIN_KAISER) {
            if (bv && bind_float(bv, pn, "beta", &a) < 0) return NULL;
        } else {
            if (av && bind_float(av, pn, "alpha", &a) < 0) return NULL;
            if (bv && bind_float(bv, pn, "beta", &bb) < 0) return NULL;
        }
        tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
        tsr_device device = bind_default_device();
        if (dev && bind_device_arg(dev, device, &device) < 0) return NULL;
        r = tsr_window((tsr_window_kind)d->code, len, periodic, a, bb, dt, tsr_device_normalize(device));
        if (r && rg && rg->u.i && tsr_factory_requires_grad(r) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        break;
    }
    case K_STFT:
    case K_ISTFT: {
        int64_t n_fft, hop = 0, win = 0, length = 0;
        Value *hv = ARG("hop_length"), *wv = ARG("win_length"), *win_t = ARG("window"), *cv = ARG("center"),
              *nv = ARG("normalized"), *ov = ARG("onesided"), *rv = ARG("return_complex"), *lv = ARG("length");
        if (int_arg(ARG("n_fft"), pn, "n_fft", &n_fft) < 0) return NULL;
        if (hv && int_arg(hv, pn, "hop_length", &hop) < 0) return NULL;
        if (wv && int_arg(wv, pn, "win_length", &win) < 0) return NULL;
        if (lv && int_arg(lv, pn, "length", &length) < 0) return NULL;
        bool center = cv ? cv->u.i != 0 : true, normalized = nv ? nv->u.i != 0 : false;
        int onesided = ov ? (int)(ov->u.i != 0) : -1;
        if (d->kind == K_STFT) {
            int rc = rv ? (int)(rv->u.i != 0) : -1;
            const char *mode = ARG("pad_mode") ? ARG("pad_mode")->u.s.p : "reflect";
            r = tsr_stft(tensor_of(b->v[0]), n_fft, hv != NULL, hop, wv != NULL, win,
                         win_t ? tensor_of(win_t) : NULL, center, mode, normalized, onesided, rc);
            if (r && rc < 0 && !tsr_dtype_is_complex(r->dtype) && !bind_warnings_ignored())
                fprintf(stderr, "UserWarning: stft will soon require the return_complex parameter be given for "
                                "real inputs, and will further require that return_complex=True in a future "
                                "PyTorch release.\n");
        } else
            r = tsr_istft(tensor_of(b->v[0]), n_fft, hv != NULL, hop, wv != NULL, win,
                          win_t ? tensor_of(win_t) : NULL, center, normalized, onesided, lv != NULL, length,
                          rv ? rv->u.i != 0 : false);
        break;
    }
    }
    if (!r) return bind_runtime_error();
    if (out) ops_warn();
    return ops_finish(r, outv);
}

/* ------------------------------------------------------------ the table */

#define ROW(n, k, c, fl, s, mod) {.name = n, .kind = k, .code = c, .flags = fl, .sigs = s, .handler = fft_call, \
                                  .module = mod}
#define F1 "Tensor input, int? n=None, int dim=-1, str? norm=None, *, Tensor? out=None"
#define F2 "Tensor input, int[1]? s=None, int[1] dim=None, str? norm=None, *, Tensor? out=None"
#define FN_ "Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None, *, Tensor? out=None"
#define FFT3(nm, k)                                                              \
    ROW(nm, K_FFT1, TSR_FFT_##k, BIND_FN, F1, "torch.fft"),                       \
    ROW(nm "2", K_FFT2, TSR_FFT_##k, BIND_FN, F2, "torch.fft"),                   \
    ROW(nm "n", K_FFTN, TSR_FFT_##k, BIND_FN, FN_, "torch.fft")
#define FREQ "int n, float d=1.0, *, Tensor? out=None, ScalarType? dtype=None, Layout? layout=None, " \
             "Device? device=None, bool? pin_memory=False, bool? requires_grad=False"
#define WOPT "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, " \
             "bool? requires_grad=False"
#define WIN2(nm, c) ROW(nm, K_WINDOW, TSR_WIN_##c, BIND_FN, \
                        "int window_length, " WOPT "|int window_length, bool periodic, " WOPT, NULL)

static BindRow rows[] = {
    FFT3("fft", FFT), FFT3("ifft", IFFT), FFT3("rfft", RFFT), FFT3("irfft", IRFFT), FFT3("hfft", HFFT),
    FFT3("ihfft", IHFFT),
    ROW("fftfreq", K_FREQ, 0, BIND_FN, FREQ, "torch.fft"),
    ROW("rfftfreq", K_RFREQ, 0, BIND_FN, FREQ, "torch.fft"),
    ROW("fftshift", K_SHIFT, 0, BIND_FN, "Tensor input, int[1]? dim=None", "torch.fft"),
    ROW("ifftshift", K_ISHIFT, 0, BIND_FN, "Tensor input, int[1]? dim=None", "torch.fft"),
    WIN2("hann_window", HANN), WIN2("blackman_window", BLACKMAN), WIN2("bartlett_window", BARTLETT),
    ROW("hamming_window", K_WINDOW, TSR_WIN_HAMMING, BIND_FN,
        "int window_length, " WOPT "|int window_length, bool periodic, " WOPT "|"
        "int window_length, bool periodic, float alpha, " WOPT "|"
        "int window_length, bool periodic, float alpha, float beta, " WOPT, NULL),
    ROW("kaiser_window", K_WINDOW, TSR_WIN_KAISER, BIND_FN,
        "int window_length, " WOPT "|int window_length, bool periodic, " WOPT "|"
        "int window_length, bool periodic, float beta, " WOPT, NULL),
    ROW("stft", K_STFT, 0, BIND_FN | BIND_METHOD,
        "Tensor input, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, str pad_mode=reflect, bool normalized=False, bool? onesided=None, "
        "bool? return_complex=None", NULL),
    ROW("istft", K_ISTFT, 0, BIND_FN | BIND_METHOD,
        "Tensor input, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, bool normalized=False, bool? onesided=None, int? length=None, "
        "bool return_complex=False", NULL),
};

void bind_fft_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
