/* SPDX-License-Identifier: MIT */
/* IR rules as Z3 terms; see logic.h. */
#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "logic.h"
#include "bpf_symbolic.h"

static Z3_ast atom_term(struct bpf_sym *s, const struct ir_atom *a)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast x = bpf_sym_arg(s, a->arg), m, val;

	if (a->width == 32) {
		/* The kernel reads an int: only the low word exists. */
		x = Z3_mk_extract(c, 31, 0, x);
		m = bpf_sym_u32(s, (uint32_t)a->mask);
		val = bpf_sym_u32(s, (uint32_t)a->value);
	} else {
		m = bpf_sym_u64(s, a->mask);
		val = bpf_sym_u64(s, a->value);
	}
	x = Z3_mk_bvand(c, x, m);
	switch (a->op) {
	case IR_OP_EQ:
		return Z3_mk_eq(c, x, val);
	case IR_OP_NE:
		return Z3_mk_not(c, Z3_mk_eq(c, x, val));
	case IR_OP_LT:
		return Z3_mk_bvult(c, x, val);
	case IR_OP_LE:
		return Z3_mk_bvule(c, x, val);
	case IR_OP_GT:
		return Z3_mk_bvugt(c, x, val);
	default:
		return Z3_mk_bvuge(c, x, val);
	}
}

Z3_ast ir_z3_best_key(struct bpf_sym *s, const struct ir_syscall *sc)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast best = bpf_sym_u32(s, IR_Z3_NO_KEY);

	for (uint32_t r = 0; sc && r < sc->nrules; r++) {
		const struct ir_rule *rule = &sc->rules[r];
		Z3_ast key = bpf_sym_u32(s, ir_action_key(&rule->action));
		Z3_ast holds = Z3_mk_bvult(c, key, best);

		for (uint32_t i = 0; i < rule->natoms; i++) {
			Z3_ast both[2] = {holds, atom_term(s, &rule->atoms[i])};

			holds = Z3_mk_and(c, 2, both);
		}
		best = Z3_mk_ite(c, holds, key, best);
	}
	return best;
}

Z3_ast ir_z3_rule_holds(struct bpf_sym *s, const struct ir_rule *r)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast holds = Z3_mk_true(c);

	for (uint32_t i = 0; i < r->natoms; i++) {
		Z3_ast both[2] = {holds, atom_term(s, &r->atoms[i])};

		holds = Z3_mk_and(c, 2, both);
	}
	return holds;
}
