/* SPDX-License-Identifier: MIT */
/* The box's host loopback ports, relayed by polexec (relay.c). */
#ifndef POLC_STUB_RELAY_H
#define POLC_STUB_RELAY_H

#include "lib/policy.h"

/* How many ports the `loopback` ranges list. */
unsigned relay_ports(const struct net_spec *s);
/* In the box's network namespace: a listener on each port. */
void relay_listen(const struct net_spec *s);
/* Parent: the relay process, outside the box; our listeners closed. */
void relay_start(void);
/* Every way out: the relay and its connections killed. */
void relay_stop(void);

#endif
