/* SPDX-License-Identifier: MIT */
/*
 * Shared by the seccomp suites and bench/bpf_insns: IR policies written
 * by hand (the front end is not needed), a Docker-like profile, and
 * libseccomp's filter for an IR policy (the independent oracle).
 */
#ifndef POLC_SECCOMP_FIXTURES_H
#define POLC_SECCOMP_FIXTURES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#include "ir/ir.h"

static inline struct ir_action fx_act(uint8_t kind)
{
	return (struct ir_action){kind, 0};
}

static inline struct ir_action fx_errno(uint16_t e)
{
	return (struct ir_action){IR_ACT_ERRNO, e};
}

/* (arg & mask) OP value at `width`; mask 0 means "unmasked". */
static inline struct ir_atom fx_atom(uint8_t arg, uint8_t width, uint8_t op,
				     uint64_t mask, uint64_t value)
{
	uint64_t all = width == 32 ? 0xffffffffu : UINT64_MAX;

	return (struct ir_atom){arg, width, op, mask ? mask : all, value};
}

/* A policy with only a syscall section; NULL when out of memory. */
struct ir_policy *fx_policy(struct ir_action def, struct ir_action badarch);

/* Add a rule to syscall `name` (created if new). Returns 0 or -1. */
int fx_rule(struct ir_policy *p, const char *name, struct ir_action act,
	    uint32_t natoms, const struct ir_atom *atoms);

/* Sort the syscalls by name, as ir_canonicalize() leaves them. */
void fx_finish(struct ir_policy *p);

/*
 * A profile shaped like Docker's default: errno(EPERM) by default, about
 * 400 names allowed (those x86_64 lacks are skipped, as the front end
 * would refuse them), personality, clone and socket with Docker's argument
 * rules, clone3 errno(ENOSYS). *ntable and *nx86 (may be NULL) receive the
 * table's size and how many names exist on x86_64.
 */
struct ir_policy *fx_docker_policy(size_t *ntable, size_t *nx86);

/* fx_libseccomp_filter()'s modes. */
enum fx_mode {
	/* one libseccomp rule per IR rule with plain 64-bit comparisons,
	 * the way profiles are usually written for libseccomp (only for
	 * instruction counts: its meaning differs on int arguments with a
	 * dirty upper half) */
	FX_NATIVE = 0,
	/* the IR's meaning exactly (see the comment in seccomp_fixtures.c) */
	FX_FAITHFUL = 1,
	/* FX_FAITHFUL, but the syscalls whose action depends on arguments
	 * are left out (they get the default): those are compared through
	 * fx_libseccomp_syscall_filter(), one filter each */
	FX_CONSTANT = 2,
};

/*
 * libseccomp's filter for p, exported as raw BPF (SCMP_FLTATR_CTL_OPTIMIZE
 * = 2), in one of the modes above. Returns 0 or -1 with err.
 */
int fx_libseccomp_filter(const struct ir_policy *p, int mode,
			 struct sock_filter **prog, size_t *n, char *err,
			 size_t errlen);

/* Does sc's action depend on the arguments (a rule with a condition)? */
int fx_depends_on_args(const struct ir_syscall *sc);

/*
 * libseccomp's filter for syscall sc of p alone, faithful: exact on sc's
 * number (and on bad arches); every other number gets the filter's
 * default, which is chosen to keep the translation small (the action of
 * sc's largest region), so only sc's number is to be compared.
 */
int fx_libseccomp_syscall_filter(const struct ir_policy *p,
				 const struct ir_syscall *sc,
				 struct sock_filter **prog, size_t *n,
				 char *err, size_t errlen);

#endif
