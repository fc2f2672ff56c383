/* src/lex.h — the tokenizer: Python's tokens with line:col, INDENT/DEDENT,
 * implicit joining inside brackets and explicit `\` joining. Token codes are
 * Lemon's (build/.../tsr_parse.h). A Token points into the source text. */
#ifndef TSR_LEX_H
#define TSR_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "tsr_parse.h"

#define TK_ENDMARKER 0      /* Lemon's end of input */
#define TK_ERROR (-1)       /* lexer error: see Lexer.err* */
#define LEX_MAX_INDENT 100
#define LEX_MAX_PARENS 200  /* Python's limit: "too many nested parentheses" */

typedef struct {
    int type;
    const char *p;          /* into the source */
    int n;
    int line, col;          /* 1-based */
} Token;

typedef struct {
    const char *src, *cur, *end;
    int line;
    const char *line_start;
    int indents[LEX_MAX_INDENT];
    int nindent;
    int pending;            /* >0 INDENT to emit, <0 DEDENTs to emit */
    char parens[LEX_MAX_PARENS + 1];
    int paren_line[LEX_MAX_PARENS + 1], paren_col[LEX_MAX_PARENS + 1];
    int nparen;
    bool at_bol;            /* at the beginning of a logical line */
    bool need_newline;      /* a logical line has tokens and no NEWLINE yet */
    bool done;
    /* error, when lex_next returns TK_ERROR */
    const char *err_type;   /* "SyntaxError" or "IndentationError" */
    char err[160];
    int err_line, err_col;
    bool err_eof;           /* the error is "input ended too early" (REPL: ask for more) */
} Lexer;

void lex_init(Lexer *lx, const char *src, size_t len);
int lex_next(Lexer *lx, Token *t);              /* the token's type; TK_ERROR on error */
/* After an error: skip to the next line that starts a statement at column 0
 * (the current position itself when here_ok and it is such a line start),
 * resetting brackets and indentation. False at end of input. */
bool lex_resync(Lexer *lx, bool here_ok);
const char *lex_line(const char *src, size_t len, int line, int *n); /* the text of a line */

/* Does this source need more lines to be a complete interactive statement?
 * (open brackets, open triple-quoted string, trailing `\`, or a block whose
 * last line is not blank). */
bool lex_incomplete(const char *src, size_t len);

/* Doctest mode: when some line starts with ">>> ", keep only the text after
 * ">>> " / "... " prompts and blank the other lines (line numbers are kept).
 * Returns a malloc'd copy, or NULL when the text is not in doctest form. */
char *lex_doctest(const char *src, size_t len, size_t *out_len);

#endif
