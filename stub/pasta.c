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
 *   --config-net       (filtered only) addresses, routes, tap up; without
 *                      it the tap stays down and the box has no route
 *   --no-map-gw        the gateway address is not the host's loopback
 *   -t none -u none    nothing forwarded into the box
 *   -T PORTS|none      host loopback TCP ports the policy lists (`loopback`)
 *   -U none            no UDP to the host's loopback
 *   --runas 0          as root only: pasta would switch to nobody, who may
 *                      not join a pair that root's helper made
 */
#include "pasta.h"
#include "boxns.h"
#include "kernel.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define PASTA_READY_MS 10000

static int errfd = -1;

/* The -T argument: "none" or "8080,9000-9010". */
static void tcp_ns_ports(const struct net_spec *s, char *buf, size_t len)
{
	size_t used = 0;
	uint32_t i;

	if (!s->nloopback) {
		snprintf(buf, len, "none");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < s->nloopback && used < len; i++) {
		unsigned lo = s->loopback[i][0], hi = s->loopback[i][1];
		int n = lo == hi ? snprintf(buf + used, len - used, "%s%u",
					    i ? "," : "", lo)
				 : snprintf(buf + used, len - used, "%s%u-%u",
					    i ? "," : "", lo, hi);

		if (n < 0 || (size_t)n >= len - used)
			die("net: pasta: too many loopback ports");
		used += (size_t)n;
	}
}

static _Noreturn void exec_pasta(const char *path, const struct net_spec *s,
				 int userfd, int netfd, int pidw, pid_t parent)
{
	char ports[POLBIN_NET_MAX_LOOPBACK * 12 + 8];
	const char *argv[32];
	char *const envp[] = {NULL};
	sigset_t none;
	int n = 0, devnull;

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
	tcp_ns_ports(s, ports, sizeof(ports));
	argv[n++] = "pasta";
	argv[n++] = "-f";
	argv[n++] = "-q";
	if (s->mode == POLBIN_NET_FILTERED)
		argv[n++] = "--config-net";
	argv[n++] = "--no-map-gw";
	argv[n++] = "-t";
	argv[n++] = "none";
	argv[n++] = "-u";
	argv[n++] = "none";
	argv[n++] = "-T";
	argv[n++] = ports;
	argv[n++] = "-U";
	argv[n++] = "none";
	if (boxns_is_root()) {
		argv[n++] = "--runas";
		argv[n++] = "0";
	}
	argv[n++] = "-P";
	argv[n++] = "/proc/self/fd/5";
	argv[n++] = "--userns";
	argv[n++] = "/proc/self/fd/3";
	argv[n++] = "--netns";
	argv[n++] = "/proc/self/fd/4";
	argv[n] = NULL;
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

pid_t pasta_start(const char *path, const struct net_spec *s, int userfd,
		  int netfd)
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
		exec_pasta(path, s, userfd, netfd, pipefd[1], parent);
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

/* A route to lo's own address in the local table, with the quickack
 * metric. x: v4's preferred source (127.0.0.1), v6's metric (0, the
 * kernel's, which a delete may name and an add turns into 1024). */
struct lo_route {
	struct nlmsghdr h;
	struct rtmsg r;
	struct rtattr oif_a;
	uint32_t oif;
	struct rtattr x_a;
	uint8_t x[4];
	struct rtattr metrics_a, quickack_a;
	uint32_t quickack;
	struct rtattr dst_a;
	uint8_t dst[16];
};

/* clang-format off */
#define LO_ROUTE(type, flags, family, alen, x_type, x, addr)		\
	{{offsetof(struct lo_route, dst) + (alen), (type),		\
	  NLM_F_REQUEST | NLM_F_ACK | (flags), 0, 0},			\
	 {(family), (alen) * 8, 0, 0, RT_TABLE_LOCAL, RTPROT_KERNEL,	\
	  RT_SCOPE_HOST, RTN_LOCAL, 0},					\
	 {8, RTA_OIF}, 1 /* lo: every namespace's first interface */,	\
	 {8, (x_type)}, x, {4 + 8, RTA_METRICS}, {8, RTAX_QUICKACK}, 1,	\
	 {4 + (alen), RTA_DST}, addr}
#define LO_IP4 {127, 0, 0, 1}
#define LO_IP6 {[15] = 1}
#define LO_METRIC0 {0}

static const struct lo_route lo_routes[] = {
	LO_ROUTE(RTM_NEWROUTE, NLM_F_REPLACE, AF_INET, 4,
		 RTA_PREFSRC, LO_IP4, LO_IP4),
	LO_ROUTE(RTM_DELROUTE, 0, AF_INET6, 16,
		 RTA_PRIORITY, LO_METRIC0, LO_IP6),
	LO_ROUTE(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL, AF_INET6, 16,
		 RTA_PRIORITY, LO_METRIC0, LO_IP6),
};
/* clang-format on */

/* The kernel's answer to one of them: 0 or -errno. */
static int lo_route_send(int fd, const struct lo_route *m)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} answer;
	ssize_t n = send(fd, m, m->h.nlmsg_len, 0) < 0
			? -1
			: recv(fd, &answer, sizeof(answer), 0);

	if (n < 0)
		return -errno;
	if (n < (ssize_t)sizeof(answer) || answer.h.nlmsg_type != NLMSG_ERROR)
		return -EBADMSG;
	return answer.e.error;
}

/*
 * pasta splices a loopback port through two sockets of its own with
 * Nagle's algorithm on: a reply the server writes in two parts (headers,
 * body) leaves pasta's second write waiting for the box to acknowledge
 * the first, and a request/reply connection's ACKs are delayed, up to
 * 40 ms. The quickack metric on the box's routes to its own loopback
 * makes the box acknowledge at once: 50 requests on one connection took
 * 1,524 ms and take 48 (docs/BENCHMARKS.md). IPv4's route is replaced;
 * IPv6's cannot be (the kernel's has metric 0, which a request cannot
 * name), so it is taken out and put back with the metric. A namespace
 * without IPv6 has nothing to change there.
 */
void pasta_quickack(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE),
	    e = fd < 0 ? -errno : lo_route_send(fd, &lo_routes[0]);

	if (!e) {
		e = lo_route_send(fd, &lo_routes[1]);
		if (e == -EAFNOSUPPORT || e == -ESRCH)
			e = 0; /* no IPv6 in the namespace */
		else if (!e)
			e = lo_route_send(fd, &lo_routes[2]);
	}
	if (e) {
		errno = -e;
		die_with_error("net: lo: quickack on its own routes");
	}
	close(fd);
}

void pasta_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
