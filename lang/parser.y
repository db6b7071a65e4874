/* SPDX-License-Identifier: MIT */
/*
 * The grammar: statements of words, an optional `if` condition, an optional
 * block. See ast.h for why it is this generic. Every allocation comes from
 * the parse arena, so error recovery never leaks.
 */
%define api.pure full
%define api.prefix {pol_}
%define parse.error verbose
%locations
%param {void *scanner}
%parse-param {struct parse_ctx *ctx}

%code requires {
#include "ast.h"
#include "parse_ctx.h"

struct word_list { struct vec v; };
struct atom_list { struct vec v; };
struct stmt_list { struct vec v; };
struct value_list { struct vec v; };
}

%code provides {
int pol_lex(POL_STYPE *lval, POL_LTYPE *lloc, void *scanner);
}

%code {
#include <string.h>

static void pol_error(POL_LTYPE *l, void *scanner, struct parse_ctx *ctx,
		      const char *msg);
static struct loc at(struct parse_ctx *c, const POL_LTYPE *l);
static struct ast_word mkword(struct parse_ctx *c, enum ast_word_kind k,
			      char *text, char *arg, const POL_LTYPE *l);
static int push(struct parse_ctx *c, struct vec *v, const void *item,
		size_t size);

#define PUSH(vec, item)                                                        \
	do {                                                                   \
		if (push(ctx, &(vec), &(item), sizeof(item)))                  \
			YYABORT;                                               \
	} while (0)
}

%union {
	char *str;
	int cmp;
	struct ast_word word;
	struct word_list words;
	struct ast_value value;
	struct value_list values;
	struct ast_atom atom;
	struct atom_list atoms;
	struct ast_cond *cond;
	struct ast_stmt stmt;
	struct stmt_list stmts;
}

%token END_OF_FILE 0 "end of file"
%token <str> WORD "word" STRING "string"
%token END "end of statement" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"
%token LT "'<'" GT "'>'" ANDAND "'&&'" IF "'if'" IN "'in'"
%token LEXERROR "invalid token"

%type <word> word
%type <words> words
%type <value> value
%type <values> set
%type <atom> atom
%type <atoms> atoms
%type <cond> cond_opt
%type <stmt> simple_stmt block_stmt
%type <stmts> stmts body
%type <cmp> cmp

%%

file
	: body
		{
		struct ast_file *f = arena_alloc(&ctx->arena, sizeof(*f));

		if (!f)
			YYABORT;
		f->src = ctx->src;
		f->stmts = $1.v.v;
		f->nstmts = $1.v.n;
		ctx->result = f;
		}
	;

/* A block statement needs no terminator: its '}' ends it. */
body
	: stmts
	| stmts simple_stmt	{ $$ = $1; PUSH($$.v, $2); }
	;

stmts
	: %empty			{ memset(&$$, 0, sizeof($$)); }
	| stmts END			{ $$ = $1; }
	| stmts simple_stmt END		{ $$ = $1; PUSH($$.v, $2); }
	| stmts block_stmt		{ $$ = $1; PUSH($$.v, $2); }
	;

simple_stmt
	: words cond_opt
		{
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.words = $1.v.v;
		$$.nwords = $1.v.n;
		$$.cond = $2;
		}
	;

block_stmt
	: words cond_opt '{'
		{
		if (++ctx->depth > AST_MAX_DEPTH) {
			diag_error(ctx->d, at(ctx, &@3),
				   "blocks nested deeper than %d",
				   AST_MAX_DEPTH);
			YYABORT;
		}
		ctx->open[ctx->depth] = at(ctx, &@3);
		}
	  body '}'
		{
		ctx->depth--;
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.words = $1.v.v;
		$$.nwords = $1.v.n;
		$$.cond = $2;
		$$.has_block = 1;
		$$.children = $5.v.v;
		$$.nchildren = $5.v.n;
		$$.block_end = at(ctx, &@6);
		}
	;

words
	: word			{ memset(&$$, 0, sizeof($$)); PUSH($$.v, $1); }
	| words word		{ $$ = $1; PUSH($$.v, $2); }
	;

word
	: WORD			{ $$ = mkword(ctx, AST_WORD, $1, NULL, &@1); }
	| STRING		{ $$ = mkword(ctx, AST_STRING, $1, NULL, &@1); }
	| WORD '(' WORD ')'	{ $$ = mkword(ctx, AST_CALL, $1, $3, &@1); }
	| '='			{ $$ = mkword(ctx, AST_OP, "=", NULL, &@1); }
	| EQ			{ $$ = mkword(ctx, AST_OP, "==", NULL, &@1); }
	| NE			{ $$ = mkword(ctx, AST_OP, "!=", NULL, &@1); }
	| LT			{ $$ = mkword(ctx, AST_OP, "<", NULL, &@1); }
	| LE			{ $$ = mkword(ctx, AST_OP, "<=", NULL, &@1); }
	| GT			{ $$ = mkword(ctx, AST_OP, ">", NULL, &@1); }
	| GE			{ $$ = mkword(ctx, AST_OP, ">=", NULL, &@1); }
	;

cond_opt
	: %empty		{ $$ = NULL; }
	| IF atoms
		{
		$$ = arena_alloc(&ctx->arena, sizeof(*$$));
		if (!$$)
			YYABORT;
		$$->atoms = $2.v.v;
		$$->n = $2.v.n;
		$$->loc = at(ctx, &@2);
		}
	;

atoms
	: atom			{ memset(&$$, 0, sizeof($$)); PUSH($$.v, $1); }
	| atoms ANDAND atom	{ $$ = $1; PUSH($$.v, $3); }
	;

atom
	: WORD cmp value
		{
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.arg = mkword(ctx, AST_WORD, $1, NULL, &@1);
		$$.cmp = $2;
		$$.value = $3;
		}
	| WORD '&' value cmp value
		{
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.arg = mkword(ctx, AST_WORD, $1, NULL, &@1);
		$$.has_mask = 1;
		$$.mask = $3;
		$$.cmp = $4;
		$$.value = $5;
		}
	| WORD IN '{' set '}'
		{
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.arg = mkword(ctx, AST_WORD, $1, NULL, &@1);
		$$.cmp = AST_IN;
		$$.set = $4.v.v;
		$$.nset = $4.v.n;
		}
	| WORD '&' value IN '{' set '}'
		{
		memset(&$$, 0, sizeof($$));
		$$.loc = at(ctx, &@1);
		$$.arg = mkword(ctx, AST_WORD, $1, NULL, &@1);
		$$.has_mask = 1;
		$$.mask = $3;
		$$.cmp = AST_IN;
		$$.set = $6.v.v;
		$$.nset = $6.v.n;
		}
	;

cmp
	: EQ	{ $$ = AST_EQ; }
	| NE	{ $$ = AST_NE; }
	| LT	{ $$ = AST_LT; }
	| LE	{ $$ = AST_LE; }
	| GT	{ $$ = AST_GT; }
	| GE	{ $$ = AST_GE; }
	;

value
	: WORD
		{
		struct ast_word w = mkword(ctx, AST_WORD, $1, NULL, &@1);
		struct vec v = {0};

		PUSH(v, w);
		$$.terms = v.v;
		$$.n = v.n;
		$$.loc = at(ctx, &@1);
		}
	| value '|' WORD
		{
		struct ast_word w = mkword(ctx, AST_WORD, $3, NULL, &@3);
		struct vec v = {$1.terms, $1.n, $1.n};

		PUSH(v, w);
		$$ = $1;
		$$.terms = v.v;
		$$.n = v.n;
		}
	;

set
	: value			{ memset(&$$, 0, sizeof($$)); PUSH($$.v, $1); }
	| set ',' value		{ $$ = $1; PUSH($$.v, $3); }
	;

%%

static void pol_error(POL_LTYPE *l, void *scanner, struct parse_ctx *ctx,
		      const char *msg)
{
	(void)scanner;
	/* A bad token was reported by the lexer; its syntax error is noise. */
	if (ctx->lex_failed)
		return;
	diag_error(ctx->d, at(ctx, l), "%s", msg);
	/* At the end of the file, say which block was left open. */
	if (ctx->depth > 0 && ctx->depth <= AST_MAX_DEPTH &&
	    strstr(msg, "unexpected end of file"))
		diag_note(ctx->d, ctx->open[ctx->depth],
			  "this block is not closed");
}

static struct loc at(struct parse_ctx *c, const POL_LTYPE *l)
{
	return parse_loc(c, l->first_line, l->first_column);
}

static struct ast_word mkword(struct parse_ctx *c, enum ast_word_kind k,
			      char *text, char *arg, const POL_LTYPE *l)
{
	struct ast_word w;

	memset(&w, 0, sizeof(w));
	w.kind = k;
	w.text = text;
	w.arg = arg;
	w.loc = at(c, l);
	return w;
}

static int push(struct parse_ctx *c, struct vec *v, const void *item,
		size_t size)
{
	void *slot = vec_push(&c->arena, v, size);

	if (!slot) {
		diag_error(c->d, parse_loc(c, 0, 0), "out of memory");
		return -1;
	}
	memcpy(slot, item, size);
	return 0;
}
