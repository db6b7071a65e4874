/* SPDX-License-Identifier: MIT */
/* Internal to the prover (compiler/prove/). */
#ifndef POLC_PROVE_INT_H
#define POLC_PROVE_INT_H

#include "prove.h"

#include <stdarg.h>

struct ws_set;
struct bpf_sym;

/* Milliseconds Z3 may spend on one syscall; past them, undecided. */
#define PROVE_Z3_TIMEOUT_MS 10000u

/* One run of prove_boundary(). */
struct prover {
	const struct ir_policy *old, *nw;
	struct prove_result *res;
	char *err;
	size_t errlen;
	size_t budget;	     /* clause-search steps for each syscall */
	size_t left;	     /* of them, left for the current syscall */
	int no_z3;	     /* past the budget: undecided, no Z3 */
	int no_brute;	     /* past the budget: never enumerate values */
	int nested;	     /* NEW runs inside a box of OLD (prove.h) */
	struct ws_set *ws;   /* the word procedure's literal set */
	struct bpf_sym *sym; /* Z3, made when a syscall first needs it */
};

/* A growing string; oom set on the first failed allocation. */
struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};

void sb_printf(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Takes the string (NULL after oom); the buffer is empty afterwards. */
char *sb_take(struct sbuf *b);

/* Sets err and returns rc. */
int prove_fail(struct prover *pv, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Append a finding (note != 0: a note). Takes ownership of the strings in
 * f, which may be NULL after an allocation failure: then PROVE_ENOMEM.
 */
int prove_add(struct prover *pv, int note, struct prove_finding *f);
void prove_finding_free(struct prove_finding *f);

/* The Landlock rights as names, space-separated, into b. */
void prove_rights_str(struct sbuf *b, uint32_t rights);

/*
 * Z3 on one syscall at threshold t (prove_z3.c): 1 with args when some
 * vector has rank(NEW) >= t > rank(OLD), 0 when none has, or a status
 * (PROVE_UNDECIDED with err).
 */
int prove_z3_exceeds(struct prover *pv, const char *name,
		     const struct ir_syscall *nsc, const struct ir_syscall *osc,
		     uint8_t t, uint64_t args[6]);
void prove_z3_free(struct prover *pv);

/* The dimensions, in output order. Each returns PROVE_OK or a status. */
int prove_syscalls(struct prover *pv);
int prove_fs(struct prover *pv);
int prove_net(struct prover *pv);
int prove_limits(struct prover *pv);
int prove_env(struct prover *pv);
int prove_landlock(struct prover *pv);
int prove_user_dim(struct prover *pv);

#endif
