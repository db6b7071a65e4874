/* SPDX-License-Identifier: MIT */
/*
 * Every backend over one IR: the compiled sections of an artifact, apart
 * from the IR and metadata. `polc build` writes them; the prover re-runs
 * them on an artifact's IR and requires the artifact's sections to be
 * exactly these, so an artifact is judged by the IR it really enforces.
 */
#ifndef POLC_BACKENDS_H
#define POLC_BACKENDS_H

#include "ir/ir.h"

#include <stddef.h>
#include <stdint.h>

#define BACKENDS_MAX 8

struct compiled_section {
	uint32_t type;
	uint32_t flags;
	uint8_t *data;
	size_t len;
};

struct compiled {
	size_t n;
	struct compiled_section sec[BACKENDS_MAX];
};

/*
 * Runs every backend, translation validation included. Returns 0; 2 when
 * the policy cannot be compiled (err says why); 3 when validation caught a
 * compiler bug (err names the syscall and a witness). On failure *out is
 * empty.
 */
int backends_compile(const struct ir_policy *p, struct compiled *out, char *err,
		     size_t errlen);
void backends_free(struct compiled *c);
const struct compiled_section *backends_find(const struct compiled *c,
					     uint32_t type);

#endif
