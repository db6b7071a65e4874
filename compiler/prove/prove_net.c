/* SPDX-License-Identifier: MIT */
/*
 * The network dimension.
 *
 * The model. `net host` (and a policy without a net block) shares the
 * host's network: inbound connections, every protocol, the host's own
 * services; no `none` or `filtered` policy grants that, so NEW sharing it
 * where OLD does not is one finding. Between two such policies only
 * Landlock's TCP port lists differ (an empty list restricts nothing).
 * Otherwise the box reaches:
 *   - (address, port, protocol) when an allow covers it and no deny does;
 *   - the host's loopback on the listed TCP ports;
 * and an OLD sharing the host's network reaches every address on its
 * connect ports (all ports over UDP), its loopback included.
 *
 * Names and variables are bound at start, the same way for both
 * policies, to any addresses. A destination address a is reached through
 * the names bound to it: NEW exceeds OLD iff for some (a, port, proto)
 * and some set S of names bound to a, NEW allows and OLD does not. Only
 * S = {} and S = {X} matter (a second name can only add NEW denies or OLD
 * allows), so with, per port, A/D the address allows/denies covering a
 * and an/ao/dn/do the allows/denies naming X:
 *   S = {}:  A_new & ~D_new & ~(A_old & ~D_old)
 *   S = {X}: ~dn & (A_new | an) & ~D_new & ~((A_old | ao) & ~D_old & ~do)
 * The address space of each family and protocol is cut into cells at the
 * ends of every CIDR of both policies (within a cell every CIDR covers all
 * or nothing), and each cell's port sets are computed exactly as bitmaps
 * over the 65536 ports. IPv4 and IPv6 are separate address spaces.
 */
#include "prove_int.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define PM_WORDS 1024 /* 65536 ports */

struct pmap {
	uint64_t w[PM_WORDS];
};

/* One entry, with its address range when it is a CIDR. */
struct nent {
	uint8_t nw; /* 1: NEW's, 0: OLD's */
	uint8_t allow, kind, proto;
	u128 lo, hi;
	const char *name;
	uint16_t plo, phi;
	int reported;
};

/* A name (or ${VAR}) that can make a difference on one protocol. */
struct nname {
	uint8_t kind;
	const char *name;
	struct pmap an, ao, dn, dq; /* dq: OLD's denies naming it */
	int reported;
};

struct netq {
	struct prover *pv;
	struct nent *e;
	size_t n, cap;
	u128 *cut;
	struct pmap An, Dn, Ao, Do, X0, Y, T;
};

static int is_host(const struct ir_policy *p)
{
	return !p->net.present || p->net.mode == IR_NET_HOST;
}

/*
 * Landlock's TCP port rules under `net host` (backend/landlock.c): none
 * at all restricts nothing; with any, a direction without rules allows no
 * port.
 */
static int no_port_rules(const struct ir_net *n)
{
	return !n->present || (n->nconnect == 0 && n->nbind == 0);
}

/* ---- Port bitmaps ---------------------------------------------------- */

static void pm_fill(struct pmap *m, unsigned lo, unsigned hi)
{
	for (unsigned p = lo; p <= hi;) {
		if (p % 64 == 0 && p + 63 <= hi) {
			m->w[p / 64] = ~0ull;
			p += 64;
		} else {
			m->w[p / 64] |= 1ull << (p % 64);
			p++;
		}
	}
}

/* First port in [lo, hi] set in m, or -1. */
static int pm_first(const struct pmap *m, unsigned lo, unsigned hi)
{
	for (unsigned p = lo; p <= hi;) {
		uint64_t w = m->w[p / 64] >> (p % 64);

		if (w) {
			unsigned q = p + (unsigned)__builtin_ctzll(w);

			return q <= hi ? (int)q : -1;
		}
		p = (p / 64 + 1) * 64;
	}
	return -1;
}

static void pm_ranges(struct pmap *m, const struct ir_port_range *r, uint32_t n,
		      int empty_is_all)
{
	memset(m, 0, sizeof(*m));
	if (n == 0 && empty_is_all)
		pm_fill(m, 0, 65535);
	for (uint32_t i = 0; i < n; i++)
		pm_fill(m, r[i].lo, r[i].hi);
}

/* ---- Entries --------------------------------------------------------- */

static u128 addr_val(uint8_t kind, const uint8_t *a)
{
	unsigned n = kind == IR_ADDR_V4 ? 4 : 16;
	u128 v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | a[i];
	return v;
}

static void val_addr(uint8_t kind, u128 v, uint8_t *a)
{
	unsigned n = kind == IR_ADDR_V4 ? 4 : 16;

	memset(a, 0, 16);
	for (unsigned i = n; i-- > 0;) {
		a[i] = (uint8_t)v;
		v >>= 8;
	}
}

static u128 amax(uint8_t kind)
{
	return kind == IR_ADDR_V4 ? (u128)0xffffffffu : ~(u128)0;
}

static int push(struct netq *q, const struct nent *e)
{
	if (q->n == q->cap) {
		size_t ncap = q->cap ? 2 * q->cap : 64;
		struct nent *ne = realloc(q->e, ncap * sizeof(*ne));

		if (!ne)
			return PROVE_ENOMEM;
		q->e = ne;
		q->cap = ncap;
	}
	q->e[q->n++] = *e;
	return PROVE_OK;
}

static int push_ir(struct netq *q, const struct ir_net_entry *ie, int nw)
{
	struct nent e = {.nw = (uint8_t)nw,
			 .allow = ie->verdict == IR_NET_ALLOW,
			 .kind = ie->kind,
			 .proto = ie->proto,
			 .name = ie->name,
			 .plo = ie->port_lo,
			 .phi = ie->port_hi};

	if (ie->kind == IR_ADDR_V4 || ie->kind == IR_ADDR_V6) {
		unsigned bits = ie->kind == IR_ADDR_V4 ? 32 : 128;
		unsigned hb = bits - (ie->prefix > bits ? bits : ie->prefix);
		u128 host = hb == 128 ? ~(u128)0 : ((u128)1 << hb) - 1;

		e.lo = addr_val(ie->kind, ie->addr) & ~host;
		e.hi = e.lo | host;
	}
	return push(q, &e);
}

/*
 * What a policy sharing the host's network reaches, as allows: every
 * address on its connect ports over TCP, every port over UDP.
 */
static int push_host(struct netq *q, const struct ir_net *n)
{
	static const uint8_t fams[2] = {IR_ADDR_V4, IR_ADDR_V6};
	struct ir_port_range all = {0, 65535};
	const struct ir_port_range *c = no_port_rules(n) ? &all : n->connect;
	uint32_t nc = no_port_rules(n) ? 1 : n->nconnect;
	int rc = PROVE_OK;

	for (int f = 0; f < 2 && !rc; f++) {
		struct nent e = {.allow = 1,
				 .kind = fams[f],
				 .proto = IR_PROTO_UDP,
				 .lo = 0,
				 .hi = amax(fams[f]),
				 .plo = 0,
				 .phi = 65535};

		rc = push(q, &e);
		e.proto = IR_PROTO_TCP;
		for (uint32_t i = 0; i < nc && !rc; i++) {
			e.plo = c[i].lo;
			e.phi = c[i].hi;
			rc = push(q, &e);
		}
	}
	return rc;
}

/* ---- Reporting ------------------------------------------------------- */

static int report(struct netq *q, struct prove_net_point *d, const char *what,
		  const char *new_s, const char *old_s)
{
	struct prover *pv = q->pv;
	struct prove_finding f = {0};
	char *name = NULL;

	if (prove_net_allows(pv->nw, d) != 1 ||
	    prove_net_allows(pv->old, d) != 0)
		return prove_fail(pv, PROVE_EINTERNAL,
				  "internal error: net witness %s does not "
				  "re-check",
				  what ? what : "?");
	if (d->name && !(name = strdup(d->name)))
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	f.dim = PROVE_DIM_NET;
	f.witness = what ? strdup(what) : NULL;
	f.new_s = strdup(new_s);
	f.old_s = strdup(old_s);
	f.kind = PROVE_PT_NET;
	f.net = *d;
	f.net.name = name;
	return prove_add(pv, 0, &f);
}

static const char *proto_str(uint8_t proto)
{
	return proto == IR_PROTO_UDP ? "udp" : "tcp";
}

static int report_addr(struct netq *q, uint8_t kind, u128 a, unsigned port,
		       uint8_t proto, const char *name)
{
	struct prove_net_point d = {.kind = PROVE_NET_ADDR,
				    .family = kind,
				    .proto = proto,
				    .port = (uint16_t)port,
				    .name = (char *)(uintptr_t)name};
	char txt[INET6_ADDRSTRLEN];
	struct sbuf s = {0};
	char *what;
	int rc;

	val_addr(kind, a, d.addr);
	inet_ntop(kind == IR_ADDR_V4 ? AF_INET : AF_INET6, d.addr, txt,
		  sizeof(txt));
	if (name)
		sb_printf(&s, "%s:%u/%s (%s %s %s)", name, port,
			  proto_str(proto), name,
			  name[0] == '$' ? "bound to" : "resolving to", txt);
	else if (kind == IR_ADDR_V6)
		sb_printf(&s, "[%s]:%u/%s", txt, port, proto_str(proto));
	else
		sb_printf(&s, "%s:%u/%s", txt, port, proto_str(proto));
	what = sb_take(&s);
	rc = report(q, &d, what, "allows", "does not");
	free(what);
	return rc;
}

/* ---- Cells ----------------------------------------------------------- */

static int u128_qcmp(const void *a, const void *b)
{
	u128 x = *(const u128 *)a, y = *(const u128 *)b;

	return x < y ? -1 : x > y;
}

/* The names (of one protocol) that can make a difference, with ports. */
static int names_of(struct netq *q, uint8_t proto, struct nname **out,
		    size_t *nout)
{
	struct nname *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < q->n; i++) {
		const struct nent *e = &q->e[i];
		size_t j;

		if ((e->kind != IR_ADDR_NAME && e->kind != IR_ADDR_VAR) ||
		    e->proto != proto)
			continue;
		for (j = 0; j < n; j++)
			if (v[j].kind == e->kind && !strcmp(v[j].name, e->name))
				break;
		if (j == n) {
			struct nname *nv = realloc(v, (n + 1) * sizeof(*v));

			if (!nv) {
				free(v);
				return PROVE_ENOMEM;
			}
			v = nv;
			memset(&v[n], 0, sizeof(v[n]));
			v[n].kind = e->kind;
			v[n].name = e->name;
			n++;
		}
		if (e->nw && e->allow)
			pm_fill(&v[j].an, e->plo, e->phi);
		else if (e->nw)
			pm_fill(&v[j].dn, e->plo, e->phi);
		else if (e->allow)
			pm_fill(&v[j].ao, e->plo, e->phi);
		else
			pm_fill(&v[j].dq, e->plo, e->phi);
	}
	*out = v;
	*nout = n;
	return PROVE_OK;
}

static void cell_maps(struct netq *q, uint8_t kind, uint8_t proto, u128 a)
{
	memset(&q->An, 0, sizeof(q->An));
	memset(&q->Dn, 0, sizeof(q->Dn));
	memset(&q->Ao, 0, sizeof(q->Ao));
	memset(&q->Do, 0, sizeof(q->Do));
	for (size_t i = 0; i < q->n; i++) {
		const struct nent *e = &q->e[i];
		struct pmap *m;

		if (e->kind != kind || e->proto != proto || a < e->lo ||
		    a > e->hi)
			continue;
		m = e->nw ? (e->allow ? &q->An : &q->Dn)
			  : (e->allow ? &q->Ao : &q->Do);
		pm_fill(m, e->plo, e->phi);
	}
}

/* One family and protocol: every cell, the address and name cases. */
static int family(struct netq *q, uint8_t kind, uint8_t proto, struct nname *nm,
		  size_t nnames)
{
	size_t ncut = 0, i, k;
	int any = nnames > 0, rc = PROVE_OK;

	for (i = 0; i < q->n; i++)
		if (q->e[i].nw && q->e[i].allow && q->e[i].kind == kind &&
		    q->e[i].proto == proto)
			any = 1;
	if (!any)
		return PROVE_OK;
	q->cut[ncut++] = 0;
	for (i = 0; i < q->n; i++) {
		if (q->e[i].kind != kind || q->e[i].proto != proto)
			continue;
		q->cut[ncut++] = q->e[i].lo;
		if (q->e[i].hi < amax(kind))
			q->cut[ncut++] = q->e[i].hi + 1;
	}
	qsort(q->cut, ncut, sizeof(*q->cut), u128_qcmp);
	for (i = 0; i < ncut && !rc; i++) {
		u128 a = q->cut[i];

		if (i && q->cut[i - 1] == a)
			continue;
		cell_maps(q, kind, proto, a);
		for (k = 0; k < PM_WORDS; k++)
			q->X0.w[k] = q->An.w[k] & ~q->Dn.w[k] &
				     ~(q->Ao.w[k] & ~q->Do.w[k]);
		for (size_t j = 0; j < q->n && !rc; j++) {
			struct nent *e = &q->e[j];
			int p;

			if (!e->nw || !e->allow || e->reported ||
			    e->kind != kind || e->proto != proto || a < e->lo ||
			    a > e->hi)
				continue;
			p = pm_first(&q->X0, e->plo, e->phi);
			if (p < 0)
				continue;
			e->reported = 1;
			rc = report_addr(q, kind, a, (unsigned)p, proto, NULL);
		}
		for (size_t j = 0; j < nnames && !rc; j++) {
			struct nname *x = &nm[j];
			int p;

			if (x->reported)
				continue;
			for (k = 0; k < PM_WORDS; k++)
				q->Y.w[k] = ~x->dn.w[k] &
					    (q->An.w[k] | x->an.w[k]) &
					    ~q->Dn.w[k] &
					    ~((q->Ao.w[k] | x->ao.w[k]) &
					      ~q->Do.w[k] & ~x->dq.w[k]) &
					    ~q->X0.w[k];
			p = pm_first(&q->Y, 0, 65535);
			if (p < 0)
				continue;
			x->reported = 1;
			rc = report_addr(q, kind, a, (unsigned)p, proto,
					 x->name);
		}
	}
	return rc;
}

static int destinations(struct netq *q)
{
	static const uint8_t protos[2] = {IR_PROTO_TCP, IR_PROTO_UDP};
	int rc = PROVE_OK;

	q->cut = calloc(2 * q->n + 1, sizeof(*q->cut));
	if (!q->cut)
		return PROVE_ENOMEM;
	for (int p = 0; p < 2 && !rc; p++) {
		struct nname *nm = NULL;
		size_t nn = 0;

		rc = names_of(q, protos[p], &nm, &nn);
		if (!rc)
			rc = family(q, IR_ADDR_V4, protos[p], nm, nn);
		if (!rc)
			rc = family(q, IR_ADDR_V6, protos[p], nm, nn);
		free(nm);
	}
	return rc;
}

/* ---- Ports and modes ------------------------------------------------- */

/* NEW's ports (n, ranges) beyond OLD's map; kind says the destination. */
static int ports(struct netq *q, const struct ir_port_range *r, uint32_t n,
		 int empty_is_all, const struct pmap *old, uint8_t kind)
{
	struct ir_port_range all = {0, 65535};
	int rc = PROVE_OK;

	if (n == 0 && empty_is_all) {
		r = &all;
		n = 1;
	}
	for (uint32_t i = 0; i < n && !rc; i++) {
		struct prove_net_point d = {
		    .kind = kind, .family = IR_ADDR_V4, .proto = IR_PROTO_TCP};
		struct sbuf s = {0};
		char *what;
		int p;

		memcpy(&q->T, old, sizeof(q->T));
		for (int k = 0; k < PM_WORDS; k++)
			q->T.w[k] = ~q->T.w[k];
		p = pm_first(&q->T, r[i].lo, r[i].hi);
		if (p < 0)
			continue;
		d.port = (uint16_t)p;
		if (kind == PROVE_NET_LOOPBACK)
			sb_printf(&s, "host loopback 127.0.0.1:%d/tcp", p);
		else if (kind == PROVE_NET_BIND)
			sb_printf(&s, "bind *:%d/tcp (host network)", p);
		else
			sb_printf(&s, "connect 0.0.0.0:%d/tcp (host network)",
				  p);
		what = sb_take(&s);
		rc = report(q, &d, what, "allows", "does not");
		free(what);
	}
	return rc;
}

/*
 * The backend. Under the cgroup backend the box stays in the host's
 * network namespace (docs/EGRESS.md, "Where the two backends differ"): the
 * host's loopback on the listed ports at every 127.0.0.0/8 address and
 * 0.0.0.0 (the namespace's relay reaches 127.0.0.1 and ::1 alone),
 * inbound connections from allowed destinations to a port the kernel
 * picked (its abstract Unix sockets polexec scopes away with Landlock,
 * and refuses the backend where it cannot). The notify broker (`backend
 * broker`) keeps the box there too: the host's loopback on the listed ports at
 * every 127.0.0.0/8 address (it refuses abstract names and listeners off
 * loopback). A policy may run there when it forces one of the two or lists
 * the cgroup first (`backend cgroup namespace`: it may run under either,
 * so the boundary is the union of both, as for auto), or when the
 * caller or auto's ladder may take one (`auto`, with the programs in the
 * artifact: net filtered, or loopback ports); never under `backend namespace`,
 * nor a plain `net none`. NEW that may where OLD may not is one finding.
 */
static int may_share_netns(const struct ir_policy *p)
{
	const struct ir_net *n = &p->net;

	if (is_host(p))
		return 1;
	switch (n->backend) {
	case IR_NET_BACKEND_NAMESPACE:
		return 0;
	case IR_NET_BACKEND_CGROUP:
	case IR_NET_BACKEND_CGROUP_NAMESPACE: /* either: the union */
		return 1;
	default:
		return n->mode == IR_NET_FILTERED || n->nloopback != 0;
	}
}

static const char *backend_str(const struct ir_policy *p)
{
	const struct ir_net *n = &p->net;

	if (n->backend == IR_NET_BACKEND_CGROUP)
		return "backend cgroup";
	if (n->backend == IR_NET_BACKEND_CGROUP_NAMESPACE)
		return "backend cgroup namespace";
	if (n->backend == IR_NET_BACKEND_NAMESPACE)
		return "backend namespace";
	if (n->backend == IR_NET_BACKEND_BROKER)
		return "backend broker";
	return may_share_netns(p)
		   ? "backend auto (--net-backend cgroup or broker, or the "
		     "ladder's own)"
		   : "backend auto (no cgroup programs)";
}

static int backend(struct netq *q)
{
	struct prove_net_point d = {.kind = PROVE_NET_SHARED};

	if (!may_share_netns(q->pv->nw) || may_share_netns(q->pv->old))
		return PROVE_OK;
	return report(q, &d,
		      "the host's network namespace (cgroup backend or "
		      "notify broker: its loopback at every address on the "
		      "listed ports; the cgroup backend also inbound from "
		      "allowed destinations)",
		      backend_str(q->pv->nw), backend_str(q->pv->old));
}

static const char *mode_str(const struct ir_policy *p)
{
	if (!p->net.present)
		return "host (no net block)";
	return p->net.mode == IR_NET_HOST	? "host"
	       : p->net.mode == IR_NET_FILTERED ? "filtered"
						: "none";
}

int prove_net(struct prover *pv)
{
	const struct ir_net *nn = &pv->nw->net, *on = &pv->old->net;
	struct netq *q = calloc(1, sizeof(*q));
	int rc = PROVE_OK;

	if (!q)
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	q->pv = pv;
	if (is_host(pv->nw) && !is_host(pv->old)) {
		struct prove_net_point d = {.kind = PROVE_NET_HOSTNET};

		rc = report(q, &d, "network mode", mode_str(pv->nw),
			    mode_str(pv->old));
	} else if (is_host(pv->nw)) {
		/* Both share the host's network: Landlock's port lists. */
		int all_n = no_port_rules(nn), all_o = no_port_rules(on);

		pm_ranges(&q->Ao, on->connect, all_o ? 0 : on->nconnect, all_o);
		rc = ports(q, nn->connect, all_n ? 0 : nn->nconnect, all_n,
			   &q->Ao, PROVE_NET_ADDR);
		pm_ranges(&q->Ao, on->bind, all_o ? 0 : on->nbind, all_o);
		if (!rc)
			rc = ports(q, nn->bind, all_n ? 0 : nn->nbind, all_n,
				   &q->Ao, PROVE_NET_BIND);
	} else {
		/* Entries only mean something in `filtered` mode. */
		for (uint32_t i = 0;
		     nn->mode == IR_NET_FILTERED && i < nn->nentries && !rc;
		     i++)
			rc = push_ir(q, &nn->entries[i], 1);
		if (is_host(pv->old))
			rc = rc ? rc : push_host(q, on);
		else
			for (uint32_t i = 0; on->mode == IR_NET_FILTERED &&
					     i < on->nentries && !rc;
			     i++)
				rc = push_ir(q, &on->entries[i], 0);
		if (!rc && nn->mode == IR_NET_FILTERED)
			rc = destinations(q);
		if (!rc) {
			if (is_host(pv->old))
				pm_ranges(&q->Ao, on->connect,
					  no_port_rules(on) ? 0 : on->nconnect,
					  no_port_rules(on));
			else
				pm_ranges(&q->Ao, on->loopback, on->nloopback,
					  0);
			rc = ports(q, nn->loopback, nn->nloopback, 0, &q->Ao,
				   PROVE_NET_LOOPBACK);
		}
		if (!rc)
			rc = backend(q);
		if (rc == PROVE_ENOMEM)
			rc = prove_fail(pv, rc, "out of memory");
	}
	free(q->e);
	free(q->cut);
	free(q);
	return rc;
}
