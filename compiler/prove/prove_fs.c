/* SPDX-License-Identifier: MIT */
/*
 * The filesystem dimension: every path and every Landlock right.
 *
 * The model (Landlock's): a rule grants its rights on its folder and
 * everything beneath it; a nested rule adds rights, it never removes any.
 * So the rights at a path p are those the ruleset does not handle, plus
 * the union of the rules on p and on the folders holding p. NEW is within
 * OLD iff at every path, in every world, NEW's rights are a subset of OLD's.
 *
 * Paths are strings (the semantic pass normalized them and refused `..`).
 * A root is `/`, `~` or a `${VAR}`; polexec binds `~` and variables at
 * run time to any folder, the same one for both policies. The worlds also
 * decide which rule paths are symlinks. Exactly:
 *
 *   - Literal world (no symlinks; every variable bound to a fresh folder
 *     outside every rule path): check p = each NEW rule path. Rights at a
 *     path only change at rule paths, and OLD's only grow going down, so
 *     a path beneath p exceeds only if p does. A right NEW holds at p
 *     through a NEW rule above p exceeds there too, so each rule reports
 *     only its own rights. With variables fresh, OLD's rights under
 *     ${VAR} are those of its `/` rule and its own ${VAR} rules, the least
 *     any binding gives; NEW's rights under ${VAR} from its other roots
 *     are covered by the checks of those roots. So a fresh binding is the
 *     worst case and the check is exact for every binding.
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
 *   - No fs block: no Landlock ruleset, every right everywhere.
 */
#include "prove_int.h"

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
	uint32_t free; /* rights granted everywhere (not handled) */
	uint32_t root; /* rights of the rule on `/` */
	struct fpath *f;
	uint32_t n;
};

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

static int view(struct fsv *v, const struct ir_policy *p)
{
	memset(v, 0, sizeof(*v));
	v->p = p;
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

/* Rights at q in the literal world with every root bound fresh. */
static uint32_t eff(const struct fsv *v, const struct fpath *q)
{
	uint32_t acc = v->free | v->root;

	for (uint32_t i = 0; i < v->n; i++)
		if (above(&v->f[i], q))
			acc |= v->p->fs.rules[i].rights;
	return acc;
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
				size_t n = strlen(buf);

				clash = r[0] == '/' &&
					!strncmp(r + 1, buf, n) &&
					(r[1 + n] == '\0' || r[1 + n] == '/');
			}
		}
		if (!clash)
			return;
	}
}

/* Re-check the rights with the concrete evaluator, then record. */
static int report(struct prover *pv, const char *path, uint32_t rights,
		  int symlink, const char *new_s, const char *old_s)
{
	struct prove_fs_world w = {pv->res->fresh, symlink ? path : NULL};
	struct prove_finding f = {0};
	struct sbuf s = {0};
	char target[128];
	const char *q = path;
	uint32_t rn, ro;

	if (symlink)
		q = prove_fs_target(pv->res->fresh, target, sizeof(target));
	rn = prove_fs_rights(pv->nw, &w, q);
	ro = prove_fs_rights(pv->old, &w, q);
	if (rn > IR_FS_ALL || ro > IR_FS_ALL)
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	if ((rn & rights) != rights || (ro & rights))
		return prove_fail(pv, PROVE_EINTERNAL,
				  "internal error: fs witness %s does not "
				  "re-check",
				  path);
	prove_rights_str(&s, rights);
	if (symlink)
		sb_printf(&s, " on the target of symlink %s (follow)", path);
	else
		sb_printf(&s, " on %s", path);
	f.dim = PROVE_DIM_FS;
	f.witness = sb_take(&s);
	f.new_s = strdup(new_s);
	f.old_s = strdup(old_s);
	f.kind = PROVE_PT_FS;
	f.fs.path = strdup(path);
	f.fs.rights = rights;
	f.fs.symlink = symlink;
	if (!f.fs.path) {
		prove_finding_free(&f);
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	}
	return prove_add(pv, 0, &f);
}

static int rules(struct prover *pv, const struct fsv *nv, const struct fsv *ov)
{
	int rc = PROVE_OK;

	for (uint32_t i = 0; i < nv->n && !rc; i++) {
		const struct ir_fs_rule *r = &pv->nw->fs.rules[i];
		const struct fpath *q = &nv->f[i];
		uint32_t lit = r->rights & ~eff(ov, q), fol;

		if (lit)
			rc = report(pv, r->path, lit, 0, "grants", "does not");
		if (!rc && (r->flags & IR_FS_FOLLOW) && strcmp(r->path, "/")) {
			/* What OLD grants on a fresh target of p. */
			uint32_t at =
			    ov->free | ov->root | follow_rights(ov, q);

			fol = r->rights & ~at & ~lit;
			if (fol)
				rc = report(pv, r->path, fol, 1, "grants",
					    "does not");
		}
	}
	return rc;
}

int prove_fs(struct prover *pv)
{
	struct fsv nv, ov;
	struct fpath slash;
	int rc;

	pick_fresh(pv, pv->res->fresh, sizeof(pv->res->fresh));
	rc = view(&nv, pv->nw);
	if (!rc)
		rc = view(&ov, pv->old);
	else
		memset(&ov, 0, sizeof(ov));
	if (rc) {
		rc = prove_fail(pv, PROVE_ENOMEM, "out of memory");
		goto out;
	}
	/* Rights NEW leaves unrestricted, where OLD restricts them. */
	split("/", &slash);
	if (nv.free & ~eff(&ov, &slash))
		rc = report(pv, "/", nv.free & ~eff(&ov, &slash), 0,
			    pv->nw->fs.present
				? "grants (its ruleset does not handle them)"
				: "grants (no fs block: no Landlock ruleset)",
			    "does not");
	if (!rc)
		rc = rules(pv, &nv, &ov);
out:
	free(nv.f);
	free(ov.f);
	return rc;
}
