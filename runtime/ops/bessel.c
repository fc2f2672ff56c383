/* runtime/ops/bessel.c — torch.special's Bessel and Airy functions and
 * i0/i0e/i1/i1e: ports of 1.13's aten/src/ATen/native/Math.h (Cephes). Where
 * 1.13 runs its AVX2 kernels they are built with FMA, so the scalar bodies are
 * built twice (bessel_fn.h): with FMA contraction for those CPUs, without it
 * for the others, as 1.13's DEFAULT kernels. */
#include <tgmath.h>
#include <float.h>
#include "../error.h"
#include "bessel.h"
#include "loops.h"
#include "sleef.h"

/* --------------------------------------------------- Math.h's coefficients */

static const double AI_AN[] = {
    +3.46538101525629032477e-01, +1.20075952739645805542e+01, +7.62796053615234516538e+01,
    +1.68089224934630576269e+02, +1.59756391350164413639e+02, +7.05360906840444183113e+01,
    +1.40264691163389668864e+01, +9.99999999999999995305e-01,
};
static const double AI_AD[] = {
    +5.67594532638770212846e-01, +1.47562562584847203173e+01, +8.45138970141474626562e+01,
    +1.77318088145400459522e+02, +1.64234692871529701831e+02, +7.14778400825575695274e+01,
    +1.40959135607834029598e+01, +1.00000000000000000470e+00,
};
static const double AI_AFN[] = {
    -1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
    -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
    -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08,
};
static const double AI_AFD[] = {
    +1.33560420706553243746e+01, +3.26825032795224613948e+01, +2.67367040941499554804e+01,
    +9.18707402907259625840e+00, +1.47529146771666414581e+00, +1.15687173795188044134e-01,
    +4.40291641615211203805e-03, +7.54720348287414296618e-05, +4.51850092970580378464e-07,
};
static const double AI_AGN[] = {
    +1.97339932091685679179e-02, +3.91103029615688277255e-01, +1.06579897599595591108e+00,
    +9.39169229816650230044e-01, +3.51465656105547619242e-01, +6.33888919628925490927e-02,
    +5.85804113048388458567e-03, +2.82851600836737019778e-04, +6.98793669997260967291e-06,
    +8.11789239554389293311e-08, +3.41551784765923618484e-10,
};
static const double AI_AGD[] = {
    +9.30892908077441974853e+00, +1.98352928718312140417e+01, +1.55646628932864612953e+01,
    +5.47686069422975497931e+00, +9.54293611618961883998e-01, +8.64580826352392193095e-02,
    +4.12656523824222607191e-03, +1.01259085116509135510e-04, +1.17166733214413521882e-06,
    +4.91834570062930015649e-09,
};
static const double J0_PP[] = {
    +7.96936729297347051624e-04, +8.28352392107440799803e-02, +1.23953371646414299388e+00,
    +5.44725003058768775090e+00, +8.74716500199817011941e+00, +5.30324038235394892183e+00,
    +9.99999999999999997821e-01,
};
static const double J0_PQ[] = {
    +9.24408810558863637013e-04, +8.56288474354474431428e-02, +1.25352743901058953537e+00,
    +5.47097740330417105182e+00, +8.76190883237069594232e+00, +5.30605288235394617618e+00,
    +1.00000000000000000218e+00,
};
static const double J0_QP[] = {
    -1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
    -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
    -5.14105326766599330220e+01, -6.05014350600728481186e+00,
};
static const double J0_QQ[] = {
    +6.43178256118178023184e+01, +8.56430025976980587198e+02, +3.88240183605401609683e+03,
    +7.24046774195652478189e+03, +5.93072701187316984827e+03, +2.06209331660327847417e+03,
    +2.42005740240291393179e+02,
};
static const double J0_RP[] = {
    -4.79443220978201773821e+09, +1.95617491946556577543e+12, -2.49248344360967716204e+14,
    +9.70862251047306323952e+15,
};
static const double J0_RQ[] = {
    +4.99563147152651017219e+02, +1.73785401676374683123e+05, +4.84409658339962045305e+07,
    +1.11855537045356834862e+10, +2.11277520115489217587e+12, +3.10518229857422583814e+14,
    +3.18121955943204943306e+16, +1.71086294081043136091e+18,
};
static const double J1_PP[] = {
    +7.62125616208173112003e-04, +7.31397056940917570436e-02, +1.12719608129684925192e+00,
    +5.11207951146807644818e+00, +8.42404590141772420927e+00, +5.21451598682361504063e+00,
    +1.00000000000000000254e+00,
};
static const double J1_PQ[] = {
    +5.71323128072548699714e-04, +6.88455908754495404082e-02, +1.10514232634061696926e+00,
    +5.07386386128601488557e+00, +8.39985554327604159757e+00, +5.20982848682361821619e+00,
    +9.99999999999999997461e-01,
};
static const double J1_QP[] = {
    +5.10862594750176621635e-02, +4.98213872951233449420e+00, +7.58238284132545283818e+01,
    +3.66779609360150777800e+02, +7.10856304998926107277e+02, +5.97489612400613639965e+02,
    +2.11688757100572135698e+02, +2.52070205858023719784e+01,
};
static const double J1_QQ[] = {
    +7.42373277035675149943e+01, +1.05644886038262816351e+03, +4.98641058337653607651e+03,
    +9.56231892404756170795e+03, +7.99704160447350683650e+03, +2.82619278517639096600e+03,
    +3.36093607810698293419e+02,
};
static const double J1_RP[] = {
    -8.99971225705559398224e+08, +4.52228297998194034323e+11, -7.27494245221818276015e+13,
    +3.68295732863852883286e+15,
};
static const double J1_RQ[] = {
    +6.20836478118054335476e+02, +2.56987256757748830383e+05, +8.35146791431949253037e+07,
    +2.21511595479792499675e+10, +4.74914122079991414898e+12, +7.84369607876235854894e+14,
    +8.95222336184627338078e+16, +5.32278620332680085395e+18,
};
static const double Y0_YP[] = {
    +1.55924367855235737965e+04, -1.46639295903971606143e+07, +5.43526477051876500413e+09,
    -9.82136065717911466409e+11, +8.75906394395366999549e+13, -3.46628303384729719441e+15,
    +4.42733268572569800351e+16, -1.84950800436986690637e+16,
};
static const double Y0_YQ[] = {
    +1.04128353664259848412e+03, +6.26107330137134956842e+05, +2.68919633393814121987e+08,
    +8.64002487103935000337e+10, +2.02979612750105546709e+13, +3.17157752842975028269e+15,
    +2.50596256172653059228e+17,
};
static const double Y1_YP[] = {
    +1.26320474790178026440e+09, -6.47355876379160291031e+11, +1.14509511541823727583e+14,
    -8.12770255501325109621e+15, +2.02439475713594898196e+17, -7.78877196265950026825e+17,
};
static const double Y1_YQ[] = {
    +5.94301592346128195359e+02, +2.35564092943068577943e+05, +7.34811944459721705660e+07,
    +1.87601316108706159478e+10, +3.88231277496238566008e+12, +6.20557727146953693363e+14,
    +6.87141087355300489866e+16, +3.97270608116560655612e+18,
};
static const double I0_A[] = {
    -4.41534164647933937950e-18, +3.33079451882223809783e-17, -2.43127984654795469359e-16,
    +1.71539128555513303061e-15, -1.16853328779934516808e-14, +7.67618549860493561688e-14,
    -4.85644678311192946090e-13, +2.95505266312963983461e-12, -1.72682629144155570723e-11,
    +9.67580903537323691224e-11, -5.18979560163526290666e-10, +2.65982372468238665035e-09,
    -1.30002500998624804212e-08, +6.04699502254191894932e-08, -2.67079385394061173391e-07,
    +1.11738753912010371815e-06, -4.41673835845875056359e-06, +1.64484480707288970893e-05,
    -5.75419501008210370398e-05, +1.88502885095841655729e-04, -5.76375574538582365885e-04,
    +1.63947561694133579842e-03, -4.32430999505057594430e-03, +1.05464603945949983183e-02,
    -2.37374148058994688156e-02, +4.93052842396707084878e-02, -9.49010970480476444210e-02,
    +1.71620901522208775349e-01, -3.04682672343198398683e-01, +6.76795274409476084995e-01,
};
static const double I0_B[] = {
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, +4.46562142029675999901e-17,
    +3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    +1.77256013305652638360e-15, +3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, +1.54008621752140982691e-14, +3.85277838274214270114e-13,
    +7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, +1.18891471078464383424e-11, +4.94060238822496958910e-10,
    +3.39623202570838634515e-09, +2.26666899049817806459e-08, +2.04891858946906374183e-07,
    +2.89137052083475648297e-06, +6.88975834691682398426e-05, +3.36911647825569408990e-03,
    +8.04490411014108831608e-01,
};
static const double I1_A[] = {
    +2.77791411276104639959e-18, -2.11142121435816608115e-17, +1.55363195773620046921e-16,
    -1.10559694773538630805e-15, +7.60068429473540693410e-15, -5.04218550472791168711e-14,
    +3.22379336594557470981e-13, -1.98397439776494371520e-12, +1.17361862988909016308e-11,
    -6.66348972350202774223e-11, +3.62559028155211703701e-10, -1.88724975172282928790e-09,
    +9.38153738649577178388e-09, -4.44505912879632808065e-08, +2.00329475355213526229e-07,
    -8.56872026469545474066e-07, +3.47025130813767847674e-06, -1.32731636560394358279e-05,
    +4.78156510755005422638e-05, -1.61760815825896745588e-04, +5.12285956168575772895e-04,
    -1.51357245063125314899e-03, +4.15642294431288815669e-03, -1.05640848946261981558e-02,
    +2.47264490306265168283e-02, -5.29459812080949914269e-02, +1.02643658689847095384e-01,
    -1.76416518357834055153e-01, +2.52587186443633654823e-01,
};
static const double I1_B[] = {
    +7.51729631084210481353e-18, +4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, +2.96262899764595013876e-16, +3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, +1.04202769841288027642e-14,
    +4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, +2.03562854414708950722e-12, +1.41258074366137813316e-11,
    +3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-09, -2.63146884688951950684e-08, -2.51223623787020892529e-07,
    -3.88256480887769039346e-06, -1.10588938762623716291e-04, -9.76109749136146840777e-03,
    +7.78576235018280120474e-01,
};
static const double K0_A[] = {
    +1.37446543561352307156e-16, +4.25981614279661018399e-14, +1.03496952576338420167e-11,
    +1.90451637722020886025e-09, +2.53479107902614945675e-07, +2.28621210311945178607e-05,
    +1.26461541144692592338e-03, +3.59799365153615016266e-02, +3.44289899924628486886e-01,
    -5.35327393233902768720e-01,
};
static const double K0_B[] = {
    +5.30043377268626276149e-18, -1.64758043015242134646e-17, +5.21039150503902756861e-17,
    -1.67823109680541210385e-16, +5.51205597852431940784e-16, -1.84859337734377901440e-15,
    +6.34007647740507060557e-15, -2.22751332699166985548e-14, +8.03289077536357521100e-14,
    -2.98009692317273043925e-13, +1.14034058820847496303e-12, -4.51459788337394416547e-12,
    +1.85594911495471785253e-11, -7.95748924447710747776e-11, +3.57739728140030116597e-10,
    -1.69753450938905987466e-09, +8.57403401741422608519e-09, -4.66048989768794782956e-08,
    +2.76681363944501510342e-07, -1.83175552271911948767e-06, +1.39498137188764993662e-05,
    -1.28495495816278026384e-04, +1.56988388573005337491e-03, -3.14481013119645005427e-02,
    +2.44030308206595545468e+00,
};
static const double K1_A[] = {
    -7.02386347938628759343e-18, -2.42744985051936593393e-15, -6.66690169419932900609e-13,
    -1.41148839263352776110e-10, -2.21338763073472585583e-08, -2.43340614156596823496e-06,
    -1.73028895751305206302e-04, -6.97572385963986435018e-03, -1.22611180822657148235e-01,
    -3.53155960776544875667e-01, +1.52530022733894777053e+00,
};
static const double K1_B[] = {
    -5.75674448366501715755e-18, +1.79405087314755922667e-17, -5.68946255844285935196e-17,
    +1.83809354436663880070e-16, -6.05704724837331885336e-16, +2.03870316562433424052e-15,
    -7.01983709041831346144e-15, +2.47715442448130437068e-14, -8.97670518232499435011e-14,
    +3.34841966607842919884e-13, -1.28917396095102890680e-12, +5.13963967348173025100e-12,
    -2.12996783842756842877e-11, +9.21831518760500529508e-11, -4.19035475934189648750e-10,
    +2.01504975519703286596e-09, -1.03457624656780970260e-08, +5.74108412545004946722e-08,
    -3.50196060308781257119e-07, +2.40648494783721712015e-06, -1.93619797416608296024e-05,
    +1.95215518471351631108e-04, -2.85781685962277938680e-03, +1.03923736576817238437e-01,
    +2.72062619048444266945e+00,
};

/* ----------------------------------------------------- the scalar bodies */

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_FMA_BUILD 1
#define FMA_ATTR __attribute__((target("avx2,fma")))
#else
#define HAVE_FMA_BUILD 0
#define FMA_ATTR
#endif

#define BT double
#define BS d
#define BFLOAT 0
#define BATTR
#define BFUSE 0
#include "bessel_fn.h"
#define BT float
#define BS f
#define BFLOAT 1
#define BATTR
#define BFUSE 0
#include "bessel_fn.h"
#if HAVE_FMA_BUILD
#define BT double
#define BS d_fma
#define BFLOAT 0
#define BATTR FMA_ATTR
#define BFUSE 1
#include "bessel_fn.h"
#define BT float
#define BS f_fma
#define BFLOAT 1
#define BATTR FMA_ATTR
#define BFUSE 1
#include "bessel_fn.h"
#endif

/* The CPUs 1.13 runs its AVX2 (FMA-built) kernels on. */
static bool cpu_fma(void) { return HAVE_FMA_BUILD && tsr__sleef_usable(); }

/* --------------------------------------------- bfloat16 (i0 and i0e only) */

/* One bfloat16 operation of c10::BFloat16: computed in float, rounded. */
static inline float bf(float v) { return LD_bfloat16(ST_bfloat16(v)); }

static float chbevl_bf16(float x, const double *array, int len)
{
    float b0 = bf((float)array[0]), b1 = 0, b2 = 0;
    for (int i = 1; i < len; i++) {
        b2 = b1;
        b1 = b0;
        b0 = bf(bf(bf(x * b1) - b2) + bf((float)array[i]));
    }
    return bf(0.5f * bf(b0 - b2));
}

/* calc_i0e<c10::BFloat16>: the scalar body cpu_kernel_vec runs on what the
 * vector body does not take (every step rounded to bfloat16). */
static float i0e_bf16(float x_)
{
    float x = fabsf(x_);
    if (x <= 8.0f) return chbevl_bf16(bf(bf(x / 2.0f) - 2.0f), I0_A, 30);
    /* sqrt is ::sqrt(double) here too, and BFloat16 / double divides in double */
    return bf((float)(chbevl_bf16(bf(bf(32.0f / x) - 2.0f), I0_B, 25) / sqrt((double)x)));
}

/* ------------------------------------------------------------- the loops */

#define LOOP1(NAME, ATTR, T, dt, C, FN) \
    ATTR static int NAME(char **d, const int64_t *s, int64_t n, const void *ctx) { UNARY_LOOP(T, LD_##dt, T, ST_##dt, C, FN) }
#if HAVE_FMA_BUILD
#define LOOP_FMA(OP, FN, T, dt, C, sfx) LOOP1(OP##_##dt##_fma, FMA_ATTR, T, dt, C, FN##_##sfx##_fma)
#define PICK(OP, dt) (cpu_fma() ? OP##_##dt##_fma : OP##_##dt##_plain)
#else
#define LOOP_FMA(OP, FN, T, dt, C, sfx)
#define PICK(OP, dt) OP##_##dt##_plain
#endif
/* OP_float32 and OP_float64: FN_f / FN_d, fused where 1.13 fuses. */
#define KERN_DT(OP, FN, T, dt, sfx)                                                   \
    LOOP1(OP##_##dt##_plain, , T, dt, T, FN##_##sfx) LOOP_FMA(OP, FN, T, dt, T, sfx)   \
    static int OP##_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {    \
        return PICK(OP, dt)(d, s, n, ctx);                                            \
    }
#define KERN(OP, FN) KERN_DT(OP, FN, float, float32, f) KERN_DT(OP, FN, double, float64, d)

KERN(j0, bessel_j0) KERN(j1, bessel_j1) KERN(y0, bessel_y0) KERN(y1, bessel_y1)
KERN(mi0, mod_i0) KERN(mi1, mod_i1) KERN(mk0, mod_k0) KERN(mk1, mod_k1)
KERN(sk0, scaled_k0) KERN(sk1, scaled_k1) KERN(sj0, spherical_j0) KERN(ai, airy_ai)
KERN(i0, calc_i0) KERN(i0e, calc_i0e) KERN(i1, calc_i1) KERN(i1e, calc_i1e)

/* i0 of bfloat16 (a vml op): every element through calc_i0 in float. */
LOOP1(i0_bfloat16_plain, , tsr_bfloat16, bfloat16, float, calc_i0_f)
#if HAVE_FMA_BUILD
LOOP1(i0_bfloat16_fma, FMA_ATTR, tsr_bfloat16, bfloat16, float, calc_i0_f_fma)
LOOP1(i0e_bfloat16_vec, FMA_ATTR, tsr_bfloat16, bfloat16, float, calc_i0e_f_fma)
#endif
static int i0_bfloat16(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    return PICK(i0, bfloat16)(d, s, n, ctx);
}

/* i0e of bfloat16 (cpu_kernel_vec): with AVX2, whole chunks of 32 of a
 * contiguous row (or of a broadcast input) take Vectorized<BFloat16>::i0e,
 * calc_i0e in float; the tail, strided rows, and every element of the
 * DEFAULT build take the bfloat16 body. */
LOOP1(i0e_bfloat16_scalar, , tsr_bfloat16, bfloat16, float, i0e_bf16)
static int i0e_bfloat16(char **d, const int64_t *s, int64_t n, const void *ctx)
{
#if HAVE_FMA_BUILD
    if (cpu_fma() && s[0] == 2 && (s[1] == 2 || s[1] == 0)) {
        int64_t m = n - n % 32;
        int r = i0e_bfloat16_vec(d, s, m, ctx);
        char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};
        return r ? r : i0e_bfloat16_scalar(t, s, n - m, ctx);
    }
#endif
    return i0e_bfloat16_scalar(d, s, n, ctx);
}

/* ------------------------------------------------------------- op table */

#define F2 (M(TSR_FLOAT32) | M(TSR_FLOAT64))
#define F3 (F2 | M(TSR_BFLOAT16))
#define BOP(nm, kn, OP, mask, names_, diff, ...)                                                       \
    {.name = nm, .aten = nm, .kname = kn, .arity = 1, .rule = TSR_DT_UNARY_FLOAT, .cpu_dtypes = mask, \
     .meta_dtypes = M_ALL, .names = names_, .differentiable = diff,                                   \
     .cpu = (const tsr_loop_fn[TSR_DTYPE_SLOTS]){[TSR_FLOAT32] = OP##_float32, [TSR_FLOAT64] = OP##_float64, __VA_ARGS__}}
/* the special_* ops of 1.13 have no derivative and refuse named tensors */
#define SPECIAL(nm, OP) BOP("special_" nm, nm "_cpu", OP, F2, TSR_NAMES_REFUSE, false)
/* The named ops first, then those the binding table finds by ATen name only. */
static const tsr_op bessel_ops[] = {
    [TSR_BESSEL_J0] = SPECIAL("bessel_j0", j0),
    [TSR_BESSEL_J1] = SPECIAL("bessel_j1", j1),
    [TSR_BESSEL_Y0] = SPECIAL("bessel_y0", y0),
    [TSR_BESSEL_Y1] = SPECIAL("bessel_y1", y1),
    [TSR_BESSEL_MODIFIED_I0] = SPECIAL("modified_bessel_i0", mi0),
    [TSR_BESSEL_MODIFIED_I1] = SPECIAL("modified_bessel_i1", mi1),
    [TSR_BESSEL_MODIFIED_K0] = SPECIAL("modified_bessel_k0", mk0),
    [TSR_BESSEL_MODIFIED_K1] = SPECIAL("modified_bessel_k1", mk1),
    [TSR_BESSEL_SCALED_K0] = SPECIAL("scaled_modified_bessel_k0", sk0),
    [TSR_BESSEL_SCALED_K1] = SPECIAL("scaled_modified_bessel_k1", sk1),
    [TSR_BESSEL_SPHERICAL_J0] = SPECIAL("spherical_bessel_j0", sj0),
    [TSR_BESSEL_AIRY_AI] = SPECIAL("airy_ai", ai),
    [TSR_BESSEL_I0] = BOP("i0", "i0_vml_cpu", i0, F3, TSR_NAMES_UNARY, true, [TSR_BFLOAT16] = i0_bfloat16),
    [TSR_BESSEL_I0E] = BOP("special_i0e", "i0e_cpu", i0e, F3, TSR_NAMES_REFUSE, true, [TSR_BFLOAT16] = i0e_bfloat16),
    [TSR_BESSEL_I1] = BOP("special_i1", "i1_cpu", i1, F2, TSR_NAMES_REFUSE, true),
    [TSR_BESSEL_I1E] = BOP("special_i1e", "i1e_cpu", i1e, F2, TSR_NAMES_REFUSE, true),
};
_Static_assert(sizeof bessel_ops / sizeof bessel_ops[0] >= TSR_BESSEL_COUNT, "ORDER BESSEL");
const tsr_op *tsr_bessel_op_at(int i) { return i >= 0 && i < (int)(sizeof bessel_ops / sizeof bessel_ops[0]) ? &bessel_ops[i] : NULL; }

const tsr_op *tsr_bessel_desc(tsr_bessel_op op)
{
    return (unsigned)op < TSR_BESSEL_COUNT ? &bessel_ops[op] : NULL;
}

static tsr_tensor *bessel_impl(tsr_bessel_op op, const tsr_tensor *x, tsr_tensor *out, bool inplace)
{
    const tsr_op *desc = tsr_bessel_desc(op);
    if (!desc) {
        tsr_error_set(TSR_ERR_VALUE, "unknown bessel op %d", (int)op);
        return NULL;
    }
    tsr_operand a = tsr_operand_tensor(x);
    if (tsr_op_check_inputs(desc, 1, &a) < 0) return NULL;
    tsr_dtype dt = tsr_op_compute_dtype(desc, 1, &a, NULL);
    tsr_iter_config cfg = {.nin = 1, .in_dtype = {dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = desc->kname,
                           .kdtype = dt};
    return tsr_iter_run(&cfg, &a, out, tsr_op_kernel(desc, dt), NULL);
}

tsr_tensor *tsr_bessel(tsr_bessel_op op, const tsr_tensor *x, tsr_tensor *out)
{
    return bessel_impl(op, x, out, false);
}

tsr_tensor *tsr_bessel_(tsr_bessel_op op, tsr_tensor *x)
{
    return bessel_impl(op, x, x, true);
}

/* ------------------------------------------------------------ kaiser_window */

#define KAISER(BT, SFX, ATTR)                                                                              \
    ATTR static void kaiser_##SFX(BT *w, int64_t n, int64_t L, double beta)                                 \
    {                                                                                                      \
        const BT alpha = (BT)((L - 1) / 2.0), b = (BT)beta;                                                \
        for (int64_t i = 0; i < n; i++) {                                                                  \
            BT a = (BT)i, q = (a - alpha) / alpha;                                                         \
            w[i] = calc_i0_##SFX(b * (BT)sqrt(1 - (BT)pow(q, (BT)2.0))) / calc_i0_##SFX(b);                \
        }                                                                                                  \
    }
KAISER(float, f, )
KAISER(double, d, )
#if HAVE_FMA_BUILD
KAISER(float, f_fma, FMA_ATTR)
KAISER(double, d_fma, FMA_ATTR)
#endif

/* bfloat16: 1.13's kernel runs on scalar_t = BFloat16, so every operation
 * (a - alpha, / alpha, pow, 1 - p, sqrt, beta *, the two i0 and the division)
 * rounds its float result to bfloat16; i0 itself is calc_i0 in float. */
#define BF(x) LD_bfloat16(ST_bfloat16(x))
#define KAISER_BF16(SFX, I0, ATTR)                                                                         \
    ATTR static void kaiser_bf16_##SFX(tsr_bfloat16 *w, int64_t n, int64_t L, double beta)                  \
    {                                                                                                      \
        const float alpha = BF((float)((L - 1) / 2.0)), b = BF((float)beta);                               \
        const float den = BF(I0(b));                                                                       \
        for (int64_t i = 0; i < n; i++) {                                                                  \
            float a = BF((float)i), q = BF(BF(a - alpha) / alpha);                                         \
            float r = BF(sqrtf(BF(1.0f - BF(powf(q, 2.0f)))));                                             \
            w[i] = ST_bfloat16(BF(I0(BF(b * r))) / den);                                                   \
        }                                                                                                  \
    }
KAISER_BF16(plain, calc_i0_f, )
#if HAVE_FMA_BUILD
KAISER_BF16(fma, calc_i0_f_fma, FMA_ATTR)
#endif
#undef BF

int tsr_kaiser_fill(tsr_tensor *w, int64_t n, int64_t L, double beta)
{
    if (w->dtype == TSR_BFLOAT16) {
#if HAVE_FMA_BUILD
        if (cpu_fma()) { kaiser_bf16_fma(tsr_tensor_ptr(w, NULL), n, L, beta); return 0; }
#endif
        kaiser_bf16_plain(tsr_tensor_ptr(w, NULL), n, L, beta);
        return 0;
    }
    if (w->dtype != TSR_FLOAT32 && w->dtype != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"kaiser_window_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(w->dtype));
        return -1;
    }
    void *p = tsr_tensor_ptr(w, NULL);
#if HAVE_FMA_BUILD
    if (cpu_fma()) {
        if (w->dtype == TSR_FLOAT32) kaiser_f_fma(p, n, L, beta);
        else kaiser_d_fma(p, n, L, beta);
        return 0;
    }
#endif
    if (w->dtype == TSR_FLOAT32) kaiser_f(p, n, L, beta);
    else kaiser_d(p, n, L, beta);
    return 0;
}
