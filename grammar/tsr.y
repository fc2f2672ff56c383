/*
** grammar/tsr.y — the tsr language (LANGUAGE.md): Python 3's statement and
** expression grammar, the subset PyTorch users type. This file is the source
** of a GENERATED parser: `lemon` turns it into build/.../tsr_parse.c at build
** time; the generated files are never committed. Actions only call ast_*
** constructors. One top-level statement is parsed per run of the parser
** (src/parse.c cuts the input and feeds the tokens).
*/

%name tsrParse
%token_prefix TK_
%token_type {Token}
%default_type {Node *}
%extra_context {ParseState *ps}
%stack_size 4000
%start_symbol program

%include {
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#define C (ps->chunk)
}

%syntax_error {
    parse_syntax_error(ps, &TOKEN, yymajor);
}
%stack_overflow {
    parse_overflow(ps);
}
%parse_failure {
    parse_failed(ps);
}

/* Tokens produced by the lexer but used by no rule: they always end in a
** syntax error (with a clearer message chosen in src/parse.c). */
%token UNSUPPORTED WALRUS.

/* ---------------------------------------------------------- precedence */
%left VBAR.
%left CARET.
%left AMP.
%left LSHIFT RSHIFT.
%left PLUS MINUS.
%left STAR SLASH DSLASH PERCENT AT.

%type nodelist {NodeList *}
%type stmts {NodeList *}
%type simple_stmts {NodeList *}
%type exprlist {NodeList *}
%type testlist_items {NodeList *}
%type args {NodeList *}
%type arglist {NodeList *}
%type subscripts {NodeList *}
%type dictitems {NodeList *}
%type comp_fors {NodeList *}
%type params {NodeList *}
%type paramlist {NodeList *}
%type lparams {NodeList *}
%type lparamlist {NodeList *}
%type comp_ifs {NodeList *}
%type assign_lhs {NodeList *}
%type names {NodeList *}
%type imports {NodeList *}
%type compop {int}
%type handlers {NodeList *}

/* ------------------------------------------------------------ statements */
program ::= stmt(S).                        { ps->result = S; }

stmt(A) ::= simple_stmts(L) NEWLINE.        { A = parse_block(ps, L); }
stmt(A) ::= compound(B).                    { A = B; }

simple_stmts(A) ::= small(S).               { A = ast_list(C, S); }
simple_stmts(A) ::= simple_stmts(L) SEMI small(S). { parse_suppress_last(L); A = ast_append(C, L, S); }
simple_stmts(A) ::= simple_stmts(L) SEMI.   { parse_suppress_last(L); A = L; }

small(A) ::= testlist(E).                   { A = parse_expr_stmt(ps, E); }
small(A) ::= assign_lhs(L) testlist(E).     { A = parse_assign(ps, L, E); }
small(A) ::= testlist(T) AUGASSIGN(O) testlist(E). { A = parse_augassign(ps, T, O, E); }
small(A) ::= DEL(K) exprlist(L).            { A = parse_del(ps, K, L); }
small(A) ::= DEL(K) exprlist(L) COMMA.      { A = parse_del(ps, K, L); }
small(A) ::= PASS(K).                       { A = ast_node(C, N_PASS, ast_tokloc(K)); }
small(A) ::= BREAK(K).                      { A = ast_node(C, N_BREAK, ast_tokloc(K)); }
small(A) ::= CONTINUE(K).                   { A = ast_node(C, N_CONTINUE, ast_tokloc(K)); }
small(A) ::= RETURN(K).                     { A = ast_node(C, N_RETURN, ast_tokloc(K)); }
small(A) ::= RETURN(K) testlist(E).         { A = ast_node(C, N_RETURN, ast_span(ast_tokloc(K), E->loc)); A->a = E; }
small(A) ::= ASSERT(K) test(E).             { A = ast_node(C, N_ASSERT, ast_span(ast_tokloc(K), E->loc)); A->a = E; }
small(A) ::= ASSERT(K) test(E) COMMA test(M). { A = ast_node(C, N_ASSERT, ast_span(ast_tokloc(K), M->loc)); A->a = E; A->b = M; }
small(A) ::= RAISE(K).                      { A = ast_node(C, N_RAISE, ast_tokloc(K)); }
small(A) ::= RAISE(K) test(E).              { A = parse_raise(ps, K, E, NULL); }
small(A) ::= RAISE(K) test(E) FROM test(F). { A = parse_raise(ps, K, E, F); }
small(A) ::= IMPORT(K) imports(L).          { A = parse_imports(ps, K, L); }
imports(A) ::= import_as(I).                { A = ast_list(C, I); }
imports(A) ::= imports(L) COMMA import_as(I). { A = ast_append(C, L, I); }
import_as(A) ::= dotted(D).                 { A = parse_import(ps, D, NULL); }
import_as(A) ::= dotted(D) AS NAME(N).      { A = parse_import(ps, D, &N); }
small(A) ::= FROM(K) dotted(D) IMPORT names(L). { A = parse_from(ps, K, D, L); }
small(A) ::= FROM(K) dotted(D) IMPORT LPAREN names(L) RPAREN. { A = parse_from(ps, K, D, L); }

assign_lhs(A) ::= testlist(T) ASSIGN.       { A = ast_list(C, T); }
assign_lhs(A) ::= assign_lhs(L) testlist(T) ASSIGN. { A = ast_append(C, L, T); }

dotted(A) ::= NAME(N).                      { A = ast_node(C, N_NAME, ast_tokloc(N)); A->name = ast_name(C, N); }
dotted(A) ::= dotted(D) DOT NAME(N).        { A = parse_dotted(ps, D, N); }

names(A) ::= NAME(N).                       { A = ast_list(C, parse_name(ps, N)); }
names(A) ::= NAME(N) AS NAME(M).            { A = ast_list(C, parse_alias(ps, N, M)); }
names(A) ::= names(L) COMMA NAME(N).        { A = ast_append(C, L, parse_name(ps, N)); }
names(A) ::= names(L) COMMA NAME(N) AS NAME(M). { A = ast_append(C, L, parse_alias(ps, N, M)); }

/* --------------------------------------------------------- compound */
compound(A) ::= IF(K) test(E) COLON suite(S) elifs(R). { A = parse_if(ps, K, E, S, R); }
elifs(A) ::= .                              { A = NULL; }
elifs(A) ::= ELIF(K) test(E) COLON suite(S) elifs(R). { A = parse_if(ps, K, E, S, R); }
elifs(A) ::= ELSE COLON suite(S).           { A = S; }

compound(A) ::= WHILE(K) test(E) COLON suite(S). { A = parse_loop(ps, N_WHILE, K, NULL, E, S, NULL); }
compound(A) ::= WHILE(K) test(E) COLON suite(S) ELSE COLON suite(O). { A = parse_loop(ps, N_WHILE, K, NULL, E, S, O); }
compound(A) ::= FOR(K) target_list(T) IN testlist(E) COLON suite(S). { A = parse_loop(ps, N_FOR, K, T, E, S, NULL); }
compound(A) ::= FOR(K) target_list(T) IN testlist(E) COLON suite(S) ELSE COLON suite(O). { A = parse_loop(ps, N_FOR, K, T, E, S, O); }
compound(A) ::= WITH(K) test(E) COLON suite(S). { A = parse_with(ps, K, E, NULL, S); }
compound(A) ::= WITH(K) test(E) AS expr(T) COLON suite(S). { A = parse_with(ps, K, E, T, S); }
compound(A) ::= TRY(K) COLON suite(S) handlers(H) try_else(E) try_finally(F). { A = parse_try(ps, K, S, H, E, F); }
compound(A) ::= TRY(K) COLON suite(S) FINALLY COLON suite(F). { A = parse_try(ps, K, S, NULL, NULL, F); }
handlers(A) ::= handler(X).                 { A = ast_list(C, X); }
handlers(A) ::= handlers(L) handler(X).     { A = ast_append(C, L, X); }
handler(A) ::= EXCEPT(K) COLON suite(S).    { A = parse_handler(ps, K, NULL, NULL, S); }
handler(A) ::= EXCEPT(K) test(E) COLON suite(S). { A = parse_handler(ps, K, E, NULL, S); }
handler(A) ::= EXCEPT(K) test(E) AS NAME(N) COLON suite(S). { A = parse_handler(ps, K, E, &N, S); }
try_else(A) ::= .                           { A = NULL; }
try_else(A) ::= ELSE COLON suite(S).        { A = S; }
try_finally(A) ::= .                        { A = NULL; }
try_finally(A) ::= FINALLY COLON suite(S).  { A = S; }
compound(A) ::= DEF(K) NAME(N) LPAREN params(P) RPAREN COLON suite(S). { A = parse_def(ps, K, N, P, S); }
compound(A) ::= DEF(K) NAME(N) LPAREN params(P) RPAREN ARROW test COLON suite(S). { A = parse_def(ps, K, N, P, S); }

suite(A) ::= simple_stmts(L) NEWLINE.       { A = parse_block(ps, L); }
suite(A) ::= NEWLINE INDENT stmts(L) DEDENT. { A = parse_block(ps, L); }
stmts(A) ::= stmt(S).                       { A = ast_list(C, S); }
stmts(A) ::= stmts(L) stmt(S).              { A = ast_append(C, L, S); }

target_list(A) ::= exprlist(L).             { A = parse_tuple(ps, L, 0); }
target_list(A) ::= exprlist(L) COMMA.       { A = parse_tuple(ps, L, 1); }
exprlist(A) ::= expr(E).                    { A = ast_list(C, E); }
exprlist(A) ::= exprlist(L) COMMA expr(E).  { A = ast_append(C, L, E); }

params(A) ::= .                             { A = ast_list(C, NULL); }
params(A) ::= paramlist(L).                 { A = L; }
params(A) ::= paramlist(L) COMMA.           { A = L; }
paramlist(A) ::= param(P).                  { A = ast_list(C, P); }
paramlist(A) ::= paramlist(L) COMMA param(P). { A = ast_append(C, L, P); }
param(A) ::= NAME(N).                       { A = parse_param(ps, N, NULL, NULL, 0); }
param(A) ::= NAME(N) COLON test.            { A = parse_param(ps, N, NULL, NULL, 0); }
param(A) ::= NAME(N) ASSIGN test(D).        { A = parse_param(ps, N, NULL, D, 0); }
param(A) ::= NAME(N) COLON test ASSIGN test(D). { A = parse_param(ps, N, NULL, D, 0); }
param(A) ::= STAR(S) NAME(N).               { A = parse_param(ps, N, &S, NULL, 1); }
param(A) ::= POW(S) NAME(N).                { A = parse_param(ps, N, &S, NULL, 2); }

/* ------------------------------------------------------------ expressions */
testlist(A) ::= testlist_items(L).          { A = L->n == 1 ? L->items[0] : parse_tuple(ps, L, 0); }
testlist(A) ::= testlist_items(L) COMMA.    { A = parse_tuple(ps, L, 1); }
testlist_items(A) ::= test(E).              { A = ast_list(C, E); }
testlist_items(A) ::= testlist_items(L) COMMA test(E). { A = ast_append(C, L, E); }

test(A) ::= or_test(E).                     { A = E; }
test(A) ::= or_test(B) IF or_test(E) ELSE test(O). { A = parse_ifexp(ps, B, E, O); }
test(A) ::= LAMBDA(K) lparams(P) COLON test(E). { A = parse_lambda(ps, K, P, E); }

lparams(A) ::= .                            { A = ast_list(C, NULL); }
lparams(A) ::= lparamlist(L).               { A = L; }
lparams(A) ::= lparamlist(L) COMMA.         { A = L; }
lparamlist(A) ::= lparam(P).                { A = ast_list(C, P); }
lparamlist(A) ::= lparamlist(L) COMMA lparam(P). { A = ast_append(C, L, P); }
lparam(A) ::= NAME(N).                      { A = parse_param(ps, N, NULL, NULL, 0); }
lparam(A) ::= NAME(N) ASSIGN test(D).       { A = parse_param(ps, N, NULL, D, 0); }
lparam(A) ::= STAR(S) NAME(N).              { A = parse_param(ps, N, &S, NULL, 1); }

or_test(A) ::= and_test(E).                 { A = E; }
or_test(A) ::= or_test(L) OR(O) and_test(R). { A = parse_binary(ps, N_OR, 0, L, O, R); }
and_test(A) ::= not_test(E).                { A = E; }
and_test(A) ::= and_test(L) AND(O) not_test(R). { A = parse_binary(ps, N_AND, 0, L, O, R); }
not_test(A) ::= comparison(E).              { A = E; }
not_test(A) ::= NOT(K) not_test(E).         { A = parse_unary(ps, N_NOT, 0, K, E); }

comparison(A) ::= expr(E).                  { A = E; }
comparison(A) ::= comparison(L) compop(O) expr(R). { A = parse_compare(ps, L, O, R); }
compop(A) ::= LT.                           { A = OP_LT; }
compop(A) ::= GT.                           { A = OP_GT; }
compop(A) ::= LE.                           { A = OP_LE; }
compop(A) ::= GE.                           { A = OP_GE; }
compop(A) ::= EQ.                           { A = OP_EQ; }
compop(A) ::= NE.                           { A = OP_NE; }
compop(A) ::= IN.                           { A = CMP_IN; }
compop(A) ::= NOT IN.                       { A = CMP_NOT_IN; }
compop(A) ::= IS.                           { A = CMP_IS; }
compop(A) ::= IS NOT.                       { A = CMP_IS_NOT; }

expr(A) ::= u_expr(E).                      { A = E; }
expr(A) ::= expr(L) VBAR(O) expr(R).        { A = parse_binary(ps, N_BINOP, OP_OR, L, O, R); }
expr(A) ::= expr(L) CARET(O) expr(R).       { A = parse_binary(ps, N_BINOP, OP_XOR, L, O, R); }
expr(A) ::= expr(L) AMP(O) expr(R).         { A = parse_binary(ps, N_BINOP, OP_AND, L, O, R); }
expr(A) ::= expr(L) LSHIFT(O) expr(R).      { A = parse_binary(ps, N_BINOP, OP_LSHIFT, L, O, R); }
expr(A) ::= expr(L) RSHIFT(O) expr(R).      { A = parse_binary(ps, N_BINOP, OP_RSHIFT, L, O, R); }
expr(A) ::= expr(L) PLUS(O) expr(R).        { A = parse_binary(ps, N_BINOP, OP_ADD, L, O, R); }
expr(A) ::= expr(L) MINUS(O) expr(R).       { A = parse_binary(ps, N_BINOP, OP_SUB, L, O, R); }
expr(A) ::= expr(L) STAR(O) expr(R).        { A = parse_binary(ps, N_BINOP, OP_MUL, L, O, R); }
expr(A) ::= expr(L) SLASH(O) expr(R).       { A = parse_binary(ps, N_BINOP, OP_TRUEDIV, L, O, R); }
expr(A) ::= expr(L) DSLASH(O) expr(R).      { A = parse_binary(ps, N_BINOP, OP_FLOORDIV, L, O, R); }
expr(A) ::= expr(L) PERCENT(O) expr(R).     { A = parse_binary(ps, N_BINOP, OP_MOD, L, O, R); }
expr(A) ::= expr(L) AT(O) expr(R).          { A = parse_binary(ps, N_BINOP, OP_MATMUL, L, O, R); }

u_expr(A) ::= power(E).                     { A = E; }
u_expr(A) ::= MINUS(K) u_expr(E).           { A = parse_unary(ps, N_UNARY, OP_NEG, K, E); }
u_expr(A) ::= PLUS(K) u_expr(E).            { A = parse_unary(ps, N_UNARY, OP_POS, K, E); }
u_expr(A) ::= TILDE(K) u_expr(E).           { A = parse_unary(ps, N_UNARY, OP_INVERT, K, E); }

power(A) ::= primary(E).                    { A = E; }
power(A) ::= primary(L) POW(O) u_expr(R).   { A = parse_binary(ps, N_BINOP, OP_POW, L, O, R); }

primary(A) ::= atom(E).                     { A = E; }
primary(A) ::= primary(E) DOT NAME(N).      { A = parse_attr(ps, E, N); }
primary(A) ::= primary(F) LPAREN arglist(L) RPAREN(R). { A = parse_call(ps, F, L, R); }
primary(A) ::= primary(E) LSQB subscripts(L) RSQB(R). { A = parse_subscript(ps, E, L, 0, R); }
primary(A) ::= primary(E) LSQB subscripts(L) COMMA RSQB(R). { A = parse_subscript(ps, E, L, 1, R); }

atom(A) ::= NAME(N).                        { A = parse_name(ps, N); }
atom(A) ::= NUMBER(N).                      { A = parse_number(ps, N); }
atom(A) ::= strings(S).                     { A = S; }
atom(A) ::= NONE(K).                        { A = ast_const(C, ast_tokloc(K), v_none()); }
atom(A) ::= TRUE(K).                        { A = ast_const(C, ast_tokloc(K), v_bool(1)); }
atom(A) ::= FALSE(K).                       { A = ast_const(C, ast_tokloc(K), v_bool(0)); }
atom(A) ::= ELLIPSIS(K).                    { A = ast_const(C, ast_tokloc(K), v_ellipsis()); }
atom(A) ::= LPAREN(L) RPAREN(R).            { A = parse_display(ps, N_TUPLE, L, ast_list(C, NULL), R); }
atom(A) ::= LPAREN(L) testlist_items(E) RPAREN(R). { A = E->n == 1 ? parse_paren(ps, L, E->items[0], R) : parse_display(ps, N_TUPLE, L, E, R); }
atom(A) ::= LPAREN(L) testlist_items(E) COMMA RPAREN(R). { A = parse_display(ps, N_TUPLE, L, E, R); }
atom(A) ::= LPAREN(L) test(E) comp_fors(F) RPAREN(R). { A = parse_listcomp(ps, &L, E, F, &R); }
atom(A) ::= LSQB(L) RSQB(R).                { A = parse_display(ps, N_LIST, L, ast_list(C, NULL), R); }
atom(A) ::= LSQB(L) testlist_items(E) RSQB(R). { A = parse_display(ps, N_LIST, L, E, R); }
atom(A) ::= LSQB(L) testlist_items(E) COMMA RSQB(R). { A = parse_display(ps, N_LIST, L, E, R); }
atom(A) ::= LSQB(L) test(E) comp_fors(F) RSQB(R). { A = parse_listcomp(ps, &L, E, F, &R); }
atom(A) ::= LBRACE(L) RBRACE(R).            { A = parse_display(ps, N_DICT, L, ast_list(C, NULL), R); }
atom(A) ::= LBRACE(L) dictitems(E) RBRACE(R). { A = parse_display(ps, N_DICT, L, E, R); }
atom(A) ::= LBRACE(L) dictitems(E) COMMA RBRACE(R). { A = parse_display(ps, N_DICT, L, E, R); }

strings(A) ::= STRING(S).                   { A = parse_string(ps, NULL, S); }
strings(A) ::= strings(P) STRING(S).        { A = parse_string(ps, P, S); }

dictitems(A) ::= test(K) COLON test(V).     { A = ast_list(C, K); ast_append(C, A, V); }
dictitems(A) ::= dictitems(L) COMMA test(K) COLON test(V). { A = ast_append(C, ast_append(C, L, K), V); }

comp_fors(A) ::= comp_for(F).               { A = ast_list(C, F); }
comp_fors(A) ::= comp_fors(L) comp_for(F).  { A = ast_append(C, L, F); }
comp_for(A) ::= FOR(K) target_list(T) IN or_test(E) comp_ifs(I). { A = parse_compfor(ps, K, T, E, I); }
comp_ifs(A) ::= .                           { A = ast_list(C, NULL); }
comp_ifs(A) ::= comp_ifs(L) IF or_test(E).  { A = ast_append(C, L, E); }

arglist(A) ::= .                            { A = ast_list(C, NULL); }
arglist(A) ::= args(L).                     { A = L; }
arglist(A) ::= args(L) COMMA.               { A = L; }
args(A) ::= arg(X).                         { A = ast_list(C, X); }
args(A) ::= args(L) COMMA arg(X).           { A = ast_append(C, L, X); }
arg(A) ::= test(E).                         { A = E; }
arg(A) ::= test(E) comp_fors(F).            { A = parse_listcomp(ps, NULL, E, F, NULL); }
arg(A) ::= NAME(N) ASSIGN test(E).          { A = parse_keyword(ps, N, E); }
arg(A) ::= STAR(S) test(E).                 { A = parse_starred(ps, S, E, 1); }
arg(A) ::= POW(S) test(E).                  { A = parse_starred(ps, S, E, 2); }

subscripts(A) ::= subscript(X).             { A = ast_list(C, X); }
subscripts(A) ::= subscripts(L) COMMA subscript(X). { A = ast_append(C, L, X); }
subscript(A) ::= test(E).                   { A = E; }
subscript(A) ::= sl(X) COLON(K) sl(Y).      { A = parse_slice(ps, X, K, Y, NULL, 0); }
subscript(A) ::= sl(X) COLON(K) sl(Y) COLON sl(Z). { A = parse_slice(ps, X, K, Y, Z, 1); }
sl(A) ::= .                                 { A = NULL; }
sl(A) ::= test(E).                          { A = E; }
