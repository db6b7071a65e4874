// SPDX-License-Identifier: MIT
/*
 * Translation validation: the seccomp program against the IR.
 *
 * The specification, for seccomp_data (arch, nr, ip, args):
 *   arch != AUDIT_ARCH_X86_64          -> the bad-arch action
 *   nr >= 0x40000000 (x32 bit, or any
 *   number no arch has)                -> the bad-arch action
 *   otherwise                          -> ir_eval_syscall(sys, the IR
 *       syscall for nr (ir_syscall_for_nr: the table's x86_64 name for
 *       nr, or nr itself) or NULL, args)
 *
 * How each part is proven:
 *   - nr in 0..max x86_64 number (of the table, or of a number the policy
 *     names, if larger): run the program concretely. If that run
 *     read no argument and no instruction pointer, its path, and so its
 *     result, is the same for every argument vector; if moreover the IR
 *     syscall has no argument test, ir_eval_syscall() is constant too, and
 *     one comparison proves the number. Otherwise every path of the program
 *     with nr fixed is explored, and on each one (path condition C, result
 *     R) no argument vector may satisfy C while the rules give an action
 *     other than R.
 *   - nr above the max x86_64 number up to 0x3fffffff: nr free in that
 *     range, the default action expected; concrete runs at both ends.
 *   - nr in 0x40000000..0xffffffff: bad-arch expected; concrete runs at
 *     boundary points.
 *   - arch i386, arch aarch64, and any arch but x86_64: nr free, bad-arch
 *     expected.
 *
 * The exact route, tried first for every part: the program our generator
 * emits compares "word & mask" with constants, so a path condition is a
 * conjunction of per-word literals (bpf/bpf_paths.h), and "the rules give
 * an action other than R" is, for each such action A, "some rule of A
 * holds and every stricter rule fails" (or "no rule holds" for the
 * default): conjunctions and disjunctions of the same literals, one atom
 * of a 64-bit argument becoming literals on its two words. bpf/wordsat.h
 * decides these exactly, with a witness.
 *
 * The values, for a number the exact one cannot decide: where the
 * program and the rules compare whole words with constants, one point of
 * each product of the intervals those constants cut, run concretely
 * (_brute_number(); at most 2^16 points).
 *
 * The Z3 route, when neither can decide (an instruction outside the
 * generator's fragment, a budget exceeded, too many values): the program
 * explored symbolically with Z3 (bpf/bpf_symbolic.h), the IR action being
 * a Z3 term built from the rules (the fold below mirrors
 * ir_eval_syscall()); for a number, whose paths were too many for the
 * exact route, at once one query on the program's merged result term
 * (bpf_sym_result()), elsewhere past 1024 paths. The Z3 context is only
 * created when a part first needs it: it costs more than the rest of a
 * validation together.
 *
 * Either way a witness is replayed through the interpreter and
 * ir_eval_syscall() before it is reported, so a report never rests on a
 * symbolic model alone, and a witness that does not reproduce is an
 * internal error, never a pass.
 */
#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "bpf_interp.h"
#include "bpf_paths.h"
#include "bpf_symbolic.h"
#include "logic/logic.h"
#include "tables/tables.h"
#include "wordsat.h"

#define X32_BIT 0x40000000u
#define NR_SCAN SYSCALL_NR_LIMIT /* x86_64 numbers are far below this */

/*
 * Budgets of the exact route for one part; past them, Z3 decides the
 * part. Programs from our generator stay far below (a few paths per
 * syscall, a few disjuncts per query); a chain of rules that can each fail
 * at one of several tests multiplies both, which the merged Z3 query
 * handles better.
 */
#define EXACT_MAX_PATHS 4096
#define EXACT_BUDGET	(1u << 14)
#define EXACT_NODES	(1u << 20) /* search nodes deciding words */

/* What the exact route says about a part beyond 0 (proven) and 1. */
#define USE_Z3 2

struct validator {
	const struct ir_policy *p;
	enum seccomp_variant var;
	const struct ir_syscalls *sys;
	const struct sock_filter *prog;
	size_t n;
	unsigned int flags;
	struct seccomp_validate_stats st;
	struct ws_set *ws;   /* the exact route's path condition */
	struct bpf_sym *sym; /* NULL until a part needs Z3 */
	Z3_ast expect;	     /* 32-bit term: the seccomp value the spec gives */
	struct seccomp_data witness;
	int max_nr;
	/* Per number up to max_nr: the IR syscall the spec reads for it. */
	const struct ir_syscall *calls[NR_SCAN];
	char *err;
	size_t errlen;
};

static int _fail(struct validator *v, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int _fail(struct validator *v, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->err, v->errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * The seccomp value of an action, written here a second time on purpose:
 * validation must not share the code generator's table, or a wrong entry
 * there would be "proven" right.
 */
static uint32_t _value(const struct ir_action *a)
{
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		return 0x80000000u;
	case IR_ACT_KILL_THREAD:
		return 0x00000000u;
	case IR_ACT_TRAP:
		return 0x00030000u;
	case IR_ACT_ERRNO:
		return 0x00050000u | (a->errnum & 0xffffu);
	case IR_ACT_LOG:
		return 0x7ffc0000u;
	default:
		return 0x7fff0000u;
	}
}

/* SECCOMP_RET_USER_NOTIF, written here again for the same reason. */
#define NOTIF 0x7fc00000u

/*
 * What the variant returns where the decision is `a` with explain code
 * `code`: for NOTIFY and LEARN, before any observation of an allow
 * (docs/OBSERVE.md).
 */
static uint32_t _vvalue(const struct validator *v, const struct ir_action *a,
			uint32_t code)
{
	if (v->var == SECCOMP_EXPLAIN)
		return code;
	if (seccomp_variant_notifies(v->var, a, code))
		return NOTIF;
	return _value(a);
}

/* The variant's observation of the syscall `name` (NULL: none). */
static int _observed(const struct validator *v, const char *name, unsigned *arg,
		     uint32_t *mask)
{
	if (!name)
		return SECCOMP_OBSERVE_NO;
	return seccomp_observed(v->p, v->var, name, arg, mask);
}

/* The program's result as text, in the IR's words where it has them. */
static const char *_ret_str(const struct validator *v, uint32_t ret, char *buf,
			    size_t len)
{
	static const uint8_t kinds[] = {IR_ACT_KILL_PROCESS, IR_ACT_KILL_THREAD,
					IR_ACT_TRAP, IR_ACT_LOG, IR_ACT_ALLOW};
	struct ir_action a = {IR_ACT_ERRNO, (uint16_t)(ret & 0xffff)};

	if (v->var == SECCOMP_EXPLAIN) {
		snprintf(buf, len, "explain code %u", ret);
		return buf;
	}
	if (ret == NOTIF) {
		snprintf(buf, len, "user_notif");
		return buf;
	}
	if ((ret & 0xffff0000u) == 0x00050000u && a.errnum <= 4095)
		return ir_action_str(&a, buf, len);
	for (size_t i = 0; i < sizeof(kinds); i++) {
		a = (struct ir_action){kinds[i], 0};
		if (_value(&a) == ret)
			return ir_action_str(&a, buf, len);
	}
	snprintf(buf, len, "ret 0x%08x", ret);
	return buf;
}

/* ---- The IR as a Z3 term ---------------------------------------------- */

/*
 * What the variant returns for the decision `a` as a term: a constant, or
 * for an observed allow ite((arg & mask) != 0, USER_NOTIF, allow).
 */
static Z3_ast _action_term(const struct validator *v, struct bpf_sym *s,
			   const char *name, const struct ir_action *a,
			   uint32_t code)
{
	Z3_context c = bpf_sym_ctx(s);
	uint32_t val = _vvalue(v, a, code);
	unsigned arg = 0;
	uint32_t mask = 0;
	int obs;

	if (v->var == SECCOMP_EXPLAIN || a->kind != IR_ACT_ALLOW ||
	    val == NOTIF)
		return bpf_sym_u32(s, val);
	obs = _observed(v, name, &arg, &mask);
	if (obs == SECCOMP_OBSERVE_ALWAYS)
		return bpf_sym_u32(s, NOTIF);
	if (obs == SECCOMP_OBSERVE_IF_SET) {
		Z3_ast w = Z3_mk_extract(c, 31, 0, bpf_sym_arg(s, arg));
		Z3_ast set = Z3_mk_not(
		    c, Z3_mk_eq(c, Z3_mk_bvand(c, w, bpf_sym_u32(s, mask)),
				bpf_sym_u32(s, 0)));

		return Z3_mk_ite(c, set, bpf_sym_u32(s, NOTIF),
				 bpf_sym_u32(s, val));
	}
	return bpf_sym_u32(s, val);
}

/*
 * The value the specification gives, as a term over the arguments. The
 * decision: best = the smallest key among the rules that hold, else the
 * default. The explain code: the first rule, in ir_explain_syscall()'s
 * order, that holds.
 */
static Z3_ast _spec_term(const struct validator *v, struct bpf_sym *s,
			 const char *name, const struct ir_syscall *sc)
{
	const struct ir_syscalls *sys = v->sys;
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast best, out;
	uint32_t nr = sc ? sc->nrules : 0;

	out = _action_term(v, s, name, &sys->def, SECCOMP_EXPLAIN_DEFAULT);
	if (v->var == SECCOMP_EXPLAIN) {
		/* ir_explain_syscall(): strictest key, then lowest index; an
		 * ite chain built from the last rule in that order back. */
		struct ir_words_rules w;

		if (ir_words_rules_build(&w, sc, IR_WORDS_HIGH_FIRST)) {
			ir_words_rules_free(&w);
			return NULL;
		}
		for (uint32_t k = w.n; k-- > 0;) {
			uint32_t r = w.r[k].index;

			out = Z3_mk_ite(
			    c, ir_z3_rule_holds(s, &sc->rules[r]),
			    bpf_sym_u32(s, seccomp_explain_code(sys, sc, r)),
			    out);
		}
		ir_words_rules_free(&w);
		return out;
	}
	best = ir_z3_best_key(s, sc);
	for (uint32_t r = 0; r < nr; r++) {
		const struct ir_action *a = &sc->rules[r].action;
		Z3_ast is = Z3_mk_eq(c, best, bpf_sym_u32(s, ir_action_key(a)));

		out = Z3_mk_ite(c, is,
				_action_term(v, s, name, a,
					     seccomp_explain_code(sys, sc, r)),
				out);
	}
	return out;
}

static int _has_atoms(const struct ir_syscall *sc)
{
	for (uint32_t r = 0; sc && r < sc->nrules; r++)
		if (sc->rules[r].natoms)
			return 1;
	return 0;
}

/* ---- Reporting -------------------------------------------------------- */

static void _name(const struct validator *v, uint32_t arch, uint32_t nr,
		  char *buf, size_t len)
{
	const char *name = NULL;

	if (arch != AUDIT_ARCH_X86_64) {
		snprintf(buf, len, "arch 0x%08x syscall 0x%x", arch, nr);
		return;
	}
	if (nr >= X32_BIT) {
		snprintf(buf, len, "x32 syscall 0x%x", nr);
		return;
	}
	if ((int)nr <= v->max_nr)
		name = syscall_name(SYSCALL_ARCH_X86_64, (int)nr);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "syscall %u", nr);
}

/* The specification at one concrete point. */
/* The x86_64 name of nr, which the observation is specified by. */
static const char *_nrname(int nr)
{
	return syscall_name(SYSCALL_ARCH_X86_64, nr);
}

/* The specification at one concrete point: the value and the decision. */
static uint32_t _spec(const struct validator *v, const struct seccomp_data *d,
		      struct ir_action *decision)
{
	const struct ir_syscall *sc = NULL;
	const char *name = NULL;
	uint64_t args[6];
	uint32_t mask = 0, val;
	unsigned arg = 0;
	int i, obs;

	if (d->arch != AUDIT_ARCH_X86_64 || (uint32_t)d->nr >= X32_BIT) {
		*decision = v->sys->badarch;
		return _vvalue(v, decision, SECCOMP_EXPLAIN_BADARCH);
	}
	if (d->nr <= v->max_nr) {
		sc = v->calls[d->nr];
		name = _nrname(d->nr);
	}
	for (i = 0; i < 6; i++)
		args[i] = d->args[i];
	i = ir_explain_syscall(sc, args);
	*decision = ir_eval_syscall(v->sys, sc, args);
	val = _vvalue(v, decision,
		      i < 0 ? SECCOMP_EXPLAIN_DEFAULT
			    : seccomp_explain_code(v->sys, sc, (uint32_t)i));
	if (v->var == SECCOMP_EXPLAIN || decision->kind != IR_ACT_ALLOW)
		return val;
	obs = _observed(v, name, &arg, &mask);
	if (obs == SECCOMP_OBSERVE_ALWAYS ||
	    (obs == SECCOMP_OBSERVE_IF_SET && ((uint32_t)args[arg] & mask)))
		return NOTIF;
	return val;
}

/* Compare program and spec at d; 0 equal, 1 mismatch (reported). */
static int _point(struct validator *v, const struct seccomp_data *d)
{
	struct bpf_run_result res;
	struct ir_action decision;
	uint32_t want = _spec(v, d, &decision);
	char what[64], got[48], exp[48], dec[48], emsg[128];

	_name(v, d->arch, (uint32_t)d->nr, what, sizeof(what));
	if (bpf_run(v->prog, v->n, d, &res, emsg, sizeof(emsg)))
		return _fail(v, 1, "%s: program fails: %s", what, emsg);
	if (res.ret == want)
		return 0;
	return _fail(
	    v, 1,
	    "%s(arg0=0x%llx, arg1=0x%llx, arg2=0x%llx, arg3=0x%llx, "
	    "arg4=0x%llx, arg5=0x%llx): program %s, policy %s%s",
	    what, (unsigned long long)d->args[0],
	    (unsigned long long)d->args[1], (unsigned long long)d->args[2],
	    (unsigned long long)d->args[3], (unsigned long long)d->args[4],
	    (unsigned long long)d->args[5],
	    _ret_str(v, res.ret, got, sizeof(got)),
	    v->var == SECCOMP_DECIDE
		? ir_action_str(&decision, exp, sizeof(exp))
		: _ret_str(v, want, exp, sizeof(exp)),
	    v->var == SECCOMP_DECIDE
		? ""
		: (snprintf(dec, sizeof(dec), " (decision %s)",
			    ir_action_str(&decision, emsg, sizeof(emsg))),
		   dec));
}

/* ---- Symbolic parts --------------------------------------------------- */

static int _leaf(struct bpf_sym *s, const struct bpf_sym_path *path, void *user)
{
	struct validator *v = user;
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast differs = Z3_mk_not(c, Z3_mk_eq(c, path->ret_term, v->expect));

	switch (bpf_sym_check(s, differs, &v->witness)) {
	case BPF_SYM_UNSAT:
		return 0;
	case BPF_SYM_SAT:
		return 1;
	default:
		return _fail(v, -1, "solver could not decide: %s",
			     bpf_sym_reason(s));
	}
}

/*
 * Too many paths: one query on the program's merged result term instead.
 * Returns 0, 1 (witness in v->witness) or -1.
 */
static int _merged(struct validator *v, Z3_ast nr, Z3_ast arch, Z3_ast pre,
		   char *emsg, size_t len)
{
	Z3_context c = bpf_sym_ctx(v->sym);
	Z3_ast result, q[2];
	uint16_t loaded;

	if (bpf_sym_result(v->sym, v->prog, v->n, nr, arch, &result, &loaded,
			   emsg, len))
		return -1;
	q[0] = pre ? pre : Z3_mk_true(c);
	q[1] = Z3_mk_not(c, Z3_mk_eq(c, result, v->expect));
	switch (bpf_sym_check(v->sym, Z3_mk_and(c, 2, q), &v->witness)) {
	case BPF_SYM_UNSAT:
		return 0;
	case BPF_SYM_SAT:
		return 1;
	default:
		snprintf(emsg, len, "solver could not decide: %s",
			 bpf_sym_reason(v->sym));
		return -1;
	}
}

/*
 * Explore with the given nr and arch terms under `pre`, `expect` being the
 * specification's value (merged: the merged query alone, for a part known
 * to have many paths). Returns 0, 1 (mismatch reported) or -1.
 */
static int _explore(struct validator *v, Z3_ast nr, Z3_ast arch, Z3_ast pre,
		    Z3_ast expect, const char *what, int merged)
{
	char emsg[160];
	int r = BPF_SYM_PATH_LIMIT;

	v->expect = expect;
	emsg[0] = 0;
	if (!merged)
		r = bpf_sym_explore(v->sym, v->prog, v->n, nr, arch, pre, _leaf,
				    v, emsg, sizeof(emsg));
	if (r == BPF_SYM_PATH_LIMIT)
		r = _merged(v, nr, arch, pre, emsg, sizeof(emsg));
	if (r < 0)
		return emsg[0] ? _fail(v, -1, "%s: %s", what, emsg) : -1;
	if (r == 0)
		return 0;
	/* Replay the witness: it must show the mismatch concretely. */
	if (_point(v, &v->witness) == 1)
		return 1;
	return _fail(v, -1, "%s: solver witness does not reproduce", what);
}

/* ---- The exact route --------------------------------------------------- */

/* One syscall's rules, and what a path of its program must agree with. */
struct spec {
	struct validator *v;
	const struct bpf_paths_in *in;
	const struct ir_syscall *sc;
	struct ir_words_rules w; /* strictest first, then by index */
	uint32_t uncond; /* index of the first rule without atoms, or w.n */
	int obs;	 /* the variant's observation of an allow */
	/* obs == SECCOMP_OBSERVE_IF_SET: the word test set, and clear */
	struct ws_conj cond_conj[2];
	struct ws_clause cond[2];
	struct ws_clause *work; /* one query: positive clauses, then negative */
	size_t budget;
};

static void _spec_free(struct spec *sp)
{
	ir_words_rules_free(&sp->w);
	free(sp->work);
}

/*
 * Returns 0, or WS_ENOMEM (then _spec_free() still applies). A 64-bit
 * atom's strict order on the high words comes first.
 */
static int _spec_build(struct spec *sp, const char *name,
		       const struct ir_syscall *sc)
{
	uint32_t nrules = sc ? sc->nrules : 0, mask = 0;
	size_t natoms = 0;
	unsigned arg = 0;

	sp->sc = sc;
	for (uint32_t i = 0; i < nrules; i++)
		natoms += sc->rules[i].natoms;
	sp->work = calloc(natoms + nrules + 2, sizeof(*sp->work));
	if (ir_words_rules_build(&sp->w, sc, IR_WORDS_HIGH_FIRST) || !sp->work)
		return WS_ENOMEM;
	for (sp->uncond = 0; sp->uncond < nrules; sp->uncond++)
		if (!sp->w.r[sp->uncond].natoms)
			break;
	sp->obs = _observed(sp->v, name, &arg, &mask);
	for (int k = 0; k < 2; k++) {
		sp->cond_conj[k] = (struct ws_conj){
		    1,
		    {{(uint8_t)WS_W_ARG_LO(arg), k ? WS_EQ : WS_NE, mask, 0}}};
		sp->cond[k] = (struct ws_clause){1, &sp->cond_conj[k]};
	}
	return 0;
}

/* A witness from the words, nr and arch as the exploration had them. */
static void _from_words(const uint32_t w[WS_WORDS],
			const struct bpf_paths_in *in, struct seccomp_data *d)
{
	memset(d, 0, sizeof(*d));
	d->nr = (int)(in->nr_fixed ? in->nr : w[WS_W_NR]);
	d->arch = in->arch_fixed ? in->arch : w[WS_W_ARCH];
	d->instruction_pointer = (uint64_t)w[WS_W_IP_HI] << 32 | w[WS_W_IP_LO];
	for (int i = 0; i < 6; i++)
		d->args[i] =
		    (uint64_t)w[WS_W_ARG_HI(i)] << 32 | w[WS_W_ARG_LO(i)];
}

/*
 * Can the path condition hold with one of the rules sp->w.r[from .. to) (one
 * action) holding and every stricter rule, sp->w.r[0 .. from), failing?
 * from == to == w.n asks for the default: no rule holding at all.
 * Returns WS_UNSAT, 1 with the witness, or WS_UNKNOWN / WS_ENOMEM.
 */
static int _query(struct spec *sp, struct ws_set *path, uint32_t from,
		  uint32_t to, const struct ws_clause *extra)
{
	uint32_t w[WS_WORDS];
	uint32_t t = from;

	do {
		size_t n = 0;
		int r;

		if (t < to)
			for (uint32_t a = 0; a < sp->w.r[t].natoms; a++)
				sp->work[n++] = sp->w.r[t].pos[a];
		for (uint32_t s = 0; s < from; s++)
			sp->work[n++] = sp->w.r[s].neg;
		if (extra)
			sp->work[n++] = *extra;
		r = ws_set_search(path, sp->work, n, &sp->budget, w);
		if (r == WS_SAT) {
			_from_words(w, sp->in, &sp->v->witness);
			return 1;
		}
		if (r != WS_UNSAT)
			return r;
	} while (++t < to);
	return WS_UNSAT;
}

/*
 * One outcome of the rules, w.r[i .. j) holding (the default when i ==
 * w.n), against a path returning ret: 0 when they agree, else what
 * _query() found. An observed allow is two outcomes, its test set
 * (notified) or clear (allowed).
 */
static int _outcome(struct spec *sp, struct ws_set *path, uint32_t ret,
		    uint32_t i, uint32_t j)
{
	const struct validator *v = sp->v;
	const struct ir_action *a =
	    i < sp->w.n ? sp->w.r[i].action : &v->sys->def;
	uint32_t code =
	    i < sp->w.n ? seccomp_explain_code(v->sys, sp->sc, sp->w.r[i].index)
			: SECCOMP_EXPLAIN_DEFAULT;
	uint32_t val = _vvalue(v, a, code);
	int r;

	if (v->var == SECCOMP_EXPLAIN || a->kind != IR_ACT_ALLOW ||
	    sp->obs == SECCOMP_OBSERVE_NO)
		return val == ret ? WS_UNSAT : _query(sp, path, i, j, NULL);
	if (sp->obs == SECCOMP_OBSERVE_ALWAYS)
		return ret == NOTIF ? WS_UNSAT : _query(sp, path, i, j, NULL);
	if (ret != NOTIF && (r = _query(sp, path, i, j, &sp->cond[0])))
		return r;
	return ret == val ? WS_UNSAT : _query(sp, path, i, j, &sp->cond[1]);
}

/*
 * A path of the program returns ret: no outcome of the rules with another
 * value may be possible on it. The outcomes, strictest first: each group
 * of rules with one action, then the default; for the explain program,
 * each rule on its own.
 */
static int _spec_leaf(struct ws_set *path, uint32_t ret, void *user)
{
	struct spec *sp = user;
	uint32_t i = 0, j;
	int r;

	for (;;) {
		/* Every outcome from here on needs rule `uncond` to fail. */
		if (sp->uncond < i)
			return 0;
		if (sp->v->var == SECCOMP_EXPLAIN)
			j = i < sp->w.n ? i + 1 : i;
		else
			for (j = i;
			     j < sp->w.n && sp->w.r[j].key == sp->w.r[i].key;
			     j++)
				;
		r = _outcome(sp, path, ret, i, j);
		if (r != WS_UNSAT)
			return r;
		if (i == sp->w.n)
			return 0;
		i = j;
	}
}

/*
 * The exact route on number nr. Returns 0 (proven), 1 (witness in
 * v->witness), or what bpf_paths_explore() says when it cannot decide.
 */
static int _exact_number(struct validator *v, uint32_t nr,
			 const struct ir_syscall *sc)
{
	struct bpf_paths_in in = {1, 1, nr, AUDIT_ARCH_X86_64};
	struct spec sp = {.v = v, .in = &in, .budget = EXACT_BUDGET};
	int r = _spec_build(&sp, _nrname(nr), sc);

	ws_set_limit(v->ws, EXACT_NODES);
	if (!r)
		r = bpf_paths_explore(v->prog, v->n, &in, v->ws,
				      EXACT_MAX_PATHS, _spec_leaf, &sp);
	_spec_free(&sp);
	return r;
}

/* A range where the specification is one value. */
struct region {
	struct validator *v;
	const struct bpf_paths_in *in;
	uint32_t want;
};

static int _region_leaf(struct ws_set *path, uint32_t ret, void *user)
{
	struct region *rg = user;
	uint32_t w[WS_WORDS];

	if (ret == rg->want)
		return 0;
	ws_set_witness(path, w);
	_from_words(w, rg->in, &rg->v->witness);
	return 1;
}

static int _exact_region(struct validator *v, const struct bpf_paths_in *in,
			 const struct ws_lit *pre, size_t npre, uint32_t want)
{
	struct region rg = {v, in, want};
	int r = WS_SAT;

	ws_set_limit(v->ws, EXACT_NODES);
	for (size_t i = 0; i < npre && r == WS_SAT; i++)
		r = ws_set_add(v->ws, &pre[i]);
	if (r == WS_SAT)
		r = bpf_paths_explore(v->prog, v->n, in, v->ws, EXACT_MAX_PATHS,
				      _region_leaf, &rg);
	else if (r == WS_UNSAT)
		r = 0; /* an empty range holds nothing to prove */
	ws_set_undo(v->ws, 0);
	return r;
}

/*
 * What the exact route's answer r means for the part: 0 proven, 1
 * mismatch (the witness replayed and reported), -1 error, USE_Z3.
 */
static int _exact_done(struct validator *v, int r, unsigned int *exact,
		       unsigned int *z3, const char *what)
{
	if (r == 0 || r == 1)
		++*exact;
	if (r == 0)
		return 0;
	if (r == 1) {
		if (_point(v, &v->witness) == 1)
			return 1;
		return _fail(v, -1, "%s: exact witness does not reproduce",
			     what);
	}
	if (r == WS_ENOMEM)
		return _fail(v, -1, "%s: out of memory", what);
	++*z3;
	return USE_Z3;
}

/* ---- The values the rules name ------------------------------------------ */

/*
 * Past the exact route's budget, before Z3: where, with nr fixed, the
 * program reached only loads words of seccomp_data, compares them whole
 * (jeq, jgt, jge with a constant, jset with every bit), and every atom of
 * the syscall's rules tests its argument with the whole mask of its
 * width, each word only matters through the intervals its constants cut
 * it into (a test changes at the constant and the word after it). One
 * point of each product of intervals is then every input there is: run
 * through the program and the specification, at most BRUTE_MAX_POINTS.
 * The program's side is read off its instructions (a forward pass: which
 * words the accumulator may hold at each test; nr and arch are known, so
 * the other syscalls' code is not reached), not assumed from the
 * generator.
 */
#define BRUTE_MAX_POINTS ((uint64_t)1 << 16)
#define BRUTE_WORDS	 14 /* ip lo, hi, then args[i] lo, hi */
#define BRUTE_MAX_REPS	 1024

struct acc {
	uint8_t reached, known; /* known: A holds `c` */
	uint32_t c;
	uint16_t words; /* else: the words A may hold (bit per word) */
};

struct cuts {
	uint32_t v[BRUTE_WORDS][BRUTE_MAX_REPS];
	uint32_t n[BRUTE_WORDS];
	int full;
};

static void _cut1(struct cuts *c, int w, uint32_t x)
{
	for (uint32_t i = 0; i < c->n[w]; i++)
		if (c->v[w][i] == x)
			return;
	if (c->n[w] == BRUTE_MAX_REPS)
		c->full = 1;
	else
		c->v[w][c->n[w]++] = x;
}

static void _cut(struct cuts *c, int w, uint32_t x)
{
	_cut1(c, w, x);
	if (x != UINT32_MAX)
		_cut1(c, w, x + 1);
}

/* Merge `in` into the state of instruction `to`; 0, or -1: unfit. */
static int _flow(struct acc *st, size_t to, size_t n, const struct acc *in)
{
	struct acc *t;

	if (to >= n)
		return -1;
	t = &st[to];
	if (!t->reached) {
		*t = *in;
		return 0;
	}
	if (t->known != in->known || (in->known && t->c != in->c))
		return -1;
	t->words |= in->words;
	return 0;
}

/* The program's cuts with nr fixed; 0, or -1 when it does not fit. */
static int _prog_cuts(const struct validator *v, uint32_t nr, struct cuts *c)
{
	struct acc *st = calloc(v->n + 1, sizeof(*st));
	int rc = 0;

	if (!st)
		return -1;
	st[0].reached = 1;
	st[0].known = 1; /* A starts as 0 */
	for (size_t pc = 0; pc < v->n && !rc; pc++) {
		const struct sock_filter *f = &v->prog[pc];
		struct acc a = st[pc];

		if (!a.reached)
			continue;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			a.known = f->k == 0 || f->k == 4;
			a.c = f->k == 0 ? nr : AUDIT_ARCH_X86_64;
			a.words = 0;
			if (!a.known && (f->k < 8 || f->k > 60 || f->k % 4))
				rc = -1;
			else if (!a.known)
				a.words = (uint16_t)(1u << ((f->k - 8) / 4));
			rc = rc ? rc : _flow(st, pc + 1, v->n, &a);
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			if (a.known)
				a.c &= f->k;
			else if (f->k != UINT32_MAX)
				rc = -1;
			rc = rc ? rc : _flow(st, pc + 1, v->n, &a);
			break;
		case BPF_JMP | BPF_JA:
			rc = _flow(st, pc + 1 + f->k, v->n, &a);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K: {
			uint32_t op = BPF_OP(f->code);
			int t = op == BPF_JEQ	? a.c == f->k
				: op == BPF_JGT ? a.c > f->k
				: op == BPF_JGE ? a.c >= f->k
						: (a.c & f->k) != 0;

			if (!a.known) {
				if (op == BPF_JSET && f->k != UINT32_MAX)
					rc = -1;
				for (int w = 0; w < BRUTE_WORDS; w++)
					if (a.words >> w & 1)
						_cut(c, w,
						     op == BPF_JSET ? 0 : f->k);
			}
			if (!rc && (!a.known || t))
				rc = _flow(st, pc + 1 + f->jt, v->n, &a);
			if (!rc && (!a.known || !t))
				rc = _flow(st, pc + 1 + f->jf, v->n, &a);
			break;
		}
		case BPF_RET | BPF_K:
			break;
		default:
			rc = -1;
		}
	}
	free(st);
	return rc || c->full ? -1 : 0;
}

/*
 * Every point of the product through _point(): 0 proven, 1 mismatch
 * (reported), -1 error, USE_Z3 when the number does not fit.
 */
static int _brute_number(struct validator *v, uint32_t nr,
			 const struct ir_syscall *sc)
{
	struct cuts *c = calloc(1, sizeof(*c));
	uint32_t idx[BRUTE_WORDS] = {0};
	uint64_t total = 1;
	int rc = USE_Z3;

	if (!c)
		return _fail(v, -1, "out of memory");
	if (_observed(v, _nrname((int)nr), NULL, NULL) ==
	    SECCOMP_OBSERVE_IF_SET)
		goto out;
	for (int w = 0; w < BRUTE_WORDS; w++)
		c->v[w][c->n[w]++] = 0;
	for (uint32_t i = 0; sc && i < sc->nrules; i++) {
		for (uint32_t k = 0; k < sc->rules[i].natoms; k++) {
			const struct ir_atom *a = &sc->rules[i].atoms[k];
			uint64_t wm = a->width == 32 ? 0xffffffffu : UINT64_MAX;

			if ((a->mask & wm) != wm || a->arg > 5)
				goto out;
			_cut(c, 2 + 2 * a->arg, (uint32_t)a->value);
			if (a->width != 32)
				_cut(c, 3 + 2 * a->arg,
				     (uint32_t)(a->value >> 32));
		}
	}
	if (_prog_cuts(v, nr, c))
		goto out;
	for (int w = 0; w < BRUTE_WORDS && total <= BRUTE_MAX_POINTS; w++)
		total *= c->n[w];
	if (total > BRUTE_MAX_POINTS)
		goto out;
	for (;;) {
		struct seccomp_data d = {.nr = (int)nr,
					 .arch = AUDIT_ARCH_X86_64};
		int w;

		d.instruction_pointer =
		    (uint64_t)c->v[1][idx[1]] << 32 | c->v[0][idx[0]];
		for (int a = 0; a < 6; a++)
			d.args[a] = (uint64_t)c->v[3 + 2 * a][idx[3 + 2 * a]]
					<< 32 |
				    c->v[2 + 2 * a][idx[2 + 2 * a]];
		rc = _point(v, &d);
		if (rc)
			goto out;
		for (w = 0; w < BRUTE_WORDS && ++idx[w] == c->n[w]; w++)
			idx[w] = 0;
		if (w == BRUTE_WORDS)
			break;
	}
	rc = 0;
out:
	free(c);
	return rc;
}

/* ---- Parts ----------------------------------------------------------------
 */

/* The Z3 context, created when the first part needs it. */
static int _z3(struct validator *v)
{
	if (v->sym)
		return 0;
	if (bpf_sym_create(&v->sym, SECCOMP_VALIDATE_TIMEOUT_MS, v->err,
			   v->errlen))
		return -1;
	/* Past this many paths on one number, one merged query is cheaper. */
	bpf_sym_set_max_paths(v->sym, 1024);
	return 0;
}

static int _number(struct validator *v, int nr)
{
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
	struct bpf_run_result res;
	const struct ir_syscall *sc = v->calls[nr];
	char what[64], emsg[128];
	Z3_ast term;
	int r;

	_name(v, AUDIT_ARCH_X86_64, (uint32_t)nr, what, sizeof(what));
	if (bpf_run(v->prog, v->n, &d, &res, emsg, sizeof(emsg)))
		return _fail(v, 1, "%s: program fails: %s", what, emsg);
	r = _point(v, &d);
	/* One run proves the number when neither the program nor the
	 * specification looks at an argument. */
	if (r ||
	    (!(res.loaded & (BPF_LOADED_ARGS | BPF_LOADED_IP)) &&
	     !_has_atoms(sc) &&
	     _observed(v, _nrname(nr), NULL, NULL) != SECCOMP_OBSERVE_IF_SET)) {
		v->st.concrete += !r;
		return r;
	}
	r = USE_Z3;
	if (!(v->flags &
	      (SECCOMP_VALIDATE_FORCE_Z3 | SECCOMP_VALIDATE_NO_EXACT)))
		r = _exact_done(v, _exact_number(v, (uint32_t)nr, sc),
				&v->st.exact_syscalls, &v->st.z3_syscalls,
				what);
	else
		v->st.z3_syscalls++;
	if (r != USE_Z3)
		return r;
	if (!(v->flags & SECCOMP_VALIDATE_FORCE_Z3)) {
		r = _brute_number(v, (uint32_t)nr, sc);
		v->st.brute_syscalls += r != USE_Z3;
		if (r != USE_Z3)
			return r;
	}
	if (_z3(v))
		return -1;
	term = _spec_term(v, v->sym, _nrname(nr), sc);
	if (!term)
		return _fail(v, -1, "%s: out of memory", what);
	/* Past the exact route's budget the paths are many (a product of
	 * tests): one merged query, not one check per fork of each path. */
	return _explore(v, bpf_sym_u32(v->sym, (uint32_t)nr),
			bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64), NULL, term,
			what, !(v->flags & SECCOMP_VALIDATE_FORCE_Z3));
}

/* The exact route on a range, then Z3 if it cannot decide. */
static int _exact_range(struct validator *v, const struct bpf_paths_in *in,
			const struct ws_lit *pre, size_t npre, uint32_t want,
			const char *what)
{
	if (v->flags & SECCOMP_VALIDATE_FORCE_Z3) {
		v->st.z3_ranges++;
		return USE_Z3;
	}
	return _exact_done(v, _exact_region(v, in, pre, npre, want),
			   &v->st.exact_ranges, &v->st.z3_ranges, what);
}

/* nr in lo..hi on x86_64, expecting the value `want`. */
static int _range(struct validator *v, uint32_t lo, uint32_t hi, uint32_t want,
		  const char *what)
{
	struct bpf_paths_in in = {.arch_fixed = 1, .arch = AUDIT_ARCH_X86_64};
	struct ws_lit pre[2] = {{WS_W_NR, WS_GE, ~0u, lo},
				{WS_W_NR, WS_LE, ~0u, hi}};
	int r = _exact_range(v, &in, pre, 2, want, what);
	Z3_context c;
	Z3_ast nr;

	if (r != USE_Z3)
		return r;
	if (_z3(v))
		return -1;
	c = bpf_sym_ctx(v->sym);
	nr = bpf_sym_nr(v->sym);
	Z3_ast in_range[2] = {Z3_mk_bvuge(c, nr, bpf_sym_u32(v->sym, lo)),
			      Z3_mk_bvule(c, nr, bpf_sym_u32(v->sym, hi))};

	return _explore(v, nr, bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64),
			Z3_mk_and(c, 2, in_range), bpf_sym_u32(v->sym, want),
			what, 0);
}

/* Any nr on a foreign arch: `arch` when fixed, else any arch but x86_64. */
static int _foreign(struct validator *v, int fixed, uint32_t arch,
		    const char *what)
{
	struct bpf_paths_in in = {.arch_fixed = fixed, .arch = arch};
	struct ws_lit not_x86 = {WS_W_ARCH, WS_NE, ~0u, AUDIT_ARCH_X86_64};
	uint32_t want = _vvalue(v, &v->sys->badarch, SECCOMP_EXPLAIN_BADARCH);
	int r = _exact_range(v, &in, &not_x86, !fixed, want, what);
	Z3_context c;
	Z3_ast a, pre = NULL;

	if (r != USE_Z3)
		return r;
	if (_z3(v))
		return -1;
	c = bpf_sym_ctx(v->sym);
	a = fixed ? bpf_sym_u32(v->sym, arch) : bpf_sym_arch(v->sym);
	if (!fixed)
		pre = Z3_mk_not(
		    c, Z3_mk_eq(c, a, bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64)));
	return _explore(v, bpf_sym_nr(v->sym), a, pre,
			bpf_sym_u32(v->sym, want), what, 0);
}

/* ---- Driver ----------------------------------------------------------- */

/* Every IR syscall must be one the per-number loop visits. */
static int _check_names(struct validator *v)
{
	for (uint32_t i = 0; i < v->sys->ncalls; i++) {
		const struct ir_syscall *sc = &v->sys->calls[i];
		int nr = syscall_ir_nr(sc->name);

		if (nr < 0 || nr > v->max_nr)
			return _fail(v, -1, "syscall %s has no x86_64 number",
				     sc->name);
		if (v->calls[nr] != sc)
			return _fail(v, -1,
				     "syscalls %s and %s share number %d",
				     v->calls[nr]->name, sc->name, nr);
		for (uint32_t r = 0; r < sc->nrules; r++)
			for (uint32_t a = 0; a < sc->rules[r].natoms; a++)
				if (sc->rules[r].atoms[a].arg > 5)
					return _fail(v, -1,
						     "%s: argument %u of 6",
						     sc->name,
						     sc->rules[r].atoms[a].arg);
	}
	return 0;
}

static int _boundaries(struct validator *v)
{
	const uint32_t nrs[] = {(uint32_t)v->max_nr + 1,
				X32_BIT - 1,
				X32_BIT,
				X32_BIT | (uint32_t)v->max_nr,
				0x7fffffffu,
				0x80000000u,
				0xbfffffffu,
				0xffffffffu};
	const uint32_t arches[] = {AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, 0};

	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		struct seccomp_data d = {.nr = (int)nrs[i],
					 .arch = AUDIT_ARCH_X86_64};

		if (_point(v, &d))
			return 1;
		for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]);
		     a++) {
			d.arch = arches[a];
			if (_point(v, &d))
				return 1;
		}
	}
	return 0;
}

static int _run(struct validator *v)
{
	int r;

	if (_check_names(v))
		return -1;
	for (int nr = 0; nr <= v->max_nr; nr++)
		if ((r = _number(v, nr)))
			return r;
	if ((r = _boundaries(v)))
		return r;
	if ((r = _range(v, (uint32_t)v->max_nr + 1, X32_BIT - 1,
			_vvalue(v, &v->sys->def, SECCOMP_EXPLAIN_DEFAULT),
			"syscall numbers above the table")))
		return r;
	if ((r = _range(v, X32_BIT, 0xffffffffu,
			_vvalue(v, &v->sys->badarch, SECCOMP_EXPLAIN_BADARCH),
			"x32 syscall numbers")))
		return r;
	if ((r = _foreign(v, 1, AUDIT_ARCH_I386, "arch i386")))
		return r;
	if ((r = _foreign(v, 1, AUDIT_ARCH_AARCH64, "arch aarch64")))
		return r;
	return _foreign(v, 0, 0, "any arch but x86_64");
}

int seccomp_validate_stats(const struct ir_policy *p,
			   const struct sock_filter *prog, size_t n,
			   unsigned int flags,
			   struct seccomp_validate_stats *st, char *err,
			   size_t errlen)
{
	return seccomp_validate_variant(p, SECCOMP_DECIDE, prog, n, flags, st,
					err, errlen);
}

int seccomp_validate_variant(const struct ir_policy *p,
			     enum seccomp_variant var,
			     const struct sock_filter *prog, size_t n,
			     unsigned int flags,
			     struct seccomp_validate_stats *st, char *err,
			     size_t errlen)
{
	struct validator v = {.p = p,
			      .var = var,
			      .sys = &p->sys,
			      .prog = prog,
			      .n = n,
			      .flags = flags,
			      .err = err,
			      .errlen = errlen,
			      .max_nr = -1};
	char emsg[128];
	int r;

	if (st)
		memset(st, 0, sizeof(*st));
	if (bpf_check(prog, n, emsg, sizeof(emsg)))
		return _fail(&v, 1, "the program is invalid: %s", emsg);
	/* Every number the table or the policy names is run concretely. */
	v.max_nr = syscall_max_nr(SYSCALL_ARCH_X86_64);
	for (uint32_t i = 0; i < p->sys.ncalls; i++) {
		int nr = syscall_ir_nr(p->sys.calls[i].name);

		if (nr > v.max_nr)
			v.max_nr = nr;
	}
	for (int nr = 0; nr <= v.max_nr && nr < NR_SCAN; nr++)
		v.calls[nr] = ir_syscall_for_nr(&p->sys, nr);
	if (v.max_nr < 0)
		r = _fail(&v, -1, "the table knows no x86_64 syscall");
	else if (ws_set_create(&v.ws))
		r = _fail(&v, -1, "out of memory");
	else
		r = _run(&v);
	ws_set_destroy(&v.ws);
	bpf_sym_destroy(&v.sym);
	if (st)
		*st = v.st;
	return r;
}

int seccomp_validate(const struct ir_policy *p, const struct sock_filter *prog,
		     size_t n, char *err, size_t errlen)
{
	return seccomp_validate_stats(p, prog, n, 0, NULL, err, errlen);
}
