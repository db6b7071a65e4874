/* SPDX-License-Identifier: MIT */
/*
 * IR rules as Z3 terms over the symbolic arguments of bpf/bpf_symbolic.h.
 * Shared by the translation validator's Z3 route (seccomp_validate.c) and
 * the prover's (prove_z3.c). The fold mirrors ir_eval_syscall(), and an
 * atom means what ir_atom_holds() says: `(arg & mask) op value`,
 * unsigned, on the low word alone at width 32.
 */
#ifndef POLC_IR_Z3_H
#define POLC_IR_Z3_H

#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "ir/ir.h"

struct bpf_sym;

/* The key ir_z3_best_key() gives when no rule holds. */
#define IR_Z3_NO_KEY 0xffffffffu

/*
 * The smallest ir_action_key() among the rules of sc (NULL: none) that
 * hold, else IR_Z3_NO_KEY, as a 32-bit term.
 */
Z3_ast ir_z3_best_key(struct bpf_sym *s, const struct ir_syscall *sc);

#endif
