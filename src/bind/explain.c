/* src/bind/explain.c — the store of the :explain trace (bind/explain.h).
 * A step is printed (show_explain_step) when it is recorded; the store keeps
 * the copies, operand tensors retained, until explain_end. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bind/explain.h"
#include "named.h"
#include "value.h"

static bool active;
static ExplainStep *steps;     /* copies: strings duplicated, tensors retained */
static int nsteps, capsteps;
static long total;             /* steps recorded, shown or not */
static bool color;             /* bold headers on a terminal */
static int shown_names;        /* name-inference steps printed (not stored) */
static const tsr_tensor *pre_t;                 /* explain_written_before's tensor */
static tsr_name pre_names[TSR_MAX_NAMED_DIMS];
static bool pre_named;

bool explain_active(void) { return active; }

static char *dup_or_null(const char *s) { return s ? value_xstrdup(s) : NULL; }

static void step_free(ExplainStep *s)
{
    for (int i = 0; i < s->noperands; i++) {
        tsr_tensor_release((tsr_tensor *)s->operands[i].t);
        free((char *)s->operand_text[i]);
    }
    free((char *)s->op);
    free((char *)s->symbol);
    free((char *)s->dtype_rule);
    free((char *)s->refused);
    tsr_tensor_release((tsr_tensor *)s->out_t);
}

void explain_record(const ExplainStep *step)
{
    if (!active || !step) return;
    total++;
    if (total > EXPLAIN_SHOW_MAX) return;
    if (nsteps == capsteps) {
        int cap = capsteps ? 2 * capsteps : 8;
        ExplainStep *p = value_try_realloc(steps, (size_t)cap * sizeof *p);
        if (!p) return;        /* the trace is a view: losing a step is not an error */
        steps = p;
        capsteps = cap;
    }
    ExplainStep *s = &steps[nsteps++];
    *s = *step;
    if (s->noperands < 0) s->noperands = 0;
    if (s->noperands > EXPLAIN_MAX_OPERANDS) s->noperands = EXPLAIN_MAX_OPERANDS;
    for (int i = 0; i < s->noperands; i++) {
        if (s->operands[i].t) tsr_tensor_retain((tsr_tensor *)s->operands[i].t);
        s->operand_text[i] = dup_or_null(step->operand_text[i]);
    }
    for (int i = s->noperands; i < EXPLAIN_MAX_OPERANDS; i++) {
        s->operands[i].t = NULL;
        s->operand_text[i] = NULL;
    }
    s->op = dup_or_null(step->op);
    s->symbol = dup_or_null(step->symbol);
    s->dtype_rule = dup_or_null(step->dtype_rule);
    s->refused = dup_or_null(step->refused);
    if (s->out_t) tsr_tensor_retain((tsr_tensor *)s->out_t);
    if (s->ndim < 0) s->ndim = 0;
    if (s->ndim > TSR_MAX_DIMS) s->ndim = TSR_MAX_DIMS;
    /* the written tensor is shown with the names it had before the op */
    tsr_tensor *w = (tsr_tensor *)pre_t;
    tsr_name now[TSR_MAX_NAMED_DIMS];
    bool now_named = false;
    if (w && (w == s->out_t || (s->inplace && s->noperands && w == s->operands[0].t)) && w->ndim <= TSR_MAX_NAMED_DIMS) {
        now_named = w->names != NULL;
        if (now_named) memcpy(now, w->names, sizeof *now * (size_t)w->ndim);
        if (pre_named) tsr_names_propagate_raw(w, pre_names, w->ndim);
        else tsr_tensor_set_names(w, NULL, 0);
    } else {
        w = NULL;
    }
    /* printing must not record: an op run by the printer is not part of EXPR */
    active = false;
    show_explain_step(s, nsteps + shown_names, color);
    if (w) {
        if (now_named) tsr_names_propagate_raw(w, now, w->ndim);
        else tsr_tensor_set_names(w, NULL, 0);
    }
    pre_t = NULL;
    fflush(stdout);
    active = true;
}

long explain_steps_recorded(void) { return total; }

void explain_written_before(const tsr_tensor *t)
{
    pre_t = NULL;
    if (!active || !t || t->ndim > TSR_MAX_NAMED_DIMS) return;
    pre_t = t;
    pre_named = t->names != NULL;
    if (pre_named) memcpy(pre_names, t->names, sizeof *pre_names * (size_t)t->ndim);
}

void explain_record_names(const ExplainNames *step)
{
    if (!active || !step) return;
    total++;
    if (total > EXPLAIN_SHOW_MAX) return;
    shown_names++;
    active = false;
    show_explain_names(step, nsteps + shown_names, color);
    fflush(stdout);
    active = true;
}

void explain_names_index(const tsr_tensor *self, const tsr_tensor *r)
{
    if (!active) return;
    ExplainNames e;
    memset(&e, 0, sizeof e);
    e.op = "__getitem__";
    e.family = "Removes dimensions";
    e.rule = "Indexing with an int is select: that dim and its name disappear; a slice or ... keeps its dims "
             "with their names. 1.13 refuses a None (a new dim) and advanced indexing (a tensor or list index) "
             "of a named tensor.";
    e.noperands = 1;
    e.operands[0] = self;
    e.label[0] = "self";
    e.nresult = r ? r->ndim : -1;
    for (int i = 0; r && i < r->ndim && i < TSR_MAX_DIMS; i++) e.result[i] = r->names ? r->names[i] : NULL;
    e.error = r ? NULL : exc_pending() ? exc_message() : "the operation fails";
    e.refused = !r && strstr(e.error, "is not yet supported with named tensors");
    explain_record_names(&e);
}

void explain_begin(bool use_color)
{
    active = true;
    total = 0;
    nsteps = 0;
    shown_names = 0;
    color = use_color;
}

long explain_stop(void)
{
    active = false;
    return total;
}

void explain_end(void)
{
    active = false;
    for (int i = 0; i < nsteps; i++) step_free(&steps[i]);
    free(steps);
    steps = NULL;
    nsteps = capsteps = 0;
}
