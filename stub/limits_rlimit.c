/* SPDX-License-Identifier: MIT */
/*
 * The rlimits: queued by the parent while it plans, never above the
 * caller's hard limit, and applied by the child late. The child's other
 * step, joining the box's cgroups, comes first instead.
 */
#include "limits_int.h"

#include <sys/resource.h>
#include <unistd.h>

/* Queues an rlimit for the child, never above the caller's hard limit. */
uint64_t add_rlimit(int resource, const char *name, uint64_t soft,
		    uint64_t hard)
{
	struct rlimit cur;
	struct rl *r = &L.rl[L.nrl++];

	if (sys_prlimit(resource, NULL, &cur) < 0)
		die_with_error("limits: getrlimit(%s)", name);
	if (cur.rlim_max != RLIM_INFINITY && hard > cur.rlim_max)
		hard = cur.rlim_max;
	if (soft > hard)
		soft = hard;
	r->resource = resource;
	r->name = name;
	r->value.rlim_cur = soft;
	r->value.rlim_max = hard;
	return hard;
}

void set_rlimit_tier(int i, int resource, const char *name,
		     const char *on_exceed)
{
	uint64_t v = L.spec->value[i];

	L.lim[i].tier = "rlimit";
	L.lim[i].on_exceed = on_exceed;
	L.lim[i].hit = -1;
	L.lim[i].applied = add_rlimit(resource, name, v, v);
}

/* --- the child ------------------------------------------------------------ */

/*
 * After it: the child is in each of the box's cgroups, so everything it
 * becomes and starts is counted there. "0" moves the writer itself (the
 * same in v1 and v2).
 */
void limits_child_join(void)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		if (write(L.cg[i].procs_fd, "0", 1) != 1)
			die_with_error("child: join the box's cgroup %s",
				       L.cg[i].box);
}

/*
 * After it: the rlimits hold. Late, once the child has done everything
 * that opens files or writes them (secrets), and after it entered its
 * user namespace, where RLIMIT_NPROC counts only the box.
 */
void limits_child_apply(void)
{
	int i;

	for (i = 0; i < L.nrl; i++)
		if (sys_prlimit(L.rl[i].resource, &L.rl[i].value, NULL) < 0)
			die_with_error("child: setrlimit(%s)", L.rl[i].name);
}
