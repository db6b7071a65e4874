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
 *           none (degraded: a box running as root is exempt from
 *                     RLIMIT_NPROC, in a user namespace mapped from
 *                     the host's root too)
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
 * The section is decoded with the others (artifact.c); the cgroups are
 * cgroup.c's. This file picks the tiers, queues and applies the rlimits,
 * keeps the wall clock and says what the box hit.
 */
#include "limits.h"
#include "box/boxns.h"
#include "cgroup.h"
#include "lib/kernel.h"
#include "observe/observe.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct lim {
	const char *tier; /* NULL: not enforced at all */
	const char *degraded;
	const char *on_exceed;
	uint64_t applied; /* what the kernel holds, when not the policy's */
	int hit;	  /* 1, 0, or -1 when polexec cannot observe it */
	long long events, peak;
};

static struct {
	const struct limits_spec *spec;
	struct lim lim[POLBIN_LIM_COUNT];
	struct rl {
		int resource;
		const char *name;
		struct rlimit value;
	} rl[8];
	int nrl;
	char reasons[300];
	int wall_hit;
} L;

static int is_set(int i)
{
	return L.spec && L.spec->present && (L.spec->set >> i & 1);
}

/* --- the plan ------------------------------------------------------------ */

static void reason_add(const char *what)
{
	size_t n = strlen(L.reasons);

	snprintf(L.reasons + n, sizeof(L.reasons) - n, "%s%s", n ? "; " : "",
		 what);
}

/* Queues an rlimit for the child, never above the caller's hard limit. */
static uint64_t add_rlimit(int resource, const char *name, uint64_t soft,
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

static void set_rlimit_tier(int i, int resource, const char *name,
			    const char *on_exceed)
{
	uint64_t v = L.spec->value[i];

	L.lim[i].tier = "rlimit";
	L.lim[i].on_exceed = on_exceed;
	L.lim[i].hit = -1;
	L.lim[i].applied = add_rlimit(resource, name, v, v);
}

static void plan_memory(uint32_t got)
{
	struct lim *m = &L.lim[POLBIN_LIM_MEMORY];

	if (got & CG_MEMORY) {
		m->tier = cgroup_tier(CG_MEMORY);
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
		m->tier = cgroup_tier(CG_PIDS);
		m->on_exceed = "eagain";
		m->hit = 0;
		return;
	}
	m->on_exceed = "eagain";
	m->hit = -1;
	/* The kernel exempts the init namespace's uid 0 (and holders of
	 * CAP_SYS_RESOURCE or CAP_SYS_ADMIN there) from RLIMIT_NPROC, in a
	 * user namespace too when the box's root is the host's (mapped
	 * 0 to 0). A box that runs as another uid (`user U:G`, root taking
	 * U for real) is bound, as is any box of a caller who is not root
	 * (its uid is the caller's outside, whatever `user` shows inside). */
	if (boxns_is_root() && boxns_uid() == 0) {
		m->tier = NULL;
		m->degraded = "not enforced: no cgroup, and root is exempt "
			      "from RLIMIT_NPROC";
		reason_add("pids: not enforced, no cgroup and root is exempt "
			   "from RLIMIT_NPROC");
		return;
	}
	set_rlimit_tier(POLBIN_LIM_PIDS, RLIMIT_NPROC, "RLIMIT_NPROC",
			"eagain");
	/* Root taking U:G keeps the namespaces it planned (the view was
	 * tried without a user namespace): the count is all of U's. */
	if (!boxns_is_root() && boxns_userns_available()) {
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

/* Each limit's tier into L, the box's cgroups made for them. */
static void plan(const struct policy *p)
{
	uint32_t want = 0, got;

	L.spec = &p->limits;
	if (is_set(POLBIN_LIM_MEMORY))
		want |= CG_MEMORY;
	if (is_set(POLBIN_LIM_PIDS))
		want |= CG_PIDS;
	got = cgroup_acquire(want, p->limits.value[POLBIN_LIM_MEMORY],
			     p->limits.value[POLBIN_LIM_PIDS]);
	if (want & CG_MEMORY)
		plan_memory(got);
	if (want & CG_PIDS)
		plan_pids(got);
	plan_rest();
}

void limits_plan(const struct policy *p, struct layer_state *layer)
{
	int i;

	layer->tier = TIER_OFF;
	if (!p->limits.present)
		return;
	plan(p);
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
		    L.reasons, cgroup_why());
	layer->tier = TIER_DEGRADED;
	layer->reason = L.reasons;
	for (i = 0; i < POLBIN_LIM_COUNT; i++)
		if (L.lim[i].degraded)
			warning("limits: %s degraded: %s", lim_name[i],
				L.lim[i].degraded);
}

int limits_doctor(const struct policy *p, const char *hint,
		  void (*line)(const char *what, const char *status,
			       const char *detail))
{
	int require = !!(p->limits.flags & POLBIN_LIMITS_F_REQUIRE);
	int i, missing = 0;

	if (!p->limits.present || !(p->limits.flags & POLBIN_LIMITS_F_STATED)) {
		line("limits", "found", "none stated (core dumps off)");
		return 0;
	}
	plan(p);
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const struct lim *m = &L.lim[i];
		char what[32], detail[2048];

		if (!is_set(i) || i == POLBIN_LIM_GRACE ||
		    (i == POLBIN_LIM_CORE && !p->limits.value[i]))
			continue;
		snprintf(what, sizeof(what), "limits %s", lim_name[i]);
		if (!m->degraded) {
			line(what, "found",
			     i == POLBIN_LIM_WALL ? "parent (SIGTERM, then "
						    "SIGKILL after grace)"
			     : !strcmp(m->tier, "rlimit-userns")
				 ? "rlimit-userns (the box's own count)"
				 : m->tier);
			continue;
		}
		missing += require;
		snprintf(detail, sizeof(detail),
			 "only %s here (%s); %s. To get a cgroup: run as root "
			 "where cgroup v1 is mounted, or %s",
			 i == POLBIN_LIM_MEMORY ? "RLIMIT_AS of each process"
			 : m->tier ? "RLIMIT_NPROC of the whole uid"
				   : "not enforced, root is exempt from "
				     "RLIMIT_NPROC",
			 cgroup_why(),
			 require ? "`limits require` refuses that"
				 : "best_effort runs with a warning",
			 hint);
		line(what, require ? "MISSING" : "degraded", detail);
	}
	cgroup_remove();
	return missing;
}

/* --- the child ------------------------------------------------------------ */

void limits_child_join(void)
{
	cgroup_join();
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

/* --- the parent, while the box runs and after -------------------------- */

static void signal_box(pid_t pid, int sig)
{
	kill(-pid, sig); /* the box's process group: it leads a session */
	kill(pid, sig);
	cgroup_signal(sig);
}

/*
 * Returns once the box's first process has ended (not reaped). With a wall
 * limit: SIGTERM to the box when it runs out, SIGKILL one grace later.
 */
/*
 * Also the loop in which polexec answers the box's seccomp notifications
 * (observe.h): while the box runs, its listener is polled with the box's
 * pidfd, and without a wall limit the loop has no deadline.
 */
void limits_wait(pid_t pid)
{
	uint64_t deadline, now, ms;
	struct pollfd pfd[1 + OBS_MAX_POLLFDS];
	int pidfd, term_sent = 0, kill_sent = 0, wall = is_set(POLBIN_LIM_WALL);

	if (!wall && !observe_pollfds(NULL))
		return;
	ms = wall ? L.spec->value[POLBIN_LIM_WALL] : 0;
	deadline = monotonic_ns() + ms * 1000000u;
	pidfd = sys_pidfd_open(pid);
	for (;;) {
		siginfo_t info;
		int timeout = -1, r, nobs;

		now = monotonic_ns();
		if (wall && !kill_sent && now >= deadline) {
			if (!term_sent) {
				L.wall_hit = 1;
				term_sent = 1;
				signal_box(pid, SIGTERM);
				deadline =
				    now +
				    L.spec->value[POLBIN_LIM_GRACE] * 1000000u;
			} else {
				kill_sent = 1;
				signal_box(pid, SIGKILL);
			}
			continue;
		}
		if (wall && !kill_sent) {
			uint64_t left = (deadline - now + 999999) / 1000000;

			timeout = left > 60000 ? 60000 : (int)left;
		}
		nobs = observe_pollfds(pfd + 1);
		if (pidfd >= 0) {
			pfd[0].fd = pidfd;
			pfd[0].events = POLLIN;
			r = poll(pfd, (nfds_t)(1 + nobs), timeout);
			if (r > 0 && pfd[0].revents)
				break;
			if (r > 0)
				observe_handle(pfd + 1, nobs);
			if (r < 0 && errno != EINTR)
				die_with_error("wait: poll(pidfd)");
			continue;
		}
		/* No pidfd (before Linux 5.3): look every 10 ms. */
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid == pid)
			break;
		if (nobs && poll(pfd + 1, (nfds_t)nobs, 10) > 0) {
			observe_handle(pfd + 1, nobs);
		} else if (!nobs) {
			struct timespec nap = {0, 10 * 1000 * 1000};

			nanosleep(&nap, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* What each cgroup saw; then they are emptied and removed. */
static void cg_collect(void)
{
	struct lim *mem = &L.lim[POLBIN_LIM_MEMORY],
		   *pids = &L.lim[POLBIN_LIM_PIDS];
	struct cg_counts n;

	cgroup_counts(&n);
	if (cgroup_tier(CG_MEMORY)) {
		mem->events = n.oom_kills;
		mem->peak = n.memory_peak;
		mem->hit = n.oom_kills > 0 || n.memory_max > 0 ? 1
			   : n.oom_kills < 0		       ? -1
							       : 0;
	}
	if (cgroup_tier(CG_PIDS)) {
		pids->events = n.pids_max;
		pids->peak = n.pids_peak;
		pids->hit = n.pids_max > 0 ? 1 : n.pids_max < 0 ? -1 : 0;
	}
	cgroup_remove();
}

/*
 * After it: each limit says whether the box hit it, as far as polexec can
 * see, and the box's cgroups are gone (with whatever still ran in them).
 */
void limits_finish(int status, const struct rusage *ru)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;

	if (!L.spec || !L.spec->present)
		return;
	cg_collect();
	L.lim[POLBIN_LIM_WALL].hit = L.wall_hit;
	if (is_set(POLBIN_LIM_CPU)) {
		uint64_t used =
		    (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) *
			1000 +
		    (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) /
			1000;

		L.lim[POLBIN_LIM_CPU].hit =
		    sig == SIGXCPU || (sig == SIGKILL && !L.wall_hit &&
				       L.lim[POLBIN_LIM_MEMORY].hit != 1 &&
				       used >= L.lim[POLBIN_LIM_CPU].applied);
	}
	if (is_set(POLBIN_LIM_FSIZE) && sig == SIGXFSZ)
		L.lim[POLBIN_LIM_FSIZE].hit = 1;
}

/* The die hook: a refusal after the cgroups were made leaves none behind. */
void limits_abort(void)
{
	cgroup_remove();
}

/* --- the record ---------------------------------------------------------- */

/*
 * `"limits":{"mode":..., NAME:{"max":N, "tier":..., "status":...,
 * "on_exceed":..., "hit":true|false|null, ...}, ...},` followed by a
 * newline; nothing for an artifact without limits.
 * Strings are fixed words of this file, and a reason that may carry a
 * path from the host is not included.
 */
void limits_record(struct text *t)
{
	int i;

	if (!L.spec || !L.spec->present)
		return;
	text_add(t, "\"limits\":{\"mode\":\"%s\"",
		 !(L.spec->flags & POLBIN_LIMITS_F_STATED) ? "default"
		 : L.spec->flags & POLBIN_LIMITS_F_REQUIRE ? "require"
							   : "best_effort");
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const struct lim *m = &L.lim[i];

		if (!is_set(i))
			continue;
		text_add(t, ",\n  \"%s\":{\"max\":%llu,\"tier\":\"%s\"",
			 lim_name[i], (unsigned long long)L.spec->value[i],
			 m->tier ? m->tier : "none");
		if (m->applied && m->applied != L.spec->value[i])
			text_add(t, ",\"applied\":%llu",
				 (unsigned long long)m->applied);
		if (m->degraded)
			text_add(t, ",\"status\":\"degraded(%s)\"",
				 m->degraded);
		else
			text_add(t, ",\"status\":\"enforced\"");
		if (m->on_exceed)
			text_add(t, ",\"on_exceed\":\"%s\"", m->on_exceed);
		if (i != POLBIN_LIM_GRACE)
			text_add(t, ",\"hit\":%s",
				 m->hit > 0    ? "true"
				 : m->hit == 0 ? "false"
					       : "null");
		if ((i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) &&
		    m->tier && !strncmp(m->tier, "cgroup", 6)) {
			if (m->events >= 0)
				text_add(t, ",\"%s\":%lld",
					 i == POLBIN_LIM_MEMORY
					     ? "oom_kills"
					     : "refused_forks",
					 m->events);
			if (m->peak >= 0)
				text_add(t, ",\"peak\":%lld", m->peak);
		}
		text_add(t, "}");
	}
	text_add(t, "},\n");
}
