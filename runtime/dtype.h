/* runtime/dtype.h — the dtype list (one X-macro that carries every trait), the
 * traits table generated from it, finfo/iinfo, and the float16/bfloat16
 * conversions. Enum values are c10's ScalarType numbers (c10/core/ScalarType.h),
 * so BFLOAT16 is 15 and 12..14 (quantized) are holes: size per-dtype arrays
 * with TSR_DTYPE_SLOTS, iterate with TSR_DTYPES. Only runtime/dtype.c
 * switches on a dtype; everyone else reads a trait. */
#ifndef TSR_DTYPE_H
#define TSR_DTYPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Storage types of the two 16-bit floats and of complex32. */
typedef uint16_t tsr_half;                        /* IEEE binary16 bits */
typedef uint16_t tsr_bfloat16;                    /* upper 16 bits of a float */
typedef struct { tsr_half re, im; } tsr_chalf;    /* complex32 */
typedef float _Complex tsr_cfloat;
typedef double _Complex tsr_cdouble;

typedef enum { TSR_CAT_BOOL, TSR_CAT_INTEGRAL, TSR_CAT_FLOATING, TSR_CAT_COMPLEX } tsr_category;

/* One row per dtype in ScalarType order; the columns are, in order:
 *   ID, number     TSR_<ID> = c10::ScalarType number
 *   name, alias    what torch.<name> prints ("float32"), and its other attribute name or NULL
 *   kname          the identifier kernels are suffixed with (loops.h: add_float32; bool is "boolean")
 *   sname          ScalarType name: '"add_cpu" not implemented for 'Float''; <sname>Tensor/Storage
 *   T, C, CD, R    storage C type; compute type (float for the halves, int64_t for
 *                  integers) as C type and as dtype ID; real part of the compute type
 *   A, AD          at::acc_type<T, false> (CPU) as C type and as dtype ID
 *   cat            category: BOOL, INTEGRAL, FLOATING or COMPLEX (TSR_CAT_<cat>)
 *   cxx            the C++ type fill_/full check a value against ("value cannot be converted
 *                  to type int8_t without overflow"; complex32's kernel converts to complex<float>)
 *   typemeta       caffe2::TypeMeta's name ("long int", "c10::Half")
 *   shortn         the short name of :table ("f32")
 *   LD, ST         load (T, C, p) → compute value / store (T, p, compute value)
 *   RE, CX         c10::toRealValueType / toComplexType as IDs (DTYPE_UNDEFINED: none)
 *   method         the Tensor method that casts to it (x.byte(), x.cfloat())
 * ORDER DTYPE */
#define TSR_DTYPES(X) TSR_DTYPE_LIST(TSR_DTYPE_CALL, X)
#define TSR_DTYPE_CALL(X, ...) X(__VA_ARGS__)
/* The list proper: M(A, <row>) per dtype, so that a caller can hand every row
 * an extra argument A (runtime/ops/loops.h builds its families this way). */
#define TSR_DTYPE_LIST(M, A)                                                                                                           \
    M(A, UINT8,      0,  "uint8",      NULL,      uint8,      Byte,                                                                    \
         uint8_t,      int64_t,     INT64,      int64_t, int64_t,     INT64,      INTEGRAL,                                            \
         "uint8_t",              "unsigned char",           "u8",   TSR_LD_PLAIN, TSR_ST_PLAIN, UINT8,    DTYPE_UNDEFINED, "byte")     \
    M(A, INT8,       1,  "int8",       NULL,      int8,       Char,                                                                    \
         int8_t,       int64_t,     INT64,      int64_t, int64_t,     INT64,      INTEGRAL,                                            \
         "int8_t",               "signed char",             "i8",   TSR_LD_PLAIN, TSR_ST_PLAIN, INT8,     DTYPE_UNDEFINED, "char")     \
    M(A, INT16,      2,  "int16",      "short",   int16,      Short,                                                                   \
         int16_t,      int64_t,     INT64,      int64_t, int64_t,     INT64,      INTEGRAL,                                            \
         "int16_t",              "short int",               "i16",  TSR_LD_PLAIN, TSR_ST_PLAIN, INT16,    DTYPE_UNDEFINED, "short")    \
    M(A, INT32,      3,  "int32",      "int",     int32,      Int,                                                                     \
         int32_t,      int64_t,     INT64,      int64_t, int64_t,     INT64,      INTEGRAL,                                            \
         "int",                  "int",                     "i32",  TSR_LD_PLAIN, TSR_ST_PLAIN, INT32,    DTYPE_UNDEFINED, "int")      \
    M(A, INT64,      4,  "int64",      "long",    int64,      Long,                                                                    \
         int64_t,      int64_t,     INT64,      int64_t, int64_t,     INT64,      INTEGRAL,                                            \
         "int64_t",              "long int",                "i64",  TSR_LD_PLAIN, TSR_ST_PLAIN, INT64,    DTYPE_UNDEFINED, "long")     \
    M(A, FLOAT16,    5,  "float16",    "half",    float16,    Half,                                                                    \
         tsr_half,     float,       FLOAT32,    float,   float,       FLOAT32,    FLOATING,                                            \
         "at::Half",             "c10::Half",               "f16",  TSR_LD_HALF,  TSR_ST_HALF,  FLOAT16,  COMPLEX32,       "half")     \
    M(A, FLOAT32,    6,  "float32",    "float",   float32,    Float,                                                                   \
         float,        float,       FLOAT32,    float,   double,      FLOAT64,    FLOATING,                                            \
         "float",                "float",                   "f32",  TSR_LD_PLAIN, TSR_ST_PLAIN, FLOAT32,  COMPLEX64,       "float")    \
    M(A, FLOAT64,    7,  "float64",    "double",  float64,    Double,                                                                  \
         double,       double,      FLOAT64,    double,  double,      FLOAT64,    FLOATING,                                            \
         "double",               "double",                  "f64",  TSR_LD_PLAIN, TSR_ST_PLAIN, FLOAT64,  COMPLEX128,      "double")   \
    M(A, COMPLEX32,  8,  "complex32",  "chalf",   complex32,  ComplexHalf,                                                             \
         tsr_chalf,    tsr_cfloat,  COMPLEX64,  float,   tsr_cfloat,  COMPLEX64,  COMPLEX,                                             \
         "c10::complex<float>",  "c10::complex<c10::Half>", "c32",  TSR_LD_CHALF, TSR_ST_CHALF, FLOAT16,  COMPLEX32,       "chalf")    \
    M(A, COMPLEX64,  9,  "complex64",  "cfloat",  complex64,  ComplexFloat,                                                            \
         tsr_cfloat,   tsr_cfloat,  COMPLEX64,  float,   tsr_cdouble, COMPLEX128, COMPLEX,                                             \
         "c10::complex<float>",  "c10::complex<float>",     "c64",  TSR_LD_PLAIN, TSR_ST_PLAIN, FLOAT32,  COMPLEX64,       "cfloat")   \
    M(A, COMPLEX128, 10, "complex128", "cdouble", complex128, ComplexDouble,                                                           \
         tsr_cdouble,  tsr_cdouble, COMPLEX128, double,  tsr_cdouble, COMPLEX128, COMPLEX,                                             \
         "c10::complex<double>", "c10::complex<double>",    "c128", TSR_LD_PLAIN, TSR_ST_PLAIN, FLOAT64,  COMPLEX128,      "cdouble")  \
    M(A, BOOL,       11, "bool",       NULL,      boolean,    Bool,                                                                    \
         bool,         bool,        BOOL,       bool,    bool,        BOOL,       BOOL,                                                \
         "bool",                 "bool",                    "bool", TSR_LD_BOOL,  TSR_ST_BOOL,  BOOL,     DTYPE_UNDEFINED, "bool")     \
    M(A, BFLOAT16,   15, "bfloat16",   NULL,      bfloat16,   BFloat16,                                                                \
         tsr_bfloat16, float,       FLOAT32,    float,   float,       FLOAT32,    FLOATING,                                            \
         "at::BFloat16",         "c10::BFloat16",           "bf16", TSR_LD_BF16,  TSR_ST_BF16,  BFLOAT16, DTYPE_UNDEFINED, "bfloat16")

typedef enum {
#define TSR_X_ENUM(ID, num, ...) TSR_##ID = num,
    TSR_DTYPES(TSR_X_ENUM)
#undef TSR_X_ENUM
    TSR_DTYPE_UNDEFINED = -1
} tsr_dtype;

#define TSR_NDTYPES 13        /* real dtypes */
#define TSR_DTYPE_SLOTS 16    /* size of arrays indexed by tsr_dtype */

/* One dtype's traits; the load/store functions convert as c10::convert /
 * static_cast do in 1.13 on x86 (see runtime/scalar.c for the rules): a
 * complex value read as double or int64 gives its real part; a double stored
 * into a narrow integer goes through a 32-bit convert and wraps, into int64
 * through a 64-bit one (out of range or NaN → INT64_MIN); an int64 stored into
 * float goes straight to float (no double step); bool stores x != 0. */
typedef struct {
    const char *name;          /* "float32" (PyTorch repr without "torch.") */
    const char *alias;         /* "float" or NULL */
    const char *scalar_name;   /* "Float": what C++ error messages print */
    const char *tensor_type;   /* "FloatTensor" (x.type() is "torch." + this) */
    const char *storage_type;  /* "FloatStorage" */
    const char *cxx_name;      /* "int8_t", "at::Half": c10::checked_convert's messages */
    const char *typemeta_name; /* "signed char", "c10::Half": caffe2::TypeMeta */
    const char *short_name;    /* "i8", "f16": the :table headings */
    const char *method;        /* "byte", "cfloat": the Tensor cast method */
    int itemsize;              /* bytes */
    tsr_category category;
    bool is_signed;            /* false only for bool and uint8 */
    tsr_dtype number;          /* == its own enum value; NULL name marks a hole */
    tsr_dtype compute;         /* what kernels compute in: int64, float for the halves, complex64 for complex32 */
    tsr_dtype acc;             /* at::acc_type on CPU */
    tsr_dtype to_real;         /* complex → its real part's dtype; others themselves */
    tsr_dtype to_complex;      /* float16/32/64 → complex32/64/128; complex itself; else UNDEFINED */
    double (*load_double)(const void *p);
    double _Complex (*load_complex)(const void *p);
    int64_t (*load_int64)(const void *p);   /* floats: truncated as x86 does */
    void (*store_double)(void *p, double v);
    void (*store_complex)(void *p, double _Complex v);
    void (*store_int64)(void *p, int64_t v);
} tsr_dtype_traits;

/* Traits of a valid dtype (borrowed, static); NULL for a hole or out of range. */
const tsr_dtype_traits *tsr_dtype_traits_of(tsr_dtype d);
/* The traits table itself, indexed by dtype (holes have name NULL): read it
 * through the functions here; it is exported only so that the hottest
 * predicates below inline into the kernels' callers. */
extern const tsr_dtype_traits tsr__dtype_traits[TSR_DTYPE_SLOTS];
/* true for the 13 defined dtypes. */
static inline bool tsr_dtype_valid(tsr_dtype d)
{
    return (unsigned)d < TSR_DTYPE_SLOTS && tsr__dtype_traits[d].name != 0;
}
const char *tsr_dtype_name(tsr_dtype d);          /* "float32"; "undefined" if invalid */
const char *tsr_dtype_scalar_name(tsr_dtype d);   /* "Float" */
/* A CPU tensor's type as ATen's messages name it once Python has translated
 * them (torch/csrc/Exceptions.cpp): "torch.FloatTensor" for the eight legacy
 * tensor types (Byte, Char, Short, Int, Long, Half, Float, Double),
 * "CPUBFloat16Type" / "CPUBoolType" / "CPUComplexFloatType" otherwise. buf. */
const char *tsr_dtype_aten_type_string(tsr_dtype d, char *buf, size_t n);
/* caffe2::TypeMeta's name ("float", "long int", "c10::Half"): what some
 * C++ messages print (TensorOptions, lerp, random_ bounds). */
const char *tsr_dtype_typemeta_name(tsr_dtype d);
static inline int tsr_dtype_itemsize(tsr_dtype d) { return tsr_dtype_valid(d) ? tsr__dtype_traits[d].itemsize : 0; }
/* float16/32/64, bfloat16 */
static inline bool tsr_dtype_is_floating(tsr_dtype d)
{
    return tsr_dtype_valid(d) && tsr__dtype_traits[d].category == TSR_CAT_FLOATING;
}
static inline bool tsr_dtype_is_complex(tsr_dtype d)
{
    return tsr_dtype_valid(d) && tsr__dtype_traits[d].category == TSR_CAT_COMPLEX;
}
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
