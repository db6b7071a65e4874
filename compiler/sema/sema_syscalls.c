/* SPDX-License-Identifier: MIT */
/*
 * The syscalls section: `syscalls [default ACTION] { ACTION NAMES [if COND] }`.
 * Names are checked against our x86_64 syscall table (compiler/tables,
 * generated from the kernel's syscall_64.tbl), a number no table names yet
 * may stand for one (`allow 470`); argument names and widths come from
 * compiler/tables/syscall_args.c, constants from constants.c.
 * `in {...}` sets are expanded into one rule per member, so the IR holds
 * conjunctions only.
 */
#include "sema_int.h"
#include "tables/tables.h"
#include "wordsat.h"

#include <stdlib.h>
#include <string.h>

/* x86_64's numbers for x32's old entry points: no x86_64 syscall has them. */
#define X32_LEGACY_LO 512
#define X32_LEGACY_HI 547

static const char *const action_names[] = {
    "allow", "log", "trap", "kill", "kill_process", "kill_thread", "errno",
};

static void unknown_syscall(struct sema *s, const struct ast_word *w)
{
	static const char *names[SYSCALL_NR_LIMIT];
	unsigned n = syscall_count(SYSCALL_ARCH_X86_64), i;

	for (i = 0; i < n && i < SYSCALL_NR_LIMIT; i++)
		names[i] = syscall_at(SYSCALL_ARCH_X86_64, i)->name;
	sema_unknown(s, w, "syscall", names, i);
}

/*
 * The IR name of the syscall word w: a name from the table, or a number.
 * A number the table names becomes that name, so `allow 462` and `allow
 * mseal` are the same rule; one it does not stays a number. 0 and fills
 * out, or -1 with an error.
 */
static int syscall_word(struct sema *s, const struct ast_word *w,
			char out[IR_SYSCALL_NAME])
{
	const char *name;
	int nr;

	if (w->text[0] < '0' || w->text[0] > '9') {
		if (strlen(w->text) >= IR_SYSCALL_NAME ||
		    syscall_nr(SYSCALL_ARCH_X86_64, w->text) < 0) {
			unknown_syscall(s, w);
			return -1;
		}
		strcpy(out, w->text);
		return 0;
	}
	if (!syscall_is_number(w->text)) {
		diag_error(s->d, w->loc,
			   "syscall number '%s': write it in decimal, below %d",
			   w->text, SYSCALL_NR_LIMIT);
		return -1;
	}
	nr = atoi(w->text);
	if (nr >= X32_LEGACY_LO && nr <= X32_LEGACY_HI) {
		diag_error(s->d, w->loc,
			   "syscall number %d is in x32's legacy range "
			   "%d..%d: no x86_64 syscall has it",
			   nr, X32_LEGACY_LO, X32_LEGACY_HI);
		return -1;
	}
	name = syscall_name(SYSCALL_ARCH_X86_64, nr);
	snprintf(out, IR_SYSCALL_NAME, "%s", name ? name : w->text);
	return 0;
}

static void unknown_errno(struct sema *s, const struct ast_word *w)
{
	const char *names[200];
	const char *n;
	size_t k = 0;
	int e;

	for (e = 1; e < 4096 && k < sizeof(names) / sizeof(*names); e++)
		if ((n = errno_name(e)))
			names[k++] = n;
	sema_unknown(s, w, "errno name", names, k);
}

static int parse_action(struct sema *s, const struct ast_word *w,
			struct ir_action *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	if (w->kind == AST_CALL && !strcmp(w->text, "errno")) {
		struct ast_word arg = *w;
		int e = errno_lookup(w->arg);
		long long v;

		arg.kind = AST_WORD;
		arg.text = w->arg;
		if (e < 0 && (w->arg[0] < '0' || w->arg[0] > '9')) {
			unknown_errno(s, &arg);
			return -1;
		}
		if (e < 0) {
			if (sema_number(s, &arg, &v))
				return -1;
			if (v < 1 || v > 4095) {
				diag_error(
				    s->d, w->loc,
				    "errno value %lld out of range 1..4095", v);
				return -1;
			}
			e = (int)v;
		}
		a->kind = IR_ACT_ERRNO;
		a->errnum = (uint16_t)e;
		return 0;
	}
	if (w->kind == AST_CALL) {
		for (i = 0; i < sizeof(action_names) / sizeof(*action_names);
		     i++) {
			if (!strcmp(w->text, action_names[i])) {
				diag_error(s->d, w->loc,
					   "action '%s' takes no argument",
					   w->text);
				return -1;
			}
		}
	}
	if (w->kind == AST_WORD) {
		if (!strcmp(w->text, "allow"))
			a->kind = IR_ACT_ALLOW;
		else if (!strcmp(w->text, "log"))
			a->kind = IR_ACT_LOG;
		else if (!strcmp(w->text, "trap"))
			a->kind = IR_ACT_TRAP;
		else if (!strcmp(w->text, "kill") ||
			 !strcmp(w->text, "kill_process"))
			a->kind = IR_ACT_KILL_PROCESS;
		else if (!strcmp(w->text, "kill_thread"))
			a->kind = IR_ACT_KILL_THREAD;
		else if (!strcmp(w->text, "errno")) {
			diag_error(s->d, w->loc,
				   "errno needs a value, as in errno(EPERM)");
			return -1;
		} else
			goto unknown;
		return 0;
	}
unknown:
	if (w->kind == AST_WORD || w->kind == AST_CALL)
		sema_unknown(s, w, "action", action_names,
			     sizeof(action_names) / sizeof(*action_names));
	else
		diag_error(s->d, w->loc, "expected an action");
	return -1;
}

/* Cut a value to the width the kernel reads; refuse what cannot fit. */
static int fit(struct sema *s, const struct ast_value *v, unsigned width,
	       uint64_t *x, const char *arg, const char *sc)
{
	if (width == 64)
		return 0;
	/* A negative int is sign-extended in the policy, not by the kernel. */
	if (*x <= 0xffffffffull || *x >= 0xffffffff80000000ull) {
		*x &= 0xffffffffull;
		return 0;
	}
	diag_error(s->d, v->loc,
		   "value 0x%llx does not fit 32 bits: %s's '%s' is an int, "
		   "and the kernel ignores its upper half",
		   (unsigned long long)*x, sc, arg);
	return -1;
}

/*
 * ARG.hi: the upper 32 bits of the register that holds ARG, compared as a
 * 32-bit unsigned number. The IR states it as a 64-bit atom whose mask and
 * value lie in the upper half. A value must fit those 32 bits.
 */
static int fit_hi(struct sema *s, const struct ast_value *v, uint64_t *x,
		  const char *arg)
{
	if (*x >= 0xffffffff80000000ull)
		*x &= 0xffffffffull;
	if (*x > 0xffffffffull) {
		diag_error(s->d, v->loc,
			   "value 0x%llx does not fit the 32 bits of %s",
			   (unsigned long long)*x, arg);
		return -1;
	}
	*x <<= 32;
	return 0;
}

/* The value (or mask) of an atom at the width it is compared on. */
static int atom_value(struct sema *s, const struct ast_value *v, int hi,
		      unsigned width, uint64_t *x, const char *arg,
		      const char *sc)
{
	if (sema_value(s, v, x))
		return -1;
	return hi ? fit_hi(s, v, x, arg) : fit(s, v, width, x, arg, sc);
}

static const uint8_t cmp_to_op[] = {
    [AST_EQ] = IR_OP_EQ, [AST_NE] = IR_OP_NE, [AST_LT] = IR_OP_LT,
    [AST_LE] = IR_OP_LE, [AST_GT] = IR_OP_GT, [AST_GE] = IR_OP_GE,
};

/* One atom of the condition, resolved for one syscall: its alternatives. */
struct alts {
	struct ir_atom v[64];
	size_t n;
};

static int resolve_atom(struct sema *s, const char *sc,
			const struct ast_atom *a, struct alts *out)
{
	const char *text = a->arg.text, *dot = strrchr(text, '.');
	int hi = dot && !strcmp(dot, ".hi");
	char base[64];
	unsigned width;
	uint64_t mask = ~0ull, val;
	int idx;
	size_t i;

	snprintf(base, sizeof(base), "%.*s",
		 hi ? (int)(dot - text) : (int)strlen(text), text);
	idx = syscall_args_index(sc, base, &width);
	if (idx < 0) {
		const char *cands[SYSCALL_ARGS_MAX * 4];
		size_t n = 0;
		const char *c;

		while (n < sizeof(cands) / sizeof(*cands) &&
		       (c = syscall_args_name(sc, (unsigned)n)))
			cands[n++] = c;
		struct ast_word w = a->arg;

		w.text = base;
		if (n)
			sema_unknown(s, &w, "argument", cands, n);
		else
			diag_error(
			    s->d, a->arg.loc,
			    "unknown argument '%s' of %s; use arg0..arg5", base,
			    sc);
		return -1;
	}
	if (hi) {
		width = 64;
		mask = 0xffffffff00000000ull;
	}
	if (a->has_mask && atom_value(s, &a->mask, hi, width, &mask, text, sc))
		return -1;
	out->n = 0;
	if (a->cmp != AST_IN) {
		if (atom_value(s, &a->value, hi, width, &val, text, sc))
			return -1;
		out->v[0] = (struct ir_atom){(uint8_t)idx, (uint8_t)width,
					     cmp_to_op[a->cmp], mask, val};
		out->n = 1;
		return 0;
	}
	if (a->nset > sizeof(out->v) / sizeof(*out->v)) {
		diag_error(s->d, a->loc, "more than %zu values in one set",
			   sizeof(out->v) / sizeof(*out->v));
		return -1;
	}
	for (i = 0; i < a->nset; i++) {
		size_t j;

		if (atom_value(s, &a->set[i], hi, width, &val, text, sc))
			return -1;
		for (j = 0; j < out->n; j++) {
			if (out->v[j].value == val) {
				diag_error(s->d, a->set[i].loc,
					   "duplicate value 0x%llx in the set",
					   (unsigned long long)val);
				diag_note(s->d, a->set[j].loc,
					  "first given here");
				return -1;
			}
		}
		out->v[out->n++] = (struct ir_atom){
		    (uint8_t)idx, (uint8_t)width, IR_OP_EQ, mask, val};
	}
	return 0;
}

static int add_rule(struct sema *s, const char *sc, const struct ir_rule *r,
		    struct loc loc)
{
	struct sys_rule_src *rs;

	if (s->nrules >= IR_MAX_SYSCALLS * 16) {
		diag_error(s->d, loc, "too many syscall rules");
		return -1;
	}
	if (sema_grow(s, (void **)&s->rules, &s->caprules, s->nrules,
		      sizeof(*s->rules)))
		return -1;
	rs = &s->rules[s->nrules++];
	memset(rs, 0, sizeof(*rs));
	strcpy(rs->name, sc);
	rs->rule = *r;
	rs->loc = loc;
	return 0;
}

/* The cartesian product of the atoms' alternatives, one rule each. */
static void expand(struct sema *s, const char *sc, const struct ir_action *act,
		   struct alts *alts, size_t natoms, struct loc loc)
{
	size_t total = 1, i, k;

	for (i = 0; i < natoms; i++) {
		total *= alts[i].n;
		if (total > SEMA_MAX_EXPANSION) {
			diag_error(s->d, loc,
				   "condition expands into more than %d rules",
				   SEMA_MAX_EXPANSION);
			return;
		}
	}
	for (k = 0; k < total; k++) {
		struct ir_rule r;
		size_t rest = k;

		memset(&r, 0, sizeof(r));
		r.action = *act;
		r.natoms = (uint32_t)natoms;
		for (i = 0; i < natoms; i++) {
			r.atoms[i] = alts[i].v[rest % alts[i].n];
			rest /= alts[i].n;
		}
		if (add_rule(s, sc, &r, loc))
			return;
	}
}

static void rule_stmt(struct sema *s, const struct ast_stmt *st)
{
	struct alts alts[IR_MAX_ATOMS];
	struct ir_action act;
	size_t i, j, natoms = st->cond ? st->cond->n : 0;

	if (parse_action(s, &st->words[0], &act))
		return;
	if (st->has_block) {
		diag_error(s->d, st->loc, "a syscall rule takes no block");
		return;
	}
	if (st->nwords < 2) {
		diag_error(s->d, st->loc,
			   "expected syscall names after the action");
		return;
	}
	if (natoms > IR_MAX_ATOMS) {
		diag_error(s->d, st->cond->loc,
			   "more than %d conditions joined by &&",
			   IR_MAX_ATOMS);
		return;
	}
	for (i = 1; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];
		char name[IR_SYSCALL_NAME];
		int failed = 0;

		if (w->kind != AST_WORD) {
			diag_error(s->d, w->loc, "expected a syscall name");
			continue;
		}
		if (syscall_word(s, w, name))
			continue;
		for (j = 0; j < natoms && !failed; j++)
			failed = resolve_atom(s, name, &st->cond->atoms[j],
					      &alts[j]);
		if (!failed)
			expand(s, name, &act, alts, natoms, w->loc);
	}
}

/* An action as one number, to tell two settings apart. */
static uint64_t action_key(const struct ir_action *a)
{
	return (uint64_t)a->kind << 16 | a->errnum;
}

static void badarch(struct sema *s, const struct ast_stmt *st)
{
	struct ir_action a;

	if (st->nwords != 2 || st->cond || st->has_block) {
		diag_error(s->d, st->loc, "expected 'badarch ACTION'");
		return;
	}
	if (parse_action(s, &st->words[1], &a))
		return;
	if (a.kind == IR_ACT_ALLOW || a.kind == IR_ACT_LOG) {
		diag_error(s->d, st->words[1].loc,
			   "foreign architectures (i386, x32) may not be "
			   "allowed: their syscall numbers mean other calls");
		return;
	}
	if (sema_once(s, &s->sys_badarch, st->loc, "badarch action",
		      action_key(&a)))
		return;
	s->p->sys.badarch = a;
}

void sema_syscalls(struct sema *s, const struct ast_stmt *st)
{
	size_t i;

	if (!st->has_block || st->cond ||
	    !(st->nwords == 1 ||
	      (st->nwords == 3 && !strcmp(st->words[1].text, "default")))) {
		diag_error(s->d, st->loc,
			   "expected 'syscalls [default ACTION] { ... }'");
		return;
	}
	s->p->sys.present = 1;
	if (st->nwords == 3) {
		struct ir_action def;
		int rc;

		if (parse_action(s, &st->words[2], &def))
			return;
		rc = sema_once(s, &s->sys_default, st->words[1].loc,
			       "syscalls default", action_key(&def));
		if (rc < 0)
			return;
		if (rc == SEMA_TAKE)
			s->p->sys.def = def;
	}
	for (i = 0; i < st->nchildren; i++) {
		const struct ast_stmt *c = &st->children[i];

		if (c->words[0].kind == AST_WORD &&
		    !strcmp(c->words[0].text, "badarch"))
			badarch(s, c);
		else
			rule_stmt(s, c);
	}
}

static int rule_src_cmp(const void *pa, const void *pb)
{
	const struct sys_rule_src *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	c = ir_rule_cmp(&a->rule, &b->rule);
	if (c)
		return c;
	/* Keep source order among equals so "first given here" is first. */
	return sema_loc_cmp(a->loc, b->loc);
}

static struct ws_cons atom_cons(const struct ir_atom *a)
{
	return (struct ws_cons){(uint32_t)a->mask, (uint32_t)a->value, a->op};
}

static int atom_sort_cmp(const void *a, const void *b)
{
	return ir_atom_cmp(a, b);
}

static int loc_before(struct loc a, struct loc b)
{
	return sema_loc_cmp(a, b) < 0;
}

/*
 * Conflicts within one syscall's rules, sorted by rule: equal rules are
 * adjacent, the strictest action first, unconditional before conditional
 * within an action. One pass, so a policy repeating a rule a thousand times
 * gets a thousand errors at most (and diag caps those), not a million.
 */
static void check_group(struct sema *s, struct sys_rule_src *v, size_t n)
{
	const struct sys_rule_src *uncond = NULL;
	char a1[32], a2[32];
	size_t i, first = 0;

	for (i = 0; i < n; i++) {
		if (i > 0 && !ir_rule_cmp(&v[i].rule, &v[first].rule)) {
			/* Fragments may restate a rule; one file may not,
			 * where it is most likely a slip. */
			if (v[i].loc.file == v[first].loc.file)
				sema_dup(s, v[i].loc, v[first].loc,
					 "syscall rule", v[i].name);
			continue;
		}
		first = i;
		if (v[i].rule.natoms)
			continue;
		if (!uncond) {
			uncond = &v[i];
			continue;
		}
		{
			/* The error goes to the later of the two. */
			const struct sys_rule_src *x = uncond, *y = &v[i];

			if (loc_before(y->loc, x->loc)) {
				x = &v[i];
				y = uncond;
			}
			diag_error(
			    s->d, y->loc,
			    "conflicting rules for '%s': %s here, %s "
			    "elsewhere",
			    y->name,
			    ir_action_str(&y->rule.action, a1, sizeof(a1)),
			    ir_action_str(&x->rule.action, a2, sizeof(a2)));
			sema_other(s, y->loc, x->loc, "the other rule");
		}
	}
	if (!uncond)
		return;
	for (i = 0; i < n; i++) {
		const struct sys_rule_src *c = &v[i];

		if (c->rule.natoms == 0 ||
		    ir_action_cmp(&c->rule.action, &uncond->rule.action) < 0 ||
		    (i > 0 && !ir_rule_cmp(&c->rule, &v[i - 1].rule)))
			continue;
		diag_error(s->d, c->loc,
			   "this %s rule for '%s' never applies: an "
			   "unconditional %s rule is at least as strict",
			   ir_action_str(&c->rule.action, a1, sizeof(a1)),
			   c->name,
			   ir_action_str(&uncond->rule.action, a2, sizeof(a2)));
		sema_other(s, c->loc, uncond->loc, "the unconditional rule");
	}
}

static int loc_cmp(const void *pa, const void *pb)
{
	return sema_loc_cmp(*(const struct loc *)pa, *(const struct loc *)pb);
}

/*
 * Composition of one syscall's rules, sorted by rule (sema_compose.c):
 * the syscall is a key, decided by every file with a rule for it that
 * no other such file uses. The rules of the files they use are dropped;
 * when the policy itself decides, each statement whose rules no longer
 * apply is reported (a rule the policy restates is not lost).
 */
static void compose_group(struct sema *s, struct sys_rule_src *v, size_t n)
{
	const struct src_file **files = malloc(n * sizeof(*files));
	struct loc by = {0};
	size_t nfiles = 0, i, j, k;

	if (!files) {
		s->oom = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < nfiles && files[k] != v[i].loc.file; k++)
			;
		if (k == nfiles)
			files[nfiles++] = v[i].loc.file;
		if (v[i].loc.file == sema_main(s) &&
		    (!by.file || loc_before(v[i].loc, by)))
			by = v[i].loc;
	}
	if (nfiles < 2)
		goto out;
	for (i = 0; i < n; i++)
		for (k = 0; k < nfiles && !v[i].dropped; k++)
			v[i].dropped = sema_decides(s, files[k], v[i].loc.file);
	if (!by.file)
		goto out;
	/* Runs of equal rules: a dropped one is lost unless one survives. */
	for (i = 0; i < n; i = j) {
		int kept = 0;

		for (j = i; j < n && !ir_rule_cmp(&v[i].rule, &v[j].rule); j++)
			kept |= !v[j].dropped;
		for (k = i; k < j && !kept; k++)
			if (v[k].dropped)
				sema_replaced(s, by, v[k].loc, v[k].name,
					      "rule");
	}
out:
	free(files);
}

/*
 * Can rule r and companion c hold at once? Decided word by word on the
 * arguments the companion tests (all ints, width 32); r's atoms elsewhere
 * are r's own business. A 64-bit atom of r on such an argument, or an
 * undecided search, counts as "yes": the answer only chooses a warning.
 */
static int overlaps(const struct ir_rule *r, const struct companion *c)
{
	for (uint32_t arg = 0; arg < 6; arg++) {
		struct ws_cons cons[2 * IR_MAX_ATOMS];
		size_t n = 0;
		uint32_t i;

		for (i = 0; i < c->rule.natoms; i++)
			if (c->rule.atoms[i].arg == arg)
				cons[n++] = atom_cons(&c->rule.atoms[i]);
		if (!n)
			continue;
		for (i = 0; i < r->natoms; i++) {
			if (r->atoms[i].arg != arg)
				continue;
			if (r->atoms[i].width != 32)
				return 1;
			cons[n++] = atom_cons(&r->atoms[i]);
		}
		if (ws_word_sat(cons, n, 32, NULL) == WS_UNSAT)
			return 0;
	}
	return 1;
}

/* (w & mask) op k does not hold: the opposite operator. */
static struct ws_cons negated(const struct ir_atom *a)
{
	static const uint8_t opposite[] = {
	    [WS_EQ] = WS_NE, [WS_NE] = WS_EQ, [WS_LT] = WS_GE,
	    [WS_LE] = WS_GT, [WS_GT] = WS_LE, [WS_GE] = WS_LT,
	};
	struct ws_cons k = atom_cons(a);

	k.op = opposite[a->op];
	return k;
}

/*
 * Does rule r ask for what companion c refuses, rather than leave it to
 * c's carve-out? It does when r tests an argument c carves on besides the
 * family (socket's type or protocol: r says which sockets it means), or
 * when c holds wherever r does (r means only what c refuses). A plain
 * rule on the family, as in `allow socket if domain in {AF_UNIX,
 * AF_INET}`, does neither: there the companions win, as documented
 * (docs/LANGUAGE.md, "Egress companions"), and no warning is given.
 */
static int asks_for(const struct ir_rule *r, const struct companion *c)
{
	uint32_t i, j;

	for (i = 0; i < c->rule.natoms; i++)
		for (j = 0; j < r->natoms; j++)
			if (c->rule.atoms[i].arg != 0 &&
			    r->atoms[j].arg == c->rule.atoms[i].arg)
				return 1;
	/* Implied: for each atom of c, r's atoms on its argument and the
	 * atom's negation cannot hold together. */
	for (i = 0; i < c->rule.natoms; i++) {
		struct ws_cons cons[IR_MAX_ATOMS + 1];
		size_t n = 0;

		for (j = 0; j < r->natoms; j++) {
			if (r->atoms[j].arg != c->rule.atoms[i].arg)
				continue;
			if (r->atoms[j].width != 32)
				return 0;
			cons[n++] = atom_cons(&r->atoms[j]);
		}
		cons[n++] = negated(&c->rule.atoms[i]);
		if (ws_word_sat(cons, n, 32, NULL) != WS_UNSAT)
			return 0;
	}
	return 1;
}

/*
 * A user rule less strict than a companion it overlaps loses to it where
 * both hold: one warning per statement, naming the companions, when the
 * rule asks for what they refuse (asks_for()). In source order.
 */
struct companion_warning {
	struct loc loc; /* first: loc_cmp() sorts these */
	const struct sys_rule_src *u;
	uint32_t which; /* bit k: companions[k] */
};

static void companion_warnings(struct sema *s)
{
	struct companion_warning seen[64];
	size_t nseen = 0, i, k, j;
	char a[32], list[512];

	for (i = 0; i < s->nrules; i++) {
		const struct sys_rule_src *u = &s->rules[i];

		for (k = 0; k < ncompanions && k < 32; k++) {
			const struct companion *c = &companions[k];

			if (strcmp(u->name, c->name) ||
			    !companion_applies(c, s->p) ||
			    ir_action_cmp(&u->rule.action, &c->rule.action) <=
				0 ||
			    !overlaps(&u->rule, c) || !asks_for(&u->rule, c))
				continue;
			for (j = 0; j < nseen; j++)
				if (seen[j].loc.file == u->loc.file &&
				    seen[j].loc.line == u->loc.line &&
				    seen[j].loc.col == u->loc.col &&
				    !strcmp(seen[j].u->name, u->name))
					break;
			if (j == nseen) {
				if (nseen == sizeof(seen) / sizeof(*seen))
					continue;
				seen[nseen].loc = u->loc;
				seen[nseen].u = u;
				seen[nseen++].which = 0;
			}
			seen[j].which |= 1u << k;
		}
	}
	qsort(seen, nseen, sizeof(*seen), loc_cmp);
	for (j = 0; j < nseen; j++) {
		const struct sys_rule_src *u = seen[j].u;
		size_t len = 0, n = 0;

		list[0] = '\0';
		for (k = 0; k < ncompanions && k < 32; k++) {
			if (!(seen[j].which >> k & 1))
				continue;
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s'%s'", n++ ? ", " : "",
						companions[k].text);
			if (len >= sizeof(list))
				break;
		}
		diag_warning(s->d, seen[j].loc,
			     "this %s rule for '%s' gives way where the egress "
			     "companion%s %s hold%s",
			     ir_action_str(&u->rule.action, a, sizeof(a)),
			     u->name, n > 1 ? "s" : "", list, n > 1 ? "" : "s");
	}
}

/* The companions join the policy's rules (docs/LANGUAGE.md). */
static int add_companions(struct sema *s)
{
	struct loc none = {0};
	int rc = companions_add(s->p);

	if (rc == IR_EINVAL)
		diag_error(s->d, none,
			   "no room for the egress companion rules: more than "
			   "%d syscalls, or %d rules on one, with them",
			   IR_MAX_SYSCALLS, IR_MAX_RULES);
	return rc == IR_ENOMEM ? -1 : 0;
}

int sema_finish_syscalls(struct sema *s)
{
	struct ir_syscalls *sys = &s->p->sys;
	size_t i, j, ncalls = 0;

	for (i = 0; i < s->nrules; i++)
		qsort(s->rules[i].rule.atoms, s->rules[i].rule.natoms,
		      sizeof(struct ir_atom), atom_sort_cmp);
	if (s->nrules)
		qsort(s->rules, s->nrules, sizeof(*s->rules), rule_src_cmp);
	for (i = 0; i < s->nrules; i = j) {
		for (j = i; j < s->nrules &&
			    !strcmp(s->rules[i].name, s->rules[j].name);
		     j++)
			;
		compose_group(s, &s->rules[i], j - i);
	}
	for (i = j = 0; i < s->nrules; i++)
		if (!s->rules[i].dropped)
			s->rules[j++] = s->rules[i];
	s->nrules = j;
	for (i = 0; i < s->nrules; i = j) {
		for (j = i; j < s->nrules &&
			    !strcmp(s->rules[i].name, s->rules[j].name);
		     j++)
			;
		check_group(s, &s->rules[i], j - i);
		if (j - i > IR_MAX_RULES) {
			struct loc last = s->rules[i].loc;
			size_t k;

			for (k = i; k < j; k++)
				if (loc_before(last, s->rules[k].loc))
					last = s->rules[k].loc;
			diag_error(s->d, last,
				   "'%s' has %zu rules once sets are expanded; "
				   "the limit is %d",
				   s->rules[i].name, j - i, IR_MAX_RULES);
		}
		ncalls++;
	}
	if (s->oom)
		return -1;
	if (s->d->errors)
		return 0;
	if (ncalls > IR_MAX_SYSCALLS) {
		struct loc none = {0};

		diag_error(s->d, none, "more than %d syscalls named",
			   IR_MAX_SYSCALLS);
		return 0;
	}
	companion_warnings(s);
	sys->calls = ncalls ? calloc(ncalls, sizeof(*sys->calls)) : NULL;
	if (ncalls && !sys->calls)
		return -1;
	for (i = 0; i < s->nrules; i = j) {
		struct ir_syscall *sc = &sys->calls[sys->ncalls++];
		size_t k;

		for (j = i; j < s->nrules &&
			    !strcmp(s->rules[i].name, s->rules[j].name);
		     j++)
			;
		strcpy(sc->name, s->rules[i].name);
		sc->rules = calloc(j - i, sizeof(*sc->rules));
		if (!sc->rules)
			return -1;
		for (k = i; k < j; k++)
			sc->rules[sc->nrules++] = s->rules[k].rule;
	}
	return add_companions(s);
}
