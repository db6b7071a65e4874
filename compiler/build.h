/* SPDX-License-Identifier: MIT */
/* `polc build`: policy source to a verified .polbin. */
#ifndef POLC_BUILD_H
#define POLC_BUILD_H

#include <stddef.h>

struct build_opts {
	const char *input;
	const char *output;   /* NULL: the input's name with .polbin */
	const char *emit_bpf; /* NULL: no raw seccomp program */
	const char *const *search;
	size_t nsearch;
};

/* Returns the process exit code: 0, 2 (bad input) or 3 (compiler bug). */
int build_policy(const struct build_opts *o);

#endif
