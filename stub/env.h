/* SPDX-License-Identifier: MIT */
/* The box's environment, from the policy alone (env.c). */
#ifndef POLC_STUB_ENV_H
#define POLC_STUB_ENV_H

#include "artifact.h"
#include "lib/vars.h"

#define POLEXEC_MAX_ENV_SIZE (1 << 20) /* all of the box's env strings */

/*
 * A NULL-terminated "NAME=VALUE" array. Every ${VAR} is bound from vars,
 * else from polexec's own environment; an unbound one is a refusal naming
 * it.
 */
char **env_build(const struct policy *p, const struct vars *vars);

#endif
