/* runtime/dtype.h — the dtype list (one X-macro), traits, finfo/iinfo, and the
 * float16/bfloat16 conversions. Enum values are c10's ScalarType numbers
 * (c10/core/ScalarType.h), so BFLOAT16 is 15 and 12..14 (quantized) are holes:
 * size per-dtype arrays with TSR_DTYPE_SLOTS, iterate with TSR_DTYPES. */
#ifndef TSR_DTYPE_H
#define TSR_DTYPE_H
#include <stdbool.h>
#include <stdint.h>

/* Storage types of the two 16-bit floats and of complex32. */
typedef uint16_t tsr_half;                        /* IEEE binary16 bits */
typedef uint16_t tsr_bfloat16;                    /* upper 16 bits of a float */
typedef struct { tsr_half re, im; } tsr_chalf;    /* complex32 */
typedef float _Complex tsr_cfloat;
typedef double _Complex tsr_cdouble;

typedef enum { TSR_CAT_BOOL, TSR_CAT_INTEGRAL, TSR_CAT_FLOATING, TSR_CAT_COMPLEX } tsr_category;

/* X(ID, number, name, storage C type, compute C type, category, ScalarType name, alias)
 * in ScalarType order. ORDER DTYPE */
#define TSR_DTYPES(X)                                                                  \
    X(UINT8,      0,  "uint8",      uint8_t,     int64_t,    TSR_CAT_INTEGRAL, Byte,          NULL)     \
    X(INT8,       1,  "int8",       int8_t,      int64_t,    TSR_CAT_INTEGRAL, Char,          NULL)     \
    X(INT16,      2,  "int16",      int16_t,     int64_t,    TSR_CAT_INTEGRAL, Short,         "short")  \
    X(INT32,      3,  "int32",      int32_t,     int64_t,    TSR_CAT_INTEGRAL, Int,           "int")    \
    X(INT64,      4,  "int64",      int64_t,     int64_t,    TSR_CAT_INTEGRAL, Long,          "long")   \
    X(FLOAT16,    5,  "float16",    tsr_half,    float,      TSR_CAT_FLOATING, Half,          "half")   \
    X(FLOAT32,    6,  "float32",    float,       float,      TSR_CAT_FLOATING, Float,         "float")  \
    X(FLOAT64,    7,  "float64",    double,      double,     TSR_CAT_FLOATING, Double,        "double") \
    X(COMPLEX32,  8,  "complex32",  tsr_chalf,   tsr_cfloat, TSR_CAT_COMPLEX,  ComplexHalf,   "chalf")  \
    X(COMPLEX64,  9,  "complex64",  tsr_cfloat,  tsr_cfloat, TSR_CAT_COMPLEX,  ComplexFloat,  "cfloat") \
    X(COMPLEX128, 10, "complex128", tsr_cdouble, tsr_cdouble,TSR_CAT_COMPLEX,  ComplexDouble, "cdouble")\
    X(BOOL,       11, "bool",       bool,        bool,       TSR_CAT_BOOL,     Bool,          NULL)     \
    X(BFLOAT16,   15, "bfloat16",   tsr_bfloat16,float,      TSR_CAT_FLOATING, BFloat16,      NULL)

typedef enum {
#define TSR_X_ENUM(ID, num, name, ct, cc, cat, sname, alias) TSR_##ID = num,
    TSR_DTYPES(TSR_X_ENUM)
#undef TSR_X_ENUM
    TSR_DTYPE_UNDEFINED = -1
} tsr_dtype;

#define TSR_NDTYPES 13        /* real dtypes */
#define TSR_DTYPE_SLOTS 16    /* size of arrays indexed by tsr_dtype */

typedef struct {
    const char *name;          /* "float32" (PyTorch repr without "torch.") */
    const char *alias;         /* "float" or NULL */
    const char *scalar_name;   /* "Float": what C++ error messages print */
    const char *tensor_type;   /* "FloatTensor" (x.type() is "torch." + this) */
    const char *storage_type;  /* "FloatStorage" */
    int itemsize;              /* bytes */
    tsr_category category;
    bool is_signed;            /* false only for bool and uint8 */
    tsr_dtype number;          /* == its own enum value; NULL name marks a hole */
} tsr_dtype_traits;

/* Traits of a valid dtype (borrowed, static); NULL for a hole or out of range. */
const tsr_dtype_traits *tsr_dtype_traits_of(tsr_dtype d);
/* true for the 13 defined dtypes. */
bool tsr_dtype_valid(tsr_dtype d);
const char *tsr_dtype_name(tsr_dtype d);          /* "float32"; "undefined" if invalid */
const char *tsr_dtype_scalar_name(tsr_dtype d);   /* "Float" */
/* caffe2::TypeMeta's name ("float", "long int", "c10::Half"): what some
 * C++ messages print (TensorOptions, lerp, random_ bounds). */
const char *tsr_dtype_typemeta_name(tsr_dtype d);
int tsr_dtype_itemsize(tsr_dtype d);
bool tsr_dtype_is_floating(tsr_dtype d);          /* float16/32/64, bfloat16 */
bool tsr_dtype_is_complex(tsr_dtype d);
bool tsr_dtype_is_integral(tsr_dtype d, bool include_bool);
bool tsr_dtype_is_signed(tsr_dtype d);
/* complex32/64/128 → float16/32/64; others unchanged. */
tsr_dtype tsr_dtype_to_real(tsr_dtype d);
/* float16/32/64 → complex32/64/128; complex unchanged; others UNDEFINED. */
tsr_dtype tsr_dtype_to_complex(tsr_dtype d);
/* Looks up a canonical name or alias ("float32", "float", "torch.float" is NOT
 * accepted: strip "torch." first). Returns the dtype, or TSR_DTYPE_UNDEFINED
 * without recording an error. */
tsr_dtype tsr_dtype_from_name(const char *name);
/* Looks up a legacy tensor type name "FloatTensor" / storage "FloatStorage";
 * TSR_DTYPE_UNDEFINED if unknown (no error recorded). */
tsr_dtype tsr_dtype_from_tensor_type(const char *name);
tsr_dtype tsr_dtype_from_storage_type(const char *name);
/* Dense index 0..12 of a dtype in list order (BFLOAT16 → 12), -1 if invalid;
 * and back. For compact tables. */
int tsr_dtype_index(tsr_dtype d);
tsr_dtype tsr_dtype_at_index(int i);

/* torch.finfo / torch.iinfo. Complex dtypes give their real part's finfo (as
 * torch.finfo does). Return 0, or -1 with TypeError:
 * finfo of a non-float: "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'"
 * iinfo of bool/float: "torch.bool is not supported by torch.iinfo" (see dtype.c for the exact texts). */
typedef struct { int bits; double eps, max, min, tiny, smallest_normal, resolution; tsr_dtype dtype; } tsr_finfo;
typedef struct { int bits; int64_t min; uint64_t max; tsr_dtype dtype; } tsr_iinfo;
int tsr_dtype_finfo(tsr_dtype d, tsr_finfo *out);
int tsr_dtype_iinfo(tsr_dtype d, tsr_iinfo *out);

/* Default dtype (torch.get/set_default_dtype); float32 initially. set returns
 * -1 with TypeError "only floating-point types are supported as the default type"
 * for non-floating dtypes. Process-global. */
tsr_dtype tsr_default_dtype(void);
int tsr_set_default_dtype(tsr_dtype d);

/* 16-bit float conversions (round to nearest even; NaN and inf kept). */
float tsr_half_to_float(tsr_half h);
tsr_half tsr_float_to_half(float f);
tsr_half tsr_double_to_half(double d);            /* as PyTorch: see dtype.c */
float tsr_bfloat16_to_float(tsr_bfloat16 b);
tsr_bfloat16 tsr_float_to_bfloat16(float f);
tsr_bfloat16 tsr_double_to_bfloat16(double d);

#endif
