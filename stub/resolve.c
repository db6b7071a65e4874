/* SPDX-License-Identifier: MIT */
/*
 * polexec's own resolver, for the host names of `net filtered` (net.c,
 * which pins what it returns). musl's getaddrinfo is 20 KiB with what it
 * pulls in (its sort by RFC 3484, service names, stdio); polexec needs the
 * addresses of one name, in any order. What it does, as musl does it:
 *
 *   /etc/hosts      first; a name it lists (any case) has those addresses
 *                   and no DNS query is made
 *   resolv.conf     `nameserver` (at most 3, default 127.0.0.1), `search`
 *                   or `domain`, `options ndots:N timeout:N attempts:N`
 *                   (defaults 1, 5 s, 2; at most 15, 60, 10)
 *   search          a name with fewer dots than ndots is tried with each
 *                   search domain, then alone; else alone only; the first
 *                   try with an address wins, NXDOMAIN or no address goes
 *                   on, a server failure or silence ends the lookup
 *   queries         A and AAAA at once to every server over UDP, from one
 *                   socket (IPv6 with IPv4 mapped, else IPv4 and the IPv6
 *                   servers left out), sent again every timeout/attempts
 *                   seconds until timeout; an answer counts when it comes
 *                   from a server's port 53 with the query's id (random)
 *                   and its question
 *
 * Different from musl: queries carry EDNS0 (a 1232-byte UDP payload), so
 * an answer large enough to need TCP is refused as truncated rather than
 * asked again over TCP. The answers are hostile input: every length is
 * checked, names are skipped, never followed (tests/fuzz: fuzz_stub).
 */
#include "resolve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define QMAX	 300  /* a query: header, name (<= 255), type, class, EDNS */
#define ANSWER	 1232 /* the UDP payload the queries ask for */
#define MAX_ADDR 64

/* --- text ------------------------------------------------------------------
 */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next whitespace-separated word of [*at, end) on its line: its start,
 * its length in *n; NULL at the line's end (or a '#'). */
static const char *word(const char **at, const char *end, size_t *n)
{
	const char *p = *at, *w;

	while (p < end && is_space(*p))
		p++;
	if (p == end || *p == '\n' || *p == '#') {
		*at = p;
		return NULL;
	}
	for (w = p; p < end && !is_space(*p) && *p != '\n'; p++)
		;
	*at = p;
	*n = (size_t)(p - w);
	return w;
}

/* Past the end of the line at p. */
static const char *next_line(const char *p, const char *end)
{
	while (p < end && *p++ != '\n')
		;
	return p;
}

/* An address of text w (n bytes, at most 45) into a (16 bytes): 4 or 6,
 * or 0. */
static int addr_of(const char *w, size_t n, uint8_t *a)
{
	char s[48];

	if (n >= sizeof(s))
		return 0;
	memcpy(s, w, n);
	s[n] = '\0';
	if (inet_pton(AF_INET, s, a) == 1)
		return 4;
	return inet_pton(AF_INET6, s, a) == 1 ? 6 : 0;
}

static unsigned num_of(const char *w, size_t n, unsigned max)
{
	unsigned v = 0;

	while (n-- && *w >= '0' && *w <= '9' && v <= max)
		v = v * 10 + (unsigned)(*w++ - '0');
	return v > max ? max : v;
}

unsigned resolve_hosts(const char *text, size_t len, const char *name,
		       resolve_add_fn *add, void *arg)
{
	const char *p = text, *end = text + len, *w;
	size_t n, nl = strlen(name);
	unsigned found = 0;
	uint8_t a[16];
	int fam;

	for (; p < end; p = next_line(p, end)) {
		if (!(w = word(&p, end, &n)) || !(fam = addr_of(w, n, a)))
			continue;
		while ((w = word(&p, end, &n)))
			if (n == nl && !strncasecmp(w, name, n)) {
				add(arg, fam == 4 ? AF_INET : AF_INET6, a);
				found++;
				break;
			}
	}
	return found;
}

void resolve_conf(const char *text, size_t len, struct resolv_conf *c)
{
	const char *p = text, *end = text + len, *w, *v;
	size_t n, m;

	memset(c, 0, sizeof(*c));
	c->ndots = 1;
	c->timeout = 5;
	c->attempts = 2;
	for (; p < end; p = next_line(p, end)) {
		if (!(w = word(&p, end, &n)))
			continue;
		if (n == 10 && !memcmp(w, "nameserver", 10) && c->nns < 3 &&
		    (v = word(&p, end, &m))) {
			uint8_t a[16];
			int fam = addr_of(v, m, a);

			if (fam == 4) {
				memset(c->ns[c->nns], 0, 10);
				memset(c->ns[c->nns] + 10, 0xff, 2);
				memcpy(c->ns[c->nns] + 12, a, 4);
			} else if (fam == 6) {
				memcpy(c->ns[c->nns], a, 16);
			}
			c->nns += fam != 0;
		} else if (n == 7 && !memcmp(w, "options", 7)) {
			while ((v = word(&p, end, &m))) {
				if (m > 6 && !memcmp(v, "ndots:", 6))
					c->ndots = num_of(v + 6, m - 6, 15);
				else if (m > 8 && !memcmp(v, "timeout:", 8))
					c->timeout = num_of(v + 8, m - 8, 60);
				else if (m > 9 && !memcmp(v, "attempts:", 9))
					c->attempts = num_of(v + 9, m - 9, 10);
			}
		} else if ((n == 6 && !memcmp(w, "search", 6)) ||
			   (n == 6 && !memcmp(w, "domain", 6))) {
			size_t at = 0;

			while ((v = word(&p, end, &m)) &&
			       at + m + 1 < sizeof(c->search)) {
				memcpy(c->search + at, v, m);
				at += m;
				c->search[at++] = ' ';
			}
			c->search[at ? at - 1 : 0] = '\0';
		}
	}
	if (!c->nns) {
		memset(c->ns[0] + 10, 0xff, 2);
		c->ns[0][12] = 127;
		c->ns[0][15] = 1;
		c->nns = 1;
	}
	if (!c->timeout)
		c->timeout = 1;
	if (!c->attempts)
		c->attempts = 1;
}

/* A file's bytes, mapped (*len 0: none or empty). */
static const char *map_file(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *m = MAP_FAILED;

	*len = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		*len = (size_t)st.st_size;
	}
	close(fd);
	if (m == MAP_FAILED)
		*len = 0;
	return m == MAP_FAILED ? NULL : m;
}

/* --- DNS ---------------------------------------------------------------- */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Past the name at p in m (len bytes): labels, maybe ending in a
 * pointer; 0 when it does not fit. */
static size_t skip_name(const uint8_t *m, size_t len, size_t p)
{
	while (p < len) {
		if (m[p] == 0)
			return p + 1;
		if ((m[p] & 0xc0) == 0xc0)
			return p + 2 <= len ? p + 2 : 0;
		if (m[p] & 0xc0)
			return 0;
		p += 1u + m[p];
	}
	return 0;
}

int resolve_answer(const uint8_t *m, size_t len, uint16_t id, const uint8_t *q,
		   size_t qlen, resolve_add_fn *add, void *arg)
{
	size_t p, i, an;

	/* the header, and the question as asked (qlen bytes after it) */
	if (len < 12 + qlen || get16(m) != id || !(m[2] & 0x80) ||
	    (m[2] & 0x78) || get16(m + 4) != 1 ||
	    strncasecmp((const char *)m + 12, (const char *)q, qlen - 4) ||
	    memcmp(m + 8 + qlen, q + qlen - 4, 4))
		return -1;
	if (m[2] & 0x02) /* truncated: more than a UDP answer holds */
		return -1;
	an = get16(m + 6);
	for (p = 12 + qlen, i = 0; i < an; i++) {
		size_t rd;
		uint16_t type;

		p = skip_name(m, len, p);
		if (!p || len - p < 10)
			return -1;
		type = get16(m + p);
		rd = get16(m + p + 8);
		p += 10;
		if (rd > len - p)
			return -1;
		if (get16(m + p - 8) == 1 && type == 1 && rd == 4)
			add(arg, AF_INET, m + p);
		else if (get16(m + p - 8) == 1 && type == 28 && rd == 16)
			add(arg, AF_INET6, m + p);
		p += rd;
	}
	return m[3] & 15;
}

/* The question for name (+ "." + domain, dlen bytes) of type: header,
 * name, type, class IN, then an EDNS0 OPT record. Its length, 0 when a
 * label is empty or over 63 bytes or the name over 253. */
static size_t query(uint8_t *b, uint16_t id, const char *name, const char *dom,
		    size_t dlen, uint16_t type)
{
	size_t n = 12, at = n++;
	char full[256];
	size_t fl = strlen(name), i;

	if (fl + 1 + dlen > 253)
		return 0;
	memcpy(full, name, fl);
	if (dlen) {
		full[fl++] = '.';
		memcpy(full + fl, dom, dlen);
		fl += dlen;
	}
	memset(b, 0, 12);
	b[0] = (uint8_t)(id >> 8);
	b[1] = (uint8_t)id;
	b[2] = 0x01; /* recursion desired */
	b[5] = 1;    /* one question */
	b[11] = 1;   /* one additional record: OPT */
	for (i = 0; i <= fl; i++) {
		if (i == fl || full[i] == '.') {
			if (n - at - 1 == 0 || n - at - 1 > 63)
				return 0;
			b[at] = (uint8_t)(n - at - 1);
			at = n++;
		} else {
			b[n++] = (uint8_t)full[i];
		}
	}
	b[at] = 0;
	b[n++] = (uint8_t)(type >> 8);
	b[n++] = (uint8_t)type;
	b[n++] = 0;
	b[n++] = 1;
	/* OPT: root name, type 41, UDP payload size, no flags, no data */
	memcpy(b + n, "\0\0\x29\x04\xd0\0\0\0\0\0\0", 11);
	return n + 11;
}

struct lookup {
	resolve_add_fn *add;
	void *arg;
	unsigned n;
};

static void count(void *arg, int family, const uint8_t *a)
{
	struct lookup *l = arg;

	l->n++;
	l->add(l->arg, family, a);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/*
 * name (+ dom) asked of every server: 0 and the addresses through l (an
 * answer for both A and AAAA, NXDOMAIN or not), or -1 with why.
 */
static int ask(const struct resolv_conf *c, int fd, int v6, const char *name,
	       const char *dom, size_t dlen, struct lookup *l, const char **why)
{
	uint8_t q[2][QMAX], ans[ANSWER + 1];
	size_t qlen[2];
	uint16_t id[2];
	int done[2] = {0, 0}, t;
	uint64_t end = now_ms() + c->timeout * 1000u, next = 0;

	if (syscall(SYS_getrandom, id, sizeof(id), 0) != (long)sizeof(id)) {
		*why = "getrandom failed";
		return -1;
	}
	for (t = 0; t < 2; t++) {
		qlen[t] = query(q[t], id[t], name, dom, dlen, t ? 28 : 1);
		if (!qlen[t]) {
			*why = "the name is too long for DNS";
			return -1;
		}
	}
	while (!done[0] || !done[1]) {
		uint64_t now = now_ms();
		struct sockaddr_in6 from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = {fd, POLLIN, 0};
		ssize_t n;
		unsigned s;

		if (now >= end) {
			*why = "no name server answered";
			return -1;
		}
		if (now >= next) { /* (again) to every server */
			for (s = 0; s < c->nns; s++)
				for (t = 0; t < 2; t++) {
					struct sockaddr_in6 to = {
					    .sin6_family = AF_INET6,
					    .sin6_port = htons(53)};
					struct sockaddr_in to4 = {
					    .sin_family = AF_INET,
					    .sin_port = htons(53)};

					if (done[t])
						continue;
					memcpy(&to.sin6_addr, c->ns[s], 16);
					memcpy(&to4.sin_addr, c->ns[s] + 12, 4);
					if (v6)
						sendto(fd, q[t], qlen[t], 0,
						       (void *)&to, sizeof(to));
					else if (!memcmp(c->ns[s] + 10,
							 "\xff\xff", 2))
						sendto(fd, q[t], qlen[t], 0,
						       (void *)&to4,
						       sizeof(to4));
				}
			next = now + c->timeout * 1000u / c->attempts;
		}
		if (poll(&pfd, 1, (int)((next < end ? next : end) - now)) <= 0)
			continue;
		n = recvfrom(fd, ans, sizeof(ans), MSG_DONTWAIT, (void *)&from,
			     &fl);
		if (n < 0 || n > ANSWER || from.sin6_port != htons(53))
			continue;
		for (s = 0; s < c->nns; s++)
			if (v6 ? !memcmp(&from.sin6_addr, c->ns[s], 16)
			       : !memcmp(&((struct sockaddr_in *)(void *)&from)
					      ->sin_addr,
					 c->ns[s] + 12, 4))
				break;
		if (s == c->nns) /* not from a server we asked */
			continue;
		for (t = 0; t < 2; t++) {
			int rc;

			if (done[t])
				continue;
			rc = resolve_answer(ans, (size_t)n, id[t], q[t] + 12,
					    qlen[t] - 23, count, l);
			if (rc == 0 || rc == 3)
				done[t] = 1;
			else if (rc > 0) {
				*why = rc == 2 ? "the name server failed "
						 "(SERVFAIL)"
					       : "the name server refused";
				return -1;
			}
		}
	}
	return 0;
}

int resolve_host(const char *name, resolve_add_fn *add, void *arg,
		 const char **why)
{
	struct lookup l = {add, arg, 0};
	struct resolv_conf c;
	const char *text, *d, *s;
	size_t len, dots = 0;
	int fd, v6 = 1, rc = 0;

	text = map_file("/etc/hosts", &len);
	if (text) {
		unsigned n = resolve_hosts(text, len, name, add, arg);

		munmap((void *)(uintptr_t)text, len);
		if (n)
			return 0;
	}
	text = map_file("/etc/resolv.conf", &len);
	resolve_conf(text ? text : "", len, &c);
	if (text)
		munmap((void *)(uintptr_t)text, len);
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &(int){0},
			   sizeof(int));
	else if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0)
		v6 = 0;
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	for (s = name; *s; s++)
		dots += *s == '.';
	/* the search domains first when the name has few dots, then alone */
	for (s = dots < c.ndots ? c.search : ""; !l.n && rc == 0;) {
		size_t n;

		while (*s == ' ')
			s++;
		d = s;
		while (*s && *s != ' ')
			s++;
		n = (size_t)(s - d);
		rc = ask(&c, fd, v6, name, d, n, &l, why);
		if (!n)
			break;
	}
	close(fd);
	if (rc == 0 && !l.n) {
		*why = "no such name (NXDOMAIN), or no IPv4 or IPv6 address";
		rc = -1;
	}
	return rc;
}
