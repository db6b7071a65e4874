/* SPDX-License-Identifier: MIT */
/*
 * `polc fmt`: the canonical layout of a parsed file. One statement per
 * line, two spaces per block level, single spaces between words, strings
 * re-quoted, `NAME=VALUE` glued, comments kept where they stood (before a
 * statement, or trailing it on its first line), and one blank line kept
 * wherever the source had at least one. Formatting its own output changes
 * nothing.
 */
#include "ast.h"

#include <string.h>

struct fmt {
	FILE *out;
	const struct ast_file *f;
	size_t next_comment;
};

static int line_is_blank(const struct src_file *src, int line)
{
	const char *p = src->text, *end = src->text + src->len;
	int l = 1;

	if (line < 1)
		return 0;
	while (l < line && p < end)
		if (*p++ == '\n')
			l++;
	if (l != line || p >= end)
		return 0;
	for (; p < end && *p != '\n'; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

static void indent(struct fmt *f, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		fputs("  ", f->out);
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (*s == '\t')
			fputs("\\t", out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void put_value(FILE *out, const struct ast_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		fprintf(out, "%s%s", i ? " | " : "", v->terms[i].text);
}

static void put_cond(FILE *out, const struct ast_cond *c)
{
	static const char *const cmp[] = {
	    "==", "!=", "<", "<=", ">", ">=", "in"};
	size_t i, j;

	fputs(" if ", out);
	for (i = 0; i < c->n; i++) {
		const struct ast_atom *a = &c->atoms[i];

		if (i)
			fputs(" && ", out);
		fputs(a->arg.text, out);
		if (a->has_mask) {
			fputs(" & ", out);
			put_value(out, &a->mask);
		}
		fprintf(out, " %s ", cmp[a->cmp]);
		if (a->cmp != AST_IN) {
			put_value(out, &a->value);
			continue;
		}
		fputc('{', out);
		for (j = 0; j < a->nset; j++) {
			if (j)
				fputs(", ", out);
			put_value(out, &a->set[j]);
		}
		fputc('}', out);
	}
}

/* `NAME = VALUE` between two plain words prints as NAME=VALUE; any other
 * '=' keeps its spaces, or `> =` would become the one token `>=`. */
static int glued_eq(const struct ast_stmt *s, size_t i)
{
	return i > 0 && i + 1 < s->nwords && s->words[i].kind == AST_OP &&
	       !strcmp(s->words[i].text, "=") &&
	       s->words[i - 1].kind == AST_WORD &&
	       (s->words[i + 1].kind == AST_WORD ||
		s->words[i + 1].kind == AST_STRING);
}

static void put_words(FILE *out, const struct ast_stmt *s)
{
	size_t i;

	for (i = 0; i < s->nwords; i++) {
		const struct ast_word *w = &s->words[i];

		if (i && !glued_eq(s, i) && !glued_eq(s, i - 1))
			fputc(' ', out);
		switch (w->kind) {
		case AST_STRING:
			put_string(out, w->text);
			break;
		case AST_CALL:
			fprintf(out, "%s(%s)", w->text, w->arg);
			break;
		default:
			fputs(w->text, out);
		}
	}
}

/* Full-line comments standing before `line`, at this depth. */
static void comments_before(struct fmt *f, int line, int depth)
{
	while (f->next_comment < f->f->ncomments) {
		const struct ast_comment *c = &f->f->comments[f->next_comment];

		if (line && c->line >= line)
			break;
		indent(f, depth);
		fprintf(f->out, "%s\n", c->text ? c->text : "#");
		f->next_comment++;
	}
}

static void trailing_comment(struct fmt *f, int line)
{
	if (f->next_comment < f->f->ncomments &&
	    f->f->comments[f->next_comment].line == line) {
		const struct ast_comment *c = &f->f->comments[f->next_comment];

		fprintf(f->out, "  %s", c->text ? c->text : "#");
		f->next_comment++;
	}
}

static int first_line(struct fmt *f, const struct ast_stmt *s)
{
	int line = s->loc.line;

	if (f->next_comment < f->f->ncomments &&
	    f->f->comments[f->next_comment].line < line)
		line = f->f->comments[f->next_comment].line;
	return line;
}

static void put_stmts(struct fmt *f, const struct ast_stmt *v, size_t n,
		      int depth)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ast_stmt *s = &v[i];

		if (i > 0 && line_is_blank(f->f->src, first_line(f, s) - 1))
			fputc('\n', f->out);
		comments_before(f, s->loc.line, depth);
		indent(f, depth);
		put_words(f->out, s);
		if (s->cond)
			put_cond(f->out, s->cond);
		if (s->has_block)
			fputs(" {", f->out);
		trailing_comment(f, s->loc.line);
		fputc('\n', f->out);
		if (!s->has_block)
			continue;
		put_stmts(f, s->children, s->nchildren, depth + 1);
		comments_before(f, s->block_end.line, depth + 1);
		indent(f, depth);
		fputc('}', f->out);
		trailing_comment(f, s->block_end.line);
		fputc('\n', f->out);
	}
}

int ast_format(const struct ast_file *file, FILE *out)
{
	struct fmt f = {out, file, 0};

	put_stmts(&f, file->stmts, file->nstmts, 0);
	comments_before(&f, 0, 0);
	return ferror(out) ? -1 : 0;
}
