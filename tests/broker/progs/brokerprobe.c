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
//   sendmmsg GOOD GPORT BAD BPORT
//        socket(AF_INET, SOCK_DGRAM) and, where it is made, sendmmsg of
//        two datagrams, to GOOD and to BAD: "udp=ERRNO|made sent=N"
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
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <netinet/ip.h>
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
	(void)arg;
	/* volatile: both stores made, the bad one for as long as the good */
	volatile uint32_t *w = (volatile uint32_t *)&shared_sa;
	const uint32_t *g = (const uint32_t *)&race_sa[0],
		       *b = (const uint32_t *)&race_sa[1];

	while (!atomic_load(&stop)) {
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

static int probe_sendmmsg(char **a)
{
	struct sockaddr_in s[2];
	struct iovec iov = {"ping\n", 5};
	struct mmsghdr m[2];
	int fd = socket(AF_INET, SOCK_DGRAM, 0), n;

	if (fd < 0)
		return out("udp=%s", en(errno));
	sa4(&s[0], a[0], a[1]);
	sa4(&s[1], a[2], a[3]);
	memset(m, 0, sizeof(m));
	for (n = 0; n < 2; n++) {
		m[n].msg_hdr.msg_name = &s[n];
		m[n].msg_hdr.msg_namelen = sizeof(s[n]);
		m[n].msg_hdr.msg_iov = &iov;
		m[n].msg_hdr.msg_iovlen = 1;
	}
	n = sendmmsg(fd, m, 2, 0);
	return out("udp=made sent=%d", n);
}

static int probe_tfommsg(char **a)
{
	struct sockaddr_in s;
	struct iovec iov = {"hi\n", 3};
	struct mmsghdr m;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa4(&s, a[0], a[1]);
	memset(&m, 0, sizeof(m));
	m.msg_hdr.msg_name = &s;
	m.msg_hdr.msg_namelen = sizeof(s);
	m.msg_hdr.msg_iov = &iov;
	m.msg_hdr.msg_iovlen = 1;
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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int nargs;
		int (*fn)(char **);
	} p[] = {
	    {"race", 5, probe_race},	   {"dupswap", 3, probe_dupswap},
	    {"unspec", 4, probe_unspec},   {"sendmmsg", 4, probe_sendmmsg},
	    {"tfommsg", 2, probe_tfommsg}, {"passer", 2, probe_passer},
	    {"scm", 3, probe_scm},	   {"unix", 1, probe_unix},
	    {"listen", 2, probe_listen},   {"logserve", 4, probe_logserve},
	    {"connlat", 3, probe_connlat},
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
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (!strcmp(argv[1], p[i].name)) {
			if (argc != p[i].nargs + 2)
				return 2;
			return p[i].fn(argv + 2);
		}
	return 2;
}
