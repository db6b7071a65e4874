/* SPDX-License-Identifier: MIT */
/*
 * Translation validation of the seccomp program: prove that the program
 * returns, for every arch, syscall number and argument vector, the action
 * the IR gives (ir_eval_syscall() for x86_64 numbers, the bad-arch action
 * for x32 numbers and foreign arches). docs/SECCOMP.md says what is proven
 * and how.
 */
#ifndef POLC_SECCOMP_VALIDATE_H
#define POLC_SECCOMP_VALIDATE_H

#include <stddef.h>
#include <linux/filter.h>

#include "ir/ir.h"

/* Milliseconds the solver may spend on one query; over it, we fail. */
#define SECCOMP_VALIDATE_TIMEOUT_MS 10000u

/*
 * How a validation went. A "part" is one syscall number whose program
 * path reads an argument or whose rules test one, or one of the five
 * ranges proven with nr (and arch) free: numbers above the table, x32
 * numbers, i386, aarch64, any arch but x86_64. Parts are decided by the
 * exact word procedure (bpf/wordsat.h) unless the program leaves its
 * fragment or a budget runs out; then Z3 decides them. The Z3 context is
 * only created for the first such part.
 */
struct seccomp_validate_stats {
	unsigned int concrete;	     /* numbers settled by one concrete run */
	unsigned int exact_syscalls; /* numbers decided without Z3 */
	unsigned int z3_syscalls;    /* numbers that needed Z3 */
	unsigned int exact_ranges;   /* ranges decided without Z3 */
	unsigned int z3_ranges;	     /* ranges that needed Z3 */
};

/* Flags of seccomp_validate_stats(). */
#define SECCOMP_VALIDATE_FORCE_Z3 1u /* every part through Z3 (tests) */

/*
 * Returns 0 when the program is proven equal to the policy; 1 on a
 * mismatch, with err naming the syscall, a witness argument vector and both
 * actions, e.g.
 *   socket(arg0=0x10000002a, arg1=0x0, ...): program allow, policy errno(EPERM)
 * and -1 on an internal error or when the solver cannot decide (a timeout
 * is a failure, never a pass).
 */
int seccomp_validate(const struct ir_policy *p, const struct sock_filter *prog,
		     size_t n, char *err, size_t errlen);

/*
 * The same, with flags (SECCOMP_VALIDATE_*) and, when st is not NULL, how
 * each part was decided (filled as far as the validation got).
 */
int seccomp_validate_stats(const struct ir_policy *p,
			   const struct sock_filter *prog, size_t n,
			   unsigned int flags,
			   struct seccomp_validate_stats *st, char *err,
			   size_t errlen);

#endif
