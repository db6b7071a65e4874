// SPDX-License-Identifier: MIT
//
// netserve: a bounded test server for the net suite.
//
//   netserve ADDR SECONDS NAME SPEC...
//
// ADDR is an IPv4 or IPv6 address to bind ("::" also takes IPv4). Each SPEC
// is tcp:PORT, udp:PORT or dns:PORT. Every TCP connection gets one line
// "NAME:PORT/tcp\n" and is closed; every UDP datagram is answered with
// "NAME:PORT/udp\n"; a DNS query (dns:) gets the answer of the suite's
// zone below. Prints "ready" once every socket listens, and exits 0
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
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_SOCKS 32

struct lsock {
	int fd;
	int udp; /* 1 udp, 2 dns */
	unsigned port;
};

/*
 * The net suite's DNS zone (tests/net/run.sh, t_filtered_dns_*): names the
 * hosts file does not list. fail.test answers SERVFAIL, slow.test never
 * answers, any other name NXDOMAIN.
 */
static const struct {
	const char *name;
	int type; /* 1 A, 28 AAAA */
	const char *addr;
} zone[] = {
    {"dns.test", 1, "10.77.1.2"},     {"dns.test", 28, "fd77:1::2"},
    {"multi.test", 1, "10.77.1.2"},   {"multi.test", 1, "10.77.3.2"},
    {"v6only.test", 28, "fd77:1::2"},
};

/* The answer to the query q (n bytes) into a; its length, 0: none. */
static size_t dns_answer(const unsigned char *q, size_t n, unsigned char *a,
			 size_t cap)
{
	char name[256];
	size_t p = 12, k = 0, len;
	unsigned type, i, count = 0, rcode = 3;

	if (n < 17 || (q[2] & 0x80))
		return 0;
	while (p < n && q[p] && q[p] < 64 && p + 1 + q[p] < n) {
		if (k)
			name[k++] = '.';
		memcpy(name + k, q + p + 1, q[p]);
		k += q[p];
		p += 1u + q[p];
		if (k > 200)
			return 0;
	}
	if (p + 5 > n || q[p])
		return 0;
	name[k] = '\0';
	type = (unsigned)(q[p + 1] << 8 | q[p + 2]);
	len = p + 5; /* header and question */
	if (!strcmp(name, "slow.test") || len > cap)
		return 0;
	memcpy(a, q, len);
	a[7] = 0;
	memset(a + 8, 0, 4); /* no authority, no additional */
	rcode = !strcmp(name, "fail.test") ? 2 : 3;
	for (i = 0; i < sizeof(zone) / sizeof(zone[0]); i++) {
		unsigned char addr[16];
		size_t al = zone[i].type == 1 ? 4 : 16;

		if (strcasecmp(zone[i].name, name))
			continue;
		rcode = 0; /* the name exists */
		if ((unsigned)zone[i].type != type || len + 12 + al > cap)
			continue;
		inet_pton(al == 4 ? AF_INET : AF_INET6, zone[i].addr, addr);
		memcpy(a + len, "\xc0\x0c", 2);
		a[len + 2] = 0;
		a[len + 3] = (unsigned char)type;
		memcpy(a + len + 4, "\0\x01\0\0\0\x3c\0", 7);
		a[len + 11] = (unsigned char)al;
		memcpy(a + len + 12, addr, al);
		len += 12 + al;
		count++;
	}
	a[2] = 0x81; /* an answer, recursion desired */
	a[3] = (unsigned char)(0x80 | rcode);
	a[7] = (unsigned char)count;
	return len;
}

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
	else if (strncmp(spec, "dns:", 4) == 0)
		udp = 2;
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
				"tcp:PORT|udp:PORT|dns:PORT...\n");
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
				unsigned char ans[512];
				size_t alen =
				    r > 0 && ls[i].udp == 2
					? dns_answer((unsigned char *)buf,
						     (size_t)r, ans,
						     sizeof(ans))
					: 0;
				if (alen)
					sendto(ls[i].fd, ans, alen, 0,
					       (struct sockaddr *)&from, flen);
				else if (r >= 0 && ls[i].udp == 1)
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
