/* SPDX-License-Identifier: MIT */
/*
 * The filesystem dimension: every path and every Landlock right, in the
 * box's own view (docs/VIEW.md).
 *
 * The model. Landlock's: a rule grants its rights on its folder and
 * everything beneath it; a nested rule adds rights, it never removes any.
 * The view's, on top: the box sees a host path only beneath a grant, and
 * not beneath a mount of its own (tmpfs, dev, proc) that is deeper than
 * every grant holding the path; where it sees it, the mount the grants
 * make takes away what none of them has (read-only without a right that
 * changes the tree, noexec without execute, nodev without a device
 * right). So the rights on the host's data at a path p are: none when the
 * deepest rule holding p is a mount of the box's own or no rule holds p;
 * else the rights the ruleset leaves free plus the union of every rule
 * holding p (the box's own mounts' Landlock rules count too), less what
 * the mount at p takes: that of the grants holding p beneath the deepest
 * own mount holding it (a bind that lands in a mount of the box's own
 * keeps its own restrictions). A mount of the box's own grants nothing of
 * the host; it is itself a thing the box gets, compared by kind, size
 * and rights against what the boundary has at that path.
 *
 * NEW is within OLD iff in every world, at every path, NEW's rights on
 * host data are OLD's or fewer, and every mount of NEW's own is matched
 * (the same kind at the same path, no larger, no more rights) or covered
 * by OLD's rights on the host's folder there.
 *
 * Paths are strings (the semantic pass normalized them and refused `..`).
 * A root is `/`, `~` or a `${VAR}`; polexec binds `~` and variables at
 * run time to any folder, the same one for both policies. The worlds also
 * decide which rule paths are symlinks, and whether the view is there.
 * Exactly:
 *
 *   - Fresh world (no symlinks; every variable bound to a fresh folder
 *     outside every rule path): check p = each NEW rule path, and each
 *     of OLD's own mounts. NEW's rights only grow going down, and change
 *     only at NEW's rules; OLD's grow too, except at OLD's own mounts,
 *     where they drop to none. So a path beneath a NEW rule exceeds only
 *     if the rule's path or an own mount of OLD's does. Rights NEW holds
 *     at p that it already holds (and OLD lacks) at a NEW rule above p
 *     are reported there.
 *   - With a mount of the box's own in either policy, each variable NEW
 *     uses, the others fresh, bound to every absolute rule path, every
 *     folder holding one, and a fresh folder inside each rule path: any
 *     binding relates to the literal rule paths as one of these does
 *     (docs/PROVER.md, "Roots and variables"). Without one, the fresh
 *     world is the worst (Landlock's union only grows with rules).
 *   - `follow`: a NEW rule on p with `follow` grants its rights on
 *     whatever p points to when p is a symlink; the worst target is a
 *     fresh folder, where OLD grants its `/` rule's rights and, if OLD
 *     also follows p, that rule's rights. A rule without `follow` on a
 *     path through a symlink is not installed, so it grants nothing.
 *   - `optional`, and a required rule's refusal to start where its path
 *     is missing, are start conditions on the world's content: not part
 *     of the boundary (docs/PROVER.md, "Start conditions"). A rule on a
 *     missing path grants nothing, skipped or refused, so `optional` is
 *     never compared.
 *   - `fs best_effort`: where the view cannot be had, the box runs on the
 *     host's tree with Landlock alone. NEW best_effort against OLD
 *     require is one finding; both best_effort, that world is compared
 *     with Landlock's model alone.
 *   - No fs block: no Landlock ruleset and no view, every right
 *     everywhere.
 */
#include "prove_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A path split after its root: "" (absolute) or "${NAME}". polexec binds
 * ~ exactly as ${HOME} (the caller's HOME), so ~ is that root too.
 */
struct fpath {
	const char *root;
	size_t rootlen;
	const char *rest; /* "" for the root itself, else "/a/b" */
};

struct fsv {
	const struct ir_policy *p;
	int noview;    /* Landlock's model alone: the own mounts are absent */
	uint32_t free; /* rights granted everywhere (not handled) */
	uint32_t root; /* rights of the rule on `/` */
	struct fpath *f;
	uint32_t n;
};

/* Rights that change the tree (a read-only mount takes them). */
#define FS_WRITE                                                               \
	(IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |             \
	 IR_FS_MAKE_CHAR | IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | \
	 IR_FS_MAKE_FIFO | IR_FS_MAKE_BLOCK | IR_FS_MAKE_SYM | IR_FS_REFER |   \
	 IR_FS_TRUNCATE)

static void split(const char *path, struct fpath *f)
{
	const char *end;

	f->root = path;
	if (path[0] == '/') {
		f->rootlen = 0;
		f->rest = strcmp(path, "/") ? path : "";
	} else if (path[0] == '~') {
		f->root = "${HOME}";
		f->rootlen = 7;
		f->rest = path + 1;
	} else {
		end = strchr(path, '}');
		f->rootlen = end ? (size_t)(end - path + 1) : strlen(path);
		f->rest = path + f->rootlen;
	}
}

/* Is a the folder b, or one holding it? */
static int above(const struct fpath *a, const struct fpath *b)
{
	size_t la = strlen(a->rest);

	if (a->rootlen != b->rootlen || memcmp(a->root, b->root, a->rootlen))
		return 0;
	if (la == 0)
		return 1;
	return !strncmp(a->rest, b->rest, la) &&
	       (b->rest[la] == '\0' || b->rest[la] == '/');
}

static int is_own(const struct fsv *v, uint32_t i)
{
	return v->p->fs.rules[i].kind != IR_FS_GRANT;
}

static int view(struct fsv *v, const struct ir_policy *p, int noview)
{
	memset(v, 0, sizeof(*v));
	v->p = p;
	v->noview = noview;
	v->free = IR_FS_ALL & ~prove_fs_handled(p);
	if (!p->fs.present)
		return PROVE_OK;
	v->f = calloc(p->fs.nrules + 1, sizeof(*v->f));
	if (!v->f)
		return PROVE_ENOMEM;
	v->n = p->fs.nrules;
	for (uint32_t i = 0; i < v->n; i++) {
		split(p->fs.rules[i].path, &v->f[i]);
		if (!strcmp(p->fs.rules[i].path, "/"))
			v->root = p->fs.rules[i].rights;
	}
	return PROVE_OK;
}

/* What the mount of grants with these rights lets through. */
static uint32_t lets(uint32_t grants)
{
	uint32_t m = IR_FS_ALL;

	if (!(grants & FS_WRITE))
		m &= ~(uint32_t)FS_WRITE;
	if (!(grants & IR_FS_EXECUTE))
		m &= ~(uint32_t)IR_FS_EXECUTE;
	if (!(grants & (IR_FS_IOCTL_DEV | IR_FS_MAKE_CHAR | IR_FS_MAKE_BLOCK)))
		m &= ~(uint32_t)IR_FS_IOCTL_DEV;
	return m;
}

/*
 * Rights at q on the host's data in the fresh world (the header's model);
 * *own gets the rights the box's own mounts above q lend it. The mount at
 * q is made by the grants holding q beneath the deepest mount of the
 * box's own holding it: a bind that lands in one keeps its own
 * restrictions (docs/VIEW.md), so a grant above that mount lends its
 * Landlock rights, never its mount's.
 */
static uint32_t eff_own(const struct fsv *v, const struct fpath *q,
			uint32_t *own)
{
	uint32_t all = v->free | v->root, grants = 0;
	long deepest = v->root || !v->p->fs.present ? 0 : -1, mount = -1;
	int hidden = 0;

	*own = 0;
	if (!v->p->fs.present)
		return IR_FS_ALL;
	for (uint32_t i = 0; i < v->n && !v->noview; i++)
		if (is_own(v, i) && above(&v->f[i], q) &&
		    (long)strlen(v->f[i].rest) > mount)
			mount = (long)strlen(v->f[i].rest);
	if (mount < 0)
		grants = v->root;
	for (uint32_t i = 0; i < v->n; i++) {
		long len = (long)strlen(v->f[i].rest);

		if (!above(&v->f[i], q) || (v->noview && is_own(v, i)))
			continue;
		all |= v->p->fs.rules[i].rights;
		if (is_own(v, i))
			*own |= v->p->fs.rules[i].rights;
		else if (len > mount)
			grants |= v->p->fs.rules[i].rights;
		if (len >= deepest) {
			deepest = len;
			hidden = is_own(v, i);
		}
	}
	if (v->noview)
		return all;
	if (deepest < 0 || hidden)
		return 0;
	return all & lets(grants);
}

static uint32_t eff(const struct fsv *v, const struct fpath *q)
{
	uint32_t own;

	return eff_own(v, q, &own);
}

static int same_folder(const struct fpath *a, const struct fpath *b)
{
	return above(a, b) && !strcmp(a->rest, b->rest);
}

/*
 * The rights of the rules of v on the folder q (~ and ${HOME} name one
 * folder, so there may be two) that follow symlinks.
 */
static uint32_t follow_rights(const struct fsv *v, const struct fpath *q)
{
	uint32_t acc = 0;

	for (uint32_t i = 0; i < v->n; i++)
		if (same_folder(&v->f[i], q) &&
		    (v->p->fs.rules[i].flags & IR_FS_FOLLOW))
			acc |= v->p->fs.rules[i].rights;
	return acc;
}

/* A first component no absolute rule path of either policy starts with. */
static void pick_fresh(struct prover *pv, char *buf, size_t len)
{
	const struct ir_policy *ps[2] = {pv->old, pv->nw};

	for (unsigned k = 0;; k++) {
		int clash = 0;

		if (k)
			snprintf(buf, len, ".polc-fresh%u", k);
		else
			snprintf(buf, len, ".polc-fresh");
		for (int s = 0; s < 2 && !clash; s++) {
			const struct ir_fs *fs = &ps[s]->fs;

			for (uint32_t i = 0; i < fs->nrules && !clash; i++) {
				const char *r = fs->rules[i].path;
				const char *c = strstr(r, buf);

				/* also inside an own mount: a variable there */
				clash = c && c[-1] == '/';
			}
		}
		if (!clash)
			return;
	}
}

static int record(struct prover *pv, char *witness, const char *new_s,
		  const char *old_s, const char *path, uint32_t rights,
		  const struct prove_fs_world *w, uint8_t own)
{
	struct prove_finding f = {0};

	f.dim = PROVE_DIM_FS;
	f.witness = witness;
	f.new_s = strdup(new_s);
	f.old_s = strdup(old_s);
	f.kind = PROVE_PT_FS;
	f.fs.path = strdup(path);
	f.fs.rights = rights;
	f.fs.own = own;
	f.fs.symlink = w && w->symlink;
	f.fs.noview = w && w->noview;
	if (w && w->target && !(f.fs.target = strdup(w->target))) {
		prove_finding_free(&f);
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	}
	if (w && w->var) {
		f.fs.var = strdup(w->var);
		f.fs.under = strdup(w->under);
		f.fs.at = w->at;
	}
	if (!f.fs.path || (w && w->var && (!f.fs.var || !f.fs.under))) {
		prove_finding_free(&f);
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	}
	return prove_add(pv, 0, &f);
}

/* Re-check the rights with the concrete evaluator in w, then record. */
static int report_in(struct prover *pv, const struct prove_fs_world *w,
		     const char *path, uint32_t rights, const char *new_s,
		     const char *old_s)
{
	struct sbuf s = {0};
	char target[128];
	const char *q = path;
	uint32_t rn, ro;

	if (w->symlink && w->target)
		q = w->target;
	else if (w->symlink)
		q = prove_fs_target(pv->res->fresh, target, sizeof(target));
	rn = prove_fs_rights(pv->nw, w, q);
	ro = prove_fs_rights(pv->old, w, q);
	if (rn > IR_FS_ALL || ro > IR_FS_ALL)
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	if ((rn & rights) != rights || (ro & rights))
		return prove_fail(pv, PROVE_EINTERNAL,
				  "internal error: fs witness %s does not "
				  "re-check",
				  path);
	prove_rights_str(&s, rights);
	if (w->symlink && w->target)
		sb_printf(&s, " on the target of symlink %s (follow), %s", path,
			  w->target);
	else if (w->symlink)
		sb_printf(&s, " on the target of symlink %s (follow)", path);
	else
		sb_printf(&s, " on %s", path);
	if (w->var)
		sb_printf(&s, " (%s bound %s %s)", w->var,
			  w->at ? "to" : "inside", w->under);
	if (w->noview)
		sb_printf(&s, " (without the view: no user namespace, "
			      "fs best_effort)");
	return record(pv, sb_take(&s), new_s, old_s, path, rights, w, 0);
}

static int report(struct prover *pv, const char *path, uint32_t rights,
		  int symlink, const char *new_s, const char *old_s, int noview)
{
	struct prove_fs_world w = {.fresh = pv->res->fresh,
				   .symlink = symlink ? path : NULL,
				   .noview = noview};

	return report_in(pv, &w, path, rights, new_s, old_s);
}

/*
 * A target inside one of OLD's own mounts: there OLD shows nothing of the
 * host but what its own rule on p follows to; those rights on the
 * target's data are, as everywhere, the union of OLD's rules holding it
 * (its `/` and that mount's own among them) less what the binds take.
 */
static int follow_inside(struct prover *pv, const struct ir_fs_rule *r,
			 const struct fpath *q, const struct fsv *ov)
{
	uint32_t fr = follow_rights(ov, q);

	for (uint32_t j = 0; j < ov->n; j++) {
		const char *under = pv->old->fs.rules[j].path;
		uint32_t at = fr ? (fr | ov->free | ov->root |
				    pv->old->fs.rules[j].rights) &
				       lets(fr | ov->root)
				 : 0;
		struct prove_fs_world w = {.fresh = pv->res->fresh,
					   .symlink = r->path};
		char target[IR_MAX_STR];

		/* the link may not hold the mount the target lies in */
		if (!is_own(ov, j) || above(q, &ov->f[j]) || !(r->rights & ~at))
			continue;
		snprintf(target, sizeof(target), "%s/%s-target", under,
			 pv->res->fresh);
		w.target = target;
		return report_in(pv, &w, r->path, r->rights & ~at, "grants",
				 "does not");
	}
	return PROVE_OK;
}

/* Does one of NEW's rules moved into the world (moved[k]) hold q? */
static int moved_holds(const struct fsv *v, char **moved, const struct fpath *q)
{
	for (uint32_t k = 0; moved && k < v->n; k++)
		if (moved[k] && above(&v->f[k], q))
			return 1;
	return !moved;
}

/*
 * NEW's grants in world w: at each, the rights NEW has on the host's data
 * there and OLD does not, less those already reported there (seen, over
 * the worlds) or at a NEW rule holding it in this world. With moved (a
 * variable's world), only the grants one of the moved rules holds: the
 * rest is as in the fresh world.
 */
static int grants_in(struct prover *pv, const struct fsv *nv,
		     const struct fsv *ov, const struct prove_fs_world *w,
		     char **moved, uint32_t *seen)
{
	uint32_t *ex = calloc(nv->n + 1, sizeof(*ex));
	int rc = PROVE_OK;

	if (!ex)
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < nv->n; i++)
		if (!is_own(nv, i) && moved_holds(nv, moved, &nv->f[i]))
			ex[i] = eff(nv, &nv->f[i]) & ~eff(ov, &nv->f[i]);
	for (uint32_t i = 0; i < nv->n && !rc; i++) {
		uint32_t lit = ex[i] & ~seen[i];

		for (uint32_t j = 0; j < nv->n && lit; j++)
			if (j != i && above(&nv->f[j], &nv->f[i]) &&
			    (j < i || !same_folder(&nv->f[j], &nv->f[i])))
				lit &= ~ex[j];
		if (!lit)
			continue;
		seen[i] |= lit;
		rc = report_in(pv, w, pv->nw->fs.rules[i].path, lit, "grants",
			       "does not");
	}
	free(ex);
	return rc;
}

/* NEW's `follow` rules, in the fresh world. */
static int follows_fresh(struct prover *pv, const struct fsv *nv,
			 const struct fsv *ov, const uint32_t *seen)
{
	int rc = PROVE_OK;

	for (uint32_t i = 0; i < nv->n && !rc; i++) {
		const struct ir_fs_rule *r = &pv->nw->fs.rules[i];
		const struct fpath *q = &nv->f[i];
		uint32_t fol, at;

		if (is_own(nv, i) || !(r->flags & IR_FS_FOLLOW) ||
		    !strcmp(r->path, "/"))
			continue;
		/* What OLD grants on a fresh target of p. */
		at = ov->free | ov->root | follow_rights(ov, q);
		fol = r->rights & ~at & ~seen[i];
		if (fol)
			rc = report(pv, r->path, fol, 1, "grants", "does not",
				    nv->noview);
		else if (!nv->noview)
			rc = follow_inside(pv, r, q, ov);
	}
	return rc;
}

/* "a tmpfs of its own (256MiB, rw)" into a new string. */
static char *own_str(uint8_t kind, uint32_t rights, uint64_t size)
{
	struct sbuf s = {0};

	sb_printf(&s, "a %s of its own", ir_fs_kind_name(kind));
	if (kind == IR_FS_TMPFS)
		sb_printf(&s, " (%" PRIu64 " bytes, %s)", size,
			  rights & IR_FS_EXECUTE ? "rwx" : "rw");
	return sb_take(&s);
}

/*
 * OLD's own mounts in world w: there OLD shows the box nothing of the
 * host; NEW, if the deepest of its rules there is a grant, shows the
 * host's data. With moved (a variable's world), only the mounts one of
 * NEW's moved rules holds.
 */
static int olds_own(struct prover *pv, const struct fsv *nv,
		    const struct fsv *ov, const struct prove_fs_world *w,
		    char **moved, uint32_t *seen)
{
	int rc = PROVE_OK;

	for (uint32_t i = 0; i < ov->n && !rc; i++) {
		const struct ir_fs_rule *r = &pv->old->fs.rules[i];
		uint32_t got;
		char *o;

		if (!is_own(ov, i) || !moved_holds(nv, moved, &ov->f[i]))
			continue;
		got = eff(nv, &ov->f[i]) & ~seen[i];
		if (!got)
			continue;
		seen[i] |= got;
		o = own_str(r->kind, r->rights, r->size);
		if (!o)
			return prove_fail(pv, PROVE_ENOMEM, "out of memory");
		rc = report_in(pv, w, r->path, got, "grants the host's", o);
		free(o);
	}
	return rc;
}

/* The rule of v on exactly the folder q, or -1. */
static long rule_on(const struct fsv *v, const struct fpath *q)
{
	for (uint32_t i = 0; i < v->n; i++)
		if (same_folder(&v->f[i], q))
			return (long)i;
	return -1;
}

/*
 * NEW's own mounts: each must be matched by OLD's of the same kind there
 * (no larger, no more rights) or covered by OLD's rights on the host's
 * folder there. Re-checked with prove_fs_own() and prove_fs_rights().
 */
static int news_own(struct prover *pv, const struct fsv *nv,
		    const struct fsv *ov)
{
	struct prove_fs_world w = {.fresh = pv->res->fresh};
	int rc = PROVE_OK;

	for (uint32_t i = 0; i < nv->n && !rc; i++) {
		const struct ir_fs_rule *r = &pv->nw->fs.rules[i];
		long j = rule_on(ov, &nv->f[i]);
		const struct ir_fs_rule *o =
		    j >= 0 ? &pv->old->fs.rules[j] : NULL;
		uint32_t host = eff(ov, &nv->f[i]), orights, nrights;
		uint64_t osize, nsize;
		struct sbuf s = {0};
		char *n, *os;

		if (!is_own(nv, i))
			continue;
		if (o && o->kind == r->kind && !(r->rights & ~o->rights) &&
		    r->size <= o->size)
			continue;
		if ((!o || o->kind == IR_FS_GRANT) && !(r->rights & ~host))
			continue;
		if (prove_fs_own(pv->nw, &w, r->path, &nrights, &nsize) !=
			r->kind ||
		    (prove_fs_own(pv->old, &w, r->path, &orights, &osize) ==
			 r->kind &&
		     !(nrights & ~orights) && nsize <= osize) ||
		    (prove_fs_own(pv->old, &w, r->path, &orights, &osize) ==
			 IR_FS_GRANT &&
		     !(nrights & ~prove_fs_rights(pv->old, &w, r->path))))
			return prove_fail(pv, PROVE_EINTERNAL,
					  "internal error: own mount %s does "
					  "not re-check",
					  r->path);
		n = own_str(r->kind, r->rights, r->size);
		if (o && o->kind != IR_FS_GRANT) {
			os = own_str(o->kind, o->rights, o->size);
		} else {
			prove_rights_str(&s, host);
			sb_printf(&s, " on the host's folder");
			os = sb_take(&s);
		}
		sb_printf(&s, "%s %s", ir_fs_kind_name(r->kind), r->path);
		rc = n && os ? record(pv, sb_take(&s), n, os, r->path, 0, NULL,
				      r->kind)
			     : prove_fail(pv, PROVE_ENOMEM, "out of memory");
		free(n);
		free(os);
	}
	return rc;
}

/*
 * v with the rules on the variable `var` moved to the literal folder
 * `folder` (as polexec would bind it there): their paths become literal.
 * The caller frees out->f and each *rest of those it moved (moved[i]).
 */
static int rebind(const struct fsv *v, const char *var, const char *folder,
		  struct fsv *out, char **moved)
{
	size_t n = strlen(var);

	*out = *v;
	out->f = calloc(v->n + 1, sizeof(*out->f));
	if (!out->f)
		return PROVE_ENOMEM;
	for (uint32_t i = 0; i < v->n; i++) {
		const struct fpath *q = &v->f[i];

		out->f[i] = *q;
		moved[i] = NULL;
		if (q->rootlen != n + 3 || strncmp(q->root + 2, var, n))
			continue;
		if (asprintf(&moved[i], "%s%s",
			     strcmp(folder, "/") ? folder : "", q->rest) < 0) {
			moved[i] = NULL;
			return PROVE_ENOMEM;
		}
		out->f[i].root = "";
		out->f[i].rootlen = 0;
		out->f[i].rest = moved[i];
	}
	return PROVE_OK;
}

static void unbind(struct fsv *v, char **moved)
{
	for (uint32_t i = 0; v->f && i < v->n; i++)
		free(moved[i]);
	free(v->f);
	v->f = NULL;
}

/*
 * Does polexec refuse to build v's view: a grant bound where v puts a
 * mount of its own? Only a moved rule can be (the semantic pass refuses
 * a literal path that is both).
 */
static int refuses(const struct fsv *v, char **moved)
{
	for (uint32_t i = 0; i < v->n; i++)
		for (uint32_t j = 0; moved[i] && j < v->n; j++)
			if (!is_own(v, i) && is_own(v, j) &&
			    same_folder(&v->f[i], &v->f[j]))
				return 1;
	return 0;
}

/* Does either policy have a mount of its own? */
static int any_own(const struct fsv *nv, const struct fsv *ov)
{
	for (uint32_t i = 0; i < nv->n; i++)
		if (is_own(nv, i))
			return 1;
	for (uint32_t i = 0; i < ov->n; i++)
		if (is_own(ov, i))
			return 1;
	return 0;
}

/*
 * The literal folders a variable's binding is tried at: every absolute
 * rule path of both policies and every folder holding one (`/a/b` gives
 * `/`, `/a`, `/a/b`); *isrule says which are rule paths. Deduplicated.
 */
static char **folders(const struct fsv *nv, const struct fsv *ov, size_t *n,
		      uint8_t **isrule)
{
	const struct fsv *vs[2] = {nv, ov};
	size_t cap = 16, k = 0;
	char **out = malloc(cap * sizeof(*out));
	uint8_t *r = malloc(cap);

	if (!out || !r)
		goto oom;
	for (int s = 0; s < 2; s++) {
		for (uint32_t i = 0; i < vs[s]->n; i++) {
			const struct fpath *q = &vs[s]->f[i];
			size_t len = strlen(q->rest);

			if (q->rootlen)
				continue;
			for (size_t e = 0; e <= len; e++) {
				size_t m;
				int dup = 0;

				if (e < len && q->rest[e] != '/')
					continue;
				m = e ? e : 1; /* "/" for the root */
				for (size_t x = 0; x < k && !dup; x++)
					if (strlen(out[x]) == m &&
					    !strncmp(out[x], e ? q->rest : "/",
						     m)) {
						dup = 1;
						r[x] |= e == len;
					}
				if (dup)
					continue;
				if (k == cap) {
					char **o2;
					uint8_t *r2;

					cap *= 2;
					o2 = realloc(out, cap * sizeof(*out));
					if (o2)
						out = o2;
					r2 = realloc(r, cap);
					if (r2)
						r = r2;
					if (!o2 || !r2)
						goto oom;
				}
				out[k] = strndup(e ? q->rest : "/", m);
				if (!out[k])
					goto oom;
				r[k++] = e == len;
			}
		}
	}
	*n = k;
	*isrule = r;
	return out;
oom:
	for (size_t x = 0; out && x < k; x++)
		free(out[x]);
	free(out);
	free(r);
	return NULL;
}

/*
 * The variables' worlds (docs/PROVER.md, "Roots and variables"): each
 * variable NEW has a rule on, bound, the others fresh, to every folder
 * folders() gives (holding a rule path, or exactly one) and to a fresh
 * folder inside each rule path: every binding of it relates to the rule
 * paths as one of these does. Needed only with a mount of the box's own:
 * without one the fresh world is the worst (Landlock's rights only grow
 * with rules). A world in which a policy refuses to build its view (a
 * grant bound onto a mount of its own) is a start condition.
 */
static int var_worlds(struct prover *pv, const struct fsv *nv,
		      const struct fsv *ov, uint32_t *seen_n, uint32_t *seen_o)
{
	char **mn = calloc(nv->n + 1, sizeof(*mn));
	char **mo = calloc(ov->n + 1, sizeof(*mo));
	uint8_t *isrule = NULL;
	size_t nf = 0;
	char **fs = NULL;
	int rc = mn && mo ? PROVE_OK : PROVE_ENOMEM;

	if (!rc && any_own(nv, ov)) {
		fs = folders(nv, ov, &nf, &isrule);
		if (!fs)
			rc = PROVE_ENOMEM;
	}
	for (uint32_t i = 0; fs && i < nv->n && !rc; i++) {
		const struct fpath *q = &nv->f[i];
		char var[IR_MAX_STR];
		int first = 1;

		if (!q->rootlen || is_own(nv, i))
			continue;
		/* each variable once, at its first rule */
		for (uint32_t j = 0; j < i && first; j++)
			first = !(nv->f[j].rootlen == q->rootlen &&
				  !memcmp(nv->f[j].root, q->root, q->rootlen));
		if (!first)
			continue;
		snprintf(var, sizeof(var), "%.*s", (int)(q->rootlen - 3),
			 q->root + 2);
		for (size_t k = 0; k < 2 * nf && !rc; k++) {
			int at = k < nf;
			const char *under = fs[k % nf];
			struct prove_fs_world w = {.fresh = pv->res->fresh,
						   .var = var,
						   .under = under,
						   .at = at};
			struct fsv n2 = {0}, o2 = {0};
			char *folder = NULL;

			if (!at && (!isrule[k % nf] || !strcmp(under, "/")))
				continue;
			if (at)
				folder = strdup(under);
			else if (asprintf(&folder, "%s/%s-%s",
					  strcmp(under, "/") ? under : "",
					  pv->res->fresh, var) < 0)
				folder = NULL;
			rc = folder ? rebind(nv, var, folder, &n2, mn)
				    : PROVE_ENOMEM;
			if (!rc)
				rc = rebind(ov, var, folder, &o2, mo);
			if (!rc && !refuses(&n2, mn) && !refuses(&o2, mo))
				rc = grants_in(pv, &n2, &o2, &w, mn, seen_n);
			if (!rc && !refuses(&n2, mn) && !refuses(&o2, mo))
				rc = olds_own(pv, &n2, &o2, &w, mn, seen_o);
			unbind(&n2, mn);
			unbind(&o2, mo);
			free(folder);
		}
	}
	for (size_t k = 0; fs && k < nf; k++)
		free(fs[k]);
	free(fs);
	free(isrule);
	free(mn);
	free(mo);
	return rc == PROVE_ENOMEM ? prove_fail(pv, rc, "out of memory") : rc;
}

/*
 * The fresh world, with the view or (noview) with Landlock alone: rights
 * NEW leaves free where OLD restricts them, NEW's rules; with the view,
 * the own mounts of both and the variables' worlds.
 */
static int compare(struct prover *pv, int noview)
{
	struct prove_fs_world w = {.fresh = pv->res->fresh, .noview = noview};
	uint32_t *seen_n = NULL, *seen_o = NULL;
	struct fsv nv, ov;
	struct fpath slash;
	uint32_t x;
	int rc;

	rc = view(&nv, pv->nw, noview);
	if (!rc)
		rc = view(&ov, pv->old, noview);
	else
		memset(&ov, 0, sizeof(ov));
	if (!rc) {
		seen_n = calloc(nv.n + 1, sizeof(*seen_n));
		seen_o = calloc(ov.n + 1, sizeof(*seen_o));
	}
	if (rc || !seen_n || !seen_o) {
		rc = prove_fail(pv, PROVE_ENOMEM, "out of memory");
		goto out;
	}
	/* Without a view what NEW's ruleset leaves free is free everywhere:
	 * nothing hides it. */
	split("/", &slash);
	x = nv.free & ~eff(&ov, &slash);
	if (x && (noview || !pv->nw->fs.present))
		rc = report(pv, "/", x, 0,
			    pv->nw->fs.present
				? "grants (its ruleset does not handle them)"
				: "grants (no fs block: no Landlock ruleset)",
			    "does not", noview);
	if (!rc)
		rc = grants_in(pv, &nv, &ov, &w, NULL, seen_n);
	if (!rc)
		rc = follows_fresh(pv, &nv, &ov, seen_n);
	if (!rc && !noview)
		rc = olds_own(pv, &nv, &ov, &w, NULL, seen_o);
	if (!rc && !noview)
		rc = news_own(pv, &nv, &ov);
	if (!rc && !noview)
		rc = var_worlds(pv, &nv, &ov, seen_n, seen_o);
out:
	free(seen_n);
	free(seen_o);
	free(nv.f);
	free(ov.f);
	return rc;
}

int prove_fs(struct prover *pv)
{
	int rc;

	pick_fresh(pv, pv->res->fresh, sizeof(pv->res->fresh));
	rc = compare(pv, 0);
	/* fs best_effort: the world without the view */
	if (rc || !pv->nw->fs.present || pv->nw->fs.mode != IR_VIEW_BEST_EFFORT)
		return rc;
	/* Nested, NEW without its view sees OLD's view through its own
	 * Landlock rules: within what the world above compared. */
	if (pv->nested && pv->old->fs.present &&
	    pv->old->fs.mode != IR_VIEW_BEST_EFFORT)
		return rc;
	if (pv->old->fs.present && pv->old->fs.mode != IR_VIEW_BEST_EFFORT) {
		struct prove_finding f = {0};

		f.dim = PROVE_DIM_FS;
		f.witness = strdup("a caller without user namespaces");
		f.new_s = strdup("best_effort: runs without its view, on "
				 "the host's tree with Landlock alone");
		f.old_s = strdup("require: refuses");
		return prove_add(pv, 0, &f);
	}
	return compare(pv, 1);
}
