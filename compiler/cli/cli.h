/* SPDX-License-Identifier: MIT */
/*
 * The commands of polc that are not a stage of their own: `polc build`
 * (build.c: policy source to a verified .polbin, through the semantic
 * pass, the backends and the artifact writer) and `polc dump` (dump.c: an
 * artifact's sections in human form). polc.c parses the command line and
 * runs them, the prover for `check` and `diff`, lang/ for `fmt`.
 */
#ifndef POLC_CLI_H
#define POLC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- polc build (build.c) ------------------------------------------- */

struct build_opts {
	const char *input;
	const char *output;   /* NULL: the input's name with .polbin */
	const char *emit_bpf; /* NULL: no raw seccomp program */
	const char *const *search;
	size_t nsearch;
	int max_errors; /* errors shown: 0 all, -1 the default */
};

/* Returns the process exit code: 0, 2 (bad input) or 3 (compiler bug). */
int build_policy(const struct build_opts *o);

/* ---- polc dump (dump.c) --------------------------------------------- */

/* 0, or -1 with the reason in err (the artifact is refused). */
int dump_artifact(const uint8_t *buf, size_t len, FILE *out, char *err,
		  size_t errlen);

#endif
