/* src/bind/hint.c — the line the REPL adds under an AttributeError, so that
 * a user can tell a gap in tsr from a typo: a PyTorch 1.13 name tsr lacks
 * gets a note, any other the nearest existing name, chosen as Python 3.12
 * chooses it (Python/suggestions.c). */
#include <stdio.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/torch_api.h"

#define MOVE_COST 2
#define CASE_COST 1
#define MAX_STRING_SIZE 40

static size_t substitution_cost(char a, char b)
{
    if (a == b) return 0;
    if (a >= 'A' && a <= 'Z') a += 'a' - 'A';
    if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
    return a == b ? CASE_COST : MOVE_COST;
}

/* suggestions.c levenshtein_distance: max_cost + 1 when over max_cost. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb, size_t max_cost)
{
    size_t buffer[MAX_STRING_SIZE];
    while (na && nb && a[0] == b[0]) { a++; b++; na--; nb--; }
    while (na && nb && a[na - 1] == b[nb - 1]) { na--; nb--; }
    if (na == 0 || nb == 0) return (na + nb) * MOVE_COST;
    if (na > MAX_STRING_SIZE || nb > MAX_STRING_SIZE) return max_cost + 1;
    if (nb < na) {
        const char *t = a; a = b; b = t;
        size_t tn = na; na = nb; nb = tn;
    }
    if ((nb - na) * MOVE_COST > max_cost) return max_cost + 1;
    for (size_t i = 0; i < na; i++) buffer[i] = (i + 1) * MOVE_COST;
    size_t result = 0;
    for (size_t bi = 0; bi < nb; bi++) {
        size_t d = result = bi * MOVE_COST, minimum = (size_t)-1;
        for (size_t i = 0; i < na; i++) {
            size_t sub = d + substitution_cost(b[bi], a[i]);
            d = buffer[i];
            size_t ins = (result < d ? result : d) + MOVE_COST;
            result = ins < sub ? ins : sub;
            buffer[i] = result;
            if (result < minimum) minimum = result;
        }
        if (minimum > max_cost) return max_cost + 1;
    }
    return result;
}

/* The nearest of names (a list of str) to name, or NULL (borrowed). Python
 * gives up past 750 candidates; tsr's modules are smaller than PyTorch's,
 * so every name is tried. */
static Value *nearest(Value *names, const char *name)
{
    size_t n = strlen(name), best_d = (size_t)-1;
    Value *best = NULL;
    for (size_t i = 0; i < seq_len(names); i++) {
        Value *item = seq_get(names, i);
        if (item->type != &t_str || !strcmp(item->u.s.p, name)) continue;
        size_t max = (n + item->u.s.n + 3) * MOVE_COST / 6;
        if (best && best_d - 1 < max) max = best_d - 1;
        size_t d = distance(name, n, item->u.s.p, item->u.s.n, max);
        if (d > max) continue;
        if (!best || d < best_d) { best = item; best_d = d; }
    }
    return best;
}

Value *bind_error_hint(const char *type, const char *msg)
{
    char mod[128], attr[128];
    if (strcmp(type, "AttributeError") != 0) return NULL;
    if (sscanf(msg, "module '%127[^']' has no attribute '%127[^']'", mod, attr) != 2) return NULL;
    char q[300];
    snprintf(q, sizeof q, "%s.%s", mod, attr);
    if (torch_api_find(q)) return v_strf("note: %s is in PyTorch 1.13 but not in tsr yet", q);
    Value *m = bind_find_module(mod);
    if (!m) return NULL;
    Value *names = bind_dir_of(m);
    if (!names) { exc_clear(); return NULL; }
    Value *best = nearest(names, attr);
    Value *hint = best ? v_strf("Did you mean: '%s'?", best->u.s.p) : NULL;
    decref(names);
    return hint;
}
