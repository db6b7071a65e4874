/* SPDX-License-Identifier: MIT */
/*
 * The syntax tree. The grammar is deliberately generic: a file is a list of
 * statements, a statement is a list of words with an optional `if`
 * condition and an optional `{ block }`. What the words mean (fs rights,
 * syscall actions, limit names) is decided by the semantic pass, which can
 * then say "unknown key 'rox' in fs; did you mean 'rx'?" instead of a bare
 * parse error. Only the semantic pass and `polc fmt` read this tree.
 */
#ifndef POLC_AST_H
#define POLC_AST_H

#include "diag.h"

#include <stddef.h>

#define AST_MAX_DEPTH 16 /* nested blocks */

enum ast_word_kind {
	AST_WORD,   /* bare word: name, number, path, address */
	AST_STRING, /* "quoted", escapes resolved */
	AST_CALL,   /* word(arg), as in errno(EPERM) */
	AST_OP,	    /* an operator used as a word: = >= ... */
};

struct ast_word {
	enum ast_word_kind kind;
	char *text; /* AST_OP: the operator's spelling */
	char *arg;  /* AST_CALL only */
	struct loc loc;
};

/* value: term | value '|' term, each term a number or a constant name. */
struct ast_value {
	size_t n;
	struct ast_word *terms;
	struct loc loc;
};

enum ast_cmp {
	AST_EQ,
	AST_NE,
	AST_LT,
	AST_LE,
	AST_GT,
	AST_GE,
	AST_IN,
};

struct ast_atom {
	struct ast_word arg;
	int has_mask;
	struct ast_value mask;
	enum ast_cmp cmp;
	struct ast_value value; /* unless AST_IN */
	size_t nset;		/* AST_IN */
	struct ast_value *set;
	struct loc loc;
};

struct ast_cond {
	size_t n;
	struct ast_atom *atoms; /* joined by && */
	struct loc loc;
};

struct ast_stmt {
	struct loc loc;
	size_t nwords;
	struct ast_word *words;
	struct ast_cond *cond; /* NULL unless `if` */
	int has_block;
	size_t nchildren;
	struct ast_stmt *children;
	struct loc block_end; /* the closing brace */
};

struct ast_comment {
	int line;
	int col;
	char *text; /* from '#' to the end of the line */
};

struct ast_file {
	const struct src_file *src;
	size_t nstmts;
	struct ast_stmt *stmts;
	size_t ncomments;
	struct ast_comment *comments;
};

/*
 * Parses src into *out. Syntax errors go to d. Returns 0 on success, -1 on
 * error (then *out is NULL). The tree is freed with ast_file_destroy().
 */
int ast_parse(struct diag *d, const struct src_file *src,
	      struct ast_file **out);
void ast_file_destroy(struct ast_file **f);

/* Canonical layout of a parsed file (polc fmt). Comments are kept. */
int ast_format(const struct ast_file *f, FILE *out);

#endif
