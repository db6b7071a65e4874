/* SPDX-License-Identifier: MIT */
/*
 * Variables: `--var NAME=VALUE`, else polexec's own environment, bind the
 * ${NAME} references the artifact keeps unresolved (vars.c). The env,
 * Landlock, secrets and net layers bind through here, so a reference
 * means the same everywhere.
 */
#ifndef POLC_STUB_VARS_H
#define POLC_STUB_VARS_H

#include <stddef.h>
#include <stdint.h>

#define POLEXEC_MAX_VARS  256	      /* --var options */
#define POLEXEC_MAX_VALUE (128 << 10) /* one bound env value */

struct var {
	const char *name; /* points into argv */
	size_t name_len;
	const char *value;
};

struct vars {
	uint32_t n;
	struct var v[POLEXEC_MAX_VARS];
};

/* Parses one `--var NAME=VALUE` into vars; dies on a malformed one. */
void vars_add(struct vars *vars, const char *arg);
/* name[0..len)'s value: from --var, else polexec's environment, or NULL. */
const char *vars_lookup(const struct vars *vars, const char *name, size_t len);
/* The caller's own value of name[0..len) (never --var), or NULL. */
const char *vars_caller(const char *name, size_t len);
/*
 * head, then `text` with every ${VAR} bound, newly allocated, at most
 * POLEXEC_MAX_VALUE bytes. `what` names the entry in a refusal (never the
 * text), after `kind` ("set " or "") where the reference is malformed.
 */
char *vars_bind(const struct vars *vars, const char *head, const char *text,
		const char *kind, const char *what);

#endif
