/* SPDX-License-Identifier: MIT */
/*
 * The syscall dimension's second route: one Z3 query for a syscall whose
 * clause search (prove_sys.c) ran out of its budget. Rules that test
 * several arguments at once make that search exponential (a cartesian
 * product of `in` sets, refuted case by case), while the same question as
 * one bit-vector formula is easy for an SMT solver.
 *
 * The formula is the clause search's question at one threshold t,
 * rank(NEW(args)) >= t and rank(OLD(args)) < t, each side's action written
 * as a term that mirrors ir_eval_syscall(): best = the smallest (kind,
 * errno) key among the rules that hold, else the default. Asked from
 * t = allow down, as the clause search asks, its first model is a most
 * permissive excess (docs/PROVER.md). Z3 is
 * loaded on first use (bpf/z3_lazy.h), the context made once per check,
 * and every query has a time limit; "unknown" is undecided, never within.
 * A model is a witness like any other: re-checked before it is reported.
 */
#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "bpf_symbolic.h"
#include "logic/logic.h"
#include "prove_int.h"

#include <stdio.h>
#include <string.h>

/* The kind of the action the policy gives, as a 32-bit term. */
static Z3_ast rank_term(struct bpf_sym *s, const struct ir_syscalls *sys,
			const struct ir_syscall *sc)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast best = ir_z3_best_key(s, sc), none;

	none = Z3_mk_eq(c, best, bpf_sym_u32(s, IR_Z3_NO_KEY));
	return Z3_mk_ite(c, none, bpf_sym_u32(s, sys->def.kind),
			 Z3_mk_bvlshr(c, best, bpf_sym_u32(s, 16)));
}

int prove_z3_exceeds(struct prover *pv, const char *name,
		     const struct ir_syscall *nsc, const struct ir_syscall *osc,
		     uint8_t t, uint64_t args[6])
{
	struct seccomp_data w;
	char why[256];
	Z3_context c;
	Z3_ast cond[2];

	if (pv->no_z3)
		return prove_fail(pv, PROVE_UNDECIDED,
				  "undecided: the search budget ran out on "
				  "syscall %s",
				  name);
	if (!pv->sym &&
	    bpf_sym_create(&pv->sym, PROVE_Z3_TIMEOUT_MS, why, sizeof(why)))
		return prove_fail(pv, PROVE_UNDECIDED,
				  "undecided: the search budget ran out on "
				  "syscall %s, and %s",
				  name, why);
	c = bpf_sym_ctx(pv->sym);
	cond[0] = Z3_mk_bvuge(c, rank_term(pv->sym, &pv->nw->sys, nsc),
			      bpf_sym_u32(pv->sym, t));
	cond[1] = Z3_mk_bvult(c, rank_term(pv->sym, &pv->old->sys, osc),
			      bpf_sym_u32(pv->sym, t));
	pv->res->z3_queries++;
	switch (bpf_sym_check(pv->sym, Z3_mk_and(c, 2, cond), &w)) {
	case BPF_SYM_UNSAT:
		return 0;
	case BPF_SYM_SAT:
		memcpy(args, w.args, sizeof(w.args));
		return 1;
	default:
		return prove_fail(pv, PROVE_UNDECIDED,
				  "undecided: syscall %s: the solver says "
				  "unknown (%s)",
				  name, bpf_sym_reason(pv->sym));
	}
}

void prove_z3_free(struct prover *pv)
{
	bpf_sym_destroy(&pv->sym);
}
