/* SPDX-License-Identifier: MIT */
/*
 * Variables. Reference syntax (the rule of polc's semantic pass and of
 * compiler/env_backend.c): every `$` starts a reference `${NAME}`, NAME an
 * identifier; a value holding any other `$` is malformed and refused. A
 * reference is bound from `--var NAME=VALUE`, else from polexec's own
 * environment; an unbound one is a refusal naming it.
 */
#include "vars.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

void vars_add(struct vars *vars, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t nlen;
	uint32_t i;

	if (!eq)
		die("args: --var %s: expected NAME=VALUE", arg);
	nlen = (size_t)(eq - arg);
	if (!valid_identifier(arg, nlen))
		die("args: --var: \"%.*s\" is not a valid variable name",
		    (int)(nlen > 64 ? 64 : nlen), arg);
	if (strlen(eq + 1) > POLEXEC_MAX_VALUE)
		die("args: --var %.*s: value longer than %d bytes", (int)nlen,
		    arg, POLEXEC_MAX_VALUE);
	for (i = 0; i < vars->n; i++)
		if (vars->v[i].name_len == nlen &&
		    memcmp(vars->v[i].name, arg, nlen) == 0)
			die("args: --var %.*s given twice", (int)nlen, arg);
	if (vars->n >= POLEXEC_MAX_VARS)
		die("args: more than %d --var options", POLEXEC_MAX_VARS);
	vars->v[vars->n].name = arg;
	vars->v[vars->n].name_len = nlen;
	vars->v[vars->n].value = eq + 1;
	vars->n++;
}

/* environ is only read, never modified. */
const char *vars_caller(const char *name, size_t len)
{
	char **e;

	for (e = environ; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

const char *vars_lookup(const struct vars *vars, const char *name, size_t len)
{
	uint32_t i;

	for (i = 0; i < vars->n; i++)
		if (vars->v[i].name_len == len &&
		    memcmp(vars->v[i].name, name, len) == 0)
			return vars->v[i].value;
	return vars_caller(name, len);
}

/* s[0..n) onto t, which may hold at most POLEXEC_MAX_VALUE bytes. */
static void add(struct text *t, const char *s, size_t n, const char *what)
{
	if (n > POLEXEC_MAX_VALUE || t->len + n > POLEXEC_MAX_VALUE)
		die("env: %s: value longer than %d bytes after binding", what,
		    POLEXEC_MAX_VALUE);
	text_add(t, "%.*s", (int)n, s);
	if (t->overflow)
		die_oom();
}

char *vars_bind(const struct vars *vars, const char *head, const char *text,
		const char *kind, const char *what)
{
	struct text t = {0};
	const char *v = text;

	add(&t, head, strlen(head), what);
	while (*v) {
		const char *ref = strchr(v, '$'), *end, *val;
		size_t len;

		if (!ref) {
			add(&t, v, strlen(v), what);
			break;
		}
		add(&t, v, (size_t)(ref - v), what);
		end = ref[1] == '{' ? strchr(ref + 2, '}') : NULL;
		len = end ? (size_t)(end - ref - 2) : 0;
		if (!end || !valid_identifier(ref + 2, len))
			die("artifact: env: %s%s: malformed ${...} reference",
			    kind, what);
		val = vars_lookup(vars, ref + 2, len);
		if (!val)
			die("env: %s: variable ${%.*s} is not bound: give "
			    "--var "
			    "%.*s=VALUE or set it in polexec's environment",
			    what, (int)len, ref + 2, (int)len, ref + 2);
		add(&t, val, strlen(val), what);
		v = end + 1;
	}
	return t.s;
}
