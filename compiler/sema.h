/* SPDX-License-Identifier: MIT */
/*
 * The semantic pass: source files to IR. It is the only reader of the
 * syntax tree. It loads `use`d fragments through the search path, checks
 * every name, value and rule, reports duplicates and conflicts with both
 * places, and returns a canonical IR (docs/LANGUAGE.md is its contract).
 */
#ifndef POLC_SEMA_H
#define POLC_SEMA_H

#include "diag.h"
#include "ir/ir.h"

#include <stddef.h>

struct sema_opts {
	const char *const *search; /* fragment folders, in order */
	size_t nsearch;
};

/*
 * Compiles the policy at `path`. Returns 0 with *out set, or -1 with errors
 * in d (then *out is NULL). Warnings may be recorded either way.
 */
int sema_compile(struct diag *d, const char *path, const struct sema_opts *o,
		 struct ir_policy **out);

/* As above, from text in memory (tests, fuzzing). */
int sema_compile_text(struct diag *d, const char *name, const char *text,
		      size_t len, const struct sema_opts *o,
		      struct ir_policy **out);

#endif
