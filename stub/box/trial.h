/* SPDX-License-Identifier: MIT */
/* The view's steps tried in a throwaway child (trial.c). */
#ifndef POLC_STUB_TRIAL_H
#define POLC_STUB_TRIAL_H

enum trial_step {
	TRIAL_OK = 0,
	TRIAL_USER,
	TRIAL_NAMESPACES,
	TRIAL_PRIVATE,
	TRIAL_LOOPBACK,
	TRIAL_TMPFS,
	TRIAL_PROCFS,
	TRIAL_BIND,
	TRIAL_PIVOT,
	TRIAL_CHROOT, /* pivot_root refused (err), chroot works */
};

struct trial {
	enum trial_step step; /* the first that failed, or TRIAL_OK */
	int err;	      /* its errno */
	int proc_rbind;	      /* a fresh procfs refused, /proc's rbind works */
};

/* What the trial tries: the view's steps (namespaces, mounts, the
 * pivot), the network namespace's (its loopback up), or both. */
#define TRIAL_WANT_VIEW 1
#define TRIAL_WANT_NET	2

/* The steps the box takes (user: in a user namespace of its own; what:
 * TRIAL_WANT_*), tried; 0, or -1 when the trial itself could not run. */
int trial_run(int user, int what, struct trial *t);
/* The run's: the network namespace's steps tried (user as trial_run's),
 * or a refusal naming the step that failed and what would make it work. */
void trial_net_or_die(int user);
const char *trial_step_name(enum trial_step s);
/* What would make the failed step work, in one sentence. */
const char *trial_hint(const struct trial *t);

#endif
