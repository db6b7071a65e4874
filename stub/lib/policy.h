/* SPDX-License-Identifier: MIT */
/*
 * The policy as the artifact decoder (stub/artifact.c) leaves it: what every
 * room reads. polexec reads a .polbin as hostile input: every field below was
 * checked before it was stored, and nothing downstream checks it again. The
 * formats are artifact/sections.h's; the names and the rule-path form are
 * policy.c's.
 */
#ifndef POLC_STUB_POLICY_H
#define POLC_STUB_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include <linux/filter.h>

#include "polbin.h"
#include "sections.h"

struct obs_spec;

/* Hard limits on hostile input, named so that refusals can cite them. */
#define POLEXEC_MAX_ENV	     256   /* entries in the ENV section */
#define POLEXEC_MAX_META     1024  /* one META string */
#define POLEXEC_MAX_LL_FS    1024  /* Landlock path rules */
#define POLEXEC_MAX_LL_PORTS 1024  /* Landlock port rules, per access */
#define POLEXEC_MAX_NFT_MSGS 65536 /* messages in the NFT section */

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
	int fd;		     /* O_PATH, kept for the view's bind; or -1 */
	int isdir;	     /* what fd is */
};

/* One Landlock port range: one kernel rule per port. */
struct ll_range {
	uint32_t access; /* exactly one handled net right */
	uint16_t lo, hi;
};

struct ll_spec {
	int present;
	uint32_t abi_min, mode;
	uint64_t handled_fs, handled_net, scoped;
	uint32_t nfs, nports;
	struct ll_rule *fs;	/* sorted by path, unique */
	struct ll_range *ports; /* sorted by (access, lo), disjoint */
};

/* One entry of the VIEW section (artifact/sections.h). */
struct view_entry {
	uint8_t kind, attrs; /* POLBIN_VIEW_*, POLBIN_VIEW_A_* */
	uint32_t rule;	     /* BIND: the Landlock path rule */
	uint64_t size;	     /* TMPFS */
	uint64_t access;     /* TMPFS, DEV, PROC: Landlock rights on it */
	char *path;	     /* not BIND; a BIND's path is its rule's */
};

/* The VIEW section. present == 0: the host's tree, the caller's ids. */
struct view_spec {
	int present;
	uint32_t flags; /* POLBIN_VIEW_F_* */
	uint32_t uid, gid;
	uint32_t n;
	struct view_entry *e; /* sorted by path, as in the section */
};

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

/* The EBPF section (artifact/sections.h): present == 0 without one. The
 * pointers are inside the artifact's buffer. */
struct net_ebpf {
	int present, forced;
	int fallback; /* `backend cgroup namespace`: the namespace after */
	const uint8_t *prog[POLBIN_EBPF_NPROG]; /* struct bpf_insn[] */
	uint32_t ninsn[POLBIN_EBPF_NPROG];
	const uint8_t *rules; /* nrules x (key, value) */
	uint32_t nrules;
};

/* The NET and NFT sections. present == 0: the host's network. */
struct net_spec {
	int present;
	uint32_t mode; /* POLBIN_NET_NONE or POLBIN_NET_FILTERED */
	uint32_t nloopback, nruntime;
	uint16_t loopback[POLBIN_NET_MAX_LOOPBACK][2];
	struct net_rt *rt;
	const uint8_t *nft; /* FILTERED: the messages, inside buf */
	size_t nft_len;
	uint32_t nft_msgs;
	struct net_ebpf ebpf;
};

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
	/* "record", "redacted", or "" (an older polc: the record names no
	 * command line) */
	char *record_argv;

	/* SECCOMP: nfilter == 0 when the policy has no syscalls block. */
	struct sock_filter *filter;
	unsigned short nfilter;

	/* ENV: nenv == 0 when empty or absent (the box's env is then empty). */
	int env_present;
	uint32_t nenv;
	struct env_entry env[POLEXEC_MAX_ENV];

	/* NOEXEC: nnoexec == 0 without a view. */
	struct sock_filter *noexec;
	unsigned short nnoexec;

	/* NONET: nnonet == 0 but with `net none` and no loopback port. */
	struct sock_filter *nonet;
	unsigned short nnonet;
	/* BROKER: the notify broker's program (net/broker.c); nbroker == 0
	 * without one; forced: the policy says `backend broker`. */
	struct sock_filter *broker;
	unsigned short nbroker;
	int broker_forced;

	struct ll_spec ll;	   /* present == 0: no Landlock layer */
	struct view_spec view;	   /* present == 0: no VIEW section */
	struct net_spec net;	   /* present == 0: the host's network */
	struct limits_spec limits; /* present == 0: nothing limited */
	struct obs_spec
	    *obs; /* OBSERVE (observe/observe.h), NULL when absent */
};

/* A rule path as polc writes it (policy.c): "/", "~" or "${NAME}", then
 * "/NAME" components, none empty, "." or "..", no control character. */
int ll_path_ok(const char *s);

/* Is the box's network namespace made before the box (net.c's helper):
 * for pasta, or for the relay's listeners (host loopback ports)? */
static inline int net_needs_pair(const struct net_spec *s)
{
	return s->present &&
	       (s->mode == POLBIN_NET_FILTERED || s->nloopback > 0);
}

/* Does the box's network need pasta (`net filtered`)? */
static inline int net_needs_pasta(const struct net_spec *s)
{
	return s->present && s->mode == POLBIN_NET_FILTERED;
}

/* Names by bit: 17 fs rights, 2 net rights, 2 scopes; the limits. */
extern const char *const ll_fs_names[17];
extern const char *const ll_net_names[2];
extern const char *const ll_scope_names[2];
extern const char *const lim_name[POLBIN_LIM_COUNT];

#endif
