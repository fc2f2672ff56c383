/* runtime/tsr.h — libtsr's public API in one include.
 * Ownership: functions returning tsr_tensor* / tsr_storage* return NEW
 * references; arguments are borrowed; NULL or -1 means an error is recorded
 * (runtime/error.h). */
#ifndef TSR_H
#define TSR_H
#include "error.h"
#include "dtype.h"
#include "scalar.h"
#include "device.h"
#include "storage.h"
#include "tensor.h"
#include "view.h"
#include "names.h"
#include "op.h"
#include "ops/copy.h"
#include "ops/shape.h"
#include "ops/factory.h"
#include "promote.h"
#include "iter.h"
#include "ops/unary.h"
#include "ops/binary.h"
#include "ops/compare.h"
#include "ops/random.h"
#include "ops/index.h"
#include "ops/bessel.h"
#include "ops/special.h"
#include "ops/dispatch.h"
#include "ops/join.h"
#include "ops/rearrange.h"
#include "ops/viewcopy.h"
#include "ops/combine.h"
#include "ops/advindex.h"
#include "ops/scatter.h"
#include "ops/indexdim.h"
#include "ops/blas.h"
#include "ops/search.h"
#include "ops/fft.h"
#endif
