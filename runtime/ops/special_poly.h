/* runtime/ops/special_poly.h — the orthogonal polynomials of torch.special
 * (Chebyshev T/U/V/W and their shifted forms, Hermite H/He, Laguerre L,
 * Legendre P), transcribed from 1.13's Math.h. No include guard: included by
 * special_math.h once per (T, ACC, F) instantiation. */

static T F(chebyshev_polynomial_t_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)1.0)) {
        if (x > ((T)0.0) || n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if ((n > 6) && (fabs(x) < ((T)1.0))) {
        return cos(n * acos(x));
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x;
    }

    T p = ((T)1.0);
    T q = x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(chebyshev_polynomial_t_forward)(T x, int64_t n)
static T F(chebyshev_polynomial_u_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)1.0)) {
        if (x > ((T)0.0) || n % 2 == 0) {
            return n + 1;
        }

        return -(n + 1);
    }

    if ((n > 8) && (fabs(x) < ((T)1.0))) {
        if (sin(acos(x)) != ((T)0.0)) {
            return sin((n + 1) * acos(x)) / sin(acos(x));
        }

        return (n + 1) * cos((n + 1) * acos(x)) / x;
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x;
    }

    T p = ((T)1.0);
    T q = x + x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(chebyshev_polynomial_u_forward)(T x, int64_t n)
static T F(chebyshev_polynomial_v_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)1.0)) {
        if (x > ((T)0.0)) {
            return ((T)1.0);
        }

        if (n % 2 == 0) {
            return n + n + 1;
        }

        return -(n + n + 1);
    }

    if ((n > 8) && (fabs(x) < ((T)1.0))) {
        if (sin(acos(x) / ((T)2.0)) != ((T)1.0)) {
            return cos((n + ((T)0.5)) * acos(x)) / cos(acos(x) / ((T)2.0));
        }

        if (n % 2 == 0) {
            return n + n + 1;
        }

        return -(n + n + 1);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x - ((T)1.0);
    }

    T p = ((T)1.0);
    T q = x + x - ((T)1.0);
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(chebyshev_polynomial_v_forward)(T x, int64_t n)
static T F(chebyshev_polynomial_w_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)1.0)) {
        if (x > ((T)0.0)) {
            return n + n + 1;
        }

        if (n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if ((n > 8) && (fabs(x) < ((T)1.0))) {
        if (cos(acos(x) / ((T)2.0)) != ((T)1.0)) {
            return sin((n + ((T)0.5)) * acos(x)) / sin(acos(x) / ((T)2.0));
        }

        if (x > ((T)0.0)) {
            return n + n + 1;
        }

        if (n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x + ((T)1.0);
    }

    T p = ((T)1.0);
    T q = x + x + ((T)1.0);
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(chebyshev_polynomial_w_forward)(T x, int64_t n)
static T F(hermite_polynomial_h_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x;
    }

    T p = ((T)1.0);
    T q = x + x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k < n + n; k += 2) {
        r = (x + x) * q - k * p;
        p = q;
        q = r;
    }

    return r;
} // F(hermite_polynomial_h_forward)(T x, int64_t n)
static T F(hermite_polynomial_he_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x;
    }

    T p = ((T)1.0);
    T q = x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 1; k < n; k++) {
        r = x * q - k * p;
        p = q;
        q = r;
    }

    return r;
} // F(hermite_polynomial_he_forward)(T x, int64_t n)
static T F(laguerre_polynomial_l_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)0.0)) {
        return ((T)1.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return ((T)1.0) - x;
    }

    T p = ((T)1.0);
    T q = ((T)1.0) - x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 1; k < n; k++) {
        r = (((k + k) + (((T)1.0) - x)) * q - k * p) / (k + 1);
        p = q;
        q = r;
    }

    return r;
} // F(laguerre_polynomial_l_forward)(T x, int64_t n)
static T F(legendre_polynomial_p_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (fabs(x) == ((T)1.0)) {
        if (x > ((T)0.0) || n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x;
    }

    T p = ((T)1.0);
    T q = x;
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 1; k < n; k++) {
        r = ((k + k + 1) * x * q - k * p) / (k + 1);
        p = q;
        q = r;
    }

    return r;
} // F(legendre_polynomial_p_forward)(T x, int64_t n)
static T F(shifted_chebyshev_polynomial_t_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (x == ((T)1.0)) {
        return ((T)1.0);
    }

    if (x == ((T)0.0)) {
        if (n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if ((n > 6) && (fabs(x + x - ((T)1.0)) < ((T)1.0))) {
        return cos(n * acos(x + x - ((T)1.0)));
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x - ((T)1.0);
    }

    T p = ((T)1.0);
    T q = x + x - ((T)1.0);
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x - ((T)1.0) + (x + x - ((T)1.0))) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(shifted_chebyshev_polynomial_t_forward)(T x, int64_t n)
static T F(shifted_chebyshev_polynomial_u_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (x == ((T)1.0)) {
        return n + 1;
    }

    if (x == ((T)0.0)) {
        if (n % 2 == 0) {
            return n + 1;
        }

        return -(n + 1);
    }

    if ((n > 6) && (fabs(x + x - ((T)1.0)) < ((T)1.0))) {
        if (sin(acos(x + x - ((T)1.0))) != ((T)0.0)) {
            return sin((n + 1) * acos(x + x - ((T)1.0))) / sin(acos(x + x - ((T)1.0)));
        }

        return (n + 1) * cos((n + 1) * acos(x + x - ((T)1.0))) / (x + x - ((T)1.0));
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x - ((T)1.0) + (x + x - ((T)1.0));
    }

    T p = ((T)1.0);
    T q = x + x - ((T)1.0) + (x + x - ((T)1.0));
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x - ((T)1.0) + (x + x - ((T)1.0))) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(shifted_chebyshev_polynomial_u_forward)(T x, int64_t n)
static T F(shifted_chebyshev_polynomial_v_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (x == ((T)1.0)) {
        return ((T)1.0);
    }

    if (x == ((T)0.0)) {
        if (n % 2 == 0) {
            return (n + n + 1);
        }

        return -(n + n + 1);
    }

    if ((n > 6) && (fabs(x + x - ((T)1.0)) < ((T)1.0))) {
        if (sin(acos(x + x - ((T)1.0)) / ((T)2.0)) != ((T)1.0)) {
            return cos(((n) + ((T)0.5)) * acos(x + x - ((T)1.0))) / cos(acos(x + x - ((T)1.0)) / ((T)2.0));
        }

        if (n % 2 == 0) {
            return n + n + 1;
        }

        return -(n + n + 1);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x - ((T)1.0) + (x + x - ((T)1.0)) - ((T)1.0);
    }

    T p = ((T)1.0);
    T q = x + x - ((T)1.0) + (x + x - ((T)1.0)) - ((T)1.0);
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x - ((T)1.0) + (x + x - ((T)1.0))) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(shifted_chebyshev_polynomial_v_forward)(T x, int64_t n)
static T F(shifted_chebyshev_polynomial_w_forward)(T x, int64_t n) {
    if (n < 0) {
        return ((T)0.0);
    }

    if (x == ((T)1.0)) {
        return n + n + 1;
    }

    if (x == ((T)0.0)) {
        if (n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if ((n > 4) && (fabs(x + x - ((T)1.0)) < ((T)1.0))) {
        if (cos(acos(x + x - ((T)1.0)) / ((T)2.0)) != ((T)1.0)) {
            return sin((n + ((T)0.5)) * acos(x + x - ((T)1.0))) / sin(acos(x + x - ((T)1.0)) / ((T)2.0));
        }

        if (n % 2 == 0) {
            return ((T)1.0);
        }

        return ((T)-1.0);
    }

    if (n == 0) {
        return ((T)1.0);
    }

    if (n == 1) {
        return x + x - ((T)1.0) + (x + x - ((T)1.0)) + ((T)1.0);
    }

    T p = ((T)1.0);
    T q = x + x - ((T)1.0) + (x + x - ((T)1.0)) + ((T)1.0);
    T r = q;   /* the loop runs at least once for the n that reach it */

    for (int64_t k = 2; k <= n; k++) {
        r = (x + x - ((T)1.0) + (x + x - ((T)1.0))) * q - p;
        p = q;
        q = r;
    }

    return r;
} // F(shifted_chebyshev_polynomial_w_forward)(T x, int64_t n)


