/* SPDX-License-Identifier: MIT */
/* Internal to the semantic pass (compiler/sema/). */
#ifndef POLC_SEMA_INT_H
#define POLC_SEMA_INT_H

#include "ast.h"
#include "diag.h"
#include "ir/ir.h"
#include "sema.h"

#include <stdint.h>

#define SEMA_MAX_EXPANSION 256	/* rules one statement may expand into */
#define SEMA_MAX_LL_PORTS  1024 /* Landlock port rules per direction */
#define SEMA_SECRET_SCAN   256	/* entries of a granted folder looked into */
#define SEMA_MAX_USE_DEPTH 8

/* A setting that may be given once, and where it was. */
struct once {
	int set;
	struct loc loc;
};

struct sys_rule_src {
	char name[IR_SYSCALL_NAME];
	struct ir_rule rule;
	struct loc loc;
};

struct fs_src {
	struct ir_fs_rule rule;
	struct loc loc;
	/* `unsafe` before the path: waives the dangerous-write error */
	int waived;
	struct loc waiver;
};

struct net_src {
	struct ir_net_entry e;
	struct loc loc;
};

struct env_src {
	struct ir_env_entry e;
	struct loc loc;
};

struct range_src {
	struct ir_port_range r;
	struct loc loc;
};

struct range_list {
	struct range_src *v;
	size_t n, cap;
};

struct sema {
	struct diag *d;
	const struct sema_opts *opts;
	struct ir_policy *p;
	/* files already used, by resolved path, and the current use stack */
	char **used;
	size_t nused, capused;
	int use_depth;
	int oom;

	struct once landlock, net_mode, sys_default, sys_badarch;
	struct once limit[IR_LIM_COUNT];
	struct once limits_mode; /* limits require|best_effort */
	struct once observe;	 /* fs: observe destructive */

	struct sys_rule_src *rules;
	size_t nrules, caprules;
	struct fs_src *fs;
	size_t nfs, capfs;
	struct net_src *net;
	size_t nnet, capnet;
	struct env_src *env;
	size_t nenv, capenv;
	struct range_list loopback, connect, bind;
};

/* Grows *v (of *cap elements of size) to hold n + 1. 0 or -1 (OOM noted). */
int sema_grow(struct sema *s, void **v, size_t *cap, size_t n, size_t size);

/* Reports a duplicate: error at `here`, note at `first`. */
void sema_dup(struct sema *s, struct loc here, struct loc first,
	      const char *what, const char *name);

/* Claims a set-once setting; on a second claim reports both places. */
int sema_once(struct sema *s, struct once *o, struct loc here,
	      const char *what);

/* Unknown-word report with "did you mean" over candidates. */
void sema_unknown(struct sema *s, const struct ast_word *w, const char *what,
		  const char *const *cands, size_t n);

/* Values. Each returns 0, or -1 after reporting at the word. */
int sema_number(struct sema *s, const struct ast_word *w, long long *out);
int sema_value(struct sema *s, const struct ast_value *v, uint64_t *out);
int sema_size(struct sema *s, const struct ast_word *w, uint64_t *bytes);
int sema_duration(struct sema *s, const struct ast_word *w, uint64_t *ms);
int sema_ports(struct sema *s, const struct ast_word *w, const char *text,
	       struct ir_port_range *r);
int sema_identifier(const char *name);
int sema_check_vars(struct sema *s, const struct ast_word *w, const char *text);

/* Sections. */
void sema_syscalls(struct sema *s, const struct ast_stmt *st);
void sema_fs(struct sema *s, const struct ast_stmt *st);
void sema_net(struct sema *s, const struct ast_stmt *st);
void sema_limits(struct sema *s, const struct ast_stmt *st);
void sema_env(struct sema *s, const struct ast_stmt *st);

/* Lints over the whole policy (docs/LANDLOCK.md). */
void sema_lint_fs(struct sema *s);
void sema_lint_net(struct sema *s);

/* Moves the collected rules into s->p. 0 or -1 (OOM). */
int sema_finish_syscalls(struct sema *s);
int sema_finish_fs(struct sema *s);
int sema_finish_net(struct sema *s);

#endif
