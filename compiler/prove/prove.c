/* SPDX-License-Identifier: MIT */
/*
 * The prover's driver: runs the dimensions in order, keeps the findings,
 * and prints them as text, JSON or a two-way diff. docs/PROVER.md is the
 * contract of everything printed here.
 */
#include "prove_int.h"
#include "wordsat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dim_names[PROVE_DIM_COUNT] = {
    [PROVE_DIM_SYSCALLS] = "syscalls", [PROVE_DIM_FS] = "fs",
    [PROVE_DIM_NET] = "net",	       [PROVE_DIM_LIMITS] = "limits",
    [PROVE_DIM_ENV] = "env",	       [PROVE_DIM_LANDLOCK] = "landlock",
    [PROVE_DIM_USER] = "user",
};

const char *prove_dim_name(enum prove_dim d)
{
	return (unsigned)d < PROVE_DIM_COUNT ? dim_names[d] : "?";
}

/* ---- Strings --------------------------------------------------------- */

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t ncap = b->cap ? 2 * b->cap : 64;
			char *np;

			while (ncap - b->len <= (size_t)n)
				ncap *= 2;
			np = realloc(b->p, ncap);
			if (!np) {
				b->oom = 1;
				return;
			}
			b->p = np;
			b->cap = ncap;
		}
	}
}

char *sb_take(struct sbuf *b)
{
	char *s = b->oom ? NULL : b->p;

	if (b->oom)
		free(b->p);
	else if (!s)
		s = calloc(1, 1);
	memset(b, 0, sizeof(*b));
	return s;
}

int prove_fail(struct prover *pv, int rc, const char *fmt, ...)
{
	va_list ap;

	if (pv->err && pv->errlen) {
		va_start(ap, fmt);
		vsnprintf(pv->err, pv->errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

void prove_rights_str(struct sbuf *b, uint32_t rights)
{
	static const char *const names[17] = {
	    "execute",	    "write_file",  "read_file", "read_dir",
	    "remove_dir",   "remove_file", "make_char", "make_dir",
	    "make_reg",	    "make_sock",   "make_fifo", "make_block",
	    "make_sym",	    "refer",	   "truncate",	"ioctl_dev",
	    "connect_unix",
	};
	int first = 1;

	for (unsigned i = 0; i < 17; i++) {
		if (!(rights & (1u << i)))
			continue;
		sb_printf(b, "%s%s", first ? "" : ",", names[i]);
		first = 0;
	}
	if (first)
		sb_printf(b, "nothing");
}

/* ---- Findings -------------------------------------------------------- */

void prove_finding_free(struct prove_finding *f)
{
	free(f->witness);
	free(f->new_s);
	free(f->old_s);
	free(f->why);
	free(f->fs.path);
	free(f->fs.var);
	free(f->fs.target);
	free(f->fs.under);
	free(f->net.name);
	memset(f, 0, sizeof(*f));
}

int prove_add(struct prover *pv, int note, struct prove_finding *f)
{
	struct prove_finding **v = note ? &pv->res->notes : &pv->res->f;
	size_t *n = note ? &pv->res->nnotes : &pv->res->n;
	struct prove_finding *nv;

	if (!f->witness || !f->new_s || !f->old_s || (note && !f->why)) {
		prove_finding_free(f);
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	}
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv) {
		prove_finding_free(f);
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	}
	*v = nv;
	nv[(*n)++] = *f;
	memset(f, 0, sizeof(*f));
	return PROVE_OK;
}

void prove_result_free(struct prove_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		prove_finding_free(&r->f[i]);
	for (i = 0; i < r->nnotes; i++)
		prove_finding_free(&r->notes[i]);
	free(r->f);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

int prove_boundary(const struct ir_policy *old, const struct ir_policy *nw,
		   const struct prove_opts *o, struct prove_result *res,
		   char *err, size_t errlen)
{
	static int (*const dims[PROVE_DIM_COUNT])(struct prover *) = {
	    prove_syscalls, prove_fs,	    prove_net,	    prove_limits,
	    prove_env,	    prove_landlock, prove_user_dim,
	};
	struct prover pv = {
	    .old = old,
	    .nw = nw,
	    .res = res,
	    .err = err,
	    .errlen = errlen,
	    .budget = o && o->budget ? o->budget : PROVE_DEFAULT_BUDGET,
	    .no_z3 = o && o->no_z3,
	    .no_brute = o && o->no_brute,
	    .nested = o && o->nested,
	};
	int rc = PROVE_OK;

	memset(res, 0, sizeof(*res));
	if (err && errlen)
		err[0] = '\0';
	if (ws_set_create(&pv.ws))
		return prove_fail(&pv, PROVE_ENOMEM, "out of memory");
	for (int d = 0; d < PROVE_DIM_COUNT && rc == PROVE_OK; d++)
		rc = dims[d](&pv);
	ws_set_destroy(&pv.ws);
	prove_z3_free(&pv);
	if (rc != PROVE_OK) {
		prove_result_free(res);
		return rc;
	}
	res->exceeds = res->n > 0;
	return PROVE_OK;
}

/* ---- Text ------------------------------------------------------------ */

/* Text from policies and artifacts never drives the reader's terminal. */
static void put_clean(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c >= 0x20 && c < 0x7f ? c : '?', out);
	}
}

static void put_line(FILE *out, const char *prefix,
		     const struct prove_finding *f, const char *first,
		     const char *second, const char *a, const char *b)
{
	fputs(prefix, out);
	fprintf(out, "%s: ", prove_dim_name(f->dim));
	put_clean(out, f->witness);
	fprintf(out, ": %s ", first);
	put_clean(out, a);
	fprintf(out, ", %s ", second);
	put_clean(out, b);
	if (f->why) {
		fputs(" (", out);
		put_clean(out, f->why);
		fputc(')', out);
	}
	fputc('\n', out);
}

int prove_print_text(const struct prove_result *r, FILE *out)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		put_line(out, "", &r->f[i], "new", "boundary", r->f[i].new_s,
			 r->f[i].old_s);
	for (i = 0; i < r->nnotes; i++)
		put_line(out, "note: ", &r->notes[i], "new", "boundary",
			 r->notes[i].new_s, r->notes[i].old_s);
	if (r->exceeds)
		fprintf(out, "verdict: exceeds (%zu finding%s)\n", r->n,
			r->n == 1 ? "" : "s");
	else
		fputs("verdict: within\n", out);
	return ferror(out) ? -1 : 0;
}

int prove_print_diff(const struct prove_result *added,
		     const struct prove_result *removed, FILE *out)
{
	size_t i;

	for (int d = 0; d < PROVE_DIM_COUNT; d++) {
		for (i = 0; i < added->n; i++)
			if (added->f[i].dim == (enum prove_dim)d)
				put_line(out, "+ ", &added->f[i], "new", "old",
					 added->f[i].new_s, added->f[i].old_s);
		/* Run the other way round: its "new" side is OLD. */
		for (i = 0; i < removed->n; i++)
			if (removed->f[i].dim == (enum prove_dim)d)
				put_line(out, "- ", &removed->f[i], "old",
					 "new", removed->f[i].new_s,
					 removed->f[i].old_s);
	}
	fprintf(out, "diff: %zu added, %zu removed\n", added->n, removed->n);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void put_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
		} else if ((n = utf8_len(p)) == 0) {
			fputs("\\ufffd", out); /* not UTF-8: replaced */
			p++;
		} else {
			fwrite(p, 1, n, out);
			p += n;
		}
	}
	fputc('"', out);
}

static void put_json_finding(FILE *out, const struct prove_finding *f)
{
	fputs("{\"dimension\":", out);
	put_json_str(out, prove_dim_name(f->dim));
	fputs(",\"witness\":", out);
	put_json_str(out, f->witness);
	fputs(",\"new\":", out);
	put_json_str(out, f->new_s);
	fputs(",\"boundary\":", out);
	put_json_str(out, f->old_s);
	if (f->why) {
		fputs(",\"note\":", out);
		put_json_str(out, f->why);
	}
	fputc('}', out);
}

int prove_print_json(const struct prove_result *r, FILE *out)
{
	size_t i;

	fprintf(out, "{\"schema_version\":1,\"verdict\":\"%s\",\"findings\":[",
		r->exceeds ? "exceeds" : "within");
	for (i = 0; i < r->n; i++) {
		if (i)
			fputc(',', out);
		put_json_finding(out, &r->f[i]);
	}
	fputs("],\"notes\":[", out);
	for (i = 0; i < r->nnotes; i++) {
		if (i)
			fputc(',', out);
		put_json_finding(out, &r->notes[i]);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
