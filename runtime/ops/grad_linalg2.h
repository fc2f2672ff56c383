/* runtime/ops/grad_linalg2.h — backward formulas of the multi-output matrix
 * decompositions (1.13's FunctionsManual.cpp): linalg_qr_backward,
 * svd_backward, linalg_eig_backward (eig, eigh and eigvalsh), svdvals. The formula table of
 * autograd_fn.c names them; the node keeps the forward's outputs in extra[]. */
#ifndef TSR_OPS_GRAD_LINALG2_H
#define TSR_OPS_GRAD_LINALG2_H
#include "autograd_node.h"

int tsr__bw_linalg_qr(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_linalg_svd(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_linalg_eig(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_linalg_eigvalsh(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_linalg_svdvals(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
