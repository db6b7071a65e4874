/* SPDX-License-Identifier: MIT */
/*
 * The semantic pass: source files to IR. It is the only reader of the
 * syntax tree. It loads `use`d fragments through the search path, checks
 * every name, value and rule, reports duplicates and conflicts with both
 * places, and returns a canonical IR (docs/LANGUAGE.md is its contract).
 */
#ifndef POLC_SEMA_H
#define POLC_SEMA_H

#include "diag.h"
#include "ir/ir.h"

#include <stddef.h>

struct sema_opts {
	const char *const *search; /* fragment folders, in order */
	size_t nsearch;
};

/*
 * Compiles the policy at `path`. Returns 0 with *out set, or -1 with errors
 * in d (then *out is NULL). Warnings may be recorded either way.
 */
int sema_compile(struct diag *d, const char *path, const struct sema_opts *o,
		 struct ir_policy **out);

/* As above, from text in memory (tests, fuzzing). */
int sema_compile_text(struct diag *d, const char *name, const char *text,
		      size_t len, const struct sema_opts *o,
		      struct ir_policy **out);

/* ---- The egress companions (companions.c) --------------------------- */

/*
 * The egress companions: syscall rules every compiled policy carries, in
 * every net mode, so that no box opens a path to the network the net
 * layer cannot see (docs/LANGUAGE.md, "Egress companions"):
 *
 *   errno(EACCES) socket if family == AF_PACKET
 *   errno(EACCES) socket if family == AF_INET && type & 0xf == SOCK_RAW
 *   errno(EACCES) socket if family == AF_INET6 && type & 0xf == SOCK_RAW
 *   errno(EACCES) socket if family == AF_NETLINK && protocol != 0
 *   errno(EACCES) io_uring_setup io_uring_enter io_uring_register
 *
 * They are ordinary IR rules: rule resolution (ir_eval_syscall) gives
 * them their place, so a user kill, trap or smaller errno still wins and
 * a user allow or log does not. The semantic pass adds them
 * (sema_syscalls.c); the tests add them to hand-built IR the same way.
 */
struct companion {
	const char *name; /* the syscall */
	const char *text; /* the rule as a policy would spell it */
	struct ir_rule rule;
	/* 1: only where the box has a network of its own (net none, net
	 * filtered), which a socket of another family would step out of */
	int own_net;
};

/* Whether companion c is one of p's: every policy has those without
 * own_net; net none and net filtered have the others too. */
int companion_applies(const struct companion *c, const struct ir_policy *p);

/* The table, and its length. */
extern const struct companion companions[];
extern const size_t ncompanions;

/*
 * Appends every companion that applies to p (companion_applies(): p's net
 * mode must be set) to p->sys (marking it present; a policy without
 * a syscalls block gets default allow and badarch kill_process). Call it
 * before ir_canonicalize(). IR_OK, IR_ENOMEM, or IR_EINVAL when a limit
 * (IR_MAX_SYSCALLS, IR_MAX_RULES) would be passed; p is unchanged then.
 */
int companions_add(struct ir_policy *p);

#endif
