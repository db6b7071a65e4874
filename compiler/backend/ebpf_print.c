/* SPDX-License-Identifier: MIT */
/*
 * The EBPF section read back (artifact/sections.h): decoded with every
 * check polexec makes and more, and printed for polc dump. Apart from
 * ebpf.c so that the readers (polc dump, the fuzz harnesses) need no
 * libbpf.
 */
#include "backend.h"
#include "ebpf_int.h"
#include "polbin.h"
#include "sections.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ebpf_decode(const uint8_t *s, size_t len, struct ebpf_decoded *dc,
		char *err, size_t errlen)
{
	size_t off = HDR_LEN;
	uint32_t h, i;

	memset(dc, 0, sizeof(*dc));
	if (len < HDR_LEN || rd32(s) != POLBIN_EBPF_VERSION ||
	    (rd32(s + 4) & ~POLBIN_EBPF_F_ALL) ||
	    rd32(s + 4) == POLBIN_EBPF_F_ALL ||
	    rd32(s + 8) != POLBIN_EBPF_NPROG ||
	    rd32(s + 12) > POLBIN_EBPF_MAX_RULES) {
		snprintf(err, errlen, "ebpf: bad header");
		return -1;
	}
	dc->flags = rd32(s + 4);
	dc->nrules = rd32(s + 12);
	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		uint32_t n;

		if (len - off < 8 || rd32(s + off) != h ||
		    (n = rd32(s + off + 4)) == 0 || n > POLBIN_EBPF_MAX_INSNS ||
		    (len - off - 8) / 8 < n) {
			snprintf(err, errlen, "ebpf: program %u malformed", h);
			return -1;
		}
		dc->prog[h] = s + off + 8;
		dc->ninsn[h] = n;
		off += 8 + (size_t)n * 8;
	}
	if ((len - off) != (size_t)dc->nrules * RULE_LEN) {
		snprintf(err, errlen, "ebpf: %zu bytes of rules for %u",
			 len - off, dc->nrules);
		return -1;
	}
	dc->rules = s + off;
	for (i = 0; i < dc->nrules; i++) {
		const uint8_t *k = dc->rules + (size_t)i * RULE_LEN;
		const uint8_t *v = k + POLBIN_EBPF_KEY_LEN;
		uint32_t plen = rd32(k), n = rd32(v), j;
		int v6 =
		    k[4] == POLBIN_EBPF_K_ALLOW6 || k[4] == POLBIN_EBPF_K_DENY6;
		unsigned bits = v6 ? 128 : 32;
		u128 a;

		if (k[4] < POLBIN_EBPF_K_ALLOW4 || k[4] > POLBIN_EBPF_K_LOOP ||
		    (k[5] != IR_PROTO_TCP && k[5] != IR_PROTO_UDP) || k[6] ||
		    k[7] || plen < 32 || plen - 32 > bits ||
		    (!v6 && (rd32(k + 12) || rd32(k + 16) || rd32(k + 20))) ||
		    (k[4] == POLBIN_EBPF_K_LOOP &&
		     (plen != 32 || k[5] != IR_PROTO_TCP)) ||
		    (i && key_cmp(k - RULE_LEN, k) >= 0)) {
			snprintf(err, errlen, "ebpf: rule %u: bad key", i);
			return -1;
		}
		a = addr_get(k + 8, v6 ? 6 : 4);
		if (plen - 32 < bits &&
		    (a & (((u128)1 << (bits - (plen - 32))) - 1))) {
			snprintf(err, errlen, "ebpf: rule %u: host bits set",
				 i);
			return -1;
		}
		if (n == 0 || n > POLBIN_EBPF_MAX_RANGES) {
			snprintf(err, errlen, "ebpf: rule %u: %u port ranges",
				 i, n);
			return -1;
		}
		for (j = 0; j < POLBIN_EBPF_MAX_RANGES; j++) {
			uint16_t lo = rd16(v + 4 + 4 * j),
				 hi = rd16(v + 6 + 4 * j);

			if (j >= n
				? lo || hi
				: lo > hi ||
				      (j &&
				       (uint32_t)lo <=
					   (uint32_t)rd16(v + 2 + 4 * j) + 1)) {
				snprintf(err, errlen,
					 "ebpf: rule %u: port ranges not "
					 "sorted, disjoint and apart",
					 i);
				return -1;
			}
		}
	}
	return 0;
}

static const char *const hook_names[POLBIN_EBPF_NPROG] = {
    "sock_create", "connect4", "connect6", "sendmsg4", "sendmsg6",
    "bind4",	   "bind6",    "egress",   "ingress"};

int ebpf_print(const uint8_t *s, size_t len, FILE *out, char *err,
	       size_t errlen)
{
	static const char *const kinds[] = {"",	     "allow4", "allow6",
					    "deny4", "deny6",  "loopback"};
	struct ebpf_decoded dc;
	uint32_t h, i, j;

	if (ebpf_decode(s, len, &dc, err, errlen))
		return -1;
	fprintf(out, "  backend: %s\n",
		dc.flags & POLBIN_EBPF_F_FORCED ? "cgroup (forced)"
		: dc.flags & POLBIN_EBPF_F_FALLBACK
		    ? "cgroup, else namespace (the list)"
		    : "auto (cgroup where the caller may attach it)");
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		fprintf(out, "  program %-12s %u instructions\n", hook_names[h],
			dc.ninsn[h]);
	fprintf(out, "  rules (%u):\n", dc.nrules);
	for (i = 0; i < dc.nrules; i++) {
		const uint8_t *k = dc.rules + (size_t)i * RULE_LEN;
		const uint8_t *v = k + POLBIN_EBPF_KEY_LEN;
		int v6 =
		    k[4] == POLBIN_EBPF_K_ALLOW6 || k[4] == POLBIN_EBPF_K_DENY6;
		char a[INET6_ADDRSTRLEN];

		inet_ntop(v6 ? AF_INET6 : AF_INET, k + 8, a, sizeof(a));
		if (k[4] == POLBIN_EBPF_K_LOOP)
			fprintf(out, "    loopback tcp ports");
		else
			fprintf(out, "    %s %s %s/%u ports", kinds[k[4]],
				k[5] == IR_PROTO_TCP ? "tcp" : "udp", a,
				rd32(k) - 32);
		for (j = 0; j < rd32(v); j++) {
			uint16_t lo = rd16(v + 4 + 4 * j),
				 hi = rd16(v + 6 + 4 * j);

			if (lo == hi)
				fprintf(out, " %u", lo);
			else
				fprintf(out, " %u-%u", lo, hi);
		}
		fputc('\n', out);
	}
	return 0;
}
