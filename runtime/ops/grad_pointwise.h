/* runtime/ops/grad_pointwise.h — backward formulas of pointwise ops and
 * special functions (derivatives.yaml of 1.13): lerp, addcmul, addcdiv,
 * hypot, fmod, remainder, erfc, clamp with tensor bounds, erfinv, lgamma,
 * digamma, polygamma, logit, xlogy, sinc, deg2rad, rad2deg, frac,
 * nan_to_num, fmax / fmin, copysign, i0, i1, acosh, asinh, atanh, logaddexp(2), logcumsumexp, cummax / cummin, dist, renorm. The formula table of autograd_fn.c names them. */
#ifndef TSR_OPS_GRAD_POINTWISE_H
#define TSR_OPS_GRAD_POINTWISE_H
#include "autograd_node.h"

int tsr__bw_lerp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_lerp_t(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_addcmul(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_addcdiv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_hypot(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_fmod(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_first(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_clamp_bound(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_clamp_tensor(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_erfinv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_lgamma(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_polygamma(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_logit(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_xlogy(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_sinc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_deg2rad(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_nan_to_num(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_xlogy_self_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_logcumsumexp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_cummax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_dist(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_renorm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_erfc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_not_implemented_op(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_ahyp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_logaddexp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_fmax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_copysign(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_i0(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_i1(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
