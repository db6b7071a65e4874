/* SPDX-License-Identifier: MIT */
/*
 * The env backend: the IR's env block as the ENV section polexec reads
 * (format in artifact/sections.h).
 */
#ifndef POLC_ENV_BACKEND_H
#define POLC_ENV_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/*
 * Encodes p->env into a malloc'd *out of *len bytes. A policy without an
 * env block gets an empty recipe (count 0): the box's environment is empty
 * either way, and the section says so explicitly.
 *
 * The IR is checked again here, as polexec will check it: at most
 * IR_MAX_ENV entries, names valid identifiers and unique, each string at
 * most IR_MAX_STR bytes, pass carrying no value, set a value, secret a
 * source and a destination, and every `$` in a value or destination
 * starting a well-formed ${NAME}. Returns 0, or -1 with a one-line reason
 * in err (*out is then NULL).
 */
int env_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

#endif
