/* SPDX-License-Identifier: MIT */
/*
 * The child, between clone() and execve(). Each step narrows what the
 * command will inherit, and each is checked: a step that fails ends the
 * child with 125 before the command runs. The order matters:
 *
 *   new session          the box cannot reach the terminal it came from
 *   parent-death signal  the box does not outlive polexec
 *   signals reset        no inherited ignored signal or blocked mask
 *   cgroups joined       the box's own (limits.c), before it starts more
 *   namespaces entered   user, network, mount and pid, when asked for
 *                        (boxns.c); with a pid namespace, this process
 *                        makes its pid 1 and leaves, and pid 1 goes on
 *                        (init.c)
 *   the view             the box's own root (view.c), with the pinned
 *                        hosts file (net.c) and the secrets on a private
 *                        tmpfs (secrets.c); or those two on the host's
 *   the command's process  pid 1 stays as the box's init (init.c)
 *   command lookup       in the box's PATH, before anything is locked down
 *   capabilities dropped all of them, so a root caller's box is not root;
 *                        before the last ones go, root takes the policy's
 *                        user (boxns.c)
 *   no_new_privs         no setuid gain across execve; Landlock and
 *                        seccomp need it
 *   Landlock             the ruleset the parent built (landlock.c); not
 *                        in learn mode (supervise.c)
 *   stray fds closed     only 0, 1 and 2 reach the box (the ruleset's too;
 *                        the listener's hand-over socket closes at execve)
 *   rlimits applied      late: nofile, fsize, as would hinder the steps
 *   seccomp              last, so the filter only has to allow execve;
 *                        the notify program, its listener handed over,
 *                        when denials are observed (supervise.c)
 *   execve               with the environment built from the policy
 *
 * The child shares polexec's memory until execve (CLONE_VM, run.c): it
 * writes only its own stack, allocates nothing, and leaves only through
 * execve or _exit. With a pid namespace, pid 1 and the command's process
 * have memory of their own (init.c).
 */
#include "child.h"
#include "box/boxns.h"
#include "box/init.h"
#include "lib/kernel.h"
#include "limits/limits.h"
#include "net/fallback.h"
#include "net/net.h"
#include "observe/observe.h"
#include "secrets.h"
#include "lib/util.h"
#include "box/view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * setsid(): the box leads a new session with no controlling terminal, so it
 * cannot TIOCSTI keystrokes into the caller's terminal or signal its
 * process group. After it, a SIGKILL follows polexec's death.
 */
static void new_session(pid_t parent)
{
	if (setsid() < 0)
		die_with_error("child: setsid");
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		die_with_error("child: prctl(PR_SET_PDEATHSIG)");
	/* The parent may have died before the line above. */
	if (getppid() != parent)
		die("child: polexec exited before the command started");
}

/*
 * The signals whose disposition is not the default: SigIgn and SigCgt of
 * /proc/self/status, bit N-1 for signal N. One read instead of a sigaction
 * per signal, the larger part of what polexec adds to a command's start.
 * Returns -1 when /proc cannot tell; then every signal is reset.
 */
static int non_default_signals(uint64_t *mask)
{
	static const char *const keys[] = {"\nSigIgn:\t", "\nSigCgt:\t"};
	char buf[4096];
	ssize_t n, got = 0;
	unsigned k;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[got] = '\0';
	*mask = 0;
	for (k = 0; k < 2; k++) {
		const char *p = strstr(buf, keys[k]);
		uint64_t v = 0;
		int i;

		if (!p)
			return -1;
		p += strlen(keys[k]);
		for (i = 0; i < 16; i++, p++) {
			int d = *p >= '0' && *p <= '9'	 ? *p - '0'
				: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
							 : -1;

			if (d < 0)
				return -1;
			v = v << 4 | (uint64_t)d;
		}
		*mask |= v;
	}
	return 0;
}

/*
 * After it: every signal has its default disposition and none is blocked.
 * The parent blocked the forwarded signals around clone(); one that arrived
 * since is delivered now, with its default action, before execve.
 */
static void reset_signals(void)
{
	struct sigaction sa;
	uint64_t mask = ~(uint64_t)0;
	sigset_t none;
	int sig;

	if (non_default_signals(&mask) < 0)
		mask = ~(uint64_t)0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < _NSIG && sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP ||
		    !(mask >> (sig - 1) & 1))
			continue;
		/* libc reserves a few real-time signals for itself. */
		if (sigaction(sig, &sa, NULL) < 0 && errno != EINVAL)
			die_with_error("child: sigaction(%d, SIG_DFL)", sig);
	}
	if (sigemptyset(&none) < 0)
		die_with_error("child: sigemptyset");
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		die_with_error("child: sigprocmask");
}

/*
 * execve failed: says why and ends the child with code. Under a filter
 * that denies exit_group as well (by an errno: the box's notify program
 * or the policy's own), no syscall can end it: it leaves why for polexec
 * (util.c) and ends on a trap, which no filter sees; polexec refuses.
 */
static _Noreturn void exec_fail(int code, const char *cmd, const char *why)
{
	char msg[600];
	int said;

	snprintf(msg, sizeof(msg), "exec: %.500s: %s", cmd, why);
	said = out(STDERR_FILENO, "polexec: %s\n", msg) == 0;
	syscall(SYS_exit_group, code);
	die_child_note(msg, said);
	__builtin_trap();
}

static const char *box_path(char *const envp[])
{
	for (; *envp; envp++)
		if (strncmp(*envp, "PATH=", 5) == 0)
			return *envp + 5;
	return NULL;
}

/*
 * The command's path: as given when it holds a slash, else the first
 * executable regular file in the box's PATH (empty entries are skipped,
 * never taken as the current directory). No PATH in the box, or no match,
 * is 127; a match that is not executable is 126.
 */
static const char *lookup(const char *cmd, char *const envp[], char *out,
			  size_t outlen)
{
	const char *path = box_path(envp), *dir, *end;
	int denied = 0;

	if (strchr(cmd, '/'))
		return cmd;
	if (!path)
		exec_fail(POLEXEC_EXIT_NOTFOUND, cmd,
			  "not found (the box's environment has no PATH)");
	for (dir = path; *dir; dir = *end ? end + 1 : end) {
		struct stat st;
		size_t dlen;
		int n;

		end = strchr(dir, ':');
		if (!end)
			end = dir + strlen(dir);
		dlen = (size_t)(end - dir);
		if (dlen == 0)
			continue;
		n = snprintf(out, outlen, "%.*s/%s", (int)dlen, dir, cmd);
		if (n < 0 || (size_t)n >= outlen)
			continue;
		if (stat(out, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (access(out, X_OK) == 0)
			return out;
		denied = 1;
	}
	if (denied)
		exec_fail(POLEXEC_EXIT_NOEXEC, cmd,
			  "found in the box's PATH but not executable");
	exec_fail(POLEXEC_EXIT_NOTFOUND, cmd, "not found in the box's PATH");
}

/*
 * After it: the box holds no capability, none it could regain through
 * execve (bounding set emptied where we may, ambient set cleared), so a
 * root caller does not hand the box root's powers. Without CAP_SETPCAP the
 * bounding set cannot be changed, but such a caller has no capability to
 * pass on, and no_new_privs (next) stops file capabilities and setuid.
 */
static void drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	int cap;

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		die_with_error("child: prctl(PR_CAP_AMBIENT_CLEAR_ALL)");
	for (cap = 0; cap < 64; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
			continue;
		if (errno == EINVAL) /* past the kernel's last capability */
			break;
		if (errno == EPERM)
			break;
		die_with_error("child: prctl(PR_CAPBSET_DROP, %d)", cap);
	}
	boxns_child_user(); /* root takes the policy's user, if any */
	memset(data, 0, sizeof(data));
	if (sys_capset(&hdr, data) < 0)
		die_with_error("child: capset(none)");
}

/* After it: no execve can gain privileges (setuid bits, file caps). */
static void set_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die_with_error("child: prctl(PR_SET_NO_NEW_PRIVS)");
}

/*
 * After it: no fd above 2 is open but `keep` (supervise.c's hand-over
 * socket, close-on-exec; -1: none). close_range() where the kernel has it
 * (5.9+), else a loop bounded by RLIMIT_NOFILE's hard limit.
 */
static void close_stray_fds(int keep)
{
	struct rlimit rl;
	unsigned int fd, max;

	if (keep < 3 && sys_close_range(3, ~0U, 0) == 0)
		return;
	if (keep >= 3 && sys_close_range(3, (unsigned)keep - 1, 0) == 0 &&
	    sys_close_range((unsigned)keep + 1, ~0U, 0) == 0)
		return;
	if (errno != ENOSYS && errno != EINVAL)
		die_with_error("child: close_range(3, ~0)");
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		die_with_error("child: getrlimit(RLIMIT_NOFILE)");
	max = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (1u << 20)
		  ? (1u << 20)
		  : (unsigned int)rl.rlim_max;
	for (fd = 3; fd < max; fd++)
		if ((int)fd != keep && close((int)fd) < 0 && errno != EBADF)
			die_with_error("child: close(%u)", fd);
}

/*
 * After it: the policy's filter is the process's last seccomp layer; from
 * here on every syscall, execve included, is the policy's to allow.
 */
static void install_seccomp(const struct policy *p)
{
	struct sock_fprog prog = {
	    .len = p->nfilter,
	    .filter = p->filter,
	};

	if (p->nfilter == 0)
		return;
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		if (errno == ENOSYS)
			die_with_error("child: seccomp(SET_MODE_FILTER) (the "
				       "kernel lacks CONFIG_SECCOMP_FILTER)");
		die_with_error("child: seccomp(SET_MODE_FILTER)");
	}
}

struct box_args {
	const struct policy *p;
	const struct ll_run *ll;
	char *const *envp, *const *argv;
};

/* The command's process: from the lookup to execve. */
static int box_main(void *arg)
{
	const struct box_args *a = arg;
	const struct policy *p = a->p;
	const struct ll_run *ll = a->ll;
	char *const *envp = a->envp, *const *argv = a->argv;
	char found[PATH_MAX];
	const char *path;

	path = lookup(argv[0], envp, found, sizeof(found));
	drop_capabilities();
	set_no_new_privs();
	if (!supervise_learning()) /* learn mode: no Landlock (observe.h) */
		landlock_restrict(ll);
	close_stray_fds(supervise_child_fd());
	limits_child_apply();  /* limits.c: rlimits, late (see there) */
	init_noexec(p);	       /* init.c: where memfds could still run */
	net_fallback_child(p); /* net none without a namespace (fallback.c) */
	net_child_scope(); /* box in the caller's netns: abstract unix scoped */
	/* supervise.c: the notify program, its listener handed over, and
	 * execve, when denials are observed; else the decision program. */
	supervise_child_exec(p, path, argv, envp, exec_fail);
	install_seccomp(p);
	execve(path, argv, envp);
	exec_fail(errno == ENOENT ? POLEXEC_EXIT_NOTFOUND : POLEXEC_EXIT_NOEXEC,
		  argv[0], strerror(errno));
}

_Noreturn void child_exec(const struct policy *p, const struct ll_run *ll,
			  char *const envp[], char *const argv[], pid_t parent)
{
	struct box_args a = {p, ll, envp, argv};
	struct view_extras x = {.secret_point = secrets_mount_point,
				.secrets = secrets_child,
				.host_files = net_child_mounts};

	new_session(parent);
	reset_signals();
	limits_child_join(); /* limits.c: the box's cgroups, first */
	boxns_child_enter(); /* boxns.c: its namespaces */
	init_enter(parent);  /* init.c: from here, pid 1 of its own */
	net_box_files(&x.hosts, &x.resolv);
	view_child(ll, &x);	 /* view.c: its root, hosts file and secrets */
	secrets_child_allow(ll); /* and Landlock lets the box read them */
	init_run(box_main, &a, ll); /* init.c: pid 1 stays, the command runs */
}
