/* SPDX-License-Identifier: MIT */
/*
 * The concrete evaluators every witness is re-checked with before it is
 * printed. They answer one question about one point, straight from the IR
 * and the enforcement semantics, and share no code with the procedures
 * that decide the dimensions (prove_sys.c, prove_fs.c, prove_net.c): a
 * mistake there shows up here as a witness that does not re-check.
 */
#include "backend/backend.h"
#include "prove.h"
#include "sections.h"
#include "tables/tables.h"

#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X32_BIT 0x40000000u

struct ir_action prove_sys_action(const struct ir_policy *p,
				  const struct prove_sys_point *pt)
{
	const struct ir_syscall *sc;
	struct ir_action allow = {IR_ACT_ALLOW, 0};

	/* No syscalls block: no seccomp filter is installed at all. */
	if (!p->sys.present)
		return allow;
	if (pt->arch != AUDIT_ARCH_X86_64 || pt->nr >= X32_BIT)
		return p->sys.badarch;
	/* Number to syscall here; the decider goes name to number. */
	sc = pt->nr < SYSCALL_NR_LIMIT ? ir_syscall_for_nr(&p->sys, (int)pt->nr)
				       : NULL;
	return ir_eval_syscall(&p->sys, sc, pt->args);
}

/* ---- Filesystem ------------------------------------------------------ */

uint32_t prove_fs_handled(const struct ir_policy *p)
{
	/*
	 * Without an fs block there is no Landlock ruleset, so nothing is
	 * handled. With one, every filesystem right is handled: a right no
	 * rule grants is denied everywhere. The backend's one definition.
	 */
	return landlock_handled_fs(p);
}

const char *prove_fs_target(const char *fresh, char *buf, size_t len)
{
	snprintf(buf, len, "/%s/target", fresh);
	return buf;
}

/* A path in policy spelling made literal in the world; NULL on OOM. */
static char *bind(const char *path, const char *fresh)
{
	const char *rest = path, *end;
	char *out = NULL;
	int n;

	if (path[0] == '~') {
		/* polexec binds ~ as ${HOME}, the caller's HOME */
		n = asprintf(&out, "/%s/var/HOME%s", fresh, path + 1);
	} else if (path[0] == '$' && (end = strchr(path, '}'))) {
		rest = end + 1;
		n = asprintf(&out, "/%s/var/%.*s%s", fresh,
			     (int)(end - path - 2), path + 2, rest);
	} else {
		out = strdup(path);
		n = out ? 0 : -1;
	}
	return n < 0 ? NULL : out;
}

/* Is literal path a the folder b or one holding it? */
static int holds(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (!strcmp(a, "/"))
		return 1;
	return !strncmp(a, b, la) && (b[la] == '\0' || b[la] == '/');
}

uint32_t prove_fs_rights(const struct ir_policy *p,
			 const struct prove_fs_world *w, const char *path)
{
	char target[128];
	char *q = NULL, *s = NULL;
	uint32_t acc = IR_FS_ALL & ~prove_fs_handled(p);
	uint32_t fail = IR_FS_ALL + 1;

	if (!p->fs.present)
		return IR_FS_ALL;
	prove_fs_target(w->fresh, target, sizeof(target));
	q = bind(path, w->fresh);
	if (!q)
		return fail;
	if (w->symlink) {
		s = bind(w->symlink, w->fresh);
		if (!s) {
			free(q);
			return fail;
		}
		if (!strcmp(s, "/")) { /* "/" is never a symlink */
			free(s);
			s = NULL;
		}
	}
	for (uint32_t i = 0; i < p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &p->fs.rules[i];
		char *l = bind(r->path, w->fresh), *res = NULL;

		if (!l) {
			acc = fail;
			break;
		}
		if (s && holds(s, l)) {
			/*
			 * The rule's path runs through the symlink: opened
			 * without following symlinks, the rule is not
			 * installed (polexec refuses or skips it); with
			 * `follow` it lands on the target.
			 */
			if (!(r->flags & IR_FS_FOLLOW)) {
				free(l);
				continue;
			}
			if (asprintf(&res, "%s%s", target, l + strlen(s)) < 0) {
				free(l);
				acc = fail;
				break;
			}
			free(l);
			l = res;
		}
		if (holds(l, q))
			acc |= r->rights;
		free(l);
	}
	free(q);
	free(s);
	return acc;
}

/* ---- Network --------------------------------------------------------- */

static int in_ranges(const struct ir_port_range *r, uint32_t n, uint16_t port)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].lo <= port && port <= r[i].hi)
			return 1;
	return 0;
}

/*
 * Landlock's TCP port rules under `net host` (backend/landlock.c): with
 * no port rule at all nothing is handled; with any, both directions are,
 * and a direction without rules allows no port.
 */
static int host_port_ok(const struct ir_net *n, int bind_dir, uint16_t port)
{
	if (!n->present || (n->nconnect == 0 && n->nbind == 0))
		return 1;
	return bind_dir ? in_ranges(n->bind, n->nbind, port)
			: in_ranges(n->connect, n->nconnect, port);
}

static int cidr_has(const struct ir_net_entry *e, uint8_t family,
		    const uint8_t *a)
{
	unsigned full, rem;

	if (e->kind != family)
		return 0;
	full = e->prefix / 8u;
	rem = e->prefix % 8u;
	if (memcmp(e->addr, a, full))
		return 0;
	if (rem) {
		uint8_t m = (uint8_t)(0xffu << (8 - rem));

		return (e->addr[full] & m) == (a[full] & m);
	}
	return 1;
}

/* Does entry e cover destination d (address, or the name bound there)? */
static int entry_has(const struct ir_net_entry *e,
		     const struct prove_net_point *d)
{
	if (e->proto != d->proto || d->port < e->port_lo ||
	    d->port > e->port_hi)
		return 0;
	if (e->kind == IR_ADDR_NAME || e->kind == IR_ADDR_VAR)
		return d->name && e->name && !strcmp(e->name, d->name);
	return cidr_has(e, d->family, d->addr);
}

int prove_net_allows(const struct ir_policy *p, const struct prove_net_point *d)
{
	const struct ir_net *n = &p->net;
	int host = !n->present || n->mode == IR_NET_HOST, allowed = 0;

	switch (d->kind) {
	case PROVE_NET_HOSTNET:
		return host;
	case PROVE_NET_BIND:
		/* In a private namespace a bound port faces only the box. */
		return host && host_port_ok(n, 1, d->port);
	case PROVE_NET_LOOPBACK:
		if (host)
			return host_port_ok(n, 0, d->port);
		return in_ranges(n->loopback, n->nloopback, d->port);
	case PROVE_NET_ADDR:
		break;
	default:
		return 0;
	}
	if (host)
		return d->proto == IR_PROTO_UDP || host_port_ok(n, 0, d->port);
	if (n->mode != IR_NET_FILTERED)
		return 0;
	for (uint32_t i = 0; i < n->nentries; i++) {
		const struct ir_net_entry *e = &n->entries[i];

		if (!entry_has(e, d))
			continue;
		if (e->verdict == IR_NET_DENY)
			return 0; /* a deny always wins */
		allowed = 1;
	}
	return allowed;
}

/* ---- Landlock requirement -------------------------------------------- */

int prove_ll_runs(const struct ir_policy *p, uint32_t abi)
{
	uint32_t abi_min, mode;

	if (!landlock_layer_on(p))
		return 1;
	landlock_requirement(p, &abi_min, &mode);
	/* require: refused without Landlock or below the minimum. */
	return mode != POLBIN_LL_REQUIRE || (abi >= 1 && abi >= abi_min);
}

int prove_ll_scoped(const struct ir_policy *p, uint32_t abi)
{
	/* The scopes came with ABI 6; polexec sets them with the layer. */
	return landlock_layer_on(p) && prove_ll_runs(p, abi) && abi >= 6;
}
