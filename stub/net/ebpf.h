/* SPDX-License-Identifier: MIT */
/*
 * The cgroup eBPF egress backend (ebpf.c): the EBPF section's maps made
 * and filled, its programs loaded and attached to the box's own cgroup,
 * with raw bpf() calls.
 */
#ifndef POLC_STUB_NET_EBPF_H
#define POLC_STUB_NET_EBPF_H

#include "lib/policy.h"

#include <stdint.h>

/* May this process load and attach cgroup programs (CAP_BPF and
 * CAP_NET_ADMIN in its effective set)? */
int ebpf_capable(void);

/* One pinned address of a runtime entry, for the RT rules. */
struct ebpf_pin {
	int v6;
	uint8_t proto;
	uint16_t lo, hi;
	uint8_t a[16];
};

/*
 * Parent, before the clone: the maps made (the section's rules and the
 * pins), frozen; the programs loaded and attached with BPF_F_ALLOW_MULTI
 * to the cgroup open at cgfd. No fd of a program or of the rules is kept;
 * the evidence map's (close-on-exec) is, for ebpf_each_blocked. 0; on a
 * failure ebpf_why() names the step ("load egress (...): EACCES"), and
 * -1: nothing of ours is left attached to the cgroup or open (every
 * program detached again, as BPF_PROG_QUERY says), so the box may fall
 * back to another backend; or -2: that undo failed, or the helper died,
 * and only removing the cgroup (the refusal) cleans up.
 */
int ebpf_install(const struct net_ebpf *s, const struct ebpf_pin *pins,
		 uint32_t npins, int cgfd);
const char *ebpf_why(void);

/* After the box: fn on each destination the programs refused; the number
 * of them, or -1 (errno) when the map cannot be read. */
int ebpf_each_blocked(void (*fn)(int v6, const uint8_t *addr, uint8_t proto,
				 uint16_t port, void *arg),
		      void *arg);

#endif
