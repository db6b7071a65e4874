// SPDX-License-Identifier: MIT
//
// netserve: a bounded test server for the net suite.
//
//   netserve ADDR SECONDS NAME SPEC...
//
// ADDR is an IPv4 or IPv6 address to bind ("::" also takes IPv4). Each SPEC
// is tcp:PORT or udp:PORT, or one of the bad DNS servers below. Every TCP
// connection gets one line "NAME:PORT/tcp\n" and is closed; every UDP
// datagram is answered with "NAME:PORT/udp\n" (which, on port 53, is
// garbage to a resolver). Prints "ready" once every socket listens, and
// exits 0 by itself after SECONDS seconds (alarm), so a test that dies
// leaves no server running for long.
//
// Bad DNS servers for polexec's resolver (tests/net/run.sh, t_dns_*; the
// good one is dnsmasq), UDP too:
//   mute:PORT     never answers; prints "mute: N bytes" per datagram
//   dnsloop:PORT  answers each query as its own (its id and question, QR
//                 set), with one A record whose owner name is a
//                 compression pointer to itself
//   dnstc:PORT    answers each query as its own with TC set
//   dnsfail:PORT  answers each query as its own with SERVFAIL
//
// A stranger for the box's UDP flows (t_filtered_udp_replies_only_from_dest):
//   knock:PORT,DST,DPORT  every 100 ms sends "knock" from ADDR:PORT to
//                 DST:DPORT, whoever listens there; prints "NAME: reply
//                 from SRC: TEXT" for every datagram that comes back
//
// And a TCP server that echoes (for polexec's relay of loopback ports):
//   echo:PORT     each connection, in a child of its own (10 s alarm),
//                 gets back what it sends until it shuts its side down,
//                 and then the server's side is closed
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SOCKS 32

enum mode { TCP, UDP, MUTE, DNSLOOP, DNSTC, DNSFAIL, ECHO, KNOCK };

struct lsock {
	int fd;
	enum mode mode;
	unsigned port;
	struct sockaddr_storage dst; // KNOCK's
	socklen_t dstlen;
};

// A bad answer to the query q (n bytes) into out: its header and
// question (not its EDNS record), QR set, and what mode says; its
// length, or 0.
static size_t bad_dns(enum mode mode, const unsigned char *q, size_t n,
		      unsigned char *out, size_t cap)
{
	// type A, class IN, TTL 300, 4 bytes: 10.77.1.2
	static const unsigned char rr[] = {0,  1, 0, 1,	 0,  0, 1,
					   44, 0, 4, 10, 77, 1, 2};
	size_t p = 12;

	while (p < n && q[p] && q[p] < 64)
		p += 1u + q[p];
	p += 5; // the root, type and class
	if (n < 17 || p > n || p + 2 + sizeof(rr) > cap || (q[2] & 0x80))
		return 0;
	memcpy(out, q, p);
	out[2] =
	    (unsigned char)(0x80 | (mode == DNSTC ? 0x02 : 0) | (q[2] & 0x01));
	out[3] = (unsigned char)(0x80 | (mode == DNSFAIL ? 2 : 0));
	memset(out + 6, 0, 6); // no records but those below
	if (mode != DNSLOOP)
		return p;
	out[7] = 1; // one answer: a name pointing at itself
	out[p] = (unsigned char)(0xc0 | p >> 8);
	out[p + 1] = (unsigned char)(p & 0xff);
	memcpy(out + p + 2, rr, sizeof(rr));
	return p + 2 + sizeof(rr);
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
	static const char *const modes[] = {"tcp",     "udp",	"mute",
					    "dnsloop", "dnstc", "dnsfail",
					    "echo",    "knock"};
	const char *colon = strchr(spec, ':');
	enum mode mode = TCP;
	errno = EINVAL;
	while (mode <= KNOCK &&
	       (!colon || strlen(modes[mode]) != (size_t)(colon - spec) ||
		strncmp(spec, modes[mode], (size_t)(colon - spec))))
		mode++;
	if (mode > KNOCK)
		return -1;
	int udp = mode != TCP && mode != ECHO;
	char *end;
	unsigned long port = strtoul(colon + 1, &end, 10);
	if ((mode == KNOCK ? *end != ',' : *end != '\0') || port == 0 ||
	    port > 65535)
		return -1;
	if (mode == KNOCK) {
		char dst[64];
		const char *comma = strchr(end + 1, ',');
		unsigned long dport;
		if (!comma || (size_t)(comma - end - 1) >= sizeof(dst))
			return -1;
		memcpy(dst, end + 1, (size_t)(comma - end - 1));
		dst[comma - end - 1] = '\0';
		dport = strtoul(comma + 1, &end, 10);
		if (*end || dport == 0 || dport > 65535 ||
		    parse_addr(dst, (unsigned)dport, &ls->dst, &ls->dstlen) < 0)
			return -1;
	}
	struct sockaddr_storage ss;
	socklen_t len;
	int fam = parse_addr(addr, (unsigned)port, &ss, &len);
	if (fam < 0 || (mode == KNOCK && fam != ls->dst.ss_family))
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
	ls->mode = mode;
	ls->port = (unsigned)port;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr,
			"usage: netserve ADDR SECONDS NAME "
			"tcp:PORT|udp:PORT|mute:PORT|dnsloop:PORT|...\n");
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
	signal(SIGCHLD, SIG_IGN); // echo's children reap themselves
	int knocks = 0;
	for (int i = 0; i < n; i++)
		knocks |= ls[i].mode == KNOCK;
	printf("ready\n");
	fflush(stdout);

	for (;;) {
		int pr = poll(pfd, (nfds_t)n, knocks ? 100 : -1);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		for (int i = 0; pr == 0 && i < n; i++)
			if (ls[i].mode == KNOCK)
				sendto(ls[i].fd, "knock\n", 6, 0,
				       (struct sockaddr *)&ls[i].dst,
				       ls[i].dstlen);
		for (int i = 0; i < n; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			unsigned char msg[600];
			int mlen = snprintf((char *)msg, sizeof(msg),
					    "%s:%u/%s\n", name, ls[i].port,
					    ls[i].mode == TCP ? "tcp" : "udp");
			if (ls[i].mode == ECHO) {
				int c = accept(ls[i].fd, NULL, NULL);
				if (c >= 0 && fork() == 0) {
					alarm(10);
					char buf[65536];
					ssize_t r;
					while ((r = read(c, buf, sizeof(buf))) >
					       0)
						for (ssize_t w = 0, k; w < r;
						     w += k)
							if ((k = write(
								 c, buf + w,
								 (size_t)(r -
									  w))) <=
							    0)
								_exit(1);
					_exit(0);
				}
				if (c >= 0)
					close(c);
			} else if (ls[i].mode != TCP) {
				unsigned char buf[512];
				struct sockaddr_storage from;
				socklen_t flen = sizeof(from);
				ssize_t r = recvfrom(
				    ls[i].fd, buf, sizeof(buf), MSG_DONTWAIT,
				    (struct sockaddr *)&from, &flen);
				if (r < 0)
					continue;
				if (ls[i].mode == KNOCK) {
					char src[INET6_ADDRSTRLEN] = "?";
					int k = 0;
					if (from.ss_family == AF_INET)
						inet_ntop(AF_INET,
							  &((struct sockaddr_in
								 *)&from)
							       ->sin_addr,
							  src, sizeof(src));
					else
						inet_ntop(AF_INET6,
							  &((struct sockaddr_in6
								 *)&from)
							       ->sin6_addr,
							  src, sizeof(src));
					while (k < r && buf[k] >= 0x20 &&
					       buf[k] < 0x7f)
						k++;
					printf("%s: reply from %s: %.*s\n",
					       name, src, k, (char *)buf);
					fflush(stdout);
					continue;
				}
				if (ls[i].mode == MUTE) {
					printf("mute: %zd bytes\n", r);
					fflush(stdout);
					continue;
				}
				if (ls[i].mode != UDP)
					mlen = (int)bad_dns(ls[i].mode, buf,
							    (size_t)r, msg,
							    sizeof(msg));
				if (mlen > 0)
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
