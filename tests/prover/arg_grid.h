/* SPDX-License-Identifier: MIT */
/*
 * The argument values a syscall grid is built from: every constant of the
 * policies' rules on that syscall, +-1, with the bits outside its mask set,
 * with its high word flipped or filled. Shared by the suites that run
 * compiled programs over such a grid (test_prove_random.c,
 * test_prove_diff.c); include after ir/ir.h.
 */
#ifndef POLC_TEST_ARG_GRID_H
#define POLC_TEST_ARG_GRID_H

#include <stdint.h>

#define GRID_VALS 24 /* values per argument */

static void grid_add(uint64_t *v, unsigned *n, uint64_t x)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < GRID_VALS)
		v[(*n)++] = x;
}

/* The values the atoms of p's rules on `name` make interesting. */
static void grid_atoms(const struct ir_policy *p, const char *name,
		       uint64_t v[6][GRID_VALS], unsigned n[6])
{
	const struct ir_syscall *sc = ir_find_syscall(&p->sys, name);

	for (uint32_t r = 0; sc && r < sc->nrules; r++) {
		for (uint32_t a = 0; a < sc->rules[r].natoms; a++) {
			const struct ir_atom *at = &sc->rules[r].atoms[a];
			uint64_t k = at->value, m = at->mask;
			unsigned i = at->arg;

			grid_add(v[i], &n[i], k);
			grid_add(v[i], &n[i], k + 1);
			grid_add(v[i], &n[i], k - 1);
			grid_add(v[i], &n[i], k | ~m);
			grid_add(v[i], &n[i], k ^ 0x100000000ull);
			grid_add(v[i], &n[i], k | 0xffffffff00000000ull);
			grid_add(v[i], &n[i], (k + 1) | (~m & 0x1ffffffffull));
		}
	}
}

#endif
