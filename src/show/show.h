/* src/show/show.h — printing of torch values (PyTorch's exact formats).
 * show_tensor_repr itself is declared in bind/tensor.h (the binding
 * contract); this header adds the print-option controls for C callers. */
#ifndef TSR_SHOW_H
#define TSR_SHOW_H

#include <stdint.h>

/* Sets every print option at once (torch.set_printoptions with all values
 * given). threshold may be INFINITY; sci_mode is -1 (None), 0 or 1. */
void show_set_printoptions(int64_t precision, double threshold, int64_t edgeitems, double linewidth,
                           int sci_mode);
/* Back to PyTorch's defaults: precision 4, threshold 1000, edgeitems 3,
 * linewidth 80, sci_mode None. */
void show_reset_printoptions(void);

#endif
