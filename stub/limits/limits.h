/* SPDX-License-Identifier: MIT */
/*
 * The LIMITS layer (limits.c): each limit's tier decided before the
 * clone, applied by the child, watched by the waiting parent, reported.
 */
#ifndef POLC_STUB_LIMITS_H
#define POLC_STUB_LIMITS_H

#include <sys/resource.h>
#include <sys/types.h>

#include "lib/policy.h"
#include "lib/layers.h"
#include "lib/util.h"

/*
 * Parent, deciding layers: picks each limit's tier, creates the box's
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
/* --doctor ARTIFACT: each stated limit's tier here, one line each (the
 * box's cgroups made and removed); how many `limits require` refuses. */
int limits_doctor(const struct policy *p, const char *hint,
		  void (*line)(const char *what, const char *status,
			       const char *detail));
/* The record's "limits" member, for a run (not a refusal). */
void limits_record(struct text *t);

#endif
