/* SPDX-License-Identifier: MIT */
/*
 * Path exploration of a seccomp program without a solver, on the fragment
 * our code generator emits: loads of seccomp_data words, `and #k`, the
 * four conditional jumps against a constant, `ja`, and returns. In that
 * fragment the accumulator is always a constant or "word W & mask M", so
 * every branch condition is a literal `(W & M) op K` of wordsat.h, and the
 * path condition is a conjunction of literals that a ws_set decides
 * exactly. Only feasible branches are followed.
 *
 * Anything outside the fragment (the X register, scratch memory, other
 * ALU operations, `ret a` of a word) ends the exploration with
 * BPF_PATHS_OUTSIDE: the caller then uses the general symbolic evaluator
 * (bpf_symbolic.h).
 */
#ifndef POLC_BPF_PATHS_H
#define POLC_BPF_PATHS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#include "wordsat.h"

/* nr and arch: fixed values, or words left to the literals in the set. */
struct bpf_paths_in {
	int nr_fixed, arch_fixed;
	uint32_t nr, arch;
};

/*
 * Called for every feasible path with its result; `path` holds the path
 * condition (and whatever the caller put there first), its witness
 * satisfies it. The leaf may add literals and must undo them. Return 0 to
 * go on, anything else to stop the exploration, which returns that value.
 */
typedef int (*bpf_paths_leaf_fn)(struct ws_set *path, uint32_t ret, void *user);

#define BPF_PATHS_OUTSIDE (-3) /* an instruction outside the fragment */
#define BPF_PATHS_LIMIT	  (-4) /* more than max_paths paths */

/*
 * Explore prog (which passed bpf_check()) from its first instruction,
 * under the literals already in s. Returns 0 when every feasible path was
 * handed to leaf(), the first nonzero value a leaf returned,
 * BPF_PATHS_OUTSIDE, BPF_PATHS_LIMIT, WS_UNKNOWN (a word too hard to
 * decide) or WS_ENOMEM. s is left as it was.
 */
int bpf_paths_explore(const struct sock_filter *prog, size_t n,
		      const struct bpf_paths_in *in, struct ws_set *s,
		      size_t max_paths, bpf_paths_leaf_fn leaf, void *user);

#endif
