/* src/bind/torch_api.h — PyTorch 1.13's public callables as data (written by
 * scripts/gen-torch-api): qualified name ("torch.add", "Tensor.add",
 * "torch.special.i0e"), the docstring's signature line and its summary. */
#ifndef TSR_BIND_TORCH_API_H
#define TSR_BIND_TORCH_API_H

typedef struct {
    const char *name;        /* "torch.add", "Tensor.add_" */
    const char *signature;   /* "add(input, other, *, alpha=1, out=None) -> Tensor", or "" */
    const char *summary;     /* "Adds other, scaled by alpha, to input.", or "" */
} TorchApi;

extern const TorchApi torch_api[];
extern const int torch_api_count;

/* The entry of a qualified name, or NULL when PyTorch 1.13 has no such
 * public callable. */
const TorchApi *torch_api_find(const char *qualified);

#endif
