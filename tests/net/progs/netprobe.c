// SPDX-License-Identifier: MIT
//
// netprobe: one network probe per run, for the net suite. Prints one line
// "PROBE: RESULT", PROBE being its arguments joined by spaces ("tcp
// 10.77.1.2 8080: h1:8080/tcp"), so the lines of several probes run one
// after another say which is which. Exits 0 on success, 1 on refusal or failure
// (the result then names the errno, e.g. "tcp: errno=EPERM"), 2 on bad usage.
//
//   tcp HOST PORT      connect (1.5 s timeout), print the line the server
//                      sends
//   udp HOST PORT      send one datagram, print the reply (1.5 s timeout)
//   udpbind LPORT HOST PORT SECS TAG
//                      from a socket bound to port LPORT (any address of
//                      HOST's family), send one datagram to HOST:PORT and
//                      take its reply; then for SECS seconds answer every
//                      datagram from any other source with "TAG\n":
//                      "reply=TOKEN strangers=N" (N datagrams from others)
//   withfd FD KIND [HOST PORT] CMD...
//                      a socket of KIND as fd FD, then exec CMD (no
//                      output of its own; the alarm cancelled): tcp HOST
//                      PORT (connected), udp (AF_INET, unbound), unix
//                      (one end of an AF_UNIX socketpair), vsock
//                      (AF_VSOCK stream), netlink (NETLINK_ROUTE),
//                      nfnetlink (NETLINK_NETFILTER), pipe
//                      (the read end of a pipe)
//   reuse FD HOST PORT the socket at fd FD dissolved (connect AF_UNSPEC)
//                      and connected to HOST:PORT: the line the server
//                      sends (the vector of a socket handed to the box)
//   vsock              socket(AF_VSOCK, SOCK_STREAM, 0)
//   resolve NAME       getaddrinfo: "resolve: ADDR..." (sorted, unique)
//   raw                socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)
//   raw6               socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6)
//   packet             socket(AF_PACKET, SOCK_RAW, 0)
//   netlink N          socket(AF_NETLINK, SOCK_RAW, N)
//   iouring            io_uring_setup(1, params)
//   routes             "routes: default4=yes|no default6=yes|no", from
//                      /proc/net/route and /proc/net/ipv6_route
//   echo HOST PORT N   send N bytes to an echo server while reading
//                      back, then shut down and read to the end: "N bytes
//                      back" when every byte came back in order
//   ptrace WHO         PTRACE_ATTACH to WHO: a pid, or the first process
//                      of our real uid whose comm starts with WHO (not
//                      this one): "ptrace WHO: ok" (then detached) or the
//                      errno; "none" when no such process is visible
//   nftdel FAM TABLE   an nf_tables batch deleting table TABLE of family
//                      FAM (inet, ip, ip6): the box's attempt on its own
//                      egress table. Deliberately no "every table" form:
//                      run by mistake outside a namespace, that would
//                      flush the host's ruleset.
//   tfo HOST PORT      TCP Fast Open: sendto(MSG_FASTOPEN) to HOST:PORT
//                      on an unconnected socket, print the server's line
//   tfoc HOST PORT     TCP Fast Open the other way: TCP_FASTOPEN_CONNECT
//                      set, connect (which sends nothing yet), then write:
//                      the server's line
//   mptcp HOST PORT    socket(IPPROTO_MPTCP) connected to HOST:PORT: the
//                      server's line, or the errno ("errno=E... (socket)"
//                      when the socket itself was refused)
//   udpto HOST PORT    unconnected UDP: sendto, then the reply
//   fdtcp FD HOST PORT connect the socket at FD (handed in from outside)
//   bpfdetach DIR      BPF_PROG_DETACH of the connect4 programs of the
//                      cgroup DIR: "ok" or the errno
//   bpfattach DIR      load an allow-everything connect4 program and
//                      attach it to DIR with BPF_F_ALLOW_MULTI: "ok" or
//                      the errno
//   cgmove DIR         write "0" to DIR/cgroup.procs (this process
//                      leaves its cgroup for DIR): "ok" or the errno
//
// The whole run is bounded by an alarm (5 s).
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <dirent.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>

#define TIMEOUT_MS 1500

static const char *what = "netprobe";

static int fail_errno(int e)
{
	const char *n = strerrorname_np(e);
	if (n)
		printf("%s: errno=%s\n", what, n);
	else
		printf("%s: errno=%d\n", what, e);
	return 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = ": timeout (alarm)\n";
	ssize_t w = write(1, what, strlen(what));
	w = write(1, msg, sizeof(msg) - 1);
	(void)w;
	_exit(1);
}

static struct addrinfo *lookup(const char *host, const char *port, int type)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = type;
	hints.ai_flags = AI_NUMERICSERV;
	int r = getaddrinfo(host, port, &hints, &res);
	if (r != 0) {
		printf("%s: resolve failed (%s)\n", what, gai_strerror(r));
		return NULL;
	}
	return res;
}

// Waits for fd to be readable (or writable); 0 on ready, an errno else.
static int wait_fd(int fd, short ev)
{
	struct pollfd p = {.fd = fd, .events = ev};
	int r = poll(&p, 1, TIMEOUT_MS);
	if (r < 0)
		return errno;
	if (r == 0)
		return ETIMEDOUT;
	return 0;
}

// Prints the first line of buf (up to len) as the result.
static int print_token(const char *buf, ssize_t len)
{
	int n = 0;
	while (n < len && buf[n] != '\n' && buf[n] != '\r')
		n++;
	printf("%s: %.*s\n", what, n, buf);
	return 0;
}

// The server's line on fd, connected or connecting.
static int read_token(int fd)
{
	int e = wait_fd(fd, POLLIN);
	if (e)
		return fail_errno(e);
	char buf[256];
	ssize_t r = read(fd, buf, sizeof(buf));
	if (r < 0)
		return fail_errno(errno);
	if (r == 0) {
		printf("%s: connected, no token\n", what);
		return 1;
	}
	return print_token(buf, r);
}

static int probe_tcp(const char *host, const char *port)
{
	struct addrinfo *ai = lookup(host, port, SOCK_STREAM);
	if (!ai)
		return 1;
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return fail_errno(errno);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS)
			return fail_errno(errno);
		int e = wait_fd(fd, POLLOUT);
		if (e)
			return fail_errno(e);
		socklen_t l = sizeof(e);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l) < 0)
			return fail_errno(errno);
		if (e)
			return fail_errno(e);
	}
	return read_token(fd);
}

// A UDP socket of HOST's family, *ai its address; -1 (said) on failure.
static int udp_open(const char *host, const char *port, struct addrinfo **ai)
{
	*ai = lookup(host, port, SOCK_DGRAM);
	if (!*ai)
		return -1;
	int fd = socket((*ai)->ai_family, SOCK_DGRAM, 0);
	if (fd < 0)
		fail_errno(errno);
	return fd;
}

static int probe_udp(const char *host, const char *port)
{
	struct addrinfo *ai;
	int fd = udp_open(host, port, &ai);
	if (fd < 0)
		return 1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	if (send(fd, "ping\n", 5, 0) < 0)
		return fail_errno(errno);
	int e = wait_fd(fd, POLLIN);
	if (e)
		return fail_errno(e);
	char buf[256];
	ssize_t r = recv(fd, buf, sizeof(buf), 0);
	if (r < 0)
		return fail_errno(errno);
	return print_token(buf, r);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int same_addr(const struct sockaddr_storage *a, const struct addrinfo *b)
{
	if (a->ss_family != b->ai_family)
		return 0;
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)a,
					 *y = (const void *)b->ai_addr;
		return x->sin_port == y->sin_port &&
		       x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	const struct sockaddr_in6 *x = (const void *)a,
				  *y = (const void *)b->ai_addr;
	return x->sin6_port == y->sin6_port &&
	       !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr));
}

static int probe_udpbind(const char *lport, const char *host, const char *port,
			 const char *secs, const char *tag)
{
	struct addrinfo *ai;
	int fd = udp_open(host, port, &ai);
	if (fd < 0)
		return 1;
	struct sockaddr_storage me;
	memset(&me, 0, sizeof(me));
	me.ss_family = (sa_family_t)ai->ai_family;
	unsigned short lp = htons((unsigned short)atoi(lport));
	if (ai->ai_family == AF_INET)
		((struct sockaddr_in *)&me)->sin_port = lp;
	else
		((struct sockaddr_in6 *)&me)->sin6_port = lp;
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0)
		return fail_errno(errno);
	if (sendto(fd, "ping\n", 5, 0, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	char reply[256] = "none";
	int strangers = 0;
	long long end = now_ms() + TIMEOUT_MS, stop = 0;
	for (;;) {
		long long left = (stop ? stop : end) - now_ms();
		if (left <= 0) {
			if (stop)
				break;
			// no reply from the destination: listen on anyway
			stop = now_ms() + 1000LL * atoi(secs);
			continue;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		char buf[256];
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT,
				     (struct sockaddr *)&from, &fl);
		if (r < 0)
			continue;
		if (same_addr(&from, ai)) {
			if (!stop) {
				int n = 0;
				while (n < r && n < (int)sizeof(reply) - 1 &&
				       buf[n] != '\n')
					n++;
				memcpy(reply, buf, (size_t)n);
				reply[n] = '\0';
				stop = now_ms() + 1000LL * atoi(secs);
			}
			continue;
		}
		strangers++;
		char msg[128];
		int m = snprintf(msg, sizeof(msg), "%s\n", tag);
		sendto(fd, msg, (size_t)m, 0, (struct sockaddr *)&from, fl);
	}
	printf("%s: reply=%s strangers=%d\n", what, reply, strangers);
	return 0;
}

static int probe_withfd(int argc, char **argv)
{
	int fd = atoi(argv[2]), s = -1, sv[2], next = 4;
	const char *kind = argv[3];
	if (!strcmp(kind, "tcp")) {
		if (argc < 7)
			return 2;
		struct addrinfo *ai = lookup(argv[4], argv[5], SOCK_STREAM);
		if (!ai)
			return 1;
		s = socket(ai->ai_family, SOCK_STREAM, 0);
		if (s < 0 || connect(s, ai->ai_addr, ai->ai_addrlen) < 0)
			return fail_errno(errno);
		next = 6;
	} else if (!strcmp(kind, "udp")) {
		s = socket(AF_INET, SOCK_DGRAM, 0);
	} else if (!strcmp(kind, "unix")) {
		s = socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 ? -1 : sv[0];
	} else if (!strcmp(kind, "vsock")) {
		s = socket(AF_VSOCK, SOCK_STREAM, 0);
	} else if (!strcmp(kind, "netlink")) {
		s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	} else if (!strcmp(kind, "nfnetlink")) {
		s = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	} else if (!strcmp(kind, "pipe")) {
		s = pipe(sv) < 0 ? -1 : sv[0];
	} else {
		return 2;
	}
	if (s < 0)
		return fail_errno(errno);
	if (argc <= next || (s != fd && dup2(s, fd) < 0))
		return argc <= next ? 2 : fail_errno(errno);
	alarm(0);
	execvp(argv[next], argv + next);
	return fail_errno(errno);
}

static int probe_reuse(const char *fdtext, const char *host, const char *port)
{
	int fd = atoi(fdtext);
	struct sockaddr unspec = {.sa_family = AF_UNSPEC};
	struct addrinfo *ai = lookup(host, port, SOCK_STREAM);
	if (!ai)
		return 1;
	if (connect(fd, &unspec, sizeof(unspec)) < 0)
		return fail_errno(errno);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	int e = wait_fd(fd, POLLIN);
	if (e)
		return fail_errno(e);
	char buf[256];
	ssize_t r = read(fd, buf, sizeof(buf));
	if (r <= 0)
		return r < 0 ? fail_errno(errno) : 1;
	return print_token(buf, r);
}

// tfo, tfoc and mptcp HOST PORT (HOW): a TCP connection made the way HOW
// names (see the top of this file), then the server's line.
static int probe_tcpvia(const char *how, const char *host, const char *port)
{
	int tfo = strcmp(how, "tfo") == 0;
	int tfoc = strcmp(how, "tfoc") == 0;
	int mptcp = strcmp(how, "mptcp") == 0;
	struct addrinfo *ai = lookup(host, port, SOCK_STREAM);
	if (!ai)
		return 1;
	int fd = socket(ai->ai_family, SOCK_STREAM,
			mptcp ? 262 /* IPPROTO_MPTCP */ : 0);
	if (fd < 0 && mptcp) {
		const char *n = strerrorname_np(errno);
		printf("%s: errno=%s (socket)\n", what, n ? n : "?");
		return 1;
	}
	if (fd < 0)
		return fail_errno(errno);
	int one = 1;
	if (tfoc && setsockopt(fd, IPPROTO_TCP, 30 /* TCP_FASTOPEN_CONNECT */,
			       &one, sizeof(one)) < 0)
		return fail_errno(errno);
	if (tfo) {
		if (sendto(fd, "hi\n", 3, MSG_FASTOPEN, ai->ai_addr,
			   ai->ai_addrlen) < 0)
			return fail_errno(errno);
	} else if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	if (tfoc && write(fd, "hi\n", 3) < 0)
		return fail_errno(errno);
	return read_token(fd);
}

static int probe_udpto(const char *host, const char *port)
{
	struct addrinfo *ai = lookup(host, port, SOCK_DGRAM);
	if (!ai)
		return 1;
	int fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0)
		return fail_errno(errno);
	if (sendto(fd, "ping\n", 5, 0, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	return read_token(fd);
}

static int probe_fdtcp(const char *fds, const char *host, const char *port)
{
	struct addrinfo *ai = lookup(host, port, SOCK_STREAM);
	int fd = atoi(fds);
	if (!ai)
		return 1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	return read_token(fd);
}

static long bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int probe_bpfdetach(const char *dir)
{
	int cg = open(dir, O_RDONLY | O_DIRECTORY);
	if (cg < 0)
		return fail_errno(errno);
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.target_fd = (unsigned)cg;
	a.attach_type = BPF_CGROUP_INET4_CONNECT;
	if (bpf(BPF_PROG_DETACH, &a) < 0)
		return fail_errno(errno);
	printf("%s: ok\n", what);
	return 0;
}

static int probe_bpfattach(const char *dir)
{
	struct bpf_insn prog[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1},
	    {.code = BPF_JMP | BPF_EXIT},
	};
	int cg = open(dir, O_RDONLY | O_DIRECTORY);
	if (cg < 0)
		return fail_errno(errno);
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_SOCK_ADDR;
	a.expected_attach_type = BPF_CGROUP_INET4_CONNECT;
	a.insns = (unsigned long)prog;
	a.insn_cnt = 2;
	a.license = (unsigned long)"MIT";
	int fd = (int)bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		return fail_errno(errno);
	memset(&a, 0, sizeof(a));
	a.target_fd = (unsigned)cg;
	a.attach_bpf_fd = (unsigned)fd;
	a.attach_type = BPF_CGROUP_INET4_CONNECT;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (bpf(BPF_PROG_ATTACH, &a) < 0)
		return fail_errno(errno);
	printf("%s: ok\n", what);
	return 0;
}

static int probe_cgmove(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return fail_errno(errno);
	if (write(fd, "0", 1) != 1)
		return fail_errno(errno);
	printf("%s: ok\n", what);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int probe_resolve(const char *name)
{
	struct addrinfo *res = lookup(name, NULL, SOCK_STREAM);
	if (!res)
		return 1;
	char *addrs[64];
	int n = 0;
	for (struct addrinfo *ai = res; ai && n < 64; ai = ai->ai_next) {
		char s[INET6_ADDRSTRLEN];
		const void *a =
		    ai->ai_family == AF_INET
			? (const void *)&((struct sockaddr_in *)ai->ai_addr)
			      ->sin_addr
			: (const void *)&((struct sockaddr_in6 *)ai->ai_addr)
			      ->sin6_addr;
		if (!inet_ntop(ai->ai_family, a, s, sizeof(s)))
			continue;
		addrs[n++] = strdup(s);
	}
	qsort(addrs, (size_t)n, sizeof(addrs[0]), cmp_str);
	printf("%s:", what);
	for (int i = 0; i < n; i++)
		if (i == 0 || strcmp(addrs[i], addrs[i - 1]) != 0)
			printf(" %s", addrs[i]);
	printf("\n");
	return 0;
}

static int probe_socket(int fam, int type, int proto)
{
	int fd = socket(fam, type, proto);
	if (fd < 0)
		return fail_errno(errno);
	close(fd);
	printf("%s: ok\n", what);
	return 0;
}

static int probe_iouring(void)
{
	unsigned char params[120]; // struct io_uring_params
	memset(params, 0, sizeof(params));
	long fd = syscall(__NR_io_uring_setup, 1, params);
	if (fd < 0)
		return fail_errno(errno);
	close((int)fd);
	printf("%s: ok\n", what);
	return 0;
}

// Whether a routes file has a default route: in /proc/net/route the
// destination column (2nd) is 00000000 with mask 00000000; in
// /proc/net/ipv6_route the destination (1st) is all zeros with prefix 00.
static const char *has_default(const char *path, int v6)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return "no";
	char line[512];
	int found = 0;
	while (fgets(line, sizeof(line), f)) {
		char a[64], b[64], c[64], d[64], e[64], g[64], h[64], m[64];
		if (v6) {
			if (sscanf(line, "%63s %63s", a, b) == 2 &&
			    strcmp(a, "00000000000000000000000000000000") ==
				0 &&
			    strcmp(b, "00") == 0 && !strstr(line, " lo\n"))
				found = 1;
		} else if (sscanf(line,
				  "%63s %63s %63s %63s %63s %63s %63s %63s", a,
				  b, c, d, e, g, h, m) == 8 &&
			   strcmp(b, "00000000") == 0 &&
			   strcmp(m, "00000000") == 0) {
			found = 1;
		}
	}
	fclose(f);
	return found ? "yes" : "no";
}

static int probe_routes(void)
{
	printf("%s: default4=%s default6=%s\n", what,
	       has_default("/proc/net/route", 0),
	       has_default("/proc/net/ipv6_route", 1));
	return 0;
}

// Sends n bytes (a pattern) while reading back what comes, then shuts
// its side down and reads to the end: "N bytes back" when all of them
// came back in order; the server (netserve echo:PORT) echoes.
static int probe_echo(const char *host, const char *port, const char *count)
{
	struct addrinfo *ai = lookup(host, port, SOCK_STREAM);
	if (!ai)
		return 1;
	long n = strtol(count, NULL, 10);
	int fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || n <= 0)
		return fail_errno(errno ? errno : EINVAL);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return fail_errno(errno);
	static char out[65536], in[65536];
	long sent = 0, got = 0;
	int bad = 0;
	for (int i = 0; i < (int)sizeof(out); i++)
		out[i] = (char)(i * 7 + 3);
	while (got < n || sent < n) {
		struct pollfd p = {fd, POLLIN | (sent < n ? POLLOUT : 0), 0};
		if (poll(&p, 1, 1500) <= 0)
			return fail_errno(ETIMEDOUT);
		if ((p.revents & POLLOUT) && sent < n) {
			size_t off = (size_t)(sent % (long)sizeof(out));
			size_t len = sizeof(out) - off;
			if ((long)len > n - sent)
				len = (size_t)(n - sent);
			ssize_t w = send(fd, out + off, len, MSG_DONTWAIT);
			if (w < 0 && errno != EAGAIN)
				return fail_errno(errno);
			if (w > 0 && (sent += w) == n)
				shutdown(fd, SHUT_WR);
		}
		if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t r = recv(fd, in, sizeof(in), MSG_DONTWAIT);
			if (r < 0 && errno != EAGAIN)
				return fail_errno(errno);
			if (r == 0)
				break;
			for (ssize_t i = 0; i < r; i++)
				if (in[i] != out[(got + i) % (long)sizeof(out)])
					bad = 1;
			got += r > 0 ? r : 0;
		}
	}
	if (bad || got != n) {
		printf("%s: %ld of %ld bytes back%s\n", what, got, n,
		       bad ? ", changed" : "");
		return 1;
	}
	printf("%s: %ld bytes back\n", what, got);
	return 0;
}

static void put_msg(char *buf, size_t *off, int type, int flags, int seq,
		    int family, int res_id, const char *name)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)(buf + *off);
	memset(nh, 0, NLMSG_SPACE(sizeof(struct nfgenmsg)));
	nh->nlmsg_type = (unsigned short)type;
	nh->nlmsg_flags = (unsigned short)flags;
	nh->nlmsg_seq = (unsigned)seq;
	nh->nlmsg_len = NLMSG_LENGTH(sizeof(struct nfgenmsg));
	struct nfgenmsg *g = NLMSG_DATA(nh);
	g->nfgen_family = (unsigned char)family;
	g->version = NFNETLINK_V0;
	g->res_id = htons((unsigned short)res_id);
	if (name) {
		struct nlattr *na =
		    (struct nlattr *)(buf + *off + NLMSG_ALIGN(nh->nlmsg_len));
		size_t nl = strlen(name) + 1;
		na->nla_type = NFTA_TABLE_NAME;
		na->nla_len = (unsigned short)(NLA_HDRLEN + nl);
		memcpy((char *)na + NLA_HDRLEN, name, nl);
		nh->nlmsg_len =
		    NLMSG_ALIGN(nh->nlmsg_len) + NLA_ALIGN(na->nla_len);
	}
	*off += NLMSG_ALIGN(nh->nlmsg_len);
}

static int probe_nftdel(const char *fam, const char *table)
{
	int family;
	if (strcmp(fam, "inet") == 0)
		family = NFPROTO_INET;
	else if (strcmp(fam, "ip") == 0)
		family = NFPROTO_IPV4;
	else if (strcmp(fam, "ip6") == 0)
		family = NFPROTO_IPV6;
	else
		return 2;
	if (!table || !*table)
		return 2;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	if (fd < 0)
		return fail_errno(errno);
	static char buf[4096] __attribute__((aligned(8)));
	size_t off = 0;
	put_msg(buf, &off, NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 1,
		NFPROTO_UNSPEC, NFNL_SUBSYS_NFTABLES, NULL);
	put_msg(buf, &off, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_DELTABLE,
		NLM_F_REQUEST | NLM_F_ACK, 2, family, 0, table);
	put_msg(buf, &off, NFNL_MSG_BATCH_END, NLM_F_REQUEST, 3, NFPROTO_UNSPEC,
		NFNL_SUBSYS_NFTABLES, NULL);
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	if (sendto(fd, buf, off, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return fail_errno(errno);
	for (;;) {
		int e = wait_fd(fd, POLLIN);
		if (e)
			return fail_errno(e);
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		if (r < 0)
			return fail_errno(errno);
		for (struct nlmsghdr *nh = (struct nlmsghdr *)buf;
		     NLMSG_OK(nh, (size_t)r); nh = NLMSG_NEXT(nh, r)) {
			if (nh->nlmsg_type != NLMSG_ERROR)
				continue;
			struct nlmsgerr *err = NLMSG_DATA(nh);
			if (err->error != 0)
				return fail_errno(-err->error);
			if (nh->nlmsg_seq == 2) {
				printf("%s: ok\n", what);
				return 0;
			}
		}
	}
}

static int usage(void)
{
	fprintf(stderr,
		"usage: netprobe tcp|udp HOST PORT | "
		"udpbind LPORT HOST PORT SECS TAG | "
		"withfd FD KIND [HOST PORT] CMD... | reuse FD HOST PORT | "
		"vsock | resolve NAME | "
		"raw | raw6 | packet | netlink N | iouring | routes | "
		"echo HOST PORT N | "
		"nftdel FAMILY TABLE | tfo|udpto HOST PORT | "
		"fdtcp FD HOST PORT | bpfdetach|bpfattach|cgmove DIR\n");
	return 2;
}

static int attach(pid_t pid)
{
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0)
		return fail_errno(errno);
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	printf("%s: ok\n", what);
	return 0;
}

/* The real uid of pid (its status file), or -1. */
static long real_uid(long pid)
{
	char path[64], line[256];
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Uid:", 4) == 0)
			uid = strtol(line + 4, NULL, 10);
	fclose(f);
	return uid;
}

static int probe_ptrace(const char *who)
{
	char *end;
	long want = strtol(who, &end, 10);
	DIR *d;
	struct dirent *e;

	if (*who && !*end)
		return attach((pid_t)want);
	d = opendir("/proc");
	if (!d)
		return fail_errno(errno);
	while ((e = readdir(d))) {
		char path[300], c[64] = "";
		long pid = strtol(e->d_name, NULL, 10);
		FILE *f;

		if (pid <= 0 || pid == getpid() ||
		    real_uid(pid) != (long)getuid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(c, sizeof(c), f))
			c[0] = '\0';
		fclose(f);
		if (strncmp(c, who, strlen(who)) != 0)
			continue;
		closedir(d);
		return attach((pid_t)pid);
	}
	closedir(d);
	printf("%s: none\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	static char label[512];
	size_t off = 0;
	for (int i = 1; i < argc && off < sizeof(label) - 1; i++) {
		int w = snprintf(label + off, sizeof(label) - off, "%s%s",
				 i > 1 ? " " : "", argv[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	what = label;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	const char *c = argv[1];
	if (strcmp(c, "tcp") == 0 && argc == 4)
		return probe_tcp(argv[2], argv[3]);
	if (strcmp(c, "udp") == 0 && argc == 4)
		return probe_udp(argv[2], argv[3]);
	if (strcmp(c, "udpbind") == 0 && argc == 7)
		return probe_udpbind(argv[2], argv[3], argv[4], argv[5],
				     argv[6]);
	if (strcmp(c, "withfd") == 0 && argc >= 5)
		return probe_withfd(argc, argv);
	if (strcmp(c, "reuse") == 0 && argc == 5)
		return probe_reuse(argv[2], argv[3], argv[4]);
	if (strcmp(c, "vsock") == 0 && argc == 2)
		return probe_socket(AF_VSOCK, SOCK_STREAM, 0);
	if (strcmp(c, "resolve") == 0 && argc == 3)
		return probe_resolve(argv[2]);
	if (strcmp(c, "raw") == 0 && argc == 2)
		return probe_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (strcmp(c, "raw6") == 0 && argc == 2)
		return probe_socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	if (strcmp(c, "packet") == 0 && argc == 2)
		return probe_socket(AF_PACKET, SOCK_RAW, 0);
	if (strcmp(c, "netlink") == 0 && argc == 3)
		return probe_socket(AF_NETLINK, SOCK_RAW,
				    (int)strtol(argv[2], NULL, 0));
	if (strcmp(c, "iouring") == 0 && argc == 2)
		return probe_iouring();
	if (strcmp(c, "routes") == 0 && argc == 2)
		return probe_routes();
	if (strcmp(c, "echo") == 0 && argc == 5)
		return probe_echo(argv[2], argv[3], argv[4]);
	if (strcmp(c, "ptrace") == 0 && argc == 3)
		return probe_ptrace(argv[2]);
	if (strcmp(c, "nftdel") == 0 && argc == 4)
		return probe_nftdel(argv[2], argv[3]);
	if ((strcmp(c, "tfo") == 0 || strcmp(c, "tfoc") == 0 ||
	     strcmp(c, "mptcp") == 0) &&
	    argc == 4)
		return probe_tcpvia(c, argv[2], argv[3]);
	if (strcmp(c, "udpto") == 0 && argc == 4)
		return probe_udpto(argv[2], argv[3]);
	if (strcmp(c, "fdtcp") == 0 && argc == 5)
		return probe_fdtcp(argv[2], argv[3], argv[4]);
	if (strcmp(c, "bpfdetach") == 0 && argc == 3)
		return probe_bpfdetach(argv[2]);
	if (strcmp(c, "bpfattach") == 0 && argc == 3)
		return probe_bpfattach(argv[2]);
	if (strcmp(c, "cgmove") == 0 && argc == 3)
		return probe_cgmove(argv[2]);
	return usage();
}
