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

/* Every kept statement of a setting (struct once), with its value. */
struct claim {
	const struct once *o;
	struct loc loc;
	uint64_t val;
};

/*
 * A file of the policy: the policy itself (files[0]) or a fragment it
 * uses, directly or through others. Its statements are walked after
 * every file is loaded (sema.c), so composition knows who uses whom.
 */
struct sema_file {
	char *real; /* the resolved path; NULL for text given in memory */
	const struct src_file *src;
	struct ast_file *ast;
	const struct ast_stmt *body; /* the policy's or fragment's block */
	size_t nbody;
};

/* A statement the policy replaced (composition), reported at the end. */
struct replaced {
	struct loc by, at; /* the policy's statement; the replaced one */
	char *key;
	const char *thing; /* "rule", "grant", ... */
};

/* A `use`: files[from] uses files[to]. */
struct sema_edge {
	size_t from, to;
};

struct sys_rule_src {
	char name[IR_SYSCALL_NAME];
	struct ir_rule rule;
	struct loc loc;
	int dropped; /* a file that uses this one decides the syscall */
};

struct fs_src {
	struct ir_fs_rule rule;
	struct loc loc;
	/* `unsafe` before the path: waives the dangerous-write error */
	int waived;
	struct loc waiver;
	/* the same grant again, from another file: kept for composition */
	int restated;
};

struct net_src {
	struct ir_net_entry e;
	struct loc loc;
};

struct env_src {
	struct ir_env_entry e;
	struct loc loc;
	int restated; /* as fs_src */
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
	/* the files, in the order found; `use` edges; reach[i * nfiles + j]:
	 * files[i] uses files[j], directly or not */
	struct sema_file *files;
	size_t nfiles, capfiles;
	struct sema_edge *edges;
	size_t nedges, capedges;
	unsigned char *reach;
	int use_depth;
	int oom;
	struct claim *claims;
	size_t nclaims, capclaims;
	struct replaced *replaced;
	size_t nreplaced, capreplaced;

	struct once landlock, net_mode, sys_default, sys_badarch;
	struct once limit[IR_LIM_COUNT];
	struct once limits_mode; /* limits require|best_effort */
	struct once fs_mode, fs_dev, fs_proc, user;
	struct once observe;	  /* fs: observe destructive */
	struct once observe_argv; /* fs: observe argv redacted */

	struct sys_rule_src *rules;
	size_t nrules, caprules;
	struct fs_src *fs;
	size_t nfs, capfs;
	struct net_src *net;
	size_t nnet, capnet;
	struct env_src *env;
	size_t nenv, capenv;
	struct range_list loopback, connect, bind;
	/* walking a fragment (not the policy); the first rule of each net
	 * key in a fragment's mode-less `net { }`, checked against the
	 * policy's mode at the end (sema_net.c) */
	int in_fragment;
	struct once frag_net[5]; /* allow deny loopback connect bind */
};

/* Grows *v (of *cap elements of size) to hold n + 1. 0 or -1 (OOM noted). */
int sema_grow(struct sema *s, void **v, size_t *cap, size_t n, size_t size);

/* Reports a duplicate: error at `here`, note at `first`. */
void sema_dup(struct sema *s, struct loc here, struct loc first,
	      const char *what, const char *name);

/*
 * Composition (docs/LANGUAGE.md, "Composition: the using file decides").
 * A statement about a key (a syscall, a path, a variable, a setting) is
 * decided against each statement already kept about the same key: one
 * sema_compose_with() each, `same` when the two say the same thing. Then
 * sema_compose_end() returns what becomes of it, and reports a
 * replacement (the caller reports SEMA_DUP and SEMA_CONFLICT, in its own
 * words, at here and c->at).
 */
enum {
	SEMA_TAKE,     /* the first statement about the key: keep it */
	SEMA_SAME,     /* another file says the same: it merges */
	SEMA_DROP,     /* a file that uses this one decides the key */
	SEMA_DUP,      /* the same file says it twice: an error */
	SEMA_CONFLICT, /* files neither of which uses the other disagree */
};
struct compose {
	struct loc here, at; /* at: the statement the verdict is about */
	int verdict;
};
void sema_compose_begin(struct compose *c, struct loc here);
void sema_compose_with(const struct sema *s, struct compose *c, struct loc kept,
		       int same);
int sema_compose_end(struct sema *s, const struct compose *c, const char *key,
		     const char *thing);

/* files[i] uses files[j], directly or not, and files[j] does not use
 * files[i]: files[i] decides over files[j]. */
int sema_above(const struct sema *s, size_t i, size_t j);

/* Does file a decide over file b (sema_above())? */
int sema_decides(const struct sema *s, const struct src_file *a,
		 const struct src_file *b);

/* Source order: by file (the order they were loaded), line, column. */
int sema_loc_cmp(struct loc a, struct loc b);

/* The policy's own file. */
const struct src_file *sema_main(const struct sema *s);

/* The policy's statement at `by` replaces the `thing` at `at` about
 * `key`. Reported by sema_report_replaced(), once for the whole policy:
 * one note per statement of the policy, then each place it replaces. */
void sema_replaced(struct sema *s, struct loc by, struct loc at,
		   const char *key, const char *thing);
void sema_report_replaced(struct sema *s);

/* The note at the other of two places; when the two are in different
 * files, with how the policy settles it. */
void sema_other(struct sema *s, struct loc here, struct loc other,
		const char *what);

/*
 * Claims a set-once setting with its value: SEMA_TAKE (apply it),
 * SEMA_SAME (the same value again, from another file), SEMA_DROP (a file
 * that uses this one sets it), or -1 after reporting both places.
 */
int sema_once(struct sema *s, struct once *o, struct loc here, const char *what,
	      uint64_t val);

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
