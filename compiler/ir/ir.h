/* SPDX-License-Identifier: MIT */
/*
 * The IR: the normalized, canonical policy model.
 *
 * Everything downstream of the semantic pass (backends, prover, dump, the
 * artifact writer) reads this and nothing else. After ir_canonicalize() the
 * arrays are sorted and deduplicated, so two policies that mean the same
 * thing up to order, duplicates, set membership spelling (`in {a,b}` versus
 * two rules) and constant spelling serialize to identical bytes.
 *
 * Variables `${NAME}` are kept as text: polexec binds them at run time.
 */
#ifndef POLC_IR_H
#define POLC_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sections.h" /* POLBIN_LIMITS_GRACE_MS */

/*
 * 2: limits carry a require / best_effort mode.
 * 3: every default is written out (ir_canonicalize()): core and grace, the
 *    Landlock requirement of an fs section or port rules, the net mode of
 *    a policy without a net block.
 * 4: the box's view (fs kinds tmpfs, dev, proc; connect_unix; the fs
 *    mode) and the user.
 * 5: fs observe (destructive calls in the run record) and its workspace.
 * 6: the net block's egress backend (auto, cgroup, namespace; broker and
 *    the list `cgroup namespace` came later as new values of the same
 *    byte, which an older polc refuses: an artifact of version 6 written
 *    before them reads as it did).
 */
#define IR_VERSION 6

/* Hard limits, named so that hostile IR and policies are refused early. */
#define IR_MAX_ATOMS	8    /* atoms in one conjunction */
#define IR_MAX_RULES	4096 /* rules on one syscall after expansion */
#define IR_MAX_SYSCALLS 1024
#define IR_MAX_FS	1024
#define IR_MAX_NET	1024
#define IR_MAX_ENV	256
#define IR_MAX_STR	4096
#define IR_SYSCALL_NAME 40

/*
 * Actions, ordered from most restrictive to least. The numeric order is the
 * semantic order used by rule resolution, codegen and the prover alike.
 */
enum ir_action_kind {
	IR_ACT_KILL_PROCESS = 0,
	IR_ACT_KILL_THREAD = 1,
	IR_ACT_TRAP = 2,
	IR_ACT_ERRNO = 3,
	IR_ACT_LOG = 4,
	IR_ACT_ALLOW = 5,
};

struct ir_action {
	uint8_t kind;	 /* enum ir_action_kind */
	uint16_t errnum; /* for IR_ACT_ERRNO only, else 0; 0..4095 */
};

/* Comparison of one syscall argument, unsigned: (arg & mask) OP value. */
enum ir_op {
	IR_OP_EQ = 0,
	IR_OP_NE = 1,
	IR_OP_LT = 2,
	IR_OP_LE = 3,
	IR_OP_GT = 4,
	IR_OP_GE = 5,
};

struct ir_atom {
	uint8_t arg;   /* 0..5 */
	uint8_t width; /* 32: the kernel reads an int, high word ignored; 64 */
	uint8_t op;    /* enum ir_op */
	uint64_t mask; /* all ones for width when unmasked */
	uint64_t value;
};

/* A conjunction of atoms; natoms == 0 means "always". */
struct ir_rule {
	struct ir_action action;
	uint32_t natoms;
	struct ir_atom atoms[IR_MAX_ATOMS];
};

/*
 * One syscall's rules. Resolution (defined once, in ir_eval_syscall()): of
 * the rules whose conjunction holds, the most restrictive action wins; among
 * errno actions the smallest errno wins; if none holds, the default action.
 */
struct ir_syscall {
	char name[IR_SYSCALL_NAME];
	uint32_t nrules;
	struct ir_rule *rules;
};

struct ir_syscalls {
	int present; /* the policy has a syscalls block */
	struct ir_action def;
	struct ir_action badarch; /* i386, x32 and any foreign arch */
	uint32_t ncalls;
	struct ir_syscall *calls; /* sorted by name */
};

/* Landlock filesystem access rights, bit for bit as the kernel numbers them. */
enum ir_fs_right {
	IR_FS_EXECUTE = 1u << 0,
	IR_FS_WRITE_FILE = 1u << 1,
	IR_FS_READ_FILE = 1u << 2,
	IR_FS_READ_DIR = 1u << 3,
	IR_FS_REMOVE_DIR = 1u << 4,
	IR_FS_REMOVE_FILE = 1u << 5,
	IR_FS_MAKE_CHAR = 1u << 6,
	IR_FS_MAKE_DIR = 1u << 7,
	IR_FS_MAKE_REG = 1u << 8,
	IR_FS_MAKE_SOCK = 1u << 9,
	IR_FS_MAKE_FIFO = 1u << 10,
	IR_FS_MAKE_BLOCK = 1u << 11,
	IR_FS_MAKE_SYM = 1u << 12,
	IR_FS_REFER = 1u << 13,
	IR_FS_TRUNCATE = 1u << 14,
	IR_FS_IOCTL_DEV = 1u << 15,
	/* Landlock's RESOLVE_UNIX (ABI 8): connect to a pathname unix
	 * socket. Older kernels lack it; the view shows only sockets in
	 * granted paths (docs/VIEW.md). */
	IR_FS_CONNECT_UNIX = 1u << 16,
};
#define IR_FS_ALL 0x1ffffu

/* The groups of the language (docs/LANGUAGE.md): devices are in none.
 * Each lets the box use the sockets in what it grants. */
#define IR_FS_RO (IR_FS_READ_FILE | IR_FS_READ_DIR | IR_FS_CONNECT_UNIX)
#define IR_FS_RX (IR_FS_RO | IR_FS_EXECUTE)
#define IR_FS_RW                                                               \
	(IR_FS_RO | IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |  \
	 IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | IR_FS_MAKE_FIFO | \
	 IR_FS_MAKE_SYM | IR_FS_REFER | IR_FS_TRUNCATE)
#define IR_FS_RWX (IR_FS_RW | IR_FS_EXECUTE)

enum ir_fs_flag {
	IR_FS_FOLLOW = 1u << 0,	  /* symlinks in the path may be followed */
	IR_FS_OPTIONAL = 1u << 1, /* a missing path is skipped, not an error */
};

/*
 * What a path of the fs section is in the box (docs/VIEW.md). A grant is
 * the host's file or folder, bound at its own path; the others are the
 * box's own, over whatever the host has there, and their paths are
 * literal (no ~ or ${VAR}).
 */
enum ir_fs_kind {
	IR_FS_GRANT = 0, /* the host's, with rights */
	IR_FS_TMPFS = 1, /* an empty tmpfs of the box's: rights rw or rwx */
	IR_FS_DEV = 2,	 /* a minimal /dev: rights IR_FS_DEV_RIGHTS */
	IR_FS_PROC = 3,	 /* a procfs of the box's pid namespace: IR_FS_RO */
};
#define IR_FS_DEV_RIGHTS      (IR_FS_RW | IR_FS_IOCTL_DEV)
#define IR_TMPFS_DEFAULT_SIZE (256ull << 20)
#define IR_TMPFS_MAX_SIZE     (1ull << 40)

struct ir_fs_rule {
	char *path; /* absolute, normalized; may start with ${VAR} or ~ */
	uint32_t rights;
	uint32_t flags;
	uint8_t kind;  /* enum ir_fs_kind */
	uint64_t size; /* IR_FS_TMPFS: bytes; else 0 */
};

enum ir_landlock_mode {
	IR_LL_BEST_EFFORT = 0,
	IR_LL_REQUIRE = 1,
};

/* What the run record observes (fs `observe`, docs/OBSERVE.md): it
 * records, it never decides. */
enum ir_observe {
	IR_OBSERVE_DESTRUCTIVE = 1u << 0,   /* unlink, rename, truncate, ... */
	IR_OBSERVE_ARGV_REDACTED = 1u << 1, /* the record names no argv */
};
#define IR_OBSERVE_ALL 0x3u

/* What polexec does where the box's view cannot be had (docs/VIEW.md). */
enum ir_view_mode {
	IR_VIEW_REQUIRE = 0,	 /* refuse */
	IR_VIEW_BEST_EFFORT = 1, /* run with Landlock alone, degraded */
};

struct ir_fs {
	int present;
	uint32_t mode; /* enum ir_view_mode; 0 when !present */
	uint32_t nrules;
	struct ir_fs_rule *rules; /* sorted by path, one entry per path */
	uint32_t observe;	  /* enum ir_observe bits */
	/* The folder whose paths the record keeps in clear (./...), a
	 * normalized path; set exactly when observe has DESTRUCTIVE (default
	 * "${WORKSPACE}") */
	char *workspace;
};

/*
 * The Landlock layer and its requirement. present: the layer is on (a
 * `landlock` statement, an fs section, or `net host` port rules); the
 * requirement is then the statement's, or the default (IR_DEFAULT_LL_*),
 * written out by ir_canonicalize(). Without the layer, all zero.
 */
struct ir_landlock {
	int present;
	uint32_t abi_min; /* 1..64 when present */
	uint32_t mode;	  /* enum ir_landlock_mode */
};

enum ir_net_mode {
	IR_NET_NONE = 0,
	IR_NET_FILTERED = 1,
	IR_NET_HOST = 2,
};

/*
 * Which egress backend enforces `net none` and `net filtered`
 * (docs/EGRESS.md): auto, the cgroup eBPF programs where the caller may
 * attach them, else the network namespace; or one of them, forced. 0
 * (auto) in `net host` and without a net block.
 */
enum ir_net_backend {
	IR_NET_BACKEND_AUTO = 0,
	IR_NET_BACKEND_CGROUP = 1,
	IR_NET_BACKEND_NAMESPACE = 2,
	IR_NET_BACKEND_BROKER = 3, /* seccomp user notification */
	/* `backend cgroup namespace`: the cgroup programs, and where they
	 * cannot be had (or fail to install) the namespace */
	IR_NET_BACKEND_CGROUP_NAMESPACE = 4,
};

enum ir_addr_kind {
	IR_ADDR_V4 = 4,	  /* addr[0..3], prefix 0..32 */
	IR_ADDR_V6 = 6,	  /* addr[0..15], prefix 0..128 */
	IR_ADDR_NAME = 1, /* host name, resolved once at start by polexec */
	IR_ADDR_VAR = 2,  /* ${VAR}, bound at start by polexec */
};

enum ir_proto {
	IR_PROTO_TCP = 6,
	IR_PROTO_UDP = 17,
};

enum ir_net_verdict {
	IR_NET_DENY = 0,
	IR_NET_ALLOW = 1,
};

struct ir_net_entry {
	uint8_t verdict; /* enum ir_net_verdict; a deny always wins */
	uint8_t kind;	 /* enum ir_addr_kind */
	uint8_t prefix;
	uint8_t proto;	  /* enum ir_proto */
	uint8_t addr[16]; /* network byte order, host bits cleared */
	char *name;	  /* IR_ADDR_NAME / IR_ADDR_VAR, else NULL */
	uint16_t port_lo; /* 0..65535; the whole range means any port */
	uint16_t port_hi;
};

struct ir_port_range {
	uint16_t lo, hi;
};

/* Sorts and merges overlapping or adjacent ranges in place; the new
 * count (the nft and eBPF backends' sets of ports). */
size_t ir_port_ranges_merge(struct ir_port_range *r, size_t n);

struct ir_net {
	int present;	  /* the policy has a net block */
	uint32_t mode;	  /* enum ir_net_mode; without a block: IR_NET_HOST */
	uint32_t backend; /* enum ir_net_backend */
	uint32_t nentries;
	struct ir_net_entry *entries; /* filtered mode */
	uint32_t nloopback;
	struct ir_port_range *loopback; /* host loopback TCP ports reachable */
	uint32_t nconnect;
	struct ir_port_range *connect; /* host mode: Landlock TCP connect */
	uint32_t nbind;
	struct ir_port_range *bind; /* host mode: Landlock TCP bind */
};

enum ir_limit {
	IR_LIM_MEMORY = 0, /* bytes */
	IR_LIM_PIDS,	   /* count */
	IR_LIM_NOFILE,	   /* count */
	IR_LIM_CPU,	   /* milliseconds of CPU time */
	IR_LIM_WALL,	   /* milliseconds */
	IR_LIM_FSIZE,	   /* bytes */
	IR_LIM_CORE,	   /* bytes; IR_DEFAULT_CORE unless given */
	IR_LIM_GRACE,	   /* ms, SIGTERM/SIGXCPU to SIGKILL */
	IR_LIM_COUNT
};

/*
 * How polexec treats a limit it cannot enforce at full strength (memory or
 * pids without a cgroup): best_effort degrades with a warning and says so
 * in the run record; require refuses to run the command.
 */
enum ir_limits_mode {
	IR_LIMITS_BEST_EFFORT = 0,
	IR_LIMITS_REQUIRE = 1,
};

/*
 * The limits in force. After ir_canonicalize() core and grace are always
 * set (their defaults unless the policy gives them), with or without a
 * limits block; a limit whose bit is clear is unlimited.
 */
struct ir_limits {
	int present;   /* the policy has a limits block */
	uint32_t mode; /* enum ir_limits_mode; 0 when !present */
	uint32_t set;  /* bit i: limit i is in force */
	uint64_t value[IR_LIM_COUNT];
};

enum ir_env_kind {
	IR_ENV_PASS = 0,
	IR_ENV_SET = 1,
	IR_ENV_SECRET = 2,
};

struct ir_env_entry {
	uint8_t kind;
	char *name;
	char
	    *value; /* SET: value with ${VAR}; SECRET: source file; else NULL */
	char *dest; /* SECRET: path in the box; else NULL */
};

struct ir_env {
	int present;
	uint32_t nentries;
	struct ir_env_entry *entries; /* sorted by name, names unique */
};

/* `user UID[:GID]`: who the box runs as (names resolved by polc). */
struct ir_user {
	int present;
	uint32_t uid, gid; /* each below 2^32 - 1 */
};

struct ir_policy {
	char *name;
	struct ir_user user;
	struct ir_landlock landlock;
	struct ir_fs fs;
	struct ir_net net;
	struct ir_syscalls sys;
	struct ir_limits limits;
	struct ir_env env;
};

/*
 * The defaults of the language (docs/LANGUAGE.md), defined here and
 * nowhere else. The semantic pass starts from them (ir_policy_create(),
 * companions_add()) and ir_canonicalize() writes out those a canonical IR
 * always carries, so the backends, `polc dump` and the prover all read the
 * one effective value from the IR and none of them supplies its own.
 */
#define IR_DEFAULT_ACTION  IR_ACT_KILL_PROCESS /* `syscalls` without default */
#define IR_DEFAULT_BADARCH IR_ACT_KILL_PROCESS /* no `badarch` statement */
/* The syscalls layer the egress companions bring to a policy without one. */
#define IR_COMPANION_ACTION IR_ACT_ALLOW
#define IR_DEFAULT_CORE	    0u			   /* bytes: no core dumps */
#define IR_DEFAULT_GRACE_MS POLBIN_LIMITS_GRACE_MS /* SIGTERM to SIGKILL */
/* An fs section or port rules without a `landlock` statement. */
#define IR_DEFAULT_LL_MODE	IR_LL_REQUIRE
#define IR_DEFAULT_LL_ABI	1u
#define IR_DEFAULT_LL_ABI_PORTS 4u /* TCP ports came with ABI 4 */

/* Status codes shared by the IR functions. */
#define IR_OK	  0
#define IR_ENOMEM -1
#define IR_EINVAL -2

struct ir_policy *ir_policy_create(void);
void ir_policy_destroy(struct ir_policy **p);

/*
 * Sort, deduplicate and fold, and write out the defaults (above).
 * Idempotent. Returns IR_OK or IR_ENOMEM.
 */
int ir_canonicalize(struct ir_policy *p);

/*
 * Canonical byte encoding (little-endian TLV, see docs/ARTIFACT.md).
 * ir_serialize allocates *out; the caller frees it.
 * ir_deserialize treats buf as hostile; on error it fills err (may be NULL).
 */
int ir_serialize(const struct ir_policy *p, uint8_t **out, size_t *len);
int ir_deserialize(const uint8_t *buf, size_t len, struct ir_policy **out,
		   char *err, size_t errlen);

/* Comparison helpers for the canonical orders. */
int ir_action_cmp(const struct ir_action *a, const struct ir_action *b);
int ir_atom_cmp(const struct ir_atom *a, const struct ir_atom *b);
int ir_rule_cmp(const struct ir_rule *a, const struct ir_rule *b);

/*
 * ir_action_cmp()'s order as one number: kind << 16 | errno, smaller is
 * stricter.
 */
uint32_t ir_action_key(const struct ir_action *a);

/* Does the atom hold for the argument vector? (width truncation applied) */
int ir_atom_holds(const struct ir_atom *a, const uint64_t args[6]);

/*
 * The single definition of syscall rule resolution, used by the prover, the
 * translation validator and the tests. `sc` may be NULL (syscall not named).
 *
 * ir_explain_syscall() is its first half: the index in sc->rules of the rule
 * that decides (of the rules that hold, the first one with the most
 * restrictive action), or -1 when none holds and the default decides.
 * ir_eval_syscall() is that rule's action, or the default.
 */
int ir_explain_syscall(const struct ir_syscall *sc, const uint64_t args[6]);
struct ir_action ir_eval_syscall(const struct ir_syscalls *s,
				 const struct ir_syscall *sc,
				 const uint64_t args[6]);

const struct ir_syscall *ir_find_syscall(const struct ir_syscalls *s,
					 const char *name);

/*
 * The IR syscall for x86_64 number nr: the one named as the syscall table
 * names nr, or the one named by the number itself (how the IR keeps a
 * number no table names); NULL when the policy names neither.
 */
const struct ir_syscall *ir_syscall_for_nr(const struct ir_syscalls *s, int nr);

/*
 * The shapes of names, shared by the semantic pass (which produces them)
 * and the IR reader (which refuses anything the semantic pass could not
 * have produced, so a doctored artifact cannot smuggle escape sequences
 * into `polc dump`).
 */
int ir_is_identifier(const char *s); /* [A-Za-z_][A-Za-z0-9_]{0,127} */
int ir_is_hostname(const char *s);   /* lower-case DNS name, <= 253 */
int ir_is_variable(const char *s);   /* exactly ${IDENTIFIER} */
int ir_has_control(const char *s);   /* C0, DEL, C1, or not UTF-8 */
/* 1 when h reads as an IPv4 address in one of inet_aton's forms (127.1,
 * 2130706433, 0x7f.1), the address in a: no host name then. */
int ir_reads_as_ipv4(const char *h, uint8_t a[4]);
/* A normalized path: /, ~ or ${NAME} then "/component"..., no empty, "."
 * or ".." component, no trailing slash (but "/" itself), no control. */
int ir_is_path(const char *s);

/*
 * Does a rule's kind fit the rest of it? A grant: some rights, no size. A
 * tmpfs: rights rw or rwx, no flags, a size in 1..IR_TMPFS_MAX_SIZE. dev
 * and proc: their fixed rights, no flags, no size. The box's own mounts
 * sit on a literal absolute path other than /.
 */
int ir_fs_rule_ok(const struct ir_fs_rule *r);
/* "tmpfs", "dev", "proc", or NULL for a grant. */
const char *ir_fs_kind_name(uint8_t kind);

/* "ro", "rx", "rw" or "rwx" when rights are exactly that group, else NULL. */
const char *ir_fs_group_name(uint64_t rights);

/* "allow", "errno(EPERM)", ... into buf; returns buf. */
const char *ir_action_str(const struct ir_action *a, char *buf, size_t len);
const char *ir_op_str(uint8_t op);
const char *ir_limit_name(enum ir_limit l);

/* ---- The IR as policy text (ir_print.c: polc dump) ------------------ */

int ir_print(const struct ir_policy *p, FILE *out);
void ir_print_atom(FILE *out, const char *syscall, const struct ir_atom *a);
void ir_print_net_entry(FILE *out, const struct ir_net_entry *e);

#endif
