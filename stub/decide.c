/* SPDX-License-Identifier: MIT */
/*
 * After decide_layers: each layer has its tier (Landlock's was set by
 * landlock_prepare). This polexec enforces seccomp when the policy has a
 * syscalls block; the network (net.c: `net none` and `net filtered` are
 * enforced or refused, never degraded; `net host` or no net section shares
 * the host's network: off); the limits (limits.c picks each limit's tier
 * and creates the box's cgroups here); and the environment. With
 * --require-enforced, a degraded layer is a refusal.
 */
#include "decide.h"
#include "limits/cgroup.h"
#include "limits/limits.h"
#include "net/net.h"
#include "observe/observe.h"
#include "lib/util.h"
#include "box/boxns.h"
#include "box/trial.h"
#include "box/view.h"

void decide_layers(const struct policy *p, struct layer_state *layers,
		   int require_enforced)
{
	int l;

	layers[LAYER_SECCOMP].tier = p->nfilter ? TIER_ENFORCED : TIER_OFF;
	view_plan(p, &layers[LAYER_VIEW], supervise_learning());
	net_plan(p, &layers[LAYER_NET]);
	if (net_wants_cgroup()) /* the cgroup backend's, with the limits' */
		cgroup_also(CG_BPF);
	limits_plan(p, &layers[LAYER_LIMITS]);
	net_cgroup(cgroup_tier(CG_BPF) != NULL, cgroup_why(), cgroup_open_v2);
	/* the box's network namespace and its loopback, tried as the box
	 * will make them (box/trial.c): refused here, named, rather than in
	 * the child */
	if (boxns_wanted(BOXNS_NET))
		trial_net_or_die(boxns_wanted(BOXNS_USER));
	layers[LAYER_ENV].tier = TIER_ENFORCED;
	if (!require_enforced)
		return;
	for (l = 0; l < LAYER_COUNT; l++)
		if (layers[l].tier == TIER_DEGRADED)
			die("layers: %s would be degraded (%s) and "
			    "--require-enforced was given",
			    layer_name((enum layer)l), layers[l].reason);
}
