/* SPDX-License-Identifier: MIT */
/*
 * The notify broker (broker.c): `net filtered`, and `net none` with
 * loopback ports, enforced without privilege by seccomp user
 * notification. The box stays in the caller's network; polexec's
 * supervisor makes every connect of the box itself, on its own duplicate
 * of the box's socket, to a destination it decided on its own copy.
 */
#ifndef POLC_STUB_NET_BROKER_H
#define POLC_STUB_NET_BROKER_H

#include "lib/policy.h"

#include <stdint.h>

/* Can the broker enforce p's net layer here: the artifact's BROKER
 * program and the EBPF section's rules, and a supervisor? NULL, or why
 * not (a sentence). */
const char *broker_unavailable(const struct policy *p);
/* The same, for polexec --doctor (no supervisor planned): the sections,
 * and the kernel's user notification. */
const char *broker_unavailable_here(const struct policy *p);
/* Parent, deciding: the broker enforces the net layer; pinned(), net.c's,
 * says whether a pinned address of a runtime entry allows a destination. */
void broker_plan(const struct policy *p,
		 int (*pinned)(int v6, const uint8_t *a, uint8_t proto,
			       uint16_t port));
int broker_on(void);
/* After the box: fn on each destination refused; how many. */
int broker_each_blocked(void (*fn)(int v6, const uint8_t *addr, uint8_t proto,
				   uint16_t port, void *arg),
			void *arg);
/* Refused at the limit: the list may be short. */
int broker_blocked_complete(void);

#endif
