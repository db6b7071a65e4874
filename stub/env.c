/* SPDX-License-Identifier: MIT */
/*
 * The box's environment, built from the policy alone. It starts empty;
 * `pass NAME` copies polexec's (the caller's) NAME when it is set; `set
 * NAME=VALUE` sets VALUE with its ${VAR} references bound. Nothing else of
 * the caller's environment reaches the box.
 *
 * Reference syntax (the rule of polc's semantic pass and of
 * compiler/env_backend.c): every `$` starts a reference `${NAME}`, NAME an
 * identifier; a value holding any other `$` is malformed and refused. A
 * reference is bound from `--var NAME=VALUE`, else from polexec's own
 * environment; an unbound one is a refusal naming it.
 */
#include "polexec.h"

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

/* The caller's value of name[0..len), or NULL; environ is not modified. */
static const char *caller_env(const char *name, size_t len)
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
	return caller_env(name, len);
}

static const char *bind(const struct vars *vars, const char *name, size_t len,
			const char *entry)
{
	const char *v = vars_lookup(vars, name, len);

	if (!v)
		die("env: %s: variable ${%.*s} is not bound: give --var "
		    "%.*s=VALUE or set it in polexec's environment",
		    entry, (int)len, name, (int)len, name);
	return v;
}

/* A growing string with a hard cap; dies rather than exceed it. */
struct buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n, const char *what)
{
	if (n > POLEXEC_MAX_VALUE || b->len + n > POLEXEC_MAX_VALUE)
		die("env: %s: value longer than %d bytes after binding", what,
		    POLEXEC_MAX_VALUE);
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *s2 = realloc(b->s, cap);

		if (!s2)
			die_oom();
		b->s = s2;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* "NAME=" followed by `value` with every ${VAR} bound. */
static char *expand(const struct env_entry *e, const struct vars *vars)
{
	struct buf b = {0};
	const char *v = e->value;

	buf_add(&b, e->name, strlen(e->name), e->name);
	buf_add(&b, "=", 1, e->name);
	while (*v) {
		const char *ref = strchr(v, '$'), *end, *val;

		if (!ref) {
			buf_add(&b, v, strlen(v), e->name);
			break;
		}
		buf_add(&b, v, (size_t)(ref - v), e->name);
		end = ref[1] == '{' ? strchr(ref + 2, '}') : NULL;
		if (!end || !valid_identifier(ref + 2, (size_t)(end - ref - 2)))
			die("artifact: env: set %s: malformed ${...} reference",
			    e->name);
		val = bind(vars, ref + 2, (size_t)(end - ref - 2), e->name);
		buf_add(&b, val, strlen(val), e->name);
		v = end + 1;
	}
	return b.s;
}

static char *pass(const struct env_entry *e)
{
	const char *v = caller_env(e->name, strlen(e->name));
	struct buf b = {0};

	if (!v)
		return NULL;
	buf_add(&b, e->name, strlen(e->name), e->name);
	buf_add(&b, "=", 1, e->name);
	buf_add(&b, v, strlen(v), e->name);
	return b.s;
}

/*
 * After it: a NULL-terminated array holding exactly one string per `set`
 * entry and one per `pass` entry whose variable the caller has, in the
 * section's order, with a total size under POLEXEC_MAX_ENV_SIZE.
 */
char **env_build(const struct policy *p, const struct vars *vars)
{
	char **envp = xcalloc(p->nenv + 1, sizeof(*envp));
	size_t total = 0;
	uint32_t i, n = 0;

	for (i = 0; i < p->nenv; i++) {
		const struct env_entry *e = &p->env[i];
		char *s = NULL;

		if (e->kind == ENV_SET)
			s = expand(e, vars);
		else if (e->kind == ENV_PASS)
			s = pass(e);
		else if (e->kind == ENV_SECRET)
			continue; /* a file in the box (secrets.c) */
		else
			die("env: %s: entry kind %u is not supported", e->name,
			    e->kind);
		if (!s)
			continue;
		total += strlen(s) + 1;
		if (total > POLEXEC_MAX_ENV_SIZE)
			die("env: the box's environment exceeds %d bytes",
			    POLEXEC_MAX_ENV_SIZE);
		envp[n++] = s;
	}
	envp[n] = NULL;
	return envp;
}

/*
 * `text` with every ${VAR} bound as for `set`, in a fresh string; `what`
 * names the entry in a refusal. Used for a secret's source and place, so
 * a refusal names the entry, never the bound text.
 */
char *env_bind_text(const struct vars *vars, const char *text, const char *what)
{
	struct buf b = {0};
	const char *v = text;

	buf_add(&b, "", 0, what);
	while (*v) {
		const char *ref = strchr(v, '$'), *end, *val;

		if (!ref) {
			buf_add(&b, v, strlen(v), what);
			break;
		}
		buf_add(&b, v, (size_t)(ref - v), what);
		end = ref[1] == '{' ? strchr(ref + 2, '}') : NULL;
		if (!end || !valid_identifier(ref + 2, (size_t)(end - ref - 2)))
			die("artifact: env: %s: malformed ${...} reference",
			    what);
		val = bind(vars, ref + 2, (size_t)(end - ref - 2), what);
		buf_add(&b, val, strlen(val), what);
		v = end + 1;
	}
	return b.s;
}
