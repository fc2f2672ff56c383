/* tests/unit/test_runtime_named.c — runtime/named.c: names on tensors (the
 * setter's checks, out= and resize_ rules, the iterator's unify) with 1.13's
 * messages (SEMANTICS.md §2.1, 2.2, 2.5, 2.6). */
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

static tsr_tensor *named2(const char *a, const char *b)
{
    int64_t sz[2] = {2, 3};
    tsr_tensor *t = tsr_tensor_empty(2, sz, TSR_FLOAT32, TSR_CPU);
    tsr_name nm[2] = {a ? tsr_name_intern(a) : NULL, b ? tsr_name_intern(b) : NULL};
    if (t && tsr_tensor_set_names(t, nm, 2) < 0) tsr_error_clear();
    return t;
}

TEST(named_set_names_checks)
{
    tsr_tensor *t = named2(NULL, NULL);
    CHECK(t && t->names == NULL);   /* all wildcards: stays unnamed */
    tsr_name one[1] = {tsr_name_intern("N")};
    CHECK_EQ_INT(tsr_tensor_set_names(t, one, 1), -1);
    CHECK_STR(tsr_error_message(), "Number of names (1) and number of dimensions in tensor (2) do not match. "
                                   "Attempted to create a tensor with names ['N']");
    tsr_error_clear();
    tsr_name dup[2] = {one[0], one[0]};
    CHECK_EQ_INT(tsr_tensor_set_names(t, dup, 2), -1);
    CHECK_STR(tsr_error_message(), "Cannot construct a tensor with duplicate names. Got names: ['N', 'N'].");
    tsr_error_clear();
    CHECK(t->names == NULL);   /* a refused setter changes nothing */
    tsr_tensor_release(t);
}

TEST(named_out_and_resize)
{
    tsr_tensor *t = named2("N", "C");
    CHECK(t && t->names);
    tsr_name none[2] = {NULL, NULL};
    CHECK_EQ_INT(tsr_names_check_out(t, none, 2), -1);
    CHECK_STR(tsr_error_message(), "Name mismatch: specified out tensor with names ['N', 'C'] are not the same as "
                                   "the computed output names [None, None]. Please rename the out tensor's dims "
                                   "with `Tensor.rename`.");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_names_check_out(t, t->names, 2), 0);
    int64_t sz[2] = {3, 2};
    CHECK_EQ_INT(tsr_names_check_resize(t, 2, sz), -1);
    CHECK_STR(tsr_error_message(), "Cannot resize named tensor with resize_ or resize_as_ (tried to resize "
                                   "Tensor['N', 'C'] with size [2, 3] to [3, 2]). This may be caused by passing a "
                                   "named tensor as an `out=` argument; please ensure that the sizes are the same. ");
    tsr_error_clear();
    tsr_tensor_release(t);
}

TEST(named_elementwise_unify)
{
    tsr_tensor *a = named2("N", NULL), *b = named2(NULL, "C"), *c = named2("A", "B");
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b), oc = tsr_operand_tensor(c);
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &oa, &ob, NULL, NULL);
    CHECK(r && r->names && r->names[0] == tsr_name_intern("N") && r->names[1] == tsr_name_intern("C"));
    tsr_tensor *e = tsr_binary(TSR_BINOP_MUL, &oc, &ob, NULL, NULL);
    CHECK(e == NULL);
    CHECK_STR(tsr_error_message(), "Error when attempting to broadcast dims ['A', 'B'] and dims [None, 'C']: dim "
                                   "'B' and dim 'C' are at the same position from the right but do not match.");
    tsr_error_clear();
    tsr_tensor *u = named2(NULL, NULL);   /* an unnamed out= receives the names */
    tsr_tensor *w = tsr_binary(TSR_BINOP_ADD, &oa, &ob, u, NULL);
    CHECK(w == u && u->names && u->names[1] == tsr_name_intern("C"));
    tsr_tensor_release(w);
    tsr_tensor_release(u);
    tsr_tensor_release(r);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(c);
}
