/* runtime/ops/distance.h — cross products and distances (1.13's Cross.cpp,
 * torch.dist, renorm, Distance.cpp's cdist). Results are NEW references (out
 * itself when given) or NULL with the error recorded. */
#ifndef TSR_OPS_DISTANCE_H
#define TSR_OPS_DISTANCE_H
#include "../tensor.h"

/* torch.linalg.cross(a, b, dim=-1, out=): same number of dims ("linalg.cross:
 * inputs must have the same number of dimensions."), dim of length 3 in both
 * ("linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
 * batch dims broadcast; the kernel wants b in a's dtype ("expected scalar type
 * Float but found Double"); bool and float16 are not implemented. */
tsr_tensor *tsr_linalg_cross(const tsr_tensor *a, const tsr_tensor *b, int64_t dim, tsr_tensor *out);
/* torch.cross(a, b, dim=None): dim NULL takes the first dim of size 3 ("no
 * dimension of size 3 in input"), then linalg.cross. */
tsr_tensor *tsr_cross(const tsr_tensor *a, const tsr_tensor *b, const int64_t *dim, tsr_tensor *out);
/* torch.dist(a, b, p=2): norm(a - b, p). */
tsr_tensor *tsr_dist(const tsr_tensor *a, const tsr_tensor *b, double p);
/* renorm(self, p, dim, maxnorm, out=) and self.renorm_(...): each slice along
 * dim whose p-norm exceeds maxnorm is scaled to maxnorm / (norm + 1e-7). */
tsr_tensor *tsr_renorm(const tsr_tensor *self, double p, int64_t dim, double maxnorm, tsr_tensor *out);
tsr_tensor *tsr_renorm_(tsr_tensor *self, double p, int64_t dim, double maxnorm);
/* torch.cdist(x1, x2, p, compute_mode): mode 0 (mm for p = 2 past 25 rows), 1
 * (always mm for p = 2), 2 (never). */
tsr_tensor *tsr_cdist(const tsr_tensor *x1, const tsr_tensor *x2, double p, int mode);
/* _cdist_backward(grad, x1, x2, p, dist) of 1.13 (float32 / float64): x1's
 * gradient over the batch dims of grad (x2's: called with x1 and x2, grad
 * and dist swapped and transposed), DistanceOpsKernel.cpp's column loop. */
tsr_tensor *tsr_cdist_backward(const tsr_tensor *grad, const tsr_tensor *x1, const tsr_tensor *x2, double p,
                               const tsr_tensor *dist);

#endif
