/* SPDX-License-Identifier: MIT */
/*
 * The limits backend: the IR's limits block as the LIMITS section polexec
 * reads (format in artifact/sections.h).
 */
#ifndef POLC_LIMITS_BACKEND_H
#define POLC_LIMITS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/*
 * Encodes p->limits into a malloc'd *out of POLBIN_LIMITS_LEN bytes. Every
 * policy gets the section: without a limits block it says only "core 0".
 * Defaults are written out (core 0 unless given, grace
 * POLBIN_LIMITS_GRACE_MS unless given), so polexec decides nothing.
 *
 * The IR is checked again here, as polexec will check the section: known
 * limit bits, the value of an unset limit 0, a set value nonzero (core
 * excepted) and within the bounds of artifact/sections.h, a known mode.
 * Returns 0, or -1 with a one-line reason in err (*out is then NULL).
 */
int limits_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
			 char *err, size_t errlen);

#endif
