/* tests/unit/test_parse.c — the grammar: every construct, Python's
 * precedence and associativity, statement cutting and syntax errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "unit.h"

static char got[8192];

/* Parses src; returns the dump of every statement, separated by " | ", or
 * "ERR Type: message @line:col" for a syntax error. */
static const char *parse(const char *src)
{
    Chunk *c = chunk_new("<test>", src, strlen(src));
    Parser p;
    parser_init(&p, c);
    got[0] = 0;
    for (int i = 0; i < 50; i++) {
        Node *n;
        int r = parser_next(&p, &n, NULL);
        if (r == 0) break;
        if (got[0]) strcat(got, " | ");
        if (r < 0) {
            char e[300];
            Span sp = exc_span();
            snprintf(e, sizeof e, "ERR %s: %s @%d:%d", exc_type(), exc_message(), sp.line, sp.col);
            strcat(got, e);
            exc_clear();
            continue;
        }
        char *d = ast_dump(n);
        strncat(got, d, sizeof got - strlen(got) - 1);
        free(d);
    }
    parser_fini(&p);
    chunk_unref(c);
    return got;
}

TEST(parse_precedence)
{
    CHECK_STR(parse("-2**2"), "(expr (- (** 2 2)))");
    CHECK_STR(parse("2**-1"), "(expr (** 2 (- 1)))");
    CHECK_STR(parse("2**3**2"), "(expr (** 2 (** 3 2)))");
    CHECK_STR(parse("1 + 2 * 3 - 4"), "(expr (- (+ 1 (* 2 3)) 4))");
    CHECK_STR(parse("a | b ^ c & d << e + f"), "(expr (| a (^ b (& c (<< d (+ e f))))))");
    CHECK_STR(parse("not a == b"), "(expr (not (cmp a == b)))");
    CHECK_STR(parse("a or b and not c"), "(expr (or a (and b (not c))))");
    CHECK_STR(parse("a < b <= c != d"), "(expr (cmp a < b <= c != d))");
    CHECK_STR(parse("(a < b) < c"), "(expr (cmp (cmp a < b) < c))");
    CHECK_STR(parse("x not in y is not z"), "(expr (cmp x not in y is not z))");
    CHECK_STR(parse("a if b else c if d else e"), "(expr (ifexp b a (ifexp d c e)))");
    CHECK_STR(parse("-x.y[0](1)"), "(expr (- (call (subscript (. x y) 0) 1)))");
    CHECK_STR(parse("~-+x"), "(expr (~ (- (+ x))))");
    CHECK_STR(parse("a @ b % c // d / e"), "(expr (/ (// (% (@ a b) c) d) e))");
}

TEST(parse_atoms)
{
    CHECK_STR(parse("()"), "(expr (tuple))");
    CHECK_STR(parse("(1,)"), "(expr (tuple 1))");
    CHECK_STR(parse("(1)"), "(expr 1)");
    CHECK_STR(parse("1, 2,"), "(expr (tuple 1 2))");
    CHECK_STR(parse("[1, 2,]"), "(expr (list 1 2))");
    CHECK_STR(parse("{'a': 1, 'b': 2}"), "(expr (dict 'a' 1 'b' 2))");
    CHECK_STR(parse("'a' 'b'"), "(expr 'ab')");
    CHECK_STR(parse("None, True, False, ..."), "(expr (tuple None True False Ellipsis))");
    CHECK_STR(parse("0x1f, 1_000, 1., .5, 1e-3, 2j"), "(expr (tuple 31 1000 1.0 0.5 0.001 2j))");
    CHECK_STR(parse("[x * 2 for x in y if x if x > 1]"), "(expr (listcomp (* x 2) (compfor x y x (cmp x > 1))))");
    CHECK_STR(parse("lambda x, y=2, *a: x"), "(expr (lambda x x y=2 *a))");
}

TEST(parse_calls_and_subscripts)
{
    CHECK_STR(parse("f(a, b=1, *c, **d)"), "(expr (call f a (kw b 1) (starred c) (starred d)))");
    CHECK_STR(parse("f(x for x in y)"), "(expr (call f (listcomp x (compfor x y))))");
    CHECK_STR(parse("x[1:2]"), "(expr (subscript x (slice 1 2)))");
    CHECK_STR(parse("x[::2, None, ...]"), "(expr (subscript x (tuple (slice 2) None Ellipsis)))");
    CHECK_STR(parse("x[a, ]"), "(expr (subscript x (tuple a)))");
    CHECK_STR(parse("x[:]"), "(expr (subscript x (slice)))");
}

TEST(parse_statements)
{
    CHECK_STR(parse("a = b = 1"), "(assign 1 a b)");
    CHECK_STR(parse("a, b = b, a"), "(assign (tuple b a) (tuple a b))");
    CHECK_STR(parse("x[0] += 1"), "(+= (subscript x 0) 1)");
    CHECK_STR(parse("del a, b[0]"), "(del a (subscript b 0))");
    CHECK_STR(parse("1; 2"), "(block (expr; 1) (expr 2))");
    CHECK_STR(parse("1; 2;"), "(block (expr; 1) (expr; 2))");
    CHECK_STR(parse("import torch as t"), "(import torch as t)");
    CHECK_STR(parse("import torch.nn.functional"), "(import torch.nn.functional)");
    CHECK_STR(parse("import torch, time as t"), "(block (import torch) (import time as t))");
    CHECK_STR(parse("from math import sqrt, pi as p"), "(from math sqrt pi)");
    CHECK_STR(parse("assert x, 'm'"), "(assert x 'm')");
    CHECK_STR(parse("pass; break; continue; return"), "(block (pass) (break) (continue) (return))");
}

TEST(parse_compound)
{
    CHECK_STR(parse("if a:\n    b\nelif c:\n    d\nelse:\n    e\n"), "(if a (expr b) (if c (expr d) (expr e)))");
    CHECK_STR(parse("while x: x -= 1"), "(while x (-= x 1))");
    CHECK_STR(parse("for i, j in z:\n    pass\nelse:\n    q\n"), "(for z (pass) (expr q) (tuple i j))");
    CHECK_STR(parse("with torch.device('meta') as d:\n    x\n"), "(with (call (. torch device) 'meta') (expr x) d)");
    CHECK_STR(parse("def f(a, b=1, *c):\n    return a\n"), "(def f ( a b=1 *c) (return a))");
}

TEST(parse_statement_cutting)
{
    /* a statement ends where the next line starts at column 0 */
    CHECK_STR(parse("if a:\n    b\nc\n"), "(if a (expr b)) | (expr c)");
    CHECK_STR(parse("x = (1,\n2)\ny\n"), "(assign (tuple 1 2) x) | (expr y)");
    CHECK_STR(parse("\n\n# c\nx\n\n"), "(expr x)");
}

TEST(parse_errors)
{
    CHECK_STR(parse("x +\ny\n"), "ERR SyntaxError: invalid syntax @1:4 | (expr y)");
    CHECK_STR(parse("1 = x"), "ERR SyntaxError: cannot assign to literal here. Maybe you meant '==' instead of '='? @1:1");
    CHECK_STR(parse("f() = 1"), "ERR SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:1");
    CHECK_STR(parse("del 1"), "ERR SyntaxError: cannot delete literal @1:5");
    CHECK_STR(parse("if x\n    y\n"), "ERR SyntaxError: expected ':' @1:5");
    CHECK_STR(parse("if x:\ny\n"), "ERR IndentationError: expected an indented block after 'if' statement on line 1 @2:1 | (expr y)");
    CHECK_STR(parse("  x = 1\n"), "ERR IndentationError: unexpected indent @1:3");
    CHECK_STR(parse("print 'x'"), "ERR SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)? @1:7");
    CHECK_STR(parse("f(a=1, b)"), "ERR SyntaxError: positional argument follows keyword argument @1:8");
    CHECK_STR(parse("def f(a=1, b): pass"), "ERR SyntaxError: non-default argument follows default argument @1:12");
    CHECK_STR(parse("class A: pass"), "ERR SyntaxError: 'class' is not supported by tsr @1:1");
    CHECK_STR(parse("x = 99999999999999999999"), "ERR SyntaxError: integer literal too large: tsr ints are 64-bit @1:5");
}

TEST(parse_deep_nesting)
{
    char src[1000];
    memset(src, '(', 200);
    src[200] = '1';
    memset(src + 201, ')', 200);
    src[401] = 0;
    CHECK_STR(parse(src), "(expr 1)");
    char *deep = malloc(20001);
    memset(deep, '-', 20000);
    deep[19999] = '1';
    deep[20000] = 0;
    const char *r = parse(deep);
    CHECK(strstr(r, "ERR RecursionError: maximum recursion depth exceeded during compilation") == r);
    free(deep);
}

TEST(parse_try_raise)
{
    CHECK_STR(parse("try:\n    a\nexcept ValueError as e:\n    b\nexcept (A, B):\n    c\nexcept:\n    d\n"
                    "else:\n    f\nfinally:\n    g\n"),
              "(try (expr a) (expr f) (expr g) (except ValueError as e (expr b)) (except (tuple A B) (expr c))"
              " (except _ (expr d)))");
    CHECK_STR(parse("try:\n    a\nfinally:\n    b\nx"), "(try (expr a) (expr b)) | (expr x)");
    CHECK_STR(parse("raise"), "(raise)");
    CHECK_STR(parse("raise E('m') from None"), "(raise (call E 'm') None)");
    CHECK_STR(parse("try:\n    a\nx\n"), "ERR SyntaxError: expected 'except' or 'finally' block @3:1 | (expr x)");
    CHECK_STR(parse("try:\n    a\nexcept:\n    b\nexcept E:\n    c\n"),
              "ERR SyntaxError: default 'except:' must be last @3:1");
}

TEST(parse_fstrings)
{
    CHECK_STR(parse("f'a{x:.2f}b'"), "(expr (fstring 'a' (field x :(fstring '.2f')) 'b'))");
    CHECK_STR(parse("f'{x!r:>{w}}'"), "(expr (fstring (field x !r :(fstring '>' (field w)))))");
    CHECK_STR(parse("f'{x=}'"), "(expr (fstring 'x=' (field x !r)))");
    CHECK_STR(parse("'a' f'{y}' 'b'"), "(expr (fstring 'a' (field y) 'b'))");
    CHECK_STR(parse("f'{{}}'"), "(expr (fstring '{' '}'))");
    CHECK_STR(parse("f'{}'"), "ERR SyntaxError: f-string: empty expression not allowed @1:4");
    CHECK_STR(parse("f'}'"), "ERR SyntaxError: f-string: single '}' is not allowed @1:3");
    CHECK_STR(parse("f'{x!z}'"), "ERR SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a' @1:6");
}
