/* SPDX-License-Identifier: MIT */
/*
 * State shared by the lexer and the parser (internal to lang/). All tree
 * memory comes from one arena, so an error anywhere in the parse frees
 * everything at once and no grammar action has to clean up after itself.
 */
#ifndef POLC_PARSE_CTX_H
#define POLC_PARSE_CTX_H

#include "ast.h"
#include "diag.h"

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	int oom;
};

void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* A growable array in the arena; growing copies, old storage is left. */
struct vec {
	void *v;
	size_t n, cap;
};

void *vec_push(struct arena *a, struct vec *v, size_t size);

struct parse_ctx {
	struct diag *d;
	const struct src_file *src;
	struct arena arena;
	struct vec comments;		    /* struct ast_comment */
	int line, col;			    /* lexer position, 1-based */
	int depth;			    /* nesting of { } blocks */
	struct loc open[AST_MAX_DEPTH + 1]; /* where each open block began */
	int lex_failed; /* the lexer reported the error already */
	void *scanner;
	struct ast_file *result;
};

struct loc parse_loc(const struct parse_ctx *c, int line, int col);

#endif
