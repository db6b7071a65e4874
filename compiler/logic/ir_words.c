/* SPDX-License-Identifier: MIT */
/* IR atoms and rules as clauses over seccomp_data's words; see logic.h. */
#include "logic.h"

#include <stdlib.h>
#include <string.h>

/*
 * The atom a with irop in place of a->op, as a disjunction of conjunctions
 * of word literals into out (room for 2). Returns how many (1 or 2).
 */
static size_t atom_dnf(const struct ir_atom *a, uint8_t irop,
		       enum ir_words_order order, struct ws_conj out[2])
{
	static const uint8_t ws[] = {
	    [IR_OP_EQ] = WS_EQ, [IR_OP_NE] = WS_NE, [IR_OP_LT] = WS_LT,
	    [IR_OP_LE] = WS_LE, [IR_OP_GT] = WS_GT, [IR_OP_GE] = WS_GE,
	};
	uint8_t op = ws[irop % 6];
	uint8_t lo = (uint8_t)WS_W_ARG_LO(a->arg),
		hi = (uint8_t)WS_W_ARG_HI(a->arg);
	struct ws_lit l = {lo, op, (uint32_t)a->mask, (uint32_t)a->value};
	struct ws_lit h = {hi, op, (uint32_t)(a->mask >> 32),
			   (uint32_t)(a->value >> 32)};
	struct ws_lit heq = h;
	int low = order == IR_WORDS_LOW_FIRST;

	heq.op = WS_EQ;
	if (a->width == 32) {
		out[0] = (struct ws_conj){1, {l}};
		return 1;
	}
	switch (op) {
	case WS_EQ:
		out[0] = (struct ws_conj){2, {h, l}};
		return 1;
	case WS_NE:
		out[!low] = (struct ws_conj){1, {l}};
		out[low] = (struct ws_conj){1, {h}};
		return 2;
	default:
		/* The strict order on the high words, or equal and op. */
		h.op = op == WS_LT || op == WS_LE ? WS_LT : WS_GT;
		out[!low] = (struct ws_conj){2, {heq, l}};
		out[low] = (struct ws_conj){1, {h}};
		return 2;
	}
}

static uint8_t op_not(uint8_t op)
{
	static const uint8_t neg[] = {
	    [IR_OP_EQ] = IR_OP_NE, [IR_OP_NE] = IR_OP_EQ, [IR_OP_LT] = IR_OP_GE,
	    [IR_OP_LE] = IR_OP_GT, [IR_OP_GT] = IR_OP_LE, [IR_OP_GE] = IR_OP_LT,
	};

	return neg[op % 6];
}

static int rule_qcmp(const void *a, const void *b)
{
	const struct ir_words_rule *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int ir_words_rules_build(struct ir_words_rules *rs, const struct ir_syscall *sc,
			 enum ir_words_order order)
{
	uint32_t nrules = sc ? sc->nrules : 0;
	size_t natoms = 0, ci = 0, li = 0;

	memset(rs, 0, sizeof(*rs));
	for (uint32_t i = 0; i < nrules; i++)
		natoms += sc->rules[i].natoms;
	/* Each atom takes at most 2 conjunctions, held and negated each. */
	rs->r = calloc(nrules + 1, sizeof(*rs->r));
	rs->conj = calloc(4 * natoms + 1, sizeof(*rs->conj));
	rs->cl = calloc(natoms + 1, sizeof(*rs->cl));
	if (!rs->r || !rs->conj || !rs->cl)
		return WS_ENOMEM;
	for (uint32_t i = 0; i < nrules; i++) {
		const struct ir_rule *rule = &sc->rules[i];
		struct ir_words_rule *rc = &rs->r[i];
		size_t first;

		rc->action = &rule->action;
		rc->key = ir_action_key(&rule->action);
		rc->index = i;
		rc->natoms = rule->natoms;
		rc->pos = &rs->cl[li];
		for (uint32_t a = 0; a < rule->natoms; a++) {
			size_t k = atom_dnf(&rule->atoms[a], rule->atoms[a].op,
					    order, &rs->conj[ci]);

			rs->cl[li++] = (struct ws_clause){k, &rs->conj[ci]};
			ci += k;
		}
		first = ci;
		for (uint32_t a = 0; a < rule->natoms; a++)
			ci +=
			    atom_dnf(&rule->atoms[a], op_not(rule->atoms[a].op),
				     order, &rs->conj[ci]);
		rc->neg = (struct ws_clause){ci - first, &rs->conj[first]};
	}
	qsort(rs->r, nrules, sizeof(*rs->r), rule_qcmp);
	rs->n = nrules;
	return 0;
}

void ir_words_rules_free(struct ir_words_rules *rs)
{
	free(rs->r);
	free(rs->conj);
	free(rs->cl);
	memset(rs, 0, sizeof(*rs));
}
