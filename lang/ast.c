/* SPDX-License-Identifier: MIT */
#include "ast.h"
#include "parse_ctx.h"
#include "parser.h"

#include <stdlib.h>
#include <string.h>

/* Flex's reentrant API, declared here to keep its header out of others. */
typedef void *yyscan_t;
int pol_lex_init_extra(struct parse_ctx *extra, yyscan_t *scanner);
int pol_lex_destroy(yyscan_t scanner);
void *pol__scan_bytes(const char *bytes, int len, yyscan_t scanner);
int pol_parse(void *scanner, struct parse_ctx *ctx);

/* The arena outlives the parse: it is stored just before the file. */
struct ast_owner {
	struct arena arena;
	struct ast_file file;
};

int ast_parse(struct diag *d, const struct src_file *src, struct ast_file **out)
{
	struct parse_ctx ctx;
	struct ast_owner *own;
	yyscan_t scanner;
	int errors = d->errors, rc;

	*out = NULL;
	if (src->len > (1u << 20)) {
		struct loc whole = {src, 0, 0};

		diag_error(d, whole, "policy larger than 1 MiB");
		return -1;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.d = d;
	ctx.src = src;
	ctx.line = 1;
	ctx.col = 1;
	if (pol_lex_init_extra(&ctx, &scanner)) {
		diag_error(d, parse_loc(&ctx, 0, 0), "out of memory");
		return -1;
	}
	if (!pol__scan_bytes(src->text, (int)src->len, scanner)) {
		pol_lex_destroy(scanner);
		diag_error(d, parse_loc(&ctx, 0, 0), "out of memory");
		return -1;
	}
	rc = pol_parse(scanner, &ctx);
	pol_lex_destroy(scanner);
	if (rc != 0 || ctx.arena.oom || d->errors != errors || !ctx.result) {
		if (ctx.arena.oom || (rc != 0 && d->errors == errors))
			diag_error(d, parse_loc(&ctx, 0, 0),
				   "out of memory while parsing");
		arena_free(&ctx.arena);
		return -1;
	}
	own = calloc(1, sizeof(*own));
	if (!own) {
		arena_free(&ctx.arena);
		diag_error(d, parse_loc(&ctx, 0, 0), "out of memory");
		return -1;
	}
	own->arena = ctx.arena;
	own->file = *ctx.result;
	own->file.comments = ctx.comments.v;
	own->file.ncomments = ctx.comments.n;
	*out = &own->file;
	return 0;
}

void ast_file_destroy(struct ast_file **f)
{
	struct ast_owner *own;

	if (!f || !*f)
		return;
	own =
	    (struct ast_owner *)((char *)*f - offsetof(struct ast_owner, file));
	arena_free(&own->arena);
	free(own);
	*f = NULL;
}
