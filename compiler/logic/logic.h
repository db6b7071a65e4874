/* SPDX-License-Identifier: MIT */
/*
 * The IR as logic: an IR rule's meaning, ir_atom_holds() and
 * ir_eval_syscall(), in the two forms the deciders read. Shared by the
 * translation validator (seccomp_validate.c) and the prover (prove_sys.c,
 * prove_z3.c), so both decide the same meaning.
 *
 * ir_words.c: an IR atom or rule as clauses over the 32-bit words of
 * seccomp_data, the form bpf/wordsat.h decides. The meaning is
 * ir_atom_holds()'s: `(arg & mask) op value`, unsigned; at width 32 the
 * kernel reads an int, so only the low word exists. At width 64 an atom is
 * a disjunction of conjunctions of literals on the two words of its
 * argument: the high words decide unless they are equal, so x < v is
 * hi < vh, or hi == vh and lo < vl.
 *
 * ir_z3.c: IR rules as Z3 terms over the symbolic arguments of
 * bpf/bpf_symbolic.h. The fold mirrors ir_eval_syscall(), and an atom
 * means what ir_atom_holds() says, as above.
 */
#ifndef POLC_LOGIC_H
#define POLC_LOGIC_H

#include "z3_lazy.h" /* before anything that includes <z3.h> */

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "wordsat.h"

/* ---- Word clauses (ir_words.c) -------------------------------------- */

/*
 * Which disjunct of a 64-bit atom comes first. Either order means the
 * same; it decides which witness a search finds first, and how soon.
 */
enum ir_words_order {
	/* The low word's: witnesses without a high word where none is
	 * needed (the prover's, which users read). */
	IR_WORDS_LOW_FIRST = 0,
	/* The high word's: the strict order on the high words first. */
	IR_WORDS_HIGH_FIRST = 1,
};

/* One rule as clauses. */
struct ir_words_rule {
	const struct ir_action *action; /* the IR rule's */
	uint32_t key;			/* ir_action_key(action) */
	uint32_t index;			/* the rule's index in sc->rules */
	uint32_t natoms;
	struct ws_clause *pos; /* per atom: the atom holds */
	struct ws_clause neg;  /* some atom fails */
};

/* One syscall's rules as clauses. */
struct ir_words_rules {
	struct ir_words_rule *r; /* sorted by key, strictest first, then
				  * by index: ir_explain_syscall()'s order */
	uint32_t n;
	struct ws_conj *conj; /* what the clauses point into */
	struct ws_clause *cl;
};

/*
 * Build rs from the rules of sc (NULL: none). Returns 0, or WS_ENOMEM;
 * either way ir_words_rules_free() applies.
 */
int ir_words_rules_build(struct ir_words_rules *rs, const struct ir_syscall *sc,
			 enum ir_words_order order);
void ir_words_rules_free(struct ir_words_rules *rs);

/* ---- Z3 terms (ir_z3.c) --------------------------------------------- */

struct bpf_sym;

/* The key ir_z3_best_key() gives when no rule holds. */
#define IR_Z3_NO_KEY 0xffffffffu

/*
 * The smallest ir_action_key() among the rules of sc (NULL: none) that
 * hold, else IR_Z3_NO_KEY, as a 32-bit term.
 */
Z3_ast ir_z3_best_key(struct bpf_sym *s, const struct ir_syscall *sc);

/* Rule r holds (every atom), as a Z3 boolean. */
Z3_ast ir_z3_rule_holds(struct bpf_sym *s, const struct ir_rule *r);

#endif
