/* tests/unit/test_runtime_names.c — runtime/names against PyTorch 1.13:
 * the tables of tests/unit/name_cases.h (scripts/gen-name-cases: random name
 * tuples through `x + y`, torch.matmul and align_to, with the names or the
 * message 1.13 gives), plus validity, interning and the list format. */
#include <stdio.h>
#include "unit.h"
#include "names.h"
#include "error.h"
#include "name_cases.h"

#define NCASES(t) ((int)(sizeof t / sizeof t[0]))

/* the case's strings as interned names ("..." stays a marker) */
static void intern_all(const char *const *in, int n, tsr_name *out)
{
    for (int i = 0; i < n; i++) out[i] = in[i] ? tsr_name_intern(in[i]) : NULL;
}

/* compares a result with the case; reports the case on mismatch */
static void check_case(const char *what, int i, const NameCase *c, int rc, const tsr_name *out, int nout)
{
    char got[1024] = "", want[1024] = "";
    if (rc < 0) snprintf(got, sizeof got, "error: %s", tsr_error_message());
    else tsr_names_format(got, sizeof got, out, nout);
    if (c->is_err) snprintf(want, sizeof want, "error: %s", c->msg);
    else tsr_names_format(want, sizeof want, (const tsr_name *)c->out, c->nout);
    /* the table holds plain strings; compare formats, not pointers */
    if (strcmp(got, want)) {
        char label[64];
        snprintf(label, sizeof label, "%s case %d", what, i);
        unit_check_str(got, want, label, "1.13", __FILE__, __LINE__);
    }
    tsr_error_clear();
}

TEST(names_unify_table)
{
    for (int i = 0; i < NCASES(unify_cases); i++) {
        const NameCase *c = &unify_cases[i];
        tsr_name a[8], b[8], out[8];
        intern_all(c->a, c->na, a);
        intern_all(c->b, c->nb, b);
        int rc = tsr_names_unify(a, c->na, b, c->nb, "broadcast", out);
        check_case("unify", i, c, rc, out, c->na > c->nb ? c->na : c->nb);
    }
}

TEST(names_matmul_table)
{
    for (int i = 0; i < NCASES(matmul_cases); i++) {
        const NameCase *c = &matmul_cases[i];
        tsr_name a[8], b[8], out[8];
        int nout = 0;
        intern_all(c->a, c->na, a);
        intern_all(c->b, c->nb, b);
        int rc = tsr_names_matmul(a, c->na, b, c->nb, out, &nout);
        check_case("matmul", i, c, rc, out, nout);
    }
}

TEST(names_align_to_table)
{
    for (int i = 0; i < NCASES(align_cases); i++) {
        const NameCase *c = &align_cases[i];
        tsr_name self[8], order[8], out[16];
        int src[16], nout = 0, norder = 0, ellipsis = -1, nell = 0, rc;
        intern_all(c->a, c->na, self);
        for (int j = 0; j < c->nb; j++) {
            if (c->b[j] && !strcmp(c->b[j], "...")) { ellipsis = norder; nell++; continue; }
            order[norder++] = c->b[j] ? tsr_name_intern(c->b[j]) : NULL;
        }
        if (nell > 1) continue;   /* the Python wrapper's error, not the runtime's */
        rc = tsr_names_align_to(tsr_names_any(self, c->na) ? self : NULL, c->na, order, norder, ellipsis, out, src,
                                &nout);
        check_case("align_to", i, c, rc, out, nout);
        /* each output dim with a source carries that dim's name */
        for (int j = 0; rc == 0 && j < nout; j++)
            if (src[j] >= 0) CHECK(out[j] == self[src[j]]);
    }
}

TEST(names_validity_and_format)
{
    tsr_name n = NULL;
    CHECK_EQ_INT(tsr_name_from_str("N", &n), 0);
    CHECK(n == tsr_name_intern("N"));
    CHECK_EQ_INT(tsr_name_from_str("_x1", &n), 0);
    CHECK_EQ_INT(tsr_name_from_str("*", &n), 0);
    CHECK(n == NULL);
    static const char *const bad[] = {"1a", "", "a b", "a.b", "...", "\xc3\xa9"};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_INT(tsr_name_from_str(bad[i], &n), -1);
        char want[256];
        snprintf(want, sizeof want,
                 "Invalid name: a valid identifier contains only digits, alphabetical characters, and/or underscore "
                 "and starts with a non-digit. got: '%s'.",
                 bad[i]);
        CHECK_STR(tsr_error_message(), want);
        tsr_error_clear();
    }
    tsr_name l[3] = {tsr_name_intern("N"), NULL, tsr_name_intern("N")};
    char buf[64];
    tsr_names_format(buf, sizeof buf, l, 3);
    CHECK_STR(buf, "['N', None, 'N']");
    tsr_names_format(buf, sizeof buf, NULL, 0);
    CHECK_STR(buf, "[]");
    CHECK_EQ_INT(tsr_names_check_unique(l, 3), -1);
    CHECK_STR(tsr_error_message(), "Cannot construct a tensor with duplicate names. Got names: ['N', None, 'N'].");
    tsr_error_clear();
    tsr_name w[2] = {NULL, NULL};
    CHECK_EQ_INT(tsr_names_check_unique(w, 2), 0);   /* wildcards may repeat */
    CHECK(!tsr_names_any(w, 2) && tsr_names_any(l, 3));
}
