/* SPDX-License-Identifier: MIT */
/*
 * The box's pid namespace and its init. With a view the box gets a pid
 * namespace: its processes see only each other, /proc is theirs, kill()
 * reaches nothing outside, and vm.memfd_noexec is the namespace's own.
 *
 * The box child shares polexec's memory (CLONE_VM | CLONE_VFORK, run.c)
 * and is not in the namespace it unshared; its next child is pid 1. So:
 *
 *   init_enter   the child makes pid 1 with CLONE_PARENT, so pid 1 is
 *                polexec's own child, tells polexec its pid and leaves.
 *                Pid 1 has memory of its own (a copy): it dies with
 *                polexec (PR_SET_PDEATHSIG, checked against polexec's
 *                pidfd for the moment before), leads a session of its
 *                own, is not dumpable, and sets vm.memfd_noexec = 2 in
 *                its namespace where it may (root, or root of the user
 *                namespace owning it: the file is root's), so no memfd
 *                is ever executable in the box.
 *   (view.c)     pid 1 builds the view: /proc must be mounted by a
 *                process inside the namespace.
 *   init_run     pid 1 restricts itself with the box's Landlock ruleset,
 *                so the command's domain nests in its own: the command
 *                can neither signal nor ptrace it (and it is not
 *                dumpable); pid 1 can signal the command. The command's
 *                process is made as the box child was (CLONE_VM |
 *                CLONE_VFORK) and narrows itself in child.c. Pid 1 then
 *                drops every capability, reaps every child, passes on
 *                the signals polexec forwards, and when the command
 *                ends, leaves; the kernel ends whatever else runs in the
 *                namespace.
 *
 * What the box's processes tell polexec goes through one shared page:
 * why one refused (util.c's die area), pid 1's pid, the command's wait
 * status (so the record shows its exit or signal, not pid 1's), and
 * whether memfds are non-executable. Where they are not (the sysctl
 * missing, before Linux 6.3, or not ours to write: a caller who is not
 * root), the command's process stacks the NOEXEC program before the
 * policy's filter: execveat(AT_EMPTY_PATH) and memfd_create without
 * MFD_NOEXEC_SEAL answer EACCES.
 */
#include "init.h"
#include "lib/kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct shared {
	struct die_area die;
	volatile pid_t init;	   /* pid 1, as polexec sees it */
	volatile int done, status; /* the command ended: its wait status */
	volatile int memfd;	   /* 1: vm.memfd_noexec = 2 in the box */
	volatile int memfd_errno;  /* else why not */
};

static struct shared *S; /* NULL: no pid namespace */

/* The command's pid in the namespace, and signals that came before. */
static volatile sig_atomic_t box, pending;

static const int forwarded[] = {SIGINT,	 SIGTERM, SIGHUP,
				SIGQUIT, SIGUSR1, SIGUSR2};

void init_plan(void)
{
	S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (S == MAP_FAILED)
		die_with_error("init: mmap(MAP_SHARED)");
	die_share(&S->die);
}

static void forward(int sig)
{
	int saved = errno;

	if (box > 0)
		kill((pid_t)box, sig);
	else
		pending |= 1 << sig;
	errno = saved;
}

/*
 * Pid 1 of a pid namespace gets no signal it has no handler for, so the
 * handlers are in place before polexec may forward anything.
 */
static void catch_forwarded(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		if (sigaction(forwarded[i], &sa, NULL) < 0)
			die_with_error("init: sigaction(%d)", forwarded[i]);
}

void init_enter(pid_t parent)
{
	struct pollfd pfd = {.events = POLLIN};
	int fd;
	long pid;

	if (!S)
		return;
	pfd.fd = sys_pidfd_open(parent);
	pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
	if (pid < 0)
		die_with_error("init: clone(CLONE_PARENT)");
	if (pid > 0) {
		S->init = (pid_t)pid;
		_exit(0);
	}
	/* Pid 1, in memory of its own. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		die_with_error("init: prctl(PR_SET_PDEATHSIG)");
	if (pfd.fd >= 0 && poll(&pfd, 1, 0) != 0)
		_exit(POLEXEC_EXIT_REFUSED); /* polexec is gone already */
	if (pfd.fd >= 0)
		close(pfd.fd);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		die_with_error("init: prctl(PR_SET_DUMPABLE, 0)");
	if (setsid() < 0)
		die_with_error("init: setsid");
	catch_forwarded();
	fd = open("/proc/sys/vm/memfd_noexec", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "2", 1) == 1)
		S->memfd = 1;
	else
		S->memfd_errno = errno;
	if (fd >= 0)
		close(fd);
}

/* polexec's command line and environment, as the kernel laid them out
 * (the strings of each, contiguous): /proc/1/cmdline of the box reads
 * pid 1's copy, which would show the host's command line. */
static char *args_lo, *args_hi, *env_lo, *env_hi;

static void span(char **v, char **lo, char **hi)
{
	size_t i;

	for (i = 0; v && v[i]; i++) {
		char *end = v[i] + strlen(v[i]) + 1;

		if (!i || v[i] < *lo)
			*lo = v[i];
		if (!i || end > *hi)
			*hi = end;
	}
}

void init_args(char **argv, char **envp)
{
	span(argv, &args_lo, &args_hi);
	span(envp, &env_lo, &env_hi);
}

/* Pid 1's copy of them: "polexec", then zeros (the command has exec'd:
 * its own copy is in its own memory now). */
static void wipe_args(void)
{
	static const char name[] = "polexec";

	if (env_lo)
		memset(env_lo, 0, (size_t)(env_hi - env_lo));
	if (!args_lo)
		return;
	memset(args_lo, 0, (size_t)(args_hi - args_lo));
	memcpy(args_lo, name,
	       (size_t)(args_hi - args_lo) < sizeof(name) - 1
		   ? (size_t)(args_hi - args_lo) - 1
		   : sizeof(name) - 1);
}

/* The command's process runs on a stack of its own in our memory. */
static char box_stack[64 << 10] __attribute__((aligned(16)));

_Noreturn void init_run(int (*fn)(void *), void *arg, const struct ll_run *ll)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct none[2];
	int status, sig;
	pid_t pid;

	if (!S) {
		fn(arg);
		_exit(POLEXEC_EXIT_REFUSED);
	}
	if (ll->ruleset_fd >= 0 &&
	    sys_landlock_restrict_self(ll->ruleset_fd, 0) < 0)
		die_with_error("init: landlock_restrict_self");
	pid = clone(fn, box_stack + sizeof(box_stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
	if (pid < 0)
		die_with_error("init: clone");
	/* The command exec'd or refused: nothing left to do but wait. */
	box = pid;
	wipe_args();
	for (sig = 1; sig < 32; sig++)
		if (pending & 1 << sig)
			kill(pid, sig);
	memset(none, 0, sizeof(none));
	if (sys_capset(&hdr, none) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die_with_error("init: drop capabilities");
	if (sys_close_range(3, ~0U, 0) < 0 && errno != ENOSYS)
		die_with_error("init: close_range");
	for (;;) {
		pid_t w = waitpid(-1, &status, 0);

		if (w == pid) {
			S->status = status;
			S->done = 1;
			_exit(0);
		}
		if (w < 0 && errno != EINTR)
			die_with_error("init: waitpid");
	}
}

pid_t init_box_pid(pid_t child)
{
	int status;

	if (!S)
		return child;
	/* The box child made pid 1 and left. */
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			die_with_error("run: waitpid(box child)");
	if (!WIFEXITED(status) || WEXITSTATUS(status) || S->init <= 0)
		die("run: the box child failed (status 0x%x)", status);
	return S->init;
}

int init_box_status(int status)
{
	return S && S->done ? S->status : status;
}

void init_noexec(const struct policy *p)
{
	struct sock_fprog prog = {.len = p->nnoexec, .filter = p->noexec};

	if (!S || S->memfd || !p->nnoexec)
		return;
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		die_with_error("child: seccomp(SET_MODE_FILTER, noexec)");
}

void init_record(struct text *t)
{
	text_add(t, ",\"pid_namespace\":true,\"memfd_noexec\":");
	if (S->memfd)
		text_add(t, "\"sysctl\"");
	else
		text_add(t, "\"filter (vm.memfd_noexec: %s)\"",
			 strerror(S->memfd_errno));
}
