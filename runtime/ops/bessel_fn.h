/* runtime/ops/bessel_fn.h — private to bessel.c: the scalar bodies of
 * aten/src/ATen/native/Math.h (1.13), written once and included once per
 * instantiation with BT (float or double), BS (name suffix), BATTR (function
 * attributes), BFLOAT (1 for float) and BFUSE (1 in the FMA build); it
 * undefines them at its end. Expressions keep Math.h's shape and
 * mixed precision (a double 0.5 or M_PI stays double) so that, built with FMA,
 * the compiler fuses the same multiply-adds 1.13's AVX2 build fuses. */
#define FN(name) FN_(name, BS)
#define FN_(name, s) FN__(name, s)
#define FN__(name, s) name##_##s
#define K(A, i) ((BT)(A)[i])
/* MA(a, b, c): a * b + c, fused in the FMA build where the compiler that
 * built 1.13 fused it but ours, seeing other statement orders, would not. */
#if BFUSE
#define MA(a, b, c) fma(a, b, c)
#else
#define MA(a, b, c) ((a) * (b) + (c))
#endif

/* Cephes chbevl: Chebyshev series of len coefficients at x/2. */
BATTR static inline BT FN(chbevl)(BT x, const double *array, int len)
{
    BT b0 = K(array, 0), b1 = 0, b2 = 0;
    for (int i = 1; i < len; i++) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + K(array, i);
    }
    return (BT)0.5 * (b0 - b2);
}

/* calc_i0 (torch.i0): the i0e coefficients times exp(x). */
BATTR static inline BT FN(calc_i0)(BT x_)
{
    BT x = fabs(x_);
    if (x <= (BT)8.0) {
        BT y = (x / (BT)2.0) - (BT)2.0;
        return exp(x) * FN(chbevl)(y, I0_A, 30);
    }
    return exp(x) * FN(chbevl)((BT)32.0 / x - (BT)2.0, I0_B, 25) / sqrt(x);
}

/* calc_i0e (special.i0e), the jiterator string's template: its unqualified
 * sqrt is ::sqrt(double), so float divides in double. */
BATTR static inline BT FN(calc_i0e)(BT x_)
{
    BT x = fabs(x_);
    if (x <= (BT)8.0) {
        BT y = (x / (BT)2.0) - (BT)2.0;
        return FN(chbevl)(y, I0_A, 30);
    }
    return FN(chbevl)((BT)32.0 / x - (BT)2.0, I0_B, 25) / sqrt((double)x);
}

/* calc_i1 / calc_i1e: float uses the shorter series of Math.h's float
 * coefficient tables (the last 17 and 7 terms). */
#if BFLOAT
#define I1_A_T (I1_A + 12), 17
#define I1_B_T (I1_B + 18), 7
#else
#define I1_A_T I1_A, 29
#define I1_B_T I1_B, 25
#endif
BATTR static inline BT FN(calc_i1)(BT x_)
{
    BT x = fabs(x_);
    if (x <= (BT)8.0) {
        BT y = (x / (BT)2.0) - (BT)2.0;
        const BT out = exp(x) * x * FN(chbevl)(y, I1_A_T);
        return (x_ < (BT)0.0) ? -out : out;
    }
    const BT out = (exp(x) * FN(chbevl)((BT)32.0 / x - (BT)2.0, I1_B_T)) / sqrt(x);
    return (x_ < (BT)0.0) ? -out : out;
}

BATTR static inline BT FN(calc_i1e)(BT x_)
{
    BT x = fabs(x_);
    if (x <= (BT)8.0) {
        BT y = (x / (BT)2.0) - (BT)2.0;
        const BT out = FN(chbevl)(y, I1_A_T) * x;
        return (x_ < (BT)0.0) ? -out : out;
    }
    const BT out = FN(chbevl)((BT)32.0 / x - (BT)2.0, I1_B_T) / sqrt(x);
    return (x_ < (BT)0.0) ? -out : out;
}
#undef I1_A_T
#undef I1_B_T

/* Horner steps of Math.h's loops: acc = acc * z + C[i] from acc = 0. */
#define HORNER(acc, C, n, z) do { acc = 0.0; for (int i_ = 0; i_ < (n); i_++) acc = acc * (z) + K(C, i_); } while (0)

BATTR static BT FN(airy_ai)(BT x)
{
    int domain_flag = 0;
    BT ai = 0;
    if (isinf(x)) return NAN;
    if (x > (BT)103.892) return (BT)0.0;
    BT f, g, k;
    if (x < (BT)-2.09) {
        BT z = (BT)1.0 / ((BT)-2.0 * x * sqrt(-x) / (BT)3.0);
        BT afn, afd, agn, agd;
        HORNER(afn, AI_AFN, 9, (z * z));
        HORNER(afd, AI_AFD, 9, (z * z));
        HORNER(agn, AI_AGN, 11, (z * z));
        HORNER(agd, AI_AGD, 10, (z * z));
        BT t = (BT)-2.0 * x * sqrt(-x) / (BT)3.0 + (BT)0.25 * M_PI;
        return (BT)5.64189583547756286948e-01 / sqrt(sqrt(-x)) *
               (sin(t) * ((BT)1.0 + z * z * afn / afd) - cos(t) * (z * agn / agd));
    }
    if (x >= (BT)2.09) {
        domain_flag = 5;
        BT zeta = (BT)2.0 * x * sqrt(x) / (BT)3.0;
        BT an, ad;
        HORNER(an, AI_AN, 8, ((BT)1.0 / zeta));
        HORNER(ad, AI_AD, 8, ((BT)1.0 / zeta));
        ai = (BT)5.64189583547756286948e-01 * (an / ad) / ((BT)2.0 * sqrt(sqrt(x)) * exp(zeta));
        if (x > (BT)8.3203353) return ai;
    }
    f = 1.0;
    g = x;
    k = 1.0;
    BT m = 1.0, n = x, t = 1.0, z = x * x * x;
    while (t > (BFLOAT ? FLT_EPSILON : DBL_EPSILON)) {
        m *= z;
        k += (BT)1.0;
        m /= k;
        n *= z;
        k += (BT)1.0;
        n /= k;
        m /= k;
        f += m;
        k += (BT)1.0;
        n /= k;
        g += n;
        t = fabs(m / f);
    }
    if ((domain_flag & 1) == 0) return (BT)0.355028053887817239260 * f - (BT)0.258819403792806798405 * g;
    return ai;
}

BATTR static BT FN(bessel_j0)(BT x)
{
    if (x < (BT)0) x = -x;
    if (x <= (BT)5.0) {
        if (x < (BT)0.00001) return (BT)1.0 - x * x / (BT)4.0;
        BT rp, rq;
        HORNER(rp, J0_RP, 4, (x * x));
        HORNER(rq, J0_RQ, 8, (x * x));
        return (x * x - (BT)5.78318596294678452118e+00) * (x * x - (BT)3.04712623436620863991e+01) * rp / rq;
    }
    BT pp, pq, qp, qq;
    HORNER(pp, J0_PP, 7, ((BT)25.0 / (x * x)));
    HORNER(pq, J0_PQ, 7, ((BT)25.0 / (x * x)));
    HORNER(qp, J0_QP, 8, ((BT)25.0 / (x * x)));
    HORNER(qq, J0_QQ, 7, ((BT)25.0 / (x * x)));
    return (pp / pq * cos(x - (BT)0.785398163397448309615660845819875721) -
            (BT)5.0 / x * (qp / qq) * sin(x - (BT)0.785398163397448309615660845819875721)) *
           (BT)0.797884560802865355879892119868763737 / sqrt(x);
}

BATTR static BT FN(bessel_j1)(BT x)
{
    if (x < (BT)0.0) return -FN(bessel_j1)(-x);
    if (x <= (BT)5.0) {
        BT rp, rq;
        HORNER(rp, J1_RP, 4, (x * x));
        HORNER(rq, J1_RQ, 8, (x * x));
        return rp / rq * x * (x * x - (BT)1.46819706421238932572e+01) * (x * x - (BT)4.92184563216946036703e+01);
    }
    BT pp, pq, qp, qq;
    HORNER(pp, J1_PP, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(pq, J1_PQ, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(qp, J1_QP, 8, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(qq, J1_QQ, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    return (pp / pq * cos(x - (BT)2.356194490192344928846982537459627163) -
            (BT)5.0 / x * (qp / qq) * sin(x - (BT)2.356194490192344928846982537459627163)) *
           (BT)0.797884560802865355879892119868763737 / sqrt(x);
}

BATTR static BT FN(bessel_y0)(BT x)
{
    if (x <= (BT)5.0) {
        if (x == (BT)0.0) return -INFINITY;
        if (x < (BT)0.0) return NAN;
        BT yp, yq;
        HORNER(yp, Y0_YP, 8, (x * x));
        HORNER(yq, Y0_YQ, 7, (x * x));
        return yp / yq + ((BT)0.636619772367581343075535053490057448 * log(x) * FN(bessel_j0)(x));
    }
    BT pp, pq, qp, qq;
    HORNER(pp, J0_PP, 7, ((BT)25.0 / (x * x)));
    HORNER(pq, J0_PQ, 7, ((BT)25.0 / (x * x)));
    HORNER(qp, J0_QP, 8, ((BT)25.0 / (x * x)));
    HORNER(qq, J0_QQ, 7, ((BT)25.0 / (x * x)));
    return (pp / pq * sin(x - (BT)0.785398163397448309615660845819875721) +
            (BT)5.0 / x * (qp / qq) * cos(x - (BT)0.785398163397448309615660845819875721)) *
           (BT)0.797884560802865355879892119868763737 / sqrt(x);
}

BATTR static BT FN(bessel_y1)(BT x)
{
    if (x <= (BT)5.0) {
        if (x == (BT)0.0) return -INFINITY;
        if (x <= (BT)0.0) return NAN;
        BT yp, yq;
        HORNER(yp, Y1_YP, 6, (x * x));
        HORNER(yq, Y1_YQ, 8, (x * x));
        return MA((BT)0.636619772367581343075535053490057448, MA(FN(bessel_j1)(x), log(x), -((BT)1.0 / x)),
                  x * (yp / yq));
    }
    BT pp, pq, qp, qq;
    HORNER(pp, J1_PP, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(pq, J1_PQ, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(qp, J1_QP, 8, ((BT)5.0 / x * ((BT)5.0 / x)));
    HORNER(qq, J1_QQ, 7, ((BT)5.0 / x * ((BT)5.0 / x)));
    return (pp / pq * sin(x - (BT)2.356194490192344928846982537459627163) +
            (BT)5.0 / x * (qp / qq) * cos(x - (BT)2.356194490192344928846982537459627163)) *
           (BT)0.797884560802865355879892119868763737 / sqrt(x);
}

/* The Clenshaw steps of the modified Bessel functions: p, q, a as Math.h
 * names them, y the series argument. */
#define CLENSHAW(a, p, q, C, n, y) do {                                      \
        a = K(C, 0);                                                         \
        for (int i_ = 1; i_ < (n); i_++) { p = q; q = a; a = (y) * q - p + K(C, i_); } \
    } while (0)

BATTR static BT FN(mod_i0)(BT x)
{
    BT p = 0, q = 0.0, a;
    if (fabs(x) <= (BT)8.0) {
        CLENSHAW(a, p, q, I0_A, 30, ((fabs(x) / (BT)2.0) - (BT)2.0));
        return exp(fabs(x)) * ((BT)0.5 * (a - p));
    }
    CLENSHAW(a, p, q, I0_B, 25, ((BT)32.0 / fabs(x) - (BT)2.0));
    return exp(fabs(x)) * ((BT)0.5 * (a - p)) / sqrt(fabs(x));
}

BATTR static BT FN(mod_i1)(BT x)
{
    BT p = 0, q = 0.0, a;
    if (fabs(x) <= (BT)8.0) {
        CLENSHAW(a, p, q, I1_A, 29, ((fabs(x) / (BT)2.0) - (BT)2.0));
        if (x < (BT)0.0) return -((BT)0.5 * (a - p) * fabs(x) * exp(fabs(x)));
        return (BT)0.5 * (a - p) * fabs(x) * exp(fabs(x));
    }
    CLENSHAW(a, p, q, I1_B, 25, ((BT)32.0 / fabs(x) - (BT)2.0));
    if (x < (BT)0.0) return -(exp(fabs(x)) * ((BT)0.5 * (a - p)) / sqrt(fabs(x)));
    return exp(fabs(x)) * ((BT)0.5 * (a - p)) / sqrt(fabs(x));
}

/* k0's small branch takes log(0.5 * x) in double (Math.h's 0.5 literal). */
BATTR static BT FN(mod_k0)(BT x)
{
    if (x == (BT)0.0) return INFINITY;
    if (x < (BT)0.0) return NAN;
    BT p = 0, q = 0.0, a;
    if (x <= (BT)2.0) {
        CLENSHAW(a, p, q, K0_A, 10, (x * x - (BT)2.0));
        return MA(-log(0.5 * x), (double)FN(mod_i0)(x), (double)((BT)0.5 * (a - p)));
    }
    CLENSHAW(a, p, q, K0_B, 25, ((BT)8.0 / x - (BT)2.0));
    return exp(-x) * ((BT)0.5 * (a - p)) / sqrt(x);
}

BATTR static BT FN(mod_k1)(BT x)
{
    if (x == (BT)0.0) return INFINITY;
    if (x < (BT)0.0) return NAN;
    BT p = 0, q = 0.0, a;
    if (x <= (BT)2.0) {
        CLENSHAW(a, p, q, K1_A, 11, (x * x - (BT)2.0));
        return log((BT)0.5 * x) * FN(mod_i1)(x) + (BT)0.5 * (a - p) / x;
    }
    CLENSHAW(a, p, q, K1_B, 25, ((BT)8.0 / x - (BT)2.0));
    return exp(-x) * ((BT)0.5 * (a - p)) / sqrt(x);
}

BATTR static BT FN(scaled_k0)(BT x)
{
    if (x == (BT)0.0) return INFINITY;
    if (x < (BT)0.0) return NAN;
    BT p = 0, q = 0.0, a;
    if (x <= (BT)2.0) {
        CLENSHAW(a, p, q, K0_A, 10, (x * x - (BT)2.0));
        return MA(-log((BT)0.5 * x), FN(mod_i0)(x), (BT)0.5 * (a - p)) * exp(x);
    }
    CLENSHAW(a, p, q, K0_B, 25, ((BT)8.0 / x - (BT)2.0));
    return (BT)0.5 * (a - p) / sqrt(x);
}

BATTR static BT FN(scaled_k1)(BT x)
{
    if (x == (BT)0.0) return INFINITY;
    if (x < (BT)0.0) return NAN;
    BT p = 0, q = 0.0, a;
    if (x <= (BT)2.0) {
        CLENSHAW(a, p, q, K1_A, 11, (x * x - (BT)2.0));
        return (log((BT)0.5 * x) * FN(mod_i1)(x) + (BT)0.5 * (a - p) / x) * exp(x);
    }
    CLENSHAW(a, p, q, K1_B, 25, ((BT)8.0 / x - (BT)2.0));
    return ((BT)0.5 * (a - p) / sqrt(x));
}

BATTR static BT FN(spherical_j0)(BT x)
{
    if (isinf(x)) return (BT)0.0;
    if (fabs(x) < (BT)0.5)
        return (BT)1.0 + x * x * ((BT)-1.0 / (BT)6.0 + x * x * ((BT)1.0 / (BT)120.0 + x * x * ((BT)-1.0 / (BT)5040.0 +
               x * x * ((BT)1.0 / (BT)362880.0 + x * x * ((BT)-1.0 / (BT)39916800.0 + x * x * ((BT)1.0 / (BT)6227020800.0))))));
    return sin(x) / x;
}

#undef HORNER
#undef CLENSHAW
#undef FN
#undef FN_
#undef FN__
#undef K
#undef MA
#undef BT
#undef BS
#undef BFLOAT
#undef BATTR
#undef BFUSE
