/* SPDX-License-Identifier: MIT */
/*
 * The notify broker's program (compiler/backend/broker.c): what it
 * returns on the calls it notifies and on their neighbours, run in the
 * interpreter, without and with a UDP destination in the policy; that a
 * policy's denial of connect stays NOTIFY's (notified for the record, the
 * decision program then denies); that translation validation tells it from
 * NOTIFY (validated as NOTIFY of the policy, it is a mismatch at connect); and
 * where polc builds it at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "diag.h"
#include "ir/ir.h"
#include "backend/backend.h"
#include "sema/sema.h"
#include "compile_text.h"
#include "bpf_interp.h"

#include <linux/audit.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NOTIF	      0x7fc00000u
#define ALLOW	      0x7fff0000u
#define FASTOPEN      0x20000000u
#define NR_SOCKET     41
#define NR_CONNECT    42
#define NR_SENDTO     44
#define NR_SENDMSG    46
#define NR_LISTEN     50
#define NR_SETSOCKOPT 54
#define NR_SENDMMSG   307
#define NR_READ	      0

static const char filtered[] = "policy \"b\" {\n"
			       "  net filtered {\n"
			       "    allow 10.0.0.0/8:443\n"
			       "    loopback 8080\n"
			       "  }\n"
			       "}\n";

static uint32_t run(const struct sock_filter *prog, size_t n, int nr,
		    uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		    uint64_t a4)
{
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
	struct bpf_run_result r;
	char err[128];

	d.args[0] = a0;
	d.args[1] = a1;
	d.args[2] = a2;
	d.args[3] = a3;
	d.args[4] = a4;
	assert_int_equal(bpf_run(prog, n, &d, &r, err, sizeof(err)), 0);
	return r.ret & 0xffff0000u;
}

static struct sock_filter *build(const char *text, size_t *n,
				 struct ir_policy **pp)
{
	struct ir_policy *p = compile(text);
	struct sock_filter *prog = NULL;
	char err[256];

	assert_int_equal(broker_build(p, &prog, n, err, sizeof(err)), 0);
	*pp = p;
	return prog;
}

static void test_notified_calls(void **state)
{
	struct ir_policy *p;
	size_t n;
	struct sock_filter *f = build(filtered, &n, &p);

	(void)state;
	assert_non_null(f);
	/* connect, listen: always */
	assert_int_equal(run(f, n, NR_CONNECT, 3, 0x1000, 16, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_LISTEN, 3, 5, 0, 0, 0), NOTIF);
	/* sendto: an address or MSG_FASTOPEN; send() (neither) stays */
	assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, 0, 0), ALLOW);
	assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, 0, 0x1000), NOTIF);
	assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, 0, 1ull << 32),
			 NOTIF); /* the pointer's high word counts */
	assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, FASTOPEN, 0),
			 NOTIF);
	/* sendmsg, sendmmsg: MSG_FASTOPEN only */
	assert_int_equal(run(f, n, NR_SENDMSG, 3, 0x2000, 0, 0, 0), ALLOW);
	assert_int_equal(run(f, n, NR_SENDMSG, 3, 0x2000, FASTOPEN, 0, 0),
			 NOTIF);
	assert_int_equal(run(f, n, NR_SENDMMSG, 3, 0x2000, 1, 0, 0), ALLOW);
	assert_int_equal(run(f, n, NR_SENDMMSG, 3, 0x2000, 1, FASTOPEN, 0),
			 NOTIF);
	/* socket: TCP stays (flags in the type word too), the rest not */
	assert_int_equal(run(f, n, NR_SOCKET, 2, 1, 0, 0, 0), ALLOW);
	assert_int_equal(
	    run(f, n, NR_SOCKET, 10, 1 | 04000 | 02000000, 6, 0, 0), ALLOW);
	assert_int_equal(run(f, n, NR_SOCKET, 2, 2, 0, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SOCKET, 10, 2, 17, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SOCKET, 2, 1, 262, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SOCKET, 2, 3, 1, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SOCKET, 1, 2, 0, 0, 0), ALLOW);
	/* setsockopt: source routing only */
	assert_int_equal(run(f, n, NR_SETSOCKOPT, 3, 0, 4, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SETSOCKOPT, 3, 41, 57, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_SETSOCKOPT, 3, 6, 1, 0, 0), ALLOW);
	assert_int_equal(run(f, n, NR_READ, 0, 0, 0, 0, 0), ALLOW);
	free(f);
	ir_policy_destroy(&p);
}

/* A policy that lists a UDP destination (an address or a name): UDP
 * sockets stay (protocol 0 or IPPROTO_UDP, with the flags), ping and
 * UDP-Lite ones do not; every sendmsg and sendmmsg is notified; send()
 * (sendto without an address) still stays. */
static void test_udp_notified_calls(void **state)
{
	static const char *const udp[] = {
	    "policy \"u\" {\n  net filtered {\n    allow 10.0.0.0/8:443\n"
	    "    allow 10.0.0.2:53 udp\n  }\n}\n",
	    "policy \"u\" {\n  net filtered backend broker {\n"
	    "    allow dns.example:53 udp\n  }\n}\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(udp) / sizeof(udp[0]); i++) {
		struct ir_policy *p;
		size_t n;
		struct sock_filter *f = build(udp[i], &n, &p);

		assert_non_null(f);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 2, 0, 0, 0), ALLOW);
		assert_int_equal(
		    run(f, n, NR_SOCKET, 10, 2 | 04000 | 02000000, 17, 0, 0),
		    ALLOW);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 2, 1, 0, 0), NOTIF);
		assert_int_equal(run(f, n, NR_SOCKET, 10, 2, 58, 0, 0), NOTIF);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 2, 136, 0, 0), NOTIF);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 3, 17, 0, 0), NOTIF);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 1, 17, 0, 0), NOTIF);
		assert_int_equal(run(f, n, NR_SOCKET, 2, 1, 0, 0, 0), ALLOW);
		assert_int_equal(run(f, n, NR_SENDMSG, 3, 0x2000, 0, 0, 0),
				 NOTIF);
		assert_int_equal(run(f, n, NR_SENDMMSG, 3, 0x2000, 1, 0, 0),
				 NOTIF);
		assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, 0, 0),
				 ALLOW);
		assert_int_equal(run(f, n, NR_SENDTO, 3, 0x2000, 5, 0, 0x1000),
				 NOTIF);
		free(f);
		ir_policy_destroy(&p);
	}
}

/* A policy that denies connect: NOTIFY's value (notified for the
 * record); the supervisor's decision program then denies it. */
static void test_policy_denial_kept(void **state)
{
	static const char text[] = "policy \"d\" {\n"
				   "  net filtered {\n"
				   "    allow 10.0.0.0/8:443\n"
				   "  }\n"
				   "  syscalls default allow {\n"
				   "    errno(EPERM) listen\n"
				   "  }\n"
				   "}\n";
	struct ir_policy *p;
	size_t n;
	struct sock_filter *f = build(text, &n, &p);

	(void)state;
	assert_non_null(f);
	assert_int_equal(run(f, n, NR_LISTEN, 3, 5, 0, 0, 0), NOTIF);
	assert_int_equal(run(f, n, NR_READ, 0, 0, 0, 0, 0), ALLOW);
	free(f);
	ir_policy_destroy(&p);
}

/* Validated as NOTIFY of the policy, the broker program is a mismatch:
 * the validator tells the two apart. */
static void test_not_notify(void **state)
{
	struct ir_policy *p;
	size_t n;
	struct sock_filter *f = build(filtered, &n, &p);
	char err[512];

	(void)state;
	assert_int_equal(seccomp_validate_variant(p, SECCOMP_NOTIFY, f, n, 0,
						  NULL, err, sizeof(err)),
			 1);
	free(f);
	ir_policy_destroy(&p);
}

/* Not built for the namespace forced, nor for a plain `net none`. */
static void test_where_built(void **state)
{
	static const char *const none[] = {
	    "policy \"n\" {\n  net filtered backend namespace {\n"
	    "    allow 10.0.0.0/8:443\n  }\n}\n",
	    "policy \"n\" {\n  net none\n}\n",
	    "policy \"n\" {\n  net host\n}\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		struct ir_policy *p = compile(none[i]);
		struct sock_filter *f = NULL;
		size_t n = 0;
		char err[256];

		assert_false(broker_on(p));
		assert_int_equal(broker_build(p, &f, &n, err, sizeof(err)), 0);
		assert_null(f);
		ir_policy_destroy(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_notified_calls),
	    cmocka_unit_test(test_udp_notified_calls),
	    cmocka_unit_test(test_policy_denial_kept),
	    cmocka_unit_test(test_not_notify),
	    cmocka_unit_test(test_where_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
