/* runtime/promote.c — promote_types (a literal transcription of c10's
 * _promoteTypesLookup in c10/core/ScalarType.h), result_type with its three
 * tiers (aten/src/ATen/native/TypeProperties.cpp) and c10::canCast.
 * Rule that is not obvious: a lower tier only matters when its CATEGORY is
 * higher, and then it contributes its own dtype (SEMANTICS.md §1.3). */
#include "promote.h"
#include "error.h"

#define u1 TSR_UINT8
#define i1 TSR_INT8
#define i2 TSR_INT16
#define i4 TSR_INT32
#define i8 TSR_INT64
#define f2 TSR_FLOAT16
#define f4 TSR_FLOAT32
#define f8 TSR_FLOAT64
#define c2 TSR_COMPLEX32
#define c4 TSR_COMPLEX64
#define c8 TSR_COMPLEX128
#define b1 TSR_BOOL
#define bf TSR_BFLOAT16
#define ud TSR_DTYPE_UNDEFINED
/* Indexed by c10 ScalarType number (tsr_dtype); rows 12..14 are the quantized
 * types, which tsr does not have. ORDER DTYPE */
static const tsr_dtype promote_table[TSR_DTYPE_SLOTS][TSR_DTYPE_SLOTS] = {
    /*        u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  q1  q2  q3  bf*/
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, ud, ud, ud, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, ud, ud, ud, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, ud, ud, ud, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, ud, ud, ud, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, ud, ud, ud, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, ud, ud, ud, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, ud, ud, ud, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, ud, ud, ud, f8},
    /* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, ud, ud, ud, c4},
    /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, ud, ud, ud, c4},
    /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, ud, ud, ud, c8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, ud, ud, ud, bf},
    /* q1 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
    /* q2 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
    /* q3 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, ud, ud, ud, bf},
};
_Static_assert(sizeof promote_table / sizeof promote_table[0] == TSR_DTYPE_SLOTS, "promote_table rows");
_Static_assert(sizeof promote_table[0] / sizeof promote_table[0][0] == TSR_DTYPE_SLOTS, "promote_table cols");
_Static_assert(TSR_BFLOAT16 == 15 && TSR_BOOL == 11 && TSR_COMPLEX32 == 8, "ScalarType numbering");
#undef u1
#undef i1
#undef i2
#undef i4
#undef i8
#undef f2
#undef f4
#undef f8
#undef c2
#undef c4
#undef c8
#undef b1
#undef bf
#undef ud

tsr_dtype tsr_promote_types(tsr_dtype a, tsr_dtype b)
{
    if (!tsr_dtype_valid(a) || !tsr_dtype_valid(b)) return TSR_DTYPE_UNDEFINED;
    return promote_table[a][b];
}

tsr_dtype tsr_promote_types_checked(tsr_dtype a, tsr_dtype b)
{
    tsr_dtype r = tsr_promote_types(a, b);
    if (r == TSR_DTYPE_UNDEFINED)
        tsr_error_set(TSR_ERR_RUNTIME, "Promotion from %s and %s is unsupported.",
                      tsr_dtype_valid(a) ? tsr_dtype_scalar_name(a) : "Undefined",
                      tsr_dtype_valid(b) ? tsr_dtype_scalar_name(b) : "Undefined");
    return r;
}

bool tsr_can_cast(tsr_dtype from, tsr_dtype to)
{
    if (tsr_dtype_is_complex(from) && !tsr_dtype_is_complex(to)) return false;
    if (tsr_dtype_is_floating(from) && tsr_dtype_is_integral(to, false)) return false;
    if (from != TSR_BOOL && to == TSR_BOOL) return false;
    return true;
}

tsr_dtype tsr_default_complex_dtype(void)
{
    /* c10::toComplexType of the default dtype (bfloat16 has none: complex64) */
    tsr_dtype c = tsr_dtype_to_complex(tsr_default_dtype());
    return c == TSR_DTYPE_UNDEFINED ? TSR_COMPLEX64 : c;
}

static const char *const tier_names[TSR_TIER_COUNT] = {
    "dimensioned tensor", "zero-dim tensor", "Python scalar",
};
_Static_assert(sizeof tier_names / sizeof tier_names[0] == TSR_TIER_COUNT, "ORDER TIER");

const char *tsr_tier_name(tsr_tier t) { return (unsigned)t < TSR_TIER_COUNT ? tier_names[t] : "?"; }

static const char *const category_names[] = { "bool", "integral", "floating", "complex" };
_Static_assert(sizeof category_names / sizeof category_names[0] == TSR_CAT_COMPLEX + 1, "ORDER CATEGORY");

const char *tsr_category_name(tsr_category c) { return (unsigned)c <= TSR_CAT_COMPLEX ? category_names[c] : "?"; }

tsr_category tsr_dtype_category(tsr_dtype d)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(d);
    return tr ? tr->category : TSR_CAT_BOOL;
}

static const char *const rule_texts[TSR_RULE_COUNT] = {
    "no operands",
    "one tier only: promote_types over its operands",
    "lower tiers are not of a higher category, so the higher tier's dtype stands",
    "a lower tier has a higher category and contributes its own dtype",
    "a complex lower tier over a floating higher tier gives the complex type of that float",
    "the higher tier is bool, so it is promoted with the lower tier's dtype",
};
_Static_assert(sizeof rule_texts / sizeof rule_texts[0] == TSR_RULE_COUNT, "ORDER RULE");

const char *tsr_promo_rule_text(tsr_promo_rule r) { return (unsigned)r < TSR_RULE_COUNT ? rule_texts[r] : "?"; }

tsr_dtype tsr_scalar_dtype(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL: return TSR_BOOL;
    case TSR_SCALAR_INT: return TSR_INT64;
    case TSR_SCALAR_FLOAT: return TSR_FLOAT64;
    default: return TSR_COMPLEX128;
    }
}

tsr_tier tsr_operand_tier(const tsr_operand *o)
{
    if (!o->t || o->t->wrapped_number) return TSR_TIER_WRAPPED;
    return o->t->ndim > 0 ? TSR_TIER_DIM : TSR_TIER_ZERO_DIM;
}

tsr_dtype tsr_operand_dtype(const tsr_operand *o)
{
    return o->t ? o->t->dtype : tsr_scalar_dtype(o->s);
}

tsr_dtype tsr_operand_promo_dtype(const tsr_operand *o)
{
    if (o->t && o->t->wrapped_number)   /* float64 / complex128 count as the default dtypes */
        return o->t->dtype == TSR_FLOAT64 ? tsr_default_dtype()
             : o->t->dtype == TSR_COMPLEX128 ? tsr_default_complex_dtype() : o->t->dtype;
    if (o->t) return o->t->dtype;
    switch (o->s.kind) {
    case TSR_SCALAR_FLOAT: return tsr_default_dtype();
    case TSR_SCALAR_COMPLEX: return tsr_default_complex_dtype();
    default: return tsr_scalar_dtype(o->s);
    }
}

static tsr_dtype promote_skip_undef(tsr_dtype a, tsr_dtype b)
{
    if (a == TSR_DTYPE_UNDEFINED) return b;
    if (b == TSR_DTYPE_UNDEFINED) return a;
    return tsr_promote_types(a, b);
}

/* combine_categories(higher, lower); *rule says why, *from_lower whether the
 * lower side decided (its dtype or its category). */
static tsr_dtype combine(tsr_dtype h, tsr_dtype l, tsr_promo_rule *rule, bool *from_lower)
{
    *from_lower = false;
    if (h == TSR_DTYPE_UNDEFINED || l == TSR_DTYPE_UNDEFINED) {
        *rule = TSR_RULE_SAME_TIER;
        *from_lower = h == TSR_DTYPE_UNDEFINED;
        return h == TSR_DTYPE_UNDEFINED ? l : h;
    }
    *rule = TSR_RULE_HIGHER_TIER;
    if (tsr_dtype_is_complex(h)) return h;
    if (tsr_dtype_is_complex(l)) {
        *from_lower = true;
        if (tsr_dtype_is_floating(h)) {
            *rule = TSR_RULE_TO_COMPLEX;
            return h == TSR_BFLOAT16 ? TSR_COMPLEX64 : tsr_dtype_to_complex(h);   /* float16 → complex32 */
        }
        *rule = TSR_RULE_LOWER_CATEGORY;
        return l;
    }
    if (tsr_dtype_is_floating(h)) return h;
    if (h == TSR_BOOL || tsr_dtype_is_floating(l)) {
        tsr_dtype r = promote_skip_undef(h, l);
        if (h == TSR_BOOL) {
            *rule = l == TSR_BOOL ? TSR_RULE_HIGHER_TIER : TSR_RULE_BOOL_PROMOTED;
            *from_lower = l != TSR_BOOL;
        } else {
            *rule = TSR_RULE_LOWER_CATEGORY;
            *from_lower = true;
        }
        return r;
    }
    return h;
}

tsr_dtype tsr_result_type(int n, const tsr_operand *ops, tsr_promotion *ex)
{
    tsr_promotion e = {0};
    e.result = TSR_DTYPE_UNDEFINED;
    e.deciding_operand = -1;
    for (int t = 0; t < TSR_TIER_COUNT; t++) e.tier_dtype[t] = TSR_DTYPE_UNDEFINED;
    for (int i = 0; i < n; i++) {
        tsr_tier t = tsr_operand_tier(&ops[i]);
        tsr_dtype d = tsr_operand_promo_dtype(&ops[i]);
        if (!ops[i].t && d != tsr_scalar_dtype(ops[i].s)) e.scalar_defaulted = true;
        e.tier_dtype[t] = promote_skip_undef(e.tier_dtype[t], d);
        e.tier_count[t]++;
    }
    if (n == 0) {
        e.rule = TSR_RULE_NONE;
        if (ex) *ex = e;
        return TSR_DTYPE_UNDEFINED;
    }
    tsr_promo_rule r_in, r_out;
    bool low_in, low_out;
    tsr_dtype inner = combine(e.tier_dtype[TSR_TIER_ZERO_DIM], e.tier_dtype[TSR_TIER_WRAPPED], &r_in, &low_in);
    e.result = combine(e.tier_dtype[TSR_TIER_DIM], inner, &r_out, &low_out);
    tsr_tier inner_tier = low_in ? TSR_TIER_WRAPPED : TSR_TIER_ZERO_DIM;
    e.deciding_tier = low_out ? inner_tier : TSR_TIER_DIM;
    /* The rule that matters is the outer one unless the outer side was empty. */
    e.rule = (r_out == TSR_RULE_SAME_TIER && low_out) ? r_in : r_out;
    if (r_out == TSR_RULE_HIGHER_TIER && inner != TSR_DTYPE_UNDEFINED && r_in != TSR_RULE_SAME_TIER)
        e.rule = TSR_RULE_HIGHER_TIER;
    tsr_dtype want = e.tier_dtype[e.deciding_tier];
    for (int i = 0; i < n; i++)
        if (tsr_operand_tier(&ops[i]) == e.deciding_tier && tsr_operand_promo_dtype(&ops[i]) == want) {
            e.deciding_operand = i;
            break;
        }
    for (int i = 0; i < n && e.deciding_operand < 0; i++)
        if (tsr_operand_tier(&ops[i]) == e.deciding_tier) e.deciding_operand = i;
    e.complex32 = e.result == TSR_COMPLEX32;
    if (ex) *ex = e;
    return e.result;
}

void tsr_promotion_table(int n, const tsr_dtype *order, tsr_dtype *promoted, bool *castable)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            promoted[i * n + j] = tsr_promote_types(order[i], order[j]);
            castable[i * n + j] = tsr_can_cast(order[i], order[j]);
        }
}
