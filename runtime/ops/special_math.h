/* runtime/ops/special_math.h — scalar bodies of the torch.special kernels,
 * transcribed from PyTorch 1.13's aten/src/ATen/native/Math.h (Cephes, SciPy,
 * Boost and Faddeeva derivations; licences below). No include guard: special.c
 * includes it once per (T, ACC, F) — float and double, each built plainly and
 * with FMA contraction (1.13's AVX2 kernels are compiled with -mfma and GCC
 * fuses a * b + c in these bodies as it does here). GL_x(...) stands for the
 * C++ global-namespace ::x(...) call of the original, see special.c. */

/* Note [3-Clause BSD License for the Cephes Math Library]
 * Copyright (c) 2018, Steven Moshier. All rights reserved. Redistribution and
 * use in source and binary forms, with or without modification, are permitted
 * provided that the following conditions are met: redistributions of source
 * code must retain the above copyright notice, this list of conditions and the
 * following disclaimer; redistributions in binary form must reproduce them in
 * the documentation; neither the name of the nor the names of its
 * contributors may be used to endorse or promote products derived from this
 * software without specific prior written permission. THIS SOFTWARE IS
 * PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS
 * OR IMPLIED WARRANTIES ARE DISCLAIMED. */

/* erfcx: the MIT licence of the Faddeeva package is in special_erfcx.h. */

/* The incomplete gamma functions follow SciPy's gammainc (Cephes igam/igamc,
 * Boost's Lanczos sum: (C) Copyright John Maddock 2006, Boost Software
 * License 1.0). */

static T F(zeta)(T x, T q)  {

  const ACC MACHEP = ((ACC)1.11022302462515654042E-16);
  const ACC zero = ((ACC)0.0);
  const ACC half = ((ACC)0.5);
  const ACC one = ((ACC)1.0);
  static const ACC A[] = {
      12.0,
      -720.0,
      30240.0,
      -1209600.0,
      47900160.0,
      -1.8924375803183791606e9, /*1.307674368e12/691*/
      7.47242496e10,
      -2.950130727918164224e12, /*1.067062284288e16/3617*/
      1.1646782814350067249e14, /*5.109094217170944e18/43867*/
      -4.5979787224074726105e15, /*8.028576626982912e20/174611*/
      1.8152105401943546773e17, /*1.5511210043330985984e23/854513*/
      -7.1661652561756670113e18 /*1.6938241367317436694528e27/236364091*/
  };

  int i = 0;
  ACC a, b, k, s, t, w;
  if (x == one) {
    return ((T)INFINITY);
  }

  if (x < one) {
    return ((T)NAN);
  }

  if (q <= zero) {
    if (q == GL_floor(q)) {
      return ((T)INFINITY);
    }
    if (x != GL_floor(x)) {
      return ((T)NAN);
    }
  }

  s = GL_pow(q, -x);
  a = q;
  i = 0;
  b = zero;
  while ((i < 9) || (a <= ((ACC)9.0))) {
    i += 1;
    a += one;
    b = GL_pow(a, -x);
    s += b;
    if ((-MACHEP * s < b) && (b < MACHEP * s)) {
      return (T)(s);
    }
  };

  w = a;
  s += b * w / (x - one);
  s -= half * b;
  a = one;
  k = zero;
  for (int i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    t = a * b / A[i];
    s = s + t;
    t = GL_fabs(t / s);
    if (t < MACHEP) {
      return (T)(s);
    }
    k += one;
    a *= x + k;
    b /= w;
    k += one;
  }
  return (T)(s);
}

#include "special_igamma.h"

static T F(calc_ndtri)(T y0) {

  /* sqrt(2pi) */
  const T s2pi = 2.50662827463100050242E0;
  const T one = 1;
  const T zero = 0;

  /* approximation for 0 <= |y - 0.5| <= 3/8 */
  static const T P0[5] = {
      -5.99633501014107895267E1,
      9.80010754185999661536E1,
      -5.66762857469070293439E1,
      1.39312609387279679503E1,
      -1.23916583867381258016E0,
  };

  static const T Q0[9] = {
      1.00000000000000000000E0,
      1.95448858338141759834E0,
      4.67627912898881538453E0,
      8.63602421390890590575E1,
      -2.25462687854119370527E2,
      2.00260212380060660359E2,
      -8.20372256168333339912E1,
      1.59056225126211695515E1,
      -1.18331621121330003142E0,
  };

  /* Approximation for interval z = sqrt(-2 log y ) between 2 and 8
  * i.e., y between exp(-2) = .135 and exp(-32) = 1.27e-14.
  */
  static const T P1[9] = {
      4.05544892305962419923E0,
      3.15251094599893866154E1,
      5.71628192246421288162E1,
      4.40805073893200834700E1,
      1.46849561928858024014E1,
      2.18663306850790267539E0,
      -1.40256079171354495875E-1,
      -3.50424626827848203418E-2,
      -8.57456785154685413611E-4,
  };

  static const T Q1[9] = {
      1.00000000000000000000E0,
      1.57799883256466749731E1,
      4.53907635128879210584E1,
      4.13172038254672030440E1,
      1.50425385692907503408E1,
      2.50464946208309415979E0,
      -1.42182922854787788574E-1,
      -3.80806407691578277194E-2,
      -9.33259480895457427372E-4,
  };

  /* Approximation for interval z = sqrt(-2 log y ) between 8 and 64
  * i.e., y between exp(-32) = 1.27e-14 and exp(-2048) = 3.67e-890.
  */

  static const T P2[9] = {
      3.23774891776946035970E0,
      6.91522889068984211695E0,
      3.93881025292474443415E0,
      1.33303460815807542389E0,
      2.01485389549179081538E-1,
      1.23716634817820021358E-2,
      3.01581553508235416007E-4,
      2.65806974686737550832E-6,
      6.23974539184983293730E-9,
  };

  static const T Q2[9] = {
      1.00000000000000000000E0,
      6.02427039364742014255E0,
      3.67983563856160859403E0,
      1.37702099489081330271E0,
      2.16236993594496635890E-1,
      1.34204006088543189037E-2,
      3.28014464682127739104E-4,
      2.89247864745380683936E-6,
      6.79019408009981274425E-9,
  };

  if (y0 == zero) {
    return -((T)INFINITY);
  }
  if (y0 == one) {
    return ((T)INFINITY);
  }
  if (y0 < zero || y0 > one) {
    return ((T)NAN);
  }
  bool code = true;
  T y = y0;
  if (y > one - ((T)0.13533528323661269189)) { /* 0.135... = exp(-2) */
    y = one - y;
    code = false;
  }

  if (y > ((T)0.13533528323661269189)) {
    y = y - ((T)0.5);
    const T y2 = y * y;
    T x = y + y * (y2 * F(polevl)(y2, P0, 4) / F(polevl)(y2, Q0, 8));
    return (x * s2pi);
  }

  T x = GL_sqrt(((T)-2.0) * GL_log(y));
  const T x0 = x - GL_log(x) / x;

  const T z = one / x;
  T x1;
  if (x < ((T)8.0)) /* y > exp(-32) = 1.2664165549e-14 */
  {
    x1 = z * F(polevl)(z, P1, 8) / F(polevl)(z, Q1, 8);
  } else {
    x1 = z * F(polevl)(z, P2, 8) / F(polevl)(z, Q2, 8);
  }
  x = x0 - x1;
  if (code) {
    x = -x;
  }
  return x;
}
#include "special_erfcx.h"

/* Logarithm of Gaussian cumulative distribution function (SciPy's log_ndtr). */
static T F(calc_log_ndtr)(T x) {
  T t = x * M_SQRT1_2;
  if (x < ((T)-1.0)) {
    /* 1.13's build leaves this product unfused (checked against it): the
     * volatile keeps GCC from contracting the subtraction below */
    volatile T tt = t * t;
    return log(F(calc_erfcx)(-t) / 2) - tt;
  } else {
    return log1p(-erfc(t) / 2);
  }
}
#include "special_poly.h"

/* ---------------------------------------------- written from the 1.13 kernels */

/* trigamma (Math.h: one overload per type, same text) */
static T F(trigamma)(T x)
{
    T sign = +1;
    T result = 0;
    if (x < (T)0.5) {
        sign = -1;
        const T sin_pi_x = sin(PI_T * x);
        result -= (PI_T * PI_T) / (sin_pi_x * sin_pi_x);
        x = 1 - x;
    }
    for (int i = 0; i < 6; ++i) {
        result += 1 / (x * x);
        x += 1;
    }
    const T ixx = 1 / (x * x);
    result += (1 + 1 / (2 * x) + ixx * ((T)1 / 6 - ixx * ((T)1 / 30 - ixx * ((T)1 / 42)))) / x;
    return sign * result;
}

/* calc_polygamma, n >= 2 */
static T F(calc_polygamma)(T x, int n)
{
    const T one = 1;
    return ((n % 2) ? one : -one) * GL_exp(GL_lgamma((T)(n) + one)) * F(zeta)((T)(n + 1), x);
}

/* sinc_kernel (UnaryOpsKernel.cpp): c10::pi<scalar_t> * a in scalar_t */
static T F(sinc)(T a)
{
    if (a == 0) return 1;
    T product = PI_T * a;
    return sin(product) / product;
}

/* entr_kernel */
static T F(entr)(T x)
{
    if (isnan(x)) return x;
    if (x > 0) return -x * log(x);
    if (x == 0) return 0;
    return (T)-INFINITY;
}

/* xlogy_kernel / xlog1py_kernel */
static T F(xlogy)(T x, T y)
{
    if (isnan(y)) return NAN;
    if (x == 0) return 0;
    return x * log(y);
}

static T F(xlog1py)(T x, T y)
{
    if (isnan(y)) return NAN;
    if (x == 0) return 0;
    return x * log1p(y);
}
