/* SPDX-License-Identifier: MIT */
/*
 * The box's own namespaces (boxns.c): the layers ask for them while the
 * parent decides; the child enters them right after joining its cgroups.
 */
#ifndef POLC_STUB_BOXNS_H
#define POLC_STUB_BOXNS_H

enum boxns {
	BOXNS_USER = 1,	 /* a user namespace mapping the caller to itself */
	BOXNS_MOUNT = 2, /* a mount namespace with private mounts */
	BOXNS_NET = 4,	 /* a network namespace: its own loopback only */
};

int boxns_is_root(void);
/* May a child of ours create a user namespace and map itself in it?
 * Asked once, cached. */
int boxns_userns_available(void);
/* Why not, likely, and what to do: one line (userns.c). */
const char *boxns_userns_why(void);
/* Asks for namespaces; a mount or network one brings a user one if not
 * root. */
void boxns_want(int what);
int boxns_wanted(int what);
/* Child, after its cgroups: enters what was asked for. */
void boxns_child_enter(void);
/* net.c: the user and network namespaces are made already (by the helper,
 * through boxns_helper_enter); the child joins them instead. */
void boxns_premade(int userfd, int netfd);
void boxns_helper_enter(void);

#endif
