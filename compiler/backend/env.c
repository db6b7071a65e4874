/* SPDX-License-Identifier: MIT */
/*
 * ENV section:  u32 count, then count entries
 *   { u8 kind, u8 zero, u16 name_len, u16 value_len, u16 dest_len,
 *     name, value, dest }
 * in the IR's order (sorted by name). `${VAR}` references are kept as
 * text; polexec binds them at run time.
 */
#include "backend.h"
#include "support/support.h"
#include "polbin.h"
#include "sections.h"

#include <stdlib.h>
#include <string.h>

/* Every `$` starts ${NAME}; the stub refuses anything else. */
static int refs_ok(const char *s)
{
	const char *end;

	while ((s = strchr(s, '$'))) {
		if (s[1] != '{' || !(end = strchr(s + 2, '}')) ||
		    !polbin_is_identifier(s + 2, (size_t)(end - s - 2)))
			return 0;
		s = end + 1;
	}
	return 1;
}

static void put16(uint8_t *p, size_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* Checks one entry; its encoded size in *size. */
static int check_entry(const struct ir_env_entry *e, size_t *size, char *err,
		       size_t errlen)
{
	size_t n = e->name ? strlen(e->name) : 0;
	size_t v = e->value ? strlen(e->value) : 0;
	size_t d = e->dest ? strlen(e->dest) : 0;

	if (!polbin_is_identifier(e->name ? e->name : "", n) || n > IR_MAX_STR)
		return errbuf_fail(err, errlen,
				   "env: '%s' is not a variable name",
				   e->name ? e->name : "");
	if (v > IR_MAX_STR || d > IR_MAX_STR)
		return errbuf_fail(err, errlen, "env: %s: longer than %d bytes",
				   e->name, IR_MAX_STR);
	switch (e->kind) {
	case IR_ENV_PASS:
		if (e->value || e->dest)
			return errbuf_fail(err, errlen,
					   "env: pass %s: carries a value",
					   e->name);
		break;
	case IR_ENV_SET:
		if (!e->value || e->dest)
			return errbuf_fail(err, errlen,
					   "env: set %s: needs a value and no "
					   "destination",
					   e->name);
		break;
	case IR_ENV_SECRET:
		if (!v || !d)
			return errbuf_fail(
			    err, errlen,
			    "env: secret %s: needs a source file and "
			    "a destination",
			    e->name);
		break;
	default:
		return errbuf_fail(err, errlen, "env: %s: unknown kind %u",
				   e->name, e->kind);
	}
	if ((e->value && !refs_ok(e->value)) || (e->dest && !refs_ok(e->dest)))
		return errbuf_fail(
		    err, errlen,
		    "env: %s: '$' must start a variable like ${NAME}", e->name);
	*size = 8 + n + v + d;
	return 0;
}

int env_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen)
{
	const struct ir_env *env = &p->env;
	size_t total = 4, size = 0, off;
	uint32_t i, n = env->present ? env->nentries : 0;
	uint8_t *buf;

	*out = NULL;
	*len = 0;
	if (n > IR_MAX_ENV)
		return errbuf_fail(err, errlen,
				   "env: %u entries, the limit is %d", n,
				   IR_MAX_ENV);
	for (i = 0; i < n; i++) {
		if (check_entry(&env->entries[i], &size, err, errlen) < 0)
			return -1;
		if (i > 0 &&
		    strcmp(env->entries[i - 1].name, env->entries[i].name) >= 0)
			return errbuf_fail(
			    err, errlen,
			    "env: %s: entries not sorted and unique "
			    "(IR not canonical)",
			    env->entries[i].name);
		total += size;
	}
	buf = calloc(1, total);
	if (!buf)
		return errbuf_fail(err, errlen, "env: out of memory");
	buf[0] = (uint8_t)n;
	buf[1] = (uint8_t)(n >> 8);
	buf[2] = (uint8_t)(n >> 16);
	buf[3] = (uint8_t)(n >> 24);
	off = 4;
	for (i = 0; i < n; i++) {
		const struct ir_env_entry *e = &env->entries[i];
		size_t nl = strlen(e->name);
		size_t vl = e->value ? strlen(e->value) : 0;
		size_t dl = e->dest ? strlen(e->dest) : 0;

		buf[off] = e->kind == IR_ENV_PASS  ? POLBIN_ENV_PASS
			   : e->kind == IR_ENV_SET ? POLBIN_ENV_SET
						   : POLBIN_ENV_SECRET;
		buf[off + 1] = 0;
		put16(buf + off + 2, nl);
		put16(buf + off + 4, vl);
		put16(buf + off + 6, dl);
		off += 8;
		memcpy(buf + off, e->name, nl);
		off += nl;
		if (vl)
			memcpy(buf + off, e->value, vl);
		off += vl;
		if (dl)
			memcpy(buf + off, e->dest, dl);
		off += dl;
	}
	*out = buf;
	*len = total;
	return 0;
}
