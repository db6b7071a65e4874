// SPDX-License-Identifier: MIT
/*
 * Where a syscall's rules meet, libseccomp decides otherwise than polc's
 * rule resolution (the strictest wins): an unconditional rule replaces
 * the conditional ones, the first of two unconditional rules wins, and
 * where two conditional rules of different actions both hold the outcome
 * is not defined. What is the same under both readings is kept (or a
 * comment); every other case is refused, naming both entries. Whether two
 * rules can both hold is decided exactly, with the word logic translation
 * validation uses (bpf/wordsat.h).
 */
#include "ir/ir.h"
#include "logic/logic.h"
#include "oci_int.h"

#include <string.h>

static int _same_atoms(const struct rule *a, const struct rule *b)
{
	if (a->natoms != b->natoms)
		return 0;
	for (uint32_t i = 0; i < a->natoms; i++)
		if (ir_atom_cmp(&a->atoms[i], &b->atoms[i]))
			return 0;
	return 1;
}

/* Can a and b hold at once? 1 yes, 0 no, -1 undecided or no memory. */
static int _overlap(const struct rule *a, const struct rule *b)
{
	struct ir_rule rules[2] = {{.natoms = a->natoms},
				   {.natoms = b->natoms}};
	struct ir_syscall sc = {.nrules = 2, .rules = rules};
	struct ir_words_rules rs = {0};
	struct ws_clause cl[2 * IR_MAX_ATOMS];
	struct ws_set *set = NULL;
	uint32_t w[WS_WORDS];
	size_t n = 0, budget = 1u << 14;
	int r = -1;

	memcpy(rules[0].atoms, a->atoms, sizeof(a->atoms));
	memcpy(rules[1].atoms, b->atoms, sizeof(b->atoms));
	rules[0].action = a->act;
	rules[1].action = b->act;
	if (ir_words_rules_build(&rs, &sc, IR_WORDS_LOW_FIRST) == 0 &&
	    ws_set_create(&set) == 0) {
		for (uint32_t k = 0; k < rs.n; k++)
			for (uint32_t i = 0; i < rs.r[k].natoms; i++)
				cl[n++] = rs.r[k].pos[i];
		r = ws_set_search(set, cl, n, &budget, w);
		r = r == WS_SAT ? 1 : r == WS_UNSAT ? 0 : -1;
	}
	ws_set_destroy(&set);
	ir_words_rules_free(&rs);
	return r;
}

void imp_rules_meet(struct imp *m, struct call *c)
{
	const struct rule *first = NULL;
	char a1[32], a2[32];

	/* An unconditional libseccomp rule: the first one decides all. */
	for (size_t i = 0; i < c->n; i++) {
		struct rule *r = &c->r[i];

		if (!r->scmp_all)
			continue;
		if (!first) {
			first = r;
			continue;
		}
		if (ir_action_cmp(&r->act, &first->act))
			imp_err(m,
				"syscalls[%d] and syscalls[%d]: %s gets %s and "
				"then %s unconditionally; libseccomp keeps the "
				"first and ignores the second",
				first->entry, r->entry, c->name,
				ir_action_str(&first->act, a1, sizeof(a1)),
				ir_action_str(&r->act, a2, sizeof(a2)));
		r->drop = SAME_UNCOND;
		r->other = first->entry;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct rule *r = &c->r[i];

		if (r->drop || r == first)
			continue;
		if (first) {
			/* libseccomp drops the conditions for the
			 * unconditional rule; ours would let a stricter one
			 * win. */
			if (ir_action_cmp(&r->act, &first->act) < 0)
				imp_err(
				    m,
				    "syscalls[%d]: its %s rule for %s is "
				    "ignored by libseccomp, because "
				    "syscalls[%d] gives %s unconditionally",
				    r->entry,
				    ir_action_str(&r->act, a1, sizeof(a1)),
				    c->name, first->entry,
				    ir_action_str(&first->act, a2, sizeof(a2)));
			r->drop = ir_action_cmp(&r->act, &first->act)
				      ? UNCOND
				      : SAME_UNCOND;
			r->other = first->entry;
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			struct rule *q = &c->r[j];
			int ov;

			if (q->drop)
				continue;
			if (!ir_action_cmp(&r->act, &q->act)) {
				if (_same_atoms(r, q)) {
					r->drop = DUP;
					r->other = q->entry;
					break;
				}
				continue;
			}
			if (r->entry == q->entry && r->orule == q->orule)
				continue; /* alternatives of one rule */
			ov = _overlap(r, q);
			if (ov)
				imp_err(
				    m,
				    "syscalls[%d] and syscalls[%d]: %s "
				    "%s %s and %s where both hold; libseccomp "
				    "does not define which wins",
				    q->entry, r->entry, c->name,
				    ov < 0 ? "may get" : "gets",
				    ir_action_str(&q->act, a1, sizeof(a1)),
				    ir_action_str(&r->act, a2, sizeof(a2)));
		}
	}
	/* An always-true rule of ours makes the others of its action
	 * redundant (sema would say "never applies"). */
	for (size_t i = 0; i < c->n; i++) {
		struct rule *u = &c->r[i];

		if (u->drop || u->natoms || u->scmp_all)
			continue;
		for (size_t j = 0; j < c->n; j++)
			if (j != i && !c->r[j].drop &&
			    !ir_action_cmp(&c->r[j].act, &u->act)) {
				c->r[j].drop = SAME_UNCOND;
				c->r[j].other = u->entry;
			}
	}
}
