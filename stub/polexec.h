/* SPDX-License-Identifier: MIT */
/*
 * polexec: the static exec stub. It decodes a .polbin, validates it as
 * hostile input, installs what it describes and execs the command. It makes
 * no policy decision: everything it enforces was decided by polc.
 *
 * The pieces, in the order main() runs them:
 *
 *   artifact.c  read the file, polbin_parse, decode META / SECCOMP / ENV /
 *               LANDLOCK
 *   env.c       bind ${VAR} references, build the box's environment
 *   landlock.c  probe and negotiate the ABI, open the rule paths, build
 *               the ruleset (parent); restrict (child)
 *   polexec.c   arguments, clone, signal forwarding, wait, exit status
 *   child.c     the child's narrowing steps, seccomp last, execve
 *   limits*.c   the LIMITS section: cgroups, rlimits, the wall clock
 *               (limits_int.h lists the files)
 *   secrets.c   secrets as files on a private tmpfs in the box
 *   boxns.c     the box's own user and mount namespaces
 *   record.c    the JSON run record
 *   doctor.c    --doctor: kernel features found
 *   tiers.c     --doctor: cgroup, rlimit and pasta probes, and what an
 *               artifact needs
 *   util.c      die() family
 *   names.c     checked allocation, name checks
 *
 * Exit codes: the command's own status, 128+N when it was killed by signal
 * N, 126 when it could not be executed, 127 when it was not found, and 125
 * for polexec's own errors (the command never ran).
 */
#ifndef POLC_POLEXEC_H
#define POLC_POLEXEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <linux/filter.h>

#include "polbin.h"
#include "sections.h"

#define POLEXEC_EXIT_REFUSED  125
#define POLEXEC_EXIT_NOEXEC   126
#define POLEXEC_EXIT_NOTFOUND 127

/* Hard limits on hostile input, named so that refusals can cite them. */
#define POLEXEC_MAX_ENV	      256	  /* entries in the ENV section */
#define POLEXEC_MAX_STR	      4096	  /* one name, value or dest */
#define POLEXEC_MAX_META      1024	  /* one META string */
#define POLEXEC_MAX_VARS      256	  /* --var options */
#define POLEXEC_MAX_VALUE     (128 << 10) /* one bound env value */
#define POLEXEC_MAX_ENV_SIZE  (1 << 20)	  /* all of the box's env strings */
#define POLEXEC_MAX_LL_FS     1024	  /* Landlock path rules */
#define POLEXEC_MAX_LL_PORTS  1024	  /* Landlock port rules, per access */
#define POLEXEC_MAX_LL_WARN   16	  /* warnings kept for the record */
#define POLEXEC_MAX_SECRET    (1 << 20)	  /* one secret's source file */
#define POLEXEC_MAX_SECRETS   (4 << 20)	  /* all secrets together */
#define POLEXEC_MAX_NET_ADDRS 64	  /* addresses pinned per net entry */
#define POLEXEC_MAX_NFT_MSGS  65536	  /* messages in the NFT section */

/* --- util.c: the die() family (bubblewrap style); names.c: helpers --- */

/* Prints "polexec: MSG" and exits 125 through _exit. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As die(), with ": strerror(errno)" appended; errno is saved first. */
_Noreturn void die_with_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
_Noreturn void die_oom(void);

/*
 * hook (or NULL) runs with the message when die() is called by this
 * process, not by the child: the parent's refusal record.
 */
void die_set_hook(void (*hook)(const char *msg));
/* In the parent, after clone() returned: why the child died before
 * execve, or NULL when it did not. */
const char *die_child_failure(void);
/* As die() with die_child_failure()'s message, which the child printed
 * already: the refusal is recorded, nothing printed twice. */
_Noreturn void die_child_said(void);

void *xcalloc(size_t n, size_t size);
char *xstrndup(const char *s, size_t n);

/* [A-Za-z_][A-Za-z0-9_]*, at most POLEXEC_MAX_STR bytes. */
int valid_identifier(const char *s, size_t len);

/* Replaces control characters (C0, DEL, C1) and bytes that are not
 * well-formed UTF-8 with '?', in place (the string may get shorter). */
void strip_controls(char *s);

/* --- artifact.c --- */

enum env_kind {
	ENV_PASS = 0,
	ENV_SET = 1,
	ENV_SECRET = 2,
};

struct env_entry {
	uint8_t kind;
	char *name;  /* valid identifier */
	char *value; /* SET: text with ${VAR}; SECRET: source path; else NULL */
	char *dest;  /* SECRET: path in the box; else NULL */
};

/* One Landlock path rule: what the artifact says, then what was done. */
struct ll_rule {
	uint64_t access; /* nonzero, within the handled fs rights */
	uint32_t flags;	 /* POLBIN_LL_F_* */
	char *path;	 /* as the policy wrote it: ~ and ${VAR} unbound */
	/* filled by landlock_prepare() */
	char *bound;	     /* the path opened, or NULL when not reached */
	uint64_t installed;  /* the rights of the kernel rule; 0: none */
	const char *skipped; /* why no rule was installed, or NULL */
};

/* One Landlock port range: one kernel rule per port. */
struct ll_range {
	uint32_t access; /* exactly one handled net right */
	uint16_t lo, hi;
};

/* The LANDLOCK section (format in artifact/sections.h), validated. */
struct ll_spec {
	int present;
	uint32_t abi_min, mode;
	uint64_t handled_fs, handled_net, scoped;
	uint32_t nfs, nports;
	struct ll_rule *fs;	/* sorted by path, unique */
	struct ll_range *ports; /* sorted by (access, lo), disjoint */
};

/* The LIMITS section, decoded (artifact/sections.h). */
struct limits_spec {
	int present; /* 0: the artifact has no LIMITS section */
	uint32_t flags;
	uint32_t set;
	uint64_t value[POLBIN_LIM_COUNT];
};

/* One runtime allow entry of the NET section: a name or a ${VAR}. */
struct net_rt {
	uint8_t kind;  /* POLBIN_NET_RT_* */
	uint8_t proto; /* 6 or 17 */
	uint16_t lo, hi;
	char *name; /* a host name, or "${NAME}" */
};

/* The NET and NFT sections, validated. present == 0: the host's network. */
struct net_spec {
	int present;
	uint32_t mode; /* POLBIN_NET_NONE or POLBIN_NET_FILTERED */
	uint32_t nloopback, nruntime;
	uint16_t loopback[POLBIN_NET_MAX_LOOPBACK][2];
	struct net_rt *rt;
	const uint8_t *nft; /* FILTERED: the messages, inside buf */
	size_t nft_len;
	uint32_t nft_msgs;
};

/* The artifact, decoded. Every field was validated before it was stored. */
struct policy {
	uint8_t *buf; /* the whole file */
	size_t len;
	struct polbin pb;
	char artifact_sha256[65]; /* the header's digest, hex */

	/* META: empty strings when absent. */
	char *name;
	char *source_sha256;
	char *ir_sha256;
	char *compiler;

	/* SECCOMP: nfilter == 0 when the policy has no syscalls block. */
	struct sock_filter *filter;
	unsigned short nfilter;

	/* ENV: nenv == 0 when empty or absent (the box's env is then empty). */
	int env_present;
	uint32_t nenv;
	struct env_entry env[POLEXEC_MAX_ENV];

	/* LANDLOCK: ll.present == 0 when the policy has no Landlock layer. */
	struct ll_spec ll;
	/* LIMITS (limits.c). */
	/* NET, NFT: net.present == 0 when the box shares the host's network. */
	struct net_spec net;
	struct limits_spec limits;
};

/* Reads and validates `path`; dies with the reason on any defect. */
void artifact_load(const char *path, struct policy *p);
/*
 * The same checks over buf[0..len) (artifact_load after reading the file;
 * the fuzz harness tests/fuzz/fuzz_stub.c). p->buf becomes buf; `path`
 * names the artifact in refusals.
 */
void artifact_decode(const char *path, struct policy *p, uint8_t *buf,
		     size_t len);
/* Does this polexec enforce sections of this type? */
int artifact_implements(uint32_t type);

/* --- env.c --- */

struct var {
	const char *name; /* points into argv */
	size_t name_len;
	const char *value;
};

struct vars {
	uint32_t n;
	struct var v[POLEXEC_MAX_VARS];
};

/* Parses one `--var NAME=VALUE` into vars; dies on a malformed one. */
void vars_add(struct vars *vars, const char *arg);

/* name[0..len)'s value: from --var, else polexec's environment, or NULL. */
const char *vars_lookup(const struct vars *vars, const char *name, size_t len);

/*
 * Builds the box's environment from the policy alone: a NULL-terminated
 * "NAME=VALUE" array. Every ${VAR} is bound from vars, else from polexec's
 * own environment; an unbound one is a refusal naming it.
 */
char **env_build(const struct policy *p, const struct vars *vars);

/* --- landlock.c --- */

/* What landlock_prepare() found and built; the run record reports it. */
struct ll_run {
	int abi;	 /* the kernel's Landlock ABI; 0: unavailable */
	int probe_errno; /* why it is unavailable */
	int ruleset_fd;	 /* -1: nothing to install */
	uint64_t fs, net, scoped; /* handled, after negotiation */
	uint64_t dropped_fs, dropped_net, dropped_scoped;
	uint32_t nports; /* port rules installed */
	uint32_t nwarn;
	char warn[POLEXEC_MAX_LL_WARN][160];
};

struct layer_state;

/*
 * In the parent, before clone: probes the kernel's ABI, refuses or drops
 * what it lacks as the policy says, binds and opens the rule paths, and
 * builds the ruleset. Sets the layer's tier; dies on any refusal.
 */
void landlock_prepare(struct policy *p, const struct vars *vars,
		      struct ll_run *run, struct layer_state *st);

/* In the child: read access to one file made after the ruleset was. */
void landlock_allow_read(const struct ll_run *run, const char *path);

/* In the child, after no_new_privs: the ruleset becomes the box's. */
void landlock_restrict(const struct ll_run *run);

/* Names of rights by bit: 16 fs, 2 net, 2 scopes. */
extern const char *const ll_fs_names[16];
extern const char *const ll_net_names[2];
extern const char *const ll_scope_names[2];
/*
 * `text` with every ${VAR} bound as for `set`, newly allocated; `what`
 * names the entry in a refusal (never the text).
 */
char *env_bind_text(const struct vars *vars, const char *text,
		    const char *what);

/* --- child.c --- */

/* Runs in the child until execve; never returns. parent: polexec's pid. */
_Noreturn void child_exec(const struct policy *p, const struct ll_run *ll,
			  char *const envp[], char *const argv[], pid_t parent);

/* --- record.c --- */

enum tier {
	TIER_OFF = 0,
	TIER_ENFORCED,
	TIER_DEGRADED,
};

enum layer {
	LAYER_SECCOMP = 0,
	LAYER_LANDLOCK,
	LAYER_NET,
	LAYER_LIMITS,
	LAYER_ENV,
	LAYER_COUNT
};

struct layer_state {
	enum tier tier;
	const char *reason; /* TIER_DEGRADED only */
};

struct record {
	int fd; /* -1: no record requested */
	const struct policy *policy;
	const struct ll_run *ll; /* NULL until landlock_prepare() ran */
	const char *command;
	struct layer_state layers[LAYER_COUNT];
	uint64_t start_ns; /* CLOCK_MONOTONIC */
};

/* Opens FILE for the record before anything runs, so failures come early. */
void record_open(struct record *r, const char *path);
/* Writes the record for a command that ran; status is waitpid()'s. */
int record_finish(struct record *r, int status, int exit_code);
/* Writes a record for a refusal; used by die() through die_hook. */
void record_refused(struct record *r, const char *reason);
uint64_t monotonic_ns(void);
const char *layer_name(enum layer l);

/* --- doctor.c --- */

/* Prints the probes; with an artifact, checks what it needs (0 or 1). */
int doctor(const char *artifact);

/* --- limits*.c: the LIMITS section, enforced --- */

/* Decodes and checks the LIMITS section into p->limits (artifact.c). */
void limits_decode(struct policy *p);
/*
 * Parent, before the clone: picks each limit's tier, creates the box's
 * cgroups, queues the rlimits; sets the limits layer's tier. Refuses
 * under `limits require` when a limit would be degraded.
 */
void limits_plan(const struct policy *p, struct layer_state *layer);
/* Child, first: joins the box's cgroups. */
void limits_child_join(void);
/* Child, last before seccomp: applies the rlimits. */
void limits_child_apply(void);
/* Parent: returns when the box's process ended; enforces wall. */
void limits_wait(pid_t pid);
/* Parent, after reaping: what was hit; the cgroups removed. */
void limits_finish(int status, const struct rusage *ru);
/* The refusal hook: removes cgroups made before a refusal. */
void limits_abort(void);
/* The record's "limits" member into buf; its length (0: none). */
size_t limits_record(char *buf, size_t len, int refused);

/* --- secrets.c --- */

/* Parent: binds, checks and opens each secret's source; plans mounts. */
void secrets_prepare(const struct policy *p, const struct vars *vars);
/* Child, in its mount namespace: the tmpfs and the secret files. */
void secrets_child(void);
/* In the child, after secrets_child(): the box may read its secrets
 * whatever the Landlock rules say of the folder they are in. */
void secrets_child_allow(const struct ll_run *ll);
/* The record's "secrets" member (names only) into buf; its length. */
size_t secrets_record(char *buf, size_t len, int refused);

/* --- boxns.c --- */

enum boxns {
	BOXNS_USER = 1,	 /* a user namespace mapping the caller to itself */
	BOXNS_MOUNT = 2, /* a mount namespace with private mounts */
	BOXNS_NET = 4,	 /* a network namespace: its own loopback only */
};

int boxns_is_root(void);
int boxns_userns_available(void);
/* Asks for namespaces; a mount namespace brings a user one if not root. */
void boxns_want(int what);
int boxns_wanted(int what);
/* Child, after its cgroups: enters what was asked for. */
void boxns_child_enter(void);
/* net.c: the user and network namespaces are made already (by the helper,
 * through boxns_helper_enter); the child joins them instead. */
void boxns_premade(int userfd, int netfd);
void boxns_helper_enter(void);
/* Parent, right after the clone: polexec non-dumpable again. */
void boxns_after_clone(void);

/* --doctor probes of the limits tiers: 0 found, 1 missing (a hint in d). */
int limits_probe_cgroup_v2(char *d, size_t len);
int limits_probe_cgroup_v1(char *d, size_t len);
int limits_probe_rlimits(char *d, size_t len);
/*
 * --doctor ARTIFACT: the tier each limit would get here, found by making
 * (and removing) the box's cgroups; prints one line per limit. Returns
 * the number of limits missing what the policy requires.
 */
int limits_doctor(const struct policy *p);

/* --- net.c, pasta.c, nfnl.c: the box's network --- */

/* The first pasta binary found, or NULL. */
const char *net_pasta_path(void);
/* May this user open /dev/net/tun, as pasta must? */
int net_tun_usable(void);
/* Parent, deciding layers: the net tier; namespaces asked for. */
void net_plan(const struct policy *p, struct layer_state *l);
/* Parent: names resolved and pinned, variables bound, the batch built. */
void net_prepare(const struct policy *p, const struct vars *vars);
/* Parent, before the clone: the namespace pair, its table, pasta. */
void net_start(void);
/* Child, in its mount namespace: the box's hosts file and resolv.conf. */
void net_child_mounts(void);
/* Parent, after the box ended: evidence read, pasta stopped. */
void net_finish(void);
/* Every way out: pasta stopped. */
void net_abort(void);
/* The net layer's record fields (",\"mode\":..."); never NULL. */
const char *net_record(int refused);

pid_t pasta_start(const char *path, const struct net_spec *s, int userfd,
		  int netfd);
void pasta_stop(pid_t pid);

/* nfnl.c: one nf_tables transaction, built in the parent. */
struct nfnl_batch {
	uint8_t *buf;
	size_t len, cap;
	uint32_t seq, first_seq, last_seq;
};

/* The NFT section's framing (artifact/sections.h); 0 or -1 with why. */
int nfnl_validate(const uint8_t *b, size_t len, uint32_t *nmsgs, char *why,
		  size_t whylen);
void nfnl_batch_begin(struct nfnl_batch *b);
void nfnl_batch_add_static(struct nfnl_batch *b, const uint8_t *msgs,
			   size_t len);
void nfnl_batch_add_elems(struct nfnl_batch *b, const char *set,
			  const uint8_t *keys, size_t keylen, uint32_t n);
void nfnl_batch_end(struct nfnl_batch *b);
/* In the helper: sends, reads every ack; dies naming a refused message. */
void nfnl_batch_send(int fd, const struct nfnl_batch *b);
/* Each element's key of SET goes to fn; 0, or -1 with errno. */
int nfnl_dump_set(int fd, const char *set, size_t keylen,
		  void (*fn)(const uint8_t *key, void *arg), void *arg);

/* --- tiers.c: --doctor beyond the kernel features --- */

int tiers_probe_pasta(char *d, size_t len); /* 0 found, 1 missing */
/* With an artifact: what it needs, found or missing; exit code 0 or 1. */
int tiers_check_artifact(const char *path);

#endif
