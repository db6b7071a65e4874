/* SPDX-License-Identifier: MIT */
/*
 * Symbolic evaluation of a seccomp classic-BPF program with Z3, for
 * translation validation.
 *
 * The inputs are Z3 bit-vectors: nr and arch (32 bits) and the instruction
 * pointer and six arguments (64 bits each); a load of a word of
 * seccomp_data is the matching 32-bit extract (x86_64 is little-endian:
 * the low word of args[i] is at offset 16 + 8i, the high word 4 further).
 * The program is acyclic (classic BPF only jumps forward), so every path
 * is finite: exploration is depth-first, path by path, and a branch is only
 * followed when the solver finds it feasible. Values that do not depend on
 * a symbolic input stay concrete, so the dispatch on a fixed nr and arch
 * costs no solver call.
 *
 * Z3 terms made through this context live as long as the context.
 */
#ifndef POLC_BPF_SYMBOLIC_H
#define POLC_BPF_SYMBOLIC_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <z3.h>

enum bpf_sym_status {
	BPF_SYM_UNKNOWN = -1, /* the solver gave up (timeout) or failed */
	BPF_SYM_UNSAT = 0,
	BPF_SYM_SAT = 1,
};

struct bpf_sym;

/* One path that reached a RET; the solver holds its path condition. */
struct bpf_sym_path {
	int ret_is_const;
	uint32_t ret;	 /* the returned value, when ret_is_const */
	Z3_ast ret_term; /* 32-bit term of the returned value, always set */
	uint16_t loaded; /* bit w: word w of seccomp_data read on the path */
	size_t executed; /* instructions on the path, the RET included */
};

/*
 * Called for every feasible path. Return 0 to go on, anything else to stop
 * the exploration, which then returns that value.
 */
typedef int (*bpf_sym_leaf_fn)(struct bpf_sym *s,
			       const struct bpf_sym_path *path, void *user);

/* timeout_ms bounds each solver call; a timeout is BPF_SYM_UNKNOWN. */
int bpf_sym_create(struct bpf_sym **out, unsigned int timeout_ms, char *err,
		   size_t errlen);
void bpf_sym_destroy(struct bpf_sym **s);

Z3_context bpf_sym_ctx(struct bpf_sym *s);
Z3_ast bpf_sym_arg(struct bpf_sym *s, unsigned int i); /* 64 bits */
Z3_ast bpf_sym_ip(struct bpf_sym *s);		       /* 64 bits */
Z3_ast bpf_sym_nr(struct bpf_sym *s);		       /* 32 bits */
Z3_ast bpf_sym_arch(struct bpf_sym *s);		       /* 32 bits */
Z3_ast bpf_sym_u32(struct bpf_sym *s, uint32_t v);
Z3_ast bpf_sym_u64(struct bpf_sym *s, uint64_t v);

/* Paths explored before bpf_sym_explore() gives up (default 1 << 16). */
void bpf_sym_set_max_paths(struct bpf_sym *s, size_t max);

/*
 * Explore prog with seccomp_data.nr = nr and .arch = arch (32-bit terms:
 * numerals or bpf_sym_nr()/bpf_sym_arch()), the other fields symbolic,
 * under the assumption `pre` (a Boolean, or NULL). Returns 0 when every
 * feasible path was handed to leaf(), the first nonzero value a leaf
 * returned, -1 with err on an invalid program or a solver failure, or
 * BPF_SYM_PATH_LIMIT with err after too many paths.
 */
int bpf_sym_explore(struct bpf_sym *s, const struct sock_filter *prog, size_t n,
		    Z3_ast nr, Z3_ast arch, Z3_ast pre, bpf_sym_leaf_fn leaf,
		    void *user, char *err, size_t errlen);

/* bpf_sym_explore() returns this when it reached the path limit. */
#define BPF_SYM_PATH_LIMIT (-2)

/*
 * The value prog returns, as one 32-bit term over the inputs (nr and arch
 * as for bpf_sym_explore()). The states of all paths that reach an
 * instruction are merged there, so the term grows with the program, not
 * with its number of paths: the way out when bpf_sym_explore() hits its
 * path limit. *loaded gets the words of seccomp_data the program may read.
 * Returns 0, or -1 with err.
 */
int bpf_sym_result(struct bpf_sym *s, const struct sock_filter *prog, size_t n,
		   Z3_ast nr, Z3_ast arch, Z3_ast *ret, uint16_t *loaded,
		   char *err, size_t errlen);

/*
 * From a leaf: is `cond` satisfiable on the current path? (Outside a
 * leaf: is it satisfiable at all?) On BPF_SYM_SAT and a non-NULL witness,
 * fills it (nr, arch, ip, args) from the model.
 */
int bpf_sym_check(struct bpf_sym *s, Z3_ast cond, struct seccomp_data *witness);

/* Why the last check returned BPF_SYM_UNKNOWN. */
const char *bpf_sym_reason(struct bpf_sym *s);

#endif
