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
	 * rule grants is denied everywhere; connect_unix only when a grant
	 * lacks it (the view hides every other socket). The backend's one
	 * definition.
	 */
	return landlock_handled_fs(p);
}

/* Rights that change the tree: without one, a mount is read-only. */
#define EVAL_WRITE                                                             \
	(IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |             \
	 IR_FS_MAKE_CHAR | IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | \
	 IR_FS_MAKE_FIFO | IR_FS_MAKE_BLOCK | IR_FS_MAKE_SYM | IR_FS_REFER |   \
	 IR_FS_TRUNCATE)

/*
 * What a mount made from grants with these rights lets through: read-only
 * takes every right that changes the tree, noexec execute, nodev the use
 * of devices (ioctl_dev).
 */
static uint32_t mount_lets(uint32_t grants)
{
	uint32_t m = IR_FS_ALL;

	if (!(grants & EVAL_WRITE))
		m &= ~(uint32_t)EVAL_WRITE;
	if (!(grants & IR_FS_EXECUTE))
		m &= ~(uint32_t)IR_FS_EXECUTE;
	if (!(grants & (IR_FS_IOCTL_DEV | IR_FS_MAKE_CHAR | IR_FS_MAKE_BLOCK)))
		m &= ~(uint32_t)IR_FS_IOCTL_DEV;
	return m;
}

const char *prove_fs_target(const char *fresh, char *buf, size_t len)
{
	snprintf(buf, len, "/%s/target", fresh);
	return buf;
}

/* A path in policy spelling made literal in the world; NULL on OOM. */
static char *bind_in(const char *path, const struct prove_fs_world *w)
{
	const char *rest = path, *end, *name = "HOME", *fresh = w->fresh;
	int nlen = 4, n;
	char *out = NULL;

	if (path[0] == '~') {
		/* polexec binds ~ as ${HOME}, the caller's HOME */
		rest = path + 1;
	} else if (path[0] == '$' && (end = strchr(path, '}'))) {
		rest = end + 1;
		name = path + 2;
		nlen = (int)(end - path - 2);
	}
	if (path[0] != '~' && path[0] != '$') {
		out = strdup(path);
		n = out ? 0 : -1;
	} else if (!w->var || (int)strlen(w->var) != nlen ||
		   strncmp(w->var, name, (size_t)nlen)) {
		n = asprintf(&out, "/%s/var/%.*s%s", fresh, nlen, name, rest);
	} else if (w->at) { /* bound to `under` itself */
		n = asprintf(&out, "%s%s",
			     strcmp(w->under, "/") ? w->under : "",
			     *rest || strcmp(w->under, "/") ? rest : "/");
	} else {
		n = asprintf(&out, "%s/%s-%.*s%s",
			     strcmp(w->under, "/") ? w->under : "", fresh, nlen,
			     name, rest);
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

/*
 * The rule of p on the literal path `path` in world w, or one holding it:
 * each one that lies on the way calls fn. Symbolic links follow the
 * world: a rule through the symlink is not installed without `follow`,
 * and lands on the target with it. Returns -1 when out of memory.
 */
static int each_rule(
    const struct ir_policy *p, const struct prove_fs_world *w, const char *path,
    void (*fn)(const struct ir_fs_rule *r, size_t len, void *arg), void *arg)
{
	char target[128];
	char *s = NULL;
	int rc = 0;

	if (w->target)
		snprintf(target, sizeof(target), "%s", w->target);
	else
		prove_fs_target(w->fresh, target, sizeof(target));
	if (w->symlink) {
		s = bind_in(w->symlink, w);
		if (!s)
			return -1;
		if (!strcmp(s, "/")) { /* "/" is never a symlink */
			free(s);
			s = NULL;
		}
	}
	for (uint32_t i = 0; i < p->fs.nrules && !rc; i++) {
		const struct ir_fs_rule *r = &p->fs.rules[i];
		char *l = bind_in(r->path, w), *res = NULL;

		if (!l) {
			rc = -1;
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
				rc = -1;
				break;
			}
			free(l);
			l = res;
		}
		if (holds(l, path))
			fn(r, strcmp(l, "/") ? strlen(l) : 0, arg);
		free(l);
	}
	free(s);
	return rc;
}

struct at {
	int noview;
	uint32_t all, grants;
	long deepest; /* length of the deepest rule holding it */
	const struct ir_fs_rule *own; /* the deepest, when it is not a grant */
	long mount; /* the deepest mount of the box's own holding it, or -1 */
};

static void at_rule(const struct ir_fs_rule *r, size_t len, void *arg)
{
	struct at *a = arg;

	if (a->noview && r->kind != IR_FS_GRANT)
		return; /* without the view there is no mount of its own */
	a->all |= r->rights;
	if (r->kind != IR_FS_GRANT && (long)len > a->mount)
		a->mount = (long)len;
	if ((long)len > a->deepest) {
		a->deepest = (long)len;
		a->own = r->kind == IR_FS_GRANT ? NULL : r;
	}
}

/*
 * The second pass: the grants whose binds make the mount at the path,
 * those beneath the deepest mount of the box's own holding it (a bind
 * that lands in such a mount keeps its own restrictions).
 */
static void at_grant(const struct ir_fs_rule *r, size_t len, void *arg)
{
	struct at *a = arg;

	if (r->kind == IR_FS_GRANT && (long)len > a->mount)
		a->grants |= r->rights;
}

uint32_t prove_fs_rights(const struct ir_policy *p,
			 const struct prove_fs_world *w, const char *path)
{
	struct at a = {w->noview, IR_FS_ALL & ~prove_fs_handled(p), 0, -1, NULL,
		       -1};
	char *q;
	int rc;

	if (!p->fs.present)
		return IR_FS_ALL;
	q = bind_in(path, w);
	if (!q)
		return IR_FS_ALL + 1;
	rc = each_rule(p, w, q, at_rule, &a);
	if (!rc)
		rc = each_rule(p, w, q, at_grant, &a);
	free(q);
	if (rc)
		return IR_FS_ALL + 1;
	/*
	 * Landlock alone: the rights the ruleset leaves free, and those of
	 * every rule on the way. With the view, a path the view does not
	 * show, or under a mount of the box's own, is none of the host's
	 * (nothing of it is there); else the same, less what the mount of
	 * the grants holding it takes away: those beneath the deepest mount
	 * of the box's own holding it (a bind that lands in one keeps its
	 * own restrictions, docs/VIEW.md).
	 */
	if (a.noview)
		return a.all;
	if (a.deepest < 0 || a.own)
		return 0;
	return a.all & mount_lets(a.grants);
}

uint8_t prove_fs_own(const struct ir_policy *p, const struct prove_fs_world *w,
		     const char *path, uint32_t *rights, uint64_t *size)
{
	struct at a = {0, 0, 0, -1, NULL, -1};

	*rights = 0;
	*size = 0;
	if (!p->fs.present || w->noview || each_rule(p, w, path, at_rule, &a) ||
	    !a.own || strcmp(a.own->path, path))
		return IR_FS_GRANT;
	*rights = a.own->rights;
	*size = a.own->size;
	return a.own->kind;
}

const char *prove_user(const struct ir_policy *p, char *buf, size_t len)
{
	if (!p->user.present)
		return "the caller's own";
	snprintf(buf, len, "%u:%u", p->user.uid, p->user.gid);
	return buf;
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
	case PROVE_NET_SHARED:
		/* polexec may run it under the cgroup backend: forced, or
		 * asked by the caller where the artifact has the programs
		 * (net filtered, loopback ports), unless `backend
		 * namespace` */
		if (host)
			return 1;
		if (n->backend == IR_NET_BACKEND_NAMESPACE)
			return 0;
		return n->backend == IR_NET_BACKEND_CGROUP ||
		       n->backend == IR_NET_BACKEND_CGROUP_NAMESPACE ||
		       n->mode == IR_NET_FILTERED || n->nloopback > 0;
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
