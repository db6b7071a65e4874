/* SPDX-License-Identifier: MIT */
/*
 * The egress backend (artifact/sections.h, "NET" and "NFT").
 *
 * The interval sets are pipapo sets (concatenated ranges), which refuse
 * overlapping elements, so the static entries of one verdict, family and
 * protocol are boxes (address range x port range) decomposed into disjoint
 * boxes: the address axis is cut at every box boundary, the port ranges of
 * the boxes covering each elementary address interval are merged, and
 * neighbouring intervals with equal port sets are joined again.
 *
 * The rules are the expressions nft 1.0.6 itself emits for the same table
 * written in its syntax (nft_print.c writes that text), so that the
 * kernel lists both identically; the test suite checks that.
 */
#include "addr_int.h"
#include "backend.h"
#include "polbin.h"
#include "sections.h"

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the disjoint decomposition ---------------------------------------- */

struct box {
	u128 lo, hi;
	uint16_t plo, phi;
};

struct elems {
	struct nft_elem *v;
	size_t n, cap;
	int full;
};

static int elems_flush(struct elems *e, u128 lo, u128 hi, int family,
		       uint8_t proto, const struct ir_port_range *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct nft_elem *x;

		if (e->n >= NFT_MAX_ELEMS) {
			e->full = 1;
			return -1;
		}
		if (e->n == e->cap) {
			size_t cap = e->cap ? 2 * e->cap : 64;
			void *v = realloc(e->v, cap * sizeof(*e->v));

			if (!v)
				return -1;
			e->v = v;
			e->cap = cap;
		}
		x = &e->v[e->n++];
		memset(x, 0, sizeof(*x));
		addr_put(x->lo, lo, family);
		addr_put(x->hi, hi, family);
		x->proto = proto;
		x->plo = r[i].lo;
		x->phi = r[i].hi;
	}
	return 0;
}

static int decompose(const struct box *b, size_t nb, int family, uint8_t proto,
		     struct elems *e)
{
	struct ir_port_range *cur = NULL, *pend = NULL;
	size_t np = 0, i, k, ncur, npend = 0;
	u128 *pts = NULL, pstart = 0, pend_hi = 0, max = addr_max(family);
	int have = 0, rc = -1;

	if (!nb)
		return 0;
	pts = malloc(2 * nb * sizeof(*pts));
	cur = malloc(nb * sizeof(*cur));
	pend = malloc(nb * sizeof(*pend));
	if (!pts || !cur || !pend)
		goto out;
	for (i = 0; i < nb; i++) {
		pts[np++] = b[i].lo;
		if (b[i].hi < max)
			pts[np++] = b[i].hi + 1;
	}
	qsort(pts, np, sizeof(*pts), u128_cmp);
	for (i = 1, k = 1; i < np; i++)
		if (pts[i] != pts[k - 1])
			pts[k++] = pts[i];
	np = k;
	for (k = 0; k < np; k++) {
		u128 start = pts[k], end = k + 1 < np ? pts[k + 1] - 1 : max;

		for (i = 0, ncur = 0; i < nb; i++)
			if (b[i].lo <= start && start <= b[i].hi)
				cur[ncur++] =
				    (struct ir_port_range){b[i].plo, b[i].phi};
		ncur = ir_port_ranges_merge(cur, ncur);
		if (have && ncur == npend && pend_hi + 1 == start &&
		    !memcmp(cur, pend, ncur * sizeof(*cur))) {
			pend_hi = end;
			continue;
		}
		if (have &&
		    elems_flush(e, pstart, pend_hi, family, proto, pend, npend))
			goto out;
		have = ncur != 0;
		if (have) {
			memcpy(pend, cur, ncur * sizeof(*cur));
			npend = ncur;
			pstart = start;
			pend_hi = end;
		}
	}
	if (have && elems_flush(e, pstart, pend_hi, family, proto, pend, npend))
		goto out;
	rc = 0;
out:
	free(pts);
	free(cur);
	free(pend);
	return rc;
}

int nft_elements(const struct ir_policy *p, int verdict, int family,
		 struct nft_elem **out, size_t *n, char *err, size_t errlen)
{
	static const uint8_t protos[] = {IR_PROTO_TCP, IR_PROTO_UDP};
	struct elems e = {0};
	struct box *b;
	size_t j;
	uint32_t i;

	*out = NULL;
	*n = 0;
	b = malloc((p->net.nentries + 1) * sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (j = 0; j < 2; j++) {
		size_t nb = 0;

		for (i = 0; i < p->net.nentries; i++) {
			const struct ir_net_entry *x = &p->net.entries[i];
			unsigned bits = family == 4 ? 32 : 128;
			u128 host;

			if (x->verdict != verdict || x->proto != protos[j] ||
			    x->kind != (family == 4 ? IR_ADDR_V4 : IR_ADDR_V6))
				continue;
			if (x->prefix > bits || x->port_lo > x->port_hi) {
				free(b);
				free(e.v);
				snprintf(err, errlen, "net: malformed entry");
				return -1;
			}
			host = x->prefix == 0
				   ? addr_max(family)
				   : ((u128)1 << (bits - x->prefix)) - 1;
			b[nb].lo = addr_get(x->addr, family) & ~host;
			b[nb].hi = b[nb].lo | host;
			b[nb].plo = x->port_lo;
			b[nb].phi = x->port_hi;
			nb++;
		}
		if (decompose(b, nb, family, protos[j], &e)) {
			free(b);
			free(e.v);
			if (e.full)
				snprintf(err, errlen,
					 "net filtered: the %s IPv%d entries "
					 "need more than %d disjoint nft set "
					 "elements",
					 verdict == IR_NET_ALLOW ? "allow"
								 : "deny",
					 family, NFT_MAX_ELEMS);
			else
				snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	free(b);
	*out = e.v;
	*n = e.n;
	return 0;
}

/* ---- the NET section --------------------------------------------------- */

size_t nft_runtime_count(const struct ir_policy *p)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < p->net.nentries; i++)
		n += p->net.entries[i].verdict == IR_NET_ALLOW &&
		     (p->net.entries[i].kind == IR_ADDR_NAME ||
		      p->net.entries[i].kind == IR_ADDR_VAR);
	return n;
}

const struct ir_net_entry *nft_runtime_entry(const struct ir_policy *p,
					     size_t k)
{
	uint32_t i;

	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *x = &p->net.entries[i];

		if (x->verdict == IR_NET_ALLOW &&
		    (x->kind == IR_ADDR_NAME || x->kind == IR_ADDR_VAR) &&
		    k-- == 0)
			return x;
	}
	return NULL;
}

int net_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		      char *err, size_t errlen)
{
	struct ir_port_range *lb = NULL;
	size_t nlb = 0, nrt, i, size;
	uint8_t *d;

	*out = NULL;
	*len = 0;
	if (!p->net.present || p->net.mode == IR_NET_HOST)
		return 0;
	if (p->net.mode != IR_NET_NONE && p->net.mode != IR_NET_FILTERED) {
		snprintf(err, errlen, "net: unknown mode %u", p->net.mode);
		return -1;
	}
	if (p->net.nloopback) {
		lb = malloc(p->net.nloopback * sizeof(*lb));
		if (!lb) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		/* port 0 cannot be connected to: the IR has none
		 * (ir_canonicalize()); one here is not canonical */
		for (i = 0; i < p->net.nloopback; i++) {
			struct ir_port_range r = p->net.loopback[i];

			if (r.lo == 0 || r.lo > r.hi) {
				snprintf(err, errlen,
					 "net: loopback port range %u-%u (IR "
					 "not canonical)",
					 r.lo, r.hi);
				free(lb);
				return -1;
			}
			lb[nlb++] = r;
		}
		nlb = ir_port_ranges_merge(lb, nlb);
	}
	if (nlb > POLBIN_NET_MAX_LOOPBACK) {
		snprintf(err, errlen,
			 "net: %zu loopback port ranges after merging, at most "
			 "%d",
			 nlb, POLBIN_NET_MAX_LOOPBACK);
		free(lb);
		return -1;
	}
	nrt = p->net.mode == IR_NET_FILTERED ? nft_runtime_count(p) : 0;
	if (nrt > POLBIN_NET_MAX_RUNTIME) {
		snprintf(err, errlen,
			 "net: %zu host name and ${VAR} allow entries, at most "
			 "%d",
			 nrt, POLBIN_NET_MAX_RUNTIME);
		free(lb);
		return -1;
	}
	size = POLBIN_NET_HEADER_LEN + 4 * nlb;
	for (i = 0; i < nrt; i++) {
		const struct ir_net_entry *x = nft_runtime_entry(p, i);
		size_t nl = x->name ? strlen(x->name) : 0;

		if (nl == 0 || nl > 0xffff) {
			snprintf(err, errlen, "net: bad runtime entry name");
			free(lb);
			return -1;
		}
		size += (8 + nl + 3) & ~(size_t)3;
	}
	d = calloc(1, size);
	if (!d) {
		free(lb);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	polbin_put_le32(d, POLBIN_NET_VERSION);
	polbin_put_le32(d + 4, p->net.mode == IR_NET_FILTERED
				   ? POLBIN_NET_FILTERED
				   : POLBIN_NET_NONE);
	polbin_put_le32(d + 8, (uint32_t)nlb);
	polbin_put_le32(d + 12, (uint32_t)nrt);
	*len = POLBIN_NET_HEADER_LEN;
	for (i = 0; i < nlb; i++, *len += 4) {
		polbin_put_le16(d + *len, lb[i].lo);
		polbin_put_le16(d + *len + 2, lb[i].hi);
	}
	free(lb);
	for (i = 0; i < nrt; i++) {
		const struct ir_net_entry *x = nft_runtime_entry(p, i);
		size_t nl = strlen(x->name);

		d[*len] = x->kind == IR_ADDR_NAME ? POLBIN_NET_RT_NAME
						  : POLBIN_NET_RT_VAR;
		d[*len + 1] = x->proto;
		polbin_put_le16(d + *len + 2, x->port_lo);
		polbin_put_le16(d + *len + 4, x->port_hi);
		polbin_put_le16(d + *len + 6, (uint16_t)nl);
		memcpy(d + *len + 8, x->name, nl);
		*len += (8 + nl + 3) & ~(size_t)3;
	}
	*out = d;
	return 0;
}

/* ---- the NFT section --------------------------------------------------- */

#define MSG_BUF	      (256u << 10)
#define ELEMS_PER_MSG 256

/* Set ids in the batch; rt4_<i> is SET_RT + 2 i, rt6_<i> SET_RT + 2 i + 1. */
enum {
	SET_ALLOW4 = 1,
	SET_ALLOW6,
	SET_DENY4,
	SET_DENY6,
	SET_BLOCKED4,
	SET_BLOCKED6,
	SET_REFUSED4,
	SET_REFUSED6,
	SET_RT
};

/* nft's datatype numbers, concatenated 6 bits each (nft's concat_type). */
#define DT_IPV4	     7
#define DT_IPV6	     8
#define DT_PROTO     12
#define DT_SERVICE   13
#define KEY_TYPE(dt) ((dt) << 12 | DT_PROTO << 6 | DT_SERVICE)

struct out {
	uint8_t *d;
	size_t len, cap;
	char *buf; /* one message */
	int oom, toobig;
};

static void out_msg(struct out *o, const struct nlmsghdr *nlh)
{
	size_t n = NLMSG_ALIGN(nlh->nlmsg_len);

	if (o->oom || o->toobig)
		return;
	if (o->len + n > POLBIN_NET_MAX_NFT) {
		o->toobig = 1;
		return;
	}
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		void *d;

		while (cap < o->len + n)
			cap *= 2;
		d = realloc(o->d, cap);
		if (!d) {
			o->oom = 1;
			return;
		}
		o->d = d;
		o->cap = cap;
	}
	memcpy(o->d + o->len, nlh, n);
	o->len += n;
}

static struct nlmsghdr *msg_start(struct out *o, uint16_t type, uint16_t flags)
{
	memset(o->buf, 0, MSG_BUF);
	return nftnl_nlmsg_build_hdr(o->buf, type, NFPROTO_INET,
				     NLM_F_CREATE | flags, 0);
}

static void emit_table(struct out *o)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	if (!t) {
		o->oom = 1;
		return;
	}
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, POLBIN_NFT_TABLE);
	nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, 0);
	nlh = msg_start(o, NFT_MSG_NEWTABLE, 0);
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	out_msg(o, nlh);
}

/* base: 0 a regular chain, NF_INET_LOCAL_OUT + 1 the output hook (policy
 * drop), NF_INET_LOCAL_IN + 1 the input hook (policy accept) */
static void emit_chain(struct out *o, const char *name, int base)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	if (!c) {
		o->oom = 1;
		return;
	}
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, POLBIN_NFT_TABLE);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	if (base) {
		nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, (uint32_t)base - 1);
		nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, 0);
		nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY,
				    base - 1 == NF_INET_LOCAL_IN ? NF_ACCEPT
								 : NF_DROP);
		nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
	}
	nlh = msg_start(o, NFT_MSG_NEWCHAIN, 0);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	nftnl_chain_free(c);
	out_msg(o, nlh);
}

static struct nftnl_set *set_new(const char *name, uint32_t id)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return NULL;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, POLBIN_NFT_TABLE);
	nftnl_set_set_str(s, NFTNL_SET_NAME, name);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, NFPROTO_INET);
	nftnl_set_set_u32(s, NFTNL_SET_ID, id);
	return s;
}

/* kind 0: interval (allow/deny), 1: runtime hash, 2: blocked (dynamic),
 * 3: refused (dynamic, a port) */
static void emit_set(struct out *o, const char *name, uint32_t id, int family,
		     int kind)
{
	static const uint8_t fields4[] = {4, 1, 2}, fields6[] = {16, 1, 2};
	struct nftnl_set *s = set_new(name, id);
	struct nlmsghdr *nlh;

	if (!s) {
		o->oom = 1;
		return;
	}
	if (kind == 3) {
		nftnl_set_set_u32(s, NFTNL_SET_FLAGS, NFT_SET_EVAL);
		nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, DT_SERVICE);
		nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, 2);
		nftnl_set_set_u32(s, NFTNL_SET_DESC_SIZE,
				  POLBIN_NFT_BLOCKED_SIZE);
	} else if (kind == 1) {
		nftnl_set_set_u32(s, NFTNL_SET_FLAGS, 0);
		nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE,
				  family == 4 ? DT_IPV4 : DT_IPV6);
		nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, family == 4 ? 4 : 16);
	} else {
		nftnl_set_set_u32(s, NFTNL_SET_FLAGS,
				  kind == 0 ? NFT_SET_INTERVAL | NFT_SET_CONCAT
					    : NFT_SET_EVAL);
		nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE,
				  KEY_TYPE(family == 4 ? DT_IPV4 : DT_IPV6));
		nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN,
				  family == 4 ? POLBIN_NFT_KEY4_LEN
					      : POLBIN_NFT_KEY6_LEN);
		if (kind == 0)
			nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT,
					   family == 4 ? fields4 : fields6, 3);
		else
			nftnl_set_set_u32(s, NFTNL_SET_DESC_SIZE,
					  POLBIN_NFT_BLOCKED_SIZE);
	}
	nlh = msg_start(o, NFT_MSG_NEWSET, 0);
	nftnl_set_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
	out_msg(o, nlh);
}

static void key_put(uint8_t *k, const uint8_t *addr, int family, uint8_t proto,
		    uint16_t port)
{
	size_t a = family == 4 ? 4 : 16;

	memset(k, 0, a + 8);
	memcpy(k, addr, a);
	k[a] = proto;
	k[a + 4] = (uint8_t)(port >> 8);
	k[a + 5] = (uint8_t)port;
}

static void emit_elems(struct out *o, const char *name, uint32_t id, int family,
		       const struct nft_elem *v, size_t n)
{
	size_t klen = family == 4 ? POLBIN_NFT_KEY4_LEN : POLBIN_NFT_KEY6_LEN;
	size_t i, j;

	for (i = 0; i < n && !o->oom; i += ELEMS_PER_MSG) {
		struct nftnl_set *s = set_new(name, id);
		struct nlmsghdr *nlh;

		if (!s) {
			o->oom = 1;
			return;
		}
		for (j = i; j < n && j < i + ELEMS_PER_MSG; j++) {
			struct nftnl_set_elem *e = nftnl_set_elem_alloc();
			uint8_t k[24];

			if (!e) {
				o->oom = 1;
				break;
			}
			key_put(k, v[j].lo, family, v[j].proto, v[j].plo);
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, k, klen);
			key_put(k, v[j].hi, family, v[j].proto, v[j].phi);
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, k, klen);
			nftnl_set_elem_add(s, e);
		}
		nlh = msg_start(o, NFT_MSG_NEWSETELEM, 0);
		nftnl_set_elems_nlmsg_build_payload(nlh, s);
		nftnl_set_free(s);
		out_msg(o, nlh);
	}
}

/* ---- rule expressions, as nft emits them ------------------------------- */

struct rule {
	struct nftnl_rule *r;
	int oom;
};

static struct nftnl_expr *x_new(struct rule *r, const char *name)
{
	struct nftnl_expr *e = nftnl_expr_alloc(name);

	if (!e)
		r->oom = 1;
	return e;
}

static void x_add(struct rule *r, struct nftnl_expr *e)
{
	nftnl_rule_add_expr(r->r, e);
}

static void x_meta(struct rule *r, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e = x_new(r, "meta");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	x_add(r, e);
}

static void x_cmp(struct rule *r, uint32_t op, const void *data, uint32_t len)
{
	struct nftnl_expr *e = x_new(r, "cmp");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
	nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	x_add(r, e);
}

static void x_cmp8(struct rule *r, uint8_t v)
{
	x_cmp(r, NFT_CMP_EQ, &v, 1);
}

static void x_payload(struct rule *r, uint32_t base, uint32_t off, uint32_t len,
		      uint32_t dreg)
{
	struct nftnl_expr *e = x_new(r, "payload");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
	x_add(r, e);
}

static void x_verdict(struct rule *r, int verdict, const char *chain)
{
	struct nftnl_expr *e = x_new(r, "immediate");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, (uint32_t)verdict);
	if (chain)
		nftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, chain);
	x_add(r, e);
}

static void x_lookup(struct rule *r, const char *set, uint32_t id)
{
	struct nftnl_expr *e = x_new(r, "lookup");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
	nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, set);
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, id);
	x_add(r, e);
}

/* nft's hton of the 1-byte l4proto in a concatenation (size 2, len 1) */
static void x_byteorder(struct rule *r, uint32_t reg)
{
	struct nftnl_expr *e = x_new(r, "byteorder");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP, NFT_BYTEORDER_HTON);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, 1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, 2);
	x_add(r, e);
}

/* reg 1 = (reg 1 & mask) ^ 0, over len bytes */
static void x_bitwise(struct rule *r, const void *mask, uint32_t len)
{
	static const uint8_t zero[4];
	struct nftnl_expr *e = x_new(r, "bitwise");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, mask, len);
	nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, zero, len);
	x_add(r, e);
}

/* add reg 1 (on) to the dynamic set `set` */
static void x_dynset(struct rule *r, const char *set, uint32_t id)
{
	struct nftnl_expr *e = x_new(r, "dynset");

	if (!e)
		return;
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SREG_KEY, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_OP, NFT_DYNSET_OP_ADD);
	nftnl_expr_set_str(e, NFTNL_EXPR_DYNSET_SET_NAME, set);
	nftnl_expr_set_u32(e, NFTNL_EXPR_DYNSET_SET_ID, id);
	x_add(r, e);
}

static void x_nfproto(struct rule *r, int family)
{
	x_meta(r, NFT_META_NFPROTO, NFT_REG_1);
	x_cmp8(r, family == 4 ? NFPROTO_IPV4 : NFPROTO_IPV6);
}

static void x_daddr(struct rule *r, int family, uint32_t dreg)
{
	x_payload(r, NFT_PAYLOAD_NETWORK_HEADER, family == 4 ? 16 : 24,
		  family == 4 ? 4 : 16, dreg);
}

/* daddr . l4proto . th dport in reg 1 and on (registers as nft uses them) */
static void x_concat(struct rule *r, int family, int hton)
{
	uint32_t r2 = family == 4 ? NFT_REG32_01 : NFT_REG_2;
	uint32_t r3 = family == 4 ? NFT_REG32_02 : NFT_REG32_05;

	x_daddr(r, family, NFT_REG_1);
	x_meta(r, NFT_META_L4PROTO, r2);
	if (hton)
		x_byteorder(r, r2);
	x_payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, r3);
}

static int rule_start(struct rule *r, const char *chain)
{
	r->r = nftnl_rule_alloc();
	if (!r->r) {
		r->oom = 1;
		return -1;
	}
	nftnl_rule_set_str(r->r, NFTNL_RULE_TABLE, POLBIN_NFT_TABLE);
	nftnl_rule_set_str(r->r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r->r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	return 0;
}

static void rule_end(struct out *o, struct rule *r)
{
	struct nlmsghdr *nlh;

	if (!r->r)
		return;
	if (r->oom) {
		o->oom = 1;
	} else {
		nlh = msg_start(o, NFT_MSG_NEWRULE, NLM_F_APPEND);
		nftnl_rule_nlmsg_build_payload(nlh, r->r);
		out_msg(o, nlh);
	}
	nftnl_rule_free(r->r);
	r->r = NULL;
}

static void rule_set_lookup(struct out *o, int family, const char *set,
			    uint32_t id, int verdict)
{
	struct rule r = {0};

	if (rule_start(&r, "output"))
		goto done;
	x_nfproto(&r, family);
	x_concat(&r, family, 1);
	x_lookup(&r, set, id);
	x_verdict(&r, verdict, verdict == NFT_GOTO ? "blocked" : NULL);
done:
	rule_end(o, &r);
}

static void rule_runtime(struct out *o, int family, size_t i,
			 const struct ir_net_entry *x)
{
	struct rule r = {0};
	char set[32];

	snprintf(set, sizeof(set), "rt%d_%zu", family, i);
	if (rule_start(&r, "output"))
		goto done;
	x_nfproto(&r, family);
	x_daddr(&r, family, NFT_REG_1);
	x_lookup(&r, set, (uint32_t)(SET_RT + 2 * i + (family == 6)));
	x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
	x_cmp8(&r, x->proto);
	if (!(x->port_lo == 0 && x->port_hi == 65535)) {
		uint8_t lo[2] = {(uint8_t)(x->port_lo >> 8),
				 (uint8_t)x->port_lo};
		uint8_t hi[2] = {(uint8_t)(x->port_hi >> 8),
				 (uint8_t)x->port_hi};

		x_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1);
		if (x->port_lo == x->port_hi) {
			x_cmp(&r, NFT_CMP_EQ, lo, 2);
		} else {
			x_cmp(&r, NFT_CMP_GTE, lo, 2);
			x_cmp(&r, NFT_CMP_LTE, hi, 2);
		}
	}
	x_verdict(&r, NF_ACCEPT, NULL);
done:
	rule_end(o, &r);
}

/* ct state & mask != 0 */
static void x_ctstate(struct rule *r, uint32_t mask)
{
	static const uint32_t zero;
	struct nftnl_expr *e = x_new(r, "ct");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, NFT_CT_STATE);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_DREG, NFT_REG_1);
		x_add(r, e);
	}
	x_bitwise(r, &mask, 4);
	x_cmp(r, NFT_CMP_NEQ, &zero, 4);
}

/*
 * The input chain: UDP from outside the box enters only as the reply of a
 * flow the box opened (ct state established: the datagram's source is the
 * address and port the flow was sent to). pasta's outside socket of a flow
 * is bound to the box's source port on every address and passes in what
 * anyone sends there; dropped here, such a datagram is never confirmed by
 * conntrack, so the box's answer to it is a new flow the output chain
 * judges by the sets.
 */
static void emit_input_rules(struct out *o)
{
	struct rule r = {0};
	uint32_t one = 1;

	if (!rule_start(&r, "input")) {
		x_meta(&r, NFT_META_IIF, NFT_REG_1);
		x_cmp(&r, NFT_CMP_EQ, &one, 4);
		x_verdict(&r, NF_ACCEPT, NULL);
	}
	rule_end(o, &r);
	if (!rule_start(&r, "input")) {
		x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
		x_cmp8(&r, IR_PROTO_UDP);
		x_ctstate(&r, 2); /* established */
		x_verdict(&r, NF_ACCEPT, NULL);
	}
	rule_end(o, &r);
	if (!rule_start(&r, "input")) {
		x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
		x_cmp8(&r, IR_PROTO_UDP);
		x_verdict(&r, NF_DROP, NULL);
	}
	rule_end(o, &r);
}

static void emit_rules(struct out *o, const struct ir_policy *p)
{
	static const uint8_t nd[] = {133, 135, 136};
	struct rule r = {0};
	size_t i, nrt = nft_runtime_count(p);
	uint32_t one = 1, zero = 0;
	int f, j;

	/* The box's own loopback refusing a connect: its kernel's reset to
	 * a SYN (rst and ack, sequence 0) from a loopback address's port
	 * nobody listens on (the resets `blocked` sends come from the
	 * destination's address). Evidence only, no verdict: the next rule
	 * accepts it. */
	for (f = 4; f <= 6; f += 2) {
		static const uint8_t rstack = 0x14, lo6[16] = {[15] = 1};

		if (rule_start(&r, "output"))
			break;
		x_meta(&r, NFT_META_OIF, NFT_REG_1);
		x_cmp(&r, NFT_CMP_EQ, &one, 4);
		x_nfproto(&r, f);
		if (f == 4) {
			x_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 12, 1,
				  NFT_REG_1);
			x_cmp8(&r, 127);
		} else {
			x_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 8, 16,
				  NFT_REG_1);
			x_cmp(&r, NFT_CMP_EQ, lo6, 16);
		}
		x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
		x_cmp8(&r, IR_PROTO_TCP);
		x_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 13, 1, NFT_REG_1);
		x_bitwise(&r, &rstack, 1);
		x_cmp8(&r, rstack);
		x_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 4, 4, NFT_REG_1);
		x_cmp(&r, NFT_CMP_EQ, &zero, 4);
		x_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 2, NFT_REG_1);
		x_dynset(&r, f == 4 ? "refused4" : "refused6",
			 f == 4 ? SET_REFUSED4 : SET_REFUSED6);
		rule_end(o, &r);
	}
	if (!rule_start(&r, "output")) {
		x_meta(&r, NFT_META_OIF, NFT_REG_1);
		x_cmp(&r, NFT_CMP_EQ, &one, 4);
		x_verdict(&r, NF_ACCEPT, NULL);
	}
	rule_end(o, &r);
	/* TCP alone: a UDP datagram is judged by the sets every time, so
	 * an answer to a stranger that reached the box's port is not taken
	 * for the reply of a flow (the input chain keeps strangers out too) */
	if (!rule_start(&r, "output")) {
		x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
		x_cmp8(&r, IR_PROTO_TCP);
		x_ctstate(&r, 6); /* established | related */
		x_verdict(&r, NF_ACCEPT, NULL);
	}
	rule_end(o, &r);
	for (j = 0; j < 3; j++) {
		if (!rule_start(&r, "output")) {
			x_nfproto(&r, 6);
			x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
			x_cmp8(&r, 58); /* IPPROTO_ICMPV6 */
			x_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 1,
				  NFT_REG_1);
			x_cmp8(&r, nd[j]);
			x_verdict(&r, NF_ACCEPT, NULL);
		}
		rule_end(o, &r);
	}
	rule_set_lookup(o, 4, "deny4", SET_DENY4, NFT_GOTO);
	rule_set_lookup(o, 6, "deny6", SET_DENY6, NFT_GOTO);
	rule_set_lookup(o, 4, "allow4", SET_ALLOW4, NF_ACCEPT);
	rule_set_lookup(o, 6, "allow6", SET_ALLOW6, NF_ACCEPT);
	for (i = 0; i < nrt; i++) {
		rule_runtime(o, 4, i, nft_runtime_entry(p, i));
		rule_runtime(o, 6, i, nft_runtime_entry(p, i));
	}
	if (!rule_start(&r, "output"))
		x_verdict(&r, NFT_GOTO, "blocked");
	rule_end(o, &r);
	for (f = 4; f <= 6; f += 2) {
		for (j = 0; j < 2; j++) {
			if (rule_start(&r, "blocked"))
				break;
			x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
			x_cmp8(&r, j ? IR_PROTO_UDP : IR_PROTO_TCP);
			x_nfproto(&r, f);
			x_concat(&r, f, 0);
			x_dynset(&r, f == 4 ? "blocked4" : "blocked6",
				 f == 4 ? SET_BLOCKED4 : SET_BLOCKED6);
			rule_end(o, &r);
		}
	}
	/* Refused at once rather than dropped: a dropped SYN makes connect()
	 * retry for minutes (TCP ignores the local EPERM), which a box's
	 * program would take for a slow network. A TCP reset gives it
	 * ECONNREFUSED, ICMP admin-prohibited a UDP socket EHOSTUNREACH. */
	for (j = 0; j < 2; j++) {
		struct nftnl_expr *e;

		if (rule_start(&r, "blocked"))
			break;
		x_meta(&r, NFT_META_L4PROTO, NFT_REG_1);
		x_cmp8(&r, j ? IR_PROTO_UDP : IR_PROTO_TCP);
		e = x_new(&r, "reject");
		if (e) {
			nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE,
					   j ? NFT_REJECT_ICMPX_UNREACH
					     : NFT_REJECT_TCP_RST);
			nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE,
					  j ? NFT_REJECT_ICMPX_ADMIN_PROHIBITED
					    : 0);
			x_add(&r, e);
		}
		rule_end(o, &r);
	}
	if (!rule_start(&r, "blocked"))
		x_verdict(&r, NF_DROP, NULL);
	rule_end(o, &r);
	emit_input_rules(o);
}

int nft_section_build(const struct ir_policy *p, uint8_t **data, size_t *len,
		      char *err, size_t errlen)
{
	struct nft_elem *el[4] = {0};
	size_t nel[4] = {0}, total = 0, i, nrt;
	struct out o = {0};
	int k;

	*data = NULL;
	*len = 0;
	if (!p->net.present || p->net.mode != IR_NET_FILTERED) {
		snprintf(err, errlen, "nft: not net filtered");
		return -1;
	}
	nrt = nft_runtime_count(p);
	if (nrt > POLBIN_NET_MAX_RUNTIME) {
		snprintf(err, errlen,
			 "net: %zu host name and ${VAR} allow entries, at most "
			 "%d",
			 nrt, POLBIN_NET_MAX_RUNTIME);
		return -1;
	}
	/* allow4, allow6, deny4, deny6 */
	for (k = 0; k < 4; k++) {
		if (nft_elements(p, k < 2 ? IR_NET_ALLOW : IR_NET_DENY,
				 k % 2 ? 6 : 4, &el[k], &nel[k], err, errlen))
			goto fail;
		total += nel[k];
	}
	if (total > NFT_MAX_ELEMS) {
		snprintf(err, errlen,
			 "net filtered: the address entries need %zu disjoint "
			 "nft set elements, at most %d",
			 total, NFT_MAX_ELEMS);
		goto fail;
	}
	o.buf = malloc(MSG_BUF);
	if (!o.buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	emit_table(&o);
	emit_chain(&o, "output", NF_INET_LOCAL_OUT + 1);
	emit_chain(&o, "blocked", 0);
	emit_chain(&o, "input", NF_INET_LOCAL_IN + 1);
	emit_set(&o, "allow4", SET_ALLOW4, 4, 0);
	emit_set(&o, "allow6", SET_ALLOW6, 6, 0);
	emit_set(&o, "deny4", SET_DENY4, 4, 0);
	emit_set(&o, "deny6", SET_DENY6, 6, 0);
	emit_set(&o, "blocked4", SET_BLOCKED4, 4, 2);
	emit_set(&o, "blocked6", SET_BLOCKED6, 6, 2);
	emit_set(&o, "refused4", SET_REFUSED4, 4, 3);
	emit_set(&o, "refused6", SET_REFUSED6, 6, 3);
	for (i = 0; i < nrt; i++) {
		char n4[32], n6[32];

		snprintf(n4, sizeof(n4), "rt4_%zu", i);
		snprintf(n6, sizeof(n6), "rt6_%zu", i);
		emit_set(&o, n4, (uint32_t)(SET_RT + 2 * i), 4, 1);
		emit_set(&o, n6, (uint32_t)(SET_RT + 2 * i + 1), 6, 1);
	}
	emit_elems(&o, "allow4", SET_ALLOW4, 4, el[0], nel[0]);
	emit_elems(&o, "allow6", SET_ALLOW6, 6, el[1], nel[1]);
	emit_elems(&o, "deny4", SET_DENY4, 4, el[2], nel[2]);
	emit_elems(&o, "deny6", SET_DENY6, 6, el[3], nel[3]);
	emit_rules(&o, p);
	if (o.oom || o.toobig) {
		if (o.oom)
			snprintf(err, errlen, "out of memory");
		else
			snprintf(err, errlen,
				 "net filtered: the nft table is over %u bytes",
				 POLBIN_NET_MAX_NFT);
		goto fail;
	}
	free(o.buf);
	for (k = 0; k < 4; k++)
		free(el[k]);
	*data = o.d;
	*len = o.len;
	return 0;
fail:
	free(o.buf);
	free(o.d);
	for (k = 0; k < 4; k++)
		free(el[k]);
	return -1;
}
