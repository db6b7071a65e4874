// SPDX-License-Identifier: MIT
/* The argument grid; see grid.h. */
#include "grid.h"

#include <string.h>

static void put(struct grid *g, unsigned k, uint64_t x)
{
	for (size_t i = 0; i < g->n[k]; i++)
		if (g->v[k][i] == x)
			return;
	if (g->n[k] < GRID_VALS)
		g->v[k][g->n[k]++] = x;
}

void grid_fill(struct grid *g, const struct ir_policy *const *ps, size_t np,
	       int nr)
{
	memset(g, 0, sizeof(*g));
	for (unsigned k = 0; k < 6; k++) {
		put(g, k, 0);
		put(g, k, UINT64_MAX);
	}
	for (size_t i = 0; i < np; i++) {
		const struct ir_syscall *sc =
		    ps[i] ? ir_syscall_for_nr(&ps[i]->sys, nr) : NULL;

		for (uint32_t r = 0; sc && r < sc->nrules; r++)
			for (uint32_t t = 0; t < sc->rules[r].natoms; t++) {
				const struct ir_atom *a =
				    &sc->rules[r].atoms[t];
				uint64_t base[4] = {a->value, a->value - 1,
						    a->value + 1,
						    a->value ^ a->mask};

				for (int b = 0; b < 4; b++) {
					uint32_t lo = (uint32_t)base[b];

					put(g, a->arg, base[b]);
					put(g, a->arg, lo);
					put(g, a->arg, (1ull << 32) | lo);
					put(g, a->arg,
					    0xffffffff00000000ull | lo);
				}
			}
	}
}

int grid_vector(const struct grid *g, size_t i, size_t max, uint64_t args[6])
{
	size_t total = 1, rest = i;

	for (unsigned k = 0; k < 6; k++)
		total *= g->n[k];
	if (total <= max) {
		if (i >= total)
			return 0;
		for (unsigned k = 0; k < 6; k++) {
			args[k] = g->v[k][rest % g->n[k]];
			rest /= g->n[k];
		}
		return 1;
	}
	memset(args, 0, 6 * sizeof(uint64_t));
	for (unsigned k = 0; k < 6; k++) {
		if (rest < g->n[k]) {
			args[k] = g->v[k][rest];
			return 1;
		}
		rest -= g->n[k];
	}
	return 0;
}
