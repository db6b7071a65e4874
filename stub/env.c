/* SPDX-License-Identifier: MIT */
/*
 * The box's environment, built from the policy alone. It starts empty;
 * `pass NAME` copies polexec's (the caller's) NAME when it is set; `set
 * NAME=VALUE` sets VALUE with its ${VAR} references bound (vars.c).
 * Nothing else of the caller's environment reaches the box, but one
 * replacement: where the view's `tmpfs /tmp` became a private folder of
 * the host's tree (box/hosttree.c), TMPDIR names it, in place of any the
 * policy set.
 */
#include "env.h"
#include "box/view.h"
#include "lib/util.h"

#include <string.h>

/*
 * After it: a NULL-terminated array holding exactly one string per `set`
 * entry and one per `pass` entry whose variable the caller has, in the
 * section's order, with a total size under POLEXEC_MAX_ENV_SIZE.
 */
char **env_build(const struct policy *p, const struct vars *vars)
{
	char **envp = xcalloc(p->nenv + 2, sizeof(*envp));
	const char *tmpdir = view_env();
	size_t total = 0;
	uint32_t i, n = 0;

	for (i = 0; i < p->nenv; i++) {
		const struct env_entry *e = &p->env[i];
		size_t nlen = strlen(e->name);
		char head[POLEXEC_MAX_STR + 2], *s;
		const char *v;

		memcpy(head, e->name, nlen);
		memcpy(head + nlen, "=", 2);
		if (e->kind == ENV_SET) {
			s = vars_bind(vars, head, e->value, "set ", e->name);
		} else if (e->kind == ENV_PASS) {
			v = vars_caller(e->name, nlen);
			if (!v)
				continue;
			if (strlen(v) > POLEXEC_MAX_VALUE - nlen - 1)
				die("env: %s: value longer than %d bytes "
				    "after binding",
				    e->name, POLEXEC_MAX_VALUE);
			s = xcalloc(nlen + strlen(v) + 2, 1);
			memcpy(s, head, nlen + 1);
			memcpy(s + nlen + 1, v, strlen(v));
		} else if (e->kind == ENV_SECRET) {
			continue; /* a file in the box (secrets.c) */
		} else if (tmpdir && !strcmp(e->name, "TMPDIR")) {
			continue; /* the box's folder is named below */
		} else {
			die("env: %s: entry kind %u is not supported", e->name,
			    e->kind);
		}
		total += strlen(s) + 1;
		if (total > POLEXEC_MAX_ENV_SIZE)
			die("env: the box's environment exceeds %d bytes",
			    POLEXEC_MAX_ENV_SIZE);
		envp[n++] = s;
	}
	if (tmpdir)
		envp[n++] = xstrndup(tmpdir, strlen(tmpdir));
	envp[n] = NULL;
	return envp;
}
