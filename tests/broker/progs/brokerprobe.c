// SPDX-License-Identifier: MIT
//
// brokerprobe: the ways around the notify broker (tests/broker/run.sh),
// each printing one line "PROBE: RESULT". IPv4 addresses only, numeric.
//
//   race GOOD GPORT BAD BPORT N
//        N blocking connects of a fresh TCP socket to one sockaddr that a
//        sibling thread rewrites between GOOD:GPORT and BAD:BPORT in a
//        loop: "good=G bad=B failed=F" (B: connections whose peer, by
//        getpeername, is BAD)
//   dupswap BAD BPORT N
//        N connects of fd X to BAD:BPORT while a sibling thread puts, in
//        a loop, an AF_UNIX socket and a TCP socket at X (dup2): "bad=B"
//   unspec GOOD GPORT BAD BPORT
//        connect to GOOD, connect(AF_UNSPEC), connect the same socket to
//        BAD, then again to GOOD: "first=T bad=R again=T2"
//   tfommsg BAD BPORT
//        sendmmsg(MSG_FASTOPEN) on a TCP socket to BAD: "ok" or the errno
//   passer PATH SECS
//        (outside the boxes) listens on the unix socket PATH (mode 0666)
//        and hands every client an unconnected TCP socket and an unbound
//        UDP socket (SCM_RIGHTS), made here; prints "ready"
//   scm PATH HOST PORT
//        takes the sockets from PATH's passer, connects the TCP one to
//        HOST:PORT: "tcp=TOKEN|errno udpto=errno|sent"
//   unix PATH
//        connect to the unix socket PATH: "ok" or the errno
//   listen ADDR PORT
//        bind a TCP socket to ADDR:PORT and listen: "ok" or the errno
//   ipopts
//        setsockopt(IP_OPTIONS) with a loose source route: "ok" or errno
//   connlat HOST PORT N
//        N blocking connects of fresh TCP sockets to HOST:PORT, each
//        closed at once: "median_us=M" (for bench/broker.sh; timing is
//        never asserted)
//   logserve ADDR PORT SECS LOG
//        (outside) accepts on ADDR:PORT, appends each peer to LOG
//   udp HOST PORT sendto|sendmsg|sendmmsg|connected
//        one datagram to HOST:PORT that way: the reply's token or errno
//   udprace GOOD GPORT BAD BPORT N
//        N sendmsg of one UDP socket while a sibling flips the msghdr's
//        name (pointer and sockaddr) between GOOD and BAD: "good=G bad=B
//        refused=R" (replies, by source)
//   udpswap BAD BPORT N
//        N sendmsg to BAD on fd X while a sibling dup2s a UDP and a TCP
//        socket onto X, then one with the UDP socket at X: "bad=B" (the
//        UDP socket's replies from BAD)
//   udpmix GOOD GPORT BAD BPORT
//        sendmmsg of two datagrams, to GOOD and to BAD: "sent=N len0=L
//        good=G bad=B"
//   udpctl HOST PORT
//        sendmsg with IP_RETOPTS, then IP_TOS; a ping socket:
//        "retopts=R tos=T ping=P"
//   unixscm
//        SCM_RIGHTS over a unix socketpair, then SCM_CREDENTIALS:
//        "rights=ok|E creds=ok|E"
//   unixbig
//        4 MiB over a unix stream socketpair, sendmsg of 256 KiB from a
//        sibling while this thread reads slowly: "sent=N got=N ok"
//   udplat HOST PORT N
//        N sendto+recvfrom round trips: "median_us=M" (bench only)
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char label[256];

static void sa4(struct sockaddr_in *s, const char *host, const char *port)
{
	memset(s, 0, sizeof(*s));
	s->sin_family = AF_INET;
	s->sin_port = htons((uint16_t)atoi(port));
	if (inet_pton(AF_INET, host, &s->sin_addr) != 1) {
		fprintf(stderr, "bad address %s\n", host);
		exit(2);
	}
}

static int out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int out(const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return 0;
}

static const char *en(int e)
{
	static char buf[32];
	const char *n = strerrorname_np(e);

	snprintf(buf, sizeof(buf), "errno=%s", n ? n : "?");
	return buf;
}

/* --- race ---------------------------------------------------------------- */

static struct sockaddr_in shared_sa, race_sa[2];
static atomic_int stop;

static void *flipper(void *arg)
{
	void *volatile *name = arg; /* udprace: the msghdr's name too */
	/* volatile: both stores made, the bad one for as long as the good */
	volatile uint32_t *w = (volatile uint32_t *)&shared_sa;
	const uint32_t *g = (const uint32_t *)&race_sa[0],
		       *b = (const uint32_t *)&race_sa[1];

	while (!atomic_load(&stop)) {
		if (name) {
			*name = &race_sa[1];
			*name = &shared_sa;
		}
		for (int k = 0; k < 4; k++)
			w[k] = b[k];
		for (int k = 0; k < 4; k++)
			w[k] = g[k];
	}
	return NULL;
}

static int probe_race(char **a)
{
	long n = atol(a[4]), i, good = 0, bad = 0, failed = 0;
	pthread_t t;

	sa4(&race_sa[0], a[0], a[1]);
	sa4(&race_sa[1], a[2], a[3]);
	shared_sa = race_sa[0];
	pthread_create(&t, NULL, flipper, NULL);
	for (i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in peer;
		socklen_t l = sizeof(peer);

		if (fd < 0) {
			failed++;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&shared_sa,
			    sizeof(shared_sa)) == 0 &&
		    getpeername(fd, (struct sockaddr *)&peer, &l) == 0) {
			if (peer.sin_addr.s_addr ==
				race_sa[1].sin_addr.s_addr &&
			    peer.sin_port == race_sa[1].sin_port)
				bad++;
			else
				good++;
		} else {
			failed++;
		}
		close(fd);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	return out("good=%ld bad=%ld failed=%ld", good, bad, failed);
}

/* --- dupswap ---------------------------------------------------------------
 */

static int swap_fd = 50, swap_src[2];
static atomic_long swaps;

static void *swapper(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		dup2(swap_src[0], swap_fd);
		dup2(swap_src[1], swap_fd);
		atomic_fetch_add(&swaps, 1);
	}
	return NULL;
}

static int probe_dupswap(char **a)
{
	long n = atol(a[2]), i, bad = 0, ok = 0;
	struct sockaddr_in s;
	pthread_t t;

	sa4(&s, a[0], a[1]);
	swap_src[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	for (i = 0; i < n; i++) {
		struct sockaddr_in peer;
		socklen_t l = sizeof(peer);

		swap_src[1] = socket(AF_INET, SOCK_STREAM, 0);
		atomic_store(&stop, 0);
		atomic_store(&swaps, 0);
		pthread_create(&t, NULL, swapper, NULL);
		while (atomic_load(&swaps) < 2) /* the swaps under way */
			;
		if (connect(swap_fd, (struct sockaddr *)&s, sizeof(s)) == 0)
			ok++;
		atomic_store(&stop, 1);
		pthread_join(t, NULL);
		if (getpeername(swap_src[1], (struct sockaddr *)&peer, &l) == 0)
			bad++;
		close(swap_src[1]);
	}
	return out("bad=%ld connected=%ld", bad, ok);
}

/* --- unspec ----------------------------------------------------------------
 */

static int token(int fd, char *buf, size_t len)
{
	ssize_t r;

	(void)!write(fd, "hi\n", 3);
	r = read(fd, buf, len - 1);
	if (r <= 0)
		return snprintf(buf, len, "%s", r < 0 ? en(errno) : "eof");
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void conn_tok(int fd, const struct sockaddr_in *s, char *buf, size_t len)
{
	if (connect(fd, (const struct sockaddr *)s, sizeof(*s)) < 0)
		snprintf(buf, len, "%s", en(errno));
	else
		token(fd, buf, len);
}

static int probe_unspec(char **a)
{
	struct sockaddr_in g, b;
	struct sockaddr un = {.sa_family = AF_UNSPEC};
	char t1[64], t2[64], t3[64];
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa4(&g, a[0], a[1]);
	sa4(&b, a[2], a[3]);
	conn_tok(fd, &g, t1, sizeof(t1));
	if (connect(fd, &un, sizeof(un)) < 0)
		return out("first=%s unspec=%s", t1, en(errno));
	conn_tok(fd, &b, t2, sizeof(t2));
	connect(fd, &un, sizeof(un));
	conn_tok(fd, &g, t3, sizeof(t3));
	return out("first=%s bad=%s again=%s", t1, t2, t3);
}

/* --- sendmmsg ----------------------------------------------------------------
 */

/* m: one message of iov to s. */
static void one_msg(struct mmsghdr *m, struct sockaddr_in *s, struct iovec *iov)
{
	memset(m, 0, sizeof(*m));
	m->msg_hdr.msg_name = s;
	m->msg_hdr.msg_namelen = sizeof(*s);
	m->msg_hdr.msg_iov = iov;
	m->msg_hdr.msg_iovlen = 1;
}

static int probe_tfommsg(char **a)
{
	struct sockaddr_in s;
	struct iovec iov = {"hi\n", 3};
	struct mmsghdr m;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa4(&s, a[0], a[1]);
	one_msg(&m, &s, &iov);
	if (sendmmsg(fd, &m, 1, MSG_FASTOPEN) < 0)
		return out("%s", en(errno));
	return out("ok");
}

/* --- SCM_RIGHTS -------------------------------------------------------------
 */

static int unix_listen(const char *path)
{
	struct sockaddr_un u = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(u.sun_path, sizeof(u.sun_path), "%s", path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&u, sizeof(u)) < 0 ||
	    listen(fd, 16) < 0) {
		perror("passer");
		exit(1);
	}
	chmod(path, 0666);
	return fd;
}

static _Noreturn int probe_passer(char **a)
{
	int l = unix_listen(a[0]);

	alarm((unsigned)atoi(a[1]));
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		int c = accept(l, NULL, NULL), fds[2];
		char one = 1;
		union {
			char buf[CMSG_SPACE(2 * sizeof(int))];
			struct cmsghdr al;
		} u;
		struct iovec iov = {&one, 1};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = u.buf,
				   .msg_controllen = sizeof(u.buf)};
		struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

		if (c < 0)
			continue;
		fds[0] = socket(AF_INET, SOCK_STREAM, 0);
		/* in a broker's box no UDP socket is made: the TCP one alone */
		fds[1] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fds[1] < 0)
			fds[1] = fds[0];
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(2 * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, sizeof(fds));
		sendmsg(c, &m, 0);
		close(fds[0]);
		if (fds[1] != fds[0])
			close(fds[1]);
		close(c);
	}
}

static int unix_connect(const char *path)
{
	struct sockaddr_un u = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(u.sun_path, sizeof(u.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&u, sizeof(u)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int probe_scm(char **a)
{
	int fd = unix_connect(a[0]), fds[2] = {-1, -1};
	char one, tcp[64];
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr al;
	} u;
	struct iovec iov = {&one, 1};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *cm;
	struct sockaddr_in s;
	ssize_t r;

	if (fd < 0)
		return out("unix=%s", en(errno));
	if (recvmsg(fd, &m, 0) <= 0 || !(cm = CMSG_FIRSTHDR(&m)))
		return out("recvmsg=%s", en(errno));
	memcpy(fds, CMSG_DATA(cm), sizeof(fds));
	sa4(&s, a[1], a[2]);
	conn_tok(fds[0], &s, tcp, sizeof(tcp));
	r = sendto(fds[1], "ping\n", 5, 0, (struct sockaddr *)&s, sizeof(s));
	return out("tcp=%s udpto=%s", tcp, r < 0 ? en(errno) : "sent");
}

static int probe_unix(char **a)
{
	int fd = unix_connect(a[0]);

	return out("%s", fd < 0 ? en(errno) : "ok");
}

static int probe_listen(char **a)
{
	struct sockaddr_in s;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa4(&s, a[0], a[1]);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
	if (bind(fd, (struct sockaddr *)&s, sizeof(s)) < 0)
		return out("bind=%s", en(errno));
	if (listen(fd, 4) < 0)
		return out("%s", en(errno));
	return out("ok");
}

static int probe_ipopts(void)
{
	/* LSRR, one hop: 10.77.2.2 */
	unsigned char o[8] = {IPOPT_NOP, IPOPT_LSRR, 7, 4, 10, 77, 2, 2};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (setsockopt(fd, IPPROTO_IP, IP_OPTIONS, o, sizeof(o)) < 0)
		return out("%s", en(errno));
	return out("ok");
}

static int probe_logserve(char **a)
{
	struct sockaddr_in s;
	int l = socket(AF_INET, SOCK_STREAM, 0);

	sa4(&s, a[0], a[1]);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
	if (bind(l, (struct sockaddr *)&s, sizeof(s)) < 0 ||
	    listen(l, 4096) < 0) {
		perror("logserve");
		return 1;
	}
	alarm((unsigned)atoi(a[2]));
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct sockaddr_in p;
		socklen_t pl = sizeof(p);
		int c = accept(l, (struct sockaddr *)&p, &pl);
		FILE *f;

		if (c < 0)
			continue;
		f = fopen(a[3], "a");
		if (f) {
			fprintf(f, "%s:%u\n", inet_ntoa(p.sin_addr),
				ntohs(p.sin_port));
			fclose(f);
		}
		(void)!write(c, "logserve\n", 9);
		close(c);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static int probe_connlat(char **a)
{
	long n = atol(a[2]), i;
	long long *t = calloc((size_t)n, sizeof(*t));
	struct sockaddr_in s;

	sa4(&s, a[0], a[1]);
	for (i = 0; i < n; i++) {
		struct timespec t0, t1;
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (connect(fd, (struct sockaddr *)&s, sizeof(s)) < 0)
			return out("%s", en(errno));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		close(fd);
		t[i] = (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec -
		       t0.tv_nsec;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_ll);
	return out("median_us=%.1f", (double)t[n / 2] / 1000.0);
}

/* --- UDP --------------------------------------------------------------------
 */

/* Replies on fd for up to ms: how many from a and from b (by source). */
static void replies(int fd, const struct sockaddr_in *a,
		    const struct sockaddr_in *b, long *na, long *nb, int ms)
{
	struct pollfd p = {fd, POLLIN, 0};
	char buf[256];

	while (poll(&p, 1, ms) == 1) {
		struct sockaddr_in f;
		socklen_t l = sizeof(f);

		if (recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&f,
			     &l) < 0)
			break;
		if (a && f.sin_addr.s_addr == a->sin_addr.s_addr &&
		    f.sin_port == a->sin_port)
			++*na;
		else if (b && f.sin_addr.s_addr == b->sin_addr.s_addr &&
			 f.sin_port == b->sin_port)
			++*nb;
	}
}

/* One reply's token on fd (1.5 s), or "timeout". */
static const char *reply_tok(int fd)
{
	static char buf[128];
	struct pollfd p = {fd, POLLIN, 0};
	ssize_t r;

	if (poll(&p, 1, 1500) != 1)
		return "timeout";
	r = recv(fd, buf, sizeof(buf) - 1, 0);
	if (r < 0)
		return en(errno);
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* udp HOST PORT sendto|sendmsg|sendmmsg|connected: one datagram, the
 * reply's token or the errno. */
static int probe_udp(char **a)
{
	struct sockaddr_in s;
	struct iovec iov = {"ping\n", 5};
	struct mmsghdr m;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	long r;

	if (fd < 0)
		return out("%s", en(errno));
	sa4(&s, a[0], a[1]);
	one_msg(&m, &s, &iov);
	if (!strcmp(a[2], "sendto"))
		r = sendto(fd, "ping\n", 5, 0, (struct sockaddr *)&s,
			   sizeof(s));
	else if (!strcmp(a[2], "sendmsg"))
		r = sendmsg(fd, &m.msg_hdr, 0);
	else if (!strcmp(a[2], "sendmmsg"))
		r = sendmmsg(fd, &m, 1, 0) == 1 && m.msg_len == 5 ? 5 : -1;
	else if (connect(fd, (struct sockaddr *)&s, sizeof(s)) < 0)
		r = -1;
	else /* connected: send, and sendmsg without a name */
		r = send(fd, "ping\n", 5, 0) == 5 &&
			    (m.msg_hdr.msg_name = NULL,
			     m.msg_hdr.msg_namelen = 0,
			     sendmsg(fd, &m.msg_hdr, 0) == 5)
			? 5
			: -1;
	if (r < 0)
		return out("%s", en(errno));
	return out("%s", reply_tok(fd));
}

static struct msghdr race_m;

/* udprace GOOD GPORT BAD BPORT N: N sendmsg of one unconnected UDP socket
 * while a sibling flips the msghdr's name (the pointer, and the sockaddr
 * it points to) between GOOD and BAD: the replies from each. */
static int probe_udprace(char **a)
{
	long n = atol(a[4]), i, good = 0, bad = 0, refused = 0;
	struct iovec iov = {"ping\n", 5};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	pthread_t t;

	if (fd < 0)
		return out("%s", en(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){1 << 20}, sizeof(int));
	sa4(&race_sa[0], a[0], a[1]);
	sa4(&race_sa[1], a[2], a[3]);
	shared_sa = race_sa[0];
	race_m.msg_name = &shared_sa;
	race_m.msg_namelen = sizeof(shared_sa);
	race_m.msg_iov = &iov;
	race_m.msg_iovlen = 1;
	pthread_create(&t, NULL, flipper, &race_m.msg_name);
	for (i = 0; i < n; i++) {
		if (sendmsg(fd, &race_m, 0) < 0)
			refused++;
		if (i % 64 == 63)
			replies(fd, &race_sa[0], &race_sa[1], &good, &bad, 0);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	replies(fd, &race_sa[0], &race_sa[1], &good, &bad, 1000);
	return out("good=%ld bad=%ld refused=%ld", good, bad, refused);
}

/* udpswap BAD BPORT N: N sendmsg to BAD on fd X while a sibling puts a
 * UDP socket and a connected-nowhere TCP socket at X (dup2): the UDP
 * socket's replies from BAD. */
static int probe_udpswap(char **a)
{
	long n = atol(a[2]), i, bad = 0, none = 0;
	struct sockaddr_in s;
	struct iovec iov = {"ping\n", 5};
	struct msghdr m = {.msg_name = &s,
			   .msg_namelen = sizeof(s),
			   .msg_iov = &iov,
			   .msg_iovlen = 1};
	pthread_t t;

	sa4(&s, a[0], a[1]);
	swap_src[0] = socket(AF_INET, SOCK_STREAM, 0);
	swap_src[1] = socket(AF_INET, SOCK_DGRAM, 0);
	if (swap_src[1] < 0)
		return out("udp=%s", en(errno));
	atomic_store(&stop, 0);
	pthread_create(&t, NULL, swapper, NULL);
	while (atomic_load(&swaps) < 2)
		;
	for (i = 0; i < n; i++) {
		long w = atomic_load(&swaps);

		while (atomic_load(&swaps) == w) /* a swap between sends */
			;
		sendmsg(swap_fd, &m, MSG_NOSIGNAL);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	/* and once with the UDP socket surely there: which state a racing
	 * send meets is the scheduler's, and outside a box (the twin) a
	 * run of 200 could meet the TCP one every time (1 in 12 runs
	 * here); in a box this send is refused like the rest */
	dup2(swap_src[1], swap_fd);
	sendmsg(swap_fd, &m, MSG_NOSIGNAL);
	replies(swap_src[1], NULL, &s, &none, &bad, 1000);
	return out("bad=%ld", bad);
}

/* udpmix GOOD GPORT BAD BPORT: sendmmsg of two datagrams, to GOOD and
 * to BAD: "sent=N good=G bad=B" (replies by source). */
static int probe_udpmix(char **a)
{
	struct sockaddr_in s[2];
	struct iovec iov = {"ping\n", 5};
	struct mmsghdr m[2];
	int fd = socket(AF_INET, SOCK_DGRAM, 0), n;
	long good = 0, bad = 0;

	if (fd < 0)
		return out("udp=%s", en(errno));
	sa4(&s[0], a[0], a[1]);
	sa4(&s[1], a[2], a[3]);
	for (n = 0; n < 2; n++)
		one_msg(&m[n], &s[n], &iov);
	n = sendmmsg(fd, m, 2, 0);
	if (n < 0)
		return out("sent=%s", en(errno));
	replies(fd, &s[0], &s[1], &good, &bad, 1000);
	return out("sent=%d len0=%u good=%ld bad=%ld", n, m[0].msg_len, good,
		   bad);
}

/* udpctl HOST PORT: sendmsg with the control IP_RETOPTS (a loose source
 * route through HOST), then with IP_TOS: "retopts=R tos=T"; and a ping
 * socket: "ping=P". */
static int probe_udpctl(char **a)
{
	struct sockaddr_in s;
	struct iovec iov = {"ping\n", 5};
	union {
		char buf[CMSG_SPACE(8)];
		struct cmsghdr al;
	} u;
	struct msghdr m = {.msg_name = &s,
			   .msg_namelen = sizeof(s),
			   .msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = u.buf};
	struct cmsghdr *c = (struct cmsghdr *)u.buf;
	unsigned char o[8] = {IPOPT_NOP, IPOPT_LSRR, 7, 4, 10, 77, 2, 2};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), tos = 0x10, p;
	char r1[64], r2[64], r3[64];

	if (fd < 0)
		return out("udp=%s", en(errno));
	sa4(&s, a[0], a[1]);
	memset(&u, 0, sizeof(u));
	c->cmsg_level = IPPROTO_IP;
	c->cmsg_type = IP_RETOPTS;
	c->cmsg_len = CMSG_LEN(sizeof(o));
	memcpy(CMSG_DATA(c), o, sizeof(o));
	m.msg_controllen = CMSG_SPACE(sizeof(o));
	snprintf(r1, sizeof(r1), "%s",
		 sendmsg(fd, &m, 0) < 0 ? en(errno) : reply_tok(fd));
	c->cmsg_type = IP_TOS;
	c->cmsg_len = CMSG_LEN(sizeof(tos));
	memcpy(CMSG_DATA(c), &tos, sizeof(tos));
	m.msg_controllen = CMSG_SPACE(sizeof(tos));
	snprintf(r2, sizeof(r2), "%s",
		 sendmsg(fd, &m, 0) < 0 ? en(errno) : reply_tok(fd));
	p = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	snprintf(r3, sizeof(r3), "%s", p < 0 ? en(errno) : "made");
	return out("retopts=%s tos=%s ping=%s", r1, r2, r3);
}

/* unixscm: over a unix socketpair, a pipe's write end passed by
 * SCM_RIGHTS and written through; then SCM_CREDENTIALS given
 * explicitly: "rights=ok|E creds=ok|E". */
static int probe_unixscm(void)
{
	int sp[2], pp[2], got = -1;
	char one = 1, buf[8] = {0};
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr al;
	} u;
	struct iovec iov = {&one, 1};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = u.buf,
			   .msg_controllen = CMSG_SPACE(sizeof(int))};
	struct cmsghdr *c = (struct cmsghdr *)u.buf;
	struct ucred cr = {getpid(), getuid(), getgid()};
	const char *rights, *creds;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sp) < 0 || pipe(pp) < 0)
		return out("socketpair=%s", en(errno));
	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pp[1], sizeof(int));
	if (sendmsg(sp[0], &m, 0) < 0) {
		rights = en(errno);
	} else {
		memset(&u, 0, sizeof(u));
		m.msg_controllen = sizeof(u.buf);
		if (recvmsg(sp[1], &m, 0) == 1 && c->cmsg_type == SCM_RIGHTS)
			memcpy(&got, CMSG_DATA(c), sizeof(int));
		close(pp[1]);
		rights = got >= 0 && write(got, "ok", 2) == 2 &&
				 read(pp[0], buf, 2) == 2 && !strcmp(buf, "ok")
			     ? "ok"
			     : "lost";
	}
	printf("%s: rights=%s ", label, rights);
	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cr));
	memcpy(CMSG_DATA(c), &cr, sizeof(cr));
	m.msg_controllen = CMSG_SPACE(sizeof(cr));
	creds = sendmsg(sp[0], &m, 0) < 0 ? en(errno) : "ok";
	printf("creds=%s\n", creds);
	fflush(stdout);
	return 0;
}

static int probe_udplat(char **a)
{
	long n = atol(a[2]), i;
	long long *t = calloc((size_t)n, sizeof(*t));
	struct sockaddr_in s;
	char buf[64];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return out("%s", en(errno));
	sa4(&s, a[0], a[1]);
	for (i = 0; i < n; i++) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (sendto(fd, "ping\n", 5, 0, (struct sockaddr *)&s,
			   sizeof(s)) < 0 ||
		    recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL) < 0)
			return out("%s", en(errno));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		t[i] = (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec -
		       t0.tv_nsec;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_ll);
	return out("median_us=%.1f", (double)t[n / 2] / 1000.0);
}

/* unixbig: 4 MiB over a unix stream socketpair by sendmsg of 256 KiB
 * each, from a sibling thread, while this one reads slowly: the sends
 * block and return short counts, the sender goes on; every byte arrives
 * in order: "sent=N got=N ok|corrupt". */
static int big_sp[2];
static atomic_long big_sent;

static void *big_sender(void *arg)
{
	static unsigned char buf[256 << 10];
	long total = 4L << 20, off = 0;

	(void)arg;
	while (off < total) {
		size_t k = 0, want = (size_t)(total - off) < sizeof(buf)
					 ? (size_t)(total - off)
					 : sizeof(buf);
		struct iovec iov = {buf, want};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
		ssize_t r;

		for (; k < want; k++)
			buf[k] = (unsigned char)((off + (long)k) * 7 % 251);
		r = sendmsg(big_sp[0], &m, 0);
		if (r <= 0)
			break;
		off += r;
	}
	atomic_store(&big_sent, off);
	shutdown(big_sp[0], SHUT_WR);
	return NULL;
}

static int probe_unixbig(void)
{
	static unsigned char buf[64 << 10];
	long got = 0, bad = 0;
	pthread_t t;
	ssize_t r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, big_sp) < 0)
		return out("socketpair=%s", en(errno));
	pthread_create(&t, NULL, big_sender, NULL);
	usleep(100000); /* the sender fills the buffer and blocks */
	while ((r = read(big_sp[1], buf, sizeof(buf))) > 0) {
		for (ssize_t k = 0; k < r; k++)
			if (buf[k] != (unsigned char)((got + k) * 7 % 251))
				bad++;
		got += r;
		usleep(1000);
	}
	pthread_join(t, NULL);
	return out("sent=%ld got=%ld %s", atomic_load(&big_sent), got,
		   bad ? "corrupt" : "ok");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int nargs;
		int (*fn)(char **);
	} p[] = {
	    {"race", 5, probe_race},	     {"dupswap", 3, probe_dupswap},
	    {"unspec", 4, probe_unspec},     {"tfommsg", 2, probe_tfommsg},
	    {"passer", 2, probe_passer},     {"scm", 3, probe_scm},
	    {"unix", 1, probe_unix},	     {"listen", 2, probe_listen},
	    {"logserve", 4, probe_logserve}, {"connlat", 3, probe_connlat},
	    {"udp", 3, probe_udp},	     {"udprace", 5, probe_udprace},
	    {"udpswap", 3, probe_udpswap},   {"udpmix", 4, probe_udpmix},
	    {"udpctl", 2, probe_udpctl},     {"udplat", 3, probe_udplat},
	};
	size_t i;
	int k;

	if (argc < 2)
		return 2;
	for (k = 1, label[0] = '\0'; k < argc; k++)
		snprintf(label + strlen(label), sizeof(label) - strlen(label),
			 "%s%s", k > 1 ? " " : "", argv[k]);
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(argv[1], "ipopts"))
		return probe_ipopts();
	if (!strcmp(argv[1], "unixscm"))
		return probe_unixscm();
	if (!strcmp(argv[1], "unixbig"))
		return probe_unixbig();
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (!strcmp(argv[1], p[i].name)) {
			if (argc != p[i].nargs + 2)
				return 2;
			return p[i].fn(argv + 2);
		}
	return 2;
}
