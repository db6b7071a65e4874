/* SPDX-License-Identifier: MIT */
/*
 * The compiled artifact as polexec reads it, and what each layer lets the
 * box do, modelled from the section formats (artifact/sections.h) and the
 * kernel's semantics, not from the IR or the prover:
 *
 *   - seccomp: the SECCOMP section run through bpf/bpf_interp.c, the
 *     return value ranked;
 *   - Landlock: the LANDLOCK section's rules as paths and rights, bound in
 *     a world (variables, one symlink), a rule through a symlink without
 *     follow installed nowhere, a rule granting beneath its folder;
 *   - net: the NET section's mode, loopback ports and runtime entries, and
 *     the NFT section's netlink messages decoded here and run as the
 *     kernel runs them: the output chain's expressions (meta, payload,
 *     cmp, lookup, byteorder, bitwise, ct, immediate) on a packet, with
 *     interval sets matched field by field as concatenated ranges, the
 *     runtime sets holding the addresses the world binds their names to;
 *     Landlock's TCP port rules where the box shares the host's network;
 *   - limits: the LIMITS section, time and CPU ceilings as polexec
 *     enforces them (stub/limits/limits.c, stub/limits_run.c);
 *   - env: the ENV section's entries.
 */
#include "diff.h"

#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_interp.h"
#include "sections.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -1;
}

/* ---- Sections ----------------------------------------------------------- */

static int load_landlock(struct dart *a, const struct polbin_section *s,
			 char *err, size_t errlen)
{
	size_t off = POLBIN_LL_HEADER_SIZE;

	if (!s)
		return 0;
	if (s->len < POLBIN_LL_HEADER_SIZE)
		return fail(err, errlen, "landlock: short");
	a->ll_on = 1;
	a->ll_abi = le32(s->data + 4);
	a->ll_mode = le32(s->data + 8);
	a->handled_fs = le64(s->data + 16);
	a->handled_net = le64(s->data + 24);
	a->scoped = le64(s->data + 32);
	a->nfs = le32(s->data + 40);
	a->nports = le32(s->data + 44);
	if (a->nfs > DM_MAX_FS || a->nports > DM_MAX_PORTS)
		return fail(err, errlen, "landlock: too many rules here");
	for (uint32_t i = 0; i < a->nfs; i++) {
		uint32_t n;

		if (off + 16 > s->len)
			return fail(err, errlen, "landlock: rule runs past");
		a->fs[i].access = le64(s->data + off);
		a->fs[i].flags = le32(s->data + off + 8);
		n = le32(s->data + off + 12);
		if (n >= DM_PATH || off + 16 + n > s->len)
			return fail(err, errlen, "landlock: path");
		memcpy(a->fs[i].path, s->data + off + 16, n);
		a->fs[i].path[n] = '\0';
		off += 16 + n;
	}
	for (uint32_t i = 0; i < a->nports; i++, off += 8) {
		if (off + 8 > s->len)
			return fail(err, errlen, "landlock: port runs past");
		a->ports[i].access = le32(s->data + off);
		a->ports[i].lo = le16(s->data + off + 4);
		a->ports[i].hi = le16(s->data + off + 6);
	}
	return off == s->len ? 0 : fail(err, errlen, "landlock: trailing");
}

static int load_view(struct dart *a, const struct polbin_section *s, char *err,
		     size_t errlen)
{
	size_t off = POLBIN_VIEW_HEADER_LEN;
	uint32_t flags;

	if (!s)
		return 0;
	if (s->len < POLBIN_VIEW_HEADER_LEN)
		return fail(err, errlen, "view: short");
	flags = le32(s->data + 4);
	a->view_root = !!(flags & POLBIN_VIEW_F_ROOT);
	a->view_best_effort = !!(flags & POLBIN_VIEW_F_BEST_EFFORT);
	a->user = !!(flags & POLBIN_VIEW_F_USER);
	a->uid = le32(s->data + 8);
	a->gid = le32(s->data + 12);
	a->nview = le32(s->data + 16);
	if (a->nview > DM_MAX_FS + 8)
		return fail(err, errlen, "view: too many entries here");
	for (uint32_t i = 0; i < a->nview; i++) {
		struct dm_view_entry *e = &a->view[i];
		uint16_t n;

		if (off + POLBIN_VIEW_ENTRY_LEN > s->len)
			return fail(err, errlen, "view: entry runs past");
		e->kind = s->data[off];
		e->attrs = s->data[off + 1];
		n = le16(s->data + off + 2);
		e->rule = le32(s->data + off + 4);
		e->size = le64(s->data + off + 8);
		e->access = le64(s->data + off + 16);
		off += POLBIN_VIEW_ENTRY_LEN;
		if (n >= DM_PATH || off + n > s->len ||
		    (e->kind == POLBIN_VIEW_BIND && e->rule >= a->nfs))
			return fail(err, errlen, "view: entry");
		memcpy(e->path, s->data + off, n);
		e->path[n] = '\0';
		off += (n + 7u) / 8 * 8;
	}
	return off == s->len ? 0 : fail(err, errlen, "view: trailing");
}

static int load_net(struct dart *a, const struct polbin_section *s, char *err,
		    size_t errlen)
{
	size_t off = POLBIN_NET_HEADER_LEN;

	a->net_mode = -1;
	if (!s)
		return 0;
	if (s->len < POLBIN_NET_HEADER_LEN ||
	    le32(s->data) != POLBIN_NET_VERSION)
		return fail(err, errlen, "net: header");
	a->net_mode = (int)le32(s->data + 4);
	a->nloop = le32(s->data + 8);
	a->nrt = le32(s->data + 12);
	if (a->nloop > DM_MAX_LOOP || a->nrt > DM_MAX_RT)
		return fail(err, errlen, "net: too many entries here");
	for (uint32_t i = 0; i < a->nloop; i++, off += 4) {
		if (off + 4 > s->len)
			return fail(err, errlen, "net: loopback runs past");
		a->loop[i].lo = le16(s->data + off);
		a->loop[i].hi = le16(s->data + off + 2);
	}
	for (uint32_t i = 0; i < a->nrt; i++) {
		struct dm_runtime *r = &a->rt[i];
		uint16_t n;

		if (off + 8 > s->len)
			return fail(err, errlen, "net: runtime runs past");
		r->kind = s->data[off];
		r->proto = s->data[off + 1];
		r->lo = le16(s->data + off + 2);
		r->hi = le16(s->data + off + 4);
		n = le16(s->data + off + 6);
		if (n >= DM_NAME || off + 8 + n > s->len)
			return fail(err, errlen, "net: runtime name");
		memcpy(r->name, s->data + off + 8, n);
		r->name[n] = '\0';
		off += (8 + (size_t)n + 3) & ~(size_t)3;
	}
	return off == s->len ? 0 : fail(err, errlen, "net: trailing");
}

static int load_limits(struct dart *a, const struct polbin_section *s,
		       char *err, size_t errlen)
{
	if (!s || s->len != POLBIN_LIMITS_LEN)
		return fail(err, errlen, "limits: missing or not 72 bytes");
	a->lim_flags = le32(s->data);
	a->lim_set = le32(s->data + 4);
	for (int i = 0; i < 8; i++)
		a->lim[i] = le64(s->data + 8 + 8 * i);
	return 0;
}

static int load_env(struct dart *a, const struct polbin_section *s, char *err,
		    size_t errlen)
{
	size_t off = 4;

	if (!s || s->len < 4)
		return fail(err, errlen, "env: missing");
	a->nenv = le32(s->data);
	if (a->nenv > DM_MAX_ENV)
		return fail(err, errlen, "env: too many entries here");
	for (uint32_t i = 0; i < a->nenv; i++) {
		struct dm_env *e = &a->env[i];
		size_t n, v, d;

		if (off + 8 > s->len)
			return fail(err, errlen, "env: runs past");
		e->kind = s->data[off];
		n = le16(s->data + off + 2);
		v = le16(s->data + off + 4);
		d = le16(s->data + off + 6);
		off += 8;
		if (n >= DM_NAME || v >= DM_NAME || d >= DM_NAME ||
		    off + n + v + d > s->len)
			return fail(err, errlen, "env: entry");
		memcpy(e->name, s->data + off, n);
		e->name[n] = '\0';
		memcpy(e->value, s->data + off + n, v);
		e->value[v] = '\0';
		memcpy(e->dest, s->data + off + n + v, d);
		e->dest[d] = '\0';
		off += n + v + d;
	}
	return off == s->len ? 0 : fail(err, errlen, "env: trailing");
}

/* ---- Netlink: the NFT section's messages ------------------------------- */

struct attrs {
	const uint8_t *v[32];
	uint16_t len[32];
};

/* The attributes of [p, p + n), by type (NLA_TYPE_MASK). */
static int parse_attrs(const uint8_t *p, size_t n, struct attrs *at)
{
	memset(at, 0, sizeof(*at));
	while (n >= 4) {
		uint16_t l = le16(p), t = le16(p + 2) & NLA_TYPE_MASK;
		size_t step = (l + 3u) & ~3u;

		if (l < 4 || l > n)
			return -1;
		if (t < 32) {
			at->v[t] = p + 4;
			at->len[t] = (uint16_t)(l - 4);
		}
		if (step > n)
			step = n;
		p += step;
		n -= step;
	}
	return 0;
}

/*
 * Calls fn on the payload of each attribute of a nested list (NFTA_LIST_ELEM
 * ...) in [p, p + n). 0, or -1 when one is malformed or fn fails.
 */
static int each_elem(const uint8_t *p, size_t n,
		     int (*fn)(void *ctx, const uint8_t *v, size_t len),
		     void *ctx)
{
	while (n >= 4) {
		uint16_t l = le16(p);
		size_t step = (l + 3u) & ~3u;

		if (l < 4 || l > n || fn(ctx, p + 4, l - 4u))
			return -1;
		if (step > n)
			break;
		p += step;
		n -= step;
	}
	return 0;
}

static uint32_t be32_at(const struct attrs *at, int t)
{
	uint32_t v = 0;

	if (at->v[t] && at->len[t] == 4) {
		memcpy(&v, at->v[t], 4);
		v = ntohl(v);
	}
	return v;
}

static void str_at(const struct attrs *at, int t, char *out, size_t len)
{
	size_t n = at->v[t] ? at->len[t] : 0;

	if (n >= len)
		n = len - 1;
	memcpy(out, n ? (const char *)at->v[t] : "", n);
	out[n] = '\0';
	/* strings are NUL-terminated inside the attribute */
	out[strnlen(out, n)] = '\0';
}

/* The NFTA_DATA_VALUE bytes of a nested nft_data attribute. */
static uint32_t data_value(const struct attrs *at, int t, uint8_t *out,
			   size_t max)
{
	struct attrs d;

	if (!at->v[t] || parse_attrs(at->v[t], at->len[t], &d) ||
	    !d.v[NFTA_DATA_VALUE] || d.len[NFTA_DATA_VALUE] > max)
		return 0;
	memcpy(out, d.v[NFTA_DATA_VALUE], d.len[NFTA_DATA_VALUE]);
	return d.len[NFTA_DATA_VALUE];
}

static struct dm_set *set_named(struct dart *a, const char *name)
{
	for (uint32_t i = 0; i < a->nsets; i++)
		if (!strcmp(a->sets[i].name, name))
			return &a->sets[i];
	return NULL;
}

static int set_field(void *ctx, const uint8_t *v, size_t len)
{
	struct dm_set *s = ctx;
	struct attrs el;

	if (s->nfields == 4 || parse_attrs(v, len, &el))
		return -1;
	s->field[s->nfields++] = be32_at(&el, NFTA_SET_FIELD_LEN);
	return 0;
}

static int nft_newset(struct dart *a, const struct attrs *at)
{
	struct dm_set *s;
	struct attrs desc;

	if (a->nsets == DM_MAX_SETS)
		return -1;
	s = &a->sets[a->nsets++];
	memset(s, 0, sizeof(*s));
	str_at(at, NFTA_SET_NAME, s->name, sizeof(s->name));
	s->flags = be32_at(at, NFTA_SET_FLAGS);
	s->key_len = be32_at(at, NFTA_SET_KEY_LEN);
	if (s->key_len > 24)
		return -1;
	/* the concatenation's fields: NFTA_LIST_ELEM { NFTA_SET_FIELD_LEN } */
	if (at->v[NFTA_SET_DESC] &&
	    !parse_attrs(at->v[NFTA_SET_DESC], at->len[NFTA_SET_DESC], &desc) &&
	    desc.v[NFTA_SET_DESC_CONCAT])
		return each_elem(desc.v[NFTA_SET_DESC_CONCAT],
				 desc.len[NFTA_SET_DESC_CONCAT], set_field, s);
	return 0;
}

static int set_elem(void *ctx, const uint8_t *v, size_t len)
{
	struct dm_set *s = ctx;
	struct dm_elem *x;
	struct attrs e;

	if (parse_attrs(v, len, &e) || s->nelems == DM_MAX_ELEMS)
		return -1;
	if (!(s->nelems & (s->nelems - 1))) { /* 0, 1, 2, 4, ... */
		void *nv = realloc(s->elems, (s->nelems ? 2 * s->nelems : 1) *
						 sizeof(*s->elems));

		if (!nv)
			return -1;
		s->elems = nv;
	}
	x = &s->elems[s->nelems++];
	memset(x, 0, sizeof(*x));
	if (data_value(&e, NFTA_SET_ELEM_KEY, x->key, 24) != s->key_len)
		return -1;
	if (!e.v[NFTA_SET_ELEM_KEY_END])
		memcpy(x->end, x->key, sizeof(x->end));
	else if (data_value(&e, NFTA_SET_ELEM_KEY_END, x->end, 24) !=
		 s->key_len)
		return -1;
	return 0;
}

static int nft_newsetelem(struct dart *a, const struct attrs *at)
{
	char name[32];
	struct dm_set *s;

	str_at(at, NFTA_SET_ELEM_LIST_SET, name, sizeof(name));
	s = set_named(a, name);
	if (!s || !at->v[NFTA_SET_ELEM_LIST_ELEMENTS])
		return -1;
	return each_elem(at->v[NFTA_SET_ELEM_LIST_ELEMENTS],
			 at->len[NFTA_SET_ELEM_LIST_ELEMENTS], set_elem, s);
}

/* One expression: its name and the attributes the model evaluates. */
static int nft_expr(struct dm_expr *x, const uint8_t *p, size_t n)
{
	struct attrs e, d;

	memset(x, 0, sizeof(*x));
	if (parse_attrs(p, n, &e) || !e.v[NFTA_EXPR_NAME])
		return -1;
	str_at(&e, NFTA_EXPR_NAME, x->name, sizeof(x->name));
	if (!e.v[NFTA_EXPR_DATA])
		return 0;
	if (parse_attrs(e.v[NFTA_EXPR_DATA], e.len[NFTA_EXPR_DATA], &d))
		return -1;
	for (int t = 1; t < 8; t++)
		if (d.v[t] && d.len[t] == 4)
			x->a[t] = be32_at(&d, t);
	if (!strcmp(x->name, "cmp")) {
		x->dlen = data_value(&d, NFTA_CMP_DATA, x->data, 16);
	} else if (!strcmp(x->name, "bitwise")) {
		x->dlen = data_value(&d, NFTA_BITWISE_MASK, x->data, 16);
		x->d2len = data_value(&d, NFTA_BITWISE_XOR, x->data2, 16);
	} else if (!strcmp(x->name, "lookup")) {
		str_at(&d, NFTA_LOOKUP_SET, x->str, sizeof(x->str));
	} else if (!strcmp(x->name, "immediate")) {
		struct attrs v, vd;

		if (!d.v[NFTA_IMMEDIATE_DATA] ||
		    parse_attrs(d.v[NFTA_IMMEDIATE_DATA],
				d.len[NFTA_IMMEDIATE_DATA], &v) ||
		    !v.v[NFTA_DATA_VERDICT] ||
		    parse_attrs(v.v[NFTA_DATA_VERDICT],
				v.len[NFTA_DATA_VERDICT], &vd))
			return -1;
		x->verdict = (int32_t)be32_at(&vd, NFTA_VERDICT_CODE);
		str_at(&vd, NFTA_VERDICT_CHAIN, x->str, sizeof(x->str));
	}
	return 0;
}

static int rule_expr(void *ctx, const uint8_t *v, size_t len)
{
	struct dm_rule *r = ctx;

	if (r->nexprs == DM_MAX_EXPRS)
		return -1;
	return nft_expr(&r->x[r->nexprs++], v, len);
}

static int nft_newrule(struct dart *a, const struct attrs *at)
{
	struct dm_rule *r;

	if (a->nrules == DM_MAX_RULES || !at->v[NFTA_RULE_EXPRESSIONS])
		return -1;
	r = &a->rules[a->nrules++];
	memset(r, 0, sizeof(*r));
	str_at(at, NFTA_RULE_CHAIN, r->chain, sizeof(r->chain));
	return each_elem(at->v[NFTA_RULE_EXPRESSIONS],
			 at->len[NFTA_RULE_EXPRESSIONS], rule_expr, r);
}

static int load_nft(struct dart *a, const struct polbin_section *s, char *err,
		    size_t errlen)
{
	size_t off = 0;

	if (!s)
		return a->net_mode == POLBIN_NET_FILTERED
			   ? fail(err, errlen, "nft: filtered without a table")
			   : 0;
	while (off + sizeof(struct nlmsghdr) + 4 <= s->len) {
		const uint8_t *m = s->data + off;
		uint32_t ml = le32(m);
		uint16_t type = le16(m + 4);
		struct attrs at;
		int rc = 0;

		if (ml < 20 || off + ml > s->len ||
		    type >> 8 != NFNL_SUBSYS_NFTABLES)
			return fail(err, errlen, "nft: message");
		if (parse_attrs(m + 20, ml - 20, &at))
			return fail(err, errlen, "nft: attributes");
		switch (type & 0xff) {
		case NFT_MSG_NEWCHAIN: {
			char name[16];

			str_at(&at, NFTA_CHAIN_NAME, name, sizeof(name));
			if (!strcmp(name, "output"))
				a->output_policy_drop =
				    at.v[NFTA_CHAIN_POLICY] &&
				    be32_at(&at, NFTA_CHAIN_POLICY) == NF_DROP;
			break;
		}
		case NFT_MSG_NEWSET:
			rc = nft_newset(a, &at);
			break;
		case NFT_MSG_NEWSETELEM:
			rc = nft_newsetelem(a, &at);
			break;
		case NFT_MSG_NEWRULE:
			rc = nft_newrule(a, &at);
			break;
		default:
			break;
		}
		if (rc)
			return fail(err, errlen,
				    "nft: a message the model cannot "
				    "read");
		off += (ml + 3u) & ~3u;
	}
	for (uint32_t i = 0; i < a->nrules; i++)
		for (uint32_t k = 0; k < a->rules[i].nexprs; k++)
			if (!strcmp(a->rules[i].chain, "blocked") &&
			    !strcmp(a->rules[i].x[k].name, "immediate") &&
			    a->rules[i].x[k].verdict == NF_ACCEPT)
				a->blocked_accepts = 1;
	return off == s->len ? 0 : fail(err, errlen, "nft: trailing");
}

int dart_load(struct dart *a, const uint8_t *buf, size_t len, char *err,
	      size_t errlen)
{
	static const uint32_t known[] = {
	    POLBIN_SEC_IR,	 POLBIN_SEC_META, POLBIN_SEC_SECCOMP,
	    POLBIN_SEC_LANDLOCK, POLBIN_SEC_NFT,  POLBIN_SEC_LIMITS,
	    POLBIN_SEC_ENV,	 POLBIN_SEC_NET,  POLBIN_SEC_VIEW,
	    POLBIN_SEC_NOEXEC,	 POLBIN_SEC_EBPF, 0,
	};
	const struct polbin_section *s;

	memset(a, 0, sizeof(*a));
	if (polbin_parse(buf, len, known, &a->pb, err, errlen))
		return -1;
	s = polbin_find(&a->pb, POLBIN_SEC_SECCOMP);
	if (s) {
		struct sock_filter *f;

		if (s->len % sizeof(*f) || !s->len)
			return fail(err, errlen, "seccomp: length");
		f = malloc(s->len);
		if (!f)
			return fail(err, errlen, "out of memory");
		memcpy(f, s->data, s->len);
		a->prog = f;
		a->ninsns = s->len / sizeof(*f);
		if (bpf_check(a->prog, a->ninsns, err, errlen))
			return -1;
	}
	if (load_landlock(a, polbin_find(&a->pb, POLBIN_SEC_LANDLOCK), err,
			  errlen) ||
	    load_view(a, polbin_find(&a->pb, POLBIN_SEC_VIEW), err, errlen) ||
	    load_net(a, polbin_find(&a->pb, POLBIN_SEC_NET), err, errlen) ||
	    load_nft(a, polbin_find(&a->pb, POLBIN_SEC_NFT), err, errlen) ||
	    load_limits(a, polbin_find(&a->pb, POLBIN_SEC_LIMITS), err,
			errlen) ||
	    load_env(a, polbin_find(&a->pb, POLBIN_SEC_ENV), err, errlen))
		return -1;
	a->ebpf = polbin_find(&a->pb, POLBIN_SEC_EBPF) != NULL;
	return 0;
}

void dart_free(struct dart *a)
{
	free((void *)(uintptr_t)a->prog);
	for (uint32_t i = 0; i < a->nsets; i++)
		free(a->sets[i].elems);
	memset(a, 0, sizeof(*a));
}

/* ---- seccomp ------------------------------------------------------------ */

int dm_sys_rank(const struct dart *a, const struct seccomp_data *d)
{
	struct bpf_run_result r;
	char err[128];

	if (!a->prog)
		return 5;
	if (bpf_run(a->prog, a->ninsns, d, &r, err, sizeof(err)))
		return -1;
	switch (r.ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		return 0;
	case SECCOMP_RET_KILL_THREAD:
		return 1;
	case SECCOMP_RET_TRAP:
		return 2;
	case SECCOMP_RET_ERRNO:
		return 3;
	case SECCOMP_RET_LOG:
		return 4;
	case SECCOMP_RET_ALLOW:
		return 5;
	}
	return -1;
}

/* ---- Landlock: paths ---------------------------------------------------- */

int dm_bind(const struct dm_world *w, const char *path, char *out, size_t len)
{
	const char *name = "HOME", *rest = path + 1, *val = NULL;
	size_t nl = 4;
	char fresh[160];
	int n;

	if (path[0] == '/')
		return snprintf(out, len, "%s", path) >= (int)len ? -1 : 0;
	if (path[0] == '$') {
		const char *e = strchr(path, '}');

		if (!e)
			return -1;
		name = path + 2;
		nl = (size_t)(e - name);
		rest = e + 1;
	}
	for (unsigned i = 0; i < w->nvars; i++)
		if (strlen(w->var[i]) == nl && !strncmp(w->var[i], name, nl))
			val = w->val[i];
	if (!val) {
		snprintf(fresh, sizeof(fresh), "/.dm-fresh/var/%.*s", (int)nl,
			 name);
		val = fresh;
	}
	if (!strcmp(val, "/"))
		n = snprintf(out, len, "%s", *rest ? rest : "/");
	else
		n = snprintf(out, len, "%s%s", val, rest);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Is literal a the folder b or one holding it? */
static int holds(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return 1;
	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/*
 * Where entry i of the view lies in w: a bind at its rule's path bound
 * (through the symlink: not there without follow, on the target with
 * it), the others at their own path. 0, or -1 when it is not there.
 */
static int view_at(const struct dart *a, const struct dm_world *w, uint32_t i,
		   char *out, size_t len)
{
	const struct dm_view_entry *e = &a->view[i];
	char b[DM_PATH * 2];

	if (e->kind == POLBIN_VIEW_LINK)
		return -1;
	if (e->kind != POLBIN_VIEW_BIND)
		return snprintf(out, len, "%s", e->path) >= (int)len ? -1 : 0;
	if (dm_bind(w, a->fs[e->rule].path, b, sizeof(b)))
		return -1;
	if (w->symlink && strcmp(w->symlink, "/") && holds(w->symlink, b)) {
		if (!(a->fs[e->rule].flags & POLBIN_LL_F_FOLLOW))
			return -1;
		/*
		 * The view shows the target's data at the rule's own path;
		 * rights are on data, so they count where the data is.
		 */
		return snprintf(out, len, "%s%s", w->target,
				b + strlen(w->symlink)) >= (int)len
			   ? -1
			   : 0;
	}
	return snprintf(out, len, "%s", b) >= (int)len ? -1 : 0;
}

int dm_view_refuses(const struct dart *a, const struct dm_world *w)
{
	if (!a->view_root || w->noview)
		return 0;
	for (uint32_t i = 0; i < a->nview; i++) {
		char b[DM_PATH * 2];

		if (a->view[i].kind != POLBIN_VIEW_BIND ||
		    view_at(a, w, i, b, sizeof(b)))
			continue;
		for (uint32_t j = 0; j < a->nview; j++) {
			const struct dm_view_entry *o = &a->view[j];

			if (o->kind == POLBIN_VIEW_TMPFS ||
			    o->kind == POLBIN_VIEW_DEV ||
			    o->kind == POLBIN_VIEW_PROC) {
				size_t n = strlen(o->path);

				if (!strcmp(o->path, b) ||
				    (o->kind == POLBIN_VIEW_PROC &&
				     !strncmp(o->path, b, n) && b[n] == '/'))
					return 1;
			}
		}
	}
	return 0;
}

/*
 * The view (docs/VIEW.md, from the VIEW section): what no entry holds, or
 * what the deepest entry holding it is a mount of the box's own for, is
 * none of the host's; else Landlock's rights (every rule holding loc, the
 * own mounts' rules among them, and what is not handled), less what each
 * bind holding loc beneath the deepest own mount holding it keeps of its
 * attributes (polexec keeps a restriction only where every enclosing bind
 * has it too; a bind that lands in a mount of the box's own keeps all of
 * its own: "a ro grant inside a tmpfs is a read-only mount").
 */
static uint32_t view_rights(const struct dart *a, const struct dm_world *w,
			    const char *loc)
{
	uint32_t acc = (uint32_t)(~a->handled_fs & 0x1ffffu);
	uint8_t attrs = 0xff;
	size_t deepest = 0;
	long mount = -1;
	int any = 0, own = 0;

	for (uint32_t i = 0; i < a->nview; i++) {
		const struct dm_view_entry *e = &a->view[i];
		char b[DM_PATH * 2];

		if (e->kind == POLBIN_VIEW_BIND ||
		    view_at(a, w, i, b, sizeof(b)) || !holds(b, loc))
			continue;
		if ((long)strlen(b) > mount)
			mount = (long)strlen(b);
	}
	for (uint32_t i = 0; i < a->nview; i++) {
		const struct dm_view_entry *e = &a->view[i];
		char b[DM_PATH * 2];
		size_t n;

		if (view_at(a, w, i, b, sizeof(b)) || !holds(b, loc))
			continue;
		n = strcmp(b, "/") ? strlen(b) : 0;
		if (!any || n >= deepest) {
			deepest = n;
			own = e->kind != POLBIN_VIEW_BIND;
		}
		any = 1;
		if (e->kind == POLBIN_VIEW_BIND) {
			acc |= (uint32_t)a->fs[e->rule].access;
			if ((long)n > mount)
				attrs &= e->attrs;
		} else {
			acc |= (uint32_t)e->access;
		}
	}
	if (!any || own)
		return 0;
	if (attrs & POLBIN_VIEW_A_RDONLY)
		acc &= ~(uint32_t)(0x7ff2u | 0x4000u); /* every tree change */
	if (attrs & POLBIN_VIEW_A_NOEXEC)
		acc &= ~1u;
	if (attrs & POLBIN_VIEW_A_NODEV)
		acc &= ~(uint32_t)0x8000u;
	return acc & 0x1ffffu;
}

uint32_t dm_fs_rights(const struct dart *a, const struct dm_world *w,
		      const char *loc)
{
	uint32_t acc;

	if (!a->ll_on || !a->handled_fs)
		return 0x1ffffu;
	if (a->view_root && !w->noview)
		return view_rights(a, w, loc);
	acc = (uint32_t)(~a->handled_fs & 0x1ffffu);
	for (uint32_t i = 0; i < a->nfs; i++) {
		char b[DM_PATH * 2], t[DM_PATH * 3];
		const char *at = b;

		if (dm_bind(w, a->fs[i].path, b, sizeof(b)))
			continue;
		if (w->symlink && strcmp(w->symlink, "/") &&
		    holds(w->symlink, b)) {
			/* opened without following symlinks unless the rule
			 * says follow: then it lands on the target */
			if (!(a->fs[i].flags & POLBIN_LL_F_FOLLOW))
				continue;
			snprintf(t, sizeof(t), "%s%s", w->target,
				 b + strlen(w->symlink));
			at = t;
		}
		if (holds(at, loc))
			acc |= (uint32_t)a->fs[i].access;
	}
	return acc & 0x1ffffu;
}

int dm_own_at(const struct dart *a, const char *p, uint64_t *size,
	      uint32_t *rights)
{
	for (uint32_t i = 0; a->view_root && i < a->nview; i++) {
		const struct dm_view_entry *e = &a->view[i];

		if (e->kind == POLBIN_VIEW_BIND ||
		    e->kind == POLBIN_VIEW_LINK || strcmp(e->path, p))
			continue;
		*size = e->size;
		*rights = (uint32_t)(e->access | (~a->handled_fs & 0x1ffffu));
		if (e->kind == POLBIN_VIEW_TMPFS &&
		    !(e->attrs & POLBIN_VIEW_A_NOEXEC))
			*rights |= 1u;
		return e->kind;
	}
	return 0;
}

/* ---- net: the output chain, run as the kernel runs it ------------------- */

struct pkt {
	uint8_t nfproto, l4proto;
	uint32_t oif, ct_state;
	uint8_t nh[40], th[8];
};

struct vm {
	uint32_t reg[20]; /* 4-byte words; 0..3 the verdict */
	const struct dart *a;
	const struct dm_net_point *p;
};

/* The kernel's register numbering: NFT_REG_1..4 are 16 bytes each. */
static int reg_word(uint32_t r)
{
	if (r <= NFT_REG_4)
		return (int)(r * 4);
	if (r >= NFT_REG32_00 && r <= NFT_REG32_15)
		return (int)(r - NFT_REG32_00 + 4);
	return -1;
}

static uint8_t *reg_bytes(struct vm *v, uint32_t r, uint32_t len)
{
	int w = reg_word(r);

	if (w < 4 || (size_t)w * 4 + len > sizeof(v->reg))
		return NULL;
	return (uint8_t *)&v->reg[w];
}

static int field_in(const uint8_t *k, const uint8_t *lo, const uint8_t *hi,
		    uint32_t n)
{
	return memcmp(k, lo, n) >= 0 && memcmp(k, hi, n) <= 0;
}

/* Is key in the set? Interval sets match field by field (pipapo). */
static int set_has(const struct vm *v, const struct dm_set *s,
		   const uint8_t *key)
{
	if (!strncmp(s->name, "rt", 2)) {
		int fam = s->name[2] == '4' ? 4 : 6;
		/* rt4_<i>, rt6_<i>: what polexec adds at start, the
		 * addresses the world binds entry i's name to */
		unsigned i = (unsigned)atoi(s->name + 4);

		if (i >= v->a->nrt || fam != v->p->family)
			return 0;
		for (unsigned k = 0; k < v->p->nnames; k++)
			if (!strcmp(v->p->names[k], v->a->rt[i].name))
				return !memcmp(key, v->p->addr,
					       fam == 4 ? 4 : 16);
		return 0;
	}
	for (uint32_t e = 0; e < s->nelems; e++) {
		const struct dm_elem *x = &s->elems[e];
		uint32_t off = 0, f;

		if (!(s->flags & NFT_SET_INTERVAL)) {
			if (!memcmp(key, x->key, s->key_len))
				return 1;
			continue;
		}
		for (f = 0; f < s->nfields; f++) {
			if (!field_in(key + off, x->key + off, x->end + off,
				      s->field[f]))
				break;
			off += (s->field[f] + 3u) & ~3u;
		}
		if (f == s->nfields)
			return 1;
	}
	return 0;
}

/* 1 the rule goes on, 0 it breaks, -1 unknown; a verdict into *verdict. */
static int expr_eval(struct vm *v, const struct pkt *k, const struct dm_expr *x,
		     int32_t *verdict, char *chain)
{
	uint8_t *d, *s;

	if (!strcmp(x->name, "meta")) {
		d = reg_bytes(v, x->a[NFTA_META_DREG], 4);
		if (!d)
			return -1;
		memset(d, 0, 4);
		switch (x->a[NFTA_META_KEY]) {
		case NFT_META_NFPROTO:
			d[0] = k->nfproto;
			return 1;
		case NFT_META_L4PROTO:
			d[0] = k->l4proto;
			return 1;
		case NFT_META_OIF:
			memcpy(d, &k->oif, 4);
			return 1;
		}
		return -1;
	}
	if (!strcmp(x->name, "payload")) {
		uint32_t len = x->a[NFTA_PAYLOAD_LEN],
			 off = x->a[NFTA_PAYLOAD_OFFSET];
		const uint8_t *h =
		    x->a[NFTA_PAYLOAD_BASE] == NFT_PAYLOAD_NETWORK_HEADER
			? k->nh
		    : x->a[NFTA_PAYLOAD_BASE] == NFT_PAYLOAD_TRANSPORT_HEADER
			? k->th
			: NULL;
		size_t hl = h == k->nh ? sizeof(k->nh) : sizeof(k->th);

		d = reg_bytes(v, x->a[NFTA_PAYLOAD_DREG], (len + 3) & ~3u);
		if (!h || !d || off + len > hl)
			return -1;
		memset(d, 0, (len + 3) & ~3u);
		memcpy(d, h + off, len);
		return 1;
	}
	if (!strcmp(x->name, "cmp")) {
		int c;

		s = reg_bytes(v, x->a[NFTA_CMP_SREG], x->dlen);
		if (!s || !x->dlen)
			return -1;
		c = memcmp(s, x->data, x->dlen);
		switch (x->a[NFTA_CMP_OP]) {
		case NFT_CMP_EQ:
			return c == 0;
		case NFT_CMP_NEQ:
			return c != 0;
		case NFT_CMP_LT:
			return c < 0;
		case NFT_CMP_LTE:
			return c <= 0;
		case NFT_CMP_GT:
			return c > 0;
		case NFT_CMP_GTE:
			return c >= 0;
		}
		return -1;
	}
	if (!strcmp(x->name, "lookup")) {
		const struct dm_set *set = NULL;
		int inv = (x->a[NFTA_LOOKUP_FLAGS] & NFT_LOOKUP_F_INV) != 0;

		for (uint32_t i = 0; i < v->a->nsets; i++)
			if (!strcmp(v->a->sets[i].name, x->str))
				set = &v->a->sets[i];
		if (!set)
			return -1;
		s = reg_bytes(v, x->a[NFTA_LOOKUP_SREG], set->key_len);
		if (!s || x->a[NFTA_LOOKUP_DREG])
			return -1;
		return set_has(v, set, s) != inv;
	}
	if (!strcmp(x->name, "byteorder")) {
		/* as nft_byteorder_eval: len / size elements */
		uint32_t len = x->a[NFTA_BYTEORDER_LEN],
			 size = x->a[NFTA_BYTEORDER_SIZE];

		s = reg_bytes(v, x->a[NFTA_BYTEORDER_SREG], len);
		d = reg_bytes(v, x->a[NFTA_BYTEORDER_DREG], len);
		if (!s || !d || size != 2)
			return -1;
		for (uint32_t i = 0; i < len / 2; i++) {
			uint16_t h;

			memcpy(&h, s + 2 * i, 2);
			h = htons(h);
			memcpy(d + 2 * i, &h, 2);
		}
		return 1;
	}
	if (!strcmp(x->name, "bitwise")) {
		uint32_t len = x->a[NFTA_BITWISE_LEN];

		s = reg_bytes(v, x->a[NFTA_BITWISE_SREG], len);
		d = reg_bytes(v, x->a[NFTA_BITWISE_DREG], len);
		if (!s || !d || x->dlen != len || x->d2len != len ||
		    x->a[NFTA_BITWISE_OP])
			return -1;
		for (uint32_t i = 0; i < len; i++)
			d[i] = (uint8_t)((s[i] & x->data[i]) ^ x->data2[i]);
		return 1;
	}
	if (!strcmp(x->name, "ct")) {
		d = reg_bytes(v, x->a[NFTA_CT_DREG], 4);
		if (!d || x->a[NFTA_CT_KEY] != NFT_CT_STATE)
			return -1;
		memcpy(d, &k->ct_state, 4);
		return 1;
	}
	if (!strcmp(x->name, "immediate")) {
		if (x->a[NFTA_IMMEDIATE_DREG] != NFT_REG_VERDICT)
			return -1;
		*verdict = x->verdict;
		snprintf(chain, 32, "%s", x->str);
		return 1;
	}
	return -1;
}

/* The output chain's verdict on a new connection: 1 accept, 0 not. */
static int chain_accepts(const struct dart *a, const struct dm_net_point *p)
{
	struct vm v = {.a = a, .p = p};
	struct pkt k = {0};

	if (!a->output_policy_drop || a->blocked_accepts)
		return -1;
	k.nfproto = p->family == 4 ? NFPROTO_IPV4 : NFPROTO_IPV6;
	k.l4proto = p->proto;
	k.oif = 2;	      /* not lo (1): the box's way out */
	k.ct_state = 1u << 3; /* NF_CT_STATE_BIT(IP_CT_NEW) */
	memcpy(k.nh + (p->family == 4 ? 16 : 24), p->addr,
	       p->family == 4 ? 4 : 16);
	k.th[0] = 0x9c; /* any source port */
	k.th[2] = (uint8_t)(p->port >> 8);
	k.th[3] = (uint8_t)p->port;
	for (uint32_t i = 0; i < a->nrules; i++) {
		const struct dm_rule *r = &a->rules[i];
		int32_t verdict = NFT_CONTINUE;
		char chain[32] = "";

		if (strcmp(r->chain, "output"))
			continue;
		for (uint32_t e = 0; e < r->nexprs; e++) {
			int rc = expr_eval(&v, &k, &r->x[e], &verdict, chain);

			if (rc < 0)
				return -1;
			if (rc == 0) {
				verdict = NFT_BREAK;
				break;
			}
		}
		if (verdict == NF_ACCEPT)
			return 1;
		if (verdict == NF_DROP ||
		    ((verdict == NFT_GOTO || verdict == NFT_JUMP) &&
		     !strcmp(chain, "blocked")))
			return 0; /* the blocked chain never accepts */
		if (verdict != NFT_CONTINUE && verdict != NFT_BREAK)
			return -1;
	}
	return 0; /* the chain's policy: drop */
}

static int in_loop(const struct dart *a, uint16_t port)
{
	for (uint32_t i = 0; i < a->nloop; i++)
		if (a->loop[i].lo <= port && port <= a->loop[i].hi)
			return 1;
	return 0;
}

/* Landlock's TCP port rules: a handled access allows the listed ports. */
static int ll_port(const struct dart *a, uint32_t access, uint16_t port)
{
	if (!a->ll_on || !(a->handled_net & access))
		return 1;
	for (uint32_t i = 0; i < a->nports; i++)
		if (a->ports[i].access == access && a->ports[i].lo <= port &&
		    port <= a->ports[i].hi)
			return 1;
	return 0;
}

int dm_net_reaches(const struct dart *a, const struct dm_net_point *p)
{
	int host = a->net_mode < 0, tcp = p->proto == 6, r;

	switch (p->kind) {
	case DM_NET_HOSTNET:
		return host;
	case DM_NET_SHARED:
		return host || a->ebpf;
	case DM_NET_BIND:
		/* inside the box's own namespace a port faces the box */
		return host && ll_port(a, POLBIN_LL_NET_BIND, p->port);
	case DM_NET_LOOPBACK:
		if (host)
			return ll_port(a, POLBIN_LL_NET_CONNECT, p->port);
		return in_loop(a, p->port) &&
		       ll_port(a, POLBIN_LL_NET_CONNECT, p->port);
	default:
		break;
	}
	if (tcp && !ll_port(a, POLBIN_LL_NET_CONNECT, p->port))
		return 0;
	if (host)
		return 1;
	if (a->net_mode != POLBIN_NET_FILTERED)
		return 0;
	r = chain_accepts(a, p);
	return r;
}

/* ---- limits, env, Landlock requirement ---------------------------------- */

int dm_ceiling(const struct dart *a, int c, uint64_t *v)
{
	static const unsigned lim[DM_C_COUNT] = {
	    POLBIN_LIM_MEMORY, POLBIN_LIM_PIDS, POLBIN_LIM_NOFILE,
	    POLBIN_LIM_CPU,    POLBIN_LIM_WALL, POLBIN_LIM_FSIZE,
	    POLBIN_LIM_CORE,
	};
	uint64_t grace =
	    a->lim_set >> POLBIN_LIM_GRACE & 1 ? a->lim[POLBIN_LIM_GRACE] : 0;
	unsigned i = lim[c];

	if (!(a->lim_set >> i & 1))
		return 0;
	*v = a->lim[i];
	/* SIGKILL one grace after SIGTERM (limits_run.c), and RLIMIT_CPU's
	 * hard limit one grace, in whole seconds, after its soft one */
	if (c == DM_C_TIME)
		*v += grace;
	if (c == DM_C_CPU)
		*v = (*v + 999) / 1000 + (grace + 999) / 1000;
	return 1;
}

int dm_limits_require(const struct dart *a)
{
	return (a->lim_flags & POLBIN_LIMITS_F_REQUIRE) != 0;
}

int dm_limit_set(const struct dart *a, unsigned i)
{
	return a->lim_set >> (i ? POLBIN_LIM_PIDS : POLBIN_LIM_MEMORY) & 1;
}

int dm_env_gives(const struct dart *a, const struct dm_env *e)
{
	for (uint32_t i = 0; i < a->nenv; i++)
		if (a->env[i].kind == e->kind &&
		    !strcmp(a->env[i].name, e->name) &&
		    !strcmp(a->env[i].value, e->value) &&
		    !strcmp(a->env[i].dest, e->dest))
			return 1;
	return 0;
}

int dm_ll_runs(const struct dart *a, uint32_t k)
{
	return !a->ll_on || a->ll_mode == POLBIN_LL_BEST_EFFORT ||
	       (k >= 1 && k >= a->ll_abi);
}

int dm_ll_scoped(const struct dart *a, uint32_t k)
{
	return a->ll_on && a->scoped && k >= 6 && dm_ll_runs(a, k);
}
