/* runtime/op.h — one descriptor per op, the analogue of an entry of PyTorch's
 * native_functions.yaml: names, the kernel name its messages use, arity, the
 * result-dtype rule, the dtypes each device accepts, layouts, the names rule,
 * differentiability and the CPU kernels. The op files own their descriptors;
 * every dtype decision, out=/in-place check and :explain answer reads them. */
#ifndef TSR_OP_H
#define TSR_OP_H
#include <stdbool.h>
#include <stdint.h>
#include "iter.h"
#include "promote.h"

/* How an op turns the common dtype of its inputs (result_type) into the
 * dtype it computes in and the dtype it returns (SEMANTICS.md §1.4).
 * ORDER DTRULE */
typedef enum {
    TSR_DT_COMMON,        /* binary_op / unary_op: the common dtype */
    TSR_DT_FLOAT,         /* binary_float_op: integral and bool give the default float dtype */
    TSR_DT_DOUBLE,        /* float_power: float64, complex128 for complex operands */
    TSR_DT_BOOL,          /* comparison_op: computes in the common dtype, returns bool */
    TSR_DT_UNARY_FLOAT,   /* unary_float_op: integral and bool give the default float dtype */
    TSR_DT_SAME,          /* keeps the input dtype; out= must have exactly that dtype */
    TSR_DT_ABS,           /* as SAME, but a complex input gives its real dtype */
    TSR_DT_SELF,          /* the result keeps self's dtype; the other values are cast to it */
    TSR_DT_REAL_FLOAT,    /* angle: as UNARY_FLOAT, and a complex input gives its real dtype */
    TSR_DT_COUNT
} tsr_dtype_rule;

/* Name inference (SEMANTICS.md §6, NamedTensorUtils.cpp). REFUSE is the
 * default: named inputs are refused with PyTorch's message, so no op is ever
 * silently name-blind. ORDER NAMES */
typedef enum {
    TSR_NAMES_REFUSE,     /* "<op> is not yet supported with named tensors" */
    TSR_NAMES_UNARY,      /* propagate_names(result, self) */
    TSR_NAMES_BROADCAST,  /* unify names from the right (binary/ternary pointwise) */
    TSR_NAMES_COUNT
} tsr_names_rule;

#define TSR_OP_DTYPE_BIT(d) (1u << (d))
#define TSR_OP_LAYOUT_BIT(l) (1u << (l))

typedef struct tsr_op tsr_op;
/* An op family's entry for a descriptor that needs more than the plain path
 * (tsr_op_run): binary ops with alpha, pow's exponent checks, abs into a
 * real out=... in: op->arity operands; out: out= / the in-place tensor. */
typedef tsr_tensor *(*tsr_op_runner)(const tsr_op *op, const tsr_operand *in, tsr_tensor *out, bool inplace);

struct tsr_op {
    const char *name;            /* torch function name, as messages say it: "add", "clamp_max" */
    const char *aten;            /* ATen schema name.overload: "add.Tensor", "clamp_max.Tensor" */
    const char *kname;           /* kernel name of "not implemented" messages: "add_cpu" */
    int arity;                   /* tensor-or-scalar inputs */
    tsr_dtype_rule rule;
    uint32_t cpu_dtypes;         /* dtypes the CPU kernel accepts (TSR_OP_DTYPE_BIT) */
    uint32_t meta_dtypes;        /* dtypes the meta kernel accepts (shape only) */
    uint32_t layouts;            /* layouts accepted (TSR_OP_LAYOUT_BIT); strided only so far */
    tsr_names_rule names;
    bool differentiable;
    const tsr_loop_fn *cpu;      /* CPU kernel per dtype (TSR_DTYPE_SLOTS entries), or NULL */
    const char *complex_msg;     /* refusal of a complex compute dtype before any kernel, or NULL */
    const char *bool_msg;        /* refusal of a bool input, or NULL */
    tsr_op_runner run;           /* the family's entry, or NULL: tsr_op_run's plain path */
};

/* The dtype op computes in for these n operands: result_type, turned by the
 * op's rule. ex, when not NULL, receives result_type's record. Records no
 * error; TSR_DTYPE_UNDEFINED when n == 0. */
tsr_dtype tsr_op_compute_dtype(const tsr_op *op, int n, const tsr_operand *in, tsr_promotion *ex);
/* The dtype of op's result when it computes in dt (bool for comparisons,
 * the real dtype for abs of a complex input). */
tsr_dtype tsr_op_result_dtype(const tsr_op *op, tsr_dtype dt);
/* How an out= / in-place tensor is checked against the result dtype. */
tsr_out_check tsr_op_out_check(const tsr_op *op);
/* The CPU kernel for dt, or NULL when the descriptor does not list dt (the
 * iterator then raises "<kname>" not implemented for '<dtype>'). */
tsr_loop_fn tsr_op_kernel(const tsr_op *op, tsr_dtype dt);
/* op's kernel on a computing device backend (a tsr_kernel_id of
 * kernels.h), or TSR_K_NONE: it has none, and raises the dispatcher's
 * "Could not run" there. */
int tsr_op_dev_kernel(const tsr_op *op);
/* The checks every op makes of its tensor inputs before anything else:
 * layout (strided only) and names (the names rule). 0, or -1 with PyTorch's
 * error recorded. */
int tsr_op_check_inputs(const tsr_op *op, int n, const tsr_operand *in);
/* op's names rule as 1.13 applies it: the descriptor's, or REFUSE for the
 * ops 1.13 refuses although their family has a rule. */
tsr_names_rule tsr_op_names_rule(const tsr_op *op);
/* A one-line description of how op's rule turned the common dtype into the
 * dtype it computes in (for :explain); NULL when the rule changes nothing. */
const char *tsr_op_rule_text(const tsr_op *op, tsr_dtype common);

/* What an op did, for :explain: the runtime fills it from the descriptor;
 * the language layer only prints it. Operand tensors are borrowed. */
#define TSR_OP_MAX_OPERANDS 4
typedef struct {
    const tsr_op *op;
    int noperands;
    tsr_operand operands[TSR_OP_MAX_OPERANDS];
    tsr_promotion promo;         /* result_type's record over the operands */
    tsr_dtype compute;           /* the dtype the kernel writes: the compute dtype (bool for
                                    comparisons); UNDEFINED without operands */
    tsr_out_check out_check;     /* how the out= / in-place tensor is checked */
    tsr_dtype result;            /* the result's dtype; UNDEFINED when the op failed */
    const char *rule_text;       /* tsr_op_rule_text, or NULL */
    int ndim;                    /* broadcast shape (the result's when there is one) */
    int64_t shape[TSR_MAX_DIMS];
    tsr_device device;
    bool inplace, has_out;
    tsr_dtype out_dtype;         /* the in-place / out= tensor's dtype, or UNDEFINED */
    bool out_castable;           /* the computed dtype may be written into out_dtype */
    char refused[512];           /* why the in-place / out= write was refused, or "" */
} tsr_op_step;

/* Fills *st for op over n operands. result: the op's result, or NULL when it
 * failed (its error stays pending; when it was the refusal of the out= or
 * in-place write, its message is copied into refused). out: the out= or
 * in-place tensor, or NULL. Records and clears no error. */
void tsr_op_explain(const tsr_op *op, int n, const tsr_operand *in, const tsr_tensor *result,
                    const tsr_tensor *out, bool inplace, tsr_op_step *st);

/* (tsr_resize_output and its warning are iter.h's.) */
/* Copies a computed result r into out: with same_dtype, out must have r's
 * dtype ("Expected out tensor to have dtype ..."), then resize_output and
 * copy_ (skipped on meta). Steals r; returns a NEW reference to out, r
 * itself when out is NULL or r, or NULL with the error set. */
tsr_tensor *tsr_out_assign(tsr_tensor *r, tsr_tensor *out, bool same_dtype);
/* Structured kernels' out= dtype check: 0 when out has dtype dt, else -1
 * with "Expected out tensor to have dtype float, but got double instead". */
int tsr_out_dtype_check(const tsr_tensor *out, tsr_dtype dt);

#endif
