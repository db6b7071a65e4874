/* SPDX-License-Identifier: MIT */
/*
 * The small dimensions: limits, environment, the Landlock requirement.
 * Each is a finite comparison of values. The witnesses are still
 * re-checked, with evaluators that ask the concrete question (may the box
 * use this much? does the box get exactly this variable?) of each policy.
 */
#include "backend/backend.h"
#include "prove_int.h"
#include "sections.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int add(struct prover *pv, enum prove_dim dim, char *what, char *new_s,
	       char *old_s)
{
	struct prove_finding f = {0};

	f.dim = dim;
	f.witness = what;
	f.new_s = new_s;
	f.old_s = old_s;
	return prove_add(pv, 0, &f);
}

/* ---- Limits ---------------------------------------------------------- */

/*
 * The limit in force: its value when set; `core` unset is 0 (polexec
 * turns core dumps off unless the policy sets a size); any other limit
 * unset is unlimited (returns 0 with *unlimited set).
 */
static uint64_t limit_of(const struct ir_policy *p, unsigned i, int *unlimited)
{
	*unlimited = 0;
	if (p->limits.present && (p->limits.set >> i & 1u))
		return p->limits.value[i];
	if (i == IR_LIM_CORE)
		return 0;
	*unlimited = 1;
	return 0;
}

static char *limit_str(unsigned i, uint64_t v, int unlimited)
{
	static const char *const sizes[] = {"TiB", "GiB", "MiB", "KiB"};
	struct sbuf s = {0};

	if (unlimited) {
		sb_printf(&s, "unlimited (not set)");
		return sb_take(&s);
	}
	switch (i) {
	case IR_LIM_MEMORY:
	case IR_LIM_FSIZE:
	case IR_LIM_CORE:
		for (unsigned k = 0; k < 4; k++) {
			uint64_t unit = 1ull << (10 * (4 - k));

			if (v && v % unit == 0) {
				sb_printf(&s, "%" PRIu64 "%s", v / unit,
					  sizes[k]);
				return sb_take(&s);
			}
		}
		sb_printf(&s, "%" PRIu64 "B", v);
		break;
	case IR_LIM_CPU:
	case IR_LIM_WALL:
	case IR_LIM_GRACE:
		if (v && v % 3600000 == 0)
			sb_printf(&s, "%" PRIu64 "h", v / 3600000);
		else if (v && v % 60000 == 0)
			sb_printf(&s, "%" PRIu64 "m", v / 60000);
		else if (v && v % 1000 == 0)
			sb_printf(&s, "%" PRIu64 "s", v / 1000);
		else
			sb_printf(&s, "%" PRIu64 "ms", v);
		break;
	default:
		sb_printf(&s, "%" PRIu64, v);
	}
	return sb_take(&s);
}

/* May the box use `amount` of limit i under p? */
static int may_use(const struct ir_policy *p, unsigned i, uint64_t amount)
{
	if (p->limits.present && (p->limits.set & (1u << i)))
		return amount <= p->limits.value[i];
	return i != IR_LIM_CORE || amount == 0;
}

static int requires(const struct ir_policy *p)
{
	return p->limits.present && p->limits.mode == IR_LIMITS_REQUIRE;
}

/*
 * memory and pids are the limits polexec can only degrade (to per-process
 * rlimits) where no cgroup is available: there `require` refuses to run
 * and `best_effort` runs anyway. So NEW best_effort against OLD require
 * exceeds when both cap one of them: on such a machine NEW runs a box
 * whose cap holds per process only, where OLD would not run at all.
 */
static int prove_limits_mode(struct prover *pv)
{
	static const unsigned degradable[] = {IR_LIM_MEMORY, IR_LIM_PIDS};

	if (requires(pv->nw) || !requires(pv->old))
		return PROVE_OK;
	for (unsigned k = 0; k < 2; k++) {
		unsigned i = degradable[k];
		int un, uo;

		limit_of(pv->nw, i, &un);
		limit_of(pv->old, i, &uo);
		if (un || uo)
			continue;
		return add(pv, PROVE_DIM_LIMITS,
			   strdup(i == IR_LIM_MEMORY ? "memory without a cgroup"
						     : "pids without a cgroup"),
			   strdup("best_effort: runs degraded"),
			   strdup("require: refuses"));
	}
	return PROVE_OK;
}

int prove_limits(struct prover *pv)
{
	int rc = PROVE_OK;

	for (unsigned i = 0; i < IR_LIM_COUNT && !rc; i++) {
		int un, uo;
		uint64_t vn = limit_of(pv->nw, i, &un);
		uint64_t vo = limit_of(pv->old, i, &uo);

		if (uo || (!un && vn <= vo))
			continue;
		/* The witness: one unit past OLD's limit. */
		if (!may_use(pv->nw, i, vo + 1) || may_use(pv->old, i, vo + 1))
			return prove_fail(pv, PROVE_EINTERNAL,
					  "internal error: limit witness %s "
					  "does not re-check",
					  ir_limit_name(i));
		rc = add(pv, PROVE_DIM_LIMITS, strdup(ir_limit_name(i)),
			 limit_str(i, vn, un), limit_str(i, vo, uo));
	}
	return rc ? rc : prove_limits_mode(pv);
}

/* ---- Environment ----------------------------------------------------- */

static const struct ir_env_entry *env_find(const struct ir_policy *p,
					   const char *name)
{
	for (uint32_t i = 0; p->env.present && i < p->env.nentries; i++)
		if (!strcmp(p->env.entries[i].name, name))
			return &p->env.entries[i];
	return NULL;
}

static int str_eq(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static char *env_str(const struct ir_env_entry *e)
{
	struct sbuf s = {0};

	if (!e)
		sb_printf(&s, "does not provide it");
	else if (e->kind == IR_ENV_PASS)
		sb_printf(&s, "pass %s", e->name);
	else if (e->kind == IR_ENV_SET)
		sb_printf(&s, "set %s=%s", e->name, e->value ? e->value : "");
	else
		sb_printf(&s, "secret %s from file %s to %s", e->name,
			  e->value ? e->value : "?", e->dest ? e->dest : "?");
	return sb_take(&s);
}

/* Does the box get exactly this entry under p? */
static int gives(const struct ir_policy *p, const struct ir_env_entry *e)
{
	for (uint32_t i = 0; p->env.present && i < p->env.nentries; i++) {
		const struct ir_env_entry *x = &p->env.entries[i];

		if (x->kind == e->kind && !strcmp(x->name, e->name) &&
		    str_eq(x->value, e->value) && str_eq(x->dest, e->dest))
			return 1;
	}
	return 0;
}

int prove_env(struct prover *pv)
{
	int rc = PROVE_OK;

	for (uint32_t i = 0;
	     pv->nw->env.present && i < pv->nw->env.nentries && !rc; i++) {
		const struct ir_env_entry *e = &pv->nw->env.entries[i];
		const struct ir_env_entry *o = env_find(pv->old, e->name);

		/* A variable the box gets is within only as the same entry. */
		if (o && o->kind == e->kind && str_eq(o->value, e->value) &&
		    str_eq(o->dest, e->dest))
			continue;
		if (!gives(pv->nw, e) || gives(pv->old, e))
			return prove_fail(pv, PROVE_EINTERNAL,
					  "internal error: env witness %s does "
					  "not re-check",
					  e->name);
		rc = add(pv, PROVE_DIM_ENV, strdup(e->name), env_str(e),
			 env_str(o));
	}
	return rc;
}

/* ---- Landlock requirement -------------------------------------------- */

/*
 * The worlds are kernels, one Landlock ABI each (0: none), the same for
 * both policies. Where both run, the other dimensions compare what they
 * enforce (a kernel strips the same rights from both, backend/landlock.c
 * handling every right with an fs block). What is left here: a kernel on
 * which NEW runs and OLD refuses (a `require` below its minimum), and the
 * scopes (signals, abstract unix sockets) OLD sets and NEW does not.
 */
#define LL_ABI_TOP 64 /* the largest minimum the language accepts */

static char *req_str(const struct ir_policy *p)
{
	struct sbuf s = {0};
	uint32_t abi, mode;

	if (!landlock_layer_on(p)) {
		sb_printf(&s, "no Landlock layer");
		return sb_take(&s);
	}
	landlock_requirement(p, &abi, &mode);
	sb_printf(&s, "landlock abi >= %u %s%s", abi,
		  mode == POLBIN_LL_REQUIRE ? "require" : "best_effort",
		  p->landlock.present ? "" : " (the default)");
	return sb_take(&s);
}

/* Takes new_s and old_s (may be NULL after an allocation failure). */
static int kernel_finding(struct prover *pv, uint32_t k, char *new_s,
			  char *old_s)
{
	struct sbuf w = {0};

	if (k)
		sb_printf(&w, "kernel with Landlock ABI %u", k);
	else
		sb_printf(&w, "kernel without Landlock");
	return add(pv, PROVE_DIM_LANDLOCK, sb_take(&w), new_s, old_s);
}

static char *wrap(const char *fmt_word, char *inner)
{
	struct sbuf s = {0};

	if (!inner)
		return NULL;
	sb_printf(&s, "%s (%s)", fmt_word, inner);
	free(inner);
	return sb_take(&s);
}

int prove_landlock(struct prover *pv)
{
	uint32_t ao, mo, an = 1, mn = POLBIN_LL_BEST_EFFORT;
	int on_n = landlock_layer_on(pv->nw), rc = PROVE_OK;

	/* Without the layer OLD enforces nothing here and never refuses. */
	if (!landlock_layer_on(pv->old))
		return PROVE_OK;
	landlock_requirement(pv->old, &ao, &mo);
	if (on_n)
		landlock_requirement(pv->nw, &an, &mn);
	if (mo == POLBIN_LL_REQUIRE) {
		/* The first kernel below OLD's minimum on which NEW runs. */
		uint32_t k = !on_n || mn != POLBIN_LL_REQUIRE ? 0 : an;

		if (k < ao) {
			if (!prove_ll_runs(pv->nw, k) ||
			    prove_ll_runs(pv->old, k))
				return prove_fail(pv, PROVE_EINTERNAL,
						  "internal error: landlock "
						  "witness ABI %u does not "
						  "re-check",
						  k);
			rc =
			    kernel_finding(pv, k, wrap("runs", req_str(pv->nw)),
					   wrap("refuses", req_str(pv->old)));
		}
	}
	if (!rc && !on_n) {
		uint32_t k = ao > 6 ? ao : 6;

		if (k > LL_ABI_TOP || !prove_ll_scoped(pv->old, k))
			return rc;
		if (prove_ll_scoped(pv->nw, k))
			return prove_fail(pv, PROVE_EINTERNAL,
					  "internal error: scope witness does "
					  "not re-check");
		rc = kernel_finding(pv, k,
				    strdup("lets the box signal processes and "
					   "reach abstract unix sockets "
					   "outside it (no Landlock layer)"),
				    strdup("scopes them to the box"));
	}
	return rc;
}

/* ---- User ------------------------------------------------------------ */

/*
 * Who the box runs as. The worlds include who the caller is: a root
 * caller's box without a user statement is root (capabilities dropped),
 * which owns what root owns, and a box of uid U reaches what only U may.
 * So any difference is a finding, in either direction.
 */
int prove_user_dim(struct prover *pv)
{
	char a[32], b[32];
	const char *n = prove_user(pv->nw, a, sizeof(a));
	const char *o = prove_user(pv->old, b, sizeof(b));

	if (!strcmp(n, o))
		return PROVE_OK;
	return add(pv, PROVE_DIM_USER, strdup("the box's uid and gid"),
		   strdup(n), strdup(o));
}
