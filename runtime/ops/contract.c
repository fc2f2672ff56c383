/* runtime/ops/contract.c — tensordot and einsum as 1.13 computes them
 * (aten/src/ATen/native/Linear.cpp): tensordot permutes both operands so
 * the contracted dims meet, then one mm; einsum parses the equation, aligns
 * every operand to "output dims + contracted dims" (diagonals for repeated
 * labels, unsqueezed dims for missing ones), then contracts the operands
 * pairwise, left to right or in the order of a given path, each pair by
 * sumproduct_pair's permute + bmm. Following the same sequence of sums, muls
 * and bmms is what makes the float results bit-identical with 1.13's. */
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "binary.h"
#include "blas.h"
#include "reduce.h"
#include "shape.h"
#include "../error.h"
#include "../internal.h"
#include "../op.h"
#include "../view.h"
#include "../autograd_formula.h"

static tsr_tensor *sum_keep(const tsr_tensor *t, int n, const int64_t *dims)
{
    tsr_dims d = {.n = n};
    memcpy(d.d, dims, sizeof(int64_t) * (size_t)n);
    return tsr__ag_sum(t, &d, true);
}

/* at::dim_list_to_bitset: a bitmask of the wrapped dims, or -1 with "dim 1
 * appears multiple times in the list of dims" (the dim wrapped). */
static int dims_bitset(int n, const int64_t *dims, int ndim, uint64_t *mask)
{
    *mask = 0;
    for (int i = 0; i < n; i++) {
        int d = tsr_wrap_dim(dims[i], ndim);
        if (d < 0) return -1;
        if (*mask >> d & 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
            return -1;
        }
        *mask |= (uint64_t)1 << d;
    }
    return 0;
}

tsr_tensor *tsr_tensordot(const tsr_tensor *a, const tsr_tensor *b, int n1, const int64_t *dims1, int n2,
                          const int64_t *dims2)
{
    if (n1 != n2) {
        tsr_error_set(TSR_ERR_RUNTIME, "both dimension lists should have same length");
        return NULL;
    }
    tsr_tensor *t1 = tsr_tensor_retain((tsr_tensor *)a), *t2 = tsr_tensor_retain((tsr_tensor *)b), *r = NULL;
    int64_t csize = 1;
    for (int i = 0; i < n1; i++) {
        int d1 = tsr_wrap_dim(dims1[i], a->ndim), d2 = d1 < 0 ? -1 : tsr_wrap_dim(dims2[i], b->ndim);
        if (d2 < 0) goto done;
        int64_t s1 = a->sizes[d1], s2 = b->sizes[d2];
        if (s2 == 1) {
            if (!tsr__take(&t1, sum_keep(t1, 1, &dims1[i]))) goto done;
        } else if (s1 == 1) {
            if (!tsr__take(&t2, sum_keep(t2, 1, &dims2[i]))) goto done;
        } else if (s1 != s2) {
            tsr_error_set(TSR_ERR_RUNTIME, "contracted dimensions need to match, but first has size %lld in dim %lld "
                          "and second has size %lld in dim %lld", (long long)s1, (long long)dims1[i],
                          (long long)s2, (long long)dims2[i]);
            goto done;
        } else {
            csize *= s1;
        }
    }
    /* mixed dtypes: 1.13 has no check of its own here (2.0 added "both
     * inputs should have same dtype"); mm raises "expected scalar type". */
    uint64_t c1, c2;
    if (dims_bitset(n1, dims1, a->ndim, &c1) < 0 || dims_bitset(n2, dims2, b->ndim, &c2) < 0) goto done;
    int64_t p1[TSR_MAX_DIMS], p2[TSR_MAX_DIMS], rs[2 * TSR_MAX_DIMS], size1 = 1, size2 = 1;
    int np1 = 0, np2 = 0, nr = 0;
    for (int i = 0; i < a->ndim; i++)
        if (!(c1 >> i & 1)) p1[np1++] = i, size1 *= t1->sizes[i], rs[nr++] = t1->sizes[i];
    for (int i = 0; i < n1; i++) p1[np1++] = dims1[i];
    for (int i = 0; i < n2; i++) p2[np2++] = dims2[i];
    for (int i = 0; i < b->ndim; i++)
        if (!(c2 >> i & 1)) p2[np2++] = i, size2 *= t2->sizes[i], rs[nr++] = t2->sizes[i];
    if (nr > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensordot: the result would have %d dimensions (at most %d)", nr,
                      TSR_MAX_DIMS);
        goto done;
    }
    int64_t s1[2] = {size1, csize}, s2[2] = {csize, size2};
    if (!tsr__take(&t1, tsr_view_permute(t1, np1, p1)) || !tsr__take(&t1, tsr_reshape(t1, 2, s1))) goto done;
    if (!tsr__take(&t2, tsr_view_permute(t2, np2, p2)) || !tsr__take(&t2, tsr_reshape(t2, 2, s2))) goto done;
    r = tsr_mm(t1, t2, NULL);
    if (r) tsr__take(&r, tsr_reshape(r, nr, rs));
done:
    tsr_tensor_release(t1);
    tsr_tensor_release(t2);
    return r;
}

tsr_tensor *tsr_tensordot_out(const tsr_tensor *a, const tsr_tensor *b, int n1, const int64_t *dims1, int n2,
                              const int64_t *dims2, tsr_tensor *out)
{
    tsr_tensor *r = tsr_tensordot(a, b, n1, dims1, n2, dims2);
    if (!r || !out) return r;
    if (out->dtype != r->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensordot: Expected the output tensor to have dtype %s, but got an output "
                      "tensor with dtype %s", tsr_dtype_scalar_name(r->dtype), tsr_dtype_scalar_name(out->dtype));
        tsr_tensor_release(r);
        return NULL;
    }
    return tsr_out_assign(r, out, false);
}

/* ------------------------------------------------------------ einsum */

/* (left * right).sum(sum_dims) with keepdim, by permute + bmm, as 1.13's
 * sumproduct_pair; both have the same number of dims (broadcastable). */
static tsr_tensor *sumproduct_pair(const tsr_tensor *left_, const tsr_tensor *right_, int nsum,
                                   const int64_t *sum_dims_)
{
    if (nsum == 0) return tsr__ag_binary(TSR_BINOP_MUL, left_, right_);
    int dim = left_->ndim;
    uint64_t sum_dims;
    if (dims_bitset(nsum, sum_dims_, dim, &sum_dims) < 0) return NULL;
    int64_t lro[TSR_MAX_DIMS], lo[TSR_MAX_DIMS], ro[TSR_MAX_DIMS];
    int nlro = 0, nlo = 0, nro = 0;
    int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
    tsr_tensor *left = tsr_tensor_retain((tsr_tensor *)left_), *right = tsr_tensor_retain((tsr_tensor *)right_);
    tsr_tensor *result = NULL;
    for (int i = 0; i < dim; i++) {
        bool sl = left->sizes[i] != 1, sr = right->sizes[i] != 1;
        int64_t di = i;
        if (sum_dims >> i & 1) {
            if (sl && sr) {
                if (left->sizes[i] != right->sizes[i]) goto mismatch;
                sum_size *= left->sizes[i];
            } else if (sl) {
                if (!tsr__take(&left, sum_keep(left, 1, &di))) goto done;
            } else if (sr) {
                if (!tsr__take(&right, sum_keep(right, 1, &di))) goto done;
            }
        } else if (sl && sr) {
            if (left->sizes[i] != right->sizes[i]) goto mismatch;
            lro[nlro++] = i;
            lro_size *= left->sizes[i];
        } else if (sl) {
            lo[nlo++] = i;
            lo_size *= left->sizes[i];
        } else {
            ro[nro++] = i;
            ro_size *= right->sizes[i];
        }
    }
    int on = 0;
    int64_t out_size[TSR_MAX_DIMS], lperm[TSR_MAX_DIMS], rperm[TSR_MAX_DIMS], operm[TSR_MAX_DIMS];
    int nl = 0, nr = 0;
    for (int k = 0; k < nlro; k++) out_size[on++] = left->sizes[lro[k]], lperm[nl++] = lro[k], rperm[nr++] = lro[k];
    for (int k = 0; k < nlo; k++) out_size[on++] = left->sizes[lo[k]], lperm[nl++] = lo[k];
    for (int k = 0; k < nsum; k++) out_size[on++] = 1, lperm[nl++] = sum_dims_[k], rperm[nr++] = sum_dims_[k];
    for (int k = 0; k < nro; k++) out_size[on++] = right->sizes[ro[k]], lperm[nl++] = ro[k];
    for (int k = 0; k < nro; k++) rperm[nr++] = ro[k];
    for (int k = 0; k < nlo; k++) rperm[nr++] = lo[k];
    {
        int i = 0;
        for (int k = 0; k < nlro; k++) operm[lro[k]] = i++;
        for (int k = 0; k < nlo; k++) operm[lo[k]] = i++;
        for (int k = 0; k < nsum; k++) operm[tsr_wrap_dim(sum_dims_[k], dim)] = i++;
        for (int k = 0; k < nro; k++) operm[ro[k]] = i++;
    }
    int64_t ls[3] = {lro_size, lo_size, sum_size}, rs[3] = {lro_size, sum_size, ro_size};
    if (!tsr__take(&left, tsr__ag_permute(left, nl, lperm)) || !tsr__take(&left, tsr__ag_reshape(left, 3, ls))) goto done;
    if (!tsr__take(&right, tsr__ag_permute(right, nr, rperm)) || !tsr__take(&right, tsr__ag_reshape(right, 3, rs))) goto done;
    result = tsr__ag_bmm(left, right);
    if (result && tsr__take(&result, tsr__ag_view(result, on, out_size))) tsr__take(&result, tsr__ag_permute(result, on, operm));
    goto done;
mismatch:
    tsr_error_set(TSR_ERR_RUNTIME, "non-broadcast dimensions must match");
done:
    tsr_tensor_release(left);
    tsr_tensor_release(right);
    return result;
}

enum { NUM_LETTERS = 26, TOTAL_LABELS = 52, ELLIPSIS = 52 };

static int label_to_subscript(unsigned char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + NUM_LETTERS; }
static char subscript_to_label(int s) { return (char)(s < NUM_LETTERS ? s + 'A' : s + 'a' - NUM_LETTERS); }
static bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

#define EIN_MAX_LABELS 64   /* labels (and one ellipsis) per operand: more than TSR_MAX_DIMS is refused anyway */

static tsr_tensor *einsum_impl(const char *equation, int num_ops, const tsr_tensor *const *operands, int npath,
                               const int64_t *path);

/* With operands that need a graph, einsum's steps are recorded as 1.13's
 * composite records them (PermuteBackward0, BmmBackward0, ViewBackward0, ...):
 * the recording ops of autograd_formula.h, switched on for the call. */
tsr_tensor *tsr_einsum(const char *equation, int num_ops, const tsr_tensor *const *operands, int npath,
                       const int64_t *path)
{
    if (num_ops <= 0 || !tsr_ag_needed(num_ops, (tsr_tensor *const *)operands))
        return einsum_impl(equation, num_ops, operands, npath, path);
    bool was = tsr__ag_set_creating(true);
    tsr_tensor *r = einsum_impl(equation, num_ops, operands, npath, path);
    tsr__ag_set_creating(was);
    return r;
}

static tsr_tensor *einsum_impl(const char *equation, int num_ops, const tsr_tensor *const *operands, int npath,
                               const int64_t *path)
{
    if (num_ops <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "einsum(): must provide at least one operand");
        return NULL;
    }
    if (path) {
        int want = num_ops == 1 ? 1 : (num_ops - 1) * 2;
        if (npath != want) {
            tsr_error_set(TSR_ERR_RUNTIME, "einsum(): expected contraction path given in path parameter to have "
                          "size %d but got %d", want, npath);
            return NULL;
        }
    }
    const char *arrow = strstr(equation, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - equation) : strlen(equation);
    tsr_tensor **ops = tsr_calloc((size_t)num_ops, sizeof *ops);
    unsigned char (*op_labels)[EIN_MAX_LABELS] = tsr_calloc((size_t)num_ops, sizeof *op_labels);
    int *nlab = tsr_calloc((size_t)num_ops, sizeof *nlab);
    tsr_tensor *result = NULL;
    int nops = 0;
    if (!ops || !op_labels || !nlab) goto done;

    bool ell_in_input = false;
    int curr_op = 0;
    for (size_t i = 0; i < lhs_len; i++) {
        unsigned char label = (unsigned char)equation[i];
        if (label == ' ') continue;
        if (label == '.') {
            if (ell_in_input) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): found '.' for operand %d for which an ellipsis was "
                              "already found", curr_op);
                goto done;
            }
            if (!(i + 2 < lhs_len && equation[++i] == '.' && equation[++i] == '.')) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): found '.' for operand %d that is not part of any "
                              "ellipsis", curr_op);
                goto done;
            }
            label = ELLIPSIS;
            ell_in_input = true;
        } else if (label == ',') {
            if (++curr_op >= num_ops) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the "
                              "equation");
                goto done;
            }
            ell_in_input = false;
            continue;
        } else if (!is_alpha(label)) {
            tsr_error_set(TSR_ERR_RUNTIME, "einsum(): invalid subscript given at index %zu in the equation string, "
                          "subscripts must be in [a-zA-Z]", i);
            goto done;
        } else {
            label = (unsigned char)label_to_subscript(label);
        }
        if (nlab[curr_op] >= EIN_MAX_LABELS) {
            tsr_error_set(TSR_ERR_RUNTIME, "einsum(): the number of subscripts in the equation (%d) is more than "
                          "the number of dimensions (%d) for operand %d", nlab[curr_op] + 1,
                          operands[curr_op]->ndim, curr_op);
            goto done;
        }
        op_labels[curr_op][nlab[curr_op]++] = label;
    }
    if (curr_op != num_ops - 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "einsum(): more operands were provided than specified in the equation");
        goto done;
    }

    int64_t label_count[TOTAL_LABELS] = {0};
    int ell_num_dim = 0;
    for (int i = 0; i < num_ops; i++) {
        int ndims = operands[i]->ndim, nlabels = nlab[i];
        bool has_ell = false;
        for (int k = 0; k < nlab[i]; k++) {
            if (op_labels[i][k] == ELLIPSIS) {
                nlabels--;
                has_ell = true;
                if (ndims - nlabels > ell_num_dim) ell_num_dim = ndims - nlabels;
            } else {
                label_count[op_labels[i][k]]++;
            }
        }
        if (has_ell ? nlabels > ndims : nlabels != ndims) {
            tsr_error_set(TSR_ERR_RUNTIME, "einsum(): the number of subscripts in the equation (%d%s%d) for operand "
                          "%d%s", nlabels, has_ell ? ") is more than the number of dimensions ("
                                                   : ") does not match the number of dimensions (",
                          ndims, i, has_ell ? "" : " and no ellipsis was given");
            goto done;
        }
    }

    int64_t label_perm_index[TOTAL_LABELS];
    for (int k = 0; k < TOTAL_LABELS; k++) label_perm_index[k] = -1;
    int perm_index = 0, ell_index = 0;
    bool ell_in_output = false;
    if (!arrow) {
        perm_index = ell_num_dim;
        ell_in_output = true;
        for (int label = 0; label < TOTAL_LABELS; label++)
            if (label_count[label] == 1) label_perm_index[label] = perm_index++;
    } else {
        const char *rhs = arrow + 2;
        size_t rlen = strlen(rhs);
        for (size_t i = 0; i < rlen; i++) {
            unsigned char label = (unsigned char)rhs[i];
            if (label == ' ') continue;
            if (label == '.') {
                if (ell_in_output) {
                    tsr_error_set(TSR_ERR_RUNTIME, "einsum(): found '.' for output but an ellipsis (...) was "
                                  "already found");
                    goto done;
                }
                if (!(i + 2 < rlen && rhs[++i] == '.' && rhs[++i] == '.')) {
                    tsr_error_set(TSR_ERR_RUNTIME, "einsum(): found '.' for output that is not part of any "
                                  "ellipsis (...)");
                    goto done;
                }
                ell_index = perm_index;
                perm_index += ell_num_dim;
                ell_in_output = true;
                continue;
            }
            if (!is_alpha(label)) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): invalid subscript given at index %zu in the equation "
                              "string, subscripts must be in [a-zA-Z]", lhs_len + 2 + i);
                goto done;
            }
            int index = label_to_subscript(label);
            if (!(label_count[index] > 0 && label_perm_index[index] == -1)) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): output subscript %c%s", label,
                              label_perm_index[index] > -1 ? " appears more than once in the output"
                                                           : " does not appear in the equation for any input operand");
                goto done;
            }
            label_perm_index[index] = perm_index++;
        }
    }
    const int out_num_dim = perm_index;
    if (!ell_in_output) {
        ell_index = perm_index;
        perm_index += ell_num_dim;
    }
    for (int label = 0; label < TOTAL_LABELS; label++)
        if (label_count[label] > 0 && label_perm_index[label] == -1) label_perm_index[label] = perm_index++;
    if (perm_index > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "einsum(): the operands would be aligned to %d dimensions (at most %d)",
                      perm_index, TSR_MAX_DIMS);
        goto done;
    }

    int64_t label_size[TOTAL_LABELS], ell_sizes[TSR_MAX_DIMS];
    uint64_t dim_counts[TSR_MAX_DIMS] = {0};
    for (int k = 0; k < TOTAL_LABELS; k++) label_size[k] = 1;
    for (int k = 0; k < TSR_MAX_DIMS; k++) ell_sizes[k] = 1;
    for (int i = 0; i < num_ops; i++) {
        tsr_tensor *op = tsr_tensor_retain((tsr_tensor *)operands[i]);
        int64_t permutation[TSR_MAX_DIMS];
        for (int k = 0; k < perm_index; k++) permutation[k] = -1;
        int64_t dim = 0;
        for (int k = 0; k < nlab[i]; k++) {
            int s = op_labels[i][k];
            if (s == ELLIPSIS) {
                int ndim = operands[i]->ndim - (nlab[i] - 1);
                for (int j = ell_num_dim - ndim; j < ell_num_dim; j++) {
                    if (op->sizes[dim] != 1) {
                        if (ell_sizes[j] != 1 && ell_sizes[j] != op->sizes[dim]) {
                            tsr_error_set(TSR_ERR_RUNTIME, "einsum(): dimension %lld covered by ellipsis in operand "
                                          "%dhas size %lld which does not broadcast with previously seen ellipsis "
                                          "with size %lld for the respective dimension", (long long)dim, i,
                                          (long long)op->sizes[dim], (long long)ell_sizes[j]);
                            tsr_tensor_release(op);
                            goto done;
                        }
                        ell_sizes[j] = op->sizes[dim];
                        dim_counts[ell_index + j]++;
                    }
                    permutation[ell_index + j] = dim++;
                }
            } else if (permutation[label_perm_index[s]] == -1) {
                if (op->sizes[dim] != 1) {
                    if (label_size[s] != 1 && label_size[s] != op->sizes[dim]) {
                        tsr_error_set(TSR_ERR_RUNTIME, "einsum(): subscript %c has size %lld for operand %d which "
                                      "does not broadcast with previously seen size %lld", subscript_to_label(s),
                                      (long long)op->sizes[dim], i, (long long)label_size[s]);
                        tsr_tensor_release(op);
                        goto done;
                    }
                    label_size[s] = op->sizes[dim];
                    dim_counts[label_perm_index[s]]++;
                }
                permutation[label_perm_index[s]] = dim++;
            } else {
                int64_t prev = permutation[label_perm_index[s]];
                if (op->sizes[dim] != op->sizes[prev]) {
                    tsr_error_set(TSR_ERR_RUNTIME, "einsum(): subscript %c is repeated for operand %d but the sizes "
                                  "don't match, %lld != %lld", subscript_to_label(s), i, (long long)op->sizes[dim],
                                  (long long)op->sizes[prev]);
                    tsr_tensor_release(op);
                    goto done;
                }
                int64_t src = -1, mperm[TSR_MAX_DIMS];
                if (!tsr__take(&op, tsr__ag_diagonal(op, 0, prev, dim))) goto done;
                if (tsr_movedim_order(op->ndim, 1, &src, 1, &prev, mperm) < 0 ||
                    !tsr__take(&op, tsr__ag_permute(op, op->ndim, mperm)))   /* movedim(-1, prev): a permute */
                    goto done;
            }
        }
        for (int k = 0; k < perm_index; k++) {
            if (permutation[k] == -1) {
                if (!tsr__take(&op, tsr__ag_unsqueeze(op, dim))) goto done;
                permutation[k] = dim++;
            }
        }
        if (!tsr__take(&op, tsr__ag_permute(op, perm_index, permutation))) goto done;
        ops[nops++] = op;
    }

    /* contract: ops is a deque; without a path the pair's result goes to the front */
    int pi = 0;
    while (nops > 1) {
        int i = 0, j = 1;
        if (path) {
            int64_t x = path[pi++], y = path[pi++];
            if (y < x) { int64_t t = x; x = y; y = t; }
            if (!(x != y && x >= 0 && y < nops)) {
                tsr_error_set(TSR_ERR_RUNTIME, "einsum(): invalid contraction (%lld, %lld%s", (long long)x,
                              (long long)y, x == y ? ") cannot contract an operand with itself"
                                                   : ") operand index is out of bounds");
                goto done;
            }
            i = (int)x, j = (int)y;
        }
        tsr_tensor *a = ops[i], *b = ops[j];
        memmove(ops + j, ops + j + 1, sizeof *ops * (size_t)(nops - j - 1));
        nops--;
        memmove(ops + i, ops + i + 1, sizeof *ops * (size_t)(nops - i - 1));
        nops--;
        int64_t sum_dims[TSR_MAX_DIMS], a_sum[TSR_MAX_DIMS], b_sum[TSR_MAX_DIMS];
        int ns = 0, na = 0, nb = 0;
        for (int d = out_num_dim; d < perm_index; d++) {
            if (a->sizes[d] != 1 && b->sizes[d] != 1) {
                if (--dim_counts[d] == 1) {
                    sum_dims[ns++] = d;
                    dim_counts[d] = 0;
                }
            } else if (dim_counts[d] == 1) {
                if (a->sizes[d] != 1) {
                    a_sum[na++] = d;
                    dim_counts[d] = 0;
                } else if (b->sizes[d] != 1) {
                    b_sum[nb++] = d;
                    dim_counts[d] = 0;
                }
            }
        }
        tsr_tensor *r = NULL;
        if ((!na || tsr__take(&a, sum_keep(a, na, a_sum))) && (!nb || tsr__take(&b, sum_keep(b, nb, b_sum))))
            r = sumproduct_pair(a, b, ns, sum_dims);
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (!r) goto done;
        if (path) {
            ops[nops++] = r;
        } else {
            memmove(ops + 1, ops, sizeof *ops * (size_t)nops);
            ops[0] = r;
            nops++;
        }
    }

    if (perm_index - out_num_dim > 0) {
        if (num_ops > 1) {
            int64_t sizes[TSR_MAX_DIMS];
            memcpy(sizes, ops[0]->sizes, sizeof(int64_t) * (size_t)out_num_dim);
            result = tsr__ag_view(ops[0], out_num_dim, sizes);
        } else {
            tsr_dims sd = {.n = perm_index - out_num_dim};
            for (int k = 0; k < sd.n; k++) sd.d[k] = out_num_dim + k;
            result = tsr__ag_sum(ops[0], &sd, false);
        }
    } else {
        result = tsr_tensor_retain(ops[0]);
    }
done:
    for (int k = 0; ops && k < nops; k++) tsr_tensor_release(ops[k]);
    tsr_free(ops);
    tsr_free(op_labels);
    tsr_free(nlab);
    return result;
}

tsr_tensor *tsr__sumproduct_pair(const tsr_tensor *left, const tsr_tensor *right, int nsum, const int64_t *sum_dims)
{
    return sumproduct_pair(left, right, nsum, sum_dims);
}
