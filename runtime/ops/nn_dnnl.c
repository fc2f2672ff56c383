/* runtime/ops/nn_dnnl.c — convolution (float32, and bfloat16 on CPUs with
 * AVX-512), gelu and bfloat16 matrix products through oneDNN (libdnnl), as
 * 1.13 calls it. Convolution follows mkldnn_convolution through ideep's
 * compute_v3: a direct
 * forward convolution whose source, weights (grouped when groups > 1),
 * bias and destination formats oneDNN picks (format any; nhwc source and
 * destination for channels_last), the user inputs reordered in and the
 * result reordered out. The same library and the same primitive give 1.13's
 * bits. Buffers come from the runtime allocator. libdnnl (40 MB) is loaded
 * with dlopen on the first oneDNN call, each function looked up once.
 * oneDNN runs on as many OpenMP threads as tsr's intra-op threads, as 1.13
 * sets them (torch.set_num_threads): its weight gradients split the batch
 * reduction by thread, so the count shows in the bits. */
#include <dlfcn.h>
#include <dnnl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "nn_dnnl.h"
#include "copy.h"
#include "../error.h"
#include "../iter.h"
#include "../internal.h"

/* ORDER: the functions of libdnnl.so.2 this file calls */
#define DNNL_FNS(X) \
    X(dnnl_dilated_convolution_backward_data_desc_init) \
    X(dnnl_dilated_convolution_backward_weights_desc_init) \
    X(dnnl_dilated_convolution_forward_desc_init) \
    X(dnnl_eltwise_backward_desc_init) \
    X(dnnl_eltwise_forward_desc_init) \
    X(dnnl_engine_create) \
    X(dnnl_get_effective_cpu_isa) \
    X(dnnl_matmul_desc_init) \
    X(dnnl_memory_create) \
    X(dnnl_memory_desc_get_size) \
    X(dnnl_memory_desc_init_by_strides) \
    X(dnnl_memory_desc_init_by_tag) \
    X(dnnl_memory_destroy) \
    X(dnnl_memory_get_memory_desc) \
    X(dnnl_post_ops_append_sum) \
    X(dnnl_post_ops_create) \
    X(dnnl_post_ops_destroy) \
    X(dnnl_primitive_attr_create) \
    X(dnnl_primitive_attr_destroy) \
    X(dnnl_primitive_attr_set_output_scales) \
    X(dnnl_primitive_attr_set_post_ops) \
    X(dnnl_primitive_attr_set_scratchpad_mode) \
    X(dnnl_primitive_create) \
    X(dnnl_primitive_desc_create) \
    X(dnnl_primitive_desc_destroy) \
    X(dnnl_primitive_desc_query_md) \
    X(dnnl_primitive_destroy) \
    X(dnnl_primitive_execute) \
    X(dnnl_reorder_primitive_desc_create) \
    X(dnnl_stream_create) \
    X(dnnl_stream_wait)

static struct {
#define FIELD(f) __typeof__(&f) f;
    DNNL_FNS(FIELD)
#undef FIELD
    void (*omp_set_num_threads)(int);   /* libgomp's, a dependency of libdnnl */
} api;
static dnnl_engine_t engine;
static dnnl_stream_t stream;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool ready;
static char why[256];

static void init(void)
{
    void *h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "%s", e ? e : "libdnnl.so.2: cannot open shared object file");
        return;
    }
#define LOAD(f)                                                                \
    if (!(*(void **)&api.f = dlsym(h, #f))) {                                  \
        snprintf(why, sizeof why, "libdnnl.so.2: undefined symbol: %s", #f);  \
        return;                                                                \
    }
    DNNL_FNS(LOAD)
#undef LOAD
    *(void **)&api.omp_set_num_threads = dlsym(h, "omp_set_num_threads");
    if (api.dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
        api.dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success) {
        snprintf(why, sizeof why, "no oneDNN CPU engine");
        return;
    }
    ready = true;
}

/* 0 when oneDNN is loaded, else -1 with a RuntimeError saying why. */
static int load(void)
{
    pthread_once(&once, init);
    if (ready) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "float32 convolution needs oneDNN, which could not be loaded (%s)", why);
    return -1;
}

/* mkldnn_bf16_device_check() of 1.13 (ATen/native/mkldnn/Utils.h): a CPU
 * with avx512bw, avx512vl and avx512dq runs bfloat16 convolution, matmul and
 * gelu through oneDNN. Here oneDNN must also be allowed those instructions:
 * with ONEDNN_MAX_CPU_ISA capping it below avx512_core (the conformance
 * runner caps it at AVX2) tsr takes the paths of a CPU without AVX-512,
 * where 1.13 itself would fail to create the primitive. */
bool tsr__dnnl_bf16_usable(void)
{
    static int usable = -1;
    if (usable < 0) {
        __builtin_cpu_init();
        bool cpu = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                   __builtin_cpu_supports("avx512dq");
        pthread_once(&once, init);
        usable = cpu && ready && (api.dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
    }
    return usable == 1;
}

/* A runtime buffer of n bytes (a uint8 tensor) and its pointer. */
static tsr_tensor *buffer(size_t n, tsr_device dev, void **p)
{
    int64_t len = (int64_t)(n ? n : 1);
    tsr_tensor *t = tsr_tensor_empty(1, &len, TSR_UINT8, dev);
    *p = t ? tsr_tensor_ptr(t, NULL) : NULL;
    return t;
}

static int reorder(dnnl_memory_t from, dnnl_memory_t to)
{
    const dnnl_memory_desc_t *a, *b;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t p = NULL;
    int rc = -1;
    if (api.dnnl_memory_get_memory_desc(from, &a) != dnnl_success ||
        api.dnnl_memory_get_memory_desc(to, &b) != dnnl_success ||
        api.dnnl_reorder_primitive_desc_create(&pd, a, engine, b, engine, NULL) != dnnl_success ||
        api.dnnl_primitive_create(&p, pd) != dnnl_success)
        goto done;
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    if (api.dnnl_primitive_execute(p, stream, 2, args) == dnnl_success) rc = 0;
done:
    if (p) api.dnnl_primitive_destroy(p);
    if (pd) api.dnnl_primitive_desc_destroy(pd);
    return rc;
}

/* The memory descriptors of a 2-d (or 3-d) convolution, as ideep makes them (all
 * of x's data type, float32 or bfloat16): the
 * user's (source, weights grouped when groups > 1, bias, destination of
 * sizes dsz; nhwc activations for channels_last) and oneDNN's choice of
 * format for each (nhwc kept for channels_last). -1 when oneDNN refuses. */
typedef struct {
    dnnl_memory_desc_t su, wu, bu, du, sa, wa, ba, da;
} conv_md;

static int conv_md_init(conv_md *m, const tsr_tensor *x, const tsr_tensor *w, const int64_t *dsz, int64_t groups,
                        bool cl)
{
    int64_t O = w->sizes[0], Ig = w->sizes[1];
    int nd = x->ndim, wn = groups > 1 ? nd + 1 : nd;   /* 4, or 5 for conv3d (never channels_last there) */
    dnnl_dims_t sd, dd, wd4 = {O, Ig}, wd5 = {groups, O / groups, Ig}, bd = {O};
    for (int i = 0; i < nd; i++) sd[i] = x->sizes[i], dd[i] = dsz[i];
    for (int i = 2; i < nd; i++) wd4[i] = w->sizes[i], wd5[i + 1] = w->sizes[i];
    dnnl_data_type_t dt = x->dtype == TSR_BFLOAT16 ? dnnl_bf16 : dnnl_f32;
    dnnl_format_tag_t act = nd == 5 ? dnnl_ncdhw : cl ? dnnl_nhwc : dnnl_nchw;
    dnnl_format_tag_t wt = nd == 5 ? (groups > 1 ? dnnl_goidhw : dnnl_oidhw) : groups > 1 ? dnnl_goihw : dnnl_oihw;
    if (api.dnnl_memory_desc_init_by_tag(&m->su, nd, sd, dt, act) != dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->wu, wn, groups > 1 ? wd5 : wd4, dt, wt) != dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->bu, 1, bd, dt, dnnl_x) != dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->du, nd, dd, dt, act) != dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->sa, nd, sd, dt, cl ? dnnl_nhwc : dnnl_format_tag_any) !=
            dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->wa, wn, groups > 1 ? wd5 : wd4, dt, dnnl_format_tag_any) !=
            dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->ba, 1, bd, dt, dnnl_format_tag_any) != dnnl_success ||
        api.dnnl_memory_desc_init_by_tag(&m->da, nd, dd, dt, cl ? dnnl_nhwc : dnnl_format_tag_any) !=
            dnnl_success)
        return -1;
    return 0;
}

/* the spatial stride, dilation (oneDNN counts from 0) and padding of an
 * x->ndim - 2 dimensional convolution */
static void conv_geom(const tsr_tensor *x, const int64_t *st, const int64_t *pd, const int64_t *dl, dnnl_dims_t s,
                      dnnl_dims_t d, dnnl_dims_t p)
{
    for (int i = 0; i < x->ndim - 2; i++) s[i] = st[i], d[i] = dl[i] - 1, p[i] = pd[i];
}

int tsr__conv2d_dnnl(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                     const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t groups, bool cl)
{
    if (load() < 0) return -1;
    if (api.omp_set_num_threads) api.omp_set_num_threads(tsr_get_num_threads());
    tsr_tensor *xc = tsr_contiguous(x, cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS);
    tsr_tensor *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *bc = wc && bias ? tsr_contiguous(bias, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *bufs[5] = {NULL, NULL, NULL, NULL, NULL};
    dnnl_memory_t mem[9] = {NULL};
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t ppd = NULL;
    dnnl_primitive_t conv = NULL;
    int rc = 1;
    if (!wc || (bias && !bc)) {
        rc = -1;
        goto done;
    }
    dnnl_dims_t strides, dil, pads;
    conv_geom(x, st, pd, dl, strides, dil, pads);
    conv_md m;
    if (conv_md_init(&m, x, w, out->sizes, groups, cl) < 0) goto done;
    dnnl_convolution_desc_t cd;
    if (api.dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward, dnnl_convolution_direct, &m.sa, &m.wa,
                                                       bias ? &m.ba : NULL, &m.da, strides, dil, pads,
                                                       pads) != dnnl_success ||
        api.dnnl_primitive_attr_create(&attr) != dnnl_success ||
        api.dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
        api.dnnl_primitive_desc_create(&ppd, &cd, attr, engine, NULL) != dnnl_success)
        goto done;
    const dnnl_memory_desc_t *q[5] = {
        api.dnnl_primitive_desc_query_md(ppd, dnnl_query_src_md, 0),
        api.dnnl_primitive_desc_query_md(ppd, dnnl_query_weights_md, 0),
        api.dnnl_primitive_desc_query_md(ppd, dnnl_query_weights_md, 1),
        api.dnnl_primitive_desc_query_md(ppd, dnnl_query_dst_md, 0),
        api.dnnl_primitive_desc_query_md(ppd, dnnl_query_scratchpad_md, 0)};
    void *ptr[5];
    for (int i = 0; i < 5; i++) {
        if (i == 2 && !bias) continue;
        if (!q[i]) goto done;
        if (!(bufs[i] = buffer(api.dnnl_memory_desc_get_size(q[i]), x->device, &ptr[i]))) {
            rc = -1;
            goto done;
        }
        if (api.dnnl_memory_create(&mem[4 + i], q[i], engine, ptr[i]) != dnnl_success) goto done;
    }
    if (api.dnnl_memory_create(&mem[0], &m.su, engine, tsr_tensor_ptr(xc, NULL)) != dnnl_success ||
        api.dnnl_memory_create(&mem[1], &m.wu, engine, tsr_tensor_ptr(wc, NULL)) != dnnl_success ||
        (bias && api.dnnl_memory_create(&mem[2], &m.bu, engine, tsr_tensor_ptr(bc, NULL)) != dnnl_success) ||
        api.dnnl_memory_create(&mem[3], &m.du, engine, tsr_tensor_ptr(out, NULL)) != dnnl_success)
        goto done;
    if (reorder(mem[0], mem[4]) < 0 || reorder(mem[1], mem[5]) < 0 || (bias && reorder(mem[2], mem[6]) < 0) ||
        api.dnnl_primitive_create(&conv, ppd) != dnnl_success)
        goto done;
    dnnl_exec_arg_t args[5] = {{DNNL_ARG_SRC, mem[4]}, {DNNL_ARG_WEIGHTS, mem[5]}, {DNNL_ARG_DST, mem[7]},
                               {DNNL_ARG_SCRATCHPAD, mem[8]}, {DNNL_ARG_BIAS, mem[6]}};
    if (api.dnnl_primitive_execute(conv, stream, bias ? 5 : 4, args) != dnnl_success || reorder(mem[7], mem[3]) < 0 ||
        api.dnnl_stream_wait(stream) != dnnl_success)
        goto done;
    rc = 0;
done:
    if (conv) api.dnnl_primitive_destroy(conv);
    if (ppd) api.dnnl_primitive_desc_destroy(ppd);
    if (attr) api.dnnl_primitive_attr_destroy(attr);
    for (int i = 0; i < 9; i++)
        if (mem[i]) api.dnnl_memory_destroy(mem[i]);
    for (int i = 0; i < 5; i++) tsr_tensor_release(bufs[i]);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    return rc;
}

/* ------------------------------------------------------------ backward */
/* mkldnn_convolution_backward of 1.13 through ideep: convolution_backward_data
 * (diff_src from diff_dst and the weights) and convolution_backward_weights
 * (diff_weights, and diff_bias when the bias needs a gradient), each created
 * with a forward primitive as its hint; formats as the forward's (any, nhwc
 * activations for channels_last), user buffers reordered in and out. */

/* One primitive run: descs is the backward pass's op descriptor, hint the
 * forward's; the n user memories (users[i], a dnnl_query_* and its index)
 * are reordered into the primitive's formats (ins) or out of them. */
typedef struct {
    int arg;                    /* DNNL_ARG_* */
    dnnl_query_t what;          /* the primitive's md for it */
    int idx;                    /* and its index */
    const dnnl_memory_desc_t *user;
    void *ptr;                  /* the user's buffer */
    bool out;                   /* reordered out after the run */
} prim_io;

static int run_prim(const void *opd, const void *hint_opd, int n, const prim_io *io)
{
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t hint = NULL, ppd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t um[6] = {NULL}, pm[6] = {NULL}, sm = NULL;
    tsr_tensor *bufs[7] = {NULL};
    dnnl_exec_arg_t args[7];
    int rc = 1;
    if (api.dnnl_primitive_desc_create(&hint, hint_opd, NULL, engine, NULL) != dnnl_success ||
        api.dnnl_primitive_attr_create(&attr) != dnnl_success ||
        api.dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success ||
        api.dnnl_primitive_desc_create(&ppd, opd, attr, engine, hint) != dnnl_success)
        goto done;
    for (int i = 0; i < n; i++) {
        const dnnl_memory_desc_t *q = api.dnnl_primitive_desc_query_md(ppd, io[i].what, io[i].idx);
        void *p;
        if (!q) goto done;
        if (!(bufs[i] = buffer(api.dnnl_memory_desc_get_size(q), TSR_CPU, &p))) {
            rc = -1;
            goto done;
        }
        if (api.dnnl_memory_create(&pm[i], q, engine, p) != dnnl_success ||
            api.dnnl_memory_create(&um[i], io[i].user, engine, io[i].ptr) != dnnl_success)
            goto done;
        if (!io[i].out && reorder(um[i], pm[i]) < 0) goto done;
        args[i] = (dnnl_exec_arg_t){io[i].arg, pm[i]};
    }
    const dnnl_memory_desc_t *sq = api.dnnl_primitive_desc_query_md(ppd, dnnl_query_scratchpad_md, 0);
    void *sp;
    if (!sq) goto done;
    if (!(bufs[n] = buffer(api.dnnl_memory_desc_get_size(sq), TSR_CPU, &sp))) {
        rc = -1;
        goto done;
    }
    if (api.dnnl_memory_create(&sm, sq, engine, sp) != dnnl_success ||
        api.dnnl_primitive_create(&prim, ppd) != dnnl_success)
        goto done;
    args[n] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, sm};
    if (api.dnnl_primitive_execute(prim, stream, n + 1, args) != dnnl_success) goto done;
    for (int i = 0; i < n; i++)
        if (io[i].out && reorder(pm[i], um[i]) < 0) goto done;
    if (api.dnnl_stream_wait(stream) != dnnl_success) goto done;
    rc = 0;
done:
    if (prim) api.dnnl_primitive_destroy(prim);
    if (ppd) api.dnnl_primitive_desc_destroy(ppd);
    if (hint) api.dnnl_primitive_desc_destroy(hint);
    if (attr) api.dnnl_primitive_attr_destroy(attr);
    if (sm) api.dnnl_memory_destroy(sm);
    for (int i = 0; i < 6; i++) {
        if (um[i]) api.dnnl_memory_destroy(um[i]);
        if (pm[i]) api.dnnl_memory_destroy(pm[i]);
    }
    for (int i = 0; i < 7; i++) tsr_tensor_release(bufs[i]);
    return rc;
}

int tsr__conv2d_dnnl_backward(tsr_tensor *gi, tsr_tensor *gw, tsr_tensor *gb, const tsr_tensor *g,
                              const tsr_tensor *x, const tsr_tensor *w, const int64_t *st, const int64_t *pd,
                              const int64_t *dl, int64_t groups, bool cl)
{
    if (load() < 0) return -1;
    if (api.omp_set_num_threads) api.omp_set_num_threads(tsr_get_num_threads());
    tsr_memory_format mf = cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS;
    tsr_tensor *gc = tsr_contiguous(g, mf), *xc = gc ? tsr_contiguous(x, mf) : NULL;
    tsr_tensor *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    int rc = -1;
    if (!wc) goto done;
    dnnl_dims_t strides, dil, pads;
    conv_geom(x, st, pd, dl, strides, dil, pads);
    conv_md m;
    rc = 1;
    if (conv_md_init(&m, x, w, g->sizes, groups, cl) < 0) goto done;
    dnnl_alg_kind_t alg = dnnl_convolution_direct;
    dnnl_memory_desc_t *bias_any = gb ? &m.ba : NULL;
    if (gi) {
        dnnl_convolution_desc_t fwd, bwd;
        if (api.dnnl_dilated_convolution_forward_desc_init(&fwd, dnnl_forward, alg, &m.sa, &m.wa, NULL, &m.da, strides,
                                                           dil, pads, pads) != dnnl_success ||
            api.dnnl_dilated_convolution_backward_data_desc_init(&bwd, alg, &m.sa, &m.wa, &m.da, strides, dil, pads,
                                                                 pads) != dnnl_success)
            goto done;
        prim_io io[3] = {{DNNL_ARG_DIFF_DST, dnnl_query_diff_dst_md, 0, &m.du, tsr_tensor_ptr(gc, NULL), false},
                         {DNNL_ARG_WEIGHTS, dnnl_query_weights_md, 0, &m.wu, tsr_tensor_ptr(wc, NULL), false},
                         {DNNL_ARG_DIFF_SRC, dnnl_query_diff_src_md, 0, &m.su, tsr_tensor_ptr(gi, NULL), true}};
        if ((rc = run_prim(&bwd, &fwd, 3, io)) != 0) goto done;
        rc = 1;
    }
    if (gw || gb) {
        dnnl_convolution_desc_t fwd, bwd;
        if (api.dnnl_dilated_convolution_forward_desc_init(&fwd, dnnl_forward, alg, &m.sa, &m.wa, bias_any, &m.da,
                                                           strides, dil, pads, pads) != dnnl_success ||
            api.dnnl_dilated_convolution_backward_weights_desc_init(&bwd, alg, &m.sa, &m.wa, bias_any, &m.da, strides,
                                                                    dil, pads, pads) != dnnl_success)
            goto done;
        void *gbp = gb ? tsr_tensor_ptr(gb, NULL) : NULL;
        prim_io io[4] = {{DNNL_ARG_SRC, dnnl_query_src_md, 0, &m.su, tsr_tensor_ptr(xc, NULL), false},
                         {DNNL_ARG_DIFF_DST, dnnl_query_diff_dst_md, 0, &m.du, tsr_tensor_ptr(gc, NULL), false},
                         {DNNL_ARG_DIFF_WEIGHTS, dnnl_query_diff_weights_md, 0, &m.wu, tsr_tensor_ptr(gw, NULL), true},
                         {DNNL_ARG_DIFF_BIAS, dnnl_query_diff_weights_md, 1, &m.bu, gbp, true}};
        if ((rc = run_prim(&bwd, &fwd, gb ? 4 : 3, io)) != 0) goto done;
    }
    rc = 0;
done:
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    return rc;
}

/* ------------------------------------------------------------ gelu */

/* gelu(approximate='none') of a contiguous float32 tensor of more than one
 * element, as 1.13's gelu_out_cpu / gelu_backward_out_cpu hand it to ideep:
 * oneDNN's eltwise_gelu_erf (forward_training; the backward from the source
 * with the forward as hint). Element-wise, so the data is one dense
 * dimension. out / gi: contiguous float32 of x's size. 0 or -1. */
static int gelu_run(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *g)
{
    if (load() < 0) return -1;
    if (api.omp_set_num_threads) api.omp_set_num_threads(tsr_get_num_threads());
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fd, bd;
    dnnl_primitive_desc_t fpd = NULL, bpd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t mx = NULL, mo = NULL, mg = NULL;
    dnnl_dims_t dims = {tsr_tensor_numel(x)};
    int rc = -1;
    if (api.dnnl_memory_desc_init_by_tag(&md, 1, dims, x->dtype == TSR_BFLOAT16 ? dnnl_bf16 : dnnl_f32, dnnl_a) !=
            dnnl_success ||
        api.dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training, dnnl_eltwise_gelu_erf, &md, 0.f, 0.f) !=
            dnnl_success ||
        api.dnnl_primitive_desc_create(&fpd, &fd, NULL, engine, NULL) != dnnl_success)
        goto done;
    if (g && (api.dnnl_eltwise_backward_desc_init(&bd, dnnl_eltwise_gelu_erf, &md, &md, 0.f, 0.f) != dnnl_success ||
              api.dnnl_primitive_desc_create(&bpd, &bd, NULL, engine, fpd) != dnnl_success))
        goto done;
    if (api.dnnl_primitive_create(&prim, g ? bpd : fpd) != dnnl_success ||
        api.dnnl_memory_create(&mx, &md, engine, tsr_tensor_ptr(x, NULL)) != dnnl_success ||
        api.dnnl_memory_create(&mo, &md, engine, tsr_tensor_ptr(out, NULL)) != dnnl_success ||
        (g && api.dnnl_memory_create(&mg, &md, engine, tsr_tensor_ptr(g, NULL)) != dnnl_success))
        goto done;
    dnnl_exec_arg_t fargs[2] = {{DNNL_ARG_SRC, mx}, {DNNL_ARG_DST, mo}};
    dnnl_exec_arg_t bargs[3] = {{DNNL_ARG_SRC, mx}, {DNNL_ARG_DIFF_DST, mg}, {DNNL_ARG_DIFF_SRC, mo}};
    if (api.dnnl_primitive_execute(prim, stream, g ? 3 : 2, g ? bargs : fargs) == dnnl_success &&
        api.dnnl_stream_wait(stream) == dnnl_success)
        rc = 0;
done:
    if (rc < 0) tsr_error_set(TSR_ERR_RUNTIME, "oneDNN refused gelu");
    if (prim) api.dnnl_primitive_destroy(prim);
    if (bpd) api.dnnl_primitive_desc_destroy(bpd);
    if (fpd) api.dnnl_primitive_desc_destroy(fpd);
    if (mx) api.dnnl_memory_destroy(mx);
    if (mo) api.dnnl_memory_destroy(mo);
    if (mg) api.dnnl_memory_destroy(mg);
    return rc;
}

tsr_tensor *tsr__gelu_dnnl(const tsr_tensor *x, const tsr_tensor *g)
{
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *gc = NULL, *out = NULL;
    if (!xc || (g && !(gc = tsr_to_dtype_format(g, x->dtype, TSR_MF_CONTIGUOUS)))) goto done;
    if (!(out = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device))) goto done;
    if (gelu_run(out, xc, gc) < 0 || tsr_check_interrupt() < 0) tsr__take(&out, NULL);
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(gc);
    return out;
}

/* ------------------------------------------------------------ bfloat16 gemm */

/* mkldnn_bf16_gemm of 1.13 (mkldnn/Matmul.cpp; tsr__bf16_gemm_dnnl below), for cpublas::gemm's
 * column-major c = alpha * op(a) op(b) + beta * c after normalize_last_dims:
 * ideep's matmul over the row-major identity c^T = b^T a^T, i.e. source
 * b^T (n x k), weights a^T (k x m) and destination c^T (n x m) as strided
 * plain bfloat16 memory, alpha as the output scale and beta as a sum
 * post-op. 1: not taken (oneDNN may not run bfloat16 here, m * n * k <=
 * 16^3 or alpha 0: the caller's kernel computes it), 0 done, -1 error. */
/* One oneDNN matmul of bfloat16: dst (M x N) = alpha * src (M x K) @ wei
 * (K x N) (+ beta * dst), each plain memory of the given strides (in
 * elements), as ideep's matmul_forward::compute runs it (alpha an output
 * scale, beta a sum post-op). 0 or -1. */
static int bf16_matmul_nd(int nd, const int64_t *sdims, const void *src, const int64_t *ss, const int64_t *wdims,
                          const void *wei, const int64_t *ws, const int64_t *ddims, void *dst, const int64_t *ds,
                          float alpha, float beta)
{
    if (api.omp_set_num_threads) api.omp_set_num_threads(tsr_get_num_threads());
    dnnl_dims_t sd, wd, dd, sst, wst, dst_st;
    for (int i = 0; i < nd; i++)
        sd[i] = sdims[i], wd[i] = wdims[i], dd[i] = ddims[i], sst[i] = ss[i], wst[i] = ws[i], dst_st[i] = ds[i];
    /* ideep runs the primitive on a plain row-major destination: any other one is reordered in (for the
       sum post-op) and out again around it */
    int64_t plain[3], cnt = 1;
    bool dense = true;
    for (int i = nd - 1; i >= 0; i--) {
        plain[i] = cnt;
        if (ddims[i] != 1 && ds[i] != cnt) dense = false;
        cnt *= ddims[i];
    }
    tsr_tensor *tmp = NULL;
    void *user_dst = dst;
    if (!dense) {
        void *tp;
        if (!(tmp = buffer((size_t)cnt * 2, TSR_CPU, &tp))) return -1;
        for (int64_t k = 0; k < cnt; k++) {
            int64_t off = 0, rem = k;
            for (int i = 0; i < nd; i++) off += (rem / plain[i]) * ds[i], rem %= plain[i];
            ((uint16_t *)tp)[k] = ((const uint16_t *)user_dst)[off];
        }
        dst = tp;
        for (int i = 0; i < nd; i++) dst_st[i] = plain[i];
    }
    dnnl_memory_desc_t smd, wmd, dmd;
    dnnl_matmul_desc_t md;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t po = NULL;
    dnnl_primitive_desc_t ppd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t mw = NULL, ms = NULL, mdst = NULL, msp = NULL;
    tsr_tensor *sp = NULL;
    int rc = -1;
    if (api.dnnl_memory_desc_init_by_strides(&smd, nd, sd, dnnl_bf16, sst) != dnnl_success ||
        api.dnnl_memory_desc_init_by_strides(&wmd, nd, wd, dnnl_bf16, wst) != dnnl_success ||
        api.dnnl_memory_desc_init_by_strides(&dmd, nd, dd, dnnl_bf16, dst_st) != dnnl_success ||
        api.dnnl_matmul_desc_init(&md, &smd, &wmd, NULL, &dmd) != dnnl_success ||
        api.dnnl_primitive_attr_create(&attr) != dnnl_success ||
        api.dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success)
        goto done;
    if (alpha != 1.0f && api.dnnl_primitive_attr_set_output_scales(attr, 1, 0, &alpha) != dnnl_success) goto done;
    if (beta != 0.0f && (api.dnnl_post_ops_create(&po) != dnnl_success ||
                         api.dnnl_post_ops_append_sum(po, beta) != dnnl_success ||
                         api.dnnl_primitive_attr_set_post_ops(attr, po) != dnnl_success))
        goto done;
    if (api.dnnl_primitive_desc_create(&ppd, &md, attr, engine, NULL) != dnnl_success ||
        api.dnnl_primitive_create(&prim, ppd) != dnnl_success)
        goto done;
    const dnnl_memory_desc_t *spd = api.dnnl_primitive_desc_query_md(ppd, dnnl_query_scratchpad_md, 0);
    void *spp = NULL;
    if (!spd || !(sp = buffer(api.dnnl_memory_desc_get_size(spd), TSR_CPU, &spp))) goto done;
    if (api.dnnl_memory_create(&ms, &smd, engine, (void *)src) != dnnl_success ||
        api.dnnl_memory_create(&mw, &wmd, engine, (void *)wei) != dnnl_success ||
        api.dnnl_memory_create(&mdst, &dmd, engine, dst) != dnnl_success ||
        api.dnnl_memory_create(&msp, spd, engine, spp) != dnnl_success)
        goto done;
    dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, mdst},
                               {DNNL_ARG_SCRATCHPAD, msp}};
    if (api.dnnl_primitive_execute(prim, stream, 4, args) == dnnl_success &&
        api.dnnl_stream_wait(stream) == dnnl_success)
        rc = 0;
    for (int64_t k = 0; rc == 0 && tmp && k < cnt; k++) {   /* reordered out */
        int64_t off = 0, rem = k;
        for (int i = 0; i < nd; i++) off += (rem / plain[i]) * ds[i], rem %= plain[i];
        ((uint16_t *)user_dst)[off] = ((const uint16_t *)dst)[k];
    }
done:
    tsr_tensor_release(tmp);
    if (rc < 0) tsr_error_set(TSR_ERR_RUNTIME, "oneDNN refused a bfloat16 matrix product");
    if (prim) api.dnnl_primitive_destroy(prim);
    if (ppd) api.dnnl_primitive_desc_destroy(ppd);
    if (po) api.dnnl_post_ops_destroy(po);
    if (attr) api.dnnl_primitive_attr_destroy(attr);
    if (ms) api.dnnl_memory_destroy(ms);
    if (mw) api.dnnl_memory_destroy(mw);
    if (mdst) api.dnnl_memory_destroy(mdst);
    if (msp) api.dnnl_memory_destroy(msp);
    tsr_tensor_release(sp);
    return rc;
}

/* the 2-d case: dst (M x N) = src (M x K) @ wei (K x N) */
static int bf16_matmul(int64_t M, int64_t K, int64_t N, const void *src, const int64_t *ss, const void *wei,
                       const int64_t *ws, void *dst, const int64_t *ds, float alpha, float beta)
{
    int64_t sd[2] = {M, K}, wd[2] = {K, N}, dd[2] = {M, N};
    return bf16_matmul_nd(2, sd, src, ss, wd, wei, ws, dd, dst, ds, alpha, beta);
}

int tsr__bf16_gemm_dnnl(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const void *a, int64_t lda,
                        const void *b, int64_t ldb, float beta, void *c, int64_t ldc)
{
    if (!tsr__dnnl_bf16_usable() || m * n * k <= 16 * 16 * 16 || alpha == 0.0f) return 1;
    int64_t as[2] = {lda, 1}, bs[2] = {ldb, 1}, cs[2] = {ldc, 1};
    if (ta) as[0] = 1, as[1] = lda;
    if (tb) bs[0] = 1, bs[1] = ldb;
    return bf16_matmul(n, k, m, b, bs, a, as, c, cs, alpha, beta);
}

/* mkldnn_matmul of 1.13 for aten::bmm / baddbmm (3-d), aten::mv (mat 2-d,
 * vec 1-d, result 1-d) and aten::dot (both 1-d, result one element): the
 * 1-d operands unsqueezed to
 * [1, K] / [K, 1] / [M, 1], each used as it is when contiguous or
 * transposed and copied contiguous otherwise. The caller checked
 * use_mkldnn_bf16_matmul. 0 or -1. */
static bool optimized_format(const tsr_tensor *t, const int64_t *sz, const int64_t *st)
{
    (void)t;
    bool contig = (sz[1] == 1 || st[1] == 1) && (sz[0] == 1 || st[0] == (sz[1] == 1 ? 1 : st[1] * sz[1]));
    return contig || (st[0] == 1 && st[1] == sz[0]);
}

/* mkldnn_matmul's is_mkldnn_optimized_format for a 3-d batch: contiguous,
 * or each matrix transposed (strides (rows * cols, 1, rows)) */
static bool optimized_batch(const tsr_tensor *t)
{
    const int64_t *z = t->sizes, *s = t->strides;
    return tsr_tensor_is_contiguous(t) || (s[0] == z[1] * z[2] && s[1] == 1 && s[2] == z[1]);
}

int tsr__bf16_mkldnn_matmul(const tsr_tensor *m1, const tsr_tensor *m2, tsr_tensor *result, float beta, float alpha)
{
    if (alpha == 0) return 0;
    if (m1->ndim == 3) {   /* aten::bmm / baddbmm */
        tsr_tensor *c1 = optimized_batch(m1) ? tsr_tensor_retain((tsr_tensor *)m1) : tsr_contiguous(m1, TSR_MF_CONTIGUOUS);
        tsr_tensor *c2 = !c1 ? NULL
                       : optimized_batch(m2) ? tsr_tensor_retain((tsr_tensor *)m2) : tsr_contiguous(m2, TSR_MF_CONTIGUOUS);
        int rc = c2 && load() == 0
                     ? bf16_matmul_nd(3, c1->sizes, tsr_tensor_ptr(c1, NULL), c1->strides, c2->sizes,
                                      tsr_tensor_ptr(c2, NULL), c2->strides, result->sizes, tsr_tensor_ptr(result, NULL),
                                      result->strides, alpha, beta)
                     : -1;
        tsr_tensor_release(c1);
        tsr_tensor_release(c2);
        return rc;
    }
    int64_t s1[2], t1[2], s2[2], t2[2], rs[2] = {1, 1};
    if (m1->ndim == 1) s1[0] = 1, s1[1] = m1->sizes[0], t1[0] = m1->sizes[0] * m1->strides[0], t1[1] = m1->strides[0];
    else s1[0] = m1->sizes[0], s1[1] = m1->sizes[1], t1[0] = m1->strides[0], t1[1] = m1->strides[1];
    s2[0] = m2->sizes[0], s2[1] = 1, t2[0] = m2->strides[0], t2[1] = 1;
    if (result->ndim == 1) rs[0] = result->strides[0];
    tsr_tensor *c1 = NULL, *c2 = NULL;
    const void *p1 = tsr_tensor_ptr(m1, NULL), *p2 = tsr_tensor_ptr(m2, NULL);
    int rc = -1;
    if (!optimized_format(m1, s1, t1)) {
        if (!(c1 = tsr_contiguous(m1, TSR_MF_CONTIGUOUS))) goto done;
        p1 = tsr_tensor_ptr(c1, NULL), t1[0] = s1[1], t1[1] = 1;
    }
    if (!optimized_format(m2, s2, t2)) {
        if (!(c2 = tsr_contiguous(m2, TSR_MF_CONTIGUOUS))) goto done;
        p2 = tsr_tensor_ptr(c2, NULL), t2[0] = 1;
    }
    if (load() < 0) goto done;
    rc = bf16_matmul(s1[0], s1[1], 1, p1, t1, p2, t2, tsr_tensor_ptr(result, NULL), rs, alpha, beta);
done:
    tsr_tensor_release(c1);
    tsr_tensor_release(c2);
    return rc;
}
