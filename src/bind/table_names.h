/* src/bind/table_names.h — the binding table's named-tensor step
 * (table_names.c): each row's names rule, and the call wrapper that applies
 * it or refuses named inputs with 1.13's fallback message. */
#ifndef TSR_BIND_TABLE_NAMES_H
#define TSR_BIND_TABLE_NAMES_H

#include "bind/table.h"

/* The rule family of the row called name (its BindRow.names_rule). */
unsigned char bind_names_rule_of(const char *name);
/* Runs call(d, fname, b, self, inplace) under d's names rule: unchanged when
 * no argument has names; else refused, or the result (out=, self) given the
 * names computed before the call. NEW reference or NULL. */
Value *bind_names_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);

#endif
