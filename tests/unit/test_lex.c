/* tests/unit/test_lex.c — the tokenizer: tokens, positions, INDENT/DEDENT,
 * joining, numbers and strings, and errors with CPython's wording. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "unit.h"

/* Token kinds as a compact string: names for punctuation-free checking. */
static const char *kind(int k)
{
    switch (k) {
    case TK_NAME: return "NAME";
    case TK_NUMBER: return "NUM";
    case TK_STRING: return "STR";
    case TK_NEWLINE: return "NL";
    case TK_INDENT: return "IN";
    case TK_DEDENT: return "DE";
    case TK_ENDMARKER: return "END";
    case TK_ERROR: return "ERR";
    case TK_IF: return "if";
    case TK_TRY: return "try";
    case TK_EXCEPT: return "except";
    case TK_FINALLY: return "finally";
    case TK_RAISE: return "raise";
    case TK_AS: return "as";
    case TK_FOR: return "for";
    case TK_IN: return "in";
    case TK_NOT: return "not";
    case TK_LPAREN: return "(";
    case TK_RPAREN: return ")";
    case TK_LSQB: return "[";
    case TK_RSQB: return "]";
    case TK_COLON: return ":";
    case TK_COMMA: return ",";
    case TK_PLUS: return "+";
    case TK_MINUS: return "-";
    case TK_POW: return "**";
    case TK_STAR: return "*";
    case TK_ASSIGN: return "=";
    case TK_AUGASSIGN: return "AUG";
    case TK_DOT: return ".";
    case TK_ELLIPSIS: return "...";
    case TK_EQ: return "==";
    case TK_LE: return "<=";
    case TK_RSHIFT: return ">>";
    case TK_DSLASH: return "//";
    case TK_SEMI: return ";";
    case TK_UNSUPPORTED: return "UNSUP";
    default: return "?";
    }
}

static char out[4096];

static const char *tokens(const char *src)
{
    Lexer lx;
    Token t;
    lex_init(&lx, src, strlen(src));
    out[0] = 0;
    for (int i = 0; i < 200; i++) {
        int k = lex_next(&lx, &t);
        if (out[0]) strcat(out, " ");
        strcat(out, kind(k));
        if (k == TK_ENDMARKER || k == TK_ERROR) break;
    }
    return out;
}

static const char *first_error(const char *src)
{
    Lexer lx;
    Token t;
    lex_init(&lx, src, strlen(src));
    for (int i = 0; i < 1000; i++) {
        int k = lex_next(&lx, &t);
        if (k == TK_ERROR) {
            snprintf(out, sizeof out, "%d:%d: %s: %s", lx.err_line, lx.err_col, lx.err_type, lx.err);
            return out;
        }
        if (k == TK_ENDMARKER) break;
    }
    return "no error";
}

TEST(lex_simple_statement)
{
    CHECK_STR(tokens("x = 1 + 2"), "NAME = NUM + NUM NL END");
    CHECK_STR(tokens("a.b(c, *d)[...]"), "NAME . NAME ( NAME , * NAME ) [ ... ] NL END");
    CHECK_STR(tokens("x += y // z ** 2 >> 1"), "NAME AUG NAME // NAME ** NUM >> NUM NL END");
    CHECK_STR(tokens("a == b <= c; d"), "NAME == NAME <= NAME ; NAME NL END");
    CHECK_STR(tokens("not x in y"), "not NAME in NAME NL END");
    CHECK_STR(tokens("class A"), "UNSUP NAME NL END");
}

TEST(lex_indent_dedent)
{
    CHECK_STR(tokens("if x:\n    y\nz\n"), "if NAME : NL IN NAME NL DE NAME NL END");
    CHECK_STR(tokens("for i in r:\n  if i:\n    a\n  b\n"),
              "for NAME in NAME : NL IN if NAME : NL IN NAME NL DE NAME NL DE END");
    /* blank and comment lines do not count */
    CHECK_STR(tokens("if x:\n\n    # c\n    y\n"), "if NAME : NL IN NAME NL DE END");
    CHECK_STR(first_error("if 1:\n    x\n  y\n"),
              "3:3: IndentationError: unindent does not match any outer indentation level");
}

TEST(lex_joining)
{
    CHECK_STR(tokens("f(1,\n  2)\nx"), "NAME ( NUM , NUM ) NL NAME NL END");
    CHECK_STR(tokens("x = 1 + \\\n  2\n"), "NAME = NUM + NUM NL END");
    CHECK_STR(tokens("[\n1,\n]"), "[ NUM , ] NL END");
}

TEST(lex_positions)
{
    Lexer lx;
    Token t;
    const char *src = "ab = 12\n  \ncd(x)";
    lex_init(&lx, src, strlen(src));
    int want[][2] = {{1, 1}, {1, 4}, {1, 6}, {1, 8}, {3, 1}, {3, 3}, {3, 4}, {3, 5}};
    for (int i = 0; i < 8; i++) {
        lex_next(&lx, &t);
        CHECK_EQ_INT(t.line, want[i][0]);
        CHECK_EQ_INT(t.col, want[i][1]);
    }
}

TEST(lex_numbers)
{
    const char *ok[] = {"0", "00", "1_000", "0x1f", "0X_FF", "0o17", "0b101", "1.", ".5", "1e-3", "1E+10",
                        "2j", "1.5e3j", "3.14", "1_0.0_1", NULL};
    for (int i = 0; ok[i]; i++) CHECK_STR(tokens(ok[i]), "NUM NL END");
    CHECK_STR(first_error("01"), "1:1: SyntaxError: leading zeros in decimal integer literals are not permitted; "
                                 "use an 0o prefix for octal integers");
    CHECK_STR(first_error("1abc"), "1:2: SyntaxError: invalid decimal literal");
    CHECK_STR(first_error("0x"), "1:3: SyntaxError: invalid hexadecimal literal");
    CHECK_STR(first_error("1__0"), "1:2: SyntaxError: invalid decimal literal");
}

TEST(lex_strings)
{
    CHECK_STR(tokens("'a' \"b\" r'\\d' '''x\ny'''"), "STR STR STR STR NL END");
    CHECK_STR(first_error("x = 'abc"), "1:5: SyntaxError: unterminated string literal (detected at line 1)");
    CHECK_STR(first_error("'''abc\n"), "1:1: SyntaxError: unterminated triple-quoted string literal (detected at line 2)");
    CHECK_STR(tokens("f'{x:.2f}' rf'{y}'"), "STR STR NL END");
}

TEST(lex_bracket_errors)
{
    CHECK_STR(first_error("f(1"), "1:2: SyntaxError: '(' was never closed");
    CHECK_STR(first_error("1)"), "1:2: SyntaxError: unmatched ')'");
    CHECK_STR(first_error("[1)"), "1:3: SyntaxError: closing parenthesis ')' does not match opening parenthesis '['");
    CHECK_STR(first_error("a \xe2\x82\xac"), "1:3: SyntaxError: invalid character '\xe2\x82\xac' (U+20AC)");
    char deep[260];
    memset(deep, '(', 201);
    deep[201] = 0;
    CHECK_STR(first_error(deep), "1:201: SyntaxError: too many nested parentheses");
    memset(deep, '(', 200);
    deep[200] = 0;
    CHECK_STR(first_error(deep), "1:200: SyntaxError: '(' was never closed");
}

TEST(lex_incomplete_input)
{
    CHECK(lex_incomplete("f(1,\n", 5));
    CHECK(lex_incomplete("if x:\n", 6));
    CHECK(lex_incomplete("if x:\n    y\n", 12));
    CHECK(!lex_incomplete("if x:\n    y\n\n", 13));
    CHECK(lex_incomplete("x = '''a\n", 9));
    CHECK(lex_incomplete("x = 1 + \\\n", 10));
    CHECK(!lex_incomplete("x = 1\n", 6));
    CHECK(!lex_incomplete("x = )\n", 6));          /* an error, not more input */
    CHECK(!lex_incomplete("d = {'a': 1}\n", 13));   /* ':' inside brackets */
}

TEST(lex_doctest_mode)
{
    size_t n;
    const char *src = "Intro text\n>>> x = 1\n>>> for i in range(2):\n...     print(i)\n0\n1\n>>> x\n1\n";
    char *d = lex_doctest(src, strlen(src), &n);
    CHECK(d != NULL);
    CHECK_STR(d, "\nx = 1\nfor i in range(2):\n    print(i)\n\n\nx\n\n");
    free(d);
    CHECK(lex_doctest("x = 1\n", 6, &n) == NULL);
}

TEST(lex_exception_keywords)
{
    CHECK_STR(tokens("try:\n    raise\nexcept E as e:\n    pass\nfinally:\n    pass\n"),
              "try : NL IN raise NL DE except NAME as NAME : NL IN ? NL DE finally : NL IN ? NL DE END");
}
