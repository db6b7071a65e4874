/* SPDX-License-Identifier: MIT */
/*
 * Limits: the LIMITS section (artifact/sections.h) enforced at the
 * strongest tier this machine offers, and a record of the tier each limit
 * got and whether the box hit it.
 *
 *   limit   tiers, strongest first                 the box sees, past it
 *   memory  cgroup v2 memory.max, swap.max 0       OOM kill (the whole box
 *           cgroup v1 memory.limit_in_bytes,       on v2: memory.oom.group)
 *                     memsw.limit_in_bytes
 *           RLIMIT_AS, each process (degraded)     allocations fail ENOMEM
 *   pids    cgroup v2 / v1 pids.max                fork/clone fail EAGAIN
 *           RLIMIT_NPROC in the box's own user namespace, where it counts
 *                     the box's processes and threads only (not root)
 *           RLIMIT_NPROC (degraded: counts every process of the uid)
 *           none (degraded: root is exempt from RLIMIT_NPROC)
 *   nofile  RLIMIT_NOFILE, each process            open fails EMFILE
 *   cpu     RLIMIT_CPU, each process: soft = cpu,  SIGXCPU, then SIGKILL
 *           hard = cpu + grace (whole seconds, rounded up)
 *   fsize   RLIMIT_FSIZE, each process             SIGXFSZ (EFBIG if ignored)
 *   core    RLIMIT_CORE (0 unless the policy sets it: no core dumps)
 *   wall    the waiting parent                     SIGTERM, SIGKILL after grace
 *
 * A cgroup is the box's own: created under polexec's cgroup before the
 * clone, joined by the child before it does anything else, emptied (its
 * remaining processes killed) and removed after the command ends. An
 * rlimit is never raised: a policy value above the caller's hard limit
 * gets the caller's hard limit (the box gets less, never more).
 *
 * Under `limits require` a limit below its full tier (memory or pids
 * without a cgroup) is a refusal; under best_effort it is a warning on
 * stderr and "degraded(reason)" in the record.
 *
 * This file decodes the section and picks the tiers; limits_int.h lists
 * the files that enforce and report them.
 */
#include "limits_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct limits_state L;

const char *const lim_name[POLBIN_LIM_COUNT] = {
    "memory", "pids", "nofile", "cpu", "wall", "fsize", "core", "grace",
};

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)polbin_le32(p) | (uint64_t)polbin_le32(p + 4) << 32;
}

/* --- decoding --------------------------------------------------------- */

static uint64_t bound(int i)
{
	switch (i) {
	case POLBIN_LIM_MEMORY:
	case POLBIN_LIM_FSIZE:
	case POLBIN_LIM_CORE:
		return POLBIN_LIMITS_MAX_BYTES;
	case POLBIN_LIM_PIDS:
	case POLBIN_LIM_NOFILE:
		return POLBIN_LIMITS_MAX_COUNT;
	default:
		return POLBIN_LIMITS_MAX_MS;
	}
}

/*
 * After it: p->limits holds the section's flags, set and values, each
 * checked against artifact/sections.h, or present == 0 when the artifact
 * has no LIMITS section (then nothing is limited).
 */
void limits_decode(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_LIMITS);
	struct limits_spec *l = &p->limits;
	int i;

	memset(l, 0, sizeof(*l));
	if (!s)
		return;
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: limits: section is not marked critical");
	if (s->len != POLBIN_LIMITS_LEN)
		die("artifact: limits: %u bytes, expected %d", s->len,
		    POLBIN_LIMITS_LEN);
	l->flags = polbin_le32(s->data);
	l->set = polbin_le32(s->data + 4);
	if (l->flags &
	    ~(uint32_t)(POLBIN_LIMITS_F_STATED | POLBIN_LIMITS_F_REQUIRE))
		die("artifact: limits: unknown flag bits 0x%x", l->flags);
	if ((l->flags & POLBIN_LIMITS_F_REQUIRE) &&
	    !(l->flags & POLBIN_LIMITS_F_STATED))
		die("artifact: limits: require without a limits block");
	if (l->set >> POLBIN_LIM_COUNT)
		die("artifact: limits: unknown limit bits 0x%x", l->set);
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		uint64_t v = le64(s->data + 8 + 8 * i);

		if (!(l->set >> i & 1)) {
			if (v)
				die("artifact: limits: %s is not set but has "
				    "a value",
				    lim_name[i]);
			continue;
		}
		if (v == 0 && i != POLBIN_LIM_CORE)
			die("artifact: limits: %s is 0", lim_name[i]);
		if (v > bound(i))
			die("artifact: limits: %s %llu is above %llu",
			    lim_name[i], (unsigned long long)v,
			    (unsigned long long)bound(i));
		l->value[i] = v;
	}
	l->present = 1;
}

/* --- the plan ------------------------------------------------------------ */

static void reason_add(const char *what)
{
	size_t n = strlen(L.reasons);

	snprintf(L.reasons + n, sizeof(L.reasons) - n, "%s%s", n ? "; " : "",
		 what);
}

static void plan_memory(uint32_t got)
{
	struct lim *m = &L.lim[POLBIN_LIM_MEMORY];

	if (got & CG_MEMORY) {
		m->tier = cg_tier(CG_MEMORY);
		m->on_exceed = "oom_kill";
		m->hit = 0;
		return;
	}
	set_rlimit_tier(POLBIN_LIM_MEMORY, RLIMIT_AS, "RLIMIT_AS", "enomem");
	m->degraded = "RLIMIT_AS: the address space of each process, not "
		      "the whole box (no cgroup)";
	reason_add("memory: RLIMIT_AS of each process, no cgroup");
}

static void plan_pids(uint32_t got)
{
	struct lim *m = &L.lim[POLBIN_LIM_PIDS];

	if (got & CG_PIDS) {
		m->tier = cg_tier(CG_PIDS);
		m->on_exceed = "eagain";
		m->hit = 0;
		return;
	}
	m->on_exceed = "eagain";
	m->hit = -1;
	if (getuid() == 0) {
		m->tier = NULL;
		m->degraded = "not enforced: no cgroup, and root is exempt "
			      "from RLIMIT_NPROC";
		reason_add("pids: not enforced, no cgroup and root is exempt "
			   "from RLIMIT_NPROC");
		return;
	}
	set_rlimit_tier(POLBIN_LIM_PIDS, RLIMIT_NPROC, "RLIMIT_NPROC",
			"eagain");
	if (boxns_userns_available()) {
		/* In its own user namespace, the box's count is its own. */
		boxns_want(BOXNS_USER);
		m->tier = "rlimit-userns";
		return;
	}
	m->degraded = "RLIMIT_NPROC counts every process of the caller's "
		      "uid, not only the box's (no cgroup, no user namespace)";
	reason_add("pids: RLIMIT_NPROC counts all of the uid's processes, no "
		   "cgroup or user namespace");
}

static void plan_rest(void)
{
	uint64_t grace = L.spec->value[POLBIN_LIM_GRACE];

	if (is_set(POLBIN_LIM_NOFILE))
		set_rlimit_tier(POLBIN_LIM_NOFILE, RLIMIT_NOFILE,
				"RLIMIT_NOFILE", "emfile");
	if (is_set(POLBIN_LIM_CPU)) {
		/* Whole seconds, rounded up: SIGXCPU at cpu, SIGKILL one
		 * grace later. */
		uint64_t soft = (L.spec->value[POLBIN_LIM_CPU] + 999) / 1000;
		uint64_t hard = soft + (grace + 999) / 1000;
		struct lim *m = &L.lim[POLBIN_LIM_CPU];

		m->tier = "rlimit";
		m->on_exceed = "sigxcpu_then_sigkill";
		m->hit = 0;
		add_rlimit(RLIMIT_CPU, "RLIMIT_CPU", soft, hard);
		m->applied = L.rl[L.nrl - 1].value.rlim_cur * 1000;
		L.cpu_soft_ms = m->applied;
	}
	if (is_set(POLBIN_LIM_FSIZE))
		set_rlimit_tier(POLBIN_LIM_FSIZE, RLIMIT_FSIZE, "RLIMIT_FSIZE",
				"sigxfsz_or_efbig");
	if (is_set(POLBIN_LIM_CORE))
		set_rlimit_tier(POLBIN_LIM_CORE, RLIMIT_CORE, "RLIMIT_CORE",
				"core_dump_cut");
	if (is_set(POLBIN_LIM_WALL)) {
		L.lim[POLBIN_LIM_WALL].tier = "parent";
		L.lim[POLBIN_LIM_WALL].on_exceed = "sigterm_then_sigkill";
		L.lim[POLBIN_LIM_WALL].hit = 0;
	}
	if (is_set(POLBIN_LIM_GRACE)) {
		L.lim[POLBIN_LIM_GRACE].tier = "parent";
		L.lim[POLBIN_LIM_GRACE].hit = -1;
	}
}

void limits_plan(const struct policy *p, struct layer_state *layer)
{
	uint32_t want = 0, got = 0;
	int i;

	L.spec = &p->limits;
	layer->tier = TIER_OFF;
	if (!p->limits.present)
		return;
	got = cg_acquire(&want);
	if (want & CG_MEMORY)
		plan_memory(got);
	if (want & CG_PIDS)
		plan_pids(got);
	plan_rest();
	if (!(p->limits.flags & POLBIN_LIMITS_F_STATED))
		return; /* only the defaults (core 0): nothing to report */
	if (!L.reasons[0]) {
		layer->tier = TIER_ENFORCED;
		return;
	}
	if (p->limits.flags & POLBIN_LIMITS_F_REQUIRE)
		die("limits: the policy says `limits require`, and here %s "
		    "(cgroups: %s); run as root (cgroup v1) or with a "
		    "delegated cgroup v2 (systemd-run --user --scope -p "
		    "Delegate=yes polexec ...), see polexec --doctor",
		    L.reasons, L.cg_why);
	layer->tier = TIER_DEGRADED;
	layer->reason = L.reasons;
	for (i = 0; i < POLBIN_LIM_COUNT; i++)
		if (L.lim[i].degraded)
			fprintf(stderr,
				"polexec: warning: limits: %s degraded: "
				"%s\n",
				lim_name[i], L.lim[i].degraded);
}
