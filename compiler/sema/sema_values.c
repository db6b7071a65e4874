/* SPDX-License-Identifier: MIT */
/* Numbers, constants, sizes, durations, ports and variable references. */
#include "tables/tables.h"
#include "sema_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Decimal, 0x hex, 0o octal, or a negative decimal; no other spelling. */
static int parse_int(const char *t, long long *out)
{
	unsigned long long v;
	int neg = 0, base = 10;
	char *end;

	if (*t == '-') {
		neg = 1;
		t++;
	}
	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		base = 16, t += 2;
	else if (t[0] == '0' && t[1] == 'o')
		base = 8, t += 2;
	if (!*t || !isxdigit((unsigned char)*t) || (neg && base != 10))
		return -1;
	errno = 0;
	v = strtoull(t, &end, base);
	if (errno || *end)
		return -1;
	if (neg) {
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -1;
		*out = (long long)(0 - v);
	} else {
		*out =
		    (long long)v; /* values above LLONG_MAX wrap, on purpose */
	}
	return 0;
}

int sema_number(struct sema *s, const struct ast_word *w, long long *out)
{
	if (w->kind == AST_WORD && !parse_int(w->text, out))
		return 0;
	diag_error(s->d, w->loc, "expected a number, got '%s'", w->text);
	return -1;
}

static void unknown_constant(struct sema *s, const struct ast_word *w)
{
	const char *cands[2048];
	const struct constant *c;
	size_t n = 0;

	while (n < sizeof(cands) / sizeof(*cands) &&
	       (c = constant_at((unsigned)n)))
		cands[n++] = c->name;
	sema_unknown(s, w, "constant", cands, n);
}

int sema_value(struct sema *s, const struct ast_value *v, uint64_t *out)
{
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < v->n; i++) {
		const struct ast_word *w = &v->terms[i];
		long long x;

		if (isdigit((unsigned char)w->text[0]) || w->text[0] == '-') {
			if (parse_int(w->text, &x)) {
				diag_error(s->d, w->loc, "bad number '%s'",
					   w->text);
				return -1;
			}
		} else if (constant_lookup(w->text, &x)) {
			unknown_constant(s, w);
			return -1;
		}
		acc |= (uint64_t)x;
	}
	*out = acc;
	return 0;
}

static int split_unit(const char *t, unsigned long long *num, const char **unit)
{
	char *end;

	if (!isdigit((unsigned char)*t))
		return -1;
	errno = 0;
	*num = strtoull(t, &end, 10);
	if (errno)
		return -1;
	*unit = end;
	return 0;
}

int sema_size(struct sema *s, const struct ast_word *w, uint64_t *bytes)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = {
	    {"", 0},	 {"B", 0},  {"K", 10},	 {"KiB", 10}, {"M", 20},
	    {"MiB", 20}, {"G", 30}, {"GiB", 30}, {"T", 40},   {"TiB", 40},
	};
	unsigned long long n;
	const char *unit;
	size_t i;

	if (w->kind == AST_WORD && !split_unit(w->text, &n, &unit)) {
		for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
			if (strcmp(unit, units[i].unit))
				continue;
			if (n > (~0ull >> units[i].shift))
				break;
			*bytes = n << units[i].shift;
			return 0;
		}
	}
	diag_error(s->d, w->loc,
		   "expected a size like 512MiB or 2GiB, got '%s'", w->text);
	return -1;
}

int sema_duration(struct sema *s, const struct ast_word *w, uint64_t *ms)
{
	static const struct {
		const char *unit;
		unsigned long long ms;
	} units[] = {
	    {"ms", 1},
	    {"s", 1000},
	    {"m", 60000},
	    {"h", 3600000},
	};
	unsigned long long n;
	const char *unit;
	size_t i;

	if (w->kind == AST_WORD && !split_unit(w->text, &n, &unit)) {
		for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
			if (strcmp(unit, units[i].unit))
				continue;
			if (n > ~0ull / units[i].ms)
				break;
			*ms = n * units[i].ms;
			return 0;
		}
	}
	diag_error(s->d, w->loc,
		   "expected a duration like 500ms, 10s, 5m or 1h, got '%s'",
		   w->text);
	return -1;
}

static int parse_port(const char *t, size_t n, uint16_t *out)
{
	unsigned v = 0;
	size_t i;

	if (n == 0 || n > 5)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)t[i]))
			return -1;
		v = v * 10 + (unsigned)(t[i] - '0');
	}
	if (v > 65535)
		return -1;
	*out = (uint16_t)v;
	return 0;
}

/* "443", "8000-8100" or "*" (any). `text` may be a suffix of w->text. */
int sema_ports(struct sema *s, const struct ast_word *w, const char *text,
	       struct ir_port_range *r)
{
	const char *dash = strchr(text, '-');

	if (!strcmp(text, "*")) {
		r->lo = 0;
		r->hi = 65535;
		return 0;
	}
	if (!dash && !parse_port(text, strlen(text), &r->lo)) {
		r->hi = r->lo;
		return 0;
	}
	if (dash && !parse_port(text, (size_t)(dash - text), &r->lo) &&
	    !parse_port(dash + 1, strlen(dash + 1), &r->hi)) {
		if (r->lo <= r->hi)
			return 0;
		diag_error(s->d, w->loc, "port range '%s' is empty", text);
		return -1;
	}
	diag_error(s->d, w->loc,
		   "expected a port (0-65535), a range like 8000-8100, or '*', "
		   "got '%s'",
		   text);
	return -1;
}

int sema_identifier(const char *name)
{
	const char *p = name;

	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	return p - name <= 128;
}

/* Every `${` must open a well-formed ${NAME}; the lexer guarantees that for
 * words, strings are checked here. */
int sema_check_vars(struct sema *s, const struct ast_word *w, const char *text)
{
	const char *p = text;

	while ((p = strchr(p, '$'))) {
		const char *end;
		char name[130];
		size_t n;

		if (p[1] != '{' || !(end = strchr(p, '}')))
			goto bad;
		n = (size_t)(end - p - 2);
		if (n == 0 || n >= sizeof(name))
			goto bad;
		memcpy(name, p + 2, n);
		name[n] = '\0';
		if (!sema_identifier(name))
			goto bad;
		p = end + 1;
	}
	return 0;
bad:
	diag_error(s->d, w->loc, "'$' must start a variable like ${NAME}");
	return -1;
}
