/* SPDX-License-Identifier: MIT */
/*
 * The Landlock layer (landlock.c): the ruleset is built in the parent,
 * before clone; the child only restricts itself with it.
 */
#ifndef POLC_STUB_LANDLOCK_H
#define POLC_STUB_LANDLOCK_H

#include <stdint.h>
#include <sys/resource.h>

#include "lib/policy.h"
#include "lib/layers.h"
#include "lib/util.h"
#include "lib/vars.h"

#define POLEXEC_MAX_LL_WARN 16 /* warnings kept for the record */

/* What landlock_prepare() found and built; the run record reports it. */
struct ll_run {
	int abi;	 /* the kernel's Landlock ABI; 0: unavailable */
	int probe_errno; /* why it is unavailable */
	int ruleset_fd;	 /* -1: nothing to install */
	uint64_t fs, net, scoped; /* handled, after negotiation */
	uint64_t dropped_fs, dropped_net, dropped_scoped;
	uint32_t nports; /* port rules installed */
	/* landlock_restrict_self()'s flags: the audit log (llaudit.c) */
	uint32_t restrict_flags;
	uint32_t nwarn;
	char warn[POLEXEC_MAX_LL_WARN][160];
	struct rlimit nofile; /* before the rule fds were kept (view) */
	int nofile_raised;
};

/*
 * In the parent, before clone: probes the kernel's ABI, refuses or drops
 * what it lacks as the policy says, binds and opens the rule paths, and
 * builds the ruleset. Sets the layer's tier; dies on any refusal.
 */
void landlock_prepare(struct policy *p, const struct vars *vars,
		      struct ll_run *run, struct layer_state *st);
/* An O_PATH fd on a bound rule path, no symlink followed unless follow
 * (openat2 RESOLVE_NO_SYMLINKS, or a walk); -1 with errno. */
int landlock_open_rule(const char *path, int follow);
/* In the child: access (masked to what is handled) beneath fd. */
void landlock_allow(const struct ll_run *run, int fd, uint64_t access,
		    const char *path);
/* In the child: read access to one file made after the ruleset was. */
void landlock_allow_read(const struct ll_run *run, const char *path);
/* The kernel's Landlock ABI (0: none). */
int landlock_abi(void);
/* In the child, after no_new_privs: a domain that scopes abstract unix
 * sockets (ABI 6), for a box left in the caller's network namespace (the
 * cgroup backend, the notify broker), whose abstract sockets are the
 * host's. The caller checked landlock_abi() >= 6. */
void landlock_scope_abstract(void);
/* In the child, after no_new_privs: the ruleset becomes the box's. */
void landlock_restrict(const struct ll_run *run);
/* The record's members for what was installed (record.c here): the ABI,
 * the handled and dropped rights, the rules as bound, the ports. */
void landlock_record(struct text *t, const struct ll_spec *l,
		     const struct ll_run *run);
/* `net host` with `connect` or `bind` rules: does Landlock hold TCP
 * connect to the listed ports (handled, not dropped)? */
int landlock_tcp_contained(const struct ll_run *run);
/* The net layer's members for it (mode host): egress "tcp ports by
 * landlock", the ports each direction may use ("LO-HI"; "any" where the
 * direction is not handled). UDP and every other protocol are the
 * host's. */
void landlock_record_tcp(struct text *t, const struct ll_spec *l,
			 const struct ll_run *run);

#endif
