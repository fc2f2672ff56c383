/* runtime/ops/stats.h — statistics over tensors: diff, trapezoid,
 * cumulative_trapezoid, cov, corrcoef, quantile / nanquantile, bincount,
 * histc, histogram, unique / unique_consecutive. Each follows 1.13's ATen
 * implementation step for step (ReduceOps.cpp, Integration.cpp,
 * Correlation.cpp, Sorting.cpp, SummaryOps.cpp, HistogramKernel.cpp,
 * Unique.cpp), so values, dtypes and errors are PyTorch's. */
#ifndef TSR_OPS_STATS_H
#define TSR_OPS_STATS_H
#include <stdbool.h>
#include <stdint.h>
#include "../scalar.h"
#include "../tensor.h"

/* torch.diff(x, n, dim, prepend, append): the n-th forward difference
 * (logical_xor for bool); prepend / append may be NULL. New reference. */
tsr_tensor *tsr_diff(const tsr_tensor *x, int64_t n, int64_t dim, const tsr_tensor *prepend,
                     const tsr_tensor *append, tsr_tensor *out);

/* trapezoid / cumulative_trapezoid (cumulative) of y along dim, with sample
 * points x (NULL: the constant spacing dx). fname names the op in errors. */
tsr_tensor *tsr_trapezoid(const tsr_tensor *y, const tsr_tensor *x, double dx, int64_t dim, bool cumulative);

/* cov(x, correction, fweights, aweights) and corrcoef(x). */
tsr_tensor *tsr_cov(const tsr_tensor *x, int64_t correction, const tsr_tensor *fweights, const tsr_tensor *aweights);
tsr_tensor *tsr_corrcoef(const tsr_tensor *x);

/* quantile / nanquantile (ignore_nan) of x at q (a 0-dim or 1-D tensor of
 * x's dtype; qs: the q of the float overload when q is NULL), along *dim or
 * of the flattened x, into out when given. */
tsr_tensor *tsr_quantile(const tsr_tensor *x, const tsr_tensor *q, double qs, const int64_t *dim, bool keepdim,
                         const char *interpolation, bool ignore_nan, tsr_tensor *out);

/* bincount(x, weights (may be NULL), minlength). */
tsr_tensor *tsr_bincount(const tsr_tensor *x, const tsr_tensor *weights, int64_t minlength);
/* histc(x, bins, min, max) into out when given. */
tsr_tensor *tsr_histc(const tsr_tensor *x, int64_t bins, double min, double max, tsr_tensor *out);
/* histogram(x, bins): edges a tensor (bins_t) or bins_n evenly spaced over
 * range (NULL: x's min and max); weight may be NULL. *hist and *edges are new
 * references (written into hist_out / edges_out when given). 0 or -1. */
int tsr_histogram(const tsr_tensor *x, const tsr_tensor *bins_t, int64_t bins_n, const double *range,
                  const tsr_tensor *weight, bool density, tsr_tensor *hist_out, tsr_tensor *edges_out,
                  tsr_tensor **hist, tsr_tensor **edges);

/* histogramdd(x, bins): x read as N x D (D its last size); per dim d the
 * edges bins_t[d] (binary search) or bins_n[d] evenly spaced over range[2d],
 * range[2d + 1] (NULL: that column's min and max), found by 1.13's linear
 * interpolation with a local search; nbins edge tensors must be D (counts:
 * the first D are read), nrange 2 D. weight (N values) may be NULL. *hist
 * (D dims), edges[0 .. D) new references, *ndims D. 0 or -1 with 1.13's
 * messages. */
int tsr_histogramdd(const tsr_tensor *x, int nbins, const tsr_tensor *const *bins_t, const int64_t *bins_n,
                    const double *range, int nrange, const tsr_tensor *weight, bool density, tsr_tensor **hist,
                    tsr_tensor **edges, int *ndims);

/* unique (consecutive: unique_consecutive) of x, along *dim or of the
 * flattened x. *out, *inverse and *counts are new references (inverse and
 * counts empty when not asked for, as 1.13). 0 or -1. */
int tsr_unique(const tsr_tensor *x, bool sorted, bool consecutive, bool return_inverse, bool return_counts,
               const int64_t *dim, tsr_tensor **out, tsr_tensor **inverse, tsr_tensor **counts);

/* gradient(x, spacing, dim, edge_order): one tensor per dim into res
 * (at least TSR_MAX_DIMS slots; *nres of them). spacing: nsp scalars, or
 * coords: nsp 1-D coordinate tensors, or neither (nsp -1: spacing 1). dims:
 * ndims dims (dim_given), else every dim. 0 or -1. */
int tsr_gradient(const tsr_tensor *x, int nsp, const tsr_scalar *spacing, const tsr_tensor *const *coords,
                 const int64_t *dims, int ndims, bool dim_given, int64_t edge_order, tsr_tensor **res, int *nres);

#endif
