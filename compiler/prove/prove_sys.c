/* SPDX-License-Identifier: MIT */
/*
 * The syscall dimension: for every arch, syscall number and vector of six
 * 64-bit arguments, is NEW's action no more permissive than OLD's?
 *
 * Permissiveness is the IR's action order (kill_process < kill_thread <
 * trap < errno < log < allow), compared on the kind only: errno(A) and
 * errno(B) both deny, so a difference there is a note, not a finding.
 *
 * The parts:
 *   - no syscalls block: no filter, every call allowed (prove_sys_action);
 *   - foreign arches and x32 numbers: the bad-arch actions;
 *   - numbers neither policy names (holes and numbers above the table
 *     too): the default actions;
 *   - every syscall either policy names: its rules, decided exactly.
 *
 * One syscall: write rank(a) for the kind of action a. NEW exceeds OLD at
 * some argument vector iff for some threshold t in 1..5
 *     rank(NEW(args)) >= t  and  rank(OLD(args)) < t.
 * With ir_eval_syscall()'s resolution (the strictest holding rule wins,
 * else the default), rank(P(args)) >= t is
 *     every rule of P ranked below t fails, and, when P's default is
 *     ranked below t, some rule ranked t or above holds;
 * and rank(P(args)) < t is
 *     some rule of P ranked below t holds, or (P's default being ranked
 *     below t) every rule ranked t or above fails.
 * Choosing the holding rules explicitly leaves conjunctions of atoms and
 * of negated rules (disjunctions of negated atoms). A 64-bit atom is a
 * disjunction of conjunctions of literals on its two 32-bit words
 * (logic/ir_words.c), and bpf/wordsat.h decides the conjunction of such
 * clauses exactly, with a witness. Trying t from 5 down reports, for each
 * syscall, a witness of the most permissive excess first. The search is
 * bounded per syscall; past the bound the remaining thresholds go to Z3,
 * one formula each, in the same order (prove_z3.c).
 */
#include "prove_int.h"
#include "backend/backend.h"
#include "tables/tables.h"
#include "logic/logic.h"
#include "wordsat.h"

#include <linux/audit.h>
#include <stdlib.h>
#include <string.h>

#define X32_BIT		 0x40000000u
#define NR_SCAN		 1024
#define NR_NOWHERE	 0x3fffffffu /* above every table, below x32: default */
#define PROVE_BRUTE_DONE 0x7fff	     /* decide(): brute() decided it all */

/* One policy's rules for the syscall, strictest first. */
struct side {
	const struct ir_syscalls *sys;
	const struct ir_syscall *sc;
	struct ir_words_rules w;
};

struct sysq {
	struct prover *pv;
	const char *name;
	uint32_t nr;
	struct side nw, old;
	struct ws_clause *work;
};

/* The kind of a rule's action alone. */
static uint8_t rank(const struct ir_words_rule *r)
{
	return r->action->kind;
}

static void side_free(struct side *sd)
{
	ir_words_rules_free(&sd->w);
	memset(sd, 0, sizeof(*sd));
}

/* The low words first: witnesses read better without a high word where
 * none is needed. */
static int side_build(struct side *sd, const struct ir_syscalls *sys,
		      const struct ir_syscall *sc)
{
	sd->sys = sys;
	sd->sc = sc;
	if (ir_words_rules_build(&sd->w, sc, IR_WORDS_LOW_FIRST))
		return PROVE_ENOMEM;
	return PROVE_OK;
}

/* Index of the first rule ranked t or above (rules are sorted). */
static uint32_t first_at(const struct side *sd, uint8_t t)
{
	uint32_t i = 0;

	while (i < sd->w.n && rank(&sd->w.r[i]) < t)
		i++;
	return i;
}

static int solve(struct sysq *q, size_t n, uint64_t args[6])
{
	uint32_t w[WS_WORDS];
	int r = ws_set_search(q->pv->ws, q->work, n, &q->pv->left, w);

	if (r == WS_SAT)
		for (int i = 0; i < 6; i++)
			args[i] = (uint64_t)w[WS_W_ARG_HI(i)] << 32 |
				  w[WS_W_ARG_LO(i)];
	return r;
}

static size_t put_pos(struct ws_clause *work, size_t k,
		      const struct ir_words_rule *r)
{
	for (uint32_t a = 0; a < r->natoms; a++)
		work[k++] = r->pos[a];
	return k;
}

/* Is there a vector with rank(NEW) >= t and rank(OLD) < t? */
static int threshold(struct sysq *q, uint8_t t, uint64_t args[6])
{
	const struct side *n = &q->nw, *o = &q->old;
	uint32_t nfirst = first_at(n, t), ofirst = first_at(o, t);
	int ndef = n->sys->def.kind >= t, odef = o->sys->def.kind < t;
	int64_t ci = ndef ? -1 : (int64_t)nfirst;

	/* ci: the NEW rule ranked >= t that holds (-1: none needed). */
	for (; ci < (int64_t)n->w.n; ci++) {
		/* ai < ofirst: that OLD rule (ranked < t) holds; ai ==
		 * ofirst: every OLD rule ranked >= t fails. */
		for (uint32_t ai = 0; ai <= ofirst; ai++) {
			size_t k = 0;
			int r;

			if (ai == ofirst && !odef)
				continue;
			if (ci >= 0)
				k = put_pos(q->work, k, &n->w.r[ci]);
			if (ai < ofirst)
				k = put_pos(q->work, k, &o->w.r[ai]);
			for (uint32_t j = 0; j < nfirst; j++)
				q->work[k++] = n->w.r[j].neg;
			if (ai == ofirst)
				for (uint32_t j = ofirst; j < o->w.n; j++)
					q->work[k++] = o->w.r[j].neg;
			r = solve(q, k, args);
			if (r != WS_UNSAT)
				return r;
		}
		if (ci < 0)
			break;
	}
	return WS_UNSAT;
}

/*
 * Outcome `c` of a side: rule c (and every stricter rule fails), or with
 * c == n the default (every rule fails).
 */
static size_t put_outcome(struct ws_clause *work, size_t k,
			  const struct side *sd, uint32_t c)
{
	if (c < sd->w.n)
		k = put_pos(work, k, &sd->w.r[c]);
	for (uint32_t j = 0; j < sd->w.n; j++)
		if (c == sd->w.n || sd->w.r[j].key < sd->w.r[c].key)
			work[k++] = sd->w.r[j].neg;
	return k;
}

/* ---- Reporting ------------------------------------------------------- */

static void tested_args(const struct ir_syscall *sc, int *shown)
{
	for (uint32_t r = 0; sc && r < sc->nrules; r++)
		for (uint32_t a = 0; a < sc->rules[r].natoms; a++)
			if (sc->rules[r].atoms[a].arg + 1 > *shown)
				*shown = sc->rules[r].atoms[a].arg + 1;
}

/* "ptrace(request=0x10, pid=0x0, ...)": the arguments that matter. */
static char *call_str(const char *name, const struct ir_syscall *a,
		      const struct ir_syscall *b, const uint64_t args[6])
{
	const struct syscall_args *sa = syscall_args_find(name);
	struct sbuf s = {0};
	int shown = 0, total = sa ? sa->nargs : 6;

	tested_args(a, &shown);
	tested_args(b, &shown);
	for (int i = 0; i < 6; i++)
		if (args[i] && i + 1 > shown)
			shown = i + 1;
	sb_printf(&s, "%s(", name);
	for (int i = 0; i < shown; i++) {
		if (sa && i < sa->nargs)
			sb_printf(&s, "%s%s=0x%llx", i ? ", " : "",
				  sa->args[i].name,
				  (unsigned long long)args[i]);
		else
			sb_printf(&s, "%sarg%d=0x%llx", i ? ", " : "", i,
				  (unsigned long long)args[i]);
	}
	if (shown < total)
		sb_printf(&s, "%s...", shown ? ", " : "");
	sb_printf(&s, ")");
	return sb_take(&s);
}

static char *act_str(const struct ir_action *a)
{
	char buf[48];

	return strdup(ir_action_str(a, buf, sizeof(buf)));
}

/*
 * Re-check pt with the concrete evaluator and record it: as a finding
 * (NEW's kind above OLD's) or a note (both errno, different values).
 * The witness text is `what`, owned here.
 */
static int report(struct prover *pv, const struct prove_sys_point *pt,
		  char *what, int note)
{
	struct ir_action an = prove_sys_action(pv->nw, pt);
	struct ir_action ao = prove_sys_action(pv->old, pt);
	struct prove_finding f = {0};
	int ok = note ? an.kind == IR_ACT_ERRNO && ao.kind == IR_ACT_ERRNO &&
			    an.errnum != ao.errnum
		      : an.kind > ao.kind;

	if (!ok) {
		int rc = prove_fail(pv, PROVE_EINTERNAL,
				    "internal error: syscall witness %s does "
				    "not re-check",
				    what ? what : "?");

		free(what);
		return rc;
	}
	f.dim = PROVE_DIM_SYSCALLS;
	f.witness = what;
	f.new_s = act_str(&an);
	f.old_s = act_str(&ao);
	f.kind = PROVE_PT_SYS;
	f.sys = *pt;
	if (note)
		f.why = strdup("both deny; the errno value is not part of the "
			       "boundary");
	return prove_add(pv, note, &f);
}

static int ws_status(struct prover *pv, int r, const char *name)
{
	if (r == WS_ENOMEM)
		return prove_fail(pv, PROVE_ENOMEM, "out of memory");
	return prove_fail(pv, PROVE_UNDECIDED,
			  "undecided: the search budget ran out on syscall %s",
			  name);
}

/* ---- Past the budget: the values the rules name ----------------------- */

/*
 * Where every atom of the syscall on both sides tests its argument with
 * the whole mask of its width (`in` sets, comparisons), each atom's truth
 * only changes, along each 32-bit word of an argument, at the word of its
 * value and the one after it: the words split into intervals on which
 * every rule, and so each side's action, is constant. One point of each
 * product of intervals decides the syscall exactly; they are few when the
 * rules name few values. BRUTE_MAX_POINTS bounds them.
 */
#define BRUTE_MAX_POINTS ((uint64_t)1 << 16)
#define BRUTE_WORDS	 12 /* args[i]: word 2i low, 2i + 1 high */

struct reps {
	uint32_t *v[BRUTE_WORDS];
	uint32_t n[BRUTE_WORDS];
};

static void reps_add(struct reps *r, int word, uint32_t x)
{
	for (uint32_t i = 0; i < r->n[word]; i++)
		if (r->v[word][i] == x)
			return;
	r->v[word][r->n[word]++] = x;
}

static void reps_cut(struct reps *r, int word, uint32_t x)
{
	reps_add(r, word, x);
	if (x != UINT32_MAX)
		reps_add(r, word, x + 1);
}

/* 1 when the atoms of sc all fit; their cuts added to r. */
static int reps_of(struct reps *r, const struct ir_syscall *sc)
{
	for (uint32_t i = 0; sc && i < sc->nrules; i++) {
		for (uint32_t k = 0; k < sc->rules[i].natoms; k++) {
			const struct ir_atom *a = &sc->rules[i].atoms[k];
			uint64_t w = a->width == 32 ? 0xffffffffu : UINT64_MAX;

			if ((a->mask & w) != w || a->arg > 5)
				return 0;
			reps_cut(r, 2 * a->arg, (uint32_t)a->value);
			if (a->width != 32)
				reps_cut(r, 2 * a->arg + 1,
					 (uint32_t)(a->value >> 32));
		}
	}
	return 1;
}

static uint32_t atoms_of(const struct ir_syscall *sc)
{
	uint32_t n = 0;

	for (uint32_t i = 0; sc && i < sc->nrules; i++)
		n += sc->rules[i].natoms;
	return n;
}

/*
 * Every point of the product, both policies evaluated: the most
 * permissive excess (the highest NEW rank above OLD's) is the finding,
 * as the thresholds from allow down would give; errno values that differ
 * a note. Returns PROVE_OK, a status, or 1 when the rules do not fit
 * (too many points, or a partial mask): then Z3.
 */
static int brute(struct sysq *q)
{
	const struct ir_syscalls *ns = q->nw.sys, *os = q->old.sys;
	uint32_t cap = 2 * (atoms_of(q->nw.sc) + atoms_of(q->old.sc)) + 1;
	uint32_t idx[BRUTE_WORDS] = {0};
	uint64_t total = 1, best[6] = {0}, note[6] = {0};
	int found = -1, noted = 0, rc = 1;
	struct reps r = {0};

	for (int w = 0; w < BRUTE_WORDS; w++) {
		r.v[w] = calloc(cap, sizeof(*r.v[w]));
		if (!r.v[w]) {
			rc = prove_fail(q->pv, PROVE_ENOMEM, "out of memory");
			goto out;
		}
		r.v[w][r.n[w]++] = 0;
	}
	if (!reps_of(&r, q->nw.sc) || !reps_of(&r, q->old.sc))
		goto out;
	for (int w = 0; w < BRUTE_WORDS && total <= BRUTE_MAX_POINTS; w++)
		total *= r.n[w];
	if (total > BRUTE_MAX_POINTS)
		goto out;
	for (;;) {
		uint64_t args[6];
		struct ir_action an, ao;
		int w;

		for (int a = 0; a < 6; a++)
			args[a] = (uint64_t)r.v[2 * a + 1][idx[2 * a + 1]]
				      << 32 |
				  r.v[2 * a][idx[2 * a]];
		an = ir_eval_syscall(ns, q->nw.sc, args);
		ao = ir_eval_syscall(os, q->old.sc, args);
		if (an.kind > ao.kind && (int)an.kind > found) {
			found = an.kind;
			memcpy(best, args, sizeof(best));
		}
		if (!noted && an.kind == IR_ACT_ERRNO &&
		    ao.kind == IR_ACT_ERRNO && an.errnum != ao.errnum) {
			noted = 1;
			memcpy(note, args, sizeof(note));
		}
		for (w = 0; w < BRUTE_WORDS && ++idx[w] == r.n[w]; w++)
			idx[w] = 0;
		if (w == BRUTE_WORDS)
			break;
	}
	q->pv->res->brute_syscalls++;
	rc = PROVE_OK;
	for (int k = 0; k < 2 && !rc; k++) {
		const uint64_t *args = k ? note : best;
		struct prove_sys_point pt = {AUDIT_ARCH_X86_64, q->nr, {0}};

		if (k ? !noted : found < 0)
			continue;
		memcpy(pt.args, args, sizeof(pt.args));
		rc = report(q->pv, &pt,
			    call_str(q->name, q->nw.sc, q->old.sc, args), k);
	}
out:
	for (int w = 0; w < BRUTE_WORDS; w++)
		free(r.v[w]);
	return rc;
}

/* ---- One syscall ----------------------------------------------------- */

static int same_rules(const struct ir_syscall *a, const struct ir_syscall *b)
{
	uint32_t na = a ? a->nrules : 0, nb = b ? b->nrules : 0;

	if (na != nb)
		return 0;
	for (uint32_t i = 0; i < na; i++)
		if (ir_rule_cmp(&a->rules[i], &b->rules[i]))
			return 0;
	return 1;
}

static int has_atoms(const struct ir_syscall *sc)
{
	for (uint32_t i = 0; sc && i < sc->nrules; i++)
		if (sc->rules[i].natoms)
			return 1;
	return 0;
}

static int has_errno(const struct side *sd)
{
	if (sd->sys->def.kind == IR_ACT_ERRNO)
		return 1;
	for (uint32_t i = 0; i < sd->w.n; i++)
		if (rank(&sd->w.r[i]) == IR_ACT_ERRNO)
			return 1;
	return 0;
}

/* Where both deny with errno, can the values differ? At most one note. */
static int errno_note(struct sysq *q)
{
	const struct side *n = &q->nw, *o = &q->old;
	uint64_t args[6];

	if (!has_errno(n) || !has_errno(o))
		return PROVE_OK;
	for (uint32_t cn = 0; cn <= n->w.n; cn++) {
		uint32_t kn =
		    cn < n->w.n ? n->w.r[cn].key : ir_action_key(&n->sys->def);

		if (kn >> 16 != IR_ACT_ERRNO)
			continue;
		for (uint32_t co = 0; co <= o->w.n; co++) {
			uint32_t ko = co < o->w.n ? o->w.r[co].key
						  : ir_action_key(&o->sys->def);
			size_t k;
			int r;

			if (ko >> 16 != IR_ACT_ERRNO || ko == kn)
				continue;
			k = put_outcome(q->work, 0, n, cn);
			k = put_outcome(q->work, k, o, co);
			r = solve(q, k, args);
			if (r == WS_UNSAT)
				continue;
			/* A note is not a verdict: undecided, skip it. */
			if (r != WS_SAT)
				return r == WS_ENOMEM ? ws_status(q->pv, r, "")
						      : PROVE_OK;
			{
				struct prove_sys_point pt = {
				    AUDIT_ARCH_X86_64, q->nr, {0}};

				memcpy(pt.args, args, sizeof(args));
				return report(
				    q->pv, &pt,
				    call_str(q->name, n->sc, o->sc, args), 1);
			}
		}
	}
	return PROVE_OK;
}

/*
 * Thresholds from allow down: the first that holds gives the most
 * permissive excess. Past the clause search's budget, the rest of the
 * thresholds go to Z3, in the same order.
 */
static int decide(struct sysq *q)
{
	const struct side *n = &q->nw, *o = &q->old;
	uint8_t nmax = n->sys->def.kind, omin = o->sys->def.kind;
	uint64_t args[6] = {0};
	int z3 = 0;

	for (uint32_t i = 0; i < n->w.n; i++)
		if (rank(&n->w.r[i]) > nmax)
			nmax = rank(&n->w.r[i]);
	for (uint32_t i = 0; i < o->w.n; i++)
		if (rank(&o->w.r[i]) < omin)
			omin = rank(&o->w.r[i]);
	for (int t = IR_ACT_ALLOW; t >= 1; t--) {
		int r = WS_UNKNOWN;

		if (nmax < t || omin >= t)
			continue;
		if (!z3)
			r = threshold(q, (uint8_t)t, args);
		if (r == WS_UNSAT)
			continue;
		if (r == WS_UNKNOWN && !z3 && !q->pv->no_brute) {
			/* nothing reported yet: the values decide it all */
			int b = brute(q);

			if (b <= 0)
				return b ? b : PROVE_BRUTE_DONE;
		}
		if (r == WS_UNKNOWN) {
			if (!z3++)
				q->pv->res->z3_syscalls++;
			r = prove_z3_exceeds(q->pv, q->name, n->sc, o->sc,
					     (uint8_t)t, args);
			if (r < 0)
				return r;
			if (r == 0)
				continue;
			r = WS_SAT;
		}
		if (r != WS_SAT)
			return ws_status(q->pv, r, q->name);
		{
			struct prove_sys_point pt = {
			    AUDIT_ARCH_X86_64, q->nr, {0}};

			memcpy(pt.args, args, sizeof(args));
			return report(q->pv, &pt,
				      call_str(q->name, n->sc, o->sc, args), 0);
		}
	}
	return PROVE_OK;
}

static int check_args(struct prover *pv, const struct ir_syscall *sc)
{
	for (uint32_t r = 0; sc && r < sc->nrules; r++)
		for (uint32_t a = 0; a < sc->rules[r].natoms; a++)
			if (sc->rules[r].atoms[a].arg > 5)
				return prove_fail(
				    pv, PROVE_EINVAL, "%s: argument %u of 6",
				    sc->name, sc->rules[r].atoms[a].arg);
	return PROVE_OK;
}

static int one_syscall(struct prover *pv, const char *name,
		       const struct ir_syscall *nsc,
		       const struct ir_syscall *osc)
{
	const struct ir_syscalls *ns = &pv->nw->sys, *os = &pv->old->sys;
	struct sysq q = {.pv = pv, .name = name};
	int nr = seccomp_syscall_nr(name), rc;

	if (nr < 0)
		return prove_fail(pv, PROVE_EINVAL,
				  "syscall %s has no x86_64 number", name);
	if ((rc = check_args(pv, nsc)) || (rc = check_args(pv, osc)))
		return rc;
	q.nr = (uint32_t)nr;
	/* Each syscall gets the whole budget of the clause search. */
	pv->left = pv->budget;
	ws_set_limit(pv->ws,
		     pv->budget > SIZE_MAX / 64 ? SIZE_MAX : pv->budget * 64);
	/* The same rules and default: the same function of the arguments. */
	if (same_rules(nsc, osc) && !ir_action_cmp(&ns->def, &os->def))
		return PROVE_OK;
	if (!has_atoms(nsc) && !has_atoms(osc)) {
		/* Constant on both sides: one point decides. */
		static const uint64_t zero[6];
		struct ir_action an = ir_eval_syscall(ns, nsc, zero);
		struct ir_action ao = ir_eval_syscall(os, osc, zero);
		struct prove_sys_point pt = {AUDIT_ARCH_X86_64, q.nr, {0}};

		if (an.kind > ao.kind)
			return report(pv, &pt, call_str(name, nsc, osc, zero),
				      0);
		if (an.kind == IR_ACT_ERRNO && ao.kind == IR_ACT_ERRNO &&
		    an.errnum != ao.errnum)
			return report(pv, &pt, call_str(name, nsc, osc, zero),
				      1);
		return PROVE_OK;
	}
	rc = side_build(&q.nw, ns, nsc);
	if (!rc)
		rc = side_build(&q.old, os, osc);
	if (!rc) {
		q.work =
		    calloc(2 * (size_t)IR_MAX_ATOMS + q.nw.w.n + q.old.w.n + 1,
			   sizeof(*q.work));
		if (!q.work)
			rc = PROVE_ENOMEM;
	}
	if (rc)
		rc = prove_fail(pv, PROVE_ENOMEM, "out of memory");
	else if (!(rc = decide(&q)))
		rc = errno_note(&q);
	if (rc == PROVE_BRUTE_DONE) /* the note was decided with it */
		rc = PROVE_OK;
	free(q.work);
	side_free(&q.nw);
	side_free(&q.old);
	return rc;
}

/* ---- Whole-filter parts ---------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	const struct ir_syscall *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

static const struct ir_syscall **sorted(const struct ir_syscalls *s)
{
	const struct ir_syscall **v = calloc(s->ncalls + 1, sizeof(*v));

	if (!v)
		return NULL;
	for (uint32_t i = 0; i < s->ncalls; i++)
		v[i] = &s->calls[i];
	qsort(v, s->ncalls, sizeof(*v), by_name);
	return v;
}

/* A number neither policy names: the first such in the table, else one
 * above it. Its text goes to *what. */
static int unnamed_nr(struct prover *pv, uint32_t *nr, char **what)
{
	struct sbuf s = {0};

	for (int i = 0; i < NR_SCAN; i++) {
		const char *name = syscall_name(SYSCALL_ARCH_X86_64, i);

		if (ir_syscall_for_nr(&pv->nw->sys, i) ||
		    ir_syscall_for_nr(&pv->old->sys, i))
			continue;
		*nr = (uint32_t)i;
		if (name)
			sb_printf(&s,
				  "%s(...) (as every syscall neither policy "
				  "names)",
				  name);
		else
			sb_printf(&s,
				  "syscall %d (as every syscall neither "
				  "policy names)",
				  i);
		*what = sb_take(&s);
		return PROVE_OK;
	}
	*nr = NR_NOWHERE;
	sb_printf(&s, "syscall 0x%x (as every syscall neither policy names)",
		  NR_NOWHERE);
	*what = sb_take(&s);
	return PROVE_OK;
}

static int defaults(struct prover *pv)
{
	const struct ir_action *an = &pv->nw->sys.def, *ao = &pv->old->sys.def;
	int note = an->kind == IR_ACT_ERRNO && ao->kind == IR_ACT_ERRNO &&
		   an->errnum != ao->errnum;
	struct prove_sys_point pt = {AUDIT_ARCH_X86_64, 0, {0}};
	char *what = NULL;

	if (an->kind <= ao->kind && !note)
		return PROVE_OK;
	unnamed_nr(pv, &pt.nr, &what);
	return report(pv, &pt, what, an->kind > ao->kind ? 0 : 1);
}

static int badarch(struct prover *pv, const char *why)
{
	const struct ir_action *an = &pv->nw->sys.badarch,
			       *ao = &pv->old->sys.badarch;
	struct prove_sys_point pt = {AUDIT_ARCH_I386, 0, {0}};
	struct sbuf s = {0};
	int note = pv->nw->sys.present && an->kind == IR_ACT_ERRNO &&
		   ao->kind == IR_ACT_ERRNO && an->errnum != ao->errnum;

	if (pv->nw->sys.present && an->kind <= ao->kind && !note)
		return PROVE_OK;
	sb_printf(&s, "i386 syscall 0 (as every foreign-arch and x32 call%s)",
		  why);
	return report(pv, &pt, sb_take(&s),
		      !pv->nw->sys.present || an->kind > ao->kind ? 0 : 1);
}

int prove_syscalls(struct prover *pv)
{
	const struct ir_syscall **nv = NULL, **ov = NULL;
	uint32_t i = 0, j = 0;
	int rc;

	/* No filter in OLD: every call allowed, nothing can exceed it. */
	if (!pv->old->sys.present)
		return PROVE_OK;
	/* No filter in NEW: everything is allowed, foreign arches too,
	 * which OLD never allows (badarch is never allow or log). */
	if (!pv->nw->sys.present)
		return badarch(pv, "; new has no syscalls block: no filter");
	ws_set_limit(pv->ws,
		     pv->budget > SIZE_MAX / 16 ? SIZE_MAX : pv->budget * 16);
	nv = sorted(&pv->nw->sys);
	ov = sorted(&pv->old->sys);
	rc =
	    nv && ov ? PROVE_OK : prove_fail(pv, PROVE_ENOMEM, "out of memory");
	while (!rc && (i < pv->nw->sys.ncalls || j < pv->old->sys.ncalls)) {
		int c = i == pv->nw->sys.ncalls ? 1
			: j == pv->old->sys.ncalls
			    ? -1
			    : strcmp(nv[i]->name, ov[j]->name);

		if (c < 0)
			rc = one_syscall(pv, nv[i]->name, nv[i], NULL), i++;
		else if (c > 0)
			rc = one_syscall(pv, ov[j]->name, NULL, ov[j]), j++;
		else
			rc = one_syscall(pv, nv[i]->name, nv[i], ov[j]), i++,
			j++;
	}
	free(nv);
	free(ov);
	if (!rc)
		rc = defaults(pv);
	if (!rc)
		rc = badarch(pv, "");
	return rc;
}
