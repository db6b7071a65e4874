/* SPDX-License-Identifier: MIT */
/*
 * The egress backend: the IR's net block as the NET section (version 2) and,
 * for `net filtered`, the NFT section: the nfnetlink messages of the table
 * inet "polc" (formats in artifact/sections.h), built with libnftnl.
 */
#ifndef POLC_NFT_BACKEND_H
#define POLC_NFT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* At most this many elements in the four interval sets together. */
#define NFT_MAX_ELEMS 16384

/*
 * One element of allow4/allow6/deny4/deny6: the box of addresses lo..hi
 * (network order, 4 or 16 bytes used), one protocol, ports plo..phi.
 */
struct nft_elem {
	uint8_t lo[16], hi[16];
	uint8_t proto;
	uint16_t plo, phi;
};

/*
 * The static entries of one verdict (IR_NET_ALLOW or IR_NET_DENY) and one
 * family (4 or 6) as pairwise disjoint boxes, sorted by (proto, address,
 * port), neighbours with equal port sets merged: what the set holds. A
 * malloc'd *out (NULL when *n is 0). Returns 0, or -1 with a reason.
 */
int nft_elements(const struct ir_policy *p, int verdict, int family,
		 struct nft_elem **out, size_t *n, char *err, size_t errlen);

/*
 * The NET section of p, or *out NULL when p has none (no net block, `net
 * host`): the 24-byte header, loopback ranges merged, runtime entries
 * (names and ${VAR} allows in IR order). Returns 0, or -1 with a reason.
 */
int net_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

/*
 * The NFT section of a `net filtered` p: NLMSG_ALIGNed nfnetlink messages,
 * seq 0, pid 0, no batch begin/end. Deterministic. Returns 0, or -1 with a
 * reason (too many elements, over POLBIN_NET_MAX_NFT, not filtered).
 */
int nft_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen);

/* The runtime allow entries of p (names and ${VAR}), in IR order. */
size_t nft_runtime_count(const struct ir_policy *p);
const struct ir_net_entry *nft_runtime_entry(const struct ir_policy *p,
					     size_t i);

#endif
