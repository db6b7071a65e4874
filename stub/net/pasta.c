/* SPDX-License-Identifier: MIT */
/*
 * pasta connects the box's network namespace to the caller's network
 * without any privilege: a tap device in the box, plain sockets outside.
 * polexec runs it in the foreground as its own child, so it can neither
 * be lost nor outlive the box (a parent-death signal, and net_abort()
 * kills it on every way out), and learns it is ready from its PID file,
 * which is the write end of a pipe: pasta writes its PID there once the
 * namespace is configured.
 *
 *   -f                 foreground: our child, reaped by us
 *   --config-net       addresses, routes, tap up
 *   --no-map-gw        the gateway address is not the host's loopback
 *   -t none -u none    nothing forwarded into the box
 *   -T none -U none    nothing to the host's loopback: the ports the policy
 *                      lists (`loopback`) are relay.c's
 *   --runas 0          as root only: pasta would switch to nobody, who may
 *                      not join a pair that root's helper made
 */
#include "pasta.h"
#include "box/boxns.h"
#include "lib/kernel.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define PASTA_READY_MS 10000

static int errfd = -1;

/* pasta's arguments; a caller who is not root ends them before --runas. */
static const char *const pasta_argv[] = {"pasta",
					 "-f",
					 "-q",
					 "--config-net",
					 "--no-map-gw",
					 "-t",
					 "none",
					 "-u",
					 "none",
					 "-T",
					 "none",
					 "-U",
					 "none",
					 "-P",
					 "/proc/self/fd/5",
					 "--userns",
					 "/proc/self/fd/3",
					 "--netns",
					 "/proc/self/fd/4",
					 "--runas",
					 "0",
					 NULL};

static _Noreturn void exec_pasta(const char *path, int userfd, int netfd,
				 int pidw, pid_t parent)
{
	const char *argv[sizeof(pasta_argv) / sizeof(pasta_argv[0])];
	char *const envp[] = {NULL};
	sigset_t none;
	int devnull;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    getppid() != parent)
		_exit(126);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid(); /* the caller's terminal signals are the box's, not ours */
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	/* fds 0 1 2: /dev/null, /dev/null, the error memfd; 3 4 5: the user
	 * and network namespaces and the PID pipe; nothing else. */
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
	    dup2(errfd, 2) < 0 || dup2(userfd, 3) < 0 || dup2(netfd, 4) < 0 ||
	    dup2(pidw, 5) < 0 || sys_close_range(6, ~0U, 0) < 0)
		_exit(126);
	memcpy(argv, pasta_argv, sizeof(argv));
	if (!boxns_is_root())
		argv[sizeof(argv) / sizeof(argv[0]) - 3] = NULL;
	execve(path, (char *const *)(uintptr_t)argv, envp);
	_exit(127);
}

/* What pasta said on stderr, for a refusal: its last line, controls
 * stripped. */
static const char *pasta_said(char *buf, size_t len)
{
	ssize_t n = pread(errfd, buf, len - 1, 0);
	char *end, *line;

	if (n <= 0)
		return "(nothing on stderr)";
	buf[n] = '\0';
	end = buf + n;
	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	line = strrchr(buf, '\n');
	line = line ? line + 1 : buf;
	strip_controls(line);
	return line;
}

pid_t pasta_start(const char *path, int userfd, int netfd)
{
	struct pollfd pfd;
	char got[32], said[512];
	size_t have = 0;
	int pipefd[2], status;
	pid_t pid, parent = getpid();

	errfd =
	    (int)syscall(SYS_memfd_create, "polexec-pasta-stderr", MFD_CLOEXEC);
	if (errfd < 0)
		die_with_error("net: pasta: memfd_create");
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		die_with_error("net: pasta: pipe");
	pid = fork();
	if (pid < 0)
		die_with_error("net: pasta: fork");
	if (pid == 0)
		exec_pasta(path, userfd, netfd, pipefd[1], parent);
	close(pipefd[1]);
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	for (;;) {
		ssize_t n;
		int r = poll(&pfd, 1, PASTA_READY_MS);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			die("net: pasta: not ready after %d ms",
			    PASTA_READY_MS);
		}
		n = read(pipefd[0], got + have, sizeof(got) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0) {
			have += (size_t)n;
			if (memchr(got, '\n', have) || have == sizeof(got) - 1)
				break;
			continue;
		}
		/* EOF before a PID: pasta ended. */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		die("net: pasta %s: %s",
		    WIFEXITED(status) && WEXITSTATUS(status) == 127
			? "could not be executed"
			: "failed",
		    pasta_said(said, sizeof(said)));
	}
	close(pipefd[0]);
	return pid;
}

void pasta_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
