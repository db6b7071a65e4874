/* SPDX-License-Identifier: MIT */
/*
 * The parent while the box runs and after it: the wall clock, what each
 * limit saw, and the box's cgroups removed (after a refusal too).
 */
#include "limits_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void signal_box(pid_t pid, int sig)
{
	int i;

	kill(-pid, sig); /* the box's process group: it leads a session */
	kill(pid, sig);
	for (i = 0; i < L.ncg; i++)
		cg_signal(&L.cg[i], sig);
}

/*
 * Returns once the box's first process has ended (not reaped). With a wall
 * limit: SIGTERM to the box when it runs out, SIGKILL one grace later.
 */
void limits_wait(pid_t pid)
{
	uint64_t deadline, now, ms;
	struct pollfd pfd;
	int pidfd;

	if (!is_set(POLBIN_LIM_WALL))
		return;
	ms = L.spec->value[POLBIN_LIM_WALL];
	deadline = monotonic_ns() + ms * 1000000u;
	pidfd = (int)syscall(__NR_pidfd_open, pid, 0);
	for (;;) {
		siginfo_t info;
		int timeout = -1, r;

		now = monotonic_ns();
		if (!L.kill_sent && now >= deadline) {
			if (!L.term_sent) {
				L.wall_hit = 1;
				L.term_sent = 1;
				signal_box(pid, SIGTERM);
				deadline =
				    now +
				    L.spec->value[POLBIN_LIM_GRACE] * 1000000u;
			} else {
				L.kill_sent = 1;
				signal_box(pid, SIGKILL);
			}
			continue;
		}
		if (!L.kill_sent) {
			uint64_t left = (deadline - now + 999999) / 1000000;

			timeout = left > 60000 ? 60000 : (int)left;
		}
		if (pidfd >= 0) {
			pfd.fd = pidfd;
			pfd.events = POLLIN;
			r = poll(&pfd, 1, timeout);
			if (r > 0)
				break;
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
		{
			struct timespec nap = {0, 10 * 1000 * 1000};

			nanosleep(&nap, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* Reads what each cgroup saw, then empties and removes it. */
static void cg_collect(void)
{
	int i;

	for (i = 0; i < L.ncg; i++) {
		struct cg *c = &L.cg[i];
		int v2 = c->version == 2;

		if (c->mask & CG_MEMORY) {
			struct lim *m = &L.lim[POLBIN_LIM_MEMORY];
			long long oom =
			    v2 ? read_value(c->box, "memory.events", "oom_kill")
			       : read_value(c->box, "memory.oom_control",
					    "oom_kill");
			long long max =
			    v2 ? read_value(c->box, "memory.events", "max")
			       : read_value(c->box, "memory.failcnt", NULL);

			m->events = oom;
			m->peak = read_value(c->box,
					     v2 ? "memory.peak"
						: "memory.max_usage_in_bytes",
					     NULL);
			m->hit = oom > 0 || max > 0 ? 1 : oom < 0 ? -1 : 0;
		}
		if (c->mask & CG_PIDS) {
			struct lim *m = &L.lim[POLBIN_LIM_PIDS];
			long long max =
			    read_value(c->box, "pids.events", "max");

			m->events = max;
			m->peak = read_value(c->box, "pids.peak", NULL);
			m->hit = max > 0 ? 1 : max < 0 ? -1 : 0;
		}
		cg_remove(c);
	}
	L.ncg = 0;
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
				       used >= L.cpu_soft_ms);
	}
	if (is_set(POLBIN_LIM_FSIZE) && sig == SIGXFSZ)
		L.lim[POLBIN_LIM_FSIZE].hit = 1;
}

/* The die hook: a refusal after the cgroups were made leaves none behind. */
void limits_abort(void)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		cg_remove(&L.cg[i]);
	L.ncg = 0;
}
