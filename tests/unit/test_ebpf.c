/* SPDX-License-Identifier: MIT */
/*
 * The cgroup eBPF egress backend (compiler/backend/ebpf.c,
 * bpf/egress/egress.bpf.c):
 *   - the EBPF section's translation validation accepts what polc builds
 *     and refuses it changed: a port, a prefix, a rule gone, the forced
 *     flag;
 *   - the programs' fixed logic against an independent model of the
 *     policy: the egress and ingress programs, loaded by libbpf with the
 *     section's rules in their map, run (BPF_PROG_TEST_RUN) on IPv4 and
 *     IPv6 TCP, UDP and ICMP packets to every boundary address and port of
 *     the policy and to loopback addresses, each verdict compared with
 *     what the IR says; IPv4 options and an IPv6 extension header are
 *     dropped even to an allowed destination. Needs CAP_BPF (root):
 *     skipped, saying so, without it.
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

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern unsigned char polc_egress_obj[];
extern unsigned int polc_egress_obj_len;

#define RULE_LEN (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN)

static const char policy_text[] =
    "policy \"e\" {\n"
    "  net filtered {\n"
    "    allow 10.0.0.0/8:443\n"
    "    allow 10.1.0.0/16:80-90 10.1.0.0/16:8080\n"
    "    deny 10.1.2.0/24\n"
    "    allow 192.0.2.7:53 udp\n"
    "    allow 2001:db8::/32\n"
    "    deny 2001:db8:0:1::/64\n"
    "    allow [2001:db8:0:1::5]:443\n"
    "    allow 0.0.0.0/0:22\n"
    "    loopback 8080 9000-9010\n"
    "  }\n"
    "}\n";

static uint8_t *build(struct ir_policy *p, size_t *len)
{
	uint8_t *s = NULL;
	char err[256];

	assert_int_equal(ebpf_section_build(p, &s, len, err, sizeof(err)), 0);
	assert_non_null(s);
	return s;
}

/* Where the rules start in the section. */
static size_t rules_at(const uint8_t *s)
{
	size_t off = 16;
	uint32_t h, n;

	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		memcpy(&n, s + off + 4, 4);
		off += 8 + (size_t)n * 8;
	}
	return off;
}

static void test_validation(void **state)
{
	struct ir_policy *p = compile(policy_text);
	size_t len, at, i;
	uint32_t nrules;
	uint8_t *s = build(p, &len), *m;
	char err[256];

	(void)state;
	assert_int_equal(ebpf_validate(p, s, len, err, sizeof(err)), 0);
	at = rules_at(s);
	memcpy(&nrules, s + 12, 4);
	assert_true(nrules > 3);
	m = malloc(len);
	assert_non_null(m);
	/* each rule's first port changed by one: a mismatch */
	for (i = 0; i < nrules; i++) {
		uint8_t *lo = m + at + i * RULE_LEN + POLBIN_EBPF_KEY_LEN + 4;

		memcpy(m, s, len);
		lo[0] ^= 1;
		assert_int_not_equal(ebpf_validate(p, m, len, err, sizeof(err)),
				     0);
	}
	/* a rule's prefix one longer, with its host bits still clear */
	for (i = 0; i < nrules; i++) {
		uint8_t *k = m + at + i * RULE_LEN;

		memcpy(m, s, len);
		if (k[4] == POLBIN_EBPF_K_LOOP)
			continue;
		k[0]++;
		assert_int_not_equal(ebpf_validate(p, m, len, err, sizeof(err)),
				     0);
	}
	/* the last rule gone */
	memcpy(m, s, len);
	nrules--;
	memcpy(m + 12, &nrules, 4);
	assert_int_not_equal(
	    ebpf_validate(p, m, len - RULE_LEN, err, sizeof(err)), 0);
	/* the forced flag set without the policy saying so */
	memcpy(m, s, len);
	m[4] |= POLBIN_EBPF_F_FORCED;
	assert_int_not_equal(ebpf_validate(p, m, len, err, sizeof(err)), 0);
	/* the list's fallback flag, without the policy's list */
	memcpy(m, s, len);
	m[4] |= POLBIN_EBPF_F_FALLBACK;
	assert_int_not_equal(ebpf_validate(p, m, len, err, sizeof(err)), 0);
	free(m);
	free(s);
	ir_policy_destroy(&p);
}

/* `backend cgroup namespace`: the section says FALLBACK (never FORCED),
 * validated; without the flag, or forced, a mismatch. */
static void test_list_flag(void **state)
{
	struct ir_policy *p =
	    compile("policy \"l\" {\n"
		    "  net filtered backend cgroup namespace {\n"
		    "    allow 10.0.0.0/8:443\n"
		    "  }\n"
		    "}\n");
	size_t len;
	uint8_t *s = build(p, &len);
	uint32_t flags;
	char err[256];

	(void)state;
	memcpy(&flags, s + 4, 4);
	assert_int_equal(flags, POLBIN_EBPF_F_FALLBACK);
	assert_int_equal(ebpf_validate(p, s, len, err, sizeof(err)), 0);
	s[4] = 0;
	assert_int_not_equal(ebpf_validate(p, s, len, err, sizeof(err)), 0);
	s[4] = POLBIN_EBPF_F_FORCED;
	assert_int_not_equal(ebpf_validate(p, s, len, err, sizeof(err)), 0);
	free(s);
	ir_policy_destroy(&p);
}

/* ---- the model ---------------------------------------------------------- */

static int covers(const struct ir_net_entry *e, int v6, const uint8_t *a)
{
	int bits = e->prefix, i;

	if (e->kind != (v6 ? IR_ADDR_V6 : IR_ADDR_V4))
		return 0;
	for (i = 0; i < bits; i++)
		if ((a[i / 8] ^ e->addr[i / 8]) & (0x80 >> (i % 8)))
			return 0;
	return 1;
}

static int loop_addr(int v6, const uint8_t *a)
{
	static const uint8_t zero[16], one[16] = {[15] = 1};

	if (!v6)
		return a[0] == 127 || !memcmp(a, zero, 4);
	return !memcmp(a, zero, 16) || !memcmp(a, one, 16);
}

/* What the policy says of (family, proto, addr, port), read off the IR. */
static int model(const struct ir_policy *p, int v6, uint8_t proto,
		 const uint8_t *a, uint16_t port)
{
	int allow = 0;
	uint32_t i;

	if (proto != IR_PROTO_TCP && proto != IR_PROTO_UDP)
		return 0;
	if (loop_addr(v6, a)) {
		if (proto != IR_PROTO_TCP)
			return 0;
		for (i = 0; i < p->net.nloopback; i++)
			if (port >= p->net.loopback[i].lo &&
			    port <= p->net.loopback[i].hi)
				return 1;
		return 0;
	}
	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];

		if (e->proto != proto || port < e->port_lo ||
		    port > e->port_hi || !covers(e, v6, a))
			continue;
		if (e->verdict == IR_NET_DENY)
			return 0;
		allow = 1;
	}
	return allow;
}

/* An Ethernet frame holding an IPv4 or IPv6 packet from src to dst. */
static size_t packet(uint8_t *f, int v6, uint8_t proto, const uint8_t *src,
		     const uint8_t *dst, uint16_t sport, uint16_t dport,
		     int odd)
{
	size_t off = 14;

	memset(f, 0, 128);
	f[12] = v6 ? 0x86 : 0x08;
	f[13] = v6 ? 0xdd : 0x00;
	if (!v6) {
		int ihl = odd ? 6 : 5;

		f[off] = (uint8_t)(0x40 | ihl);
		f[off + 3] = (uint8_t)(4 * ihl + 8);
		f[off + 8] = 64;
		f[off + 9] = proto;
		memcpy(f + off + 12, src, 4);
		memcpy(f + off + 16, dst, 4);
		off += 4 * (size_t)ihl;
	} else {
		f[off] = 0x60;
		f[off + 5] = odd ? 16 : 8;
		f[off + 6] = odd ? 0 : proto; /* 0: hop-by-hop options */
		f[off + 7] = 64;
		memcpy(f + off + 8, src, 16);
		memcpy(f + off + 24, dst, 16);
		off += 40;
		if (odd) {
			f[off] = proto;
			off += 8;
		}
	}
	f[off] = (uint8_t)(sport >> 8);
	f[off + 1] = (uint8_t)sport;
	f[off + 2] = (uint8_t)(dport >> 8);
	f[off + 3] = (uint8_t)dport;
	return off + 20;
}

static int run(int fd, const uint8_t *f, size_t n)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f,
		    .data_size_in = (uint32_t)n, .repeat = 1);

	assert_int_equal(bpf_prog_test_run_opts(fd, &o), 0);
	return (int)o.retval;
}

struct pts {
	uint8_t a[64][16];
	int n;
};

static void add_pt(struct pts *t, const uint8_t *a)
{
	if (t->n < 64)
		memcpy(t->a[t->n++], a, 16);
}

/* Each entry's first address, one before it, its last, one past it. */
static void points(const struct ir_policy *p, int v6, struct pts *t)
{
	int len = v6 ? 16 : 4, i, bits;
	uint32_t k;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < p->net.nentries; k++) {
		const struct ir_net_entry *e = &p->net.entries[k];
		uint8_t lo[16] = {0}, hi[16] = {0}, x[16];

		if (e->kind != (v6 ? IR_ADDR_V6 : IR_ADDR_V4))
			continue;
		memcpy(lo, e->addr, (size_t)len);
		memcpy(hi, e->addr, (size_t)len);
		bits = len * 8;
		for (i = e->prefix; i < bits; i++)
			hi[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		add_pt(t, lo);
		add_pt(t, hi);
		memcpy(x, lo, 16);
		for (i = len - 1; i >= 0 && x[i]-- == 0; i--)
			;
		add_pt(t, x);
		memcpy(x, hi, 16);
		for (i = len - 1; i >= 0 && ++x[i] == 0; i--)
			;
		add_pt(t, x);
	}
	{
		uint8_t lo4[16] = {127, 0, 0, 1}, z[16] = {0},
			lo6[16] = {[15] = 1}, m[16] = {10, 1, 2, 3};

		add_pt(t, v6 ? lo6 : lo4);
		add_pt(t, z);
		add_pt(t, m);
	}
}

static void test_programs_model(void **state)
{
	static const uint16_t ports[] = {
	    0,	 1,   21,   22,	  23,	53,   79,   80,	  85,	90,   91,   442,
	    443, 444, 8079, 8080, 8081, 8999, 9000, 9005, 9010, 9011, 65535};
	static const uint8_t protos[] = {IR_PROTO_TCP, IR_PROTO_UDP, 1};
	struct ir_policy *p = compile(policy_text);
	struct bpf_object *o;
	struct bpf_map *rules;
	int eg, in, rfd, v6, checked = 0;
	size_t len, at, i, pi, qi, j;
	uint32_t nrules;
	uint8_t *s = build(p, &len), frame[128];
	uint8_t peer4[16] = {198, 51, 100, 1},
		peer6[16] = {0x20, 0x01, 0x0d, 0xb8, 0xff, 0xff};

	(void)state;
	o = bpf_object__open_mem(polc_egress_obj, polc_egress_obj_len, NULL);
	assert_non_null(o);
	rules = bpf_object__find_map_by_name(o, "rules");
	memcpy(&nrules, s + 12, 4);
	bpf_map__set_max_entries(rules, nrules);
	if (bpf_object__load(o)) {
		bpf_object__close(o);
		free(s);
		ir_policy_destroy(&p);
		print_message("skipped: libbpf cannot load the programs here "
			      "(%s; needs CAP_BPF)\n",
			      strerror(errno));
		skip();
	}
	rfd = bpf_map__fd(rules);
	at = rules_at(s);
	/* as polexec fills them: each rule's ranges as a bitmap of ports */
	for (i = 0; i < nrules; i++) {
		static uint8_t bm[POLBIN_EBPF_MAP_VAL_LEN];
		const uint8_t *v = s + at + i * RULE_LEN + POLBIN_EBPF_KEY_LEN;
		uint32_t n, lo, hi, k;

		memset(bm, 0, sizeof(bm));
		memcpy(&n, v, 4);
		for (k = 0; k < n; k++) {
			lo = (uint32_t)(v[4 + 4 * k] | v[5 + 4 * k] << 8);
			hi = (uint32_t)(v[6 + 4 * k] | v[7 + 4 * k] << 8);
			for (; lo <= hi; lo++)
				bm[lo >> 3] |= (uint8_t)(1u << (lo & 7));
		}
		assert_int_equal(bpf_map_update_elem(rfd, s + at + i * RULE_LEN,
						     bm, BPF_NOEXIST),
				 0);
	}
	eg = bpf_program__fd(bpf_object__find_program_by_name(o, "egress"));
	in = bpf_program__fd(bpf_object__find_program_by_name(o, "ingress"));
	for (v6 = 0; v6 < 2; v6++) {
		struct pts t;

		points(p, v6, &t);
		for (j = 0; j < (size_t)t.n; j++)
			for (pi = 0; pi < sizeof(protos); pi++)
				for (qi = 0; qi < sizeof(ports) / 2; qi++) {
					uint8_t pr = protos[pi];
					uint16_t q = ports[qi];
					int want = model(p, v6, pr, t.a[j], q);
					size_t n;
					char a[64];

					inet_ntop(v6 ? AF_INET6 : AF_INET,
						  t.a[j], a, sizeof(a));
					n = packet(frame, v6, pr,
						   v6 ? peer6 : peer4, t.a[j],
						   40000, q, 0);
					if (run(eg, frame, n) != want)
						fail_msg("egress to %s:%u/%u: "
							 "%d, the model says "
							 "%d",
							 a, q, pr, !want, want);
					n = packet(frame, v6, pr, t.a[j],
						   v6 ? peer6 : peer4, q, 40000,
						   0);
					if (run(in, frame, n) != want)
						fail_msg(
						    "ingress from %s:%u/%u", a,
						    q, pr);
					n = packet(frame, v6, pr,
						   v6 ? peer6 : peer4, t.a[j],
						   40000, q, 1);
					if (run(eg, frame, n) != 0)
						fail_msg("egress with options "
							 "to %s:%u/%u passed",
							 a, q, pr);
					checked += 3;
				}
	}
	print_message("%d packets judged as the model does\n", checked);
	bpf_object__close(o);
	free(s);
	ir_policy_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_validation),
	    cmocka_unit_test(test_list_flag),
	    cmocka_unit_test(test_programs_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
