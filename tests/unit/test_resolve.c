/* SPDX-License-Identifier: MIT */
/*
 * stub/net/resolve.c, polexec's resolver, without a network: the answer
 * reader over crafted messages (answers to another question, rcodes, TC,
 * compression pointers that loop or point out of bounds, names over 255
 * bytes, records cut short, CNAME chains), resolv.conf and hosts lines as
 * it reads them, inet_aton's forms (artifact/polbin.h) and the refusal of
 * a name that reads as an address. tests/net/run.sh asks a real DNS
 * server and bad ones; tests/fuzz/fuzz_dns.c feeds the readers at random.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "artifact/polbin.h"
#include "stub/net/resolve.h"

/* --- a message builder -------------------------------------------------- */

struct msg {
	uint8_t b[2048];
	size_t n;
};

static void put(struct msg *m, const void *p, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put16(struct msg *m, unsigned v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};

	put(m, b, 2);
}

/* A dotted name as labels and the root. */
static void put_name(struct msg *m, const char *name)
{
	while (*name) {
		const char *dot = strchr(name, '.');
		size_t n = dot ? (size_t)(dot - name) : strlen(name);
		uint8_t len = (uint8_t)n;

		put(m, &len, 1);
		put(m, name, n);
		name += n + (dot != NULL);
	}
	put(m, "", 1);
}

static void put_ptr(struct msg *m, size_t to)
{
	put16(m, 0xc000 | (unsigned)to);
}

/* A record's fixed part after its owner name: type, class, TTL, length. */
static void put_rr_head(struct msg *m, unsigned type, unsigned class,
			unsigned rdlen)
{
	put16(m, type);
	put16(m, class);
	put16(m, 0);
	put16(m, 300);
	put16(m, rdlen);
}

#define T_A	 1
#define T_CNAME	 5
#define T_AAAA	 28
#define QR_RD_RA 0x8180

/* The question as resolve.c asks it (name, type, class IN) after the
 * header. */
static struct msg question;

/* The header and question of an answer to name and type, id 0x1234:
 * flags (QR by the caller's choice, rcode), ancount. */
static void answer_head(struct msg *m, const char *name, unsigned type,
			unsigned flags, unsigned ancount)
{
	memset(&question, 0, sizeof(question));
	put_name(&question, name);
	put16(&question, type);
	put16(&question, 1);
	memset(m, 0, sizeof(*m));
	put16(m, 0x1234);
	put16(m, flags);
	put16(m, 1);
	put16(m, ancount);
	put16(m, 0);
	put16(m, 0);
	put(m, question.b, question.n);
}

static void put_a(struct msg *m, const char *ip)
{
	uint8_t a[4];

	assert_int_equal(inet_pton(AF_INET, ip, a), 1);
	put_rr_head(m, T_A, 1, 4);
	put(m, a, 4);
}

/* What add was given, as text. */
static char got[8][INET6_ADDRSTRLEN];
static unsigned ngot;

static void add(void *arg, int family, const uint8_t *a)
{
	(void)arg;
	assert_true(family == AF_INET || family == AF_INET6);
	assert_true(ngot < 8);
	inet_ntop(family, a, got[ngot++], sizeof(got[0]));
}

static int parse_n(const struct msg *m, size_t n)
{
	ngot = 0;
	return resolve_answer(m->b, n, 0x1234, question.b, question.n, add,
			      NULL);
}

static int parse(const struct msg *m)
{
	return parse_n(m, m->n);
}

/* --- answers: ours or not ----------------------------------------------- */

static void test_answer_plain(void **state)
{
	struct msg m;

	(void)state;
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	put_ptr(&m, 12);
	put_a(&m, "10.77.2.2");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 2);
	assert_string_equal(got[0], "10.77.1.2");
	assert_string_equal(got[1], "10.77.2.2");
	/* an owner written out, in capitals: the same name */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_name(&m, "SVC.Test");
	put_a(&m, "10.77.1.3");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
	assert_string_equal(got[0], "10.77.1.3");
	/* an owner that is another name, or a longer one: not taken */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_name(&m, "svd.test");
	put_a(&m, "10.77.1.4");
	put_name(&m, "svc.test.x");
	put_a(&m, "10.77.1.5");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
}

static void test_answer_aaaa(void **state)
{
	struct msg m;
	uint8_t a6[16];

	(void)state;
	assert_int_equal(inet_pton(AF_INET6, "fd77:1::2", a6), 1);
	answer_head(&m, "svc6.test", T_AAAA, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_rr_head(&m, T_AAAA, 1, 16);
	put(&m, a6, 16);
	/* an A record in an answer to AAAA: not taken */
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
	assert_string_equal(got[0], "fd77:1::2");
	/* an AAAA record of 4 bytes is malformed */
	answer_head(&m, "svc6.test", T_AAAA, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_AAAA, 1, 4);
	put(&m, a6, 4);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* class CH: not taken */
	answer_head(&m, "svc6.test", T_AAAA, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_AAAA, 3, 16);
	put(&m, a6, 16);
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
}

static void test_not_ours(void **state)
{
	struct msg m, good;

	(void)state;
	answer_head(&good, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&good, 12);
	put_a(&good, "10.77.1.2");
	assert_int_equal(parse(&good), 0);
	/* wrong id, either byte */
	m = good;
	m.b[0] ^= 1;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	m = good;
	m.b[1] ^= 0x80;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	/* a query, not an answer (QR clear) */
	m = good;
	m.b[2] &= 0x7f;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	/* another opcode */
	m = good;
	m.b[2] |= 0x10;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	/* no question, or two */
	m = good;
	m.b[5] = 0;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	m = good;
	m.b[5] = 2;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	/* shorter than a header, the question cut short */
	assert_int_equal(parse_n(&good, 11), RESOLVE_NOT_OURS);
	assert_int_equal(parse_n(&good, 0), RESOLVE_NOT_OURS);
	assert_int_equal(parse_n(&good, 12 + question.n - 1), RESOLVE_NOT_OURS);
	/* the same id, another question: name, type, class */
	m = good;
	m.b[15] = 'd'; /* svd.test */
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	m = good;
	m.b[12 + question.n - 3] = T_AAAA;
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	m = good;
	m.b[12 + question.n - 1] = 3; /* class CH */
	assert_int_equal(parse(&m), RESOLVE_NOT_OURS);
	/* the question in capitals is still ours */
	m = good;
	m.b[13] = 'S';
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
}

static void test_rcodes(void **state)
{
	struct msg m;

	(void)state;
	answer_head(&m, "missing.test", T_A, QR_RD_RA | 3, 0);
	assert_int_equal(parse(&m), 3);
	answer_head(&m, "svc.test", T_A, QR_RD_RA | 2, 0);
	assert_int_equal(parse(&m), 2);
	answer_head(&m, "svc.test", T_A, QR_RD_RA | 5, 0);
	assert_int_equal(parse(&m), 5);
	/* an rcode with a record: no address given */
	answer_head(&m, "svc.test", T_A, QR_RD_RA | 3, 1);
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), 3);
	assert_int_equal(ngot, 0);
	/* NOERROR with nothing: no data, no address */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 0);
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
	/* TC: refused whatever it holds, even an address */
	answer_head(&m, "svc.test", T_A, QR_RD_RA | 0x0200, 1);
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_TRUNCATED);
	assert_int_equal(ngot, 0);
	answer_head(&m, "svc.test", T_A, QR_RD_RA | 0x0200 | 3, 0);
	assert_int_equal(parse(&m), RESOLVE_TRUNCATED);
}

/* --- answers: hostile bytes --------------------------------------------- */

static void test_compression_pointers(void **state)
{
	struct msg m;
	size_t at;

	(void)state;
	/* an owner pointing at itself (netserve's dnsloop: server) */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, m.n);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	assert_int_equal(ngot, 0);
	/* forwards, into the message */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, m.n + 2);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* out of bounds */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 0x3fff);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a label, then a pointer back to that label: a loop */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	at = m.n;
	put(&m, "\001x", 2);
	put_ptr(&m, at);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* two names pointing at each other: the first points forward */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	at = m.n;
	put_ptr(&m, at + 16);
	put_a(&m, "10.77.1.2");
	put_ptr(&m, at);
	put_a(&m, "10.77.1.3");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a pointer cut in half at the end */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put(&m, "\xc0", 1);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* into the header: its flags byte 0x81 reads as a reserved type */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 2);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* labels of a reserved type (0x40, 0x80) */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put(&m, "\x41", 1);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put(&m, "\x81", 1);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a pointer to a pointer to the question: backwards twice, fine */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	put_ptr(&m, 12 + question.n);
	put_a(&m, "10.77.1.3");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 2);
}

/* Pointers that only point backwards, but whose name grows past 255
 * bytes: the chain of labels sits in a TXT record's data before the
 * owner. */
static void test_name_too_long(void **state)
{
	struct msg m;
	char label[63];
	size_t prev, i;

	(void)state;
	label[0] = 62;
	memset(label + 1, 'a', 62);
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_rr_head(&m, 16, 1, 64 + 4 * 65);
	prev = m.n;
	put(&m, label, 63);
	put(&m, "", 1);
	for (i = 0; i < 4; i++) {
		size_t here = m.n;

		put(&m, label, 63);
		put_ptr(&m, prev);
		prev = here;
	}
	put_ptr(&m, prev); /* five labels of 63 and the root: 316 bytes */
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* the same chain of two labels is a name (another one) */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_rr_head(&m, 16, 1, 64 + 65);
	prev = m.n;
	put(&m, label, 63);
	put(&m, "", 1);
	i = m.n;
	put(&m, label, 63);
	put_ptr(&m, prev);
	put_ptr(&m, i);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
}

static void test_truncated_records(void **state)
{
	struct msg m, good;
	size_t cut;

	(void)state;
	answer_head(&good, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&good, 12);
	put_a(&good, "10.77.1.2");
	/* every cut inside the record is malformed, none gives an address */
	for (cut = 12 + question.n; cut < good.n; cut++) {
		assert_int_equal(parse_n(&good, cut), RESOLVE_MALFORMED);
		assert_int_equal(ngot, 0);
	}
	assert_int_equal(parse(&good), 0);
	/* a count of two with one record */
	m = good;
	m.b[7] = 2;
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	assert_int_equal(ngot, 0);
	/* a length past the end */
	m = good;
	m.b[m.n - 5] = 5;
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* A with 5 bytes of data */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_A, 1, 5);
	put(&m, "\x0a\x4d\x01\x02\x00", 5);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a label running past the end */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 1);
	put(&m, "\x20xy", 3);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a good record, then a bad one: nothing given */
	answer_head(&m, "svc.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	put_ptr(&m, m.n);
	put_a(&m, "10.77.1.3");
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	assert_int_equal(ngot, 0);
	/* bytes after the answer section (authority, additional) are not
	 * read: an answer with junk after it stands */
	m = good;
	put(&m, "\xff\xff\xff", 3);
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
}

static void test_cname_chain(void **state)
{
	struct msg m;
	size_t b_at, c_at;

	(void)state;
	/* www.a.test -> b.test -> c.test: the A of c.test taken; the A of
	 * b.test (a name with a CNAME) and of an unrelated name not */
	answer_head(&m, "www.a.test", T_A, QR_RD_RA, 5);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 1, 8);
	b_at = m.n;
	put_name(&m, "b.test");
	put_ptr(&m, b_at);
	put_rr_head(&m, T_CNAME, 1, 4);
	c_at = m.n;
	put(&m, "\001c", 2);
	put_ptr(&m, b_at + 2); /* "test" of b.test */
	put_ptr(&m, b_at);
	put_a(&m, "10.9.9.9");
	put_name(&m, "other.test");
	put_a(&m, "10.8.8.8");
	put_ptr(&m, c_at);
	put_a(&m, "10.77.3.2");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
	assert_string_equal(got[0], "10.77.3.2");
	/* a chain whose end has no address: no data */
	answer_head(&m, "www.a.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 1, 8);
	put_name(&m, "b.test");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
	/* a CNAME of class CH is not followed: the question's A is taken */
	answer_head(&m, "www.a.test", T_A, QR_RD_RA, 2);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 3, 8);
	put_name(&m, "b.test");
	put_ptr(&m, 12);
	put_a(&m, "10.77.1.2");
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
	assert_string_equal(got[0], "10.77.1.2");
	/* a CNAME whose data is not exactly a name */
	answer_head(&m, "www.a.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 1, 9);
	put_name(&m, "b.test");
	put(&m, "x", 1);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	answer_head(&m, "www.a.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 1, 2);
	put(&m, "\001b", 2);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
}

/* n CNAME links, a.test -> n0.t -> ... -> n(n-1).t, then an A of the
 * last. */
static void cname_links(struct msg *m, int n)
{
	char name[16];
	int i;

	answer_head(m, "a.test", T_A, QR_RD_RA, (unsigned)n + 1);
	put_ptr(m, 12);
	put_rr_head(m, T_CNAME, 1, 6);
	put_name(m, "n0.t");
	for (i = 0; i + 1 < n; i++) {
		snprintf(name, sizeof(name), "n%d.t", i);
		put_name(m, name);
		snprintf(name, sizeof(name), "n%d.t", i + 1);
		put_rr_head(m, T_CNAME, 1, (unsigned)strlen(name) + 2);
		put_name(m, name);
	}
	snprintf(name, sizeof(name), "n%d.t", n - 1);
	put_name(m, name);
	put_a(m, "10.77.1.2");
}

static void test_cname_hostile(void **state)
{
	struct msg m;
	int i;

	(void)state;
	/* 16 links are followed, 17 are too many */
	cname_links(&m, 16);
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 1);
	assert_string_equal(got[0], "10.77.1.2");
	cname_links(&m, 17);
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	assert_int_equal(ngot, 0);
	/* a -> b -> a -> ...: a loop ends at the bound */
	answer_head(&m, "a.test", T_A, QR_RD_RA, 20);
	for (i = 0; i < 10; i++) {
		put_name(&m, "a.test");
		put_rr_head(&m, T_CNAME, 1, 8);
		put_name(&m, "b.test");
		put_name(&m, "b.test");
		put_rr_head(&m, T_CNAME, 1, 8);
		put_name(&m, "a.test");
	}
	assert_int_equal(parse(&m), RESOLVE_MALFORMED);
	/* a name that is its own CNAME, once: no data */
	answer_head(&m, "a.test", T_A, QR_RD_RA, 1);
	put_ptr(&m, 12);
	put_rr_head(&m, T_CNAME, 1, 2);
	put_ptr(&m, 12);
	assert_int_equal(parse(&m), 0);
	assert_int_equal(ngot, 0);
}

/* --- resolv.conf and hosts ---------------------------------------------- */

static void conf(const char *text, struct resolv_conf *c)
{
	resolve_conf(text, strlen(text), c);
}

static void ns_is(const struct resolv_conf *c, unsigned i, const char *ip)
{
	char s[INET6_ADDRSTRLEN];

	assert_true(i < c->nns);
	if (!memcmp(c->ns[i], "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12))
		inet_ntop(AF_INET, c->ns[i] + 12, s, sizeof(s));
	else
		inet_ntop(AF_INET6, c->ns[i], s, sizeof(s));
	assert_string_equal(s, ip);
}

static void test_resolv_conf(void **state)
{
	struct resolv_conf c;

	(void)state;
	/* none: musl's defaults */
	conf("", &c);
	assert_int_equal(c.nns, 1);
	ns_is(&c, 0, "127.0.0.1");
	assert_int_equal(c.ndots, 1);
	assert_int_equal(c.timeout, 5);
	assert_int_equal(c.attempts, 2);
	assert_string_equal(c.search, "");
	/* three servers at most, IPv4 and IPv6; what is not an address,
	 * comments, other words skipped */
	conf("# nameserver 10.0.0.9\n"
	     "nameserver 10.77.3.2\n"
	     "nameserver   fd77:3::2 # h3\n"
	     "nameserver localhost\n"
	     "sortlist 10.0.0.0\n"
	     "nameserver 10.77.1.2\n"
	     "nameserver 10.77.2.2\n",
	     &c);
	assert_int_equal(c.nns, 3);
	ns_is(&c, 0, "10.77.3.2");
	ns_is(&c, 1, "fd77:3::2");
	ns_is(&c, 2, "10.77.1.2");
	/* options, bounded as musl bounds them; 0 is 1 */
	conf("options ndots:2 timeout:1 attempts:3 rotate\n", &c);
	assert_int_equal(c.ndots, 2);
	assert_int_equal(c.timeout, 1);
	assert_int_equal(c.attempts, 3);
	conf("options ndots:99 timeout:999 attempts:99\n", &c);
	assert_int_equal(c.ndots, 15);
	assert_int_equal(c.timeout, 60);
	assert_int_equal(c.attempts, 10);
	conf("options timeout:0 attempts:0\n", &c);
	assert_int_equal(c.timeout, 1);
	assert_int_equal(c.attempts, 1);
	/* the last search or domain line wins */
	conf("search a.test b.test\ndomain c.test\n", &c);
	assert_string_equal(c.search, "c.test");
	conf("domain c.test\nsearch  a.test\tb.test \n", &c);
	assert_string_equal(c.search, "a.test b.test");
	/* no newline at the end, CR LF lines */
	conf("nameserver 10.77.1.2\r\noptions ndots:3", &c);
	ns_is(&c, 0, "10.77.1.2");
	assert_int_equal(c.ndots, 3);
}

static void test_hosts(void **state)
{
	static const char hosts[] = "127.0.0.1 localhost\n"
				    "# 10.0.0.1 svc.test\n"
				    "10.77.1.2\tsvc.test svc # h1\n"
				    "fd77:1::2 SVC.TEST\n"
				    "10.77.2.2 svc.test.x xsvc.test\n"
				    "bad svc.test\n"
				    "10.77.3.2 other svc.test\n"
				    "10.77.4 aton.test\n"
				    "0x0a4d0005 aton.test"; /* no newline */

	(void)state;
	ngot = 0;
	assert_int_equal(
	    resolve_hosts(hosts, strlen(hosts), "svc.test", add, NULL), 3);
	assert_string_equal(got[0], "10.77.1.2");
	assert_string_equal(got[1], "fd77:1::2");
	assert_string_equal(got[2], "10.77.3.2");
	ngot = 0;
	assert_int_equal(resolve_hosts(hosts, strlen(hosts), "svc", add, NULL),
			 1);
	assert_int_equal(
	    resolve_hosts(hosts, strlen(hosts), "nope.test", add, NULL), 0);
	/* IPv4 in inet_aton's shorter forms is no address here, as glibc
	 * reads the file (musl would take them) */
	assert_int_equal(
	    resolve_hosts(hosts, strlen(hosts), "aton.test", add, NULL), 0);
}

/* --- names that read as addresses --------------------------------------- */

static void aton_is(const char *s, const char *want)
{
	uint8_t a[4];
	char t[INET_ADDRSTRLEN];
	int ok = polbin_inet_aton(s, strlen(s), a);

	if (!want) {
		if (ok)
			fail_msg("%s read as an address", s);
		return;
	}
	if (!ok)
		fail_msg("%s not read as %s", s, want);
	inet_ntop(AF_INET, a, t, sizeof(t));
	assert_string_equal(t, want);
}

static void test_inet_aton_forms(void **state)
{
	(void)state;
	aton_is("127.0.0.1", "127.0.0.1");
	aton_is("127.1", "127.0.0.1");
	aton_is("127.0.1", "127.0.0.1");
	aton_is("2130706433", "127.0.0.1");
	aton_is("0x7f.1", "127.0.0.1");
	aton_is("0X7F000001", "127.0.0.1");
	aton_is("0177.0.0.1", "127.0.0.1");
	aton_is("017700000001", "127.0.0.1");
	aton_is("0", "0.0.0.0");
	aton_is("4294967295", "255.255.255.255");
	aton_is("1.16777215", "1.255.255.255");
	aton_is("1.2.65535", "1.2.255.255");
	aton_is("0xff.0xff.0xff.0xff", "255.255.255.255");
	/* not addresses: out of range, five parts, bad digits, empty
	 * parts, signs and spaces, letters */
	aton_is("4294967296", NULL);
	aton_is("99999999999999999999999", NULL);
	aton_is("1.16777216", NULL);
	aton_is("1.2.65536", NULL);
	aton_is("256.1.1.1", NULL);
	aton_is("1.2.3.256", NULL);
	aton_is("1.2.3.4.5", NULL);
	aton_is("08", NULL);
	aton_is("0x", NULL);
	aton_is("0xg", NULL);
	aton_is("", NULL);
	aton_is("1.", NULL);
	aton_is(".1", NULL);
	aton_is("1..2", NULL);
	aton_is("+1", NULL);
	aton_is(" 1", NULL);
	aton_is("1 ", NULL);
	aton_is("1\x11", NULL);
	aton_is("1e2", NULL);
	aton_is("api.test", NULL);
	aton_is("1.2.3.4a", NULL);
	aton_is("10.77.1.2-x", NULL);
}

/* Refused before the hosts file or DNS: add is never called, and the
 * refusal names the address. */
static void test_numeric_names_refused(void **state)
{
	static const char *const names[] = {"127.1", "2130706433", "0x7f.1",
					    "0177.0.0.1", "127.0.0.1"};
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ngot = 0;
		why = NULL;
		assert_int_equal(resolve_host(names[i], add, NULL, &why), -1);
		assert_int_equal(ngot, 0);
		assert_non_null(why);
		if (!strstr(why, "reads as the IPv4 address 127.0.0.1 "
				 "(inet_aton's forms)"))
			fail_msg("%s: %s", names[i], why);
	}
	why = NULL;
	assert_int_equal(resolve_host("::1", add, NULL, &why), -1);
	assert_non_null(strstr(why, "IPv6 address"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answer_plain),
	    cmocka_unit_test(test_answer_aaaa),
	    cmocka_unit_test(test_not_ours),
	    cmocka_unit_test(test_rcodes),
	    cmocka_unit_test(test_compression_pointers),
	    cmocka_unit_test(test_name_too_long),
	    cmocka_unit_test(test_truncated_records),
	    cmocka_unit_test(test_cname_chain),
	    cmocka_unit_test(test_cname_hostile),
	    cmocka_unit_test(test_resolv_conf),
	    cmocka_unit_test(test_hosts),
	    cmocka_unit_test(test_inet_aton_forms),
	    cmocka_unit_test(test_numeric_names_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
