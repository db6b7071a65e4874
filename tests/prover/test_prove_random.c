/* SPDX-License-Identifier: MIT */
/*
 * The prover against brute force, on random small policy pairs (fixed
 * seeds, so every run is the same run).
 *
 * Each pair has a few syscalls with random rules on their arguments
 * (masks, ranges across 2^32, 32- and 64-bit widths), random fs trees
 * with variables, follow and optional, random CIDR/port/name sets in all
 * three net modes, limits, environment and a Landlock requirement. Half of
 * the NEW policies are mutations of their OLD, so near misses are common.
 *
 * Brute force evaluates both policies on a sampled domain with this
 * file's own evaluators: syscalls through both COMPILED BPF programs
 * (seccomp_generate + bpf_run) on argument vectors built from every
 * constant of the rules, +-1, the 2^32 seam and the extremes; fs on every
 * rule path and below, and on the targets of followed symlinks; net on
 * the ends of every CIDR +-1 and every port-range end +-1, through every
 * name. Then:
 *   - a sampled excess in a dimension means the prover reports that
 *     dimension;
 *   - every finding's witness is re-run here: syscall witnesses through
 *     both BPF programs (NEW's action above OLD's), fs and net witnesses
 *     through this file's evaluators;
 *   - limits, env and Landlock are finite, so there the prover and brute
 *     force must agree exactly;
 *   - every policy is within itself;
 *   - for the first pairs, the Z3 route (forced with a search budget of
 *     one step) agrees on the syscalls, its witnesses re-run the same way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "bpf_interp.h"
#include "backend/backend.h"
#include "prove/prove.h"
#include "sections.h"
#include "arg_grid.h"

#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS	    1000
#define Z3_PAIRS    200 /* of them, also decided through Z3 */
#define MAX_VECTORS 4000

typedef unsigned __int128 u128;

/* ---- Random ---------------------------------------------------------- */

static uint64_t rng1, rng2;
static int mutating;

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A choice among n. OLD and a mutated NEW draw the same sequence from
 * rng1; while mutating, about one choice in eight comes from rng2.
 */
static unsigned pick(unsigned n)
{
	if (mutating && xs(&rng2) % 8 == 0)
		return (unsigned)(xs(&rng2) % n);
	return (unsigned)(xs(&rng1) % n);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	assert_non_null(p);
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	assert_non_null(p);
	return p;
}

/* ---- Generation ------------------------------------------------------ */

static const char *const sys_names[] = {"socket", "clone", "mmap", "ptrace"};
static const uint64_t values[] = {
    0,
    1,
    2,
    0x10,
    0xff,
    0x100,
    0x7fffffff,
    0x80000000,
    0xffffffff,
    0x100000000,
    0x100000001,
    0x1ffffffff,
    0x8000000000000000ull,
    ~0ull,
};
static const uint64_t masks[] = {
    ~0ull,	    0xff,	0xf0, 0x7e020000, 0xffffffff00000000ull,
    0x100000001ull, 0x80000001,
};

static struct ir_action gen_action(int allow_permissive)
{
	static const struct ir_action acts[] = {
	    {IR_ACT_KILL_PROCESS, 0}, {IR_ACT_KILL_THREAD, 0}, {IR_ACT_TRAP, 0},
	    {IR_ACT_ERRNO, 1},	      {IR_ACT_ERRNO, 38},      {IR_ACT_LOG, 0},
	    {IR_ACT_ALLOW, 0},
	};

	return acts[pick(allow_permissive ? 7 : 5)];
}

static void gen_sys(struct ir_policy *p)
{
	unsigned n = 1 + pick(3);

	p->sys.present = pick(10) != 0;
	p->sys.def = gen_action(1);
	p->sys.badarch = gen_action(0);
	p->sys.calls = xcalloc(4, sizeof(*p->sys.calls));
	for (unsigned i = 0; i < 4 && p->sys.ncalls < n; i++) {
		struct ir_syscall *sc = &p->sys.calls[p->sys.ncalls];

		if (pick(2))
			continue;
		p->sys.ncalls++;
		snprintf(sc->name, sizeof(sc->name), "%s", sys_names[i]);
		sc->nrules = pick(4);
		sc->rules = xcalloc(sc->nrules, sizeof(*sc->rules));
		for (uint32_t r = 0; r < sc->nrules; r++) {
			struct ir_rule *ru = &sc->rules[r];

			ru->action = gen_action(1);
			ru->natoms = pick(3);
			for (uint32_t a = 0; a < ru->natoms; a++) {
				struct ir_atom *at = &ru->atoms[a];

				at->arg = (uint8_t)pick(3);
				at->width = pick(2) ? 64 : 32;
				at->op = (uint8_t)pick(6);
				at->mask = masks[pick(7)];
				at->value = values[pick(14)];
				if (at->width == 32) {
					at->mask &= 0xffffffffu;
					at->value &= 0xffffffffu;
				}
			}
		}
	}
}

static const char *const paths[] = {
    "/",    "/a",     "/a/b", "/a/b/c", "/a/c", "/b",
    "${W}", "${W}/a", "${V}", "~",	"~/a",	"${HOME}/a",
};
static const uint32_t rights[] = {IR_FS_READ_FILE, IR_FS_READ_DIR,
				  IR_FS_WRITE_FILE, IR_FS_EXECUTE};

/* The box's own mounts go on literal paths only. */
static const char *const own_paths[] = {"/a", "/a/b", "/b", "/t"};

static void gen_fs(struct ir_policy *p)
{
	unsigned n = pick(5), m = pick(3);

	p->fs.present = pick(7) != 0;
	p->fs.mode = p->fs.present && pick(4) == 0 ? IR_VIEW_BEST_EFFORT
						   : IR_VIEW_REQUIRE;
	p->fs.rules = xcalloc(n + m, sizeof(*p->fs.rules));
	for (unsigned i = 0; i < n + m && p->fs.present; i++) {
		const char *path = i < n ? paths[pick(12)] : own_paths[pick(4)];
		struct ir_fs_rule *r = &p->fs.rules[p->fs.nrules];
		int dup = 0;

		for (uint32_t j = 0; j < p->fs.nrules; j++)
			dup |= !strcmp(p->fs.rules[j].path, path);
		if (dup)
			continue;
		r->path = xstrdup(path);
		if (i >= n) {
			r->kind = pick(3) ? IR_FS_TMPFS : IR_FS_PROC;
			r->rights = r->kind == IR_FS_PROC ? IR_FS_RO
				    : pick(2)		  ? IR_FS_RW
							  : IR_FS_RWX;
			r->size =
			    r->kind == IR_FS_TMPFS ? (1u + pick(2)) << 20 : 0;
			p->fs.nrules++;
			continue;
		}
		r->rights = rights[pick(4)] | (pick(2) ? rights[pick(4)] : 0);
		r->flags = (pick(5) == 0 ? IR_FS_FOLLOW : 0) |
			   (pick(6) == 0 ? IR_FS_OPTIONAL : 0);
		p->fs.nrules++;
	}
	p->user.present = pick(3) == 0;
	if (p->user.present)
		p->user.uid = p->user.gid = pick(2) ? 65534 : 1000;
}

static const struct {
	uint8_t kind, prefix;
	uint8_t addr[16];
} cidrs[] = {
    {IR_ADDR_V4, 8, {10}},
    {IR_ADDR_V4, 9, {10}},
    {IR_ADDR_V4, 9, {10, 128}},
    {IR_ADDR_V4, 16, {10, 1}},
    {IR_ADDR_V4, 0, {0}},
    {IR_ADDR_V4, 32, {10, 0, 0, 5}},
    {IR_ADDR_V4, 16, {192, 168}},
    {IR_ADDR_V4, 1, {128}},
    {IR_ADDR_V4, 1, {0}},
    {IR_ADDR_V6, 0, {0}},
    {IR_ADDR_V6, 32, {0x20, 0x01, 0x0d, 0xb8}},
    {IR_ADDR_V6, 48, {0x20, 0x01, 0x0d, 0xb8}},
    {IR_ADDR_V6, 1, {0x80}},
};
static const struct ir_port_range port_pool[] = {
    {0, 65535}, {443, 443}, {80, 443}, {1000, 2000}, {0, 0}, {65535, 65535},
};
static const char *const net_names[] = {"a.example", "b.example", "${S}",
					"${T}"};

static struct ir_port_range *gen_ranges(uint32_t *n, unsigned max)
{
	struct ir_port_range *r;

	*n = pick(max + 1);
	r = xcalloc(*n, sizeof(*r));
	for (uint32_t i = 0; i < *n; i++)
		r[i] = port_pool[pick(6)];
	return r;
}

static void gen_net(struct ir_policy *p)
{
	struct ir_net *n = &p->net;
	unsigned m = pick(20), ne = 1 + pick(4);

	n->present = pick(10) != 0;
	n->mode = m < 3 ? IR_NET_NONE : m < 17 ? IR_NET_FILTERED : IR_NET_HOST;
	if (!n->present)
		n->mode = IR_NET_NONE;
	if (n->mode == IR_NET_HOST) {
		n->connect = gen_ranges(&n->nconnect, 2);
		n->bind = gen_ranges(&n->nbind, 1);
		return;
	}
	if (n->present)
		n->loopback = gen_ranges(&n->nloopback, 2);
	if (n->mode != IR_NET_FILTERED)
		return;
	n->entries = xcalloc(ne, sizeof(*n->entries));
	for (unsigned i = 0; i < ne; i++) {
		struct ir_net_entry *e = &n->entries[n->nentries++];
		unsigned k = pick(10);
		struct ir_port_range pr = port_pool[pick(6)];

		e->verdict = pick(4) ? IR_NET_ALLOW : IR_NET_DENY;
		e->proto = pick(10) < 7 ? IR_PROTO_TCP : IR_PROTO_UDP;
		e->port_lo = pr.lo;
		e->port_hi = pr.hi;
		/* Names only in allows, as the language has it. */
		if (k < 2 && e->verdict == IR_NET_ALLOW) {
			const char *nm = net_names[pick(4)];

			e->kind = nm[0] == '$' ? IR_ADDR_VAR : IR_ADDR_NAME;
			e->name = xstrdup(nm);
		} else {
			unsigned c = pick(sizeof(cidrs) / sizeof(*cidrs));

			e->kind = cidrs[c].kind;
			e->prefix = cidrs[c].prefix;
			memcpy(e->addr, cidrs[c].addr, 16);
		}
	}
}

static void gen_limits_env(struct ir_policy *p)
{
	static const uint64_t vals[] = {1, 100, 1000, 1u << 20};
	static const char *const env_names[] = {"A", "B", "C"};

	p->limits.present = pick(10) < 7;
	for (unsigned i = 0; i < IR_LIM_COUNT && p->limits.present; i++) {
		if (pick(5) >= 2)
			continue;
		p->limits.set |= 1u << i;
		p->limits.value[i] =
		    i == IR_LIM_CORE ? pick(2) * 1000u : vals[pick(4)];
	}
	p->env.present = pick(10) < 7;
	p->env.entries = xcalloc(3, sizeof(*p->env.entries));
	for (unsigned i = 0; i < 3 && p->env.present; i++) {
		struct ir_env_entry *e = &p->env.entries[p->env.nentries];
		unsigned k = pick(4);

		if (k == 3)
			continue;
		p->env.nentries++;
		e->kind = (uint8_t)k;
		e->name = xstrdup(env_names[i]);
		if (k == IR_ENV_SET)
			e->value = xstrdup(pick(2) ? "x" : "y");
		if (k == IR_ENV_SECRET) {
			e->value = xstrdup(pick(2) ? "/s" : "/t");
			e->dest = xstrdup("/run/secrets/x");
		}
	}
	p->landlock.present = pick(5) < 2;
	p->landlock.mode = pick(2);
	p->landlock.abi_min = 1 + pick(6);
}

static struct ir_policy *gen(uint64_t seed, int mutate)
{
	struct ir_policy *p = ir_policy_create();

	assert_non_null(p);
	rng1 = seed;
	rng2 = seed * 0x9e3779b97f4a7c15ull + 1;
	mutating = mutate;
	p->name = xstrdup("r");
	gen_sys(p);
	gen_fs(p);
	gen_net(p);
	gen_limits_env(p);
	assert_int_equal(ir_canonicalize(p), IR_OK);
	return p;
}

/* ---- Syscalls by brute force, through the compiled programs ---------- */

struct prog {
	struct sock_filter *f; /* NULL: no filter */
	size_t n;
};

static void compile(const struct ir_policy *p, struct prog *pr)
{
	char err[256];

	memset(pr, 0, sizeof(*pr));
	if (!p->sys.present)
		return;
	if (seccomp_generate(p, &pr->f, &pr->n, err, sizeof(err)))
		fail_msg("seccomp_generate: %s", err);
}

static int rank_ret(uint32_t ret)
{
	switch (ret & 0xffff0000u) {
	case 0x80000000u:
		return 0;
	case 0x00000000u:
		return 1;
	case 0x00030000u:
		return 2;
	case 0x00050000u:
		return 3;
	case 0x7ffc0000u:
		return 4;
	case 0x7fff0000u:
		return 5;
	}
	fail_msg("unknown return 0x%x", ret);
	return -1;
}

static int run_rank(const struct prog *pr, const struct seccomp_data *d)
{
	struct bpf_run_result res;
	char err[128];

	if (!pr->f)
		return IR_ACT_ALLOW;
	if (bpf_run(pr->f, pr->n, d, &res, err, sizeof(err)))
		fail_msg("bpf_run: %s", err);
	return rank_ret(res.ret);
}

static int sys_rank(const struct prog *pr, const struct prove_sys_point *pt)
{
	struct seccomp_data d = {.nr = (int)pt->nr, .arch = pt->arch};

	memcpy(d.args, pt->args, sizeof(d.args));
	return run_rank(pr, &d);
}

static int brute_sys(const struct ir_policy *o, const struct ir_policy *nw,
		     const struct prog *po, const struct prog *pn,
		     uint64_t *rng3)
{
	static const uint64_t base[] = {0,	     1,
					0xffffffff,  0x100000000,
					0x100000001, 0x8000000000000000ull,
					~0ull};
	const char *names[5] = {"socket", "clone", "mmap", "ptrace", "getpid"};
	struct seccomp_data d = {.arch = AUDIT_ARCH_I386};

	if (run_rank(pn, &d) > run_rank(po, &d))
		return 1;
	d.arch = AUDIT_ARCH_X86_64;
	d.nr = 0x40000000;
	if (run_rank(pn, &d) > run_rank(po, &d))
		return 1;
	for (int s = 0; s < 5; s++) {
		uint64_t v[6][GRID_VALS];
		unsigned n[6] = {0};
		size_t total;

		for (int i = 0; i < 3; i++)
			for (size_t b = 0; b < sizeof(base) / sizeof(*base);
			     b++)
				grid_add(v[i], &n[i], base[b]);
		grid_atoms(o, names[s], v, n);
		grid_atoms(nw, names[s], v, n);
		memset(&d, 0, sizeof(d));
		d.arch = AUDIT_ARCH_X86_64;
		d.nr = seccomp_syscall_nr(names[s]);
		total = n[0] * n[1] * n[2];
		for (size_t t = 0;
		     t < (total < MAX_VECTORS ? total : MAX_VECTORS); t++) {
			size_t idx = total < MAX_VECTORS ? t : xs(rng3) % total;

			d.args[0] = v[0][idx % n[0]];
			d.args[1] = v[1][idx / n[0] % n[1]];
			d.args[2] = v[2][idx / n[0] / n[1]];
			if (run_rank(pn, &d) > run_rank(po, &d))
				return 1;
		}
	}
	return 0;
}

/* ---- fs by brute force ----------------------------------------------- */

#define FRESH ".polc-fresh"

static void bind_path(const char *in, char *out, size_t len)
{
	const char *e;

	if (in[0] == '~')
		snprintf(out, len, "/" FRESH "/var/HOME%s", in + 1);
	else if (in[0] == '$' && (e = strchr(in, '}')))
		snprintf(out, len, "/" FRESH "/var/%.*s%s", (int)(e - in - 2),
			 in + 2, e + 1);
	else
		snprintf(out, len, "%s", in);
}

static int under(const char *a, const char *b)
{
	size_t la = strlen(a);

	return !strcmp(a, "/") ||
	       (!strncmp(a, b, la) && (b[la] == '\0' || b[la] == '/'));
}

/* A path made literal with var (NULL: none) bound inside `in`. */
/* p with var bound inside `in` (at: to `in` itself), the rest fresh. */
static void bind_w(const char *p, const char *var, const char *in, int at,
		   char *out, size_t len)
{
	const char *e = p[0] == '$' ? strchr(p, '}') : NULL;
	const char *name = p[0] == '~' ? "HOME" : e ? p + 2 : NULL;
	size_t n = p[0] == '~' ? 4 : e ? (size_t)(e - p - 2) : 0;
	const char *rest = p[0] == '~' ? p + 1 : e ? e + 1 : p;

	if (name && var && strlen(var) == n && !strncmp(var, name, n) && at)
		snprintf(out, len, "%s%s", strcmp(in, "/") ? in : "",
			 *rest || strcmp(in, "/") ? rest : "/");
	else if (name && var && strlen(var) == n && !strncmp(var, name, n))
		snprintf(out, len, "%s/" FRESH "-%s%s",
			 strcmp(in, "/") ? in : "", var, rest);
	else
		bind_path(p, out, len);
}

struct tworld {
	const char *symlink, *var, *in;
	int noview;
	const char *target; /* NULL: the fresh one */
	int at;		    /* var bound to `in` itself */
};

/*
 * This file's own model of Landlock and the view (docs/VIEW.md): the
 * rights on the host's data at literal path q. Landlock: the rights left
 * free and every rule holding q. The view: nothing where the deepest
 * rule holding q is a mount of the box's own, or no rule holds q; and a
 * read-only mount without a write right, noexec without execute.
 */
static uint32_t t_rights_w(const struct ir_policy *p, const char *q,
			   const struct tworld *w)
{
	char s[256] = "", l[256], t[512];
	uint32_t acc = IR_FS_ALL, grants = 0, wr = IR_FS_RW & ~IR_FS_RO;
	int deepest = -1, own = 0, mount = -1;

	if (!p->fs.present)
		return IR_FS_ALL;
	for (uint32_t i = 0; i < p->fs.nrules; i++)
		if (p->fs.rules[i].kind == IR_FS_GRANT &&
		    !(p->fs.rules[i].rights & IR_FS_CONNECT_UNIX))
			acc = 0;
	acc &= IR_FS_CONNECT_UNIX; /* free when every grant has it */
	if (w->symlink)
		bind_w(w->symlink, w->var, w->in, w->at, s, sizeof(s));
	/* a bind that lands in a mount of the box's own keeps its own
	 * restrictions: the grants above that mount do not count */
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < p->fs.nrules; i++) {
			const struct ir_fs_rule *r = &p->fs.rules[i];
			int len;

			if (w->noview && r->kind != IR_FS_GRANT)
				continue;
			bind_w(r->path, w->var, w->in, w->at, l, sizeof(l));
			if (s[0] && strcmp(s, "/") && under(s, l)) {
				if (!(r->flags & IR_FS_FOLLOW))
					continue;
				snprintf(t, sizeof(t), "%s%s",
					 w->target ? w->target
						   : "/" FRESH "/target",
					 l + strlen(s));
			} else {
				snprintf(t, sizeof(t), "%s", l);
			}
			if (!under(t, q))
				continue;
			len = strcmp(t, "/") ? (int)strlen(t) : 0;
			if (!pass) {
				if (r->kind != IR_FS_GRANT && len > mount)
					mount = len;
				continue;
			}
			acc |= r->rights;
			if (r->kind == IR_FS_GRANT && len > mount)
				grants |= r->rights;
			if (len >= deepest) {
				deepest = len;
				own = r->kind != IR_FS_GRANT;
			}
		}
	if (w->noview)
		return acc;
	if (deepest < 0 || own)
		return 0;
	if (!(grants & (wr | IR_FS_MAKE_CHAR | IR_FS_MAKE_BLOCK)))
		acc &= ~wr;
	if (!(grants & IR_FS_EXECUTE))
		acc &= ~(uint32_t)IR_FS_EXECUTE;
	if (!(grants & (IR_FS_IOCTL_DEV | IR_FS_MAKE_CHAR | IR_FS_MAKE_BLOCK)))
		acc &= ~(uint32_t)IR_FS_IOCTL_DEV;
	return acc;
}

static uint32_t t_rights(const struct ir_policy *p, const char *q,
			 const char *symlink)
{
	struct tworld w = {symlink, NULL, NULL, 0, NULL, 0};

	return t_rights_w(p, q, &w);
}

/* The own mount of p at exactly path, or NULL. */
static const struct ir_fs_rule *t_own(const struct ir_policy *p,
				      const char *path)
{
	for (uint32_t i = 0; p->fs.present && i < p->fs.nrules; i++)
		if (p->fs.rules[i].kind != IR_FS_GRANT &&
		    !strcmp(p->fs.rules[i].path, path))
			return &p->fs.rules[i];
	return NULL;
}

/* NEW's own mount r: not matched nor covered by OLD there? */
static int t_own_exceeds(const struct ir_policy *o, const struct ir_fs_rule *r)
{
	const struct ir_fs_rule *x = t_own(o, r->path);

	if (x)
		return x->kind != r->kind || (r->rights & ~x->rights) ||
		       r->size > x->size;
	return (r->rights & ~t_rights(o, r->path, NULL)) != 0;
}

static int points_exceed(const struct ir_policy *o, const struct ir_policy *nw,
			 const struct tworld *w)
{
	static const char *const extra[] = {"/", "/zz", "/a/zz", "/b/zz"};
	char q[300];

	for (int s = 0; s < 2; s++) {
		const struct ir_policy *p = s ? nw : o;

		for (uint32_t i = 0; p->fs.present && i < p->fs.nrules; i++) {
			for (int sub = 0; sub < 2; sub++) {
				bind_w(p->fs.rules[i].path, w->var, w->in,
				       w->at, q, sizeof(q));
				if (sub)
					strcat(q, "/x");
				if (t_rights_w(nw, q, w) & ~t_rights_w(o, q, w))
					return 1;
			}
		}
	}
	for (size_t i = 0; i < sizeof(extra) / sizeof(*extra); i++)
		if (t_rights_w(nw, extra[i], w) & ~t_rights_w(o, extra[i], w))
			return 1;
	return 0;
}

/*
 * polexec refuses to build a view with a grant bound where the policy
 * puts a mount of its own: a start condition, not compared.
 */
static int refused(const struct ir_policy *p, const struct tworld *w)
{
	char l[300];

	for (uint32_t i = 0; p->fs.present && i < p->fs.nrules; i++) {
		if (p->fs.rules[i].kind != IR_FS_GRANT)
			continue;
		bind_w(p->fs.rules[i].path, w->var, w->in, w->at, l, sizeof(l));
		if (t_own(p, l))
			return 1;
	}
	return 0;
}

static int brute_fs(const struct ir_policy *o, const struct ir_policy *nw)
{
	/* every folder the rules name or lead through, and one beside */
	static const char *const folders[] = {"/",    "/a", "/a/b", "/a/b/c",
					      "/a/c", "/b", "/t",   "/zz"};
	static const char *const vars[] = {"W", "V", "HOME"};
	struct tworld fresh = {NULL, NULL, NULL, 0, NULL, 0};

	if (points_exceed(o, nw, &fresh))
		return 1;
	/* each variable bound to every folder of the model's small tree,
	 * and inside each: the others fresh */
	for (size_t f = 0; f < sizeof(folders) / sizeof(*folders); f++)
		for (size_t v = 0; v < 3; v++)
			for (int at = 0; at < 2; at++) {
				struct tworld w = {NULL, vars[v], folders[f],
						   0,	 NULL,	  at};

				if (!refused(o, &w) && !refused(nw, &w) &&
				    points_exceed(o, nw, &w))
					return 1;
			}
	/* without the view */
	if (nw->fs.present && nw->fs.mode == IR_VIEW_BEST_EFFORT) {
		struct tworld w = {NULL, NULL, NULL, 1, NULL, 0};

		if (o->fs.present && o->fs.mode != IR_VIEW_BEST_EFFORT)
			return 1;
		if (points_exceed(o, nw, &w))
			return 1;
	}
	for (uint32_t i = 0; nw->fs.present && i < nw->fs.nrules; i++) {
		const struct ir_fs_rule *r = &nw->fs.rules[i];

		if (r->kind != IR_FS_GRANT) {
			if (t_own_exceeds(o, r))
				return 1;
			continue;
		}
		if (!(r->flags & IR_FS_FOLLOW) || !strcmp(r->path, "/"))
			continue;
		if (t_rights(nw, "/" FRESH "/target", r->path) &
		    ~t_rights(o, "/" FRESH "/target", r->path))
			return 1;
	}
	return 0;
}

static int brute_user(const struct ir_policy *o, const struct ir_policy *nw)
{
	return o->user.present != nw->user.present ||
	       o->user.uid != nw->user.uid || o->user.gid != nw->user.gid;
}

/* ---- net by brute force ---------------------------------------------- */

static u128 to_u128(const uint8_t *a, unsigned n)
{
	u128 v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | a[i];
	return v;
}

static int t_in(const struct ir_port_range *r, uint32_t n, uint16_t port)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].lo <= port && port <= r[i].hi)
			return 1;
	return 0;
}

static int t_host_port(const struct ir_net *n, int bind, uint16_t port)
{
	if (!n->present || (!n->nconnect && !n->nbind))
		return 1;
	return bind ? t_in(n->bind, n->nbind, port)
		    : t_in(n->connect, n->nconnect, port);
}

/* This file's own model of what the box reaches. */
static int t_net(const struct ir_policy *p, const struct prove_net_point *d)
{
	const struct ir_net *n = &p->net;
	int host = !n->present || n->mode == IR_NET_HOST, allowed = 0;
	unsigned bytes = d->family == IR_ADDR_V4 ? 4 : 16;

	if (d->kind == PROVE_NET_HOSTNET)
		return host;
	if (d->kind == PROVE_NET_SHARED) /* may run under the cgroup backend */
		return host || (n->backend != IR_NET_BACKEND_NAMESPACE &&
				(n->backend == IR_NET_BACKEND_CGROUP ||
				 n->mode == IR_NET_FILTERED || n->nloopback));
	if (d->kind == PROVE_NET_BIND)
		return host && t_host_port(n, 1, d->port);
	if (d->kind == PROVE_NET_LOOPBACK)
		return host ? t_host_port(n, 0, d->port)
			    : t_in(n->loopback, n->nloopback, d->port);
	if (host)
		return d->proto == IR_PROTO_UDP || t_host_port(n, 0, d->port);
	if (n->mode != IR_NET_FILTERED)
		return 0;
	for (uint32_t i = 0; i < n->nentries; i++) {
		const struct ir_net_entry *e = &n->entries[i];
		int match;

		if (e->proto != d->proto || d->port < e->port_lo ||
		    d->port > e->port_hi)
			continue;
		if (e->kind == IR_ADDR_NAME || e->kind == IR_ADDR_VAR) {
			match = d->name && !strcmp(d->name, e->name);
		} else {
			unsigned hb = 8 * bytes - e->prefix;
			u128 a = to_u128(d->addr, bytes),
			     b = to_u128(e->addr, bytes);

			match = e->kind == d->family &&
				(hb >= 128 || (a >> hb) == (b >> hb));
		}
		if (match && e->verdict == IR_NET_DENY)
			return 0;
		allowed |= match;
	}
	return allowed;
}

static void from_u128(u128 v, uint8_t *a, unsigned n)
{
	memset(a, 0, 16);
	for (unsigned i = n; i-- > 0; v >>= 8)
		a[i] = (uint8_t)v;
}

static int brute_net(const struct ir_policy *o, const struct ir_policy *nw)
{
	static const uint16_t ports[] = {0,   1,    79,	  80,	443,   444,
					 999, 1000, 2000, 2001, 65534, 65535};
	const struct ir_policy *ps[2] = {o, nw};
	struct prove_net_point d = {0};
	u128 addrs[2][64];
	size_t na[2] = {0, 0};
	const char *names[9] = {NULL};
	size_t nn = 1;

	d.kind = PROVE_NET_HOSTNET;
	if (t_net(nw, &d) && !t_net(o, &d))
		return 1;
	d.kind = PROVE_NET_SHARED;
	if (t_net(nw, &d) && !t_net(o, &d))
		return 1;
	for (int k = 0; k < 2; k++) {
		d.kind = k ? PROVE_NET_BIND : PROVE_NET_LOOPBACK;
		for (size_t i = 0; i < sizeof(ports) / sizeof(*ports); i++) {
			d.port = ports[i];
			if (t_net(nw, &d) && !t_net(o, &d))
				return 1;
		}
	}
	for (int f = 0; f < 2; f++) {
		u128 max = f ? ~(u128)0 : 0xffffffffu;

		addrs[f][na[f]++] = 0;
		addrs[f][na[f]++] = max;
	}
	for (int s = 0; s < 2; s++) {
		for (uint32_t i = 0; i < ps[s]->net.nentries; i++) {
			const struct ir_net_entry *e = &ps[s]->net.entries[i];
			int f = e->kind == IR_ADDR_V6;
			unsigned bits = f ? 128 : 32, hb;
			u128 lo, hi;

			if (e->kind == IR_ADDR_NAME || e->kind == IR_ADDR_VAR) {
				if (nn < 9)
					names[nn++] = e->name;
				continue;
			}
			hb = bits - e->prefix;
			lo = to_u128(e->addr, bits / 8);
			hi = lo | (hb >= 128 ? ~(u128)0 : ((u128)1 << hb) - 1);
			if (na[f] + 4 <= 64) {
				addrs[f][na[f]++] = lo;
				addrs[f][na[f]++] = hi;
				addrs[f][na[f]++] = lo - 1;
				addrs[f][na[f]++] = hi + 1;
			}
		}
	}
	d.kind = PROVE_NET_ADDR;
	for (int f = 0; f < 2; f++) {
		unsigned bytes = f ? 16 : 4;

		d.family = f ? IR_ADDR_V6 : IR_ADDR_V4;
		for (size_t a = 0; a < na[f]; a++) {
			from_u128(addrs[f][a], d.addr, bytes);
			for (size_t i = 0; i < sizeof(ports) / sizeof(*ports);
			     i++) {
				d.port = ports[i];
				for (int pr = 0; pr < 2; pr++) {
					d.proto =
					    pr ? IR_PROTO_UDP : IR_PROTO_TCP;
					for (size_t k = 0; k < nn; k++) {
						d.name =
						    (char *)(uintptr_t)names[k];
						if (t_net(nw, &d) &&
						    !t_net(o, &d))
							return 1;
					}
				}
			}
		}
	}
	return 0;
}

/* ---- The finite dimensions, by definition ---------------------------- */

/*
 * What the box may use: each limit in force (the IR has the defaults
 * written out), wall and cpu each with one grace more (SIGTERM or SIGXCPU
 * first, SIGKILL one grace later), cpu in whole seconds; grace on its own
 * bounds nothing.
 */
static int t_ceiling(const struct ir_policy *p, unsigned i, uint64_t *v)
{
	const struct ir_limits *l = &p->limits;
	uint64_t g = l->set >> IR_LIM_GRACE & 1 ? l->value[IR_LIM_GRACE] : 0;

	if (!(l->set >> i & 1))
		return 0;
	*v = l->value[i];
	if (i == IR_LIM_WALL)
		*v += g;
	if (i == IR_LIM_CPU)
		*v = (*v + 999) / 1000 + (g + 999) / 1000;
	return 1;
}

static int brute_limits(const struct ir_policy *o, const struct ir_policy *nw)
{
	for (unsigned i = 0; i < IR_LIM_COUNT; i++) {
		uint64_t vn = 0, vo = 0;
		int sn = t_ceiling(nw, i, &vn), so = t_ceiling(o, i, &vo);

		if (i != IR_LIM_GRACE && so && (!sn || vn > vo))
			return 1;
	}
	/* best_effort against require, both capping memory or pids */
	if (o->limits.mode == IR_LIMITS_REQUIRE &&
	    nw->limits.mode != IR_LIMITS_REQUIRE)
		for (unsigned i = IR_LIM_MEMORY; i <= IR_LIM_PIDS; i++)
			if (o->limits.set >> i & nw->limits.set >> i & 1)
				return 1;
	return 0;
}

static int brute_env(const struct ir_policy *o, const struct ir_policy *nw)
{
	for (uint32_t i = 0; nw->env.present && i < nw->env.nentries; i++) {
		const struct ir_env_entry *e = &nw->env.entries[i];
		int same = 0;

		for (uint32_t j = 0; o->env.present && j < o->env.nentries;
		     j++) {
			const struct ir_env_entry *x = &o->env.entries[j];

			same |= x->kind == e->kind &&
				!strcmp(x->name, e->name) &&
				!strcmp(x->value ? x->value : "",
					e->value ? e->value : "") &&
				!strcmp(x->dest ? x->dest : "",
					e->dest ? e->dest : "");
		}
		if (!same)
			return 1;
	}
	return 0;
}

static int runs(const struct ir_policy *p, uint32_t k)
{
	uint32_t abi, mode;

	if (!landlock_layer_on(p))
		return 1;
	landlock_requirement(p, &abi, &mode);
	return mode == POLBIN_LL_BEST_EFFORT || (k >= 1 && k >= abi);
}

static int brute_landlock(const struct ir_policy *o, const struct ir_policy *nw)
{
	for (uint32_t k = 0; k <= 10; k++) {
		int scoped_o = landlock_layer_on(o) && k >= 6;
		int scoped_n = landlock_layer_on(nw) && k >= 6;

		if (runs(nw, k) && (!runs(o, k) || (scoped_o && !scoped_n)))
			return 1;
	}
	return 0;
}

/* ---- The property ---------------------------------------------------- */

struct tally {
	unsigned exceeds[PROVE_DIM_COUNT], within[PROVE_DIM_COUNT];
	unsigned witnesses[PROVE_DIM_COUNT];
};

static void check_witness(const struct ir_policy *o, const struct ir_policy *nw,
			  const struct prog *po, const struct prog *pn,
			  const struct prove_finding *f, const char *fresh)
{
	assert_string_equal(fresh, FRESH);
	switch (f->kind) {
	case PROVE_PT_SYS: {
		struct seccomp_data d = {.nr = (int)f->sys.nr,
					 .arch = f->sys.arch};

		memcpy(d.args, f->sys.args, sizeof(d.args));
		if (run_rank(pn, &d) <= run_rank(po, &d))
			fail_msg("syscall witness %s: programs %d vs %d",
				 f->witness, run_rank(pn, &d),
				 run_rank(po, &d));
		break;
	}
	case PROVE_PT_FS: {
		char q[300];
		struct tworld w = {f->fs.symlink ? f->fs.path : NULL,
				   f->fs.var,
				   f->fs.under,
				   f->fs.noview,
				   f->fs.target,
				   f->fs.at};
		const struct ir_fs_rule *r = t_own(nw, f->fs.path);

		if (f->fs.own) {
			if (!r || r->kind != f->fs.own || !t_own_exceeds(o, r))
				fail_msg("own-mount witness %s does not hold",
					 f->witness);
			break;
		}
		if (w.symlink)
			snprintf(q, sizeof(q), "%s",
				 w.target ? w.target : "/" FRESH "/target");
		else
			bind_w(f->fs.path, w.var, w.in, w.at, q, sizeof(q));
		if ((t_rights_w(nw, q, &w) & f->fs.rights) != f->fs.rights ||
		    (t_rights_w(o, q, &w) & f->fs.rights))
			fail_msg("fs witness %s does not hold", f->witness);
		break;
	}
	case PROVE_PT_NET:
		if (!t_net(nw, &f->net) || t_net(o, &f->net))
			fail_msg("net witness %s does not hold", f->witness);
		break;
	default:
		break;
	}
}

static void one_pair(uint64_t seed, int z3, struct tally *t)
{
	struct ir_policy *o = gen(seed, 0);
	struct ir_policy *nw = gen(seed % 2 ? seed : seed * 31 + 7, seed % 2);
	struct prove_result r, self;
	struct prog po, pn;
	uint64_t rng3 = seed | 1;
	int has[PROVE_DIM_COUNT] = {0}, brute[PROVE_DIM_COUNT];
	struct prove_sys_point sys_seen[16];
	size_t nsys = 0;
	char err[256];

	assert_int_equal(prove_boundary(o, nw, NULL, &r, err, sizeof(err)),
			 PROVE_OK);
	for (size_t i = 0; i < r.n; i++)
		has[r.f[i].dim] = 1;
	assert_int_equal(r.exceeds, r.n > 0);
	compile(o, &po);
	compile(nw, &pn);
	brute[PROVE_DIM_SYSCALLS] = brute_sys(o, nw, &po, &pn, &rng3);
	brute[PROVE_DIM_FS] = brute_fs(o, nw);
	brute[PROVE_DIM_NET] = brute_net(o, nw);
	brute[PROVE_DIM_LIMITS] = brute_limits(o, nw);
	brute[PROVE_DIM_ENV] = brute_env(o, nw);
	brute[PROVE_DIM_LANDLOCK] = brute_landlock(o, nw);
	brute[PROVE_DIM_USER] = brute_user(o, nw);
	for (int d = 0; d < PROVE_DIM_COUNT; d++) {
		if (brute[d] && !has[d] && getenv("PROVE_RANDOM_DEBUG")) {
			ir_print(o, stderr);
			ir_print(nw, stderr);
		}
		if (brute[d] && !has[d])
			fail_msg("seed %llu: brute force finds %s exceeding, "
				 "the prover does not",
				 (unsigned long long)seed,
				 prove_dim_name((enum prove_dim)d));
		/* Finite dimensions: brute force is exact. */
		if (d >= PROVE_DIM_LIMITS && has[d] != brute[d])
			fail_msg("seed %llu: %s: prover %d, brute force %d",
				 (unsigned long long)seed,
				 prove_dim_name((enum prove_dim)d), has[d],
				 brute[d]);
		t->exceeds[d] += has[d];
		t->within[d] += !has[d];
	}
	for (size_t i = 0; i < r.n; i++) {
		check_witness(o, nw, &po, &pn, &r.f[i], r.fresh);
		t->witnesses[r.f[i].dim]++;
		if (r.f[i].kind == PROVE_PT_SYS && nsys < 16)
			sys_seen[nsys++] = r.f[i].sys;
	}
	prove_result_free(&r);
	/*
	 * The Z3 route (a search budget of one step sends every syscall
	 * with an argument test there) must agree on the syscalls.
	 */
	if (z3) {
		struct prove_opts tiny = {1, 0, 1, 0};
		int hz = 0;

		assert_int_equal(
		    prove_boundary(o, nw, &tiny, &r, err, sizeof(err)),
		    PROVE_OK);
		for (size_t i = 0; i < r.n; i++) {
			if (r.f[i].dim != PROVE_DIM_SYSCALLS)
				continue;
			hz = 1;
			check_witness(o, nw, &po, &pn, &r.f[i], r.fresh);
			/* NEW's action at the witness: the same most
			 * permissive one the search found for that syscall. */
			for (size_t k = 0; k < nsys; k++)
				if (sys_seen[k].nr == r.f[i].sys.nr &&
				    sys_seen[k].arch == r.f[i].sys.arch &&
				    sys_rank(&pn, &sys_seen[k]) !=
					sys_rank(&pn, &r.f[i].sys))
					fail_msg("seed %llu: %s: Z3's witness "
						 "is not the most permissive",
						 (unsigned long long)seed,
						 r.f[i].witness);
		}
		if (hz != has[PROVE_DIM_SYSCALLS])
			fail_msg("seed %llu: syscalls: search %d, Z3 %d",
				 (unsigned long long)seed,
				 has[PROVE_DIM_SYSCALLS], hz);
		prove_result_free(&r);
	}
	for (int s = 0; s < 2; s++) {
		assert_int_equal(prove_boundary(s ? nw : o, s ? nw : o, NULL,
						&self, err, sizeof(err)),
				 PROVE_OK);
		if (self.exceeds)
			fail_msg("seed %llu: a policy exceeds itself: %s",
				 (unsigned long long)seed, self.f[0].witness);
		prove_result_free(&self);
	}
	free(po.f);
	free(pn.f);
	ir_policy_destroy(&o);
	ir_policy_destroy(&nw);
}

static void test_random_pairs(void **state)
{
	struct tally t = {0};

	(void)state;
	for (uint64_t seed = 1; seed <= PAIRS; seed++)
		one_pair(seed * 0x2545f4914f6cdd1dull, seed <= Z3_PAIRS, &t);
	for (int d = 0; d < PROVE_DIM_COUNT; d++) {
		printf("  %-8s exceeds %3u, within %3u, witnesses %u\n",
		       prove_dim_name((enum prove_dim)d), t.exceeds[d],
		       t.within[d], t.witnesses[d]);
		/* Not vacuous: both verdicts, often, in every dimension. */
		assert_true(t.exceeds[d] >= PAIRS / 20);
		assert_true(t.within[d] >= PAIRS / 20);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
