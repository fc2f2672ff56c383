/* src/bind/table.h — the binding table: one row per torch callable, with
 * PyTorch 1.13's signature strings (python_arg_parser's text, parsed once),
 * its variants and one handler that receives parsed arguments. Argument
 * errors, help() and --list-functions all come from the rows. Each area keeps
 * its own rows and registers them at start-up; there is no fixed capacity. */
#ifndef TSR_BIND_TABLE_H
#define TSR_BIND_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "value.h"

/* Parameter types, as python_arg_parser names them in messages. ORDER PTYPE */
typedef enum {
    BT_TENSOR, BT_NUMBER, BT_INT, BT_FLOAT, BT_BOOL, BT_STR, BT_DTYPE, BT_INT_LIST, BT_SYMINT_LIST,
    BT_TENSOR_LIST, BT_GENERATOR, BT_LAYOUT, BT_DEVICE, BT_MEMORY_FORMAT, BT_DIMNAME, BT_DIMNAME_LIST,
    BT_SYMINT, BT_FLOAT_LIST, BT_STORAGE, BT_OBJECT, BT_COUNT
} BindType;

#define BIND_MAXP 12            /* parameters of one signature, out= included (normal's float_float has 10) */
#define BIND_OUT (BIND_MAXP - 1)   /* the slot out= is bound to */
#define BIND_MAXSIG 8           /* overloads of one row */

typedef struct {
    char name[32];               /* tensor_indices_or_sections has 26 */
    unsigned char type;         /* BindType */
    bool opt;                   /* has a default */
    bool none;                  /* accepts None (Tensor?, ScalarType?) */
    bool kwonly;
    signed char slot;           /* index in the handler's argument layout; BIND_OUT for out */
    signed char size;           /* int[N]: a single int is accepted for N > 0 */
} BindParam;

typedef struct {
    BindParam p[BIND_MAXP];
    int n, min_args, max_pos;
    bool hidden;                /* a deprecated overload: matched, never listed in errors */
} BindSig;

/* A call's arguments after matching: v[slot] is borrowed (NULL: absent or
 * None), type[slot] the parameter type it matched, param[slot] the parameter,
 * sig the overload. An int list given as varargs (zeros(2, 3)) is a tuple
 * the table owns for the duration of the call. */
typedef struct {
    Value *v[BIND_MAXP];
    unsigned char type[BIND_MAXP];
    const BindParam *param[BIND_MAXP];
    int sig;
    Value *varargs;
    bool bykw[BIND_MAXP];       /* the argument in this slot came as a keyword */
    const void *ctx;            /* what bind_table_call_ctx's caller passes on, else NULL */
} BindArgs;

/* The int list in slot (a tuple, list, torch.Size, or one int for int[N])
 * into out[0 .. *n - 1] (at most max). -1 with python_arg_parser's TypeError
 * ("argument 'size' must be tuple of SymInts, but found element of type str
 * at pos 2") or RuntimeError for too many. */
int bind_table_intlist(const BindArgs *b, int slot, const char *fname, int64_t *out, int max, int *n);

typedef struct BindRow BindRow;
/* fname: the name as called ("add", "add_"); self: the tensor of a method
 * call (already in b->v[0] for Tensor-first signatures), NULL for a function;
 * inplace: the NAME_ method form. Returns a NEW reference or NULL. */
typedef Value *(*BindHandler)(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace);

/* Variants. BIND_NUMS: Python numbers are accepted where a Tensor is
 * expected (PyTorch wraps them), as torch.add(5, 5). BIND_FN_INPLACE: the
 * function form writes its first argument (torch.clamp_(x, 0), a row named
 * with the trailing underscore): the handler sees it as self, in place. */
enum { BIND_FN = 1, BIND_METHOD = 2, BIND_INPLACE = 4, BIND_NUMS = 8, BIND_FN_INPLACE = 16, BIND_FN_UNDERSCORE = 32 };
/* BIND_FN_UNDERSCORE: also the function torch.NAME_(input, ...) that writes
 * input, as 1.13's torch.exp_: the function signatures less out=. */

struct BindRow {
    const char *name;           /* Python name: "add" */
    int kind;                   /* the handler's own discriminator */
    int code;                   /* the runtime op it runs (a tsr_binop, tsr_unop, ...) */
    unsigned flags;             /* BIND_FN | BIND_METHOD | BIND_INPLACE | BIND_NUMS */
    int hidden_f, hidden_m;     /* hidden overloads of PyTorch's that tsr does not bind: they
                                   still count where the parser counts signatures */
    const char *sigs;           /* function signatures, '|' between overloads; a leading '!'
                                   marks a deprecated one (matched last, never listed) whose
                                   parameters take the slots of the same names in the first */
    BindHandler handler;
    const char *module;         /* "torch" (default), "torch.special", ... */
    const char *op;             /* the runtime op's ATen name ("hypot", "special_erfcx"), or NULL;
                                   the handler finds its descriptor in desc */
    /* filled when the row is registered */
    const struct tsr_op *desc;  /* tsr_op_find(op) */
    BindSig *us;                /* BIND_FN_UNDERSCORE's signatures */
    int nus;
    BindSig fs[BIND_MAXSIG], ms[BIND_MAXSIG];
    int nfs, nms;
    char iname[32];
    char pname[48];             /* the function's name in python_arg_parser's messages and
                                   its repr: "special_expit" for torch.special.expit */
    unsigned char names_rule;   /* the named-tensor rule family (table_names.c) */
    /* a torch function or Tensor method that 1.13 writes in Python (torch/functional.py,
       torch/_tensor.py): CPython's check of its def's arguments (pydef.c), run before the
       parser when the language calls the row; form: BIND_FN or BIND_METHOD; -1 with the
       TypeError. Set at registration from bind_pydef_of(). */
    int (*pydef)(CallArgs *a, unsigned form);
};
int (*bind_pydef_of(const BindRow *d))(CallArgs *a, unsigned form);

/* The named-tensor step (table_names.c): the rule family of the row called
 * name (its names_rule), and the call wrapper that runs call(d, fname, b,
 * self, inplace) under it: unchanged when no argument has names; else
 * refused with 1.13's fallback message, or the result (out=, self) given the
 * names computed before the call. NEW reference or NULL. */
unsigned char bind_names_rule_of(const char *name);
Value *bind_names_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);
/* PYTHONWARNINGS=ignore (as `python -W ignore`, how the oracle runs the
 * conformance cases): the UserWarnings tsr prints are silenced. */
bool bind_warnings_ignored(void);

/* The sparse step (sparse.c): bind_sparse_args is true when an argument
 * (or self, or an item of a list argument) is a sparse tensor;
 * bind_sparse_row for the rows of sparse.c itself (they take sparse
 * arguments); bind_sparse_call runs row d with a sparse argument as 1.13
 * computes it on SparseCPU (call: the row's own handler, for the rows that
 * only read the header), or refuses it with 1.13's "Could not run 'aten::X'
 * with arguments from the 'SparseCPU' backend. ..." NEW reference or NULL. */
bool bind_sparse_args(BindArgs *b, Value *self);
bool bind_sparse_row(const BindRow *d);
Value *bind_sparse_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);

/* Parses every row's signatures, binds the function, method and in-place
 * forms, and remembers the rows for help() and --list-functions. Aborts on
 * a malformed signature (a programming error caught by every test run). */
void bind_table_register(BindRow *rows, int n);

/* The table's call of row d through call (the handler or the conj fallback)
 * with the autograd step around it (table_grad.c). NEW reference or NULL. */
Value *bind_grad_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);

/* Binds row's method form under another name too (Tensor.__abs__). */
void bind_table_alias_method(const char *alias, BindRow *row);
/* The row behind a builtin value (torch.add, t.add, t.add_), or NULL. */
const BindRow *bind_table_row_of(Value *callable, unsigned *form);   /* form: BIND_FN, _METHOD or _INPLACE */
/* What help() prints for a row: 1.13's docstring signature and summary line,
 * then each signature the parser accepts. New str, or NULL with MemoryError. */
Value *bind_table_help_text(const BindRow *row, unsigned form);
/* Prints every bound callable's qualified name, one a line, sorted. */
void bind_table_list(FILE *f);

/* ---- shape and tensor attributes (migtensor) ---- */
struct tsr_tensor;
/* The int in slot (an int, or a 0-dim integral tensor the parser let through),
 * dflt when absent. -1 with the runtime's error. */
int bind_table_int(const BindArgs *b, int slot, int64_t dflt, int64_t *out);
/* A dimension in slot: an int as bind_table_int, or a Dimname looked up in t's
 * names (the runtime's "Name 'c' not found in Tensor[None]."). */
int bind_table_dim(const BindArgs *b, int slot, const struct tsr_tensor *t, int64_t dflt, int64_t *out);
/* Calls row's method form on self (a Python-level method that ends in the
 * parser's, as Tensor.unflatten). NEW reference or NULL. */
Value *bind_table_call_method(const BindRow *row, Value *self, CallArgs *a);
/* Calls row's function form (a type's constructor that python_arg_parser
 * parses, as torch.device(...), registered without variants). NEW
 * reference or NULL. */
Value *bind_table_call(const BindRow *row, CallArgs *a);
/* The same with a context the handler finds in BindArgs.ctx (the dtype and
 * device of a legacy constructor class). */
Value *bind_table_call_ctx(const BindRow *row, Value *self, CallArgs *a, const void *ctx);

/* The order in which 1.13's argument errors list the keywords names[0..n-1]
 * of a call: python_arg_parser collects them into a std::unordered_map,
 * whose libstdc++ iteration order this reproduces (std::hash<std::string>,
 * the prime rehash policy, insertion at the front of a bucket). order[k] is
 * an index into names; duplicates and keywords past BIND_MAXKW give -1. */
#define BIND_MAXKW 64
void bind_kwargs_order(int n, const char *const *names, int *order);

/* ------------------------------------------------------------ factory and random */

#include "tsr.h"

/* The value of the parameter called name in the matched overload (borrowed),
 * or NULL when it was absent or None. Lets a handler read overloads whose
 * slots differ (zeros(size, *, names) and zeros(size, *, out)) by name. */
Value *bind_table_arg(const BindArgs *b, const char *name);
/* A ScalarType argument: a torch.dtype, or the Python type int, float or
 * bool as python_arg_parser converts them; dflt for NULL. */
tsr_dtype bind_table_dtype(Value *v, tsr_dtype dflt);
/* An int argument the table matched (an int, bool, or 0-dim integral
 * tensor, read as Tensor.__index__ does) into *out; -1 with TypeError. */
int bind_table_int_value(Value *v, const char *fname, const char *pname, int64_t *out);
/* A float argument the table matched (a Python number or 0-dim tensor). */
int bind_table_float(Value *v, const char *fname, const char *pname, double *out);

#endif
