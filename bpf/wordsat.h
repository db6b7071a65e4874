/* SPDX-License-Identifier: MIT */
/*
 * An exact decision procedure for what seccomp programs and policies say
 * about 32-bit words, so translation validation needs no SMT solver in the
 * common case.
 *
 * A literal is `(w & mask) op k` on one word w, unsigned, op one of
 * == != < <= > >=. The 16 words of seccomp_data (nr, arch, ip lo/hi, arg0..5
 * lo/hi, numbered by offset / 4) are independent variables, so a
 * conjunction of literals is satisfiable iff each word's literals are.
 * One word's conjunction is decided by a depth-first search over the bits
 * of w from the top, tracking per literal whether the masked value still
 * equals k on the bits chosen so far or is already below or above it, with
 * the failed states memoized. The search is complete: its answer is exact,
 * and it says "unknown" only when it exceeds a node budget (the caller
 * then asks a real solver).
 *
 * Above that sits a set of literals with undo (for path exploration) and a
 * search over clauses (disjunctions of small conjunctions of literals), the
 * shape a rule's negation takes.
 */
#ifndef POLC_WORDSAT_H
#define POLC_WORDSAT_H

#include <stddef.h>
#include <stdint.h>

/* Results. WS_UNKNOWN: a budget was exceeded; WS_ENOMEM: out of memory. */
#define WS_ENOMEM  (-2)
#define WS_UNKNOWN (-1)
#define WS_UNSAT   0
#define WS_SAT	   1

enum ws_op {
	WS_EQ = 0,
	WS_NE = 1,
	WS_LT = 2,
	WS_LE = 3,
	WS_GT = 4,
	WS_GE = 5,
};

/* Words of seccomp_data, indexed by offset / 4. */
#define WS_WORDS       16
#define WS_W_NR	       0
#define WS_W_ARCH      1
#define WS_W_IP_LO     2
#define WS_W_IP_HI     3
#define WS_W_ARG_LO(i) (4 + 2 * (i))
#define WS_W_ARG_HI(i) (5 + 2 * (i))

/* Search nodes one word's decision may take before it says unknown. */
#define WS_MAX_NODES (1u << 16)

/* (w & mask) op k, on one word. */
struct ws_cons {
	uint32_t mask, k;
	uint8_t op; /* enum ws_op */
};

/* The complement of op: !(x op k) == (x ws_not(op) k). */
enum ws_op ws_not(enum ws_op op);

/* Does (w & mask) op k hold? */
int ws_holds(const struct ws_cons *c, uint32_t w);

/*
 * Is there a w below 2^bits (1 <= bits <= 32) satisfying every c[i]? The
 * width is a parameter so the tests can compare with brute force on small
 * words. On WS_SAT, *witness (may be NULL) gets one such w.
 */
int ws_word_sat(const struct ws_cons *c, size_t n, unsigned int bits,
		uint32_t *witness);

/* A literal over seccomp_data: (word & mask) op k. */
struct ws_lit {
	uint8_t word; /* 0 .. WS_WORDS - 1 */
	uint8_t op;
	uint32_t mask, k;
};

/*
 * A conjunction of literals over the 16 words, kept satisfiable: every
 * word has a current witness satisfying all its literals, and additions
 * can be undone back to a mark.
 */
struct ws_set;

int ws_set_create(struct ws_set **out);
void ws_set_destroy(struct ws_set **s);
size_t ws_set_mark(const struct ws_set *s);
/*
 * Search nodes all decisions of words from now on may take together (each
 * one also stops at WS_MAX_NODES); past them additions say WS_UNKNOWN.
 * Unlimited after ws_set_create().
 */
void ws_set_limit(struct ws_set *s, size_t nodes);
void ws_set_undo(struct ws_set *s, size_t mark);

/*
 * Conjoin a literal. WS_SAT: added, the set is still satisfiable;
 * WS_UNSAT: it would not be, nothing added; WS_UNKNOWN or WS_ENOMEM:
 * nothing added.
 */
int ws_set_add(struct ws_set *s, const struct ws_lit *l);

/* The current witness: one value per word, 0 for unconstrained words. */
void ws_set_witness(const struct ws_set *s, uint32_t out[WS_WORDS]);

/* A conjunction of at most two literals: what one 64-bit test needs. */
#define WS_CONJ_MAX 2
struct ws_conj {
	uint8_t n;
	struct ws_lit lit[WS_CONJ_MAX];
};

/* A disjunction of conjunctions; n == 0 is false. */
struct ws_clause {
	size_t n;
	const struct ws_conj *d;
};

/*
 * Is the set, conjoined with every clause, satisfiable? Depth-first over
 * the clauses' disjuncts, each branch pruned as soon as one word becomes
 * unsatisfiable. *budget is decremented per disjunct tried; at zero the
 * answer is WS_UNKNOWN. On WS_SAT, witness gets a model. The set is left
 * as it was.
 */
int ws_set_search(struct ws_set *s, const struct ws_clause *cl, size_t n,
		  size_t *budget, uint32_t witness[WS_WORDS]);

#endif
