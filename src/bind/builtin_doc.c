/* src/bind/builtin_doc.c — what Python 3.11's help() prints for tsr's
 * built-in functions (pydoc's text). Written by scripts/gen-builtin-doc;
 * do not edit. */
#include <string.h>

#include "bind/bind.h"

static const struct { const char *name, *doc; } docs[] = {
    {"print",
        "print(*args, sep=' ', end='\\n', file=None, flush=False)\n"
        "    Prints the values to a stream, or to sys.stdout by default.\n"
        "    \n"
        "    sep\n"
        "      string inserted between values, default a space.\n"
        "    end\n"
        "      string appended after the last value, default a newline.\n"
        "    file\n"
        "      a file-like object (stream); defaults to the current sys.stdout.\n"
        "    flush\n"
        "      whether to forcibly flush the stream.\n"},
    {"repr",
        "repr(obj, /)\n"
        "    Return the canonical string representation of the object.\n"
        "    \n"
        "    For many object types, including most builtins, eval(repr(obj)) == obj.\n"},
    {"len",
        "len(obj, /)\n"
        "    Return the number of items in a container.\n"},
    {"isinstance",
        "isinstance(obj, class_or_tuple, /)\n"
        "    Return whether an object is an instance of a class or of a subclass thereof.\n"
        "    \n"
        "    A tuple, as in ``isinstance(x, (A, B, ...))``, may be given as the target to\n"
        "    check against. This is equivalent to ``isinstance(x, A) or isinstance(x, B)\n"
        "    or ...`` etc.\n"},
    {"callable",
        "callable(obj, /)\n"
        "    Return whether the object is callable (i.e., some kind of function).\n"
        "    \n"
        "    Note that classes are callable, as are instances of classes with a\n"
        "    __call__() method.\n"},
    {"getattr",
        "getattr(...)\n"
        "    getattr(object, name[, default]) -> value\n"
        "    \n"
        "    Get a named attribute from an object; getattr(x, 'y') is equivalent to x.y.\n"
        "    When a default argument is given, it is returned when the attribute doesn't\n"
        "    exist; without it, an exception is raised in that case.\n"},
    {"hasattr",
        "hasattr(obj, name, /)\n"
        "    Return whether the object has an attribute with the given name.\n"
        "    \n"
        "    This is done by calling getattr(obj, name) and catching AttributeError.\n"},
    {"setattr",
        "setattr(obj, name, value, /)\n"
        "    Sets the named attribute on the given object to the specified value.\n"
        "    \n"
        "    setattr(x, 'y', v) is equivalent to ``x.y = v``\n"},
    {"hash",
        "hash(obj, /)\n"
        "    Return the hash value for the given object.\n"
        "    \n"
        "    Two objects that compare equal must also have the same hash value, but the\n"
        "    reverse is not necessarily true.\n"},
    {"id",
        "id(obj, /)\n"
        "    Return the identity of an object.\n"
        "    \n"
        "    This is guaranteed to be unique among simultaneously existing objects.\n"
        "    (CPython uses the object's memory address.)\n"},
    {"abs",
        "abs(x, /)\n"
        "    Return the absolute value of the argument.\n"},
    {"round",
        "round(number, ndigits=None)\n"
        "    Round a number to a given precision in decimal digits.\n"
        "    \n"
        "    The return value is an integer if ndigits is omitted or None.  Otherwise\n"
        "    the return value has the same type as the number.  ndigits may be negative.\n"},
    {"divmod",
        "divmod(x, y, /)\n"
        "    Return the tuple (x//y, x%y).  Invariant: div*y + mod == x.\n"},
    {"pow",
        "pow(base, exp, mod=None)\n"
        "    Equivalent to base**exp with 2 arguments or base**exp % mod with 3 arguments\n"
        "    \n"
        "    Some types, such as ints, are able to use a more efficient algorithm when\n"
        "    invoked using the three argument form.\n"},
    {"min",
        "min(...)\n"
        "    min(iterable, *[, default=obj, key=func]) -> value\n"
        "    min(arg1, arg2, *args, *[, key=func]) -> value\n"
        "    \n"
        "    With a single iterable argument, return its smallest item. The\n"
        "    default keyword-only argument specifies an object to return if\n"
        "    the provided iterable is empty.\n"
        "    With two or more arguments, return the smallest argument.\n"},
    {"max",
        "max(...)\n"
        "    max(iterable, *[, default=obj, key=func]) -> value\n"
        "    max(arg1, arg2, *args, *[, key=func]) -> value\n"
        "    \n"
        "    With a single iterable argument, return its biggest item. The\n"
        "    default keyword-only argument specifies an object to return if\n"
        "    the provided iterable is empty.\n"
        "    With two or more arguments, return the largest argument.\n"},
    {"sum",
        "sum(iterable, /, start=0)\n"
        "    Return the sum of a 'start' value (default: 0) plus an iterable of numbers\n"
        "    \n"
        "    When the iterable is empty, return the start value.\n"
        "    This function is intended specifically for use with numeric values and may\n"
        "    reject non-numeric types.\n"},
    {"any",
        "any(iterable, /)\n"
        "    Return True if bool(x) is True for any x in the iterable.\n"
        "    \n"
        "    If the iterable is empty, return False.\n"},
    {"all",
        "all(iterable, /)\n"
        "    Return True if bool(x) is True for all values x in the iterable.\n"
        "    \n"
        "    If the iterable is empty, return True.\n"},
    {"chr",
        "chr(i, /)\n"
        "    Return a Unicode string of one character with ordinal i; 0 <= i <= 0x10ffff.\n"},
    {"ord",
        "ord(c, /)\n"
        "    Return the Unicode code point for a one-character string.\n"},
    {"hex",
        "hex(number, /)\n"
        "    Return the hexadecimal representation of an integer.\n"
        "    \n"
        "    >>> hex(12648430)\n"
        "    '0xc0ffee'\n"},
    {"oct",
        "oct(number, /)\n"
        "    Return the octal representation of an integer.\n"
        "    \n"
        "    >>> oct(342391)\n"
        "    '0o1234567'\n"},
    {"bin",
        "bin(number, /)\n"
        "    Return the binary representation of an integer.\n"
        "    \n"
        "    >>> bin(2796202)\n"
        "    '0b1010101010101010101010'\n"},
    {"iter",
        "iter(...)\n"
        "    iter(iterable) -> iterator\n"
        "    iter(callable, sentinel) -> iterator\n"
        "    \n"
        "    Get an iterator from an object.  In the first form, the argument must\n"
        "    supply its own iterator, or be a sequence.\n"
        "    In the second form, the callable is called until it returns the sentinel.\n"},
    {"next",
        "next(...)\n"
        "    next(iterator[, default])\n"
        "    \n"
        "    Return the next item from the iterator. If default is given and the iterator\n"
        "    is exhausted, it is returned instead of raising StopIteration.\n"},
    {"sorted",
        "sorted(iterable, /, *, key=None, reverse=False)\n"
        "    Return a new list containing all items from the iterable in ascending order.\n"
        "    \n"
        "    A custom key function can be supplied to customize the sort order, and the\n"
        "    reverse flag can be set to request the result in descending order.\n"},
    {"dir",
        "dir(...)\n"
        "    dir([object]) -> list of strings\n"
        "    \n"
        "    If called without an argument, return the names in the current scope.\n"
        "    Else, return an alphabetized list of names comprising (some of) the attributes\n"
        "    of the given object, and of attributes reachable from it.\n"
        "    If the object supplies a method named __dir__, it will be used; otherwise\n"
        "    the default dir() logic is used and returns:\n"
        "      for a module object: the module's attributes.\n"
        "      for a class object:  its attributes, and recursively the attributes\n"
        "        of its bases.\n"
        "      for any other object: its attributes, its class's attributes, and\n"
        "        recursively the attributes of its class's base classes.\n"},
};

const char *bind_builtin_doc(const char *name)
{
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
        if (!strcmp(docs[i].name, name)) return docs[i].doc;
    return NULL;
}
