/* src/bind/exceptions.h — Python's exception classes as values and the
 * hierarchy `except` matches by. The pending exception itself stays the
 * value record (value.h exc_*): a type name, a message, and the instance
 * when one was raised as a value. */
#ifndef TSR_BIND_EXCEPTIONS_H
#define TSR_BIND_EXCEPTIONS_H

#include "value.h"

bool bind_exc_is_class(Value *v);         /* RuntimeError, Exception, ... */
bool bind_exc_is_instance(Value *v);      /* RuntimeError('x') */
/* Whether class t is of (or derives from) class of; false for other types. */
bool bind_exc_subclass(const VType *t, const VType *of);
/* Whether an exception raised by type name is caught by `except cls`
 * (cls an exception class); a name the table lacks counts as an Exception. */
bool bind_exc_name_matches(const char *type, Value *cls);
/* The instance `except ... as e` binds for an exception raised by name:
 * args (msg,), or () when msg is empty. New reference. */
Value *bind_exc_from_record(const char *type, const char *msg);
/* `raise x`: x an exception class (instantiated without arguments) or
 * instance; otherwise Python's TypeError. Always returns -1 with the
 * exception pending. */
int bind_exc_raise(Value *x);

#endif
