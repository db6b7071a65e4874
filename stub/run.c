/* SPDX-License-Identifier: MIT */
/*
 * The parent's side of the run: the forwarded signals blocked around the
 * clone, the child (child.c) started on a stack of its own, then signals
 * passed on to the box and the wait for it to end.
 */
#include "run.h"
#include "child.h"
#include "box/init.h"
#include "limits/cgroup.h"
#include "limits/limits.h"
#include "observe/observe.h"
#include "lib/clone_into.h"
#include "lib/protect.h"
#include "lib/util.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Signals the parent passes on to the box. */
static const int forwarded[] = {SIGINT,	 SIGTERM, SIGHUP,
				SIGQUIT, SIGUSR1, SIGUSR2};
#define NFORWARDED ((int)(sizeof(forwarded) / sizeof(forwarded[0])))

/* The child's pid while it may be signalled; 0 once it is being reaped. */
static volatile sig_atomic_t box_pid;

static void forward(int sig)
{
	int saved = errno;

	if (box_pid > 0)
		kill((pid_t)box_pid, sig);
	errno = saved;
}

static void forwarded_set(sigset_t *set)
{
	int i;

	if (sigemptyset(set) < 0)
		die_with_error("signals: sigemptyset");
	for (i = 0; i < NFORWARDED; i++)
		if (sigaddset(set, forwarded[i]) < 0)
			die_with_error("signals: sigaddset(%d)", forwarded[i]);
}

/*
 * After it: no signal is ignored. An ignored disposition survives execve,
 * so the caller's (a Python or Go parent ignores SIGPIPE, a shell may
 * ignore SIGCHLD) would be every helper's: pasta refuses to start when
 * signal() hands it back SIG_IGN, and with SIGCHLD ignored the kernel
 * reaps our children itself, so waiting for the box fails (ECHILD) after
 * the command ran. Called first, before any helper or the box starts; the
 * box's own child resets its signals again (child.c).
 */
void signals_default(void)
{
	struct sigaction dfl, old;
	int sig;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < _NSIG && sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (sigaction(sig, NULL, &old) < 0) {
			if (errno == EINVAL) /* not a signal this kernel has */
				continue;
			die_with_error("signals: sigaction(%d)", sig);
		}
		if (old.sa_handler == SIG_IGN && sigaction(sig, &dfl, NULL) < 0)
			die_with_error("signals: sigaction(%d, SIG_DFL)", sig);
	}
}

/*
 * After it: the forwarded signals are blocked and have our handler, so one
 * that arrives before the child's pid is known waits until it is.
 */
static void prepare_signals(sigset_t *set)
{
	struct sigaction sa;
	int i;

	forwarded_set(set);
	if (sigprocmask(SIG_BLOCK, set, NULL) < 0)
		die_with_error("signals: sigprocmask(SIG_BLOCK)");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	if (sigemptyset(&sa.sa_mask) < 0)
		die_with_error("signals: sigemptyset");
	for (i = 0; i < NFORWARDED; i++)
		if (sigaction(forwarded[i], &sa, NULL) < 0)
			die_with_error("signals: sigaction(%d)", forwarded[i]);
}

/*
 * Waits for the child to end without reaping it (WNOWAIT), stops
 * forwarding, then reaps: a forwarded signal can never reach a recycled
 * pid. Returns waitpid()'s status.
 */
static int wait_box(pid_t pid, const sigset_t *set)
{
	struct rusage ru;
	siginfo_t info;
	int status;

	/* limits.c: the wall clock, when the policy has one */
	limits_wait(pid);
	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) == 0)
			break;
		if (errno != EINTR)
			die_with_error("wait: waitid(%d)", (int)pid);
	}
	if (sigprocmask(SIG_BLOCK, set, NULL) < 0)
		die_with_error("wait: sigprocmask(SIG_BLOCK)");
	box_pid = 0;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die_with_error("wait: wait4(%d)", (int)pid);
	/* init.c: with a pid namespace, the command's status, not pid 1's */
	status = init_box_status(status);
	/* limits.c: what was hit; cgroups gone */
	limits_finish(status, &ru);
	return status;
}

struct child_args {
	const struct policy *p;
	const struct ll_run *ll;
	char **envp, **argv;
	pid_t parent;
};

static int child_main(void *arg)
{
	const struct child_args *a = arg;

	child_exec(a->p, a->ll, a->envp, a->argv, a->parent);
}

/*
 * The child runs on a stack of its own in our address space until it execs
 * (CLONE_VM | CLONE_VFORK, as posix_spawn does): no page tables are copied,
 * which is most of fork()'s cost where those copies are slow (virtualized
 * page tables). We stay suspended until its execve or _exit; when its
 * denials are observed, we wait for them in supervise_window() instead,
 * answering its notifications with raw syscalls that leave the errno we
 * share alone (supervise.c says why). The child
 * writes nothing of ours but this stack and errno (which we do not read
 * after clone() succeeds), and why it failed (util.c); child.c leaves
 * only through execve or _exit.
 * Its fd table and signal handlers are its own copies (no CLONE_FILES,
 * no CLONE_SIGHAND).
 */
static char child_stack[64 << 10] __attribute__((aligned(16)));

/*
 * With a cgroup v2 of the box's own (limits, the cgroup egress backend),
 * the child is born in it (clone3, CLONE_INTO_CGROUP): joining it from
 * the child, by a write to cgroup.procs, waits for an RCU grace period
 * (0.2 to 19 ms here). Where that clone cannot be had, the plain clone,
 * and the child joins as before (cgroup_join); a join that fails refuses.
 */
static pid_t clone_child(struct child_args *ca, unsigned long flags)
{
	int cgfd = cgroup_open_v2();
	pid_t pid;

	if (cgfd >= 0) {
		cgroup_born_inside(1);
		pid = clone_into_cgroup(child_main, child_stack,
					sizeof(child_stack), flags, cgfd, ca);
		close(cgfd);
		if (pid >= 0)
			return pid;
		cgroup_born_inside(0);
	}
	return clone(child_main, child_stack + sizeof(child_stack),
		     (int)flags | SIGCHLD, ca);
}

int run(const struct policy *p, const struct ll_run *ll, char **envp,
	char **argv)
{
	struct child_args ca = {p, ll, envp, argv, getpid()};
	sigset_t set;
	int status, observed;
	pid_t pid;

	prepare_signals(&set);
	/* supervise.c: an observed child is cloned without CLONE_VFORK, and
	 * we wait for its execve there, answering its notifications. */
	observed = supervise_before_clone();
	pid = clone_child(&ca, CLONE_VM | (observed ? 0 : CLONE_VFORK));
	if (pid < 0)
		die_with_error("run: clone");
	supervise_window(pid);
	protect_after_clone();
	if (die_child_failure()) {
		/* The child refused before execve (it said why on stderr):
		 * the command never ran, and the record says so. */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		die_child_said();
	}
	/* init.c: with a pid namespace, pid 1 is the box to wait for */
	box_pid = pid = init_box_pid(pid);
	/* The child has exec'd (CLONE_VFORK): our copy is of no more use. */
	if (ll->ruleset_fd >= 0 && close(ll->ruleset_fd) < 0) {
		kill(pid, SIGKILL);
		die_with_error("run: close(ruleset)");
	}
	if (sigprocmask(SIG_UNBLOCK, &set, NULL) < 0) {
		kill(pid, SIGKILL);
		die_with_error("run: sigprocmask(SIG_UNBLOCK)");
	}
	status = wait_box(pid, &set);
	/* Pid 1 or the command's process refused before execve. */
	if (die_child_failure())
		die_child_said();
	return status;
}
