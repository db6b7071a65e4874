// SPDX-License-Identifier: MIT
//
// netserve: a bounded test server for the net suite.
//
//   netserve ADDR SECONDS NAME SPEC...
//
// ADDR is an IPv4 or IPv6 address to bind ("::" also takes IPv4). Each SPEC
// is tcp:PORT or udp:PORT. Every TCP connection gets one line
// "NAME:PORT/tcp\n" and is closed; every UDP datagram is answered with
// "NAME:PORT/udp\n". Prints "ready" once every socket listens, and exits 0
// by itself after SECONDS seconds (alarm), so a test that dies leaves no
// server running for long.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_SOCKS 32

struct lsock {
	int fd;
	int udp;
	unsigned port;
};

static void on_alarm(int sig)
{
	(void)sig;
	_exit(0);
}

static int parse_addr(const char *s, unsigned port, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((unsigned short)port);
		*len = sizeof(*a4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((unsigned short)port);
		*len = sizeof(*a6);
		return AF_INET6;
	}
	return -1;
}

static int open_one(const char *addr, const char *spec, struct lsock *ls)
{
	int udp;
	errno = EINVAL;
	if (strncmp(spec, "tcp:", 4) == 0)
		udp = 0;
	else if (strncmp(spec, "udp:", 4) == 0)
		udp = 1;
	else
		return -1;
	char *end;
	unsigned long port = strtoul(spec + 4, &end, 10);
	if (*end || port == 0 || port > 65535)
		return -1;
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = parse_addr(addr, (unsigned)port, &ss, &len);
	if (fam < 0)
		return -1;
	int fd = socket(fam, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	int one = 1, zero = 0;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fam == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return -1;
	if (!udp && listen(fd, 64) < 0)
		return -1;
	ls->fd = fd;
	ls->udp = udp;
	ls->port = (unsigned)port;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: netserve ADDR SECONDS NAME "
				"tcp:PORT|udp:PORT...\n");
		return 2;
	}
	const char *addr = argv[1];
	unsigned secs = (unsigned)strtoul(argv[2], NULL, 10);
	const char *name = argv[3];
	if (secs == 0 || secs > 3600 || argc - 4 > MAX_SOCKS) {
		fprintf(stderr, "netserve: bad arguments\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);
	alarm(secs);

	struct lsock ls[MAX_SOCKS];
	struct pollfd pfd[MAX_SOCKS];
	int n = 0;
	for (int i = 4; i < argc; i++, n++) {
		if (open_one(addr, argv[i], &ls[n]) < 0) {
			fprintf(stderr, "netserve: %s %s: %s\n", addr, argv[i],
				strerror(errno));
			return 1;
		}
		pfd[n].fd = ls[n].fd;
		pfd[n].events = POLLIN;
	}
	printf("ready\n");
	fflush(stdout);

	for (;;) {
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		for (int i = 0; i < n; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			char msg[128];
			int mlen =
			    snprintf(msg, sizeof(msg), "%s:%u/%s\n", name,
				     ls[i].port, ls[i].udp ? "udp" : "tcp");
			if (ls[i].udp) {
				char buf[512];
				struct sockaddr_storage from;
				socklen_t flen = sizeof(from);
				ssize_t r = recvfrom(
				    ls[i].fd, buf, sizeof(buf), MSG_DONTWAIT,
				    (struct sockaddr *)&from, &flen);
				if (r >= 0)
					sendto(ls[i].fd, msg, (size_t)mlen, 0,
					       (struct sockaddr *)&from, flen);
			} else {
				int c = accept(ls[i].fd, NULL, NULL);
				if (c >= 0) {
					ssize_t w = write(c, msg, (size_t)mlen);
					(void)w;
					close(c);
				}
			}
		}
	}
}
