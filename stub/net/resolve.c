/* SPDX-License-Identifier: MIT */
/*
 * polexec's own resolver, for the host names of `net filtered` (net.c,
 * which pins what it returns). musl's getaddrinfo is 20 KiB with what it
 * pulls in (its sort by RFC 3484, service names, stdio); polexec needs the
 * addresses of one name, in any order. What it does, as musl does it:
 *
 *   numeric names   a name that reads as an IPv4 address in inet_aton's
 *                   forms (127.1, 2130706433) is refused, not looked up
 *                   (musl would pin the address, which polc check never
 *                   saw; polc refuses such a name too)
 *   /etc/hosts      first; a name it lists (any case) has those addresses
 *                   and no DNS query is made (IPv4 as a dotted quad: a
 *                   line in inet_aton's shorter forms, `10.1 db`, is
 *                   skipped, as glibc skips it; musl would read it)
 *   resolv.conf     `nameserver` (at most 3, default 127.0.0.1), `search`
 *                   or `domain`, `options ndots:N timeout:N attempts:N`
 *                   (defaults 1, 5 s, 2; at most 15, 60, 10)
 *   search          a name with fewer dots than ndots is tried with each
 *                   search domain, then alone; else alone only; the first
 *                   try with an address wins, NXDOMAIN goes on, a name
 *                   that exists without an address ends the search (as
 *                   musl), and so does a refusal (silence, TC, every
 *                   server failing)
 *   queries         A and AAAA at once to every server over UDP, from one
 *                   socket (IPv6 with IPv4 mapped, else IPv4 and the IPv6
 *                   servers left out), attempts times, timeout/attempts
 *                   seconds apart, until timeout; an answer counts when it
 *                   comes from a server's port 53 with the query's id
 *                   (random) and its question; a SERVFAIL, REFUSED or
 *                   malformed answer from one server waits for another
 *
 * Different from musl: queries carry EDNS0 (a 1232-byte UDP payload), so
 * an answer large enough to need TCP is rare, and refused (TC) rather
 * than asked again over TCP. Answers are hostile input (tests/unit:
 * test_resolve, tests/fuzz: fuzz_dns): every length is checked, a
 * compression pointer must point before the labels it continues (no name
 * loops or passes 255 bytes), the CNAME chain from the question's name is
 * followed in order, and only records of the asked type owned by its last
 * name are addresses, given once the whole answer section is well formed.
 */
#include "resolve.h"

#include "polbin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
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

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* A name being read in a message: where its labels are read now, the
 * start of the labels read since the last pointer (the next must point
 * before it, so no name loops), its length so far, and past it where it
 * is written (0 until known). */
struct walk {
	size_t p, lim, n, end;
};

/* The next label of w's name in m (len bytes): its offset (m[it] 0 at
 * the root), or -1: past the end, a label of a reserved type, a pointer
 * not backwards, a name over 255 bytes. */
static long next_label(const uint8_t *m, size_t len, struct walk *w)
{
	size_t at = w->p, to;

	while (at + 1 < len && (m[at] & 0xc0) == 0xc0) {
		to = (size_t)(m[at] & 0x3f) << 8 | m[at + 1];
		if (!w->end)
			w->end = at + 2;
		if (to >= w->lim)
			return -1;
		at = w->lim = to;
	}
	if (at >= len || (m[at] & 0xc0) || len - at - 1 < m[at] ||
	    (w->n += 1u + m[at]) > 255)
		return -1;
	w->p = at + 1 + m[at];
	if (!m[at] && !w->end)
		w->end = w->p;
	return (long)at;
}

/* Past the name at p in m, 0 when it is malformed; *same: whether it is
 * the name at o (well formed, ASCII case aside). */
static size_t name_end(const uint8_t *m, size_t len, size_t p, size_t o,
		       int *same)
{
	struct walk a = {p, p, 0, 0}, b = {o, o, 0, 0};
	long x, y;
	unsigned i;

	*same = 1;
	do {
		if ((x = next_label(m, len, &a)) < 0)
			return 0;
		y = next_label(m, len, &b);
		for (i = 0; *same && i <= m[x]; i++)
			*same = y >= 0 && lower(m[x + i]) == lower(m[y + i]);
	} while (m[x]);
	return a.end;
}

int resolve_answer(const uint8_t *m, size_t len, uint16_t id, const uint8_t *q,
		   size_t qlen, resolve_add_fn *add, void *arg)
{
	uint16_t qtype = get16(q + qlen - 4);
	size_t p, i, an, cur, rd, links;
	int pass, same;

	/* the header, and the question as asked (qlen bytes after it) */
	if (len < 12 + qlen || get16(m) != id || !(m[2] & 0x80) ||
	    (m[2] & 0x78) || get16(m + 4) != 1)
		return RESOLVE_NOT_OURS;
	for (i = 0; i < qlen; i++)
		if (lower(m[12 + i]) != lower(q[i]))
			return RESOLVE_NOT_OURS;
	if (m[2] & 0x02) /* more than a UDP answer holds */
		return RESOLVE_TRUNCATED;
	if (m[3] & 15)
		return m[3] & 15;
	/*
	 * The answer section, twice: checked whole, then its addresses
	 * given. From the question's name, each CNAME of the name so far
	 * (class IN, in order, at most 16) names the next; the records of
	 * the asked type owned by the last are the addresses.
	 */
	an = get16(m + 6);
	for (pass = 0; pass < 2; pass++)
		for (p = 12 + qlen, cur = 12, links = i = 0; i < an; i++) {
			p = name_end(m, len, p, cur, &same);
			if (!p || len - p < 10)
				return RESOLVE_MALFORMED;
			rd = get16(m + p + 8);
			p += 10;
			if (rd > len - p)
				return RESOLVE_MALFORMED;
			if (same && get16(m + p - 8) == 1 &&
			    get16(m + p - 10) == 5) {
				if (name_end(m, len, p, p, &same) != p + rd ||
				    ++links > 16)
					return RESOLVE_MALFORMED;
				cur = p;
			} else if (same && get16(m + p - 8) == 1 &&
				   get16(m + p - 10) == qtype) {
				if (rd != (qtype == 1 ? 4u : 16u))
					return RESOLVE_MALFORMED;
				if (pass)
					add(arg,
					    qtype == 1 ? AF_INET : AF_INET6,
					    m + p);
			}
			p += rd;
		}
	return 0;
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

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static char msg[200]; /* a refusal's words, when they hold numbers */

struct counted {
	resolve_add_fn *add;
	void *arg;
	unsigned n;
};

static void count(void *arg, int family, const uint8_t *a)
{
	struct counted *l = arg;

	l->n++;
	l->add(l->arg, family, a);
}

/*
 * name (+ dom) asked of every server, A and AAAA: 1 when either answer
 * is NXDOMAIN (or the name too long with dom), 0 when both say the name
 * exists (its addresses through add, maybe none), -1 with why.
 */
static int ask(const struct resolv_conf *c, int fd, int v6, const char *name,
	       const char *dom, size_t dlen, resolve_add_fn *add, void *arg,
	       const char **why)
{
	uint8_t q[2][QMAX], ans[ANSWER + 1];
	size_t qlen[2];
	uint16_t id[2];
	unsigned failed[2] = {0, 0}, sent = 0, all = (1u << c->nns) - 1;
	int done[2] = {0, 0}, nx = 0, t, err = 0;
	uint64_t end = now_ms() + c->timeout * 1000u, next = 0;
	const char *last = "nothing came back";

	if (syscall(SYS_getrandom, id, sizeof(id), 0) != (long)sizeof(id)) {
		snprintf(msg, sizeof(msg), "getrandom: %s", strerror(errno));
		*why = msg;
		return -1;
	}
	for (t = 0; t < 2; t++) {
		qlen[t] = query(q[t], id[t], name, dom, dlen, t ? 28 : 1);
		if (!qlen[t] && dlen) /* a search domain too long: skipped */
			return 1;
		if (!qlen[t]) {
			*why = "the name is too long for DNS";
			return -1;
		}
	}
	while (!done[0] || !done[1]) {
		uint64_t now = now_ms(), wake;
		struct sockaddr_in6 from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = {fd, POLLIN, 0};
		ssize_t n;
		unsigned s;

		if (now >= end) {
			snprintf(msg, sizeof(msg),
				 "no usable answer within %u s (resolv.conf: "
				 "timeout:%u attempts:%u); last: %s%s",
				 c->timeout, c->timeout, c->attempts,
				 last ? "" : "sending a query: ",
				 last ? last : strerror(err));
			*why = msg;
			return -1;
		}
		if (now >= next && sent < c->attempts) { /* to every server */
			for (s = 0; s < c->nns; s++)
				for (t = 0; t < 2; t++) {
					struct sockaddr_in6 to = {
					    .sin6_family = AF_INET6,
					    .sin6_port = htons(53)};
					struct sockaddr_in to4 = {
					    .sin_family = AF_INET,
					    .sin_port = htons(53)};
					long r = 0;

					if (done[t])
						continue;
					memcpy(&to.sin6_addr, c->ns[s], 16);
					memcpy(&to4.sin_addr, c->ns[s] + 12, 4);
					if (v6)
						r = sendto(fd, q[t], qlen[t], 0,
							   (void *)&to,
							   sizeof(to));
					else if (!memcmp(c->ns[s] + 10,
							 "\xff\xff", 2))
						r = sendto(fd, q[t], qlen[t], 0,
							   (void *)&to4,
							   sizeof(to4));
					if (r < 0) {
						err = errno;
						last = NULL;
					}
				}
			sent++;
			next = now + c->timeout * 1000u / c->attempts;
		}
		wake = sent < c->attempts && next < end ? next : end;
		if (poll(&pfd, 1, (int)(wake - now)) <= 0)
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
					    qlen[t] - 23, add, arg);
			if (rc == RESOLVE_NOT_OURS)
				continue;
			if (rc == RESOLVE_TRUNCATED) {
				*why = "a truncated answer (TC); polexec asks "
				       "over UDP only";
				return -1;
			}
			done[t] = rc == 0 || rc == 3;
			nx |= rc == 3;
			if (done[t])
				break;
			last = rc == RESOLVE_MALFORMED ? "a malformed answer"
			       : rc == 2	       ? "SERVFAIL"
			       : rc == 5	       ? "REFUSED"
						       : "an error rcode";
			if ((failed[t] |= 1u << s) == all) {
				snprintf(msg, sizeof(msg),
					 "every name server sent %s", last);
				*why = msg;
				return -1;
			}
			break;
		}
		if (t == 2)
			last = "a packet answering no query";
	}
	return nx;
}

int resolve_host(const char *name, resolve_add_fn *add, void *arg,
		 const char **why)
{
	struct counted l = {add, arg, 0};
	struct resolv_conf c;
	const char *text, *d, *s;
	size_t len, n, dots = 0;
	uint8_t a[16];
	int fd, v6 = 1, rc;

	if (polbin_inet_aton(name, strlen(name), a)) {
		snprintf(msg, sizeof(msg),
			 "the name reads as the IPv4 address %u.%u.%u.%u "
			 "(inet_aton's forms): write that address, not a name",
			 a[0], a[1], a[2], a[3]);
		*why = msg;
		return -1;
	}
	if (strchr(name, ':')) { /* an IPv6 address: not a name either */
		*why = "the name is an IPv6 address";
		return -1;
	}
	text = map_file("/etc/hosts", &len);
	if (text) {
		n = resolve_hosts(text, len, name, add, arg);
		munmap((void *)(uintptr_t)text, len);
		if (n)
			return 0;
	}
	text = map_file("/etc/resolv.conf", &len);
	resolve_conf(text ? text : "", len, &c);
	if (text)
		munmap((void *)(uintptr_t)text, len);
	/* IPv4 servers through mapped addresses; IPv4 alone without IPv6 */
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &(int){0}, sizeof(int))) {
		close(fd);
		fd = -1;
	}
	if (fd < 0 && (fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0)
		v6 = 0;
	if (fd < 0) {
		snprintf(msg, sizeof(msg), "opening a UDP socket: %s",
			 strerror(errno));
		*why = msg;
		return -1;
	}
	for (s = name; *s; s++)
		dots += *s == '.';
	/*
	 * With fewer dots than ndots, the name with each search domain,
	 * then alone; else alone. An address ends the search, and so does
	 * a name that exists without one (as musl); NXDOMAIN goes on.
	 */
	for (s = dots < c.ndots ? c.search : "";;) {
		while (*s == ' ')
			s++;
		d = s;
		while (*s && *s != ' ')
			s++;
		n = (size_t)(s - d);
		rc = ask(&c, fd, v6, name, d, n, count, &l, why);
		if (rc < 0 || l.n)
			break;
		if (rc == 0 || !n) {
			*why = rc ? "no such name (NXDOMAIN)"
				  : "the name has no A or AAAA record";
			rc = -1;
			break;
		}
	}
	close(fd);
	return rc < 0 ? -1 : 0;
}
