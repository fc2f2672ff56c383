/* src/bind/explain.c — the store of the :explain trace (bind/explain.h).
 * A step is printed (show_explain_step) when it is recorded; the store keeps
 * the copies, operand tensors retained, until explain_end. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bind/explain.h"
#include "value.h"

static bool active;
static ExplainStep *steps;     /* copies: strings duplicated, tensors retained */
static int nsteps, capsteps;
static long total;             /* steps recorded, shown or not */
static bool color;             /* bold headers on a terminal */

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
    if (s->ndim < 0) s->ndim = 0;
    if (s->ndim > TSR_MAX_DIMS) s->ndim = TSR_MAX_DIMS;
    /* printing must not record: an op run by the printer is not part of EXPR */
    active = false;
    show_explain_step(s, nsteps, color);
    fflush(stdout);
    active = true;
}

void explain_begin(bool use_color)
{
    active = true;
    total = 0;
    nsteps = 0;
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
