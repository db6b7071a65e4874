/* SPDX-License-Identifier: MIT */
/*
 * The box's own view (view.c): planned in the parent, built in the box's
 * mount namespace by its init, reported in the record.
 */
#ifndef POLC_STUB_VIEW_H
#define POLC_STUB_VIEW_H

#include "lib/policy.h"
#include "landlock/landlock.h"
#include "lib/layers.h"
#include "lib/util.h"

/*
 * Parent, deciding layers (after landlock_prepare bound and opened the
 * rule paths): the view's tier, its namespaces asked for, the mount order
 * and each bind's attributes; the box's user. Refuses what the policy
 * requires and this caller or kernel cannot have.
 */
void view_plan(const struct policy *p, struct layer_state *l, int learn);
/* Does the box's view live in a user namespace (so its steps are tried
 * in one: box/trial.c)? polexec --doctor asks it too. */
int view_in_userns(const struct policy *p);
/* Does the box get a root of its own (view_plan said so)? */
int view_root(void);
/* What other rooms put in the box's view, handed over by the child's
 * phase (child.c), so that the view reaches into none of them. */
struct view_extras {
	const char *hosts, *resolv; /* the box's /etc files (net), or NULL */
	/* The secrets' mount points, made on the root's tmpfs: i-th or NULL. */
	const char *(*secret_point)(uint32_t i);
	void (*secrets)(void);	  /* mounts them, in the box's root */
	void (*host_files)(void); /* no root of its own: the /etc files */
};

/*
 * Child, in its mount and pid namespaces: the box's root built and
 * pivoted into, with the secrets and the pinned hosts file in it; or,
 * without a view, those two on the host's tree as before.
 */
void view_child(const struct ll_run *ll, const struct view_extras *x);
/* Parent: "TMPDIR=..." where the box's /tmp is a private folder of the
 * host's tree (hosttree.c), else NULL. */
const char *view_env(void);
/* Parent, when the box ended or was refused: what the view left on the
 * host (the private folder) removed. */
void view_finish(void);
/* The view layer's record fields (",\"root\":..."). */
void view_record(struct text *t, int refused);

#endif
