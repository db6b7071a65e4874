/* SPDX-License-Identifier: MIT */
/*
 * The differential test of `polc check --boundary`: random policy pairs,
 * each verdict checked against what the two COMPILED ARTIFACTS let the box
 * do, evaluated without the prover's code.
 *
 *   test_prove_diff [SEED [COUNT]]      (make check: seed 1, 400 pairs;
 *                                        make prove-fuzz SEED= COUNT=)
 *
 * A pair is two policy texts (diff_gen.c; half the NEW ones near misses of
 * their OLD) compiled by the front end and every backend into artifacts.
 * The prover judges the pair from the IRs (and, for every fourth pair, from
 * the artifacts, which must give the same findings; for every eighth, also
 * with the clause search's budget at one step, so Z3 decides). The ground
 * truth is computed from the artifacts by diff_model.c, over:
 *
 *   - syscalls: the SECCOMP programs, in the BPF interpreter, on every
 *     syscall either policy names and a few it does not (i386, x32, holes,
 *     numbers past the table), each over an argument grid built from the
 *     policies' constants: each value, +-1, with the bits outside its mask
 *     set, with its high word flipped or filled;
 *   - fs: the LANDLOCK rules and the VIEW entries bound in worlds: every
 *     variable fresh, each bound to every folder the generator's rules
 *     name or lead through (so holding, at, inside and beside the box's
 *     own mounts and the grants nested in them), two bound together, all
 *     to /a, and every rule path a symlink to a fresh folder, /b or /a/c;
 *     at every rule's folder and every own mount's, beneath each, at /
 *     and at the fresh folders. The view as docs/VIEW.md says it: a bind
 *     that lands in a mount of the box's own keeps its own restrictions;
 *   - net: the NET and NFT sections (the output chain run on a packet),
 *     Landlock's port rules: every end of every set element +-1, every
 *     port range end +-1, TCP and UDP, with no name, each name, or every
 *     name bound to the address; loopback, bind and the host network;
 *   - limits, env and the Landlock requirement (kernels of ABI 0..10):
 *     finite, so the prover must agree exactly.
 *
 * Failures: an excess the model finds in a dimension where the prover says
 * within; a witness that does not replay on both artifacts; a syscall
 * witness less permissive than an excess the grid found for that call;
 * the artifact route or the Z3 route disagreeing; a policy exceeding
 * itself. An excess the prover finds beyond the grid is fine if it
 * replays.
 *
 * What this shares with the prover, and why that is safe: the front end
 * and the backends (they make the artifacts: what is tested is that the
 * prover's verdict on the policies matches what their artifacts enforce),
 * artifact/polbin_read.c (polexec's own reader), bpf/bpf_interp.c (a
 * plain interpreter of classic BPF, which none of the prover's deciding
 * code uses: those read the IR through compiler/logic/), libseccomp's
 * syscall numbers, and the IR, read only for the constants the grid is
 * built from. Nothing of compiler/prove/ but its API, nothing of
 * compiler/logic/, and not the prover's evaluators (prove_eval.c).
 */
#include "diff.h"

#include "backend/backend.h"
#include "diag.h"
#include "ir/ir.h"
#include "polbin_write.h"
#include "prove/prove.h"
#include "sema/sema.h"

#include "arg_grid.h"

#include <arpa/inet.h>
#include <linux/audit.h>
#include <linux/netfilter/nf_tables.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEXT	   8192
#define MAXVEC	   3000 /* vectors per syscall, sampled past it */
#define MAX_ADDRS  48
#define MAX_PORTS  40
#define MAX_WORLDS 320

struct side {
	char text[TEXT];
	struct ir_policy *ir;
	uint8_t *art;
	size_t artlen;
	struct dart a;
};

static struct {
	unsigned long pairs, rejected, failures, vectors, fs_points, net_points,
	    witnesses, artifact_checks, z3_checks, z3_syscalls, beyond_grid;
	unsigned long exceeds[PROVE_DIM_COUNT], within[PROVE_DIM_COUNT];
} st;

static uint64_t rng3;

/* ---- Making a side ------------------------------------------------------ */

static int artifact_of(struct side *s)
{
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	struct compiled c;
	uint8_t *ir = NULL;
	size_t irlen = 0;
	char err[512];
	int rc = -1;

	if (!w)
		return -1;
	if (backends_build(s->ir, &c, &ir, &irlen, err, sizeof(err)))
		goto out;
	if (polbin_writer_add(w, POLBIN_SEC_IR, POLBIN_F_CRITICAL, ir, irlen))
		goto out_c;
	for (size_t i = 0; i < c.n; i++)
		if (polbin_writer_add(w, c.sec[i].type, c.sec[i].flags,
				      c.sec[i].data, c.sec[i].len))
			goto out_c;
	if (polbin_writer_finish(w, &s->art, &s->artlen))
		goto out_c;
	if (dart_load(&s->a, s->art, s->artlen, err, sizeof(err))) {
		fprintf(stderr, "the model cannot read an artifact: %s\n%s",
			err, s->text);
		st.failures++;
		goto out_c;
	}
	rc = 0;
out_c:
	backends_free(&c);
out:
	free(ir);
	polbin_writer_destroy(&w);
	return rc;
}

static void side_free(struct side *s)
{
	ir_policy_destroy(&s->ir);
	free(s->art);
	s->art = NULL;
	dart_free(&s->a);
}

/* Text from g, compiled; 0, or -1 when the front end or a backend refuses. */
static int side_make(struct side *s, struct dgen *g)
{
	struct diag d;
	int rc;

	if (dgen_policy(g, s->text, sizeof(s->text)))
		return -1;
	diag_init(&d);
	rc = sema_compile_text(&d, "r.pol", s->text, strlen(s->text), NULL,
			       &s->ir);
	diag_fini(&d);
	if (rc)
		return -1;
	if (artifact_of(s)) {
		side_free(s);
		return -1;
	}
	return 0;
}

/* ---- Reporting ---------------------------------------------------------- */

static void report(const struct side *o, const struct side *n,
		   const struct prove_result *r, uint64_t seed, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));

static void report(const struct side *o, const struct side *n,
		   const struct prove_result *r, uint64_t seed, const char *fmt,
		   ...)
{
	va_list ap;

	st.failures++;
	if (st.failures > 10)
		return;
	fprintf(stderr, "FAIL (pair seed %llu): ", (unsigned long long)seed);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n--- old\n%s--- new\n%s--- polc check says\n",
		o->text, n->text);
	if (r)
		prove_print_text(r, stderr);
}

/* ---- Syscalls ----------------------------------------------------------- */

struct sysgt {
	int excess;
	char example[160];
	/* per call with an excess: the most permissive NEW action there */
	uint32_t arch[64], nr[64];
	int maxrank[64];
	unsigned n;
};

static void note_max(struct sysgt *g, uint32_t arch, uint32_t nr, int rank)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->arch[i] == arch && g->nr[i] == nr) {
			if (rank > g->maxrank[i])
				g->maxrank[i] = rank;
			return;
		}
	if (g->n < 64) {
		g->arch[g->n] = arch;
		g->nr[g->n] = nr;
		g->maxrank[g->n++] = rank;
	}
}

static int max_of(const struct sysgt *g, uint32_t arch, uint32_t nr)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->arch[i] == arch && g->nr[i] == nr)
			return g->maxrank[i];
	return -1;
}

static int one_point(const struct side *o, const struct side *n,
		     struct sysgt *g, const struct seccomp_data *d)
{
	int rn = dm_sys_rank(&n->a, d), ro = dm_sys_rank(&o->a, d);

	st.vectors++;
	if (rn < 0 || ro < 0)
		return -1;
	if (rn > ro) {
		if (!g->excess)
			snprintf(g->example, sizeof(g->example),
				 "arch 0x%x nr %d args 0x%llx 0x%llx 0x%llx: "
				 "new rank %d, old %d",
				 d->arch, d->nr, (unsigned long long)d->args[0],
				 (unsigned long long)d->args[1],
				 (unsigned long long)d->args[2], rn, ro);
		g->excess = 1;
		note_max(g, d->arch, (uint32_t)d->nr, rn);
	}
	return 0;
}

static int named(const struct ir_policy *p, const char *name)
{
	return ir_find_syscall(&p->sys, name) != NULL;
}

/* Is nr (x86_64) named by either policy? */
static int named_nr(const struct side *o, const struct side *n, int nr)
{
	char *nm = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
	int hit = nm && (named(o->ir, nm) || named(n->ir, nm));

	free(nm);
	return hit;
}

/*
 * Every call the grid found exceeding has its finding: a named syscall
 * one with its number, a foreign arch or x32 number the bad-arch one, a
 * number neither names the one that stands for all of them.
 */
static int sys_covered(const struct side *o, const struct side *n,
		       const struct sysgt *g, const struct prove_result *r,
		       char *what, size_t len)
{
	for (unsigned i = 0; i < g->n; i++) {
		int foreign =
		    g->arch[i] != AUDIT_ARCH_X86_64 || g->nr[i] >= 0x40000000u;
		int byname = !foreign && named_nr(o, n, (int)g->nr[i]);
		size_t k;

		for (k = 0; k < r->n; k++) {
			const struct prove_finding *f = &r->f[k];

			if (f->dim != PROVE_DIM_SYSCALLS)
				continue;
			if (foreign  ? f->sys.arch != AUDIT_ARCH_X86_64
			    : byname ? f->sys.arch == AUDIT_ARCH_X86_64 &&
					   f->sys.nr == g->nr[i]
				     : strstr(f->witness,
					      "neither policy names") != NULL)
				break;
		}
		if (k == r->n) {
			snprintf(what, len,
				 "no finding for arch 0x%x nr 0x%x, where the "
				 "grid has NEW at rank %d above OLD",
				 g->arch[i], g->nr[i], g->maxrank[i]);
			return 0;
		}
	}
	return 1;
}

static int gt_syscalls(const struct side *o, const struct side *n,
		       struct sysgt *g)
{
	static const uint64_t base[] = {0,	     1,		 0xffffffff,
					0x100000000, 0x80000000, ~0ull};
	const struct ir_policy *ps[2] = {o->ir, n->ir};
	struct seccomp_data d;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	/* Foreign arches, x32, and numbers neither policy names. */
	{
		static const uint32_t i386[] = {0, 102, 359};
		static const uint32_t other[] = {0x40000000u | 41, 0x40000000u,
						 1000, 0x3fffffffu};

		memset(&d, 0, sizeof(d));
		d.arch = AUDIT_ARCH_I386;
		for (unsigned i = 0; i < 3; i++) {
			d.nr = (int)i386[i];
			rc |= one_point(o, n, g, &d);
		}
		d.arch = AUDIT_ARCH_X86_64;
		for (unsigned i = 0; i < 4; i++) {
			d.nr = (int)other[i];
			rc |= one_point(o, n, g, &d);
		}
		for (int nr = 0; nr < 450; nr++) {
			char *nm = seccomp_syscall_resolve_num_arch(
			    SCMP_ARCH_X86_64, nr);
			int hit = nm && (named(o->ir, nm) || named(n->ir, nm));

			free(nm);
			if (nm && !hit) {
				d.nr = nr;
				rc |= one_point(o, n, g, &d);
				break;
			}
		}
	}
	for (int s = 0; s < 2; s++) {
		for (uint32_t c = 0; c < ps[s]->sys.ncalls; c++) {
			const char *name = ps[s]->sys.calls[c].name;
			uint64_t v[6][GRID_VALS];
			unsigned nv[6] = {0}, total = 1;

			if (s == 1 && named(o->ir, name))
				continue; /* done from OLD's side */
			for (int i = 0; i < 6; i++)
				grid_add(v[i], &nv[i], 0);
			grid_atoms(o->ir, name, v, nv);
			grid_atoms(n->ir, name, v, nv);
			for (int i = 0; i < 6; i++) {
				if (nv[i] > 1)
					for (unsigned b = 0; b < 6; b++)
						grid_add(v[i], &nv[i], base[b]);
				total *= nv[i];
			}
			memset(&d, 0, sizeof(d));
			d.arch = AUDIT_ARCH_X86_64;
			d.nr = seccomp_syscall_resolve_name_arch(
			    SCMP_ARCH_X86_64, name);
			for (unsigned t = 0;
			     t < (total < MAXVEC ? total : MAXVEC); t++) {
				unsigned idx =
				    total <= MAXVEC
					? t
					: (unsigned)(dgen_next(&rng3) % total);

				for (int i = 0; i < 6; i++) {
					d.args[i] = v[i][idx % nv[i]];
					idx /= nv[i];
				}
				rc |= one_point(o, n, g, &d);
			}
		}
	}
	return rc;
}

/* ---- fs ----------------------------------------------------------------- */

struct worlds {
	struct dm_world w[MAX_WORLDS];
	unsigned n;
	/* storage for the strings the worlds point at */
	char vars[8][64];
	char vals[MAX_WORLDS][8][DM_PATH];
	char links[MAX_WORLDS][DM_PATH];
	unsigned nvars;
};

static void var_add(struct worlds *ws, const char *path)
{
	char name[64];
	const char *e;

	if (path[0] == '~')
		snprintf(name, sizeof(name), "HOME");
	else if (path[0] == '$' && (e = strchr(path, '}')))
		snprintf(name, sizeof(name), "%.*s", (int)(e - path - 2),
			 path + 2);
	else
		return;
	for (unsigned i = 0; i < ws->nvars; i++)
		if (!strcmp(ws->vars[i], name))
			return;
	if (ws->nvars < 8)
		snprintf(ws->vars[ws->nvars++], 64, "%s", name);
}

/* A world with every variable fresh, then the overrides. */
static struct dm_world *world_new(struct worlds *ws)
{
	struct dm_world *w;

	if (ws->n == MAX_WORLDS)
		return NULL;
	w = &ws->w[ws->n];
	memset(w, 0, sizeof(*w));
	for (unsigned i = 0; i < ws->nvars; i++) {
		snprintf(ws->vals[ws->n][i], DM_PATH, "/.dm-fresh/var/%s",
			 ws->vars[i]);
		w->var[i] = ws->vars[i];
		w->val[i] = ws->vals[ws->n][i];
	}
	w->nvars = ws->nvars;
	ws->n++;
	return w;
}

static void build_worlds(const struct side *o, const struct side *n,
			 struct worlds *ws)
{
	/* every folder the generator's rules name or lead through: bound
	 * to one, the variable holds, is or lies inside the box's own
	 * mounts (diff_gen.c) and the grants nested in them */
	static const char *const vals[] = {
	    "/",      "/a",   "/a/b", "/b",	"/t",	 "/home", "/d",
	    "/p",     "/a/x", "/t/x", "/d/x",	"/b/x",	 "/a/w",  "/home/u",
	    "/a/b/x", "/n",   "/n/m", "/n/m/x", "/n/m/g"};
	static const char *const targets[] = {"/.dm-fresh/target", "/b",
					      "/a/c"};
	const struct dart *as[2] = {&o->a, &n->a};
	unsigned plain;

	memset(ws, 0, sizeof(*ws));
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < as[s]->nfs; i++)
			var_add(ws, as[s]->fs[i].path);
	world_new(ws);
	for (unsigned v = 0; v < ws->nvars; v++) {
		for (unsigned k = 0; k < sizeof(vals) / sizeof(*vals); k++) {
			struct dm_world *w = world_new(ws);

			if (w)
				snprintf(ws->vals[ws->n - 1][v], DM_PATH, "%s",
					 vals[k]);
		}
		for (unsigned u = 0; u < ws->nvars; u++) {
			struct dm_world *w = u == v ? NULL : world_new(ws);

			if (w) /* v and u one folder: u's */
				memcpy(ws->vals[ws->n - 1][v],
				       ws->vals[ws->n - 1][u], DM_PATH);
		}
	}
	if (ws->nvars && world_new(ws))
		for (unsigned v = 0; v < ws->nvars; v++)
			snprintf(ws->vals[ws->n - 1][v], DM_PATH, "/a");
	plain = ws->n;
	/* Each rule path a symlink, in the first and the last plain world. */
	for (unsigned base = 0; base < plain;
	     base += plain - 1 ? plain - 1 : 1) {
		for (int s = 0; s < 2; s++) {
			for (uint32_t i = 0; i < as[s]->nfs; i++) {
				for (unsigned t = 0; t < 3; t++) {
					struct dm_world *w;
					char b[DM_PATH];

					if (dm_bind(&ws->w[base],
						    as[s]->fs[i].path, b,
						    sizeof(b)) ||
					    !strcmp(b, "/") ||
					    !strncmp(targets[t], b,
						     strlen(b)) ||
					    !strncmp(b, targets[t],
						     strlen(targets[t])))
						continue;
					w = world_new(ws);
					if (!w)
						return;
					memcpy(ws->vals[ws->n - 1],
					       ws->vals[base],
					       sizeof(ws->vals[0]));
					snprintf(ws->links[ws->n - 1], DM_PATH,
						 "%s", b);
					w->symlink = ws->links[ws->n - 1];
					w->target = targets[t];
				}
			}
		}
		if (plain == 1)
			break;
	}
}

static int fs_excess_at(const struct side *o, const struct side *n,
			const struct dm_world *w, const char *loc, char *ex,
			size_t exlen)
{
	uint32_t rn = dm_fs_rights(&n->a, w, loc);
	uint32_t ro = dm_fs_rights(&o->a, w, loc);

	st.fs_points++;
	/* A world in which either refuses to build its view is a start
	 * condition, not part of the boundary (docs/PROVER.md). */
	if (!(rn & ~ro) || dm_view_refuses(&n->a, w) ||
	    dm_view_refuses(&o->a, w))
		return 0;
	snprintf(ex, exlen,
		 "rights 0x%x at %s (symlink %s -> %s): new 0x%x, "
		 "old 0x%x",
		 rn & ~ro, loc, w->symlink ? w->symlink : "-",
		 w->target ? w->target : "-", rn, ro);
	return 1;
}

/* NEW's own mounts: the same kind at the same path in OLD, no larger and
 * with no more rights, or OLD's rights on the host's folder there. */
static int own_excess(const struct side *o, const struct side *n, char *ex,
		      size_t exlen)
{
	struct dm_world w;

	memset(&w, 0, sizeof(w));
	for (uint32_t i = 0; n->a.view_root && i < n->a.nview; i++) {
		const struct dm_view_entry *e = &n->a.view[i];
		uint64_t ns, os;
		uint32_t nr, orr;
		int k;

		if (e->kind == POLBIN_VIEW_BIND || e->kind == POLBIN_VIEW_LINK)
			continue;
		dm_own_at(&n->a, e->path, &ns, &nr);
		k = dm_own_at(&o->a, e->path, &os, &orr);
		if (k == e->kind && !(nr & ~orr) && ns <= os)
			continue;
		if (!k && !(nr & ~dm_fs_rights(&o->a, &w, e->path)))
			continue;
		snprintf(ex, exlen, "own mount %s (kind %u)", e->path, e->kind);
		return 1;
	}
	return 0;
}

static int gt_fs(const struct side *o, const struct side *n, char *ex,
		 size_t exlen)
{
	static struct worlds ws;
	const struct dart *as[2] = {&o->a, &n->a};
	int views = 1;

	if (own_excess(o, n, ex, exlen))
		return 1;
	/* fs best_effort runs without the view where it cannot be had */
	if (n->a.view_root && n->a.view_best_effort) {
		if (o->a.view_root && !o->a.view_best_effort) {
			snprintf(ex, exlen, "best_effort against require");
			return 1;
		}
		views = 2;
	}
	build_worlds(o, n, &ws);
	for (unsigned k = 0; k < ws.n * (unsigned)views; k++) {
		struct dm_world wv = ws.w[k % ws.n];
		const struct dm_world *w = &wv;
		char loc[DM_PATH * 3];

		wv.noview = k >= ws.n;

		if (fs_excess_at(o, n, w, "/", ex, exlen) ||
		    fs_excess_at(o, n, w, "/zz", ex, exlen))
			return 1;
		if (w->target) {
			snprintf(loc, sizeof(loc), "%s/x", w->target);
			if (fs_excess_at(o, n, w, w->target, ex, exlen) ||
			    fs_excess_at(o, n, w, loc, ex, exlen))
				return 1;
		}
		for (unsigned v = 0; v < w->nvars; v++) {
			snprintf(loc, sizeof(loc), "%s/x", w->val[v]);
			if (fs_excess_at(o, n, w, w->val[v], ex, exlen) ||
			    fs_excess_at(o, n, w, loc, ex, exlen))
				return 1;
		}
		/* the box's own mounts (the VIEW section's), and beneath */
		for (int s = 0; s < 2; s++) {
			for (uint32_t i = 0; i < as[s]->nview; i++) {
				const struct dm_view_entry *e = &as[s]->view[i];

				if (e->kind == POLBIN_VIEW_BIND ||
				    e->kind == POLBIN_VIEW_LINK)
					continue;
				snprintf(loc, sizeof(loc), "%s/x", e->path);
				if (fs_excess_at(o, n, w, e->path, ex, exlen) ||
				    fs_excess_at(o, n, w, loc, ex, exlen))
					return 1;
			}
		}
		for (int s = 0; s < 2; s++) {
			for (uint32_t i = 0; i < as[s]->nfs; i++) {
				char b[DM_PATH * 2];

				if (dm_bind(w, as[s]->fs[i].path, b, sizeof(b)))
					continue;
				snprintf(loc, sizeof(loc), "%s/x", b);
				if (fs_excess_at(o, n, w, b, ex, exlen) ||
				    fs_excess_at(o, n, w, loc, ex, exlen))
					return 1;
				if (w->symlink && strcmp(w->symlink, "/") &&
				    !strncmp(b, w->symlink,
					     strlen(w->symlink))) {
					snprintf(loc, sizeof(loc), "%s%s",
						 w->target,
						 b + strlen(w->symlink));
					if (fs_excess_at(o, n, w, loc, ex,
							 exlen))
						return 1;
				}
			}
		}
	}
	return 0;
}

/* ---- net ---------------------------------------------------------------- */

typedef unsigned __int128 u128;

static u128 addr_get(const uint8_t *a, int fam)
{
	u128 v = 0;

	for (int i = 0; i < (fam == 4 ? 4 : 16); i++)
		v = v << 8 | a[i];
	return v;
}

static void addr_put(uint8_t *a, u128 v, int fam)
{
	memset(a, 0, 16);
	for (int i = (fam == 4 ? 4 : 16) - 1; i >= 0; i--, v >>= 8)
		a[i] = (uint8_t)v;
}

static void u128_add(u128 *v, unsigned *n, u128 x)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < MAX_ADDRS)
		v[(*n)++] = x;
}

static void port_add(uint16_t *v, unsigned *n, long x)
{
	if (x < 0 || x > 65535)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < MAX_PORTS)
		v[(*n)++] = (uint16_t)x;
}

static void points_of(const struct dart *a, u128 addrs[2][MAX_ADDRS],
		      unsigned na[2], uint16_t *ports, unsigned *np,
		      const char **names, unsigned *nn)
{
	for (uint32_t i = 0; i < a->nsets; i++) {
		const struct dm_set *s = &a->sets[i];
		int f = s->key_len == POLBIN_NFT_KEY6_LEN || s->key_len == 16;
		unsigned al = f ? 16 : 4;

		if (!(s->flags & NFT_SET_INTERVAL))
			continue;
		for (uint32_t e = 0; e < s->nelems; e++) {
			u128 lo = addr_get(s->elems[e].key, f ? 6 : 4);
			u128 hi = addr_get(s->elems[e].end, f ? 6 : 4);
			long pl = s->elems[e].key[al + 4] << 8 |
				  s->elems[e].key[al + 5];
			long ph = s->elems[e].end[al + 4] << 8 |
				  s->elems[e].end[al + 5];

			u128_add(addrs[f], &na[f], lo);
			u128_add(addrs[f], &na[f], hi);
			u128_add(addrs[f], &na[f], lo - 1);
			u128_add(addrs[f], &na[f], hi + 1);
			port_add(ports, np, pl);
			port_add(ports, np, ph);
			port_add(ports, np, pl - 1);
			port_add(ports, np, ph + 1);
		}
	}
	for (uint32_t i = 0; i < a->nrt; i++) {
		unsigned k;

		port_add(ports, np, a->rt[i].lo);
		port_add(ports, np, a->rt[i].hi);
		port_add(ports, np, (long)a->rt[i].lo - 1);
		port_add(ports, np, (long)a->rt[i].hi + 1);
		for (k = 0; k < *nn; k++)
			if (!strcmp(names[k], a->rt[i].name))
				break;
		if (k == *nn && *nn < 6)
			names[(*nn)++] = a->rt[i].name;
	}
	for (uint32_t i = 0; i < a->nloop; i++) {
		port_add(ports, np, a->loop[i].lo);
		port_add(ports, np, a->loop[i].hi);
		port_add(ports, np, (long)a->loop[i].lo - 1);
		port_add(ports, np, (long)a->loop[i].hi + 1);
	}
	for (uint32_t i = 0; i < a->nports; i++) {
		port_add(ports, np, a->ports[i].lo);
		port_add(ports, np, a->ports[i].hi);
		port_add(ports, np, (long)a->ports[i].lo - 1);
		port_add(ports, np, (long)a->ports[i].hi + 1);
	}
}

static int net_excess(const struct side *o, const struct side *n,
		      const struct dm_net_point *p, char *ex, size_t exlen)
{
	int rn = dm_net_reaches(&n->a, p), ro = dm_net_reaches(&o->a, p);
	char a[64] = "";

	st.net_points++;
	if (rn < 0 || ro < 0) {
		snprintf(ex, exlen, "the model cannot run the table");
		return -1;
	}
	if (!rn || ro)
		return 0;
	if (p->kind == DM_NET_ADDR)
		inet_ntop(p->family == 4 ? AF_INET : AF_INET6, p->addr, a,
			  sizeof(a));
	snprintf(ex, exlen, "kind %d %s port %u proto %u names %u%s%s", p->kind,
		 a, p->port, p->proto, p->nnames, p->nnames ? " " : "",
		 p->nnames ? p->names[0] : "");
	return 1;
}

static int gt_net(const struct side *o, const struct side *n, char *ex,
		  size_t exlen)
{
	static const uint16_t fixed[] = {0, 1, 22, 80, 443, 444, 8080, 65535};
	u128 addrs[2][MAX_ADDRS];
	unsigned na[2] = {0, 0}, np = 0, nn = 0;
	uint16_t ports[MAX_PORTS];
	const char *names[6];
	struct dm_net_point p;
	int r;

	for (unsigned i = 0; i < 8; i++)
		port_add(ports, &np, fixed[i]);
	u128_add(addrs[0], &na[0], 0);
	u128_add(addrs[0], &na[0], 0xffffffffu);
	u128_add(addrs[0], &na[0], 0x0a000005u);
	u128_add(addrs[0], &na[0], 0x7f000001u);
	u128_add(addrs[1], &na[1], 0);
	u128_add(addrs[1], &na[1], ~(u128)0);
	u128_add(addrs[1], &na[1], 1);
	u128_add(addrs[1], &na[1], (u128)0xffff0a000001ull);
	points_of(&o->a, addrs, na, ports, &np, names, &nn);
	points_of(&n->a, addrs, na, ports, &np, names, &nn);
	memset(&p, 0, sizeof(p));
	p.kind = DM_NET_HOSTNET;
	if ((r = net_excess(o, n, &p, ex, exlen)))
		return r;
	p.kind = DM_NET_SHARED;
	if ((r = net_excess(o, n, &p, ex, exlen)))
		return r;
	for (unsigned k = 0; k < np; k++) {
		p.port = ports[k];
		p.proto = 6;
		p.kind = DM_NET_LOOPBACK;
		if ((r = net_excess(o, n, &p, ex, exlen)))
			return r;
		p.kind = DM_NET_BIND;
		if ((r = net_excess(o, n, &p, ex, exlen)))
			return r;
	}
	p.kind = DM_NET_ADDR;
	for (int f = 0; f < 2; f++) {
		p.family = f ? 6 : 4;
		for (unsigned ai = 0; ai < na[f]; ai++) {
			addr_put(p.addr, addrs[f][ai], p.family);
			for (unsigned k = 0; k < np; k++) {
				p.port = ports[k];
				for (int pr = 0; pr < 2; pr++) {
					p.proto = pr ? 17 : 6;
					/* no name, each one, all of them */
					for (unsigned b = 0; b < nn + 2; b++) {
						if (b == 1 && nn < 2)
							continue;
						p.nnames = b == 0   ? 0
							   : b == 1 ? nn
								    : 1;
						if (b >= 2)
							p.names[0] =
							    names[b - 2];
						else
							for (unsigned q = 0;
							     q < nn; q++)
								p.names[q] =
								    names[q];
						if ((r = net_excess(o, n, &p,
								    ex, exlen)))
							return r;
					}
				}
			}
		}
	}
	return 0;
}

/* ---- limits, env, Landlock ---------------------------------------------- */

static const char *const ceiling_names[DM_C_COUNT] = {
    "memory", "pids", "nofile", "cpu + grace", "wall + grace", "fsize", "core",
};

static int ceiling_excess(const struct side *o, const struct side *n, int c)
{
	uint64_t vn = 0, vo = 0;
	int ln = dm_ceiling(&n->a, c, &vn), lo = dm_ceiling(&o->a, c, &vo);

	return lo && (!ln || vn > vo);
}

static int mode_excess(const struct side *o, const struct side *n, unsigned i)
{
	return dm_limits_require(&o->a) && !dm_limits_require(&n->a) &&
	       dm_limit_set(&o->a, i) && dm_limit_set(&n->a, i);
}

static int gt_limits(const struct side *o, const struct side *n)
{
	for (int c = 0; c < DM_C_COUNT; c++)
		if (ceiling_excess(o, n, c))
			return 1;
	return mode_excess(o, n, 0) || mode_excess(o, n, 1);
}

static int finding_named(const struct prove_result *r, int dim, const char *w)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].dim == (enum prove_dim)dim &&
		    !strcmp(r->f[i].witness, w))
			return 1;
	return 0;
}

static int findings_in(const struct prove_result *r, int dim)
{
	int k = 0;

	for (size_t i = 0; i < r->n; i++)
		k += r->f[i].dim == (enum prove_dim)dim;
	return k;
}

/*
 * limits, env and Landlock are finite: the findings are exactly the items
 * the artifacts show (a finding for each exceeding ceiling, one for the
 * mode, one per variable, one for a kernel NEW runs on and OLD does not,
 * one for the scopes). 0, or what differs in what.
 */
static int finite_exact(const struct side *o, const struct side *n,
			const struct prove_result *r, char *what, size_t len)
{
	int want = 0, runs_k = -1, scope = 0;

	for (int c = 0; c < DM_C_COUNT; c++) {
		int e = ceiling_excess(o, n, c);

		want += e;
		if (e != finding_named(r, PROVE_DIM_LIMITS, ceiling_names[c])) {
			snprintf(what, len, "limits: %s: the artifacts say %s",
				 ceiling_names[c], e ? "exceeds" : "within");
			return 0;
		}
	}
	if (mode_excess(o, n, 0) || mode_excess(o, n, 1)) {
		want++;
		if (!finding_named(r, PROVE_DIM_LIMITS,
				   mode_excess(o, n, 0)
				       ? "memory without a cgroup"
				       : "pids without a cgroup")) {
			snprintf(what, len, "limits: no finding for the mode");
			return 0;
		}
	}
	if (findings_in(r, PROVE_DIM_LIMITS) != want) {
		snprintf(what, len,
			 "limits: %d findings, the artifacts show %d",
			 findings_in(r, PROVE_DIM_LIMITS), want);
		return 0;
	}
	want = 0;
	for (uint32_t i = 0; i < n->a.nenv; i++) {
		int e = !dm_env_gives(&o->a, &n->a.env[i]);

		want += e;
		if (e != finding_named(r, PROVE_DIM_ENV, n->a.env[i].name)) {
			snprintf(what, len, "env: %s: the artifacts say %s",
				 n->a.env[i].name, e ? "exceeds" : "within");
			return 0;
		}
	}
	if (findings_in(r, PROVE_DIM_ENV) != want) {
		snprintf(what, len, "env: %d findings, the artifacts show %d",
			 findings_in(r, PROVE_DIM_ENV), want);
		return 0;
	}
	for (uint32_t k = 0; k <= 10; k++) {
		if (runs_k < 0 && dm_ll_runs(&n->a, k) && !dm_ll_runs(&o->a, k))
			runs_k = (int)k;
		if (dm_ll_runs(&n->a, k) && dm_ll_runs(&o->a, k) &&
		    dm_ll_scoped(&o->a, k) && !dm_ll_scoped(&n->a, k))
			scope = 1;
	}
	want = (runs_k >= 0) + scope;
	if (findings_in(r, PROVE_DIM_LANDLOCK) != want) {
		snprintf(
		    what, len,
		    "landlock: %d findings, the artifacts show %d (a kernel "
		    "NEW alone runs on: %d, scopes: %d)",
		    findings_in(r, PROVE_DIM_LANDLOCK), want, runs_k, scope);
		return 0;
	}
	return 1;
}

static int gt_env(const struct side *o, const struct side *n)
{
	for (uint32_t i = 0; i < n->a.nenv; i++)
		if (!dm_env_gives(&o->a, &n->a.env[i]))
			return 1;
	return 0;
}

static int ll_excess(const struct side *o, const struct side *n, uint32_t k)
{
	return dm_ll_runs(&n->a, k) &&
	       (!dm_ll_runs(&o->a, k) ||
		(dm_ll_scoped(&o->a, k) && !dm_ll_scoped(&n->a, k)));
}

static int gt_landlock(const struct side *o, const struct side *n)
{
	for (uint32_t k = 0; k <= 10; k++)
		if (ll_excess(o, n, k))
			return 1;
	return 0;
}

/* ---- user --------------------------------------------------------------- */

/* Who the box runs as (the VIEW section's user, else the caller's own). */
static int gt_user(const struct side *o, const struct side *n)
{
	return o->a.user != n->a.user || o->a.uid != n->a.uid ||
	       o->a.gid != n->a.gid;
}

/* ---- Replaying the prover's witnesses on both artifacts ----------------- */

static int replay_fs(const struct side *o, const struct side *n,
		     const struct prove_finding *f, const char *fresh)
{
	static struct worlds ws;
	char vals[8][DM_PATH], loc[DM_PATH * 2], target[DM_PATH],
	    link[DM_PATH * 2];
	struct dm_world w;

	if (f->fs.own) {
		char ex[128];

		return own_excess(o, n, ex, sizeof(ex));
	}
	if (!f->fs.rights) /* best_effort against require */
		return n->a.view_best_effort && o->a.view_root &&
		       !o->a.view_best_effort;
	build_worlds(o, n, &ws);
	memset(&w, 0, sizeof(w));
	for (unsigned i = 0; i < ws.nvars; i++) {
		if (f->fs.var && !strcmp(f->fs.var, ws.vars[i]) && f->fs.at)
			snprintf(vals[i], DM_PATH, "%s", f->fs.under);
		else if (f->fs.var && !strcmp(f->fs.var, ws.vars[i]))
			snprintf(vals[i], DM_PATH, "%s/%s-%s",
				 strcmp(f->fs.under, "/") ? f->fs.under : "",
				 fresh, ws.vars[i]);
		else
			snprintf(vals[i], DM_PATH, "/%s/var/%s", fresh,
				 ws.vars[i]);
		w.var[i] = ws.vars[i];
		w.val[i] = vals[i];
	}
	w.nvars = ws.nvars;
	w.noview = f->fs.noview;
	if (dm_bind(&w, f->fs.path, loc, sizeof(loc)))
		return 0;
	if (f->fs.symlink) {
		snprintf(link, sizeof(link), "%s", loc);
		if (f->fs.target)
			snprintf(target, sizeof(target), "%s", f->fs.target);
		else
			snprintf(target, sizeof(target), "/%s/target", fresh);
		w.symlink = link;
		w.target = target;
		snprintf(loc, sizeof(loc), "%s", target);
	}
	return (dm_fs_rights(&n->a, &w, loc) & f->fs.rights) == f->fs.rights &&
	       !(dm_fs_rights(&o->a, &w, loc) & f->fs.rights);
}

static int replay_net(const struct side *o, const struct side *n,
		      const struct prove_finding *f)
{
	struct dm_net_point p = {0};
	int rn, ro;

	p.kind = f->net.kind == PROVE_NET_ADDR	     ? DM_NET_ADDR
		 : f->net.kind == PROVE_NET_LOOPBACK ? DM_NET_LOOPBACK
		 : f->net.kind == PROVE_NET_BIND     ? DM_NET_BIND
		 : f->net.kind == PROVE_NET_SHARED   ? DM_NET_SHARED
						     : DM_NET_HOSTNET;
	p.family = f->net.family == IR_ADDR_V6 ? 6 : 4;
	p.proto = f->net.proto ? f->net.proto : 6;
	memcpy(p.addr, f->net.addr, 16);
	p.port = f->net.port;
	if (f->net.name) {
		p.names[0] = f->net.name;
		p.nnames = 1;
	}
	rn = dm_net_reaches(&n->a, &p);
	ro = dm_net_reaches(&o->a, &p);
	return rn == 1 && ro == 0;
}

static int replay_limits(const struct side *o, const struct side *n,
			 const char *w)
{
	for (int c = 0; c < DM_C_COUNT; c++)
		if (!strcmp(w, ceiling_names[c]))
			return ceiling_excess(o, n, c);
	if (!strcmp(w, "memory without a cgroup"))
		return mode_excess(o, n, 0);
	if (!strcmp(w, "pids without a cgroup"))
		return mode_excess(o, n, 1);
	return 0;
}

static int replay_env(const struct side *o, const struct side *n,
		      const char *name)
{
	for (uint32_t i = 0; i < n->a.nenv; i++)
		if (!strcmp(n->a.env[i].name, name))
			return !dm_env_gives(&o->a, &n->a.env[i]);
	return 0;
}

static int replay_landlock(const struct side *o, const struct side *n,
			   const char *w)
{
	unsigned k;

	if (!strcmp(w, "kernel without Landlock"))
		return ll_excess(o, n, 0);
	if (sscanf(w, "kernel with Landlock ABI %u", &k) == 1)
		return ll_excess(o, n, k);
	return 0;
}

/* Every finding of r replayed; 0, or a failure reported. */
static int replay(const struct side *o, const struct side *n,
		  const struct prove_result *r, const struct sysgt *g,
		  uint64_t seed, const char *route)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct prove_finding *f = &r->f[i];
		int ok = 0;

		st.witnesses++;
		switch (f->dim) {
		case PROVE_DIM_SYSCALLS: {
			struct seccomp_data d = {.nr = (int)f->sys.nr,
						 .arch = f->sys.arch};
			int rn, ro, m;

			memcpy(d.args, f->sys.args, sizeof(d.args));
			rn = dm_sys_rank(&n->a, &d);
			ro = dm_sys_rank(&o->a, &d);
			m = max_of(g, f->sys.arch, f->sys.nr);
			ok = rn > ro && ro >= 0;
			if (ok && m > rn) {
				report(o, n, r, seed,
				       "%s: witness %s gives new rank %d, the "
				       "grid found an excess of rank %d there",
				       route, f->witness, rn, m);
				return -1;
			}
			break;
		}
		case PROVE_DIM_FS:
			ok = replay_fs(o, n, f, r->fresh);
			break;
		case PROVE_DIM_NET:
			ok = replay_net(o, n, f);
			break;
		case PROVE_DIM_LIMITS:
			ok = replay_limits(o, n, f->witness);
			break;
		case PROVE_DIM_ENV:
			ok = replay_env(o, n, f->witness);
			break;
		case PROVE_DIM_LANDLOCK:
			ok = replay_landlock(o, n, f->witness);
			break;
		case PROVE_DIM_USER:
			ok = gt_user(o, n);
			break;
		default:
			break;
		}
		if (!ok) {
			report(o, n, r, seed,
			       "%s: %s witness '%s' does not replay on the "
			       "artifacts",
			       route, prove_dim_name(f->dim), f->witness);
			return -1;
		}
	}
	return 0;
}

/* ---- One pair ----------------------------------------------------------- */

static int same_findings(const struct prove_result *a,
			 const struct prove_result *b, int dim_only)
{
	if (a->n != b->n && !dim_only)
		return 0;
	for (size_t i = 0; !dim_only && i < a->n; i++)
		if (a->f[i].dim != b->f[i].dim ||
		    strcmp(a->f[i].witness, b->f[i].witness) ||
		    strcmp(a->f[i].new_s, b->f[i].new_s) ||
		    strcmp(a->f[i].old_s, b->f[i].old_s))
			return 0;
	return 1;
}

static int has_dim(const struct prove_result *r, int d)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].dim == (enum prove_dim)d)
			return 1;
	return 0;
}

/* The CPU time each check took (a figure for docs/PROVER.md, never a
 * verdict): the prover on the two IRs, default options. */
#define MAX_TIMED 100000
static double ms[MAX_TIMED];
static unsigned long nms;

static int by_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void check_pair(struct side *o, struct side *n, uint64_t seed,
		       unsigned long idx)
{
	struct prove_result r, r2;
	struct sysgt g;
	char err[512], ex[PROVE_DIM_COUNT][256];
	int gt[PROVE_DIM_COUNT] = {0};
	struct timespec t0, t1;
	int rc;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	rc = prove_boundary(o->ir, n->ir, NULL, &r, err, sizeof(err));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	if (nms < MAX_TIMED)
		ms[nms++] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (rc) {
		report(o, n, NULL, seed, "polc check fails: %s", err);
		return;
	}
	if (r.exceeds != (r.n > 0))
		report(o, n, &r, seed, "verdict and findings disagree");
	memset(ex, 0, sizeof(ex));
	if (gt_syscalls(o, n, &g))
		report(o, n, &r, seed, "the BPF interpreter refused a program");
	gt[PROVE_DIM_SYSCALLS] = g.excess;
	snprintf(ex[PROVE_DIM_SYSCALLS], sizeof(ex[0]), "%s", g.example);
	gt[PROVE_DIM_FS] = gt_fs(o, n, ex[PROVE_DIM_FS], sizeof(ex[0]));
	gt[PROVE_DIM_NET] = gt_net(o, n, ex[PROVE_DIM_NET], sizeof(ex[0]));
	if (gt[PROVE_DIM_NET] < 0) {
		report(o, n, &r, seed, "net: %s", ex[PROVE_DIM_NET]);
		gt[PROVE_DIM_NET] = 0;
	}
	gt[PROVE_DIM_LIMITS] = gt_limits(o, n);
	gt[PROVE_DIM_ENV] = gt_env(o, n);
	gt[PROVE_DIM_LANDLOCK] = gt_landlock(o, n);
	gt[PROVE_DIM_USER] = gt_user(o, n);
	if (!sys_covered(o, n, &g, &r, ex[0], sizeof(ex[0])))
		report(o, n, &r, seed, "syscalls: %s", ex[0]);
	if (!finite_exact(o, n, &r, ex[0], sizeof(ex[0])))
		report(o, n, &r, seed, "%s", ex[0]);
	snprintf(ex[PROVE_DIM_SYSCALLS], sizeof(ex[0]), "%s", g.example);
	for (int d = 0; d < PROVE_DIM_COUNT; d++) {
		int has = has_dim(&r, d);

		if (gt[d] && !has)
			report(o, n, &r, seed,
			       "%s: within, but the artifacts let NEW do more: "
			       "%s",
			       prove_dim_name((enum prove_dim)d), ex[d]);
		else if (!gt[d] && has && d >= PROVE_DIM_LIMITS)
			report(o, n, &r, seed,
			       "%s: a finding the artifacts do not show",
			       prove_dim_name((enum prove_dim)d));
		else if (!gt[d] && has)
			st.beyond_grid++;
		st.exceeds[d] += has;
		st.within[d] += !has;
	}
	replay(o, n, &r, &g, seed, "sources");
	/* The artifacts, re-validated, must give the same findings. */
	if (idx % 4 == 0) {
		struct ir_policy *ao = NULL, *an = NULL;

		st.artifact_checks++;
		if (prove_load_artifact(o->art, o->artlen, &ao, err,
					sizeof(err)) ||
		    prove_load_artifact(n->art, n->artlen, &an, err,
					sizeof(err)) ||
		    prove_boundary(ao, an, NULL, &r2, err, sizeof(err))) {
			report(o, n, &r, seed, "artifacts: %s", err);
		} else {
			if (!same_findings(&r, &r2, 0))
				report(o, n, &r2, seed,
				       "artifacts give other findings");
			prove_result_free(&r2);
		}
		ir_policy_destroy(&ao);
		ir_policy_destroy(&an);
	}
	/* Z3 deciding every syscall with an argument test. */
	if (idx % 8 == 1) {
		struct prove_opts tiny = {1, 0, 1, 0};

		st.z3_checks++;
		if (prove_boundary(o->ir, n->ir, &tiny, &r2, err,
				   sizeof(err))) {
			report(o, n, &r, seed, "Z3 route: %s", err);
		} else {
			st.z3_syscalls += r2.z3_syscalls;
			if (has_dim(&r2, PROVE_DIM_SYSCALLS) !=
			    has_dim(&r, PROVE_DIM_SYSCALLS))
				report(o, n, &r2, seed,
				       "Z3 route: another syscalls verdict");
			replay(o, n, &r2, &g, seed, "Z3 route");
			prove_result_free(&r2);
		}
	}
	prove_result_free(&r);
	for (int s = 0; s < 2; s++) {
		struct side *x = s ? n : o;

		if (prove_boundary(x->ir, x->ir, NULL, &r2, err, sizeof(err)) ||
		    r2.exceeds)
			report(x, x, NULL, seed,
			       "a policy is not within itself");
		else
			prove_result_free(&r2);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 400;
	static struct side o, n;
	struct timespec t0, t1;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	rng3 = seed * 0x2545f4914f6cdd1dull | 1;
	for (unsigned long i = 0; i < count; i++) {
		uint64_t s = (seed * 1000003ull + i) * 0x9e3779b97f4a7c15ull;
		struct dgen g;
		int tries;

		for (tries = 0; tries < 50;
		     tries++, s += 0x632be59bd9b4e019ull) {
			dgen_init(&g, s, 0);
			g.frame = i % 8 == 1;
			if (!side_make(&o, &g))
				break;
			st.rejected++;
		}
		if (tries == 50)
			continue;
		for (tries = 0; tries < 50; tries++) {
			/* near misses (one choice in 6 or in 2 redrawn;
			 * one pair in 8 only in the fs frame), and one pair
			 * in four independent */
			dgen_init(&g, i % 4 == 3 ? s ^ 0xabcdefull : s,
				  i % 8 == 1 ? 2 : i % 4 != 3);
			g.rate = i % 4 == 2 || i % 8 == 1 ? 2 : 6;
			g.frame = i % 8 == 1;
			g.r2 ^= (uint64_t)tries * 0xd1b54a32d192ed03ull;
			if (i % 4 == 3)
				g.r1 ^= (uint64_t)tries * 0xd1b54a32d192ed03ull;
			if (!side_make(&n, &g))
				break;
			st.rejected++;
		}
		if (tries < 50) {
			st.pairs++;
			check_pair(&o, &n, s, i);
			side_free(&n);
		}
		side_free(&o);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("prove-diff: seed %llu, %lu pairs (%lu drawn texts refused by "
	       "the front end), %.1f s\n",
	       (unsigned long long)seed, st.pairs, st.rejected, secs);
	if (nms) {
		qsort(ms, nms, sizeof(*ms), by_ms);
		printf("  check CPU time: median %.2f ms, p90 %.2f ms, worst "
		       "%.1f ms (%lu checks)\n",
		       ms[nms / 2], ms[nms * 9 / 10], ms[nms - 1], nms);
	}
	printf("  points: %lu syscall vectors (each through both programs), "
	       "%lu fs (world, path), %lu net\n",
	       st.vectors, st.fs_points, st.net_points);
	printf(
	    "  %lu witnesses replayed; %lu pairs also from artifacts, %lu "
	    "through Z3 (%lu syscalls there); %lu findings beyond the grid\n",
	    st.witnesses, st.artifact_checks, st.z3_checks, st.z3_syscalls,
	    st.beyond_grid);
	for (int d = 0; d < PROVE_DIM_COUNT; d++)
		printf("  %-8s exceeds %5lu, within %5lu\n",
		       prove_dim_name((enum prove_dim)d), st.exceeds[d],
		       st.within[d]);
	/* Not vacuous: both verdicts in every dimension, often. */
	for (int d = 0; d < PROVE_DIM_COUNT; d++)
		if (st.pairs >= 100 && (st.exceeds[d] < st.pairs / 50 ||
					st.within[d] < st.pairs / 50)) {
			printf("prove-diff: %s is one-sided: the generator "
			       "does not reach it\n",
			       prove_dim_name((enum prove_dim)d));
			st.failures++;
		}
	printf("prove-diff: %lu failures\n", st.failures);
	return st.failures ? 1 : 0;
}
