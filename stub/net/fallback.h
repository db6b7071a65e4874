/* SPDX-License-Identifier: MIT */
/* `net none` without a network namespace: seccomp and Landlock's TCP
 * rules (fallback.c). */
#ifndef POLC_STUB_NET_FALLBACK_H
#define POLC_STUB_NET_FALLBACK_H

#include "lib/policy.h"
#include "lib/util.h"

/* Does the artifact carry the NONET program (`net none`, no ports)? */
int net_fallback_wanted(const struct policy *p);
/* Parent: the box gets this rung instead of a network namespace. */
void net_fallback_plan(void);
int net_fallback_on(void);
/* "seccomp+landlock", or "seccomp" where Landlock lacks TCP rules. */
const char *net_fallback_rung(void);
/* Child, after no_new_privs: Landlock's TCP ruleset, the NONET program. */
void net_fallback_child(const struct policy *p);

#endif
