/* SPDX-License-Identifier: MIT */
/*
 * The canonical byte encoding of the IR (docs/ARTIFACT.md, "IR section").
 * Fields are written in one fixed order, integers little-endian, strings as
 * u32 length + bytes. The decoder treats its input as hostile: every count,
 * enum and string is checked, and a decoded IR must re-encode to the same
 * bytes, so a non-canonical (reordered, duplicated) section is refused too.
 */
#include "ir.h"
#include "tables/tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static void put(struct wbuf *w, const void *d, size_t n)
{
	if (w->oom)
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		uint8_t *np;

		while (cap < w->len + n)
			cap *= 2;
		np = realloc(w->p, cap);
		if (!np) {
			w->oom = 1;
			return;
		}
		w->p = np;
		w->cap = cap;
	}
	memcpy(w->p + w->len, d, n);
	w->len += n;
}

static void put_u8(struct wbuf *w, uint8_t v)
{
	put(w, &v, 1);
}

static void put_u16(struct wbuf *w, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};

	put(w, b, 2);
}

static void put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			(uint8_t)(v >> 24)};

	put(w, b, 4);
}

static void put_u64(struct wbuf *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void put_str(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u8(w, s != NULL);
	put_u32(w, (uint32_t)n);
	put(w, s ? s : "", n);
}

static void put_action(struct wbuf *w, const struct ir_action *a)
{
	put_u8(w, a->kind);
	put_u16(w, a->errnum);
}

static void put_ranges(struct wbuf *w, uint32_t n,
		       const struct ir_port_range *r)
{
	uint32_t i;

	put_u32(w, n);
	for (i = 0; i < n; i++) {
		put_u16(w, r[i].lo);
		put_u16(w, r[i].hi);
	}
}

static void put_sys(struct wbuf *w, const struct ir_syscalls *s)
{
	uint32_t i, j, k;

	put_u8(w, (uint8_t)s->present);
	put_action(w, &s->def);
	put_action(w, &s->badarch);
	put_u32(w, s->ncalls);
	for (i = 0; i < s->ncalls; i++) {
		const struct ir_syscall *sc = &s->calls[i];

		put_str(w, sc->name);
		put_u32(w, sc->nrules);
		for (j = 0; j < sc->nrules; j++) {
			const struct ir_rule *r = &sc->rules[j];

			put_action(w, &r->action);
			put_u8(w, (uint8_t)r->natoms);
			for (k = 0; k < r->natoms; k++) {
				const struct ir_atom *a = &r->atoms[k];

				put_u8(w, a->arg);
				put_u8(w, a->width);
				put_u8(w, a->op);
				put_u64(w, a->mask);
				put_u64(w, a->value);
			}
		}
	}
}

int ir_serialize(const struct ir_policy *p, uint8_t **out, size_t *len)
{
	struct wbuf w = {0};
	uint32_t i;

	put_u32(&w, IR_VERSION);
	put_str(&w, p->name);
	put_u8(&w, (uint8_t)p->landlock.present);
	put_u32(&w, p->landlock.abi_min);
	put_u8(&w, (uint8_t)p->landlock.mode);
	put_u8(&w, (uint8_t)p->user.present);
	put_u32(&w, p->user.uid);
	put_u32(&w, p->user.gid);
	put_u8(&w, (uint8_t)p->fs.present);
	put_u8(&w, (uint8_t)p->fs.mode);
	put_u32(&w, p->fs.nrules);
	for (i = 0; i < p->fs.nrules; i++) {
		put_str(&w, p->fs.rules[i].path);
		put_u32(&w, p->fs.rules[i].rights);
		put_u32(&w, p->fs.rules[i].flags);
		put_u8(&w, p->fs.rules[i].kind);
		put_u64(&w, p->fs.rules[i].size);
	}
	put_u32(&w, p->fs.observe);
	put_str(&w, p->fs.workspace);
	put_u8(&w, (uint8_t)p->net.present);
	put_u8(&w, (uint8_t)p->net.mode);
	put_u8(&w, (uint8_t)p->net.backend);
	put_u32(&w, p->net.nentries);
	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];

		put_u8(&w, e->verdict);
		put_u8(&w, e->kind);
		put_u8(&w, e->prefix);
		put_u8(&w, e->proto);
		put(&w, e->addr, sizeof(e->addr));
		put_str(&w, e->name);
		put_u16(&w, e->port_lo);
		put_u16(&w, e->port_hi);
	}
	put_ranges(&w, p->net.nloopback, p->net.loopback);
	put_ranges(&w, p->net.nconnect, p->net.connect);
	put_ranges(&w, p->net.nbind, p->net.bind);
	put_sys(&w, &p->sys);
	put_u8(&w, (uint8_t)p->limits.present);
	put_u8(&w, (uint8_t)p->limits.mode);
	put_u32(&w, p->limits.set);
	for (i = 0; i < IR_LIM_COUNT; i++)
		put_u64(&w, p->limits.value[i]);
	put_u8(&w, (uint8_t)p->env.present);
	put_u32(&w, p->env.nentries);
	for (i = 0; i < p->env.nentries; i++) {
		put_u8(&w, p->env.entries[i].kind);
		put_str(&w, p->env.entries[i].name);
		put_str(&w, p->env.entries[i].value);
		put_str(&w, p->env.entries[i].dest);
	}
	if (w.oom) {
		free(w.p);
		return IR_ENOMEM;
	}
	*out = w.p;
	*len = w.len;
	return IR_OK;
}

/* ---- decoding ---------------------------------------------------------- */

struct rbuf {
	const uint8_t *p;
	size_t len, off;
	char *err;
	size_t errlen;
	int failed;
};

static void rfail(struct rbuf *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void rfail(struct rbuf *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	if (r->err && r->errlen) {
		int n = snprintf(r->err, r->errlen, "IR at byte %zu: ", r->off);

		if (n >= 0 && (size_t)n < r->errlen) {
			va_start(ap, fmt);
			vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
}

static const uint8_t *take(struct rbuf *r, size_t n)
{
	const uint8_t *p;

	if (r->failed)
		return NULL;
	if (n > r->len - r->off) {
		rfail(r, "truncated (needs %zu more bytes)", n);
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

static uint8_t get_u8(struct rbuf *r)
{
	const uint8_t *p = take(r, 1);

	return p ? p[0] : 0;
}

static uint16_t get_u16(struct rbuf *r)
{
	const uint8_t *p = take(r, 2);

	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

static uint32_t get_u32(struct rbuf *r)
{
	const uint8_t *p = take(r, 4);

	return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24
		 : 0;
}

static uint64_t get_u64(struct rbuf *r)
{
	uint64_t lo = get_u32(r);

	return lo | (uint64_t)get_u32(r) << 32;
}

static uint32_t get_count(struct rbuf *r, uint32_t max, const char *what)
{
	uint32_t n = get_u32(r);

	if (n > max) {
		rfail(r, "%s count %u exceeds %u", what, n, max);
		return 0;
	}
	return n;
}

static uint8_t get_bool(struct rbuf *r)
{
	uint8_t v = get_u8(r);

	if (v > 1)
		rfail(r, "flag byte %u is not 0 or 1", v);
	return v;
}

/* Returns a malloc'd string, NULL when absent or on error. */
static char *get_str(struct rbuf *r, int required)
{
	uint8_t has = get_bool(r);
	uint32_t n = get_count(r, IR_MAX_STR, "string length");
	const uint8_t *p = take(r, n);
	char *s;

	if (r->failed)
		return NULL;
	if (!has) {
		if (n)
			rfail(r, "absent string with length %u", n);
		else if (required)
			rfail(r, "required string is absent");
		return NULL;
	}
	if (memchr(p, 0, n)) {
		rfail(r, "string holds a NUL byte");
		return NULL;
	}
	s = malloc(n + 1);
	if (!s) {
		rfail(r, "out of memory");
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static void get_action(struct rbuf *r, struct ir_action *a)
{
	a->kind = get_u8(r);
	a->errnum = get_u16(r);
	if (a->kind > IR_ACT_ALLOW)
		rfail(r, "unknown action %u", a->kind);
	else if (a->errnum > 4095 ||
		 (a->kind != IR_ACT_ERRNO && a->errnum != 0))
		rfail(r, "bad errno %u", a->errnum);
}

static void *alloc_array(struct rbuf *r, uint32_t n, size_t size)
{
	void *p;

	if (r->failed || n == 0)
		return NULL;
	p = calloc(n, size);
	if (!p)
		rfail(r, "out of memory");
	return p;
}

static struct ir_port_range *get_ranges(struct rbuf *r, uint32_t *n)
{
	struct ir_port_range *v;
	uint32_t i;

	*n = get_count(r, IR_MAX_NET, "port range");
	v = alloc_array(r, *n, sizeof(*v));
	for (i = 0; v && i < *n; i++) {
		v[i].lo = get_u16(r);
		v[i].hi = get_u16(r);
		if (v[i].lo > v[i].hi)
			rfail(r, "port range %u-%u is empty", v[i].lo, v[i].hi);
	}
	if (!v)
		*n = 0;
	return v;
}

static void get_atom(struct rbuf *r, struct ir_atom *a)
{
	a->arg = get_u8(r);
	a->width = get_u8(r);
	a->op = get_u8(r);
	a->mask = get_u64(r);
	a->value = get_u64(r);
	if (a->arg > 5)
		rfail(r, "argument index %u", a->arg);
	if (a->width != 32 && a->width != 64)
		rfail(r, "argument width %u", a->width);
	if (a->op > IR_OP_GE)
		rfail(r, "comparison %u", a->op);
}

static void get_sys(struct rbuf *r, struct ir_syscalls *s)
{
	uint32_t i, j, k;

	s->present = get_bool(r);
	get_action(r, &s->def);
	get_action(r, &s->badarch);
	if (s->badarch.kind == IR_ACT_ALLOW || s->badarch.kind == IR_ACT_LOG)
		rfail(r, "foreign architectures may not be allowed");
	s->ncalls = get_count(r, IR_MAX_SYSCALLS, "syscall");
	s->calls = alloc_array(r, s->ncalls, sizeof(*s->calls));
	if (!s->calls)
		s->ncalls = 0;
	for (i = 0; i < s->ncalls && !r->failed; i++) {
		struct ir_syscall *sc = &s->calls[i];
		char *name = get_str(r, 1);

		if (name &&
		    (strlen(name) >= sizeof(sc->name) ||
		     (!ir_is_identifier(name) && !syscall_is_number(name))))
			rfail(r, "bad syscall name");
		else if (name)
			strcpy(sc->name, name);
		free(name);
		sc->nrules = get_count(r, IR_MAX_RULES, "rule");
		sc->rules = alloc_array(r, sc->nrules, sizeof(*sc->rules));
		if (!sc->rules)
			sc->nrules = 0;
		for (j = 0; j < sc->nrules && !r->failed; j++) {
			struct ir_rule *ru = &sc->rules[j];

			get_action(r, &ru->action);
			ru->natoms = get_u8(r);
			if (ru->natoms > IR_MAX_ATOMS) {
				rfail(r, "%u atoms in one rule", ru->natoms);
				ru->natoms = 0;
			}
			for (k = 0; k < ru->natoms; k++)
				get_atom(r, &ru->atoms[k]);
		}
	}
}

static void get_net(struct rbuf *r, struct ir_net *n)
{
	uint32_t i;

	n->present = get_bool(r);
	n->mode = get_u8(r);
	if (n->mode > IR_NET_HOST)
		rfail(r, "network mode %u", n->mode);
	n->backend = get_u8(r);
	if (n->backend > IR_NET_BACKEND_CGROUP_NAMESPACE ||
	    (n->mode == IR_NET_HOST && n->backend))
		rfail(r, "net backend %u", n->backend);
	n->nentries = get_count(r, IR_MAX_NET, "net entry");
	n->entries = alloc_array(r, n->nentries, sizeof(*n->entries));
	if (!n->entries)
		n->nentries = 0;
	for (i = 0; i < n->nentries && !r->failed; i++) {
		struct ir_net_entry *e = &n->entries[i];
		const uint8_t *a;
		uint8_t a4[4];

		e->verdict = get_u8(r);
		e->kind = get_u8(r);
		e->prefix = get_u8(r);
		e->proto = get_u8(r);
		a = take(r, sizeof(e->addr));
		if (a)
			memcpy(e->addr, a, sizeof(e->addr));
		e->name = get_str(r, 0);
		e->port_lo = get_u16(r);
		e->port_hi = get_u16(r);
		if (e->verdict > IR_NET_ALLOW)
			rfail(r, "net verdict %u", e->verdict);
		if (e->proto != IR_PROTO_TCP && e->proto != IR_PROTO_UDP)
			rfail(r, "protocol %u", e->proto);
		if (e->port_lo > e->port_hi)
			rfail(r, "empty port range");
		if ((e->kind == IR_ADDR_V4 && e->prefix > 32) ||
		    (e->kind == IR_ADDR_V6 && e->prefix > 128))
			rfail(r, "prefix /%u", e->prefix);
		if (e->kind != IR_ADDR_V4 && e->kind != IR_ADDR_V6 &&
		    e->kind != IR_ADDR_NAME && e->kind != IR_ADDR_VAR)
			rfail(r, "address kind %u", e->kind);
		if ((e->kind == IR_ADDR_NAME || e->kind == IR_ADDR_VAR) !=
		    (e->name != NULL))
			rfail(r, "address name does not match its kind");
		else if (e->kind == IR_ADDR_NAME &&
			 (!ir_is_hostname(e->name) ||
			  ir_reads_as_ipv4(e->name, a4)))
			rfail(r, "bad host name");
		else if (e->kind == IR_ADDR_VAR && !ir_is_variable(e->name))
			rfail(r, "bad address variable");
		if (e->verdict == IR_NET_DENY && e->kind != IR_ADDR_V4 &&
		    e->kind != IR_ADDR_V6)
			rfail(r, "a deny entry names an address, not a host");
	}
	n->loopback = get_ranges(r, &n->nloopback);
	n->connect = get_ranges(r, &n->nconnect);
	n->bind = get_ranges(r, &n->nbind);
}

static void get_body(struct rbuf *r, struct ir_policy *p)
{
	uint32_t i, v;

	v = get_u32(r);
	if (!r->failed && v != IR_VERSION) {
		rfail(r, "IR version %u, expected %u", v, IR_VERSION);
		return;
	}
	p->name = get_str(r, 1);
	if (p->name && ir_has_control(p->name))
		rfail(r, "control character in the policy name");
	p->landlock.present = get_bool(r);
	p->landlock.abi_min = get_u32(r);
	p->landlock.mode = get_u8(r);
	if (p->landlock.mode > IR_LL_REQUIRE || p->landlock.abi_min > 64)
		rfail(r, "landlock requirement out of range");
	p->user.present = get_bool(r);
	p->user.uid = get_u32(r);
	p->user.gid = get_u32(r);
	if (p->user.uid == UINT32_MAX || p->user.gid == UINT32_MAX ||
	    (!p->user.present && (p->user.uid || p->user.gid)))
		rfail(r, "user out of range");
	p->fs.present = get_bool(r);
	p->fs.mode = get_u8(r);
	if (p->fs.mode > IR_VIEW_BEST_EFFORT || (!p->fs.present && p->fs.mode))
		rfail(r, "fs mode %u", p->fs.mode);
	p->fs.nrules = get_count(r, IR_MAX_FS, "fs rule");
	p->fs.rules = alloc_array(r, p->fs.nrules, sizeof(*p->fs.rules));
	if (!p->fs.rules)
		p->fs.nrules = 0;
	for (i = 0; i < p->fs.nrules && !r->failed; i++) {
		struct ir_fs_rule *f = &p->fs.rules[i];

		f->path = get_str(r, 1);
		if (f->path && !ir_is_path(f->path))
			rfail(r, "path is not in normal form");
		f->rights = get_u32(r);
		f->flags = get_u32(r);
		f->kind = get_u8(r);
		f->size = get_u64(r);
		if (f->rights & ~IR_FS_ALL ||
		    f->flags & ~(IR_FS_FOLLOW | IR_FS_OPTIONAL))
			rfail(r, "unknown fs right or flag bits");
		if (!r->failed && !ir_fs_rule_ok(f))
			rfail(r,
			      "fs rule of kind %u: rights, flags, size or "
			      "path do not fit its kind",
			      f->kind);
	}
	p->fs.observe = get_u32(r);
	p->fs.workspace = get_str(r, 0);
	if (p->fs.observe & ~IR_OBSERVE_ALL)
		rfail(r, "unknown fs observe bits");
	if (!(p->fs.observe & IR_OBSERVE_DESTRUCTIVE) !=
		(p->fs.workspace == NULL) ||
	    (p->fs.observe && !p->fs.present))
		rfail(r, "fs observe and its workspace do not go together");
	else if (p->fs.workspace && !ir_is_path(p->fs.workspace))
		rfail(r, "observe workspace is not in normal form");
	get_net(r, &p->net);
	get_sys(r, &p->sys);
	p->limits.present = get_bool(r);
	p->limits.mode = get_u8(r);
	if (p->limits.mode > IR_LIMITS_REQUIRE ||
	    (!p->limits.present && p->limits.mode))
		rfail(r, "limits mode %u", p->limits.mode);
	p->limits.set = get_u32(r);
	if (p->limits.set >> IR_LIM_COUNT)
		rfail(r, "unknown limit bits");
	for (i = 0; i < IR_LIM_COUNT; i++)
		p->limits.value[i] = get_u64(r);
	p->env.present = get_bool(r);
	p->env.nentries = get_count(r, IR_MAX_ENV, "env entry");
	p->env.entries =
	    alloc_array(r, p->env.nentries, sizeof(*p->env.entries));
	if (!p->env.entries)
		p->env.nentries = 0;
	for (i = 0; i < p->env.nentries && !r->failed; i++) {
		struct ir_env_entry *e = &p->env.entries[i];

		e->kind = get_u8(r);
		e->name = get_str(r, 1);
		e->value = get_str(r, 0);
		e->dest = get_str(r, 0);
		if (e->kind > IR_ENV_SECRET)
			rfail(r, "env kind %u", e->kind);
		if (e->name && !ir_is_identifier(e->name))
			rfail(r, "bad variable name");
		if ((e->kind == IR_ENV_PASS) != (e->value == NULL) ||
		    (e->kind == IR_ENV_SECRET) != (e->dest != NULL))
			rfail(r, "env entry fields do not match its kind");
		if ((e->kind == IR_ENV_SECRET && e->value &&
		     ir_has_control(e->value)) ||
		    (e->dest && ir_has_control(e->dest)))
			rfail(r, "control character in a secret's path");
	}
	if (!r->failed && r->off != r->len)
		rfail(r, "%zu trailing bytes", r->len - r->off);
}

int ir_deserialize(const uint8_t *buf, size_t len, struct ir_policy **out,
		   char *err, size_t errlen)
{
	struct rbuf r = {buf, len, 0, err, errlen, 0};
	struct ir_policy *p = ir_policy_create();
	uint8_t *again = NULL;
	size_t againlen = 0;

	*out = NULL;
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return IR_ENOMEM;
	}
	get_body(&r, p);
	if (r.failed) {
		ir_policy_destroy(&p);
		return IR_EINVAL;
	}
	/* Canonical form is part of the format: re-encode and compare. */
	if (ir_canonicalize(p) != IR_OK ||
	    ir_serialize(p, &again, &againlen) != IR_OK) {
		snprintf(err, errlen, "out of memory");
		ir_policy_destroy(&p);
		return IR_ENOMEM;
	}
	if (againlen != len || memcmp(again, buf, len) != 0) {
		snprintf(err, errlen, "IR is not in canonical form");
		free(again);
		ir_policy_destroy(&p);
		return IR_EINVAL;
	}
	free(again);
	*out = p;
	return IR_OK;
}
