/* tests/unit/test_runtime_bessel.c — runtime/ops/bessel: the descriptor
 * table, dtype refusals, in-place and named-tensor errors, and the values of
 * every op against torch 1.13 (within 64 ulps: the conformance cases hold the
 * exact bits of 1.13's FMA-built kernels; a CPU without FMA rounds otherwise). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define NX 9
static const double xs[NX] = {-3.5, 0.0, 0.25, 1.5, 4.0, 9.5, 30.0, INFINITY, NAN};

/* torch.special.<op>(torch.tensor(xs, dtype=dt)).tolist() under torch 1.13 */
static const struct { tsr_bessel_op op; tsr_dtype dt; double want[NX]; } oracle[] = {
    {TSR_BESSEL_J0, TSR_FLOAT64, {-0.380127740076865, 1.0, 0.9844359292958528, 0.5118276717359184, -0.39714981060265175, -0.19392874749648786, -0.08636798358104034, NAN, NAN}},
    {TSR_BESSEL_J0, TSR_FLOAT32, {-0.3801277279853821, 1.0, 0.9844359755516052, 0.5118276476860046, -0.3971497714519501, -0.19392871856689453, -0.08636802434921265, NAN, NAN}},
    {TSR_BESSEL_J1, TSR_FLOAT64, {-0.13737752737296868, 0.0, 0.12402597732272692, 0.5579365079100997, -0.06604332806420507, 0.1612644302659841, -0.11875106261662309, NAN, NAN}},
    {TSR_BESSEL_J1, TSR_FLOAT32, {-0.1373775154352188, 0.0, 0.12402597814798355, 0.5579364895820618, -0.06604333221912384, 0.16126444935798645, -0.11875113099813461, NAN, NAN}},
    {TSR_BESSEL_Y0, TSR_FLOAT64, {NAN, -INFINITY, -0.9315730249300588, 0.3824489237977592, -0.016940739685345766, 0.17121062642478338, -0.11729573168666393, NAN, NAN}},
    {TSR_BESSEL_Y0, TSR_FLOAT32, {NAN, -INFINITY, -0.9315730333328247, 0.3824489116668701, -0.016940945759415627, 0.17121072113513947, -0.11729570478200912, NAN, NAN}},
    {TSR_BESSEL_Y1, TSR_FLOAT64, {NAN, -INFINITY, -2.704105229315283, -0.4123086269739113, 0.3979257110248164, 0.20317989980985585, 0.08442557066174709, NAN, NAN}},
    {TSR_BESSEL_Y1, TSR_FLOAT32, {NAN, -INFINITY, -2.7041051387786865, -0.41230863332748413, 0.39792558550834656, 0.20317991077899933, 0.0844254419207573, NAN, NAN}},
    {TSR_BESSEL_MODIFIED_I0, TSR_FLOAT64, {7.3782034322254795, 1.0, 1.015686141223608, 1.6467231897728907, 11.30192195213633, 1753.480990527323, 781672297823.9775, NAN, NAN}},
    {TSR_BESSEL_MODIFIED_I0, TSR_FLOAT32, {7.378204345703125, 0.9999999403953552, 1.015686273574829, 1.6467232704162598, 11.301920890808105, 1753.48095703125, 781672185856.0, NAN, NAN}},
    {TSR_BESSEL_MODIFIED_I1, TSR_FLOAT64, {-6.205834922258364, 0.0, 0.12597910894546793, 0.9816664285779074, 9.759465153704449, 1658.4530777821344, 768532038938.9569, NAN, NAN}},
    {TSR_BESSEL_MODIFIED_I1, TSR_FLOAT32, {-6.205835819244385, 0.0, 0.12597911059856415, 0.9816665053367615, 9.759467124938965, 1658.453125, 768532021248.0, NAN, NAN}},
    {TSR_BESSEL_MODIFIED_K0, TSR_FLOAT64, {NAN, INFINITY, 1.5415067512483027, 0.21380556264752565, 0.011159676085853023, 3.005788495793434e-05, 2.1324774964630563e-14, 0.0, NAN}},
    {TSR_BESSEL_MODIFIED_K0, TSR_FLOAT32, {NAN, INFINITY, 1.5415070056915283, 0.21380558609962463, 0.011159677058458328, 3.0057884941925295e-05, 2.1324772731066283e-14, 0.0, NAN}},
    {TSR_BESSEL_MODIFIED_K1, TSR_FLOAT64, {NAN, INFINITY, 3.747025974440712, 0.27738780045684397, 0.012483498887268428, 3.160203411042675e-05, 2.1677320018915495e-14, 0.0, NAN}},
    {TSR_BESSEL_MODIFIED_K1, TSR_FLOAT32, {NAN, INFINITY, 3.747025966644287, 0.277387797832489, 0.012483499012887478, 3.160203414154239e-05, 2.1677319702174784e-14, 0.0, NAN}},
    {TSR_BESSEL_SCALED_K0, TSR_FLOAT64, {NAN, INFINITY, 1.9793338485985683, 0.9582100532948961, 0.6092976692566953, 0.4015651321154054, 0.22788666561625373, 0.0, NAN}},
    {TSR_BESSEL_SCALED_K0, TSR_FLOAT32, {NAN, INFINITY, 1.9793342351913452, 0.9582102298736572, 0.6092976927757263, 0.4015651345252991, 0.2278866469860077, 0.0, NAN}},
    {TSR_BESSEL_SCALED_K1, TSR_FLOAT64, {NAN, INFINITY, 4.811276588171025, 1.2431658735525537, 0.6815759451856709, 0.4221945429769579, 0.2316541293777118, 0.0, NAN}},
    {TSR_BESSEL_SCALED_K1, TSR_FLOAT32, {NAN, INFINITY, 4.811276435852051, 1.2431658506393433, 0.6815759539604187, 0.42219454050064087, 0.2316541224718094, 0.0, NAN}},
    {TSR_BESSEL_SPHERICAL_J0, TSR_FLOAT64, {-0.10022377933989138, 1.0, 0.9896158370180917, 0.6649966577360363, -0.18920062382698205, -0.007910644259137822, -0.03293438746976206, 0.0, NAN}},
    {TSR_BESSEL_SPHERICAL_J0, TSR_FLOAT32, {-0.10022377967834473, 1.0, 0.9896158576011658, 0.6649966835975647, -0.18920062482357025, -0.007910644635558128, -0.032934386283159256, 0.0, NAN}},
    {TSR_BESSEL_AIRY_AI, TSR_FLOAT64, {-0.37553382330213075, 0.3550280538878172, 0.2911639543485452, 0.07174949700810533, 0.0009515638512048024, 5.330263704617489e-10, 3.2082175915504806e-49, NAN, NAN}},
    {TSR_BESSEL_AIRY_AI, TSR_FLOAT32, {-0.375533789396286, 0.35502806305885315, 0.29116392135620117, 0.07174952328205109, 0.0009515637066215277, 5.330269559067347e-10, 0.0, NAN, NAN}},
    {TSR_BESSEL_I0, TSR_FLOAT64, {7.3782034322254795, 1.0, 1.015686141223608, 1.6467231897728907, 11.30192195213633, 1753.480990527323, 781672297823.9775, NAN, NAN}},
    {TSR_BESSEL_I0, TSR_FLOAT32, {7.378204345703125, 0.9999999403953552, 1.015686273574829, 1.6467232704162598, 11.301920890808105, 1753.48095703125, 781672185856.0, NAN, NAN}},
    {TSR_BESSEL_I0E, TSR_FLOAT64, {0.22280243801077917, 1.0, 0.7910171621397194, 0.36743360905415834, 0.20700192122398672, 0.13125126081426788, 0.0731459464822373, 0.0, NAN}},
    {TSR_BESSEL_I0E, TSR_FLOAT32, {0.22280246019363403, 0.9999999403953552, 0.7910172343254089, 0.3674336373806, 0.20700190961360931, 0.131251260638237, 0.07314594089984894, 0.0, NAN}},
    {TSR_BESSEL_I1, TSR_FLOAT64, {-6.205834922258364, 0.0, 0.12597910894546793, 0.9816664285779075, 9.759465153704449, 1658.4530777821344, 768532038938.9569, NAN, NAN}},
    {TSR_BESSEL_I1, TSR_FLOAT32, {-6.205835819244385, 0.0, 0.12597911059856415, 0.9816664457321167, 9.759467124938965, 1658.453125, 768532021248.0, NAN, NAN}},
    {TSR_BESSEL_I1E, TSR_FLOAT64, {-0.18739997660304997, 0.0, 0.09811262869736825, 0.21903938742092566, 0.1787508395024353, 0.1241382476548818, 0.07191633059864755, 0.0, NAN}},
    {TSR_BESSEL_I1E, TSR_FLOAT32, {-0.1873999983072281, 0.0, 0.09811262786388397, 0.2190394103527069, 0.1787508726119995, 0.1241382583975792, 0.07191632688045502, 0.0, NAN}},
};

static tsr_tensor *tensor_of(const double *v, int n, tsr_dtype dt)
{
    int64_t size = n;
    tsr_tensor *t = tsr_tensor_empty(1, &size, dt, TSR_CPU);
    for (int i = 0; t && i < n; i++) {
        int64_t idx = i;
        if (dt == TSR_FLOAT64) *(double *)tsr_tensor_ptr(t, &idx) = v[i];
        else *(float *)tsr_tensor_ptr(t, &idx) = (float)v[i];
    }
    return t;
}

static double element(const tsr_tensor *t, int i)
{
    int64_t idx = i;
    return t->dtype == TSR_FLOAT64 ? *(const double *)tsr_tensor_ptr(t, &idx) : *(const float *)tsr_tensor_ptr(t, &idx);
}

static int close_ulps(double got, double want, tsr_dtype dt)
{
    if (isnan(want) || isinf(want) || want == 0) return isnan(want) ? isnan(got) : got == want;
    double ulp = dt == TSR_FLOAT64 ? nextafter(fabs(want), INFINITY) - fabs(want)
                                   : (double)(nextafterf((float)fabs(want), INFINITY) - (float)fabs(want));
    return fabs(got - want) <= 64 * ulp;
}

TEST(bessel_values_against_torch)
{
    for (size_t k = 0; k < sizeof oracle / sizeof oracle[0]; k++) {
        tsr_tensor *x = tensor_of(xs, NX, oracle[k].dt);
        tsr_tensor *r = tsr_bessel(oracle[k].op, x, NULL);
        if (!CHECK(r != NULL)) {
            tsr_error_clear();
            tsr_tensor_release(x);
            continue;
        }
        CHECK_EQ_INT(r->dtype, oracle[k].dt);
        for (int i = 0; i < NX; i++)
            if (!close_ulps(element(r, i), oracle[k].want[i], oracle[k].dt))
                printf("  %s(%g) [%s] = %.17g, torch %.17g\n", tsr_bessel_desc(oracle[k].op)->name, xs[i],
                       tsr_dtype_name(oracle[k].dt), element(r, i), oracle[k].want[i]),
                CHECK(0);
        tsr_tensor_release(r);
        tsr_tensor_release(x);
    }
}

TEST(bessel_descriptors)
{
    CHECK(tsr_bessel_desc(TSR_BESSEL_COUNT) == NULL);
    for (int op = 0; op < TSR_BESSEL_COUNT; op++) {
        const tsr_op *d = tsr_bessel_desc((tsr_bessel_op)op);
        CHECK(d && d->name && d->kname && d->arity == 1 && d->rule == TSR_DT_UNARY_FLOAT);
        CHECK(tsr_op_kernel(d, TSR_FLOAT32) && tsr_op_kernel(d, TSR_FLOAT64));
        CHECK(!tsr_op_kernel(d, TSR_FLOAT16) && !tsr_op_kernel(d, TSR_COMPLEX64));
        /* bfloat16: i0 and i0e only, as 1.13 dispatches them */
        CHECK(!tsr_op_kernel(d, TSR_BFLOAT16) == !(op == TSR_BESSEL_I0 || op == TSR_BESSEL_I0E));
    }
    CHECK_STR(tsr_bessel_desc(TSR_BESSEL_AIRY_AI)->kname, "airy_ai_cpu");
    CHECK_STR(tsr_bessel_desc(TSR_BESSEL_I0)->kname, "i0_vml_cpu");
}

TEST(bessel_errors)
{
    int64_t two = 2;
    tsr_tensor *h = tsr_tensor_empty(1, &two, TSR_FLOAT16, TSR_CPU), *i = tsr_tensor_empty(1, &two, TSR_INT64, TSR_CPU);
    CHECK(tsr_bessel(TSR_BESSEL_Y1, h, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "\"bessel_y1_cpu\" not implemented for 'Half'");
    tsr_error_clear();
    CHECK(tsr_bessel_(TSR_BESSEL_I0, i) == NULL);
    CHECK_STR(tsr_error_message(), "result type Float can't be cast to the desired output type Long");
    tsr_error_clear();
    /* int64 computes in the default dtype */
    tsr_tensor *r = tsr_bessel(TSR_BESSEL_I1E, i, NULL);
    CHECK(r && r->dtype == TSR_FLOAT32);
    tsr_tensor_release(r);
    /* special_* refuse named tensors with the schema's name; i0 is name-aware */
    const char **names = tsr_calloc(1, sizeof *names);
    names[0] = "a";
    h->names = names;
    CHECK(tsr_bessel(TSR_BESSEL_I1, h, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "aten::special_i1 is not yet supported with named tensors. Please drop names via "
                                   "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names "
                                   "on the result of the operation.");
    tsr_error_clear();
    CHECK(tsr_bessel(TSR_BESSEL_I0, h, NULL) == NULL);   /* reaches the kernel: no Half i0 */
    CHECK_STR(tsr_error_message(), "\"i0_vml_cpu\" not implemented for 'Half'");
    tsr_error_clear();
    tsr_tensor_release(h);
    tsr_tensor_release(i);
}
