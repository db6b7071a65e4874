/* SPDX-License-Identifier: MIT */
/*
 * The egress backend (compiler/backend/nft.c, nft_print.c):
 *   - the NFT section's messages decoded back with libnftnl: the interval
 *     set elements, pairwise disjoint, say exactly what the IR says for the
 *     static entries, checked on boundary and random (addr, proto, port)
 *     points; the output is deterministic; the message headers are as the
 *     contract says;
 *   - the NET section v2 byte layout;
 *   - the kernel accepts the messages (a batch over NETLINK_NETFILTER in a
 *     user + network namespace of a forked child, every ack 0) and lists the
 *     table exactly as it lists nft_print's text loaded with `nft -f` in
 *     another namespace. Skipped, with the reason, only when user
 *     namespaces are unavailable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "diag.h"
#include "ir/ir.h"
#include "backend/backend.h"
#include "sections.h"
#include "sema/sema.h"
#include "compile_text.h"

#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const policies[] = {
    /* overlapping allows */
    "policy \"p\" { net filtered { allow 10.0.0.0/8:80-443 "
    "10.1.0.0/16:400-500 10.1.2.3:22 0.0.0.0/0:8080 10.1.2.0/24\n"
    "allow 10.1.2.3:53 10.0.0.0/9:53 udp } }",
    /* a deny carved out of a wide allow */
    "policy \"p\" { net filtered { allow 0.0.0.0/0 [::/0]:443 tcp udp\n"
    "deny 10.0.0.0/8 192.168.1.0/24:22 [2001:db8::/32]:443 tcp udp\n"
    "deny 10.1.0.0/16:1000-2000 udp } }",
    /* v6, udp, port ranges */
    "policy \"p\" { net filtered { allow [2001:db8::1]:53 udp\n"
    "allow [2001:db8::/48]:1000-2000 [2001:db8::/47]:1500-3000 tcp udp\n"
    "allow [::/0]:65535 [::/1]:0 [ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:0\n"
    "deny [2001:db8::/64]:1500 udp } }",
    /* names and vars, with static entries and loopback */
    "policy \"p\" { net filtered { allow api.example.com:443 pypi.org\n"
    "allow ${PROXY}:3128 1.2.3.4:80 ${DNS}:53 udp\n"
    "deny 1.2.3.0/24:80-81\nloopback 5432 6379-6380 6381 } }",
    /* names only: every interval set empty */
    "policy \"p\" { net filtered { allow example.org:443 ${API}:8000-8999 "
    "udp } }",
    /* address space edges */
    "policy \"p\" { net filtered { allow 255.255.255.255:65535 0.0.0.0:0 "
    "128.0.0.0/1:1-65534 0.0.0.0/1\n"
    "deny 255.255.255.254/31:65535 127.255.255.255:0 } }",
    /* the fuzz corpus policy */
    "policy \"net-filtered\" {\n  net filtered {\n"
    "    allow api.example.com:443 pypi.org files.pythonhosted.org:443\n"
    "    allow 192.0.2.0/24:8000-8100 tcp udp\n"
    "    allow [2001:db8::1]:443\n    allow 2001:db8::/32\n"
    "    allow ${PROXY}:3128\n    allow 198.51.100.7:*\n"
    "    deny 192.0.2.128/25:8050-8060\n"
    "    deny 2001:db8:0:1::/64 udp\n    loopback 5432 6379-6380\n"
    "  }\n}",
};

#define NPOL (sizeof(policies) / sizeof(*policies))

/* ---- decoding the section ---------------------------------------------- */

struct set_elems {
	char name[32];
	size_t klen, n;
	uint8_t (*key)[24], (*end)[24];
};

struct decoded {
	struct set_elems s[4]; /* allow4, allow6, deny4, deny6 */
	size_t nmsg, nrule, nset, nrt;
};

static const char *const set_names[] = {"allow4", "allow6", "deny4", "deny6"};

static void elem_push(struct set_elems *s, const void *k, const void *x)
{
	s->key = realloc(s->key, (s->n + 1) * sizeof(*s->key));
	s->end = realloc(s->end, (s->n + 1) * sizeof(*s->end));
	assert_non_null(s->key);
	assert_non_null(s->end);
	memcpy(s->key[s->n], k, s->klen);
	memcpy(s->end[s->n], x, s->klen);
	s->n++;
}

/* The value of NFTA_SET_ELEM_KEY or _KEY_END: a nest with NFTA_DATA_VALUE */
static const void *elem_data(const struct nlattr *nest, size_t klen)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
	{
		if (mnl_attr_get_type(a) == NFTA_DATA_VALUE) {
			assert_int_equal(mnl_attr_get_payload_len(a), klen);
			return mnl_attr_get_payload(a);
		}
	}
	fail_msg("element without a value");
	return NULL;
}

/*
 * A NEWSETELEM message's elements. libnftnl builds the element list with
 * nest types 1, 2, 3... and its own parser wants NFTA_LIST_ELEM on each, so
 * the list is walked with libmnl (the kernel ignores the nest type).
 */
static const char *elems_of(const struct nlmsghdr *nlh, struct set_elems *all)
{
	const struct nlattr *a, *list = NULL, *e;
	const char *name = NULL;
	struct set_elems *s = NULL;
	size_t i;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg))
	{
		if (mnl_attr_get_type(a) == NFTA_SET_ELEM_LIST_SET)
			name = mnl_attr_get_str(a);
		if (mnl_attr_get_type(a) == NFTA_SET_ELEM_LIST_ELEMENTS)
			list = a;
	}
	assert_non_null(name);
	assert_non_null(list);
	for (i = 0; i < 4; i++)
		if (!strcmp(name, set_names[i]))
			s = &all[i];
	assert_non_null(s);
	mnl_attr_for_each_nested(e, list)
	{
		const void *k = NULL, *x = NULL;
		uint32_t flags = 0;

		mnl_attr_for_each_nested(a, e)
		{
			switch (mnl_attr_get_type(a)) {
			case NFTA_SET_ELEM_KEY:
				k = elem_data(a, s->klen);
				break;
			case NFTA_SET_ELEM_KEY_END:
				x = elem_data(a, s->klen);
				break;
			case NFTA_SET_ELEM_FLAGS:
				flags = mnl_attr_get_u32(a);
				break;
			default:
				fail_msg("unexpected element attribute %u",
					 mnl_attr_get_type(a));
			}
		}
		assert_non_null(k);
		assert_non_null(x);
		assert_int_equal(flags, 0);
		elem_push(s, k, x);
	}
	return name;
}

static void decode(const uint8_t *d, size_t len, struct decoded *out)
{
	size_t off = 0, i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < 4; i++) {
		snprintf(out->s[i].name, sizeof(out->s[i].name), "%s",
			 set_names[i]);
		out->s[i].klen =
		    i % 2 ? POLBIN_NFT_KEY6_LEN : POLBIN_NFT_KEY4_LEN;
	}
	while (off < len) {
		const struct nlmsghdr *nlh = (const void *)(d + off);
		const struct nfgenmsg *g = NLMSG_DATA(nlh);
		uint16_t type = nlh->nlmsg_type & 0xff;
		uint16_t flags = NLM_F_REQUEST | NLM_F_CREATE;

		assert_true(len - off >= NLMSG_HDRLEN + sizeof(*g));
		assert_true(nlh->nlmsg_len <= len - off);
		assert_int_equal(nlh->nlmsg_type >> 8, NFNL_SUBSYS_NFTABLES);
		assert_int_equal(nlh->nlmsg_seq, 0);
		assert_int_equal(nlh->nlmsg_pid, 0);
		assert_int_equal(g->nfgen_family, NFPROTO_INET);
		if (type == NFT_MSG_NEWRULE) {
			flags |= NLM_F_APPEND;
			out->nrule++;
		}
		assert_int_equal(nlh->nlmsg_flags, flags);
		assert_true(
		    type == NFT_MSG_NEWTABLE || type == NFT_MSG_NEWCHAIN ||
		    type == NFT_MSG_NEWSET || type == NFT_MSG_NEWSETELEM ||
		    type == NFT_MSG_NEWRULE);
		if (type == NFT_MSG_NEWSET) {
			struct nftnl_set *s = nftnl_set_alloc();

			assert_int_equal(nftnl_set_nlmsg_parse(nlh, s), 0);
			out->nset++;
			out->nrt += !strncmp(
			    nftnl_set_get_str(s, NFTNL_SET_NAME), "rt", 2);
			nftnl_set_free(s);
		}
		if (type == NFT_MSG_NEWSETELEM)
			elems_of(nlh, out->s);
		if (type == NFT_MSG_NEWRULE) {
			struct nftnl_rule *r = nftnl_rule_alloc();

			assert_int_equal(nftnl_rule_nlmsg_parse(nlh, r), 0);
			assert_string_equal(
			    nftnl_rule_get_str(r, NFTNL_RULE_TABLE), "polc");
			nftnl_rule_free(r);
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		out->nmsg++;
	}
	assert_int_equal(off, len);
}

static void decoded_free(struct decoded *x)
{
	size_t i;

	for (i = 0; i < 4; i++) {
		free(x->s[i].key);
		free(x->s[i].end);
	}
}

/* ---- the oracle -------------------------------------------------------- */

static int cover(const uint8_t *net, unsigned prefix, const uint8_t *a)
{
	unsigned i;

	for (i = 0; i < prefix; i++)
		if ((net[i / 8] ^ a[i / 8]) & (0x80u >> (i % 8)))
			return 0;
	return 1;
}

/* What the IR says of a destination, static entries only. */
static int ir_allows(const struct ir_policy *p, int family, const uint8_t *a,
		     uint8_t proto, uint16_t port)
{
	int allow = 0;
	uint32_t i;

	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];

		if (e->kind != (family == 4 ? IR_ADDR_V4 : IR_ADDR_V6) ||
		    e->proto != proto || port < e->port_lo ||
		    port > e->port_hi || !cover(e->addr, e->prefix, a))
			continue;
		if (e->verdict == IR_NET_DENY)
			return 0;
		allow = 1;
	}
	return allow;
}

static void key_of(uint8_t *k, int family, const uint8_t *a, uint8_t proto,
		   uint16_t port)
{
	size_t al = family == 4 ? 4 : 16;

	memset(k, 0, 24);
	memcpy(k, a, al);
	k[al] = proto;
	k[al + 4] = (uint8_t)(port >> 8);
	k[al + 5] = (uint8_t)port;
}

/* Per-field range match, as the pipapo set matches a concatenation. */
static int field_in(const uint8_t *lo, const uint8_t *hi, const uint8_t *k,
		    size_t n)
{
	return memcmp(lo, k, n) <= 0 && memcmp(k, hi, n) <= 0;
}

static int elem_has(const uint8_t *lo, const uint8_t *hi, const uint8_t *k,
		    int family)
{
	size_t al = family == 4 ? 4 : 16;

	return field_in(lo, hi, k, al) &&
	       field_in(lo + al, hi + al, k + al, 4) &&
	       field_in(lo + al + 4, hi + al + 4, k + al + 4, 4);
}

static int set_has(const struct set_elems *s, const uint8_t *k, int family)
{
	size_t i, hits = 0;

	for (i = 0; i < s->n; i++)
		hits += elem_has(s->key[i], s->end[i], k, family);
	assert_true(hits <= 1); /* disjoint at this point, too */
	return hits == 1;
}

static int fields_overlap(const uint8_t *alo, const uint8_t *ahi,
			  const uint8_t *blo, const uint8_t *bhi, size_t n)
{
	return memcmp(alo, bhi, n) <= 0 && memcmp(blo, ahi, n) <= 0;
}

static void check_disjoint(const struct set_elems *s, int family)
{
	size_t al = family == 4 ? 4 : 16, i, j;

	for (i = 0; i < s->n; i++) {
		const uint8_t *lo = s->key[i], *hi = s->end[i];

		/* well formed: lo <= hi per field, one protocol, padding 0 */
		assert_true(memcmp(lo, hi, al) <= 0);
		assert_memory_equal(lo + al, hi + al, 4);
		assert_true(lo[al] == 6 || lo[al] == 17);
		assert_true(!lo[al + 1] && !lo[al + 2] && !lo[al + 3] &&
			    !lo[al + 6] && !lo[al + 7] && !hi[al + 6] &&
			    !hi[al + 7]);
		assert_true(memcmp(lo + al + 4, hi + al + 4, 2) <= 0);
		for (j = i + 1; j < s->n; j++)
			assert_false(
			    fields_overlap(lo, hi, s->key[j], s->end[j], al) &&
			    lo[al] == s->key[j][al] &&
			    fields_overlap(lo + al + 4, hi + al + 4,
					   s->key[j] + al + 4,
					   s->end[j] + al + 4, 2));
	}
}

static void addr_add(uint8_t *a, size_t n, int delta)
{
	int i = (int)n - 1;

	if (delta > 0)
		while (i >= 0 && ++a[i] == 0)
			i--;
	else
		while (i >= 0 && a[i]-- == 0)
			i--;
}

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static size_t check_points(const struct ir_policy *p, const struct decoded *x,
			   int family)
{
	static const uint8_t protos[] = {6, 17, 1};
	size_t al = family == 4 ? 4 : 16, naddr = 0, nport = 0, i, j, k,
	       pts = 0;
	const struct set_elems *allow = &x->s[family == 4 ? 0 : 1];
	const struct set_elems *deny = &x->s[family == 4 ? 2 : 3];
	uint8_t(*addrs)[16];
	uint32_t ports[1024];

	addrs = calloc(8 * p->net.nentries + 64, sizeof(*addrs));
	assert_non_null(addrs);
	ports[nport++] = 0;
	ports[nport++] = 1;
	ports[nport++] = 65534;
	ports[nport++] = 65535;
	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];
		unsigned bits = family == 4 ? 32 : 128, b;
		uint8_t hi[16];

		if (e->kind != (family == 4 ? IR_ADDR_V4 : IR_ADDR_V6))
			continue;
		memcpy(hi, e->addr, 16);
		for (b = e->prefix; b < bits; b++)
			hi[b / 8] |= (uint8_t)(0x80u >> (b % 8));
		memcpy(addrs[naddr++], e->addr, 16);
		memcpy(addrs[naddr], e->addr, 16);
		addr_add(addrs[naddr++], al, -1);
		memcpy(addrs[naddr++], hi, 16);
		memcpy(addrs[naddr], hi, 16);
		addr_add(addrs[naddr++], al, 1);
		memcpy(addrs[naddr], e->addr, 16); /* one inside */
		for (b = e->prefix; b < bits; b++)
			if (rnd() & 1)
				addrs[naddr][b / 8] |=
				    (uint8_t)(0x80u >> (b % 8));
		naddr++;
		if (nport + 4 <= sizeof(ports) / sizeof(*ports)) {
			ports[nport++] = e->port_lo;
			ports[nport++] = e->port_lo - 1u;
			ports[nport++] = e->port_hi;
			ports[nport++] = e->port_hi + 1u;
		}
	}
	for (i = 0; i < 32; i++, naddr++)
		for (j = 0; j < al; j++)
			addrs[naddr][j] = (uint8_t)rnd();
	for (i = 0; i < 16 && nport < sizeof(ports) / sizeof(*ports); i++)
		ports[nport++] = rnd() & 0xffff;
	qsort(ports, nport, sizeof(*ports), u32_cmp);
	for (i = 1, k = 1; i < nport; i++)
		if (ports[i] != ports[k - 1])
			ports[k++] = ports[i];
	nport = k;
	for (i = 0; i < naddr; i++)
		for (j = 0; j < sizeof(protos); j++)
			for (k = 0; k < nport; k++) {
				uint8_t key[24];
				uint16_t port = (uint16_t)ports[k];
				int want, got;

				if (ports[k] > 65535)
					continue;
				key_of(key, family, addrs[i], protos[j], port);
				want = ir_allows(p, family, addrs[i], protos[j],
						 port);
				got = set_has(allow, key, family) &&
				      !set_has(deny, key, family);
				if (want != got) {
					char a[64] = "";
					size_t m;

					for (m = 0; m < al; m++)
						snprintf(a + strlen(a),
							 sizeof(a) - strlen(a),
							 "%02x", addrs[i][m]);
					fail_msg("v%d %s proto %u port %u: IR "
						 "%d, sets %d",
						 family, a, protos[j], port,
						 want, got);
				}
				pts++;
			}
	free(addrs);
	return pts;
}

static size_t check_policy(const struct ir_policy *p)
{
	uint8_t *d = NULL, *d2 = NULL;
	size_t len = 0, len2 = 0, pts;
	struct decoded x;
	char err[256];

	if (nft_section_build(p, &d, &len, err, sizeof(err)))
		fail_msg("nft_section_build: %s", err);
	assert_int_equal(nft_section_build(p, &d2, &len2, err, sizeof(err)), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(d, d2, len);
	decode(d, len, &x);
	assert_int_equal(x.nrt, 2 * nft_runtime_count(p));
	assert_int_equal(x.nset, 8 + x.nrt);
	/* 12 + 2 per runtime entry in output (2 of them the loopback's
	 * refusals); in blocked 4 evidence rules, 2 rejects, the drop; in
	 * input lo, UDP replies, other UDP */
	assert_int_equal(x.nrule, 22 + x.nrt);
	check_disjoint(&x.s[0], 4);
	check_disjoint(&x.s[1], 6);
	check_disjoint(&x.s[2], 4);
	check_disjoint(&x.s[3], 6);
	pts = check_points(p, &x, 4) + check_points(p, &x, 6);
	decoded_free(&x);
	free(d);
	free(d2);
	return pts;
}

/*
 * net filtered with n static tcp/udp entries on neighbouring /32s, ports
 * alternating so that no neighbours merge: n elements in allow4.
 */
static struct ir_policy *many_elements(uint32_t n)
{
	struct ir_policy *p =
	    compile("policy \"p\" { net filtered { allow 10.0.0.0/8 } }");
	struct ir_net_entry *e;
	uint32_t i;

	free(p->net.entries[0].name);
	e = realloc(p->net.entries, n * sizeof(*e));
	assert_non_null(e);
	p->net.entries = e;
	for (i = 0; i < n; i++) {
		uint32_t a = i / 2;

		memset(&e[i], 0, sizeof(e[i]));
		e[i].verdict = IR_NET_ALLOW;
		e[i].kind = IR_ADDR_V4;
		e[i].prefix = 32;
		e[i].proto = i % 2 ? IR_PROTO_UDP : IR_PROTO_TCP;
		e[i].addr[0] = 20;
		e[i].addr[2] = (uint8_t)(a >> 8);
		e[i].addr[3] = (uint8_t)a;
		e[i].port_lo = e[i].port_hi = (uint16_t)(80 + a % 2);
	}
	p->net.nentries = n;
	return p;
}

static void test_sets_match_ir(void **state)
{
	struct ir_policy *p;
	size_t i, pts = 0;

	(void)state;
	for (i = 0; i < NPOL; i++) {
		p = compile(policies[i]);
		pts += check_policy(p);
		ir_policy_destroy(&p);
	}
	p = many_elements(700);
	pts += check_policy(p);
	ir_policy_destroy(&p);
	print_message("%zu policies, %zu points\n", NPOL + 1, pts);
}

/* Random policies from a small pool of prefixes, so that boxes overlap. */
static void test_sets_match_ir_random(void **state)
{
	static const char *const pool4[] = {
	    "10.0.0.0/8",    "10.1.0.0/16",	"10.1.2.0/24", "10.1.2.3",
	    "10.1.2.128/25", "10.128.0.0/9",	"0.0.0.0/0",   "0.0.0.0/1",
	    "255.0.0.0/8",   "255.255.255.255", "10.1.2.4/30", "11.0.0.0/8",
	    "10.255.0.0/16", "192.168.0.0/16",
	};
	static const char *const pool6[] = {
	    "[2001:db8::/32]",
	    "[2001:db8::1]",
	    "[2001:db8:0:1::/64]",
	    "[::/0]",
	    "[8000::/1]",
	    "[2001:db8:8000::/33]",
	    "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]",
	};
	static const char *const ports[] = {
	    "",	  ":80", ":80-443", ":443",    ":0-1023", ":1024-65535",
	    ":*", ":0",	 ":65535",  ":400-500"};
	size_t it, pts = 0, total_elems = 0, ncompiled = 0;

	(void)state;
	for (it = 0; it < 300; it++) {
		char text[4096], entry[128];
		size_t n = 1 + rnd() % 12, i;
		struct ir_policy *p;

		snprintf(text, sizeof(text), "policy \"r\" { net filtered {\n");
		for (i = 0; i < n; i++) {
			int v6 = rnd() % 3 == 0;
			const char *a =
			    v6 ? pool6[rnd() % 7] : pool4[rnd() % 14];
			const char *pt = ports[rnd() % 10];
			const char *verb =
			    i && rnd() % 3 == 0 ? "deny" : "allow";
			const char *pr[] = {"", " udp", " tcp udp"};

			/* a bare [v6] needs a port or none: "[::/0]" alone is
			 * not a spelling, so drop the brackets then */
			char abuf[64];

			if (v6 && !pt[0]) {
				snprintf(abuf, sizeof(abuf), "%.*s",
					 (int)strlen(a) - 2, a + 1);
				a = abuf;
			}
			snprintf(entry, sizeof(entry), "%s %s%s%s\n", verb, a,
				 pt, pr[rnd() % 3]);
			strncat(text, entry, sizeof(text) - strlen(text) - 1);
		}
		strncat(text, "allow 203.0.113.1:1\n} }",
			sizeof(text) - strlen(text) - 1);
		{
			struct diag d;

			p = NULL;
			diag_init(&d);
			if (sema_compile_text(&d, "r.pol", text, strlen(text),
					      NULL, &p)) {
				/* duplicates: a policy error, try another */
				diag_fini(&d);
				continue;
			}
			diag_fini(&d);
		}
		{
			struct nft_elem *v;
			size_t nv, f;
			char err[128];

			for (f = 0; f < 2; f++) {
				assert_int_equal(
				    nft_elements(p, IR_NET_ALLOW, f ? 6 : 4, &v,
						 &nv, err, sizeof(err)),
				    0);
				total_elems += nv;
				free(v);
			}
		}
		pts += check_policy(p);
		ncompiled++;
		ir_policy_destroy(&p);
	}
	/* most compile; a duplicate entry is a policy error and skipped */
	assert_true(ncompiled > 200);
	print_message("%zu random policies: %zu points, %zu allow elements\n",
		      ncompiled, pts, total_elems);
}

/* The element cap is an error with a reason, not a huge section. */
static void test_element_cap(void **state)
{
	struct ir_policy *p = many_elements(18000);
	uint8_t *d = NULL;
	size_t len = 0;
	char err[256] = "";

	(void)state;
	assert_int_equal(nft_section_build(p, &d, &len, err, sizeof(err)), -1);
	assert_null(d);
	assert_non_null(strstr(err, "disjoint"));
	print_message("refused: %s\n", err);
	ir_policy_destroy(&p);
}

/* ---- the NET section --------------------------------------------------- */

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void test_net_section(void **state)
{
	struct ir_policy *p;
	uint8_t *d;
	size_t len;
	char err[256];

	(void)state;
	p = compile("policy \"p\" { net none }");
	assert_int_equal(net_section_build(p, &d, &len, err, sizeof(err)), 0);
	assert_int_equal(len, POLBIN_NET_HEADER_LEN);
	assert_int_equal(le32(d), POLBIN_NET_VERSION);
	assert_int_equal(le32(d + 4), POLBIN_NET_NONE);
	assert_int_equal(
	    le32(d + 8) | le32(d + 12) | le32(d + 16) | le32(d + 20), 0);
	free(d);
	ir_policy_destroy(&p);

	p = compile("policy \"p\" { net host }");
	assert_int_equal(net_section_build(p, &d, &len, err, sizeof(err)), 0);
	assert_null(d);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { fs { ro /usr } }");
	assert_int_equal(net_section_build(p, &d, &len, err, sizeof(err)), 0);
	assert_null(d);
	ir_policy_destroy(&p);

	/* loopback merged, sorted, port 0 dropped */
	p = compile("policy \"p\" { net none { loopback 9000 6380 6379 "
		    "6381-6390 0-2 5000-5010 5005-5020 } }");
	assert_int_equal(net_section_build(p, &d, &len, err, sizeof(err)), 0);
	assert_int_equal(len, POLBIN_NET_HEADER_LEN + 4 * 4);
	assert_int_equal(le32(d + 4), POLBIN_NET_NONE);
	assert_int_equal(le32(d + 8), 4);
	assert_int_equal(le32(d + 12), 0);
	assert_int_equal(le16(d + 24), 1);
	assert_int_equal(le16(d + 26), 2);
	assert_int_equal(le16(d + 28), 5000);
	assert_int_equal(le16(d + 30), 5020);
	assert_int_equal(le16(d + 32), 6379);
	assert_int_equal(le16(d + 34), 6390);
	assert_int_equal(le16(d + 36), 9000);
	assert_int_equal(le16(d + 38), 9000);
	free(d);
	ir_policy_destroy(&p);

	/* runtime entries in IR order, padded */
	p = compile(policies[3]);
	assert_int_equal(net_section_build(p, &d, &len, err, sizeof(err)), 0);
	assert_int_equal(le32(d + 4), POLBIN_NET_FILTERED);
	assert_int_equal(le32(d + 12), 4);
	{
		size_t off = POLBIN_NET_HEADER_LEN + 4 * 2, i;

		assert_int_equal(le32(d + 8), 2);
		for (i = 0; i < 4; i++) {
			const struct ir_net_entry *e = nft_runtime_entry(p, i);
			uint16_t nl = le16(d + off + 6);

			assert_int_equal(d[off], e->kind == IR_ADDR_NAME
						     ? POLBIN_NET_RT_NAME
						     : POLBIN_NET_RT_VAR);
			assert_int_equal(d[off + 1], e->proto);
			assert_int_equal(le16(d + off + 2), e->port_lo);
			assert_int_equal(le16(d + off + 4), e->port_hi);
			assert_int_equal(nl, strlen(e->name));
			assert_memory_equal(d + off + 8, e->name, nl);
			off += 8 + nl;
			while (off % 4)
				assert_int_equal(d[off++], 0);
		}
		assert_int_equal(off, len);
	}
	free(d);
	ir_policy_destroy(&p);
}

/* ---- the kernel -------------------------------------------------------- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* In a child: a user namespace (the caller as root in it) and a network
 * namespace of its own. Returns 0 or an errno. */
static int enter_namespaces(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		return errno;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if (write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", map))
		return errno ? errno : EIO;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if (write_file("/proc/self/gid_map", map))
		return errno ? errno : EIO;
	return 0;
}

/*
 * The section's messages in one batch, NLM_F_ACK and a sequence number on
 * each, as polexec sends them. Returns 0 when every message was acked with
 * 0, else the first error (negative errno, or -ETIMEDOUT for missing acks)
 * with the message's index in *bad.
 */
static int send_batch(const uint8_t *d, size_t len, size_t *bad)
{
	struct timeval tv = {5, 0};
	struct mnl_socket *nl;
	size_t off = 0, in = 0, nmsg = 0, acks = 0;
	uint32_t seq = 1, portid;
	int sz = 8 << 20, rc = 0;
	char *buf, rbuf[65536];
	struct nlmsghdr *h;

	*bad = (size_t)-1;
	nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	portid = mnl_socket_get_portid(nl);
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_SNDBUF, &sz,
		   sizeof(sz));
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &sz,
		   sizeof(sz));
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	buf = malloc(len + 2 * NLMSG_ALIGN(sizeof(struct nlmsghdr) + 16));
	assert_non_null(buf);
	h = nftnl_batch_begin(buf, seq++);
	off = NLMSG_ALIGN(h->nlmsg_len);
	while (in < len) {
		h = (struct nlmsghdr *)(buf + off);
		memcpy(h, d + in,
		       NLMSG_ALIGN(
			   ((const struct nlmsghdr *)(const void *)(d + in))
			       ->nlmsg_len));
		h->nlmsg_seq = seq++;
		h->nlmsg_flags |= NLM_F_ACK;
		in += NLMSG_ALIGN(h->nlmsg_len);
		off += NLMSG_ALIGN(h->nlmsg_len);
		nmsg++;
	}
	h = nftnl_batch_end(buf + off, seq++);
	off += NLMSG_ALIGN(h->nlmsg_len);
	if (mnl_socket_sendto(nl, buf, off) < 0) {
		rc = -errno;
		goto out;
	}
	while (acks < nmsg && !rc) {
		ssize_t n = mnl_socket_recvfrom(nl, rbuf, sizeof(rbuf));
		const struct nlmsghdr *r = (const void *)rbuf;
		int left = (int)n;

		if (n < 0) {
			rc = errno == EAGAIN ? -ETIMEDOUT : -errno;
			break;
		}
		for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left)) {
			const struct nlmsgerr *e;

			if (r->nlmsg_type != NLMSG_ERROR ||
			    r->nlmsg_pid != portid)
				continue;
			e = mnl_nlmsg_get_payload(r);
			if (e->error) {
				rc = e->error;
				*bad = r->nlmsg_seq - 2; /* seq 1: begin */
				break;
			}
			acks++;
		}
	}
out:
	free(buf);
	mnl_socket_close(nl);
	return rc;
}

static const char *nft_bin(void)
{
	return access("/usr/sbin/nft", X_OK) == 0 ? "/usr/sbin/nft" : "nft";
}

/* What `nft list` says of the table, and how nft reads it back from the
 * kernel as expressions. */
static void list_table(FILE *out)
{
	char cmd[256], line[4096];
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "%s list table inet polc 2>&1; %s --debug=netlink list table "
		 "inet polc 2>&1",
		 nft_bin(), nft_bin());
	f = popen(cmd, "r");
	if (!f) {
		fprintf(out, "popen failed\n");
		return;
	}
	while (fgets(line, sizeof(line), f))
		fputs(line, out);
	pclose(f);
}

#define SKIP_USERNS 77

/*
 * Forks a child in namespaces of its own that loads the table, either the
 * section's messages (text NULL) or nft_print's text with `nft -f`, and
 * returns what it lists (malloc'd), or NULL with *status the child's exit
 * status (SKIP_USERNS: no user namespaces).
 */
static char *load_in_child(const uint8_t *d, size_t len, const char *file,
			   const uint8_t *extra, size_t extralen, int *status)
{
	int fds[2];
	char *text = NULL;
	size_t n = 0, cap = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *out;
		size_t bad;
		int rc;

		close(fds[0]);
		rc = enter_namespaces();
		if (rc) {
			fprintf(stderr, "user namespace: %s\n", strerror(rc));
			_exit(SKIP_USERNS);
		}
		out = fdopen(fds[1], "w");
		if (!out)
			_exit(1);
		if (file) {
			char cmd[512];

			snprintf(cmd, sizeof(cmd), "%s -f %s", nft_bin(), file);
			if (system(cmd) != 0) {
				fprintf(stderr, "nft -f %s failed\n", file);
				_exit(2);
			}
		} else {
			rc = send_batch(d, len, &bad);
			if (rc) {
				fprintf(stderr, "batch: message %zu: %s\n", bad,
					strerror(-rc));
				_exit(3);
			}
		}
		if (extra) {
			/* must be refused: the caller's negative check */
			rc = send_batch(extra, extralen, &bad);
			fprintf(out, "extra batch: %s\n",
				rc ? strerror(-rc) : "accepted");
		}
		list_table(out);
		fclose(out);
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r;

		if (n + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			text = realloc(text, cap);
			assert_non_null(text);
		}
		r = read(fds[0], text + n, cap - n - 1);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	text[n] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
		free(text);
		*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : 255;
		return NULL;
	}
	*status = 0;
	return text;
}

/*
 * A NEWSETELEM for allow4 whose two elements overlap, the second's start
 * inside the first: pipapo refuses that (EEXIST). It only looks up the new
 * element's start and end keys, so an overlap without an end point inside
 * the other element is accepted silently: the backend's elements must be
 * disjoint by construction, which test_sets_match_ir checks.
 */
static size_t overlapping_elems(uint8_t *buf, size_t cap)
{
	static const uint8_t a[][2][12] = {
	    {{10, 0, 0, 0, 6, 0, 0, 0, 0, 80, 0, 0},
	     {10, 0, 0, 255, 6, 0, 0, 0, 0, 90, 0, 0}},
	    {{10, 0, 0, 5, 6, 0, 0, 0, 0, 85, 0, 0},
	     {10, 0, 0, 5, 6, 0, 0, 0, 0, 100, 0, 0}},
	};
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	size_t i;

	assert_true(cap >= 4096);
	memset(buf, 0, cap);
	nftnl_set_set_str(s, NFTNL_SET_TABLE, "polc");
	nftnl_set_set_str(s, NFTNL_SET_NAME, "allow4");
	for (i = 0; i < 2; i++) {
		struct nftnl_set_elem *e = nftnl_set_elem_alloc();

		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, a[i][0], 12);
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, a[i][1], 12);
		nftnl_set_elem_add(s, e);
	}
	nlh = nftnl_nlmsg_build_hdr((char *)buf, NFT_MSG_NEWSETELEM,
				    NFPROTO_INET, NLM_F_CREATE, 0);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
	return NLMSG_ALIGN(nlh->nlmsg_len);
}

static void test_kernel_accepts(void **state)
{
	char path[] = "/tmp/polc-nft-XXXXXX";
	uint8_t extra[4096];
	size_t i, nextra, k, nlines = 0;
	int fd;

	(void)state;
	nextra = overlapping_elems(extra, sizeof(extra));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	for (i = 0; i <= NPOL; i++) {
		struct ir_policy *p =
		    i < NPOL ? compile(policies[i]) : many_elements(700);
		char *a, *b, err[256];
		uint8_t *d;
		size_t len;
		FILE *f;
		int st;

		assert_int_equal(
		    nft_section_build(p, &d, &len, err, sizeof(err)), 0);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(nft_print(p, f, err, sizeof(err)), 0);
		assert_int_equal(fclose(f), 0);
		a = load_in_child(d, len, NULL, extra, nextra, &st);
		if (!a && st == SKIP_USERNS) {
			free(d);
			ir_policy_destroy(&p);
			unlink(path);
			print_message(
			    "SKIPPED: user namespaces are unavailable "
			    "(unshare(CLONE_NEWUSER|CLONE_NEWNET) "
			    "failed)\n");
			skip();
		}
		if (!a)
			fail_msg("policy %zu: the kernel refused the section "
				 "(child status %d)",
				 i, st);
		b = load_in_child(NULL, 0, path, extra, nextra, &st);
		if (!b) {
			fprintf(stderr, "policy %zu: nft -f failed on:\n", i);
			f = fopen(path, "r");
			while (f && (st = fgetc(f)) != EOF)
				fputc(st, stderr);
			if (f)
				fclose(f);
			fail_msg("nft_print's text was refused");
		}
		if (!strstr(a, "table inet polc") ||
		    !strstr(a, "extra batch: ") ||
		    strstr(a, "extra batch: accepted") || strcmp(a, b)) {
			fprintf(stderr,
				"policy %zu:\n--- from the section:\n%s\n--- "
				"from nft -f:\n%s\n",
				i, a, b);
			fail_msg("the kernel lists the two tables differently, "
				 "or accepted overlapping elements");
		}
		for (k = 0; a[k]; k++)
			nlines += a[k] == '\n';
		free(a);
		free(b);
		free(d);
		ir_policy_destroy(&p);
	}
	unlink(path);
	print_message("%zu policies (the last %d elements in allow4, "
		      "several NEWSETELEM messages): the kernel acked every "
		      "message, refused "
		      "the overlapping elements, and listed each table as nft "
		      "-f loaded it (%zu lines compared)\n",
		      NPOL + 1, 700, nlines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_net_section),
	    cmocka_unit_test(test_sets_match_ir),
	    cmocka_unit_test(test_sets_match_ir_random),
	    cmocka_unit_test(test_element_cap),
	    cmocka_unit_test(test_kernel_accepts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
