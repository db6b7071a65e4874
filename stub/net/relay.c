/* SPDX-License-Identifier: MIT */
/*
 * The box's host loopback ports (`loopback PORTS`), relayed by polexec
 * itself; pasta is for `net filtered` alone.
 *
 *   relay_listen  (net.c's helper, in the box's network namespace) a
 *                 listening socket on each listed port of the box's
 *                 127.0.0.1 and, where the box has IPv6, ::1
 *   relay_start   (parent) a process of ours in the caller's network
 *                 namespace: one poll loop accepts on those sockets,
 *                 connects each connection to the same port of the host's
 *                 loopback (127.0.0.1 or ::1, as the box asked; the other
 *                 one when the host refuses that one), and copies
 *                 both ways without blocking, each direction with a buffer
 *                 of its own, half-closes passed on
 *   relay_stop    every way out: the relay killed, and its sockets with it
 *
 * Both ends set TCP_NODELAY: a relay that holds back a small write waits
 * for the box's delayed ACK (pasta's splice did: 30 ms a request on a
 * kept-alive connection). The relay holds no capability, copies bytes
 * without reading them, and dies with polexec (a parent-death signal).
 * At most RELAY_MAX_CONNS connections at once (its memory is bounded, and
 * it is outside the box's cgroup); past that, a connection waits in the
 * listen queue.
 */
#include "relay.h"
#include "lib/kernel.h"
#include "lib/util.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RELAY_MAX_CONNS 64
#define RELAY_BUF	16384

static struct {
	int fd[2 * POLBIN_NET_RELAY_MAX_PORTS];
	uint16_t port[2 * POLBIN_NET_RELAY_MAX_PORTS];
	uint8_t v6[2 * POLBIN_NET_RELAY_MAX_PORTS];
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

/* A connection: fd[0] the box's side, fd[1] the host's; buf[d] holds
 * what was read from fd[d] and is not yet written to fd[!d] (len[d]
 * bytes from off[d]); eof[d]: fd[d] ended, and fd[!d]'s writing side was
 * shut down after it. fd[0] < 0: a free slot. */
struct conn {
	int fd[2];
	uint32_t off[2], len[2];
	uint8_t eof[2];
	uint8_t v6, other_tried; /* the host's side: family, fallback */
	uint16_t port;
	char buf[2][RELAY_BUF];
};

static struct conn *C; /* RELAY_MAX_CONNS of them, the relay's alone */

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* Ends c; the box's side is reset when something failed (a host that
 * refused, a side reset), as a direct connection would have been. */
static void conn_end(struct conn *c, int failed)
{
	static const struct linger reset = {1, 0};

	if (failed)
		setsockopt(c->fd[0], SOL_SOCKET, SO_LINGER, &reset,
			   sizeof(reset));
	close(c->fd[0]);
	close(c->fd[1]);
	memset(c, 0, sizeof(*c) - sizeof(c->buf));
	c->fd[0] = c->fd[1] = -1;
}

/* c's host side: the port of the host's loopback in c's family; 0, or
 * -1 with errno. */
static int host_connect(struct conn *c)
{
	struct sockaddr_in6 a;
	socklen_t len = loopback_addr(&a, c->v6, c->port);
	int fd = socket(a.sin6_family, SOCK_STREAM | SOCK_NONBLOCK, 0);

	c->fd[1] = fd;
	if (fd < 0)
		return -1;
	nodelay(fd);
	return connect(fd, (struct sockaddr *)&a, len) == 0 ||
		       errno == EINPROGRESS
		   ? 0
		   : -1;
}

/* The host refused c in its family, or has not got it (its server
 * listens on the other one alone, which a `localhost` client would find
 * out by trying both): the other family, once, before anything came
 * back. 1 when c goes on. */
static int host_other(struct conn *c, int failed_side)
{
	if (failed_side != 1 || c->other_tried ||
	    (errno != ECONNREFUSED && errno != EAFNOSUPPORT &&
	     errno != EADDRNOTAVAIL && errno != ENETUNREACH))
		return 0;
	close(c->fd[1]);
	c->v6 ^= 1;
	c->other_tried = 1;
	return host_connect(c) == 0;
}

/* The box connected to listener i: the same port of the host's loopback,
 * in a free slot (there is one: the listeners are not polled when not).
 * 1 when the connection is relayed. */
static int conn_start(unsigned i)
{
	int box = (int)syscall(SYS_accept4, R.fd[i], NULL, NULL, SOCK_NONBLOCK);
	struct conn *c = C;

	if (box < 0)
		return 0;
	while (c->fd[0] >= 0)
		c++;
	c->fd[0] = box;
	c->v6 = R.v6[i];
	c->port = R.port[i];
	nodelay(box);
	if (host_connect(c) == 0 || host_other(c, 1))
		return 1;
	conn_end(c, 1);
	return 0;
}

/* What poll said of c's two sockets (q[0] the box's, q[1] the host's):
 * each direction, fd[d] to fd[!d], reads when its buffer is empty and
 * writes what it holds at once (a socket not ready says EAGAIN, and
 * POLLOUT is asked for then): a round of poll a hop saved. 1 when c
 * ended. */
static int conn_step(struct conn *c, const struct pollfd *q)
{
	int d, side;

	for (d = 0; d < 2; d++) {
		ssize_t n;

		side = d;
		if ((q[d].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    !c->len[d] && !c->eof[d]) {
			n = read(c->fd[d], c->buf[d], RELAY_BUF);
			if (n < 0 && errno != EAGAIN)
				goto failed;
			if (n > 0) {
				c->off[d] = 0;
				c->len[d] = (uint32_t)n;
			} else if (n == 0) {
				c->eof[d] = 1;
				shutdown(c->fd[!d], SHUT_WR);
			}
		}
		side = !d;
		if (c->len[d]) {
			n = send(c->fd[!d], c->buf[d] + c->off[d], c->len[d],
				 MSG_NOSIGNAL);
			if (n < 0 && errno != EAGAIN)
				goto failed;
			if (n > 0) {
				c->off[d] += (uint32_t)n;
				c->len[d] -= (uint32_t)n;
			}
		}
	}
	if (!(c->eof[0] && c->eof[1]))
		return 0;
	conn_end(c, 0);
	return 1;
failed:
	if (host_other(c, side))
		return 0;
	conn_end(c, 1);
	return 1;
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
	static struct pollfd
	    pfd[2 * POLBIN_NET_RELAY_MAX_PORTS + 2 * RELAY_MAX_CONNS];
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct none[2] = {{0, 0, 0}, {0, 0, 0}};
	unsigned live = 0, i, d;
	sigset_t all;

	if (getppid() != parent ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		_exit(126);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	setsid(); /* the caller's terminal signals are the box's, not ours */
	close_others();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    sys_capset(&hdr, none) < 0)
		_exit(126);
	C = mmap(NULL, RELAY_MAX_CONNS * sizeof(*C), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (C == MAP_FAILED)
		_exit(126);
	for (i = 0; i < RELAY_MAX_CONNS; i++)
		C[i].fd[0] = C[i].fd[1] = -1;
	for (;;) {
		struct pollfd *q = pfd + R.n;

		for (i = 0; i < R.n; i++)
			pfd[i] = (struct pollfd){
			    live < RELAY_MAX_CONNS ? R.fd[i] : -1, POLLIN, 0};
		/* A socket wanted for nothing now is not polled: its error
		 * or hang-up would wake the loop at once, and again. */
		for (i = 0; i < RELAY_MAX_CONNS; i++)
			for (d = 0; d < 2; d++, q++) {
				short ev =
				    (short)((C[i].len[d] || C[i].eof[d]
						 ? 0
						 : POLLIN) |
					    (C[i].len[!d] ? POLLOUT : 0));

				*q = (struct pollfd){ev ? C[i].fd[d] : -1, ev,
						     0};
			}
		if (poll(pfd, R.n + 2 * RELAY_MAX_CONNS, -1) < 0)
			continue;
		for (i = 0; i < RELAY_MAX_CONNS; i++)
			if (C[i].fd[0] >= 0)
				live -= (unsigned)conn_step(&C[i],
							    pfd + R.n + 2 * i);
		for (i = 0; i < R.n; i++)
			if ((pfd[i].revents & POLLIN) && live < RELAY_MAX_CONNS)
				live += (unsigned)conn_start(i);
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
	kill(R.pid, SIGKILL);
	while (waitpid(R.pid, NULL, 0) < 0 && errno == EINTR)
		;
	R.pid = 0;
}
