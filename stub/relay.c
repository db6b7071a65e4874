/* SPDX-License-Identifier: MIT */
/*
 * The box's host loopback ports (`loopback PORTS`), relayed by polexec
 * itself; pasta is for `net filtered` alone.
 *
 *   relay_listen  (net.c's helper, in the box's network namespace) a
 *                 listening socket on each listed port of the box's
 *                 127.0.0.1 and, where the box has IPv6, ::1
 *   relay_start   (parent) a process of ours in the caller's network
 *                 namespace: it accepts on those sockets and, for each
 *                 connection, a child connects to the same port of the
 *                 host's loopback (127.0.0.1 or ::1, as the box asked) and
 *                 copies both ways, one process a direction, so neither
 *                 direction waits on the other
 *   relay_stop    every way out: the relay's process group killed
 *
 * Both ends set TCP_NODELAY: a relay that holds back a small write waits
 * for the box's delayed ACK (pasta's splice did: 34 ms a request). The
 * relay holds no capability and copies bytes without reading them; it
 * and its connections die with polexec (parent-death signals, one a
 * level). At most RELAY_MAX_CONNS connections at once: the relay's
 * processes are outside the box's cgroup, so the box may not make them
 * without bound; a connection past that waits in the listen queue.
 */
#include "relay.h"
#include "kernel.h"
#include "util.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define RELAY_MAX_CONNS 64

static struct {
	int fd[2 * RELAY_MAX_PORTS];
	uint16_t port[2 * RELAY_MAX_PORTS];
	uint8_t v6[2 * RELAY_MAX_PORTS];
	unsigned n;
	pid_t pid;
} R;

unsigned relay_ports(const struct net_spec *s)
{
	unsigned n = 0;
	uint32_t i;

	for (i = 0; i < s->nloopback; i++)
		n += (unsigned)(s->loopback[i][1] - s->loopback[i][0]) + 1;
	return n;
}

/* 127.0.0.1:port or [::1]:port, in a sockaddr_in6 big enough for both. */
static socklen_t loopback_addr(struct sockaddr_in6 *a, int v6, uint16_t port)
{
	memset(a, 0, sizeof(*a));
	a->sin6_port = htons(port);
	if (v6) {
		a->sin6_family = AF_INET6;
		a->sin6_addr.s6_addr[15] = 1;
		return sizeof(*a);
	}
	a->sin6_family = AF_INET;
	((struct sockaddr_in *)(void *)a)->sin_addr.s_addr =
	    htonl(INADDR_LOOPBACK);
	return sizeof(struct sockaddr_in);
}

void relay_listen(const struct net_spec *s)
{
	struct sockaddr_in6 a;
	uint32_t i;
	unsigned p;
	int v6;

	for (i = 0; i < s->nloopback; i++)
		for (p = s->loopback[i][0]; p <= s->loopback[i][1]; p++)
			for (v6 = 0; v6 < 2; v6++) {
				socklen_t len =
				    loopback_addr(&a, v6, (uint16_t)p);
				int fd = socket(a.sin6_family,
						SOCK_STREAM | SOCK_CLOEXEC |
						    SOCK_NONBLOCK,
						0);

				/* No IPv6 in the box: nothing to listen on. */
				if (v6 && fd < 0 && errno == EAFNOSUPPORT)
					continue;
				if (fd >= 0 &&
				    bind(fd, (struct sockaddr *)&a, len) < 0 &&
				    v6 && errno == EADDRNOTAVAIL) {
					close(fd);
					continue;
				}
				if (fd < 0 || listen(fd, 128) < 0)
					die_with_error("net: relay: listen on "
						       "the box's %s port %u",
						       v6 ? "::1" : "127.0.0.1",
						       p);
				R.fd[R.n] = fd;
				R.port[R.n] = (uint16_t)p;
				R.v6[R.n++] = (uint8_t)v6;
			}
}

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* Copies until from ends, then ends to's writing side. */
static void copy(int from, int to)
{
	char buf[16384];
	ssize_t n, w;

	while ((n = read(from, buf, sizeof(buf))) > 0)
		for (w = 0; w < n;) {
			ssize_t k = write(to, buf + w, (size_t)(n - w));

			if (k < 0 && errno != EINTR)
				goto out;
			w += k > 0 ? k : 0;
		}
out:
	shutdown(to, SHUT_WR);
}

static void die_with_parent(void)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		_exit(126);
}

/* One connection: the host's side, then a process a direction. The
 * host refusing: the box's connection is reset, as a refused one. */
static _Noreturn void relay_conn(int box, unsigned i)
{
	static const struct linger reset = {1, 0};
	struct sockaddr_in6 a;
	socklen_t len = loopback_addr(&a, R.v6[i], R.port[i]);
	int host = socket(a.sin6_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	pid_t up;

	die_with_parent();
	if (host < 0 || connect(host, (struct sockaddr *)&a, len) < 0) {
		setsockopt(box, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
		_exit(0);
	}
	nodelay(box);
	nodelay(host);
	up = fork();
	if (up == 0) {
		die_with_parent();
		copy(box, host);
		_exit(0);
	}
	copy(host, box);
	/* The other direction dies with us: wait for it to end. */
	while (up > 0 && waitpid(up, NULL, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* Only the listeners stay open: the relay must hold no pipe or file of
 * polexec's, whose end someone may wait for. */
static void close_others(void)
{
	int fd, top = 0;
	unsigned i;

	for (i = 0; i < R.n; i++)
		top = R.fd[i] > top ? R.fd[i] : top;
	for (fd = 0; fd < top; fd++) {
		for (i = 0; i < R.n && R.fd[i] != fd; i++)
			;
		if (i == R.n)
			close(fd);
	}
	sys_close_range((unsigned)top + 1, ~0U, 0);
}

static _Noreturn void relay_main(pid_t parent)
{
	struct pollfd pfd[2 * RELAY_MAX_PORTS];
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct none[2] = {{0, 0, 0}, {0, 0, 0}};
	unsigned live = 0, i;
	sigset_t all;

	if (getppid() != parent)
		_exit(126);
	die_with_parent();
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	setsid(); /* our own group, which relay_stop kills */
	close_others();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    sys_capset(&hdr, none) < 0)
		_exit(126);
	for (i = 0; i < R.n; i++)
		pfd[i] = (struct pollfd){R.fd[i], POLLIN, 0};
	for (;;) {
		while (live && waitpid(-1, NULL, WNOHANG) > 0)
			live--;
		if (live >= RELAY_MAX_CONNS) {
			poll(NULL, 0, 20);
			continue;
		}
		if (poll(pfd, R.n, live ? 100 : -1) <= 0)
			continue;
		for (i = 0; i < R.n; i++) {
			pid_t pid;
			int c;

			if (!(pfd[i].revents & POLLIN))
				continue;
			c = accept4(R.fd[i], NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			pid = fork();
			if (pid == 0)
				relay_conn(c, i);
			live += pid > 0;
			close(c);
		}
	}
}

void relay_start(void)
{
	pid_t parent = getpid();
	unsigned i;

	if (!R.n)
		return;
	R.pid = fork();
	if (R.pid < 0)
		die_with_error("net: relay: fork");
	if (R.pid == 0)
		relay_main(parent);
	for (i = 0; i < R.n; i++)
		close(R.fd[i]);
}

void relay_stop(void)
{
	if (R.pid <= 0)
		return;
	kill(-R.pid, SIGKILL);
	kill(R.pid, SIGKILL);
	while (waitpid(R.pid, NULL, 0) < 0 && errno == EINTR)
		;
	R.pid = 0;
}
