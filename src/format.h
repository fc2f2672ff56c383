/* src/format.h — Python's string formatting: format(value, spec), str % args,
 * str.format. Types the value floor does not know format through their
 * __format__ / __int__ / __float__ attributes (a tensor's). */
#ifndef TSR_FORMAT_H
#define TSR_FORMAT_H

#include "value.h"

/* format(v, spec): Python's format-spec mini-language for int, bool, float
 * and str; other values through their __format__, else str(v) for an empty
 * spec and TypeError otherwise. New str, or NULL with the exception. */
Value *format_value(Value *v, const char *spec, size_t n);
/* fmt % args (fmt a str). New str or NULL. */
Value *format_percent(Value *fmt, Value *args);
/* fmt.format(*args, **kwargs). New str or NULL. */
Value *format_method(Value *fmt, CallArgs *a);
/* The !r / !s / !a conversion of a replacement field (conv 0: v itself). */
Value *format_convert(Value *v, char conv);
/* ascii(v): repr with non-ASCII characters escaped. */
Value *format_ascii(Value *v);

#endif
