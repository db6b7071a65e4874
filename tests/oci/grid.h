/* SPDX-License-Identifier: MIT */
/*
 * The argument grid test_oci and bench-oci run every syscall number on:
 * for each argument, 0 and all ones, and each constant the rules of that
 * syscall test (their value, one off either side, the value with its mask
 * flipped), each also with upper halves of 0, 1 and all ones over its low
 * 32 bits. The vectors are the product of the six sets, or one argument
 * at a time (the others 0) past `max` vectors.
 */
#ifndef POLC_OCI_GRID_H
#define POLC_OCI_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

#define GRID_VALS 48

struct grid {
	uint64_t v[6][GRID_VALS];
	size_t n[6];
};

/* The grid of number nr from the rules of each policy in ps (NULL ones
 * skipped). */
void grid_fill(struct grid *g, const struct ir_policy *const *ps, size_t np,
	       int nr);

/* Vector i of the grid into args: 1, or 0 past the last. */
int grid_vector(const struct grid *g, size_t i, size_t max, uint64_t args[6]);

#endif
