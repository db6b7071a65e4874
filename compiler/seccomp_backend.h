/* SPDX-License-Identifier: MIT */
/*
 * The seccomp backend: a classic-BPF program for AUDIT_ARCH_X86_64 from the
 * IR's syscall section. docs/SECCOMP.md describes the program's layout;
 * seccomp_validate() proves each program equal to the IR.
 */
#ifndef POLC_SECCOMP_BACKEND_H
#define POLC_SECCOMP_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#include "ir/ir.h"

/* Largest syscall number the dispatch looks at; anything above is x32 or
 * garbage and gets the bad-arch action. */
#define SECCOMP_X32_SYSCALL_BIT 0x40000000u

/*
 * Generate the program for p->sys. On success *prog (caller frees) holds
 * *ninsns <= POLBIN_SECCOMP_MAX_INSNS instructions and 0 is returned; on
 * failure -1 with a message in err.
 */
int seccomp_generate(const struct ir_policy *p, struct sock_filter **prog,
		     size_t *ninsns, char *err, size_t errlen);

/* The x86_64 number of a syscall name, or -1 when x86_64 has none. */
int seccomp_syscall_nr(const char *name);

/* The seccomp return value of an action. Returns 0, or -1 if invalid. */
int seccomp_action_value(const struct ir_action *a, uint32_t *ret);

#endif
