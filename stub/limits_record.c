/* SPDX-License-Identifier: MIT */
/* The run record's "limits" member; record.c writes the rest. */
#include "limits_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct jbuf {
	char *s;
	size_t len, used;
	int overflow;
};

static void jput(struct jbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void jput(struct jbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->len - b->used)
		b->overflow = 1;
	else
		b->used += (size_t)n;
}

/*
 * `"limits":{"mode":..., NAME:{"max":N, "tier":..., "status":...,
 * "on_exceed":..., "hit":true|false|null, ...}, ...},` followed by a
 * newline; nothing for a refused run or an artifact without limits.
 * Strings are fixed words of this file, and a reason that may carry a
 * path from the host is not included.
 */
size_t limits_record(char *buf, size_t len, int refused)
{
	struct jbuf b = {buf, len, 0, 0};
	int i;

	if (refused || !L.spec || !L.spec->present || len == 0)
		return 0;
	jput(&b, "\"limits\":{\"mode\":\"%s\"",
	     !(L.spec->flags & POLBIN_LIMITS_F_STATED) ? "default"
	     : L.spec->flags & POLBIN_LIMITS_F_REQUIRE ? "require"
						       : "best_effort");
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const struct lim *m = &L.lim[i];

		if (!is_set(i))
			continue;
		jput(&b, ",\n  \"%s\":{\"max\":%llu,\"tier\":\"%s\"",
		     lim_name[i], (unsigned long long)L.spec->value[i],
		     m->tier ? m->tier : "none");
		if (m->applied && m->applied != L.spec->value[i])
			jput(&b, ",\"applied\":%llu",
			     (unsigned long long)m->applied);
		if (m->degraded)
			jput(&b, ",\"status\":\"degraded(%s)\"", m->degraded);
		else
			jput(&b, ",\"status\":\"enforced\"");
		if (m->on_exceed)
			jput(&b, ",\"on_exceed\":\"%s\"", m->on_exceed);
		if (i != POLBIN_LIM_GRACE)
			jput(&b, ",\"hit\":%s",
			     m->hit > 0	   ? "true"
			     : m->hit == 0 ? "false"
					   : "null");
		if ((i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) &&
		    m->tier && !strncmp(m->tier, "cgroup", 6)) {
			if (m->events >= 0)
				jput(&b, ",\"%s\":%lld",
				     i == POLBIN_LIM_MEMORY ? "oom_kills"
							    : "refused_forks",
				     m->events);
			if (m->peak >= 0)
				jput(&b, ",\"peak\":%lld", m->peak);
		}
		jput(&b, "}");
	}
	jput(&b, "},\n");
	if (b.overflow) {
		buf[0] = '\0';
		return 0;
	}
	return b.used;
}
