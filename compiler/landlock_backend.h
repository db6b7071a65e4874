/* SPDX-License-Identifier: MIT */
/*
 * The Landlock backend: the IR's fs grants, `net host` TCP ports and the
 * scopes, as the LANDLOCK section polexec installs (artifact/sections.h
 * has the format, docs/LANDLOCK.md the design). The section is a pure
 * function of the IR, so the prover can rebuild and compare it.
 */
#ifndef POLC_LANDLOCK_BACKEND_H
#define POLC_LANDLOCK_BACKEND_H

#include "ir/ir.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The Landlock layer is on when the policy has an fs section, a landlock
 * statement, or `net host` port rules.
 */
int landlock_layer_on(const struct ir_policy *p);

/*
 * The requirement the section carries: the landlock statement's, else the
 * default `require`, ABI 1, or ABI 4 when `net host` has port rules (the
 * ABI that has them).
 */
void landlock_requirement(const struct ir_policy *p, uint32_t *abi_min,
			  uint32_t *mode);

/*
 * Builds the section into *out (malloc'd). 0 with *out NULL when the layer
 * is off; 2 with err filled when the IR cannot be compiled (a port list
 * past POLBIN_LL_MAX_PORTS), or out of memory.
 */
int landlock_section_build(const struct ir_policy *p, uint8_t **out,
			   size_t *len, char *err, size_t errlen);

#endif
