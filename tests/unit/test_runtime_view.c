/* tests/unit/test_runtime_view.c — every view op: resulting sizes, strides
 * and offsets (values from torch 1.13), storage sharing (write through a view,
 * read the base), and PyTorch's exact error messages (SEMANTICS.md §4.5). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})
#define CNT(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

/* arange(n) as float32 with the given shape */
static tsr_tensor *ar(int nd, const int64_t *sizes)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= sizes[i];
    tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *v = tsr_view_view(a, nd, sizes);
    tsr_tensor_release(a);
    return v;
}

static int geom(const tsr_tensor *t, int nd, const int64_t *sizes, const int64_t *strides, int64_t off)
{
    if (!t) { printf("    NULL: %s\n", tsr_error_message()); tsr_error_clear(); return 0; }
    int ok = t->ndim == nd && t->storage_offset == off;
    for (int i = 0; ok && i < nd; i++) ok = t->sizes[i] == sizes[i] && t->strides[i] == strides[i];
    if (!ok) {
        printf("    got ndim %d off %lld sizes", t->ndim, (long long)t->storage_offset);
        for (int i = 0; i < t->ndim; i++) printf(" %lld/%lld", (long long)t->sizes[i], (long long)t->strides[i]);
        printf("\n");
    }
    return ok;
}
#define GEOM(t, sizes, strides, off) CHECK(geom((t), CNT sizes, L sizes, L strides, (off)))
#define GEOM0(t, off) CHECK(geom((t), 0, NULL, NULL, (off)))

/* Checks that a call fails with kind and message, and clears the error. */
#define FAILS(expr, kind, msg) do { tsr_error_clear(); tsr_tensor *r_ = (expr); CHECK(r_ == NULL); \
    tsr_tensor_release(r_); CHECK_EQ_INT(tsr_error_kind(), kind); CHECK_STR(tsr_error_message(), msg); \
    tsr_error_clear(); } while (0)

#define KEEP(var, expr) tsr_tensor *var = (expr)

TEST(view_narrow_select_slice)
{
    tsr_tensor *x = ar(2, L(3, 4));
    KEEP(a, tsr_view_narrow(x, 1, 1, 2)); GEOM(a, (3, 2), (4, 1), 1);
    KEEP(b, tsr_view_narrow(x, 1, -3, 2)); GEOM(b, (3, 2), (4, 1), 1);
    KEEP(c, tsr_view_narrow(x, 1, 4, 0)); GEOM(c, (3, 0), (4, 1), 4);
    KEEP(d, tsr_view_select(x, 1, -1)); GEOM(d, (3), (4), 3);
    KEEP(e, tsr_view_select(x, 0, 2)); GEOM(e, (4), (1), 8);
    KEEP(f, tsr_view_slice(x, 1, 1, TSR_SLICE_END, 2)); GEOM(f, (3, 2), (4, 2), 1);
    KEEP(g, tsr_view_slice(x, 0, -100, 100, 1)); GEOM(g, (3, 4), (4, 1), 0);
    KEEP(h, tsr_view_slice(x, 0, 2, 1, 1)); GEOM(h, (0, 4), (4, 1), 8);
    KEEP(i, tsr_view_slice(x, -1, -3, -1, 1)); GEOM(i, (3, 2), (4, 1), 1);
    FAILS(tsr_view_narrow(x, 1, 3, 2), TSR_ERR_RUNTIME, "start (3) + length (2) exceeds dimension size (4).");
    FAILS(tsr_view_narrow(x, 1, 1, -1), TSR_ERR_RUNTIME, "start (1) + length (-1) exceeds dimension size (4).");
    FAILS(tsr_view_narrow(x, 1, -5, 2), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-4, 3], but got -5)");
    FAILS(tsr_view_narrow(x, 2, 0, 1), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    FAILS(tsr_view_select(x, 1, -5), TSR_ERR_INDEX, "select(): index -5 out of range for tensor of size [3, 4] at dimension 1");
    FAILS(tsr_view_select(x, 1, 4), TSR_ERR_INDEX, "select(): index 4 out of range for tensor of size [3, 4] at dimension 1");
    FAILS(tsr_view_slice(x, 1, 0, 4, 0), TSR_ERR_VALUE, "step must be greater than zero");
    FAILS(tsr_view_slice(x, 1, 0, 4, -1), TSR_ERR_VALUE, "step must be greater than zero");
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    FAILS(tsr_view_narrow(s, 0, 0, 1), TSR_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
    FAILS(tsr_view_select(s, 0, 0), TSR_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
    tsr_tensor *all[] = {x, a, b, c, d, e, f, g, h, i, s};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tsr_tensor_release(all[k]);
}

TEST(view_transpose_t_permute_movedim)
{
    tsr_tensor *x = ar(3, L(2, 3, 4));
    KEEP(a, tsr_view_transpose(x, 0, 2)); GEOM(a, (4, 3, 2), (1, 4, 12), 0);
    KEEP(b, tsr_view_permute(x, 3, L(1, 2, 0))); GEOM(b, (3, 4, 2), (4, 1, 12), 0);
    KEEP(c, tsr_view_permute(x, 3, L(-1, 0, 1))); GEOM(c, (4, 2, 3), (1, 12, 4), 0);
    KEEP(d, tsr_view_movedim(x, 1, L(0), 1, L(2))); GEOM(d, (3, 4, 2), (4, 1, 12), 0);
    KEEP(e, tsr_view_movedim(x, 2, L(0, 1), 2, L(1, 0))); GEOM(e, (3, 2, 4), (4, 12, 1), 0);
    FAILS(tsr_view_t(x), TSR_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is 3D");
    FAILS(tsr_view_permute(x, 2, L(0, 1)), TSR_ERR_RUNTIME,
          "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
          "ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2");
    FAILS(tsr_view_permute(x, 3, L(0, 0, 1)), TSR_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
    FAILS(tsr_view_transpose(x, 0, 3), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    FAILS(tsr_view_movedim(x, 2, L(0, 0), 2, L(1, 0)), TSR_ERR_RUNTIME, "movedim: repeated dim in `source` ([0, 0])");
    FAILS(tsr_view_movedim(x, 2, L(0, 1), 2, L(1, 1)), TSR_ERR_RUNTIME, "movedim: repeated dim in `destination` ([1, 1])");
    FAILS(tsr_view_movedim(x, 1, L(0), 2, L(1, 0)), TSR_ERR_RUNTIME,
          "movedim: Invalid source or destination dims: source ([0] dims) should contain the same number of dims as destination ([1, 0] dims)");
    tsr_tensor *m = ar(2, L(2, 3));
    KEEP(f, tsr_view_t(m)); GEOM(f, (3, 2), (1, 3), 0);
    tsr_tensor *v = ar(1, L(5));
    KEEP(g, tsr_view_t(v)); GEOM(g, (5), (1), 0);
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    KEEP(h, tsr_view_t(s)); GEOM0(h, 0);
    KEEP(i, tsr_view_transpose(s, 0, -1)); GEOM0(i, 0);
    tsr_tensor *all[] = {x, a, b, c, d, e, m, f, v, g, s, h, i};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tsr_tensor_release(all[k]);
}

TEST(view_view_and_reshape)
{
    tsr_tensor *x = ar(3, L(2, 3, 4));
    tsr_tensor *tr = tsr_view_transpose(x, 0, 1);
    KEEP(a, tsr_view_view(tr, 4, L(3, 2, 2, 2))); GEOM(a, (3, 2, 2, 2), (4, 12, 2, 1), 0);
    tsr_tensor *sl = tsr_view_slice(x, 2, 0, 2, 1);
    KEEP(b, tsr_view_view(sl, 2, L(6, 2))); GEOM(b, (6, 2), (4, 1), 0);
    tsr_tensor *e44 = tsr_tensor_empty(2, L(4, 4), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *e44s = tsr_view_slice(e44, 0, 0, TSR_SLICE_END, 2);
    KEEP(c, tsr_view_view(e44s, 3, L(2, 2, 2))); GEOM(c, (2, 2, 2), (8, 2, 1), 0);
    FAILS(tsr_view_view(e44s, 1, L(8)), TSR_ERR_RUNTIME,
          "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
          "contiguous subspaces). Use .reshape(...) instead.");
    tsr_tensor *one = tsr_tensor_empty(2, L(1, 4), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *ex = tsr_view_expand(one, 2, L(3, 4));
    KEEP(d, tsr_view_view(ex, 3, L(3, 2, 2))); GEOM(d, (3, 2, 2), (0, 2, 1), 0);
    KEEP(e, tsr_view_view(x, 2, L(-1, 4))); GEOM(e, (6, 4), (4, 1), 0);
    FAILS(tsr_view_view(x, 2, L(-1, -1)), TSR_ERR_RUNTIME, "only one dimension can be inferred");
    FAILS(tsr_view_view(x, 1, L(5)), TSR_ERR_RUNTIME, "shape '[5]' is invalid for input of size 24");
    FAILS(tsr_view_view(x, 2, L(-1, 5)), TSR_ERR_RUNTIME, "shape '[-1, 5]' is invalid for input of size 24");
    tsr_tensor *z = tsr_tensor_empty(2, L(3, 0), TSR_FLOAT32, TSR_CPU);
    FAILS(tsr_view_view(z, 2, L(-1, 0)), TSR_ERR_RUNTIME,
          "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous");
    tsr_tensor *z2 = tsr_tensor_empty(2, L(0, 3), TSR_FLOAT32, TSR_CPU);
    KEEP(f, tsr_view_view(z2, 3, L(3, 0, 5))); GEOM(f, (3, 0, 5), (5, 5, 1), 0);
    tsr_tensor *cl = tsr_tensor_empty_format(4, L(2, 3, 4, 5), TSR_FLOAT32, TSR_CPU, TSR_MF_CHANNELS_LAST);
    KEEP(g, tsr_view_view(cl, 3, L(2, 3, 20))); GEOM(g, (2, 3, 20), (60, 1, 3), 0);
    /* reshape: a view when possible, else a contiguous copy with the same values */
    KEEP(h, tsr_reshape(x, 2, L(4, 6))); CHECK(h && h->storage == x->storage);
    tsr_tensor *m = ar(2, L(3, 4));
    tsr_tensor *mt = tsr_view_t(m);
    KEEP(i, tsr_reshape(mt, 1, L(12))); GEOM(i, (12), (1), 0);
    CHECK(i && i->storage != m->storage);
    if (i) CHECK(tsr_tensor_get_double_at(i, 1) == 4.0 && tsr_tensor_get_double_at(i, 3) == 1.0);
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    KEEP(j, tsr_view_view(s, 2, L(1, 1))); GEOM(j, (1, 1), (1, 1), 0);
    tsr_tensor *all[] = {x, tr, a, sl, b, e44, e44s, c, one, ex, d, e, z, z2, f, cl, g, h, m, mt, i, s, j};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tsr_tensor_release(all[k]);
}

TEST(view_expand)
{
    tsr_tensor *x = ar(2, L(2, 3));
    KEEP(a, tsr_view_expand(x, 3, L(1, 2, 3))); GEOM(a, (1, 2, 3), (6, 3, 1), 0);
    KEEP(b, tsr_view_expand(x, 3, L(0, 2, 3))); GEOM(b, (0, 2, 3), (0, 3, 1), 0);
    KEEP(c, tsr_view_expand(x, 3, L(4, -1, 3))); GEOM(c, (4, 2, 3), (0, 3, 1), 0);
    tsr_tensor *col = ar(2, L(3, 1));
    KEEP(d, tsr_view_expand(col, 2, L(3, 4))); GEOM(d, (3, 4), (1, 0), 0);
    KEEP(e, tsr_view_expand_as(col, x)); CHECK(e == NULL); tsr_error_clear();
    FAILS(tsr_view_expand(x, 1, L(3)), TSR_ERR_RUNTIME,
          "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to "
          "the number of dimensions in the tensor (2)");
    FAILS(tsr_view_expand(x, 2, L(2, 4)), TSR_ERR_RUNTIME,
          "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
          "Target sizes: [2, 4].  Tensor sizes: [2, 3]");
    FAILS(tsr_view_expand(x, 3, L(-1, -1, 3)), TSR_ERR_RUNTIME,
          "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
    tsr_tensor *all[] = {x, a, b, c, col, d};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tsr_tensor_release(all[k]);
}

TEST(view_squeeze_unsqueeze_flatten_unflatten)
{
    tsr_tensor *x = ar(2, L(2, 3));
    KEEP(a, tsr_view_unsqueeze(x, 0)); GEOM(a, (1, 2, 3), (6, 3, 1), 0);
    KEEP(b, tsr_view_unsqueeze(x, 1)); GEOM(b, (2, 1, 3), (3, 3, 1), 0);
    KEEP(c, tsr_view_unsqueeze(x, 2)); GEOM(c, (2, 3, 1), (3, 1, 1), 0);
    KEEP(d, tsr_view_unsqueeze(x, -1)); GEOM(d, (2, 3, 1), (3, 1, 1), 0);
    FAILS(tsr_view_unsqueeze(x, 3), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
    KEEP(e, tsr_view_squeeze(b)); GEOM(e, (2, 3), (3, 1), 0);
    KEEP(f, tsr_view_squeeze_dim(b, 1)); GEOM(f, (2, 3), (3, 1), 0);
    KEEP(g, tsr_view_squeeze_dim(b, 0)); GEOM(g, (2, 1, 3), (3, 3, 1), 0);
    FAILS(tsr_view_squeeze_dim(x, 5), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    KEEP(h, tsr_view_unsqueeze(s, 0)); GEOM(h, (1), (1), 0);
    KEEP(i, tsr_view_squeeze_dim(s, 0)); GEOM0(i, 0);
    FAILS(tsr_view_squeeze_dim(s, 1), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    KEEP(j, tsr_view_flatten(s, 0, -1)); GEOM(j, (1), (1), 0);
    tsr_tensor *y = ar(3, L(2, 3, 4));
    KEEP(k, tsr_view_flatten(y, 1, 2)); GEOM(k, (2, 12), (12, 1), 0);
    FAILS(tsr_view_flatten(y, 1, 0), TSR_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
    KEEP(l, tsr_view_unflatten(y, -1, 2, L(2, 2))); GEOM(l, (2, 3, 2, 2), (12, 4, 2, 1), 0);
    KEEP(m, tsr_view_unflatten(x, 1, 2, L(3, -1))); GEOM(m, (2, 3, 1), (3, 1, 1), 0);
    FAILS(tsr_view_unflatten(x, 1, 2, L(2, -1)), TSR_ERR_RUNTIME,
          "unflatten: Provided sizes [2, -1] don't multiply up to the size of dim 1 (3) in the input tensor");
    FAILS(tsr_view_unflatten(x, 1, 0, NULL), TSR_ERR_RUNTIME, "unflatten: sizes must be non-empty");
    tsr_tensor *all[] = {x, a, b, c, d, e, f, g, s, h, i, j, y, k, l, m};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(view_as_strided_unfold_diagonal)
{
    tsr_tensor *x = ar(2, L(3, 4));
    KEEP(a, tsr_view_as_strided(x, 2, L(2, 2), L(1, 1), TSR_VIEW_KEEP_OFFSET)); GEOM(a, (2, 2), (1, 1), 0);
    KEEP(b, tsr_view_as_strided(x, 2, L(2, 2), L(0, 3), 5)); GEOM(b, (2, 2), (0, 3), 5);
    FAILS(tsr_view_as_strided(x, 2, L(3, 3), L(1, -1), TSR_VIEW_KEEP_OFFSET), TSR_ERR_RUNTIME,
          "as_strided: Negative strides are not supported at the moment, got strides: [1, -1]");
    FAILS(tsr_view_as_strided(x, 2, L(3, 3), L(1, 2), -2), TSR_ERR_RUNTIME, "Tensor: invalid storage offset -2");
    FAILS(tsr_view_as_strided(x, 2, L(3, 3), L(1, 2), -1), TSR_ERR_RUNTIME, "Tensor: invalid storage offset -1");
    FAILS(tsr_view_as_strided(x, 2, L(3, 3), L(1, 2), 20), TSR_ERR_RUNTIME,
          "setStorage: sizes [3, 3], strides [1, 2], storage offset 20, and itemsize 4 requiring a storage size of 108 "
          "are out of bounds for storage of size 48");
    KEEP(c, tsr_view_unfold(x, 1, 2, 1)); GEOM(c, (3, 3, 2), (4, 1, 1), 0);
    KEEP(d, tsr_view_unfold(x, 0, 2, 2)); GEOM(d, (1, 4, 2), (8, 1, 4), 0);
    FAILS(tsr_view_unfold(x, 1, 5, 1), TSR_ERR_RUNTIME, "maximum size for tensor at dimension 1 is 4 but size is 5");
    FAILS(tsr_view_unfold(x, 1, 2, 0), TSR_ERR_RUNTIME, "step is 0 but must be > 0");
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    KEEP(e, tsr_view_unfold(s, 0, 1, 1)); GEOM(e, (1), (1), 0);
    KEEP(f, tsr_view_diagonal(x, 0, 0, 1)); GEOM(f, (3), (5), 0);
    KEEP(g, tsr_view_diagonal(x, -1, 0, 1)); GEOM(g, (2), (5), 4);
    KEEP(h, tsr_view_diagonal(x, 1, 0, 1)); GEOM(h, (3), (5), 1);
    KEEP(i, tsr_view_diagonal(x, 5, 0, 1)); GEOM(i, (0), (5), 0);
    tsr_tensor *y = ar(3, L(2, 3, 4));
    KEEP(j, tsr_view_diagonal(y, 1, 2, 0)); GEOM(j, (3, 1), (4, 13), 12);
    KEEP(jj, tsr_view_diagonal(y, -1, 2, 0)); GEOM(jj, (3, 2), (4, 13), 1);
    FAILS(tsr_view_diagonal(x, 0, 0, 0), TSR_ERR_RUNTIME, "diagonal dimensions cannot be identical 0, 0");
    FAILS(tsr_view_diagonal(s, 0, 0, 1), TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    tsr_tensor *all[] = {x, a, b, c, d, s, e, f, g, h, i, y, j, jj};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(view_real_imag_dtype)
{
    tsr_tensor *z = tsr_ones(2, L(2, 2), TSR_COMPLEX64, TSR_CPU);
    KEEP(re, tsr_view_real(z)); GEOM(re, (2, 2), (4, 2), 0);
    KEEP(im, tsr_view_imag(z)); GEOM(im, (2, 2), (4, 2), 1);
    CHECK(re && re->dtype == TSR_FLOAT32);
    if (im) tsr_tensor_set(im, L(1, 0), tsr_scalar_float(7.0));
    double r, i;
    tsr_tensor_get_complex(z, L(1, 0), &r, &i);
    CHECK(r == 1.0 && i == 7.0);
    tsr_tensor *x = ar(2, L(3, 4));
    FAILS(tsr_view_imag(x), TSR_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
    KEEP(a, tsr_view_dtype(x, TSR_FLOAT64)); GEOM(a, (3, 2), (2, 1), 0);
    KEEP(b, tsr_view_dtype(x, TSR_INT16)); GEOM(b, (3, 8), (8, 1), 0);
    KEEP(c, tsr_view_dtype(x, TSR_INT32)); GEOM(c, (3, 4), (4, 1), 0);
    KEEP(d, tsr_view_dtype(z, TSR_FLOAT32)); GEOM(d, (2, 4), (4, 1), 0);
    tsr_tensor *xt = tsr_view_t(x);
    FAILS(tsr_view_dtype(xt, TSR_INT16), TSR_ERR_RUNTIME,
          "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 4");
    tsr_tensor *x33 = ar(2, L(3, 3));
    FAILS(tsr_view_dtype(x33, TSR_FLOAT64), TSR_ERR_RUNTIME,
          "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3");
    tsr_tensor *x24 = ar(2, L(2, 4));
    tsr_tensor *sl = tsr_view_slice(x24, 1, 1, 3, 1);
    FAILS(tsr_view_dtype(sl, TSR_FLOAT64), TSR_ERR_RUNTIME,
          "self.storage_offset() must be divisible by 2 to view Float as Double (different element sizes), but got 1");
    tsr_tensor *sl2 = tsr_view_slice(x24, 1, 2, 4, 1);
    KEEP(e, tsr_view_dtype(sl2, TSR_FLOAT64)); GEOM(e, (2, 1), (2, 1), 1);
    KEEP(f, tsr_view_dtype(sl2, TSR_INT8)); GEOM(f, (2, 8), (16, 1), 8);
    tsr_tensor *s = tsr_tensor_empty(0, NULL, TSR_FLOAT32, TSR_CPU);
    FAILS(tsr_view_dtype(s, TSR_FLOAT64), TSR_ERR_RUNTIME,
          "self.dim() cannot be 0 to view Float as Double (different element sizes)");
    /* reinterpreting bits: 1.0f is 0x3f800000 */
    tsr_tensor *one = tsr_ones(1, L(1), TSR_FLOAT32, TSR_CPU);
    KEEP(bits, tsr_view_dtype(one, TSR_INT32));
    CHECK_EQ_INT(tsr_tensor_get_int64_at(bits, 0), 0x3f800000);
    tsr_tensor *all[] = {z, re, im, x, a, b, c, d, xt, x33, x24, sl, sl2, e, f, s, one, bits};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

/* Views share storage: writes through any view are visible in the base. */
TEST(view_shares_storage)
{
    tsr_tensor *x = tsr_zeros(2, L(3, 4), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *n = tsr_view_narrow(x, 0, 1, 2);
    CHECK_EQ_INT(tsr_fill_(n, tsr_scalar_int(1)), 0);
    tsr_tensor *col = tsr_view_select(x, 1, 3);
    tsr_tensor_set_at(col, 0, tsr_scalar_float(9));
    tsr_tensor *d = tsr_view_diagonal(x, 0, 0, 1);
    tsr_tensor_set_at(d, 2, tsr_scalar_float(5));
    tsr_tensor *t = tsr_view_t(x);
    tsr_tensor *u = tsr_view_unfold(t, 0, 2, 2);     /* (2, 3, 2) */
    tsr_tensor_set(u, L(1, 0, 1), tsr_scalar_float(-3));   /* t[3][0] = x[0][3] */
    static const double want[12] = {0, 0, 0, -3, 1, 1, 1, 1, 1, 1, 5, 1};
    for (int i = 0; i < 12; i++) CHECK(tsr_tensor_get_double_at(x, i) == want[i]);
    CHECK_EQ_INT(x->storage->refcount, 6);
    tsr_tensor *all[] = {n, col, d, t, u};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
    CHECK_EQ_INT(x->storage->refcount, 1);
    tsr_tensor_release(x);
}

/* The rules the Tensor methods used to decide in src/: name lookup of a
 * dimension, narrow with a tensor start, mT/H, size/stride queries and
 * as_strided's length check (messages from torch 1.13). */
TEST(view_method_rules)
{
    tsr_tensor *x = ar(2, L(2, 3)), *v = ar(1, L(3)), *z = ar(0, NULL);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_dim_of_name(x, "a"), -1);
    CHECK_STR(tsr_error_message(), "Name 'a' not found in Tensor[None, None].");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_dim_of_name(x, NULL), -1);
    CHECK_STR(tsr_error_message(), "Please look up dimensions by name, got: name = None.");
    tsr_error_clear();
    tsr_tensor *s0 = tsr_full(0, NULL, tsr_scalar_int(1), TSR_INT64, TSR_CPU);
    tsr_tensor *sf = tsr_full(0, NULL, tsr_scalar_float(1), TSR_FLOAT32, TSR_CPU);
    KEEP(n, tsr_view_narrow_tensor(x, 1, s0, 2)); GEOM(n, (2, 2), (3, 1), 1);
    FAILS(tsr_view_narrow_tensor(x, 1, sf, 2), TSR_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
    FAILS(tsr_view_narrow_tensor(x, 1, v, 2), TSR_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
    KEEP(m, tsr_view_mT(x)); GEOM(m, (3, 2), (1, 3), 0);
    FAILS(tsr_view_mT(v), TSR_ERR_RUNTIME, "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
    KEEP(h, tsr_view_H(x)); GEOM(h, (3, 2), (1, 3), 0);
    FAILS(tsr_view_H(v), TSR_ERR_RUNTIME, "tensor.H is only supported on matrices (2-D tensors). Got 1-D tensor.");
    KEEP(a, tsr_view_as_strided_checked(x, 1, L(2), 1, L(2), 1)); GEOM(a, (2), (2), 1);
    FAILS(tsr_view_as_strided_checked(x, 2, L(1, 2), 1, L(1), 0), TSR_ERR_RUNTIME, "mismatch in length of strides and shape");
    int64_t r = 0;
    CHECK_EQ_INT(tsr_tensor_dim_query(x, -1, false, &r), 0);
    CHECK_EQ_INT(r, 3);
    CHECK_EQ_INT(tsr_tensor_dim_query(x, 0, true, &r), 0);
    CHECK_EQ_INT(r, 3);
    CHECK_EQ_INT(tsr_tensor_dim_query(z, 0, false, &r), -1);
    CHECK_STR(tsr_error_message(), "Dimension specified as 0 but tensor has no dimensions");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_dim_query(x, 2, false, &r), -1);
    CHECK_STR(tsr_error_message(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    tsr_error_clear();
    tsr_tensor *all[] = {x, v, z, s0, sf, n, m, h, a};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}
