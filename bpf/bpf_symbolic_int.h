/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the two symbolic evaluators: path by path
 * (bpf_symbolic.c) and merged (bpf_symbolic_merge.c). Not for other users.
 */
#ifndef POLC_BPF_SYMBOLIC_INT_H
#define POLC_BPF_SYMBOLIC_INT_H

#include "bpf_symbolic.h"

/* A 32-bit value: a constant when k, else the term t. */
struct val {
	int k;
	uint32_t c;
	Z3_ast t;
};

/* The machine state: accumulator, index register, scratch memory. */
struct st {
	struct val a, x, mem[BPF_MEMWORDS];
	uint16_t loaded;
	size_t executed;
};

struct bpf_sym {
	Z3_context ctx;
	Z3_solver solver;
	Z3_sort bv32, bv64;
	Z3_ast args[6], ip, nr, arch;
	size_t max_paths, paths;
	char reason[160];
	/* The evaluation in progress. */
	const struct sock_filter *prog;
	size_t n;
	Z3_ast cur_nr, cur_arch;
	bpf_sym_leaf_fn leaf;
	void *user;
	char *err;
	size_t errlen;
};

int bsym_fail(struct bpf_sym *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
Z3_ast bsym_term(struct bpf_sym *s, struct val v);
struct val bsym_const(uint32_t c);
/* The word of seccomp_data at off, with s->cur_nr and s->cur_arch. */
struct val bsym_load(struct bpf_sym *s, uint32_t off);
void bsym_load_store(struct bpf_sym *s, struct st *st,
		     const struct sock_filter *f);
/* Is cond satisfiable with what the solver holds? BPF_SYM_*. */
int bsym_check(struct bpf_sym *s, Z3_ast cond);
Z3_ast bsym_alu_term(struct bpf_sym *s, unsigned int op, Z3_ast a, Z3_ast b);
uint32_t bsym_alu_const(unsigned int op, uint32_t a, uint32_t b);
/* 0/1 when both sides are constant, else -1 with the condition in *cond. */
int bsym_cond(struct bpf_sym *s, unsigned int op, struct val a, struct val b,
	      Z3_ast *cond);

#endif
