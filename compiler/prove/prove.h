/* SPDX-License-Identifier: MIT */
/*
 * The prover: does NEW allow anything that OLD (the boundary) does not?
 *
 * It reads two IRs and nothing else, and decides every dimension exactly:
 * syscalls (every x86_64 number and argument vector, the bad-arch action,
 * the presence of the filter), filesystem (every path and right, variables
 * symbolic, `follow`), network (mode, every address, port,
 * protocol, name and loopback port), limits, environment and the Landlock
 * requirement. docs/PROVER.md is the contract: the semantics decided, the
 * order of actions, how each dimension is decided, the output formats.
 *
 * Every finding carries a concrete witness that was re-evaluated against
 * both policies with the concrete evaluators below (prove_sys_action,
 * prove_fs_rights, prove_net_allows, ...), which share no code with the
 * deciding procedures. A witness that does not re-check is an internal
 * error, never a finding.
 */
#ifndef POLC_PROVE_H
#define POLC_PROVE_H

#include "diag.h"
#include "ir/ir.h"
#include "sema/sema.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Status codes. */
#define PROVE_OK	0
#define PROVE_ENOMEM	(-1)
#define PROVE_EINVAL	(-2) /* bad input: a policy or artifact error */
#define PROVE_UNDECIDED (-3) /* the search budget ran out: no verdict */
#define PROVE_EINTERNAL (-4) /* a witness did not re-check: a prover bug */

enum prove_dim {
	PROVE_DIM_SYSCALLS = 0,
	PROVE_DIM_FS,
	PROVE_DIM_NET,
	PROVE_DIM_LIMITS,
	PROVE_DIM_ENV,
	PROVE_DIM_LANDLOCK,
	PROVE_DIM_USER,
	PROVE_DIM_COUNT
};

/* Which of the machine-readable witnesses of a finding is filled. */
enum prove_point_kind {
	PROVE_PT_NONE = 0, /* limits, env, landlock: the text says it all */
	PROVE_PT_SYS,
	PROVE_PT_FS,
	PROVE_PT_NET,
};

/* One call: arch (AUDIT_ARCH_*), syscall number, six arguments. */
struct prove_sys_point {
	uint32_t arch;
	uint32_t nr;
	uint64_t args[6];
};

/*
 * A path as the policies spell it (may start with ~ or ${VAR}), the rights
 * NEW grants there and OLD does not. With `symlink` set, the world is the
 * one where `path` is a symlink to a fresh folder and the rights are those
 * on that folder (prove_fs_target()). Variables and ~ are bound to fresh
 * folders outside every rule path (struct prove_fs_world).
 */
struct prove_fs_point {
	char *path;
	uint32_t rights;
	int symlink;
	uint8_t own;	   /* a mount of NEW's own (its kind) is the finding */
	char *var, *under; /* the world binds var inside under, else NULL */
	int at;		   /* ... or to under itself */
	int noview;	   /* the world without the view (fs best_effort) */
	char *target;	   /* the symlink's target, if not the fresh one */
};

enum prove_net_kind {
	PROVE_NET_ADDR =
	    0, /* connect to addr:port/proto, `name` resolving there */
	PROVE_NET_LOOPBACK, /* the host's 127.0.0.1:port/tcp */
	PROVE_NET_BIND,	    /* bind port/tcp on the host's network */
	PROVE_NET_HOSTNET,  /* the host's network itself (inbound, any proto) */
	PROVE_NET_SHARED,   /* the host's network namespace, which the box
			       stays in under the cgroup backend */
};

/*
 * A destination. For PROVE_NET_ADDR, `name` (a host name or ${VAR}, may
 * be NULL) is the one name bound to addr; every other name and variable
 * of both policies resolves elsewhere.
 */
struct prove_net_point {
	uint8_t kind;	/* enum prove_net_kind */
	uint8_t family; /* IR_ADDR_V4 or IR_ADDR_V6 */
	uint8_t proto;	/* IR_PROTO_TCP or IR_PROTO_UDP */
	uint8_t addr[16];
	uint16_t port;
	char *name;
};

struct prove_finding {
	enum prove_dim dim;
	char *witness; /* "ptrace(request=0x10, pid=0x0)" */
	char *new_s;   /* what NEW does there: "allow" */
	char *old_s;   /* what the boundary does there: "errno(EPERM)" */
	char *why;     /* notes only: why this difference is not a finding */
	uint8_t kind;  /* enum prove_point_kind */
	struct prove_sys_point sys;
	struct prove_fs_point fs;
	struct prove_net_point net;
};

struct prove_result {
	int exceeds; /* n > 0 */
	size_t n;
	struct prove_finding *f; /* grouped by dimension, in enum order */
	size_t nnotes;
	struct prove_finding *notes; /* differences that are not findings */
	char fresh[64]; /* the fresh first component of fs witnesses */
	/* How the syscalls were decided, for tests and benchmarks: the
	 * syscalls whose clause search ran past its budget, and the Z3
	 * queries asked for them (one per threshold). */
	size_t z3_syscalls, z3_queries;
	/* Of the syscalls past the budget, those decided by enumerating the
	 * values their rules name (docs/PROVER.md, "Budget, then ..."). */
	size_t brute_syscalls;
};

struct prove_opts {
	/*
	 * Clause-search steps per syscall (0: PROVE_DEFAULT_BUDGET). Past
	 * them the syscall goes to Z3, or with no_z3 is undecided.
	 */
	size_t budget;
	int no_z3;
	/* Past the budget, never enumerate the rules' values (Z3 decides:
	 * a test knob). */
	int no_brute;
	/*
	 * NEW runs inside a box of OLD (`polc check --nested`: a harness's
	 * commands in a box inside the harness's, docs/AGENTS.md recipe C).
	 * What nesting decides is not compared: the limits (OLD's cgroup
	 * and rlimits hold over every process inside), the environment (NEW's
	 * is made from its caller's, inside OLD: nothing OLD withholds is
	 * there to pass), and NEW's `fs best_effort` where OLD requires its
	 * view (NEW's degraded world is the host's tree as OLD's view shows
	 * it). Everything else is compared as for two boxes side by side.
	 */
	int nested;
};

#define PROVE_DEFAULT_BUDGET ((size_t)1 << 16)

/*
 * Decide whether `nw` is within `old`. Returns PROVE_OK with *res filled
 * (res->exceeds says the verdict), or a negative status with err set (then
 * *res is empty). PROVE_UNDECIDED is never a verdict.
 */
int prove_boundary(const struct ir_policy *old, const struct ir_policy *nw,
		   const struct prove_opts *o, struct prove_result *res,
		   char *err, size_t errlen);
void prove_result_free(struct prove_result *r);

const char *prove_dim_name(enum prove_dim d);

/*
 * `polc check` output: one finding per line, grouped by dimension, then
 * the notes, then "verdict: within|exceeds (N findings)". JSON: see
 * docs/PROVER.md. Strings are cleaned of control characters (text) or
 * escaped (JSON). Return 0, or -1 on a write error.
 */
int prove_print_text(const struct prove_result *r, FILE *out);
int prove_print_json(const struct prove_result *r, FILE *out);
/* `polc diff`: what NEW adds (+) and removes (-), per dimension. */
int prove_print_diff(const struct prove_result *added,
		     const struct prove_result *removed, FILE *out);

/*
 * Load one side: a .polbin (recognized by its magic) through its IR
 * section after re-validating that every compiled section is exactly what
 * the backends make of that IR, or a .pol through the semantic pass (its
 * diagnostics land in d) and every check `polc build` makes after it, so
 * what build refuses is refused here with build's message. Returns
 * PROVE_OK, PROVE_EINVAL, PROVE_ENOMEM or PROVE_EINTERNAL (a compiler bug
 * caught by translation validation).
 */
int prove_load(struct diag *d, const char *path, const struct sema_opts *so,
	       struct ir_policy **out, char *err, size_t errlen);
int prove_load_artifact(const uint8_t *buf, size_t len, struct ir_policy **out,
			char *err, size_t errlen);

/* ---- The concrete evaluators witnesses are re-checked with ---------- */

/* The action for one call; a policy without a syscalls block allows all. */
struct ir_action prove_sys_action(const struct ir_policy *p,
				  const struct prove_sys_point *pt);

/*
 * A filesystem world: ${VAR} is bound to /FRESH/var/VAR, ~ (which polexec
 * binds as ${HOME}) to /FRESH/var/HOME,
 * and `symlink` (a path in policy spelling, or NULL) is a symlink to
 * /FRESH/target. FRESH is a first component no rule of either policy has.
 */
struct prove_fs_world {
	const char *fresh;
	const char *symlink;
	/*
	 * var (a variable's name, HOME for ~) bound to a fresh folder inside
	 * the literal folder `under` (`at`: to `under` itself) instead of a
	 * fresh one of its own; NULL: every variable fresh.
	 */
	const char *var, *under;
	int at;
	/* The box runs without its view: `fs best_effort` where the view
	 * cannot be had (Landlock alone, the host's tree). */
	int noview;
	/* The symlink's target, when not prove_fs_target()'s. */
	const char *target;
};

/* "/FRESH/target" into buf; returns buf. */
const char *prove_fs_target(const char *fresh, char *buf, size_t len);

/*
 * The Landlock rights granted at `path` (policy spelling, bound in w): the
 * rights the policy does not handle, plus those of every rule installed
 * in w whose folder is `path` or holds it. IR_FS_ALL without an fs block.
 * Returns IR_FS_ALL + 1 when out of memory.
 */
uint32_t prove_fs_rights(const struct ir_policy *p,
			 const struct prove_fs_world *w, const char *path);

/* Does the policy let the box reach d? 1 yes, 0 no. */
int prove_net_allows(const struct ir_policy *p,
		     const struct prove_net_point *d);

/*
 * A world with a kernel of Landlock ABI `abi` (0: no Landlock). Does p run
 * there (a `require` below its minimum refuses)? Does it scope signals
 * and abstract unix sockets there?
 */
int prove_ll_runs(const struct ir_policy *p, uint32_t abi);
int prove_ll_scoped(const struct ir_policy *p, uint32_t abi);

/* The rights the Landlock ruleset of p handles (denies unless granted). */
uint32_t prove_fs_handled(const struct ir_policy *p);

/*
 * The box's own mount at the literal path `path` in world w (its kind,
 * IR_FS_GRANT when the path is the host's or not in the view), with its
 * rights and size.
 */
uint8_t prove_fs_own(const struct ir_policy *p, const struct prove_fs_world *w,
		     const char *path, uint32_t *rights, uint64_t *size);

/* Who the box runs as: "uid:gid", or "the caller" (a static string). */
const char *prove_user(const struct ir_policy *p, char *buf, size_t len);

#endif
