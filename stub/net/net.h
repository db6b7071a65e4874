/* SPDX-License-Identifier: MIT */
/* The box's network: the NET and NFT sections enforced (net.c). */
#ifndef POLC_STUB_NET_H
#define POLC_STUB_NET_H

#include "lib/policy.h"
#include "lib/layers.h"
#include "lib/util.h"
#include "lib/vars.h"

#define POLEXEC_MAX_NET_ADDRS 64 /* addresses pinned per net entry */

/* --net-backend: which egress backend the caller forces (docs/EGRESS.md). */
enum {
	NET_BACKEND_AUTO = 0,
	NET_BACKEND_CGROUP,
	NET_BACKEND_NAMESPACE,
	NET_BACKEND_BROKER,
};
void net_backend_arg(int backend);
int net_backend_asked(void); /* --net-backend, NET_BACKEND_AUTO if none */

/* The first pasta binary found, or NULL. */
const char *net_pasta_path(void);
/* May this user open /dev/net/tun, as pasta must? */
int net_tun_usable(void);
/* Could the namespace backend be had here (a user namespace; for `net
 * filtered` pasta and /dev/net/tun)? */
int net_namespace_usable(const struct net_spec *s);
/* Parent, deciding layers: the net tier; namespaces asked for. */
void net_plan(const struct policy *p, struct layer_state *l);
/* After net_plan: does the cgroup backend want a cgroup v2 of the box's
 * own (decide.c asks the limits' cgroups for one)? */
int net_wants_cgroup(void);
/* After the cgroups are made: made, or why not; how to open it. Falls
 * back to the namespace (auto) or refuses when it was not made. */
void net_cgroup(int made, const char *why, int (*open_fd)(void));
/* Parent: names resolved and pinned, variables bound, the batch built. */
void net_prepare(const struct policy *p, const struct vars *vars);
/* Parent, before the clone: the namespace pair, its table, pasta. */
void net_start(void);
/* The text of the box's /etc/hosts and resolv.conf, or NULL: the box's
 * view places them itself (view.c). */
void net_box_files(const char **hosts, const char **resolv);
/* Child, in its mount namespace: the box's hosts file and resolv.conf. */
void net_child_mounts(void);
/* In the box child, after no_new_privs: abstract unix sockets scoped by
 * Landlock where the box stays in the caller's network namespace (the
 * cgroup backend, the notify broker), whose abstract sockets are the
 * host's. */
void net_child_scope(void);
/* Parent, after the box ended: evidence read, pasta stopped. */
void net_finish(void);
/* Every way out: pasta stopped. */
void net_abort(void);
/* The net layer's record fields (",\"mode\":..."). */
void net_record(struct text *t, int refused);

#endif
