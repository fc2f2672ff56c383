/* src/value.h — the language's dynamic values: Python's objects as tsr has them.
 * Ownership (CPython's rule): every function returning Value * returns a NEW
 * reference unless its contract says "borrowed"; arguments are borrowed unless
 * the contract says "steals". NULL means an exception is pending (exc_*). */
#ifndef TSR_VALUE_H
#define TSR_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Value Value;
typedef struct VType VType;
typedef struct Dict Dict;

/* Operator codes shared by the evaluator and every type's slots. ORDER OP */
typedef enum {
    OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
    OP_LSHIFT, OP_RSHIFT, OP_AND, OP_OR, OP_XOR, OP__NBIN,
    OP_NEG = OP__NBIN, OP_POS, OP_INVERT,                     /* unary */
    OP_LT, OP_LE, OP_EQ, OP_NE, OP_GT, OP_GE,                 /* comparisons */
    OP__COUNT
} OpCode;
extern const char *const op_symbol[OP__COUNT]; /* "+", "-", ..., "<", ">=" */
extern const char *const op_dunder[OP__COUNT]; /* "add", "sub", ... (no underscores) */

/* A call's arguments (borrowed): positional, then keyword name/value pairs. */
typedef struct {
    Value **pos;
    int npos;
    const char **kwnames;
    Value **kw;
    int nkw;
} CallArgs;

typedef Value *(*BuiltinFn)(Value *self, CallArgs *a, void *data);

/* A type's behaviour. Any slot may be NULL (the generic behaviour or Python's
 * TypeError applies). Extension types (tensors, dtypes, ...) live in src/bind/. */
struct VType {
    const char *name;                               /* 'int', 'Tensor': what messages print */
    const char *module;                             /* 'torch' for <class 'torch.Tensor'>; NULL: builtins */
    void (*destroy)(Value *v);                      /* free the payload */
    Value *(*repr)(Value *v);                       /* new str */
    Value *(*str)(Value *v);                        /* NULL: repr */
    /* attribute lookup: new ref, or NULL with no exception pending = no such attribute */
    Value *(*getattr)(Value *v, const char *name);
    int (*setattr)(Value *v, const char *name, Value *x); /* 0 ok, -1 error */
    Value *(*call)(Value *v, CallArgs *a);
    /* Calling the type object itself (int('3'), torch.Size([2])): self is the
     * type object. NULL: TypeError "cannot create 'X' instances". */
    BuiltinFn construct;
    /* binary operator; reflected=1 means "other OP self". Returns
     * value_not_implemented() (new ref) when the pair is not handled. */
    Value *(*binop)(int op, Value *self, Value *other, int reflected);
    Value *(*inplace)(int op, Value *self, Value *other); /* NULL/NotImplemented: binop */
    Value *(*unop)(int op, Value *self);
    /* comparison; for the right operand (reflected=1) op is already mirrored
     * (< becomes >), so the answer is always `self op other`. NotImplemented ok */
    Value *(*compare)(int op, Value *self, Value *other, int reflected);
    Value *(*getitem)(Value *v, Value *key);
    int (*setitem)(Value *v, Value *key, Value *x);
    int (*delitem)(Value *v, Value *key);
    Value *(*iter)(Value *v);                       /* new iterator value */
    Value *(*next)(Value *it);                      /* NULL, no exception: exhausted */
    int64_t (*len)(Value *v);                       /* -1 on error */
    int (*truth)(Value *v);                         /* -1 on error */
    int (*contains)(Value *v, Value *x);            /* -1 on error */
    uint64_t (*hash)(Value *v, int *ok);            /* *ok=0 + TypeError: unhashable */
    int (*eq)(Value *a, Value *b);                  /* fast equality for dict keys; -1 error */
    Value *(*enter)(Value *v);                      /* `with`: value bound by `as` */
    int (*exit)(Value *v);
    const char *(*dir)(Value *v, int i);            /* i-th attribute name for completion, NULL at end */
    /* attributes of the class object itself (torch.FloatTensor.dtype): new
     * ref, or NULL with no exception pending = no such attribute */
    Value *(*class_getattr)(const VType *t, const char *name);
};

typedef struct Func Func;
typedef struct Module Module;

struct Value {
    long refcnt;
    const VType *type;
    Value *gc_prev, *gc_next;   /* lists and dicts: every live one, so that
                                   reference cycles can be broken at exit */
    union {
        int64_t i;                                  /* bool, int */
        double f;                                   /* float */
        struct { double re, im; } c;                /* complex */
        struct { char *p; size_t n; uint64_t h; } s; /* str: owned, NUL-terminated; h: cached hash (0: none) */
        struct { Value **items; size_t n, cap; } seq; /* tuple, list, torch.Size */
        Dict *dict;                                 /* dict */
        struct { int64_t start, stop, step; } range;
        struct { Value *start, *stop, *step; } slice;
        Func *fn;                                   /* user function */
        struct { const char *name; BuiltinFn fn; Value *self; void *data; } bi;
        Module *mod;
        struct { Value *seq; int64_t pos; } it;     /* sequence iterator */
        const VType *typeobj;                       /* type(x) objects */
        struct { void *ptr; int64_t a, b; } ext;    /* extension payload */
    } u;
};

/* The built-in types. */
extern const VType t_none, t_bool, t_int, t_float, t_complex, t_str, t_tuple,
    t_list, t_dict, t_range, t_slice, t_func, t_builtin, t_module, t_ellipsis,
    t_notimpl, t_iter, t_type;

/* ---- references ---- */
static inline Value *incref(Value *v) { if (v) v->refcnt++; return v; }
void value_free(Value *v);
static inline void decref(Value *v) { if (v && --v->refcnt == 0) value_free(v); }
#define CLEAR(v) do { decref(v); (v) = NULL; } while (0)
Value *value_alloc(const VType *t);                 /* refcnt 1, payload zeroed */
/* There is no cycle collector: a list or dict that holds itself (directly or
 * not) lives until the session ends, when this empties every live list and
 * dict so that all of them are freed. */
void value_break_cycles(void);

/* ---- memory ---- */
/* malloc/realloc for sizes the user controls: NULL with MemoryError set
 * (realloc leaves p as it was). */
void *value_malloc(size_t n);
void *value_realloc(void *p, size_t n);
/* For small allocations that cannot fail: past the end of memory they live
 * on the spare block (see value_memory_check); never NULL. */
void *value_xmalloc(size_t n);
void *value_xcalloc(size_t n, size_t sz);
void *value_xrealloc(void *p, size_t n);
char *value_xstrdup(const char *s);
/* Counted like value_malloc (fault injection sees it), but a failure only
 * returns NULL, with no exception: for what may be lost without an error (a
 * step of an explain trace, a completion candidate). */
void *value_try_realloc(void *p, size_t n);
/* MemoryError (returns -1) if a constructor below ran out of memory since
 * the last check and lived on the spare block; 0 otherwise. Inline: the
 * evaluator checks after every expression. */
extern bool value_memory_low;
int value_memory_raise(void);
static inline int value_memory_check(void) { return value_memory_low ? value_memory_raise() : 0; }
/* Takes the spare block again (after a statement, when memory is freed). */
void value_memory_refill(void);

/* ---- singletons and constructors (new references) ---- */
Value *v_none(void);
Value *v_bool(bool b);
Value *v_int(int64_t i);
Value *v_float(double f);
Value *v_complex(double re, double im);
Value *v_str(const char *s);
Value *v_strn(const char *s, size_t n);
Value *v_strn_try(const char *s, size_t n);         /* NULL + MemoryError */
Value *v_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
Value *v_str_take(char *s, size_t n);               /* steals malloc'd s */
Value *v_tuple(size_t n);                           /* items NULL until set (steal) */
Value *v_tuple_of(int n, ...);                      /* steals each item */
Value *v_list(size_t n);
Value *v_list_sized(size_t n);                      /* n items NULL; NULL + MemoryError */
Value *v_tuple_sized(size_t n);                     /* likewise */
Value *v_dict(void);
Value *v_range(int64_t start, int64_t stop, int64_t step);
Value *v_slice(Value *start, Value *stop, Value *step); /* borrows, may be NULL=None */
Value *v_builtin(const char *name, BuiltinFn fn, Value *self, void *data); /* borrows self */
Value *v_ellipsis(void);
Value *value_not_implemented(void);
Value *v_typeobj(const VType *t);

static inline bool is_none(Value *v) { return v->type == &t_none; }
static inline bool is_type(Value *v, const VType *t) { return v->type == t; }
bool is_int_like(Value *v);                         /* int or bool */
bool is_number(Value *v);                           /* bool, int, float */

/* ---- sequences ---- */
int list_append(Value *list, Value *x);             /* borrows x */
int list_append_steal(Value *list, Value *x);
static inline Value *seq_get(Value *v, size_t i) { return v->u.seq.items[i]; } /* borrowed */
static inline size_t seq_len(Value *v) { return v->u.seq.n; }
uint64_t seq_hash(Value *v, int *ok);               /* tuple's hash over items */
int seq_eq(Value *a, Value *b);                     /* item-wise equality: 1, 0, -1 */
Value *seq_compare_items(int op, Value *a, Value *b); /* lexicographic, new bool */
/* Whether a sorts before b: 1, 0, or -1 with an exception pending. A sort
 * is handed this with its closure ctx. */
typedef int (*ValueBefore)(Value *a, Value *b, void *ctx);
/* Stable merge sort of keys[0..n) by before, items[i] moving with keys[i]
 * (both borrowed). 0, or -1 with the exception (arrays then partly sorted). */
int seq_sort(Value **items, Value **keys, size_t n, ValueBefore before, void *ctx);
/* list.sort / sorted(): keys from key(item) (NULL: the items), Python's <
 * order, reverse keeping equal items in their order. 0, or -1 with the
 * exception (items unchanged). */
int sort_values(Value **items, size_t n, Value *key, bool reverse);

/* ---- dicts (insertion ordered; keys hashable) ---- */
Value *dict_get(Value *d, Value *key);              /* borrowed or NULL (exception if key unhashable) */
Value *dict_get_str(Value *d, const char *key);     /* borrowed or NULL */
int dict_set(Value *d, Value *key, Value *x);       /* borrows both */
int dict_set_str(Value *d, const char *key, Value *x); /* borrows x */
int dict_del(Value *d, Value *key);                 /* 0, 1 not found, -1 error */
/* The evaluator's name lookups: key is a str with its hash cached; *hint
 * is the entry where the key was last found (any value to start: it is
 * checked, and updated on a miss). Borrowed or NULL (no exception). */
Value *dict_get_hinted(Value *d, Value *key, int *hint);
int dict_set_hinted(Value *d, Value *key, Value *x, int *hint);  /* borrows both */
/* The one str of this text (new reference); str_intern_clear drops the
 * table at the session's end. */
Value *str_intern(const char *s);
void str_intern_clear(void);
void dict_clear(Value *d);                          /* removes every entry */
size_t dict_len(Value *d);
/* iterate: for (size_t i = 0; dict_next(d, &i, &k, &v);) — borrowed k, v */
bool dict_next(Value *d, size_t *pos, Value **k, Value **v);
Value *dict_copy(Value *d);   /* new dict, or NULL with MemoryError */

/* ---- modules ---- */
struct Module { char *name; Value *attrs; /* dict */ };
Value *v_module(const char *name);
void module_add(Value *mod, const char *name, Value *x); /* steals x */
void module_add_fn(Value *mod, const char *name, BuiltinFn fn);

/* ---- generic protocol (evaluator and bindings share these) ---- */
Value *value_repr(Value *v);                        /* new str */
Value *value_str(Value *v);                         /* new str */
const char *type_name(Value *v);
int value_truth(Value *v);                          /* 1, 0, -1 error */
Value *value_binop(int op, Value *a, Value *b);
Value *value_inplace(int op, Value *a, Value *b);
Value *value_unop(int op, Value *a);
Value *value_compare(int op, Value *a, Value *b);
int value_eq(Value *a, Value *b);                   /* 1, 0, -1 */
int value_lt(Value *a, Value *b);                   /* for sorted/min/max */
Value *value_getattr(Value *v, const char *name);   /* AttributeError if missing */
int value_setattr(Value *v, const char *name, Value *x);
Value *value_getitem(Value *v, Value *key);
int value_setitem(Value *v, Value *key, Value *x);
int value_delitem(Value *v, Value *key);
Value *value_call(Value *f, CallArgs *a);
Value *value_call0(Value *f, int n, Value **args);  /* positional only */
Value *value_iter(Value *v);
Value *value_next(Value *it);                       /* NULL: end (no exception) or error */
int64_t value_len(Value *v);
int value_contains(Value *container, Value *x);
uint64_t value_hash(Value *v, int *ok);
Value *value_to_list(Value *v);                     /* any iterable into a new list */
/* Python's slice.indices(): clamps to len; -1 with ValueError on step 0 */
int slice_indices(Value *slice, int64_t len, int64_t *start, int64_t *stop, int64_t *step, int64_t *count);
int seq_index(Value *key, int64_t len, int64_t *out, const char *what); /* IndexError '<what> index out of range' */
Value *v_seq_iter(Value *seq);                      /* iterator over tuple/list/str (borrows seq) */
bool value_is_callable(Value *v);

/* Python number conversions with Python's messages. -1 / NaN-safe */
int value_as_int(Value *v, int64_t *out);           /* int, bool, __index__-like; TypeError */
int value_as_float(Value *v, double *out);          /* int, bool, float */
Value *float_repr_str(double f);                    /* Python repr of a float */
void format_float_repr(double f, char *buf, size_t n);
void format_complex_repr(double re, double im, char *buf, size_t n);
Value *str_repr(const char *s, size_t n);            /* NULL + MemoryError */

/* ---- exceptions: one pending at a time ---- */
/* A source range for error reports; op_* marks an operator inside it (0: none). */
typedef struct { int line, col, end_line, end_col, op_col, op_end_col; } Span;
Value *exc_set(const char *type, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* returns NULL */
int exc_seti(const char *type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));  /* returns -1 */
bool exc_pending(void);
const char *exc_type(void);
const char *exc_message(void);
bool exc_matches(const char *type);
void exc_clear(void);
bool exc_has_span(void);
void exc_set_span(Span sp);                         /* only if none recorded yet */
Span exc_span(void);
/* Raises the exception instance obj (borrowed) as type: msg (str(obj)). */
void exc_set_object(Value *obj, const char *type, const char *msg);
Value *exc_object(void);                            /* borrowed; NULL when raised by exc_set */
/* The pending exception moved out of the record (which is then clear), and
 * back in; a saved one not restored is freed by exc_saved_free. */
typedef struct { bool pending; char type[64]; char *msg; bool has_span; Span span; Value *obj; } ExcSaved;
void exc_save(ExcSaved *s);
void exc_restore(ExcSaved *s);                      /* replaces whatever is pending */
void exc_saved_free(ExcSaved *s);

/* recursion guard (RecursionError instead of a stack overflow) */
extern int eval_depth;
#define MAX_EVAL_DEPTH 998   /* CPython's 1000 frames: the module's and 999 calls */

#endif
