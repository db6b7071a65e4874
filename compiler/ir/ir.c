/* SPDX-License-Identifier: MIT */
/*
 * IR lifetime, the canonical order, and rule resolution. Serialization is in
 * ir_codec.c. Rule resolution is defined here and nowhere else: the code
 * generator, the translation validator, the prover and the tests all call
 * ir_eval_syscall() or are checked against it.
 */
#include "ir.h"
#include "polbin.h"
#include "tables/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ir_policy *ir_policy_create(void)
{
	struct ir_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->sys.def.kind = IR_DEFAULT_ACTION;
	p->sys.badarch.kind = IR_DEFAULT_BADARCH;
	p->net.mode = IR_NET_HOST; /* no net block: the host's network */
	return p;
}

void ir_policy_destroy(struct ir_policy **pp)
{
	struct ir_policy *p;
	uint32_t i;

	if (!pp || !*pp)
		return;
	p = *pp;
	for (i = 0; i < p->sys.ncalls; i++)
		free(p->sys.calls[i].rules);
	free(p->sys.calls);
	for (i = 0; i < p->fs.nrules; i++)
		free(p->fs.rules[i].path);
	free(p->fs.rules);
	free(p->fs.workspace);
	for (i = 0; i < p->net.nentries; i++)
		free(p->net.entries[i].name);
	free(p->net.entries);
	free(p->net.loopback);
	free(p->net.connect);
	free(p->net.bind);
	for (i = 0; i < p->env.nentries; i++) {
		free(p->env.entries[i].name);
		free(p->env.entries[i].value);
		free(p->env.entries[i].dest);
	}
	free(p->env.entries);
	free(p->name);
	free(p);
	*pp = NULL;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

int ir_action_cmp(const struct ir_action *a, const struct ir_action *b)
{
	if (a->kind != b->kind)
		return cmp_u64(a->kind, b->kind);
	return cmp_u64(a->errnum, b->errnum);
}

uint32_t ir_action_key(const struct ir_action *a)
{
	return (uint32_t)a->kind << 16 | a->errnum;
}

int ir_atom_cmp(const struct ir_atom *a, const struct ir_atom *b)
{
	int c;

	if ((c = cmp_u64(a->arg, b->arg)) ||
	    (c = cmp_u64(a->width, b->width)) || (c = cmp_u64(a->op, b->op)) ||
	    (c = cmp_u64(a->mask, b->mask)))
		return c;
	return cmp_u64(a->value, b->value);
}

int ir_rule_cmp(const struct ir_rule *a, const struct ir_rule *b)
{
	uint32_t i;
	int c;

	if ((c = ir_action_cmp(&a->action, &b->action)))
		return c;
	if ((c = cmp_u64(a->natoms, b->natoms)))
		return c;
	for (i = 0; i < a->natoms; i++)
		if ((c = ir_atom_cmp(&a->atoms[i], &b->atoms[i])))
			return c;
	return 0;
}

static int atom_qcmp(const void *a, const void *b)
{
	return ir_atom_cmp(a, b);
}

static int rule_qcmp(const void *a, const void *b)
{
	return ir_rule_cmp(a, b);
}

static int syscall_qcmp(const void *a, const void *b)
{
	return strcmp(((const struct ir_syscall *)a)->name,
		      ((const struct ir_syscall *)b)->name);
}

static int fs_qcmp(const void *a, const void *b)
{
	return strcmp(((const struct ir_fs_rule *)a)->path,
		      ((const struct ir_fs_rule *)b)->path);
}

static int str_cmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int net_qcmp(const void *pa, const void *pb)
{
	const struct ir_net_entry *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->verdict, b->verdict)) ||
	    (c = cmp_u64(a->kind, b->kind)) ||
	    (c = memcmp(a->addr, b->addr, sizeof(a->addr))) ||
	    (c = cmp_u64(a->prefix, b->prefix)) ||
	    (c = str_cmp_null(a->name, b->name)) ||
	    (c = cmp_u64(a->proto, b->proto)) ||
	    (c = cmp_u64(a->port_lo, b->port_lo)))
		return c;
	return cmp_u64(a->port_hi, b->port_hi);
}

static int range_qcmp(const void *pa, const void *pb)
{
	const struct ir_port_range *a = pa, *b = pb;

	if (a->lo != b->lo)
		return cmp_u64(a->lo, b->lo);
	return cmp_u64(a->hi, b->hi);
}

static int env_qcmp(const void *a, const void *b)
{
	return strcmp(((const struct ir_env_entry *)a)->name,
		      ((const struct ir_env_entry *)b)->name);
}

static uint64_t width_mask(uint8_t width)
{
	return width == 32 ? 0xffffffffull : ~0ull;
}

/*
 * Atoms are folded to one spelling: mask and value are cut to the width the
 * kernel reads, and the value to the bits the mask keeps when comparing for
 * (in)equality, so `x & 0xff == 0x1ff` and friends have one form.
 */
static void atom_normalize(struct ir_atom *a)
{
	uint64_t w = width_mask(a->width);

	a->mask &= w;
	a->value &= w;
}

static void rule_normalize(struct ir_rule *r)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->natoms; i++)
		atom_normalize(&r->atoms[i]);
	qsort(r->atoms, r->natoms, sizeof(r->atoms[0]), atom_qcmp);
	for (i = 0; i < r->natoms; i++)
		if (n == 0 || ir_atom_cmp(&r->atoms[n - 1], &r->atoms[i]))
			r->atoms[n++] = r->atoms[i];
	r->natoms = n;
	if (r->action.kind != IR_ACT_ERRNO)
		r->action.errnum = 0;
}

/*
 * A rule whose action is no more restrictive than an unconditional rule of
 * the same syscall can never decide the result, so it is dropped: this makes
 * `allow x` + `allow x if ...` equal to `allow x`.
 */
static void syscall_normalize(struct ir_syscall *sc)
{
	const struct ir_rule *uncond = NULL;
	uint32_t i, n = 0;

	for (i = 0; i < sc->nrules; i++)
		rule_normalize(&sc->rules[i]);
	qsort(sc->rules, sc->nrules, sizeof(sc->rules[0]), rule_qcmp);
	for (i = 0; i < sc->nrules; i++) {
		struct ir_rule *r = &sc->rules[i];

		if (n > 0 && !ir_rule_cmp(&sc->rules[n - 1], r))
			continue;
		if (uncond && ir_action_cmp(&uncond->action, &r->action) <= 0)
			continue;
		sc->rules[n++] = *r;
		if (r->natoms == 0 && !uncond)
			uncond = &sc->rules[n - 1];
	}
	sc->nrules = n;
}

/* A syscall whose every rule yields the default decides nothing. */
static int syscall_is_default(const struct ir_syscalls *s,
			      const struct ir_syscall *sc)
{
	uint32_t i;

	for (i = 0; i < sc->nrules; i++)
		if (ir_action_cmp(&sc->rules[i].action, &s->def))
			return 0;
	return 1;
}

static uint32_t dedup(void *base, uint32_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	char *b = base;
	uint32_t i, out = 0;

	for (i = 0; i < n; i++) {
		if (out > 0 && !cmp(b + (out - 1) * size, b + i * size))
			continue;
		if (out != i)
			memcpy(b + out * size, b + i * size, size);
		out++;
	}
	return out;
}

static void net_entry_normalize(struct ir_net_entry *e)
{
	unsigned bits = e->kind == IR_ADDR_V4 ? 32 : 128, i;

	if (e->kind != IR_ADDR_V4 && e->kind != IR_ADDR_V6) {
		memset(e->addr, 0, sizeof(e->addr));
		e->prefix = 0;
		return;
	}
	for (i = e->prefix; i < bits; i++)
		e->addr[i / 8] &= (uint8_t) ~(0x80u >> (i % 8));
}

/*
 * The defaults (ir.h) written out, so that no reader supplies one: a
 * limit bit clear means unlimited, the Landlock requirement is the IR's,
 * and a policy without a net block says host. What cannot come from the
 * semantic pass (values without their block) is cleared, so the reader of
 * a hostile IR refuses it as not canonical.
 */
static void resolve_defaults(struct ir_policy *p)
{
	struct ir_limits *l = &p->limits;
	struct ir_landlock *ll = &p->landlock;
	int ports = p->net.present && p->net.mode == IR_NET_HOST &&
		    (p->net.nconnect || p->net.nbind);

	if (!p->net.present)
		p->net.mode = IR_NET_HOST;
	if (p->net.mode == IR_NET_HOST)
		p->net.backend = IR_NET_BACKEND_AUTO;
	if (!l->present)
		memset(l, 0, sizeof(*l));
	if (!(l->set >> IR_LIM_CORE & 1)) {
		l->set |= 1u << IR_LIM_CORE;
		l->value[IR_LIM_CORE] = IR_DEFAULT_CORE;
	}
	if (!(l->set >> IR_LIM_GRACE & 1)) {
		l->set |= 1u << IR_LIM_GRACE;
		l->value[IR_LIM_GRACE] = IR_DEFAULT_GRACE_MS;
	}
	if (!ll->present && (p->fs.present || ports)) {
		ll->present = 1;
		ll->mode = IR_DEFAULT_LL_MODE;
		ll->abi_min =
		    ports ? IR_DEFAULT_LL_ABI_PORTS : IR_DEFAULT_LL_ABI;
	}
	if (!ll->present)
		memset(ll, 0, sizeof(*ll));
	else if (ll->abi_min < IR_DEFAULT_LL_ABI)
		ll->abi_min = IR_DEFAULT_LL_ABI;
}

int ir_canonicalize(struct ir_policy *p)
{
	uint32_t i, n;

	resolve_defaults(p);

	if (p->sys.def.kind != IR_ACT_ERRNO)
		p->sys.def.errnum = 0;
	if (p->sys.badarch.kind != IR_ACT_ERRNO)
		p->sys.badarch.errnum = 0;
	for (i = 0; i < p->sys.ncalls; i++)
		syscall_normalize(&p->sys.calls[i]);
	for (i = 0, n = 0; i < p->sys.ncalls; i++) {
		if (syscall_is_default(&p->sys, &p->sys.calls[i])) {
			free(p->sys.calls[i].rules);
			continue;
		}
		p->sys.calls[n++] = p->sys.calls[i];
	}
	p->sys.ncalls = n;
	if (p->sys.ncalls)
		qsort(p->sys.calls, p->sys.ncalls, sizeof(p->sys.calls[0]),
		      syscall_qcmp);
	if (p->fs.nrules)
		qsort(p->fs.rules, p->fs.nrules, sizeof(p->fs.rules[0]),
		      fs_qcmp);
	for (i = 0, n = 0; i < p->net.nentries; i++)
		n += p->net.entries[i].verdict == IR_NET_ALLOW;
	/* An empty allowlist is `net none`: the denies have nothing to cut. */
	if (p->net.mode == IR_NET_FILTERED && n == 0) {
		for (i = 0; i < p->net.nentries; i++)
			free(p->net.entries[i].name);
		free(p->net.entries);
		p->net.entries = NULL;
		p->net.nentries = 0;
		p->net.mode = IR_NET_NONE;
	}
	for (i = 0; i < p->net.nentries; i++)
		net_entry_normalize(&p->net.entries[i]);
	if (p->net.nentries)
		qsort(p->net.entries, p->net.nentries,
		      sizeof(p->net.entries[0]), net_qcmp);
	/* Equal entries are exact duplicates; free the names of the dropped. */
	if (p->net.nentries) {
		uint32_t out = 1;

		for (i = 1; i < p->net.nentries; i++) {
			if (!net_qcmp(&p->net.entries[out - 1],
				      &p->net.entries[i])) {
				free(p->net.entries[i].name);
				continue;
			}
			p->net.entries[out++] = p->net.entries[i];
		}
		p->net.nentries = out;
	}
	/* Port 0 cannot be connected to: loopback `*` is 1-65535. */
	for (i = 0, n = 0; i < p->net.nloopback; i++) {
		struct ir_port_range r = p->net.loopback[i];

		if (r.hi == 0 || r.lo > r.hi)
			continue;
		if (r.lo == 0)
			r.lo = 1;
		p->net.loopback[n++] = r;
	}
	p->net.nloopback = n;
	if (p->net.nloopback) {
		qsort(p->net.loopback, p->net.nloopback,
		      sizeof(*p->net.loopback), range_qcmp);
		p->net.nloopback = dedup(p->net.loopback, p->net.nloopback,
					 sizeof(*p->net.loopback), range_qcmp);
	}
	if (p->net.nconnect) {
		qsort(p->net.connect, p->net.nconnect, sizeof(*p->net.connect),
		      range_qcmp);
		p->net.nconnect = dedup(p->net.connect, p->net.nconnect,
					sizeof(*p->net.connect), range_qcmp);
	}
	if (p->net.nbind) {
		qsort(p->net.bind, p->net.nbind, sizeof(*p->net.bind),
		      range_qcmp);
		p->net.nbind = dedup(p->net.bind, p->net.nbind,
				     sizeof(*p->net.bind), range_qcmp);
	}
	if (p->env.nentries)
		qsort(p->env.entries, p->env.nentries,
		      sizeof(p->env.entries[0]), env_qcmp);
	return IR_OK;
}

int ir_atom_holds(const struct ir_atom *a, const uint64_t args[6])
{
	uint64_t w = width_mask(a->width);
	uint64_t v = args[a->arg] & w & a->mask;
	uint64_t k = a->value & w;

	switch (a->op) {
	case IR_OP_EQ:
		return v == k;
	case IR_OP_NE:
		return v != k;
	case IR_OP_LT:
		return v < k;
	case IR_OP_LE:
		return v <= k;
	case IR_OP_GT:
		return v > k;
	case IR_OP_GE:
		return v >= k;
	}
	return 0;
}

static int rule_holds(const struct ir_rule *r, const uint64_t args[6])
{
	uint32_t i;

	for (i = 0; i < r->natoms; i++)
		if (!ir_atom_holds(&r->atoms[i], args))
			return 0;
	return 1;
}

int ir_explain_syscall(const struct ir_syscall *sc, const uint64_t args[6])
{
	int best = -1;
	uint32_t i;

	for (i = 0; sc && i < sc->nrules; i++) {
		const struct ir_rule *r = &sc->rules[i];

		if ((best < 0 ||
		     ir_action_cmp(&r->action, &sc->rules[best].action) < 0) &&
		    rule_holds(r, args))
			best = (int)i;
	}
	return best;
}

struct ir_action ir_eval_syscall(const struct ir_syscalls *s,
				 const struct ir_syscall *sc,
				 const uint64_t args[6])
{
	int i = ir_explain_syscall(sc, args);

	return i < 0 ? s->def : sc->rules[i].action;
}

const struct ir_syscall *ir_find_syscall(const struct ir_syscalls *s,
					 const char *name)
{
	uint32_t lo = 0, hi = s->ncalls;

	/* calls[] is sorted after ir_canonicalize; before, scan linearly. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, s->calls[mid].name);

		if (c == 0)
			return &s->calls[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (lo = 0; lo < s->ncalls; lo++)
		if (!strcmp(name, s->calls[lo].name))
			return &s->calls[lo];
	return NULL;
}

const struct ir_syscall *ir_syscall_for_nr(const struct ir_syscalls *s, int nr)
{
	const char *name = syscall_name(SYSCALL_ARCH_X86_64, nr);
	const struct ir_syscall *sc = name ? ir_find_syscall(s, name) : NULL;
	char num[16];

	if (sc || nr < 0 || nr >= SYSCALL_NR_LIMIT)
		return sc;
	snprintf(num, sizeof(num), "%d", nr);
	return ir_find_syscall(s, num);
}

int ir_is_identifier(const char *s)
{
	size_t n = strlen(s);

	return n <= 128 && polbin_is_identifier(s, n);
}

int ir_is_hostname(const char *h)
{
	return polbin_is_hostname(h, strlen(h));
}

int ir_reads_as_ipv4(const char *h, uint8_t a[4])
{
	return polbin_inet_aton(h, strlen(h), a);
}

int ir_is_variable(const char *s)
{
	char name[130];
	size_t n = strlen(s);

	if (n < 4 || n - 3 >= sizeof(name) || s[0] != '$' || s[1] != '{' ||
	    s[n - 1] != '}')
		return 0;
	memcpy(name, s + 2, n - 3);
	name[n - 3] = '\0';
	return ir_is_identifier(name);
}

int ir_has_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = polbin_utf8_len(p);

		if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f)))
			return 1;
		p += n;
	}
	return 0;
}

int ir_is_path(const char *s)
{
	const char *p = s, *end;

	if (ir_has_control(s))
		return 0;
	if (!strcmp(s, "/"))
		return 1;
	if (*p == '~') {
		p++;
	} else if (*p == '$') {
		char var[140];

		end = strchr(p, '}');
		if (!end || (size_t)(end - p + 1) >= sizeof(var))
			return 0;
		memcpy(var, p, (size_t)(end - p + 1));
		var[end - p + 1] = '\0';
		if (!ir_is_variable(var))
			return 0;
		p = end + 1;
	} else if (*p != '/') {
		return 0;
	}
	while (*p) {
		size_t n;

		if (*p++ != '/')
			return 0;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
	}
	return 1;
}

int ir_fs_rule_ok(const struct ir_fs_rule *r)
{
	int own = r->path && r->path[0] == '/' && r->path[1] != '\0';

	switch (r->kind) {
	case IR_FS_GRANT:
		return r->rights != 0 && r->size == 0;
	case IR_FS_TMPFS:
		return own && !r->flags &&
		       (r->rights == IR_FS_RW || r->rights == IR_FS_RWX) &&
		       r->size >= 1 && r->size <= IR_TMPFS_MAX_SIZE;
	case IR_FS_DEV:
		return own && !r->flags && !r->size &&
		       r->rights == IR_FS_DEV_RIGHTS;
	case IR_FS_PROC:
		return own && !r->flags && !r->size && r->rights == IR_FS_RO;
	default:
		return 0;
	}
}

const char *ir_fs_kind_name(uint8_t kind)
{
	static const char *const names[] = {NULL, "tmpfs", "dev", "proc"};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

const char *ir_fs_group_name(uint64_t rights)
{
	if (rights == IR_FS_RO)
		return "ro";
	if (rights == IR_FS_RX)
		return "rx";
	if (rights == IR_FS_RW)
		return "rw";
	if (rights == IR_FS_RWX)
		return "rwx";
	return NULL;
}

const char *ir_action_str(const struct ir_action *a, char *buf, size_t len)
{
	const char *en;

	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		snprintf(buf, len, "kill_process");
		break;
	case IR_ACT_KILL_THREAD:
		snprintf(buf, len, "kill_thread");
		break;
	case IR_ACT_TRAP:
		snprintf(buf, len, "trap");
		break;
	case IR_ACT_ERRNO:
		en = errno_name(a->errnum);
		if (en)
			snprintf(buf, len, "errno(%s)", en);
		else
			snprintf(buf, len, "errno(%u)", a->errnum);
		break;
	case IR_ACT_LOG:
		snprintf(buf, len, "log");
		break;
	case IR_ACT_ALLOW:
		snprintf(buf, len, "allow");
		break;
	default:
		snprintf(buf, len, "action?%u", a->kind);
	}
	return buf;
}

const char *ir_op_str(uint8_t op)
{
	static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};

	return op < 6 ? ops[op] : "?";
}

const char *ir_limit_name(enum ir_limit l)
{
	static const char *const names[IR_LIM_COUNT] = {
	    "memory", "pids", "nofile", "cpu", "wall", "fsize", "core", "grace",
	};

	return (unsigned)l < IR_LIM_COUNT ? names[l] : "?";
}

static int port_range_cmp(const void *a, const void *b)
{
	const struct ir_port_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

size_t ir_port_ranges_merge(struct ir_port_range *r, size_t n)
{
	size_t i, out = 0;

	if (!n)
		return 0;
	qsort(r, n, sizeof(*r), port_range_cmp);
	for (i = 1; i < n; i++) {
		if ((uint32_t)r[i].lo <= (uint32_t)r[out].hi + 1) {
			if (r[i].hi > r[out].hi)
				r[out].hi = r[i].hi;
		} else {
			r[++out] = r[i];
		}
	}
	return out + 1;
}
