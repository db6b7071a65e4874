/* SPDX-License-Identifier: MIT */
/*
 * The LANDLOCK section from the IR. Decisions made here, once, for every
 * kernel (docs/LANDLOCK.md):
 *
 *   - handled fs rights: with an fs section, every fs right this polc
 *     knows (ABI 1..5, 8), so whatever the policy does not grant is
 *     denied; polexec strips only what the running kernel lacks, and says
 *     so. One exception: connect_unix is handled only when a grant lacks
 *     it; when every grant has it, handling it would deny nothing the
 *     box's view does not already hide (docs/VIEW.md).
 *   - path rules: the grants only. The box's own mounts (tmpfs, dev,
 *     proc) are not there when the parent opens the paths; polexec adds
 *     their rules in the box once it made them (the VIEW section).
 *   - handled net rights: with `net host` port rules, both TCP bind and
 *     connect; a direction without rules denies every port, `*` lifts it.
 *   - scopes: abstract unix sockets and signals, whenever the layer is on.
 *
 * Paths stay unbound (`~`, `${VAR}`): polexec binds and opens them.
 */
#include "backend.h"
#include "support/support.h"
#include "abi/landlock_compat.h"
#include "polbin.h"
#include "sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The IR numbers fs rights bit for bit as the kernel does (ir.h). */
_Static_assert(IR_FS_EXECUTE == LANDLOCK_ACCESS_FS_EXECUTE, "fs bits");
_Static_assert(IR_FS_REFER == LANDLOCK_ACCESS_FS_REFER, "fs bits");
_Static_assert(IR_FS_TRUNCATE == LANDLOCK_ACCESS_FS_TRUNCATE, "fs bits");
_Static_assert(IR_FS_IOCTL_DEV == LANDLOCK_ACCESS_FS_IOCTL_DEV, "fs bits");
_Static_assert(IR_FS_ALL == POLC_LANDLOCK_FS_ALL, "fs bits");
_Static_assert(POLBIN_LL_FS_ALL == POLC_LANDLOCK_FS_ALL, "fs bits");
_Static_assert(POLBIN_LL_NET_BIND == LANDLOCK_ACCESS_NET_BIND_TCP, "net");
_Static_assert(POLBIN_LL_NET_CONNECT == LANDLOCK_ACCESS_NET_CONNECT_TCP, "net");
_Static_assert(POLBIN_LL_SCOPE_ALL == POLC_LANDLOCK_SCOPE_ALL, "scopes");
_Static_assert(POLBIN_LL_MAX_FS == IR_MAX_FS, "fs rule limit");
_Static_assert(POLBIN_LL_MAX_PATH == IR_MAX_STR - 1, "path limit");
_Static_assert((unsigned)IR_FS_FOLLOW == (unsigned)POLBIN_LL_F_FOLLOW, "flags");
_Static_assert((unsigned)IR_FS_OPTIONAL == (unsigned)POLBIN_LL_F_OPTIONAL,
	       "flags");

static int has_ports(const struct ir_policy *p)
{
	return p->net.present && p->net.mode == IR_NET_HOST &&
	       (p->net.nconnect || p->net.nbind);
}

int landlock_layer_on(const struct ir_policy *p)
{
	return p->landlock.present;
}

uint32_t landlock_handled_fs(const struct ir_policy *p)
{
	uint32_t i;

	if (!p->fs.present)
		return 0;
	for (i = 0; i < p->fs.nrules; i++)
		if (p->fs.rules[i].kind == IR_FS_GRANT &&
		    !(p->fs.rules[i].rights & IR_FS_CONNECT_UNIX))
			return (uint32_t)POLC_LANDLOCK_FS_ALL;
	return (uint32_t)POLC_LANDLOCK_FS_ALL & ~(uint32_t)IR_FS_CONNECT_UNIX;
}

uint32_t landlock_path_rules(const struct ir_policy *p)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->fs.nrules; i++)
		n += p->fs.rules[i].kind == IR_FS_GRANT;
	return n;
}

void landlock_requirement(const struct ir_policy *p, uint32_t *abi_min,
			  uint32_t *mode)
{
	*abi_min = p->landlock.abi_min;
	*mode = p->landlock.mode == IR_LL_REQUIRE ? POLBIN_LL_REQUIRE
						  : POLBIN_LL_BEST_EFFORT;
}

/*
 * One direction's ranges, merged where they overlap or touch. Returns the
 * number kept in out (0 with *any set when they cover every port), or -1
 * when they expand past POLBIN_LL_MAX_PORTS.
 */
static long merge(const struct ir_port_range *in, uint32_t n,
		  struct ir_port_range *out, int *any, unsigned long *ports)
{
	uint32_t i, k = 0;

	*any = 0;
	*ports = 0;
	/* in is sorted by (lo, hi) (ir_canonicalize) */
	for (i = 0; i < n; i++) {
		if (k && in[i].lo <= (uint32_t)out[k - 1].hi + 1) {
			if (in[i].hi > out[k - 1].hi)
				out[k - 1].hi = in[i].hi;
			continue;
		}
		out[k++] = in[i];
	}
	for (i = 0; i < k; i++)
		*ports += (unsigned long)out[i].hi - out[i].lo + 1;
	if (k == 1 && out[0].lo == 0 && out[0].hi == 65535) {
		*any = 1;
		return 0;
	}
	return *ports > POLBIN_LL_MAX_PORTS ? -1 : (long)k;
}

int landlock_section_build(const struct ir_policy *p, uint8_t **out,
			   size_t *len, char *err, size_t errlen)
{
	static const char *const dir[] = {"bind", "connect"};
	const struct ir_port_range *in[2] = {p->net.bind, p->net.connect};
	const uint32_t nin[2] = {p->net.nbind, p->net.nconnect};
	struct ir_port_range *ranges[2] = {NULL, NULL};
	long nr[2] = {0, 0};
	uint64_t handled_fs = 0, handled_net = 0;
	uint32_t abi_min, mode, i, d;
	struct bytes b = {0};
	int rc = 2;

	*out = NULL;
	*len = 0;
	if ((p->fs.present || has_ports(p)) && !landlock_layer_on(p)) {
		snprintf(err, errlen,
			 "landlock: fs or port rules without the layer (IR not "
			 "canonical)");
		return 2;
	}
	if (!landlock_layer_on(p))
		return 0;
	landlock_requirement(p, &abi_min, &mode);
	if (abi_min < 1 || abi_min > POLBIN_LL_MAX_ABI) {
		snprintf(err, errlen, "landlock: ABI %u out of range 1..%d",
			 abi_min, POLBIN_LL_MAX_ABI);
		return 2;
	}
	handled_fs = landlock_handled_fs(p);
	for (d = 0; has_ports(p) && d < 2; d++) {
		unsigned long ports;
		int any;

		ranges[d] = calloc(nin[d] ? nin[d] : 1, sizeof(*ranges[d]));
		if (!ranges[d])
			goto oom;
		nr[d] = merge(in[d], nin[d], ranges[d], &any, &ports);
		if (nr[d] < 0) {
			snprintf(err, errlen,
				 "landlock: the %s ports expand to %lu kernel "
				 "rules; the limit is %d",
				 dir[d], ports, POLBIN_LL_MAX_PORTS);
			goto out;
		}
		if (!any)
			handled_net |=
			    d ? POLBIN_LL_NET_CONNECT : POLBIN_LL_NET_BIND;
	}
	bytes_le(&b, POLBIN_LL_VERSION, 4);
	bytes_le(&b, abi_min, 4);
	bytes_le(&b, mode, 4);
	bytes_le(&b, 0, 4);
	bytes_le(&b, handled_fs, 8);
	bytes_le(&b, handled_net, 8);
	bytes_le(&b, POLC_LANDLOCK_SCOPE_ALL, 8);
	bytes_le(&b, landlock_path_rules(p), 4);
	bytes_le(&b, (uint64_t)nr[0] + (uint64_t)nr[1], 4);
	for (i = 0; i < p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &p->fs.rules[i];
		size_t n = strlen(r->path);

		if (r->kind != IR_FS_GRANT)
			continue;
		if (!r->rights || n > POLBIN_LL_MAX_PATH) {
			snprintf(err, errlen,
				 "landlock: %.64s: no right, or path too long",
				 r->path);
			goto out;
		}
		bytes_le(&b, r->rights & handled_fs, 8);
		bytes_le(&b, r->flags & (IR_FS_FOLLOW | IR_FS_OPTIONAL), 4);
		bytes_le(&b, n, 4);
		bytes_put(&b, r->path, n);
	}
	/* Sorted by (access, lo): bind (1) before connect (2). */
	for (d = 0; d < 2; d++) {
		for (i = 0; i < (uint32_t)nr[d]; i++) {
			bytes_le(&b,
				 d ? POLBIN_LL_NET_CONNECT : POLBIN_LL_NET_BIND,
				 4);
			bytes_le(&b, ranges[d][i].lo, 2);
			bytes_le(&b, ranges[d][i].hi, 2);
		}
	}
	if (b.oom)
		goto oom;
	*out = b.p;
	*len = b.len;
	b.p = NULL;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(b.p);
	free(ranges[0]);
	free(ranges[1]);
	return rc;
}
