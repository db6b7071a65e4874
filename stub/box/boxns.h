/* SPDX-License-Identifier: MIT */
/*
 * The box's own namespaces (boxns.c): the layers ask for them while the
 * parent decides; the child enters them right after joining its cgroups.
 */
#ifndef POLC_STUB_BOXNS_H
#define POLC_STUB_BOXNS_H

enum boxns {
	BOXNS_USER = 1,	   /* a user namespace mapping the caller to itself */
	BOXNS_MOUNT = 2,   /* a mount namespace with private mounts */
	BOXNS_NET = 4,	   /* a network namespace: its own loopback only */
	BOXNS_PID = 8,	   /* a pid namespace (init.c makes its pid 1) */
	BOXNS_CGROUP = 16, /* a cgroup namespace rooted at the box's cgroup */
};

int boxns_is_root(void);
/* Root with CAP_SYS_ADMIN: makes namespaces without a user one. */
int boxns_privileged(void);
/* And CAP_NET_ADMIN: a network namespace of its own needs no user one. */
int boxns_net_privileged(void);
/* May a child of ours create a user namespace and map itself in it?
 * Asked once, cached. */
int boxns_userns_available(void);
/* Why not, likely, and what to do: one line (userns.c; inside a box of
 * polexec's, that box's policy). */
const char *boxns_userns_why(void);
/* Does this polexec run inside a box of polexec's own view (its root a
 * tmpfs whose source is "polexec")? Read once, cached. */
int boxns_in_box(void);
/* Asks for namespaces; a mount or network one brings a user one if not
 * root. */
void boxns_want(int what);
int boxns_wanted(int what);
/*
 * The box runs as uid:gid (user.c). A caller who is not root gets them in
 * its user namespace, mapped to itself; root gets them for real, and a
 * user namespace made for root maps them to themselves.
 */
void boxns_map_user(unsigned uid, unsigned gid);
/* The box's uid and gid, as seen in its namespaces: the user's, else the
 * caller's own. Set once boxns_want() or boxns_map_user() ran. */
unsigned boxns_uid(void);
unsigned boxns_gid(void);
/* The command's process, before its capabilities go: root becomes the
 * box's user (no supplementary groups); anyone else already is it. */
void boxns_child_user(void);
/* Child, after its cgroups: enters what was asked for. */
void boxns_child_enter(void);
/* net.c: the user and network namespaces are made already (by the helper,
 * through boxns_helper_enter); the child joins them instead. */
void boxns_premade(int userfd, int netfd);
void boxns_helper_enter(void);

#endif
