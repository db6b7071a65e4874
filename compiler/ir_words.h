/* SPDX-License-Identifier: MIT */
/*
 * An IR atom or rule as clauses over the 32-bit words of seccomp_data, the
 * form bpf/wordsat.h decides. Shared by the translation validator's exact
 * route (seccomp_validate.c) and the prover's syscall dimension
 * (prove_sys.c).
 *
 * The meaning is ir_atom_holds()'s: `(arg & mask) op value`, unsigned; at
 * width 32 the kernel reads an int, so only the low word exists. At width
 * 64 an atom is a disjunction of conjunctions of literals on the two words
 * of its argument: the high words decide unless they are equal, so
 * x < v is hi < vh, or hi == vh and lo < vl.
 */
#ifndef POLC_IR_WORDS_H
#define POLC_IR_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "wordsat.h"

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
	uint32_t natoms;
	struct ws_clause *pos; /* per atom: the atom holds */
	struct ws_clause neg;  /* some atom fails */
};

/* One syscall's rules as clauses. */
struct ir_words_rules {
	struct ir_words_rule *r; /* sorted by key: strictest first */
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

#endif
