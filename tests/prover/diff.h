/* SPDX-License-Identifier: MIT */
/*
 * The differential test of `polc check --boundary` (test_prove_diff.c):
 * random policy text (diff_gen.c), and the compiled artifact as polexec
 * reads it, with a small model of each layer's enforcement (diff_model.c).
 *
 * Nothing here includes compiler/prove/ or compiler/logic/: the model is
 * written from artifact/sections.h and the kernel's semantics, so that a
 * mistake the prover and its evaluators share cannot hide from it.
 */
#ifndef POLC_TEST_DIFF_H
#define POLC_TEST_DIFF_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>

#include "polbin.h"

/* ---- Random policies (diff_gen.c) ------------------------------------- */

/*
 * Two generators drawn from the same seed write the same policy. With
 * `mutate` set, about one choice in `rate` comes from a second stream, so
 * a mutated policy is a near miss of the plain one. With `mutate` 2, only
 * the rights of the innermost grant of the fs frame (a grant, an own
 * mount in it, a grant in that) are redrawn, the rest is the plain
 * policy: a pair that differs there alone.
 */
struct dgen {
	uint64_t r1, r2;
	int mutate;
	unsigned rate;
	int in_frame;
	int frame; /* always write the fs frame, its inner grant too */
};

void dgen_init(struct dgen *g, uint64_t seed, int mutate);
/* A policy into buf (NUL-terminated). 0, or -1 when it does not fit. */
int dgen_policy(struct dgen *g, char *buf, size_t len);
uint64_t dgen_next(uint64_t *s);

/* ---- The artifact, decoded as polexec decodes it (diff_model.c) ------- */

#define DM_MAX_FS    64
#define DM_MAX_PORTS 64
#define DM_MAX_LOOP  64
#define DM_MAX_RT    64
#define DM_MAX_SETS  80
#define DM_MAX_ELEMS 4096
#define DM_MAX_RULES 160
#define DM_MAX_EXPRS 16
#define DM_MAX_ENV   64
#define DM_PATH	     256
#define DM_NAME	     256

struct dm_fs_rule {
	uint64_t access;
	uint32_t flags;
	char path[DM_PATH];
};

struct dm_port_range {
	uint32_t access;
	uint16_t lo, hi;
};

struct dm_runtime {
	uint8_t kind, proto;
	uint16_t lo, hi;
	char name[DM_NAME];
};

struct dm_elem {
	uint8_t key[24], end[24];
};

struct dm_set {
	char name[32];
	uint32_t flags, key_len, nfields, field[4];
	uint32_t nelems;
	struct dm_elem *elems;
};

/* One nft expression, its attributes as the kernel takes them. */
struct dm_expr {
	char name[16];
	uint32_t a[8]; /* by kind: see diff_model.c */
	uint8_t data[16], data2[16];
	uint32_t dlen, d2len;
	int32_t verdict;
	char str[32]; /* lookup set, goto chain */
};

struct dm_rule {
	char chain[16];
	uint32_t nexprs;
	struct dm_expr x[DM_MAX_EXPRS];
};

/* One VIEW entry (artifact/sections.h). */
struct dm_view_entry {
	uint8_t kind, attrs;
	uint32_t rule;
	uint64_t size, access;
	char path[DM_PATH]; /* not BIND */
};

struct dm_env {
	uint8_t kind;
	char name[DM_NAME], value[DM_NAME], dest[DM_NAME];
};

struct dart {
	struct polbin pb;
	/* SECCOMP: NULL when there is no filter (every call allowed) */
	const struct sock_filter *prog;
	size_t ninsns;
	/* LANDLOCK */
	int ll_on;
	uint32_t ll_abi, ll_mode;
	uint64_t handled_fs, handled_net, scoped;
	uint32_t nfs, nports;
	struct dm_fs_rule fs[DM_MAX_FS];
	struct dm_port_range ports[DM_MAX_PORTS];
	/* NET and NFT: net_mode -1 without a NET section (the host's) */
	int net_mode;
	int ebpf; /* an EBPF section: polexec may take the cgroup backend */
	uint32_t nloop, nrt;
	struct dm_port_range loop[DM_MAX_LOOP];
	struct dm_runtime rt[DM_MAX_RT];
	uint32_t nsets, nrules;
	struct dm_set sets[DM_MAX_SETS];
	struct dm_rule rules[DM_MAX_RULES];
	int output_policy_drop, blocked_accepts;
	/* VIEW: the box's own root (view_root), its entries; the user */
	int view_root, view_best_effort, user;
	uint32_t uid, gid, nview;
	struct dm_view_entry view[DM_MAX_FS + 8];
	/* LIMITS */
	uint32_t lim_flags, lim_set;
	uint64_t lim[8];
	/* ENV */
	uint32_t nenv;
	struct dm_env env[DM_MAX_ENV];
};

/* Decode every section; 0, or -1 with err. */
int dart_load(struct dart *a, const uint8_t *buf, size_t len, char *err,
	      size_t errlen);
void dart_free(struct dart *a);

/* Permissiveness of a seccomp return value: 0 kill_process .. 5 allow. */
int dm_sys_rank(const struct dart *a, const struct seccomp_data *d);

/*
 * A filesystem world: variables (and ~, as HOME) bound to literal folders,
 * and at most one symlink: `symlink` (a literal path) pointing at
 * `target`.
 */
struct dm_world {
	const char *var[8], *val[8];
	unsigned nvars;
	const char *symlink, *target;
	int noview; /* fs best_effort where the view cannot be had */
};

/* The rule's path bound in w (NULL when a variable is not bound). */
int dm_bind(const struct dm_world *w, const char *path, char *out, size_t len);
/*
 * The rights on the host's data at literal location loc in w: Landlock's,
 * and with a view the mounts' (what the view does not show: none).
 */
uint32_t dm_fs_rights(const struct dart *a, const struct dm_world *w,
		      const char *loc);
/* Does polexec refuse to build the view in w (a bind where a mount of the
 * box's own is, or inside its procfs)? */
int dm_view_refuses(const struct dart *a, const struct dm_world *w);
/*
 * The box's own mount at literal path p: its VIEW kind (0: none), size,
 * and the rights it has (what its Landlock rule has, and what the
 * ruleset leaves free).
 */
int dm_own_at(const struct dart *a, const char *p, uint64_t *size,
	      uint32_t *rights);

enum dm_net_kind {
	DM_NET_ADDR,
	DM_NET_LOOPBACK,
	DM_NET_BIND,
	DM_NET_HOSTNET,
	DM_NET_SHARED, /* the host's namespace, under the cgroup backend */
};

struct dm_net_point {
	int kind;
	int family; /* 4 or 6 */
	uint8_t proto;
	uint8_t addr[16];
	uint16_t port;
	const char *names[8]; /* the names (and ${VAR}s) bound to addr */
	unsigned nnames;
};

/* Does the box reach p? 1 or 0 (-1: the model met what it cannot read). */
int dm_net_reaches(const struct dart *a, const struct dm_net_point *p);

/* Ceilings of what the box may use (docs/PROVER.md, Limits). */
enum dm_ceiling {
	DM_C_MEMORY,
	DM_C_PIDS,
	DM_C_NOFILE,
	DM_C_CPU,
	DM_C_TIME,
	DM_C_FSIZE,
	DM_C_CORE,
	DM_C_COUNT
};
/* 1 with *v, or 0: unlimited. */
int dm_ceiling(const struct dart *a, int c, uint64_t *v);
/* limits require, and capping limit i (0 memory, 1 pids) */
int dm_limits_require(const struct dart *a);
int dm_limit_set(const struct dart *a, unsigned i);

/* Does the box get exactly entry e (of another artifact)? */
int dm_env_gives(const struct dart *a, const struct dm_env *e);

/* A kernel of Landlock ABI k (0: none): does the artifact run, scoped? */
int dm_ll_runs(const struct dart *a, uint32_t k);
int dm_ll_scoped(const struct dart *a, uint32_t k);

#endif
