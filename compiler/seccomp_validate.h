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

#include "ir.h"

/* Milliseconds the solver may spend on one query; over it, we fail. */
#define SECCOMP_VALIDATE_TIMEOUT_MS 10000u

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

#endif
