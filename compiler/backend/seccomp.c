// SPDX-License-Identifier: MIT
/*
 * The seccomp code generator. The program has three parts, in this order
 * (docs/SECCOMP.md draws it):
 *
 *   1. ld arch; anything but AUDIT_ARCH_X86_64 -> bad-arch action.
 *   2. ld nr, and a search tree over syscall numbers. The number line
 *      0..0xffffffff is cut into intervals that share a target (a return
 *      block, or one syscall's argument block); numbers from 0x40000000 up
 *      (the x32 bit, or above) are one interval with the bad-arch action.
 *      The tree tests interval bounds (jge), and three intervals of the
 *      form T [k] T take one jeq. No argument is loaded here, so a syscall
 *      whose action does not depend on its arguments returns straight from
 *      the tree, and the kernel's constant-action cache covers it.
 *   3. Argument blocks, then one RET per distinct action.
 *
 * Rule resolution follows ir_eval_syscall(): a syscall's rules are tested
 * from the most restrictive action to the least, and the first whose
 * conjunction holds returns; if none holds, the default applies. An
 * unconditional rule ends the list (nothing after it can win).
 *
 * Where a test fails, what the path has learnt (the rule's earlier tests
 * held, this one failed) decides some tests of the rules after it: the
 * jump goes to the first of them that can still hold, past its tests that
 * must (bpf/wordsat.h decides, exactly), or straight to its return.
 *
 * The accumulator is tracked: a load is only emitted where the word is not
 * already there. Where paths meet at a test whose word some of them hold
 * and others do not (the next rule of a syscall, after a failed test of
 * the same argument), the test begins at a load site: paths that hold the
 * word jump past its load, the others to it.
 *
 * Argument width: a 64-bit argument is compared as two 32-bit words, high
 * word first. A 32-bit (int) argument is compared on its low word only and
 * its high word is never loaded: the kernel reads an int from the register
 * and ignores the upper half, so garbage there must not change the
 * decision. Compared on 64 bits, `family != 40` would let 40 + 2^32
 * through while the kernel sees AF_VSOCK.
 */
#include "backend.h"
#include "tables/tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "bpf_builder.h"
#include "bpf_interp.h"
#include "logic/logic.h"
#include "sections.h"

#define NR_LIMIT (SECCOMP_X32_SYSCALL_BIT - 1)
#define FULL32	 0xffffffffu
/* Up to this many intervals the tree search tries every split point. */
#define TREE_EXHAUSTIVE 160
#define TREE_WINDOW	4

/* What the accumulator is known to hold at a point of the program. */
enum acc_kind { ACC_NONE, ACC_ANY, ACC_WORD };
struct acc {
	enum acc_kind kind; /* NONE: unreachable so far; ANY: unknown */
	uint32_t off, mask; /* ACC_WORD: (word at off) & mask */
};

/*
 * Where an argument test begins: its load, reached at l0 by paths that
 * need it, at l1 (past the ld, before the and) by paths holding the word
 * unmasked, at l2 (past both) by paths holding what it loads.
 */
struct site {
	bpf_label l0, l1, l2;
	struct acc want;
};

struct ret_block {
	uint32_t value;
	bpf_label label;
};

struct interval {
	uint32_t lo, hi;
	bpf_label target;
	uint32_t weight; /* numbers of 0..511 inside, at least 1 */
};

/* One syscall after simplification. */
struct plan {
	int nr;
	const struct ir_syscall *sc; /* NULL: observed, not in the policy */
	const char *name;
	struct ir_rule *rules; /* conditional rules, most restrictive first */
	uint32_t *codes;       /* each rule's seccomp_explain_code() */
	size_t nrules;
	struct ir_action otherwise; /* when no conditional rule holds */
	uint32_t otherwise_code;
	/* What the variant observes on this syscall (seccomp_observed()). */
	int obs;
	unsigned obs_arg;
	uint32_t obs_mask;
	bpf_label target;
	bpf_label tail; /* the observation test of an allow, if has_tail */
	int has_tail;
};

/* A rule and its explain code, while a plan is sorted. */
struct prule {
	struct ir_rule r;
	uint32_t code;
};

struct tree_cost {
	uint16_t depth; /* 0: not computed yet (a real node costs >= 1) */
	int16_t split;	/* -1: jeq pattern */
	uint32_t sum;
};

struct gen {
	const struct ir_policy *p;
	enum seccomp_variant v;
	struct bpf_builder *b;
	struct acc cur;
	struct acc *incoming; /* per label */
	int32_t *site_of;     /* per label: its site, or -1 */
	size_t nincoming;
	struct site *sites;
	size_t nsites, capsites;
	struct ret_block *rets;
	size_t nrets;
	struct interval *iv;
	size_t niv;
	struct tree_cost *cost; /* niv * niv */
	char *err;
	size_t errlen;
};

static int _fail(struct gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int _fail(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, g->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int seccomp_syscall_nr(const char *name)
{
	return syscall_ir_nr(name);
}

int seccomp_action_value(const struct ir_action *a, uint32_t *ret)
{
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		*ret = SECCOMP_RET_KILL_PROCESS;
		return 0;
	case IR_ACT_KILL_THREAD:
		*ret = SECCOMP_RET_KILL_THREAD;
		return 0;
	case IR_ACT_TRAP:
		*ret = SECCOMP_RET_TRAP;
		return 0;
	case IR_ACT_ERRNO:
		if (a->errnum > 4095)
			return -1;
		*ret = SECCOMP_RET_ERRNO | a->errnum;
		return 0;
	case IR_ACT_LOG:
		*ret = SECCOMP_RET_LOG;
		return 0;
	case IR_ACT_ALLOW:
		*ret = SECCOMP_RET_ALLOW;
		return 0;
	}
	return -1;
}

/* ---- Emission with accumulator tracking ------------------------------ */

static struct acc _meet(struct acc a, struct acc b)
{
	if (a.kind == ACC_NONE)
		return b;
	if (b.kind == ACC_NONE)
		return a;
	if (a.kind == ACC_WORD && b.kind == ACC_WORD && a.off == b.off &&
	    a.mask == b.mask)
		return a;
	return (struct acc){ACC_ANY, 0, 0};
}

static bpf_label _label(struct gen *g)
{
	bpf_label l = bpf_label_new(g->b);

	if (l >= g->nincoming) {
		size_t n = g->nincoming ? 2 * g->nincoming : 256;
		struct acc *na;
		int32_t *ns;

		while (n <= l)
			n *= 2;
		na = realloc(g->incoming, n * sizeof(*na));
		/* Out of memory: l has no slot; _jump() and _bind() fail. */
		if (!na)
			return l;
		g->incoming = na;
		ns = realloc(g->site_of, n * sizeof(*ns));
		if (!ns)
			return l;
		g->site_of = ns;
		memset(na + g->nincoming, 0, (n - g->nincoming) * sizeof(*na));
		memset(ns + g->nincoming, 0xff,
		       (n - g->nincoming) * sizeof(*ns));
		g->nincoming = n;
	}
	return l;
}

static int _bind(struct gen *g, bpf_label l)
{
	if (l >= g->nincoming)
		return _fail(g, "out of memory");
	g->cur = _meet(g->cur, g->incoming[l]);
	return bpf_label_bind(g->b, l);
}

static int _same(struct acc a, struct acc b)
{
	return a.kind == ACC_WORD && b.kind == ACC_WORD && a.off == b.off &&
	       a.mask == b.mask;
}

/* A jump to a load site lands past what the accumulator already holds. */
static bpf_label _redirect(const struct gen *g, bpf_label l)
{
	const struct site *s;
	struct acc unmasked;

	if (l >= g->nincoming || g->site_of[l] < 0)
		return l;
	s = &g->sites[g->site_of[l]];
	unmasked = (struct acc){ACC_WORD, s->want.off, FULL32};
	if (_same(g->cur, s->want))
		return s->l2;
	if (_same(g->cur, unmasked))
		return s->l1;
	return s->l0;
}

static int _jump(struct gen *g, uint16_t op, uint32_t k, bpf_label jt,
		 bpf_label jf)
{
	if (jt >= g->nincoming || jf >= g->nincoming)
		return _fail(g, "out of memory");
	jt = _redirect(g, jt);
	jf = _redirect(g, jf);
	g->incoming[jt] = _meet(g->incoming[jt], g->cur);
	g->incoming[jf] = _meet(g->incoming[jf], g->cur);
	g->cur.kind = ACC_NONE; /* both ways leave: nothing falls through */
	return bpf_emit_jump(g->b, BPF_JMP | op | BPF_K, k, jt, jf);
}

/* Make the accumulator hold (word at off) & mask, reusing what it holds. */
static int _load(struct gen *g, uint32_t off, uint32_t mask)
{
	struct acc want = {ACC_WORD, off, mask};
	int rc = 0;

	if (g->cur.kind == ACC_WORD && g->cur.off == off && g->cur.mask == mask)
		return 0;
	if (!(g->cur.kind == ACC_WORD && g->cur.off == off &&
	      g->cur.mask == FULL32))
		rc = bpf_emit_stmt(g->b, BPF_LD | BPF_W | BPF_ABS, off);
	if (!rc && mask != FULL32)
		rc = bpf_emit_stmt(g->b, BPF_ALU | BPF_AND | BPF_K, mask);
	g->cur = want;
	return rc;
}

/* A load site for loading (word at off) & mask; returns its l0. */
static bpf_label _site(struct gen *g, uint32_t off, uint32_t mask)
{
	struct site s = {
	    _label(g), _label(g), _label(g), {ACC_WORD, off, mask}};

	if (s.l0 >= g->nincoming || s.l2 >= g->nincoming)
		return s.l0; /* out of memory: _jump() fails on it */
	if (g->nsites == g->capsites) {
		size_t cap = g->capsites ? 2 * g->capsites : 64;
		struct site *ns = realloc(g->sites, cap * sizeof(*ns));

		if (!ns)
			return BPF_LABEL_NEXT; /* caught by _jump */
		g->sites = ns;
		g->capsites = cap;
	}
	g->site_of[s.l0] = (int32_t)g->nsites;
	g->sites[g->nsites++] = s;
	return s.l0;
}

/* Bind l (a load site's l0, or a plain label) and do the site's load. */
static int _bind_site(struct gen *g, bpf_label l)
{
	const struct site *s;
	int rc;

	if (l >= g->nincoming || g->site_of[l] < 0)
		return _bind(g, l);
	s = &g->sites[g->site_of[l]];
	if (_bind(g, s->l0))
		return -1;
	/* No path needs the load (ACC_NONE: none reaches it): none is
	 * emitted, nor the AND if no path needs that. */
	if (g->cur.kind != ACC_NONE && !_same(g->cur, s->want) &&
	    !(g->cur.kind == ACC_WORD && g->cur.off == s->want.off &&
	      g->cur.mask == FULL32)) {
		if (bpf_emit_stmt(g->b, BPF_LD | BPF_W | BPF_ABS, s->want.off))
			return -1;
		g->cur = (struct acc){ACC_WORD, s->want.off, FULL32};
	}
	if (_bind(g, s->l1))
		return -1;
	if (g->cur.kind != ACC_NONE && !_same(g->cur, s->want)) {
		rc = bpf_emit_stmt(g->b, BPF_ALU | BPF_AND | BPF_K,
				   s->want.mask);
		if (rc)
			return -1;
		g->cur = s->want;
	}
	return _bind(g, s->l2);
}

static bpf_label _ret_value(struct gen *g, uint32_t v)
{
	for (size_t i = 0; i < g->nrets; i++)
		if (g->rets[i].value == v)
			return g->rets[i].label;
	struct ret_block *nr = realloc(g->rets, (g->nrets + 1) * sizeof(*nr));

	if (!nr)
		return BPF_LABEL_NEXT; /* caught by _jump's bounds check */
	g->rets = nr;
	g->rets[g->nrets] = (struct ret_block){v, _label(g)};
	return g->rets[g->nrets++].label;
}

/* What the program returns for an action under the variant, or OUT_TAIL
 * for an allow that the plan's observation test decides. */
#define OUT_TAIL 0xffffffffu

static uint32_t _outcome(const struct gen *g, const struct plan *p,
			 const struct ir_action *a, uint32_t code)
{
	uint32_t v = 0;

	if (g->v == SECCOMP_EXPLAIN)
		return code;
	seccomp_action_value(a, &v); /* checked in _plan() */
	if (g->v == SECCOMP_DECIDE)
		return v;
	if (seccomp_variant_notifies(g->v, a, code))
		return SECCOMP_RET_USER_NOTIF;
	if (a->kind == IR_ACT_ALLOW && p && p->obs)
		return p->obs == SECCOMP_OBSERVE_ALWAYS ? SECCOMP_RET_USER_NOTIF
							: OUT_TAIL;
	return v;
}

/* The label an outcome jumps to: a shared RET, or the plan's tail. */
static bpf_label _out(struct gen *g, struct plan *p, const struct ir_action *a,
		      uint32_t code)
{
	uint32_t v = _outcome(g, p, a, code);

	if (v != OUT_TAIL)
		return _ret_value(g, v);
	if (!p->has_tail) {
		p->tail = _label(g);
		p->has_tail = 1;
	}
	return p->tail;
}

/* ---- Argument tests --------------------------------------------------- */

static int _op_holds(uint8_t op, uint64_t x, uint64_t v)
{
	switch (op) {
	case IR_OP_EQ:
		return x == v;
	case IR_OP_NE:
		return x != v;
	case IR_OP_LT:
		return x < v;
	case IR_OP_LE:
		return x <= v;
	case IR_OP_GT:
		return x > v;
	default:
		return x >= v;
	}
}

/*
 * 1 or 0 when the atom holds for every argument or for none, else -1.
 * (x & m) is at most m and has no bit outside m, which decides some
 * comparisons before any code is written.
 */
static int _atom_static(const struct ir_atom *a)
{
	uint64_t wm = a->width == 32 ? FULL32 : UINT64_MAX;
	uint64_t m = a->mask & wm, v = a->value & wm;

	if (m == 0)
		return _op_holds(a->op, 0, v);
	if ((a->op == IR_OP_EQ || a->op == IR_OP_NE) && (v & ~m))
		return a->op == IR_OP_NE;
	if ((a->op == IR_OP_GE && v == 0) || (a->op == IR_OP_LE && v >= m) ||
	    (a->op == IR_OP_LT && v > m))
		return 1;
	if ((a->op == IR_OP_LT && v == 0) || (a->op == IR_OP_GT && v >= m) ||
	    (a->op == IR_OP_GE && v > m))
		return 0;
	return -1;
}

/* Compare one 32-bit word, (word & m) OP v with m != 0: to t or f. */
static int _cmp32(struct gen *g, uint32_t off, uint32_t m, uint8_t op,
		  uint32_t v, bpf_label t, bpf_label f)
{
	/* (x & m) == 0 is one jset, no AND needed. */
	if ((op == IR_OP_EQ || op == IR_OP_NE) && v == 0 && m != FULL32) {
		if (_load(g, off, FULL32))
			return -1;
		return op == IR_OP_EQ ? _jump(g, BPF_JSET, m, f, t)
				      : _jump(g, BPF_JSET, m, t, f);
	}
	if (_load(g, off, m))
		return -1;
	switch (op) {
	case IR_OP_EQ:
		return _jump(g, BPF_JEQ, v, t, f);
	case IR_OP_NE:
		return _jump(g, BPF_JEQ, v, f, t);
	case IR_OP_GT:
		return _jump(g, BPF_JGT, v, t, f);
	case IR_OP_GE:
		return _jump(g, BPF_JGE, v, t, f);
	case IR_OP_LT:
		return _jump(g, BPF_JGE, v, f, t);
	default: /* IR_OP_LE */
		return _jump(g, BPF_JGT, v, f, t);
	}
}

/*
 * A 64-bit atom: compare the high words; if they differ the order of the
 * high words decides, if they are equal the low words do. A word whose
 * mask is 0 is the constant 0 and is never loaded.
 */
static int _cmp64(struct gen *g, const struct ir_atom *a, bpf_label t,
		  bpf_label f)
{
	uint32_t mh = (uint32_t)(a->mask >> 32), ml = (uint32_t)a->mask;
	uint32_t vh = (uint32_t)(a->value >> 32), vl = (uint32_t)a->value;
	uint32_t hi = BPF_OFF_ARG_HI(a->arg), lo = BPF_OFF_ARG_LO(a->arg);
	/* Result when the high word is below / above vh. */
	bpf_label below = _op_holds(a->op, 0, 1) ? t : f;
	bpf_label above = _op_holds(a->op, 1, 0) ? t : f;
	bpf_label eq;
	int rc;

	if (mh == 0) /* vh == 0 too, or _atom_static() decided it */
		return _cmp32(g, lo, ml, a->op, vl, t, f);
	eq = ml == 0 ? (_op_holds(a->op, 0, vl) ? t : f) : _label(g);
	if (vh == 0) {
		/* Nothing is below 0: equal or above. */
		if (_load(g, hi, FULL32))
			return -1;
		rc = _jump(g, BPF_JSET, mh, above, eq);
	} else if (below == above || vh >= mh) {
		/* Either one answer for "differs", or nothing is above. */
		if (_load(g, hi, mh))
			return -1;
		rc = _jump(g, BPF_JEQ, vh, eq, below);
	} else {
		bpf_label not_above = _label(g);

		if (_load(g, hi, mh) ||
		    _jump(g, BPF_JGT, vh, above, not_above) ||
		    _bind(g, not_above))
			return -1;
		rc = _jump(g, BPF_JEQ, vh, eq, below);
	}
	if (rc || ml == 0)
		return rc;
	return _bind(g, eq) || _cmp32(g, lo, ml, a->op, vl, t, f);
}

static int _atom(struct gen *g, const struct ir_atom *a, bpf_label t,
		 bpf_label f)
{
	if (a->width == 32)
		return _cmp32(g, BPF_OFF_ARG_LO(a->arg), (uint32_t)a->mask,
			      a->op, (uint32_t)a->value, t, f);
	return _cmp64(g, a, t, f);
}

/* The word an atom's code loads first, and its mask: what _cmp32() and
 * _cmp64() begin with. */
static struct acc _first_load(const struct ir_atom *a)
{
	uint32_t mh = (uint32_t)(a->mask >> 32), ml = (uint32_t)a->mask;
	uint32_t vh = (uint32_t)(a->value >> 32), vl = (uint32_t)a->value;
	uint32_t m = ml, v = vl, off = BPF_OFF_ARG_LO(a->arg);

	if (a->width == 64 && mh != 0)
		return (struct acc){ACC_WORD, BPF_OFF_ARG_HI(a->arg),
				    vh == 0 ? FULL32 : mh};
	if (a->width == 32)
		m = (uint32_t)a->mask, v = (uint32_t)a->value;
	if ((a->op == IR_OP_EQ || a->op == IR_OP_NE) && v == 0 && m != FULL32)
		m = FULL32;
	return (struct acc){ACC_WORD, off, m};
}

/* The label an atom's test begins at: a load site. */
static bpf_label _atom_site(struct gen *g, const struct ir_atom *a)
{
	struct acc w = _first_load(a);

	return _site(g, w.off, w.mask);
}

/* Rules after a failed test whose tests are decided from what the path
 * knows: at most this many (deciding costs a few word searches each). */
#define LOOKAHEAD 64

/*
 * One syscall's rules as word clauses, atom by atom: pos[k] holds, neg[k]
 * fails, for the k-th atom in rule order (base[r] + j for atom j of rule
 * r).
 */
struct facts {
	struct ir_words_rules rs;
	struct ir_rule *one; /* one single-atom rule per atom */
	const struct ws_clause **pos, **neg;
	size_t *base;
	struct ws_set *set;
};

static void _facts_free(struct facts *f)
{
	ir_words_rules_free(&f->rs);
	ws_set_destroy(&f->set);
	free(f->one);
	free(f->pos);
	free(f->neg);
	free(f->base);
	memset(f, 0, sizeof(*f));
}

static int _facts(struct facts *f, const struct plan *p)
{
	struct ir_syscall sc = {0};
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	for (size_t r = 0; r < p->nrules; r++)
		n += p->rules[r].natoms;
	f->one = calloc(n + 1, sizeof(*f->one));
	f->pos = calloc(n + 1, sizeof(*f->pos));
	f->neg = calloc(n + 1, sizeof(*f->neg));
	f->base = calloc(p->nrules + 1, sizeof(*f->base));
	if (!f->one || !f->pos || !f->neg || !f->base)
		return -1;
	n = 0;
	for (size_t r = 0; r < p->nrules; r++) {
		f->base[r] = n;
		for (uint32_t j = 0; j < p->rules[r].natoms; j++, n++) {
			f->one[n].natoms = 1;
			f->one[n].atoms[0] = p->rules[r].atoms[j];
		}
	}
	sc.nrules = (uint32_t)n;
	sc.rules = f->one;
	if (ir_words_rules_build(&f->rs, &sc, IR_WORDS_LOW_FIRST) ||
	    ws_set_create(&f->set))
		return -1;
	/* ir_words sorts its rules by action: find each by its own. */
	for (size_t k = 0; k < f->rs.n; k++) {
		const struct ir_words_rule *w = &f->rs.r[k];
		size_t i = (size_t)((const char *)w->action -
				    (const char *)&f->one[0].action) /
			   sizeof(f->one[0]);

		f->pos[i] = &w->pos[0];
		f->neg[i] = &w->neg;
	}
	return 0;
}

/* Given the clauses known[0..n), does `a` hold always (1), never (0), or
 * either (-1, also when the search gives up)? */
static int _decided(struct facts *f, const struct ws_clause *known, size_t n,
		    size_t a)
{
	struct ws_clause cl[IR_MAX_ATOMS + 2];
	uint32_t w[WS_WORDS];
	size_t budget = 1u << 10;
	int can_hold, can_fail;

	memcpy(cl, known, n * sizeof(*cl));
	cl[n] = *f->pos[a];
	can_hold = ws_set_search(f->set, cl, n + 1, &budget, w);
	cl[n] = *f->neg[a];
	budget = 1u << 10;
	can_fail = ws_set_search(f->set, cl, n + 1, &budget, w);
	if (can_hold == WS_UNSAT && can_fail == WS_SAT)
		return 0;
	if (can_fail == WS_UNSAT && can_hold == WS_SAT)
		return 1;
	return -1;
}

/*
 * Where a path goes when test i of rule r fails: the first later rule that
 * can still hold, at its first test not decided to hold (or at its return
 * when all are), else `otherwise`. site[r][j] is test j of rule r.
 */
static bpf_label _fail_target(const struct plan *p, struct facts *f,
			      bpf_label *const *site, const bpf_label *done,
			      bpf_label otherwise, size_t r, uint32_t i)
{
	struct ws_clause known[IR_MAX_ATOMS];
	size_t n = 0;

	for (uint32_t j = 0; j < i; j++)
		known[n++] = *f->pos[f->base[r] + j];
	known[n++] = *f->neg[f->base[r] + i];
	for (size_t q = r + 1; q < p->nrules; q++) {
		const struct ir_rule *rule = &p->rules[q];
		uint32_t first = rule->natoms;
		int possible = 1;

		if (q > r + LOOKAHEAD)
			return site[q][0];
		for (uint32_t j = 0; j < rule->natoms && possible; j++) {
			int d = _decided(f, known, n, f->base[q] + j);

			if (d == 0)
				possible = 0;
			else if (d < 0 && first == rule->natoms)
				first = j;
		}
		if (!possible)
			continue;
		return first == rule->natoms ? done[q] : site[q][first];
	}
	return otherwise;
}

/*
 * A syscall's argument block: its rules in order, then `otherwise`. Each
 * test but the block's first begins at a load site, so that a path which
 * failed a test of the same word does not load it again, and a failed
 * test goes where _fail_target() says.
 */
static int _arg_block(struct gen *g, struct plan *p)
{
	bpf_label otherwise = _out(g, p, &p->otherwise, p->otherwise_code);
	bpf_label **site = calloc(p->nrules, sizeof(*site));
	bpf_label *done = calloc(p->nrules, sizeof(*done));
	struct facts f = {0};
	int rc = -1;

	if (!site || !done || _facts(&f, p)) {
		_fail(g, "out of memory");
		goto out;
	}
	for (size_t r = 0; r < p->nrules; r++) {
		site[r] = calloc(p->rules[r].natoms, sizeof(**site));
		if (!site[r]) {
			_fail(g, "out of memory");
			goto out;
		}
		done[r] = _out(g, p, &p->rules[r].action, p->codes[r]);
		for (uint32_t j = 0; j < p->rules[r].natoms; j++)
			site[r][j] = r || j
					 ? _atom_site(g, &p->rules[r].atoms[j])
					 : p->target;
	}
	if (_bind(g, p->target))
		goto out;
	for (size_t r = 0; r < p->nrules; r++) {
		const struct ir_rule *rule = &p->rules[r];

		if (r && _bind_site(g, site[r][0]))
			goto out;
		for (uint32_t i = 0; i < rule->natoms; i++) {
			int last = i + 1 == rule->natoms;
			bpf_label t = last ? done[r] : site[r][i + 1];
			bpf_label fl =
			    _fail_target(p, &f, site, done, otherwise, r, i);

			if (_atom(g, &rule->atoms[i], t, fl) ||
			    (!last && _bind_site(g, t)))
				goto out;
		}
	}
	rc = 0;
out:
	for (size_t r = 0; site && r < p->nrules; r++)
		free(site[r]);
	free(site);
	free(done);
	_facts_free(&f);
	return rc;
}

/*
 * An allowed call that the variant observes on a condition: notified when
 * (word & mask) != 0 (open's O_TRUNC), else allowed. Only the low word:
 * the observed arguments are ints.
 */
static int _tail(struct gen *g, const struct plan *p)
{
	struct ir_action allow = {IR_ACT_ALLOW, 0};
	uint32_t v = 0;

	seccomp_action_value(&allow, &v);
	return _bind(g, p->tail) ||
	       _cmp32(g, BPF_OFF_ARG_LO(p->obs_arg), p->obs_mask, IR_OP_NE, 0,
		      _ret_value(g, SECCOMP_RET_USER_NOTIF), _ret_value(g, v));
}

/* ---- Planning: rules per syscall ------------------------------------- */

/* Restrictiveness order: kind, then the smaller errno first. */
static int _action_cmp(const struct ir_action *a, const struct ir_action *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->errnum != b->errnum)
		return a->errnum < b->errnum ? -1 : 1;
	return 0;
}

/*
 * Most restrictive first; rules on the same word next to each other, so
 * the accumulator can be reused between them. The explain program tests
 * the rules of one action in the IR's order instead, since it must name
 * the one ir_explain_syscall() names.
 */
static int _rule_cmp(const void *x, const void *y, void *explain)
{
	const struct prule *pa = x, *pb = y;
	const struct ir_rule *a = &pa->r, *b = &pb->r;
	int c = _action_cmp(&a->action, &b->action);

	if (!c && *(const int *)explain)
		return (pa->code > pb->code) - (pa->code < pb->code);
	if (c || !a->natoms || !b->natoms)
		return c ? c : (int)a->natoms - (int)b->natoms;
	if (a->atoms[0].arg != b->atoms[0].arg)
		return a->atoms[0].arg - b->atoms[0].arg;
	if (a->atoms[0].width != b->atoms[0].width)
		return a->atoms[0].width - b->atoms[0].width;
	if (a->atoms[0].mask != b->atoms[0].mask)
		return a->atoms[0].mask < b->atoms[0].mask ? -1 : 1;
	return 0;
}

static int _check_action(struct gen *g, const struct ir_action *a,
			 const char *what)
{
	uint32_t v;

	if (seccomp_action_value(a, &v))
		return _fail(g, "%s: invalid action (kind %u, errno %u)", what,
			     a->kind, a->errnum);
	return 0;
}

static int _check_atom(struct gen *g, const struct ir_syscall *sc,
		       const struct ir_atom *a)
{
	if (a->arg > 5 || (a->width != 32 && a->width != 64) ||
	    a->op > IR_OP_GE)
		return _fail(g,
			     "%s: invalid argument test (arg %u, width %u, "
			     "op %u)",
			     sc->name, a->arg, a->width, a->op);
	return 0;
}

/* The variant's observation of a plan's syscall. */
static void _plan_observe(struct gen *g, struct plan *p)
{
	p->obs =
	    seccomp_observed(g->p, g->v, p->name, &p->obs_arg, &p->obs_mask);
}

/* Copy sc's rules into p, simplified and ordered for emission. */
static int _plan(struct gen *g, const struct ir_syscalls *s,
		 const struct ir_syscall *sc, struct plan *p)
{
	int explain = g->v == SECCOMP_EXPLAIN;
	struct prule *pr;
	size_t n = 0;

	p->sc = sc;
	p->name = sc->name;
	p->nr = seccomp_syscall_nr(sc->name);
	p->otherwise = s->def;
	p->otherwise_code = SECCOMP_EXPLAIN_DEFAULT;
	_plan_observe(g, p);
	if (p->nr < 0)
		return _fail(g, "syscall %s has no x86_64 number", sc->name);
	if (sc->nrules > IR_MAX_RULES)
		return _fail(g, "%s: more than %d rules", sc->name,
			     IR_MAX_RULES);
	pr = calloc(sc->nrules ? sc->nrules : 1, sizeof(*pr));
	p->rules = calloc(sc->nrules ? sc->nrules : 1, sizeof(*p->rules));
	p->codes = calloc(sc->nrules ? sc->nrules : 1, sizeof(*p->codes));
	if (!pr || !p->rules || !p->codes) {
		free(pr);
		return _fail(g, "out of memory");
	}
	for (uint32_t r = 0; r < sc->nrules; r++) {
		const struct ir_rule *in = &sc->rules[r];
		struct ir_rule *out = &pr[n].r;
		int never = 0;

		if (_check_action(g, &in->action, sc->name) ||
		    (in->natoms > IR_MAX_ATOMS &&
		     _fail(g, "%s: more than %d argument tests", sc->name,
			   IR_MAX_ATOMS))) {
			free(pr);
			return -1;
		}
		*out = (struct ir_rule){.action = in->action};
		pr[n].code = seccomp_explain_code(s, sc, r);
		for (uint32_t i = 0; i < in->natoms; i++) {
			int st;

			if (_check_atom(g, sc, &in->atoms[i])) {
				free(pr);
				return -1;
			}
			st = _atom_static(&in->atoms[i]);
			if (st == 0)
				never = 1;
			else if (st < 0)
				out->atoms[out->natoms++] = in->atoms[i];
		}
		if (!never)
			n++;
	}
	qsort_r(pr, n, sizeof(*pr), _rule_cmp, &explain);
	/* The first unconditional rule wins over everything after it. */
	for (size_t r = 0; r < n; r++) {
		if (pr[r].r.natoms == 0) {
			p->otherwise = pr[r].r.action;
			p->otherwise_code = pr[r].code;
			n = r;
			break;
		}
	}
	/* Trailing rules that return what `otherwise` returns change
	 * nothing. */
	while (n && _outcome(g, p, &pr[n - 1].r.action, pr[n - 1].code) ==
			_outcome(g, p, &p->otherwise, p->otherwise_code))
		n--;
	for (size_t r = 0; r < n; r++) {
		p->rules[r] = pr[r].r;
		p->codes[r] = pr[r].code;
	}
	p->nrules = n;
	free(pr);
	return 0;
}

/*
 * The i-th name beyond the policy's own that may need a plan: the ones
 * the variant observes. NULL past the end; a name the policy has is
 * skipped by the caller.
 */
static const char *_extra_at(const struct ir_policy *p, enum seccomp_variant v,
			     unsigned i)
{
	const char *name;
	unsigned k = 0;

	for (unsigned j = 0; (name = seccomp_observed_at(v, j)); j++)
		if (seccomp_observed(p, v, name, NULL, NULL) && k++ == i)
			return name;
	return NULL;
}

/* A syscall the variant observes and the policy does not name: the
 * default decides it. */
static int _plan_extra(struct gen *g, const char *name, struct plan *p)
{
	p->name = name;
	p->nr = seccomp_syscall_nr(name);
	p->otherwise = g->p->sys.def;
	p->otherwise_code = SECCOMP_EXPLAIN_DEFAULT;
	_plan_observe(g, p);
	if (p->nr < 0)
		return _fail(g, "observed syscall %s has no x86_64 number",
			     name);
	return 0;
}

static int _plan_cmp(const void *x, const void *y)
{
	const struct plan *a = x, *b = y;

	return (a->nr > b->nr) - (a->nr < b->nr);
}

/* ---- The search tree over syscall numbers ---------------------------- */

static void _add_interval(struct gen *g, uint32_t lo, uint32_t hi,
			  bpf_label target)
{
	uint32_t w = lo > 511 ? 0 : (hi > 511 ? 511 : hi) - lo + 1;

	if (g->niv && g->iv[g->niv - 1].target == target) {
		g->iv[g->niv - 1].hi = hi;
		g->iv[g->niv - 1].weight += w;
		return;
	}
	/* n syscalls and the x32 range make at most 2n + 2 intervals: g->iv
	 * has room. */
	g->iv[g->niv++] = (struct interval){lo, hi, target, w ? w : 1};
}

/* The number line: syscalls, the default between and above them, and the
 * x32 range (bit 30 and above) with the bad-arch action. */
static void _intervals(struct gen *g, const struct plan *plans, size_t n,
		       bpf_label def, bpf_label bad)
{
	uint32_t next = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t nr = (uint32_t)plans[i].nr;

		if (nr > next)
			_add_interval(g, next, nr - 1, def);
		_add_interval(g, nr, nr, plans[i].target);
		next = nr + 1;
	}
	if (next <= NR_LIMIT)
		_add_interval(g, next, NR_LIMIT, def);
	_add_interval(g, SECCOMP_X32_SYSCALL_BIT, UINT32_MAX, bad);
}

static uint32_t _weight(const struct gen *g, size_t i, size_t j)
{
	uint32_t w = 0;

	for (size_t k = i; k <= j; k++)
		w += g->iv[k].weight;
	return w;
}

/*
 * Best tree for intervals i..j (i < j): least depth, then least weighted
 * depth (numbers 0..511 weigh one each). Memoized; small inputs try every
 * split, large ones a window around the middle.
 */
static const struct tree_cost *_cost(struct gen *g, size_t i, size_t j)
{
	struct tree_cost *c = &g->cost[i * g->niv + j];
	size_t from = i + 1, to = j, mid = i + (j - i + 1) / 2;
	uint32_t w;

	if (c->depth)
		return c;
	w = _weight(g, i, j);
	if (j == i + 2 && g->iv[i].target == g->iv[j].target &&
	    g->iv[i + 1].lo == g->iv[i + 1].hi) {
		*c = (struct tree_cost){1, -1, w};
		return c;
	}
	if (g->niv > TREE_EXHAUSTIVE) {
		from = mid > i + TREE_WINDOW ? mid - TREE_WINDOW : i + 1;
		to = mid + TREE_WINDOW < j ? mid + TREE_WINDOW : j;
	}
	for (size_t m = from; m <= to; m++) {
		struct tree_cost l = {0}, r = {0}, t;

		if (m - 1 > i)
			l = *_cost(g, i, m - 1);
		if (m < j)
			r = *_cost(g, m, j);
		t.depth =
		    (uint16_t)(1 + (l.depth > r.depth ? l.depth : r.depth));
		t.sum = w + l.sum + r.sum;
		t.split = (int16_t)m;
		if (!c->depth || t.depth < c->depth ||
		    (t.depth == c->depth && t.sum < c->sum))
			*c = t;
	}
	return c;
}

static int _tree(struct gen *g, size_t i, size_t j)
{
	const struct tree_cost *c = _cost(g, i, j);
	size_t m;
	bpf_label left, right;

	if (c->split < 0)
		return _jump(g, BPF_JEQ, g->iv[i + 1].lo, g->iv[i + 1].target,
			     g->iv[i].target);
	m = (size_t)c->split;
	left = m - 1 == i ? g->iv[i].target : _label(g);
	right = m == j ? g->iv[j].target : _label(g);
	if (_jump(g, BPF_JGE, g->iv[m].lo, right, left))
		return -1;
	if (m - 1 > i && (_bind(g, left) || _tree(g, i, m - 1)))
		return -1;
	if (m < j && (_bind(g, right) || _tree(g, m, j)))
		return -1;
	return 0;
}

/* ---- The program ------------------------------------------------------ */

static int _emit_rets(struct gen *g)
{
	for (size_t i = 0; i < g->nrets; i++) {
		if (_bind(g, g->rets[i].label) ||
		    bpf_emit_stmt(g->b, BPF_RET | BPF_K, g->rets[i].value))
			return -1;
		g->cur.kind = ACC_NONE;
	}
	return 0;
}

static int _emit(struct gen *g, struct plan *plans, size_t n,
		 const struct ir_syscalls *s)
{
	bpf_label bad = _out(g, NULL, &s->badarch, SECCOMP_EXPLAIN_BADARCH);
	bpf_label nr = _label(g);

	if (_load(g, BPF_OFF_ARCH, FULL32))
		return -1;
	/* One interval: every number the bad-arch action, nothing to load. */
	if (g->niv == 1)
		return _jump(g, BPF_JEQ, AUDIT_ARCH_X86_64, g->iv[0].target,
			     bad) ||
		       _emit_rets(g);
	if (_jump(g, BPF_JEQ, AUDIT_ARCH_X86_64, nr, bad) || _bind(g, nr) ||
	    _load(g, BPF_OFF_NR, FULL32) || _tree(g, 0, g->niv - 1))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (plans[i].nrules && _arg_block(g, &plans[i]))
			return -1;
	for (size_t i = 0; i < n; i++)
		if (plans[i].has_tail && _tail(g, &plans[i]))
			return -1;
	return _emit_rets(g);
}

static int _prepare(struct gen *g, const struct ir_syscalls *s,
		    struct plan *plans, size_t n)
{
	const char *name;
	size_t k = s->ncalls;
	bpf_label def, bad;

	for (size_t i = 0; i < s->ncalls; i++)
		if (_plan(g, s, &s->calls[i], &plans[i]))
			return -1;
	for (unsigned i = 0; (name = _extra_at(g->p, g->v, i)); i++)
		if (!ir_find_syscall(s, name) &&
		    _plan_extra(g, name, &plans[k++]))
			return -1;
	if (k != n)
		return _fail(g, "internal error: %zu plans, expected %zu", k,
			     n);
	qsort(plans, n, sizeof(*plans), _plan_cmp);
	for (size_t i = 1; i < n; i++)
		if (plans[i].nr == plans[i - 1].nr)
			return _fail(g, "syscalls %s and %s share number %d",
				     plans[i - 1].name, plans[i].name,
				     plans[i].nr);
	bad = _out(g, NULL, &s->badarch, SECCOMP_EXPLAIN_BADARCH);
	def = _out(g, NULL, &s->def, SECCOMP_EXPLAIN_DEFAULT);
	for (size_t i = 0; i < n; i++)
		plans[i].target = plans[i].nrules
				      ? _label(g)
				      : _out(g, &plans[i], &plans[i].otherwise,
					     plans[i].otherwise_code);
	g->iv = calloc(2 * n + 2, sizeof(*g->iv));
	if (!g->iv)
		return _fail(g, "out of memory");
	_intervals(g, plans, n, def, bad);
	g->cost = calloc(g->niv * g->niv, sizeof(*g->cost));
	if (!g->cost)
		return _fail(g, "out of memory");
	return 0;
}

/* The plans a variant needs: the policy's syscalls, and those it
 * observes beyond them. */
static size_t _nplans(const struct ir_policy *p, enum seccomp_variant v)
{
	const char *name;
	size_t n = p->sys.ncalls;

	for (unsigned i = 0; (name = _extra_at(p, v, i)); i++)
		if (!ir_find_syscall(&p->sys, name))
			n++;
	return n;
}

int seccomp_generate(const struct ir_policy *p, struct sock_filter **prog,
		     size_t *ninsns, char *err, size_t errlen)
{
	return seccomp_generate_variant(p, SECCOMP_DECIDE, prog, ninsns, err,
					errlen);
}

int seccomp_generate_variant(const struct ir_policy *p, enum seccomp_variant v,
			     struct sock_filter **prog, size_t *ninsns,
			     char *err, size_t errlen)
{
	const struct ir_syscalls *s = &p->sys;
	struct gen g = {.p = p, .v = v, .err = err, .errlen = errlen};
	struct plan *plans = NULL;
	size_t nplans = _nplans(p, v);
	int rc = -1;

	*prog = NULL;
	*ninsns = 0;
	if (s->ncalls > IR_MAX_SYSCALLS)
		return _fail(&g, "more than %d syscalls", IR_MAX_SYSCALLS);
	if (_check_action(&g, &s->def, "default") ||
	    _check_action(&g, &s->badarch, "bad-arch"))
		return -1;
	if (s->badarch.kind == IR_ACT_ALLOW || s->badarch.kind == IR_ACT_LOG)
		return _fail(&g, "the bad-arch action must not allow the call");
	plans = calloc(nplans ? nplans : 1, sizeof(*plans));
	if (!plans || bpf_builder_create(&g.b)) {
		_fail(&g, "out of memory");
		goto out;
	}
	if (_prepare(&g, s, plans, nplans) || _emit(&g, plans, nplans, s))
		goto out;
	if (bpf_builder_finish(g.b, prog, ninsns, err, errlen))
		goto out;
	if (*ninsns > POLBIN_SECCOMP_MAX_INSNS) {
		_fail(&g,
		      "the seccomp program has %zu instructions, above the "
		      "limit of %d",
		      *ninsns, POLBIN_SECCOMP_MAX_INSNS);
		goto out;
	}
	if (bpf_check(*prog, *ninsns, err, errlen))
		goto out;
	rc = 0;
out:
	if (rc) {
		free(*prog);
		*prog = NULL;
		*ninsns = 0;
	}
	for (size_t i = 0; plans && i < nplans; i++) {
		free(plans[i].rules);
		free(plans[i].codes);
	}
	free(plans);
	free(g.iv);
	free(g.cost);
	free(g.rets);
	free(g.incoming);
	free(g.site_of);
	free(g.sites);
	bpf_builder_destroy(&g.b);
	return rc;
}
