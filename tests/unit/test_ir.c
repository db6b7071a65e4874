/* SPDX-License-Identifier: MIT */
/*
 * The IR: canonical form (equivalent policies give identical bytes), the
 * codec (round trip, hostile input), and rule resolution semantics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "diag.h"
#include "ir/ir.h"
#include "sections.h"
#include "sema/sema.h"
#include "compile_text.h"

#include <stdlib.h>
#include <string.h>

static void bytes_of(const char *text, uint8_t **buf, size_t *len)
{
	struct ir_policy *p = compile(text);

	assert_int_equal(ir_serialize(p, buf, len), IR_OK);
	ir_policy_destroy(&p);
	assert_null(p);
}

static int same_ir(const char *a, const char *b)
{
	uint8_t *x, *y;
	size_t nx, ny;
	int same;

	bytes_of(a, &x, &nx);
	bytes_of(b, &y, &ny);
	same = nx == ny && !memcmp(x, y, nx);
	free(x);
	free(y);
	return same;
}

/* Pairs that mean the same thing must serialize to the same bytes. */
static void test_equivalent_policies(void **state)
{
	static const char *const pairs[][2] = {
	    {"policy \"p\" { syscalls default errno(EPERM) { allow read "
	     "write; kill ptrace } }",
	     "policy \"p\" {\n syscalls default errno(EPERM) {\n  kill "
	     "ptrace\n  allow write\n  allow read\n }\n}"},
	    {"policy \"p\" { syscalls { allow socket if domain in "
	     "{AF_UNIX, AF_INET} } }",
	     "policy \"p\" { syscalls { allow socket if domain == 2\n "
	     "allow socket if family == 1 } }"},
	    {"policy \"p\" { syscalls { allow clone if flags & "
	     "NAMESPACE_FLAGS == 0 && clone_flags & 0x100 == 0 } }",
	     "policy \"p\" { syscalls { allow clone if clone_flags & 0x100 "
	     "== 0 && flags & NAMESPACE_FLAGS == 0 } }"},
	    {"policy \"p\" { fs { ro /usr /lib; rw /tmp } }",
	     "policy \"p\" { fs { rw /tmp/; ro /lib/./ //usr } }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { fs { allow read_dir read_file connect_unix on "
	     "/usr } }"},
	    {"policy \"p\" { env { pass B A; set C=1 } limits { pids 5; "
	     "memory 1GiB } }",
	     "policy \"p\" { limits { memory 1024MiB\n pids 5 } env { set "
	     "C=1; pass A; pass B } }"},
	    {"policy \"p\" { net filtered { allow 10.0.0.1:443 "
	     "api.example.com:443; deny 10.0.0.0/8 } }",
	     "policy \"p\" { net filtered { deny 10.0.0.0/8:*\n allow "
	     "API.example.com:443 tcp\n allow 10.0.0.1:443 } }"},
	    /* An allowlist with no allows is net none. */
	    {"policy \"p\" { net filtered { deny 10.0.0.0/8 } }",
	     "policy \"p\" { net none }"},
	    /* A rule that yields the default decides nothing. */
	    {"policy \"p\" { syscalls default errno(EPERM) { allow read; "
	     "errno(EPERM) write } }",
	     "policy \"p\" { syscalls default errno(EPERM) { allow read } "
	     "}"},
	    /* A negative int constant is cut to the 32 bits the kernel
	     * reads. */
	    {"policy \"p\" { syscalls { allow openat if dfd == AT_FDCWD } "
	     "}",
	     "policy \"p\" { syscalls { allow openat if dfd == 0xffffff9c "
	     "} }"},
	    {"policy \"p\" { syscalls default kill { allow read } }",
	     "policy \"p\" { syscalls { allow read } }"},
	    /* ARG.hi is the upper half of the register: for a 64-bit
	     * argument, the same as a mask on it. */
	    {"policy \"p\" { syscalls { allow mmap if len.hi == 1 && "
	     "len.hi & 0xf0 in {0x10, 0x20} } }",
	     "policy \"p\" { syscalls { allow mmap if len & "
	     "0xffffffff00000000 == 0x100000000 && len & 0xf000000000 == "
	     "0x1000000000\n allow mmap if len & 0xf000000000 == "
	     "0x2000000000 && len.hi == 1 } }"},
	    /* A number the syscall table names is that syscall. */
	    {"policy \"p\" { syscalls { allow 462; allow 41 if "
	     "family == 1 } }",
	     "policy \"p\" { syscalls { allow mseal; allow socket if "
	     "domain == 1 } }"},
	    /* best_effort is the limits' default mode. */
	    {"policy \"p\" { limits best_effort { pids 5 } }",
	     "policy \"p\" { limits { pids 5 } }"},
	    /* A secret's default place is /run/secrets/NAME. */
	    {"policy \"p\" { env { secret K from file /k } }",
	     "policy \"p\" { env { secret K from file /k to "
	     "/run/secrets/K } }"},
	    /* observe's default workspace is ${WORKSPACE}. */
	    {"policy \"p\" { fs { observe destructive } }",
	     "policy \"p\" { fs { observe destructive workspace "
	     "${WORKSPACE}/ } }"},
	    /* Every default written out (ir.h): stated and left out are one
	     * IR (test_defaults_written_out below). */
	    {"policy \"p\" { limits { wall 1m } }",
	     "policy \"p\" { limits { wall 1m; core 0; grace 2s } }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { landlock abi >= 1 require\n fs { ro /usr } }"},
	    {"policy \"p\" { net host { connect 443 } }",
	     "policy \"p\" { landlock abi >= 4 require\n net host { connect "
	     "443 } }"},
	    {"policy \"p\" { syscalls { allow read } }",
	     "policy \"p\" { syscalls default kill_process { allow read\n "
	     "badarch kill_process } }"},
	    {"policy \"p\" { env { pass A } }",
	     "policy \"p\" { env { pass A }\n syscalls default allow { "
	     "badarch kill_process } }"},
	    {"policy \"p\" { net none { loopback * } }",
	     "policy \"p\" { net none { loopback 1-65535 } }"},
	    /* The view (docs/VIEW.md): spellings of one thing. */
	    {"policy \"p\" { fs { tmpfs /tmp; dev; proc } }",
	     "policy \"p\" { fs require { proc /proc; tmpfs /tmp/ 256MiB\n "
	     "dev /dev } }"},
	    {"policy \"p\" { fs { socket /run/a.sock } }",
	     "policy \"p\" { fs { allow connect_unix on /run/a.sock } }"},
	    {"policy \"p\" { user 65534 }",
	     "policy \"p\" { user 65534:65534 }"},
	    {"policy \"p\" { user nobody }",
	     "policy \"p\" { user 65534:65534 }"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(*pairs); i++)
		if (!same_ir(pairs[i][0], pairs[i][1]))
			fail_msg("pair %zu differs", i);
}

/* And pairs that differ in meaning must not. */
static void test_different_policies(void **state)
{
	static const char *const pairs[][2] = {
	    {"policy \"p\" { syscalls { allow read } }",
	     "policy \"p\" { syscalls { allow write } }"},
	    {"policy \"p\" { syscalls { allow 470 } }",
	     "policy \"p\" { syscalls { allow 471 } }"},
	    /* An int's upper half is another word than the int. */
	    {"policy \"p\" { syscalls { allow socket if family.hi == 0 } }",
	     "policy \"p\" { syscalls { allow socket if family == 0 } }"},
	    {"policy \"p\" { syscalls { allow socket if domain == 1 } }",
	     "policy \"p\" { syscalls { allow socket if domain != 1 } }"},
	    {"policy \"p\" { syscalls default errno(EPERM) { allow read } "
	     "}",
	     "policy \"p\" { syscalls default errno(EACCES) { allow read } "
	     "}"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { fs { ro optional /usr } }"},
	    {"policy \"p\" { net filtered { allow 10.0.0.1:443 } }",
	     "policy \"p\" { net filtered { allow 10.0.0.1:443 udp } }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"q\" { fs { ro /usr } }"},
	    {"policy \"p\" { limits require { pids 5 } }",
	     "policy \"p\" { limits { pids 5 } }"},
	    {"policy \"p\" { env { secret K from file /k to /run/a/K } }",
	     "policy \"p\" { env { secret K from file /k to /run/b/K } }"},
	    /* A tmpfs of its own is not the host's folder. */
	    {"policy \"p\" { fs { tmpfs /tmp } }",
	     "policy \"p\" { fs { rw /tmp } }"},
	    {"policy \"p\" { fs { tmpfs /tmp } }",
	     "policy \"p\" { fs { tmpfs /tmp exec } }"},
	    {"policy \"p\" { fs { tmpfs /tmp 1MiB } }",
	     "policy \"p\" { fs { tmpfs /tmp 2MiB } }"},
	    {"policy \"p\" { fs { proc } }", "policy \"p\" { fs { proc /p } }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { fs best_effort { ro /usr } }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { fs { allow read_file read_dir on /usr } }"},
	    {"policy \"p\" { user 65534 }", "policy \"p\" { user 65534:0 }"},
	    {"policy \"p\" { fs { } }", "policy \"p\" { user 0 }"},
	    {"policy \"p\" { fs { ro /usr } }",
	     "policy \"p\" { fs { ro /usr; observe destructive } }"},
	    {"policy \"p\" { fs { observe destructive } }",
	     "policy \"p\" { fs { observe destructive workspace /w } }"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(*pairs); i++)
		if (same_ir(pairs[i][0], pairs[i][1]))
			fail_msg("pair %zu is the same", i);
}

static const char *full_policy =
    "policy \"full\" {\n"
    "  landlock abi >= 4 best_effort\n"
    "  user 1000:100\n"
    "  fs best_effort { ro /usr; rw ${WORKSPACE} /srv; allow execute on "
    "follow /usr/bin; tmpfs /tmp 1MiB exec; dev; proc /proc; socket "
    "/run/s; observe destructive workspace ${WS}/src }\n"
    "  net filtered { allow api.example.com:443 [2001:db8::]:8000-8100 "
    "10.0.0.0/16 udp; deny 10.0.1.0/24:53; loopback 8080 }\n"
    "  syscalls default errno(EPERM) { badarch kill_thread\n"
    "    allow read write; kill ptrace\n"
    "    allow socket if domain in {AF_UNIX, AF_INET} && type & 0xf "
    "== 1\n    log mmap if prot & PROT_EXEC != 0 }\n"
    "  limits require { memory 2GiB; pids 64; cpu 10s; wall 1m; fsize "
    "1MiB; "
    "core 0; grace 2s; nofile 100 }\n"
    "  env { pass TERM; set HOME=${WORKSPACE}; secret K from file "
    "/k to /run/k }\n"
    "}\n";

static void test_codec_round_trip(void **state)
{
	struct ir_policy *p = compile(full_policy), *q = NULL;
	uint8_t *a, *b;
	size_t na, nb;
	char err[128];

	(void)state;
	assert_int_equal(ir_serialize(p, &a, &na), IR_OK);
	assert_int_equal(ir_deserialize(a, na, &q, err, sizeof(err)), IR_OK);
	assert_int_equal(ir_serialize(q, &b, &nb), IR_OK);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	assert_int_equal(q->sys.badarch.kind, IR_ACT_KILL_THREAD);
	assert_int_equal(q->limits.value[IR_LIM_MEMORY], 2ull << 30);
	assert_int_equal(q->limits.mode, IR_LIMITS_REQUIRE);
	assert_int_equal(q->user.uid, 1000);
	assert_int_equal(q->user.gid, 100);
	assert_int_equal(q->fs.mode, IR_VIEW_BEST_EFFORT);
	for (uint32_t i = 0; i < q->fs.nrules; i++)
		if (!strcmp(q->fs.rules[i].path, "/tmp")) {
			assert_int_equal(q->fs.rules[i].kind, IR_FS_TMPFS);
			assert_int_equal(q->fs.rules[i].size, 1u << 20);
			assert_int_equal(q->fs.rules[i].rights, IR_FS_RWX);
		}
	assert_int_equal(q->fs.observe, IR_OBSERVE_DESTRUCTIVE);
	assert_string_equal(q->fs.workspace, "${WS}/src");
	ir_policy_destroy(&p);
	ir_policy_destroy(&q);
	free(a);
	free(b);
}

/* Every truncation, and every single-byte change, is refused or decodes
 * to an IR that re-encodes identically: never a crash, never a silent
 * reinterpretation. */
static void test_codec_hostile(void **state)
{
	struct ir_policy *p = compile(full_policy), *q;
	uint8_t *a;
	size_t n, i;
	char err[128];

	(void)state;
	assert_int_equal(ir_serialize(p, &a, &n), IR_OK);
	for (i = 0; i < n; i++) {
		q = NULL;
		assert_int_not_equal(ir_deserialize(a, i, &q, err, sizeof(err)),
				     IR_OK);
		assert_null(q);
	}
	for (i = 0; i < n; i++) {
		uint8_t *c = malloc(n), *again;
		size_t nagain;

		assert_non_null(c);
		memcpy(c, a, n);
		c[i] ^= 0x41;
		if (ir_deserialize(c, n, &q, err, sizeof(err)) == IR_OK) {
			assert_int_equal(ir_serialize(q, &again, &nagain),
					 IR_OK);
			assert_int_equal(nagain, n);
			assert_memory_equal(again, c, n);
			free(again);
			ir_policy_destroy(&q);
		}
		free(c);
	}
	free(a);
	ir_policy_destroy(&p);
}

/* Two rules in the wrong order: decodable, but not canonical. */
static void test_codec_refuses_noncanonical(void **state)
{
	struct ir_policy *p = compile("policy \"p\" { syscalls { allow read "
				      "write } }");
	struct ir_syscall tmp;
	struct ir_policy *q = NULL;
	uint8_t *a;
	size_t n;
	char err[128];

	(void)state;
	tmp = p->sys.calls[0];
	p->sys.calls[0] = p->sys.calls[1];
	p->sys.calls[1] = tmp;
	assert_int_equal(ir_serialize(p, &a, &n), IR_OK);
	assert_int_equal(ir_deserialize(a, n, &q, err, sizeof(err)), IR_EINVAL);
	assert_non_null(strstr(err, "canonical"));
	free(a);
	ir_policy_destroy(&p);
}

static void refused_as_noncanonical(const struct ir_policy *p)
{
	struct ir_policy *q = NULL;
	uint8_t *a;
	size_t n;
	char err[128] = "";

	assert_int_equal(ir_serialize(p, &a, &n), IR_OK);
	assert_int_equal(ir_deserialize(a, n, &q, err, sizeof(err)), IR_EINVAL);
	assert_null(q);
	assert_non_null(strstr(err, "canonical"));
	free(a);
}

/*
 * Every default is in the IR, written out once (ir.h): a policy that
 * states it and one that leaves it out are one IR (the pairs of
 * test_equivalent_policies), and an IR without it is not canonical, so
 * no reader meets a missing default.
 */
static void test_defaults_written_out(void **state)
{
	struct ir_policy *p;

	(void)state;
	/* Without any block: core and grace in force, net host, no layer. */
	p = compile("policy \"p\" { env { pass A } }");
	assert_false(p->limits.present);
	assert_int_equal(p->limits.set, 1u << IR_LIM_CORE | 1u << IR_LIM_GRACE);
	assert_int_equal(p->limits.value[IR_LIM_CORE], IR_DEFAULT_CORE);
	assert_int_equal(p->limits.value[IR_LIM_GRACE], IR_DEFAULT_GRACE_MS);
	assert_int_equal(p->limits.value[IR_LIM_GRACE], 2000);
	assert_false(p->net.present);
	assert_int_equal(p->net.mode, IR_NET_HOST);
	assert_false(p->landlock.present);
	assert_int_equal(p->sys.def.kind, IR_COMPANION_ACTION);
	assert_int_equal(p->sys.badarch.kind, IR_DEFAULT_BADARCH);
	/* An IR that leaves grace out is refused as not canonical. */
	p->limits.set &= ~(1u << IR_LIM_GRACE);
	p->limits.value[IR_LIM_GRACE] = 0;
	refused_as_noncanonical(p);
	ir_policy_destroy(&p);
	/* Nor can the Landlock requirement be left to a reader. */
	p = compile("policy \"p\" { fs { ro /usr } }");
	assert_true(p->landlock.present);
	assert_int_equal(p->landlock.abi_min, IR_DEFAULT_LL_ABI);
	assert_int_equal(p->landlock.mode, IR_DEFAULT_LL_MODE);
	p->landlock.present = 0;
	p->landlock.abi_min = 0;
	p->landlock.mode = 0;
	refused_as_noncanonical(p);
	ir_policy_destroy(&p);
}

static struct ir_action eval(const struct ir_policy *p, const char *sc,
			     uint64_t a0, uint64_t a1)
{
	uint64_t args[6] = {a0, a1, 0, 0, 0, 0};

	return ir_eval_syscall(&p->sys, ir_find_syscall(&p->sys, sc), args);
}

static void test_resolution(void **state)
{
	struct ir_policy *p = compile(
	    "policy \"p\" { syscalls default errno(EPERM) {\n"
	    "  allow socket\n"
	    "  errno(EACCES) socket if domain == AF_PACKET\n"
	    "  errno(EAGAIN) socket if domain == AF_PACKET && type == 3\n"
	    "  kill socket if domain == AF_VSOCK\n"
	    "  allow read if fd < 3\n"
	    "} }");
	struct ir_action a;

	(void)state;
	a = eval(p, "socket", 1, 0);
	assert_int_equal(a.kind, IR_ACT_ALLOW);
	a = eval(p, "socket", 17, 0);
	assert_int_equal(a.kind, IR_ACT_ERRNO);
	assert_int_equal(a.errnum, 13);
	/* Both errno rules hold: the smaller errno wins (EAGAIN=11). */
	a = eval(p, "socket", 17, 3);
	assert_int_equal(a.errnum, 11);
	a = eval(p, "socket", 40, 0);
	assert_int_equal(a.kind, IR_ACT_KILL_PROCESS);
	/* An int argument is read on 32 bits: 40 + 2^32 is AF_VSOCK. */
	a = eval(p, "socket", 40 + (1ull << 32), 0);
	assert_int_equal(a.kind, IR_ACT_KILL_PROCESS);
	a = eval(p, "read", 2, 0);
	assert_int_equal(a.kind, IR_ACT_ALLOW);
	a = eval(p, "read", 3, 0);
	assert_int_equal(a.kind, IR_ACT_ERRNO);
	assert_int_equal(a.errnum, 1);
	a = eval(p, "write", 0, 0);
	assert_int_equal(a.errnum, 1);
	ir_policy_destroy(&p);
}

static struct ir_action eval3(const struct ir_policy *p, const char *sc,
			      uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint64_t args[6] = {a0, a1, a2, 0, 0, 0};

	return ir_eval_syscall(&p->sys, ir_find_syscall(&p->sys, sc), args);
}

static int is_eacces(struct ir_action a)
{
	return a.kind == IR_ACT_ERRNO && a.errnum == 13;
}

/* Every companion that applies to p is in p's IR, as a rule of its own
 * (no user rule on it is stricter here), and no other. */
static void assert_companions_present(const struct ir_policy *p)
{
	for (size_t k = 0; k < ncompanions; k++) {
		const struct companion *c = &companions[k];
		const struct ir_syscall *sc = ir_find_syscall(&p->sys, c->name);
		int found = 0;

		assert_non_null(sc);
		for (uint32_t r = 0; r < sc->nrules; r++)
			found |= !ir_rule_cmp(&sc->rules[r], &c->rule);
		if (!found && companion_applies(c, p))
			fail_msg("companion '%s' missing", c->text);
		if (found && !companion_applies(c, p))
			fail_msg("companion '%s' where it does not apply",
				 c->text);
	}
}

/* The egress companions: in every policy's IR, in every net mode, with
 * or without a syscalls block (the family allow-list in net none and net
 * filtered alone); stricter than a user allow, laxer than a user kill or
 * a smaller errno. */
static void test_companions(void **state)
{
	static const char *const bare[] = {
	    "policy \"p\" { env { pass TERM } }",
	    "policy \"p\" { net none }",
	    "policy \"p\" { net host }",
	    "policy \"p\" { net filtered { allow 10.0.0.0/8:443 tcp } "
	    "}",
	    "policy \"p\" { syscalls default allow { allow read } }",
	    "policy \"p\" { syscalls { allow read } net host }",
	};
	struct ir_policy *p;
	struct ir_action a;

	(void)state;
	for (size_t i = 0; i < sizeof(bare) / sizeof(*bare); i++) {
		p = compile(bare[i]);
		assert_true(p->sys.present);
		assert_companions_present(p);
		/* Only the companions' cases are refused. */
		assert_true(is_eacces(eval3(p, "socket", 17, 2, 0)));
		assert_true(is_eacces(eval3(p, "socket", 2, 3 | 0x80000, 1)));
		assert_true(is_eacces(eval3(p, "socket", 10, 3 | 0x800, 58)));
		assert_true(is_eacces(eval3(p, "socket", 16, 3, 12)));
		assert_true(is_eacces(eval3(p, "io_uring_setup", 8, 0, 0)));
		assert_true(is_eacces(eval3(p, "io_uring_enter", 3, 1, 0)));
		assert_true(is_eacces(eval3(p, "io_uring_register", 3, 0, 0)));
		assert_false(is_eacces(eval3(p, "socket", 2, 1, 0)));
		assert_false(is_eacces(eval3(p, "socket", 10, 2, 0)));
		assert_false(is_eacces(eval3(p, "socket", 16, 3, 0)));
		assert_false(is_eacces(eval3(p, "socket", 1, 3, 0)));
		/* AF_VSOCK, AF_BLUETOOTH: refused where the box has a
		 * network of its own (net none, net filtered), only there */
		assert_int_equal(is_eacces(eval3(p, "socket", 40, 1, 0)),
				 i == 1 || i == 3);
		assert_int_equal(is_eacces(eval3(p, "socket", 31, 5, 0)),
				 i == 1 || i == 3);
		ir_policy_destroy(&p);
	}
	/* A wider socket rule of the policy's own does not reopen them,
	 * nor does one that names AF_VSOCK; a stricter one still wins. */
	p = compile("policy \"p\" { net none\n syscalls default allow {\n"
		    "  allow socket if domain == AF_VSOCK\n"
		    "  errno(EPERM) socket if domain == 38\n"
		    "} }");
	assert_true(is_eacces(eval3(p, "socket", 40, 1, 0)));
	assert_int_equal(eval3(p, "socket", 38, 5, 0).errnum, 1);
	assert_int_equal(eval3(p, "socket", 2, 1, 0).kind, IR_ACT_ALLOW);
	assert_int_equal(eval3(p, "socket", 16, 3, 0).kind, IR_ACT_ALLOW);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { net filtered { allow 10.0.0.0/8:443 } "
		    "syscalls default allow { allow socket } }");
	assert_true(is_eacces(eval3(p, "socket", 40, 1, 0)));
	assert_true(is_eacces(eval3(p, "socket", 0, 1, 0)));
	/* family 1: an int, whose low half the kernel reads */
	assert_false(is_eacces(eval3(p, "socket", 0x100000001ull, 1, 0)));
	ir_policy_destroy(&p);
	/* No syscalls block: a layer of its own, allow by default. */
	p = compile(bare[0]);
	assert_int_equal(p->sys.def.kind, IR_ACT_ALLOW);
	assert_int_equal(p->sys.badarch.kind, IR_ACT_KILL_PROCESS);
	assert_int_equal(eval3(p, "socket", 2, 1, 0).kind, IR_ACT_ALLOW);
	assert_int_equal(eval3(p, "read", 0, 0, 0).kind, IR_ACT_ALLOW);
	ir_policy_destroy(&p);

	/* A user allow gives way; a user kill, trap or smaller errno wins.
	 * None of these is an error. */
	p = compile("policy \"p\" { syscalls default errno(EPERM) {\n"
		    "  allow socket io_uring_setup\n"
		    "  kill io_uring_enter\n"
		    "  trap socket if domain == AF_NETLINK && protocol == 9\n"
		    "  errno(EAGAIN) socket if domain == AF_INET6\n"
		    "  allow io_uring_register if fd == 3\n"
		    "} }");
	assert_true(is_eacces(eval3(p, "socket", 17, 2, 0)));
	assert_true(is_eacces(eval3(p, "socket", 2, 3, 1)));
	assert_true(is_eacces(eval3(p, "io_uring_setup", 8, 0, 0)));
	assert_true(is_eacces(eval3(p, "io_uring_register", 3, 0, 0)));
	assert_int_equal(eval3(p, "socket", 2, 1, 0).kind, IR_ACT_ALLOW);
	assert_int_equal(eval3(p, "socket", 16, 3, 0).kind, IR_ACT_ALLOW);
	assert_true(is_eacces(eval3(p, "socket", 16, 3, 4)));
	assert_int_equal(eval3(p, "io_uring_enter", 3, 1, 0).kind,
			 IR_ACT_KILL_PROCESS);
	assert_int_equal(eval3(p, "socket", 16, 3, 9).kind, IR_ACT_TRAP);
	a = eval3(p, "socket", 10, 3, 0);
	assert_int_equal(a.kind, IR_ACT_ERRNO);
	assert_int_equal(a.errnum, 11); /* EAGAIN < EACCES */
	ir_policy_destroy(&p);

	/* A default of errno(EPERM) is stricter than the companions only
	 * where no rule holds: they still answer EACCES. */
	p = compile("policy \"p\" { syscalls default errno(EPERM) { allow "
		    "read } }");
	assert_true(is_eacces(eval3(p, "socket", 17, 2, 0)));
	assert_int_equal(eval3(p, "socket", 1, 1, 0).errnum, 1);
	ir_policy_destroy(&p);
}

static void test_name_shapes(void **state)
{
	static const char *const paths_ok[] = {
	    "/", "/usr", "/usr/bin", "~", "~/x", "${WS}", "${WS}/a/b",
	};
	static const char *const paths_bad[] = {
	    "",	  "usr",    "/usr/", "//usr",  "/a/../b",   "/a/./b", "/a/..",
	    "~x", "${WS}x", "${}/a", "${W S}", "/a\x1b[2J", "$WS/a",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(paths_ok) / sizeof(*paths_ok); i++)
		if (!ir_is_path(paths_ok[i]))
			fail_msg("refused %s", paths_ok[i]);
	for (i = 0; i < sizeof(paths_bad) / sizeof(*paths_bad); i++)
		if (ir_is_path(paths_bad[i]))
			fail_msg("accepted %s", paths_bad[i]);
	assert_true(ir_is_hostname("api.example.com"));
	assert_false(ir_is_hostname("API.example.com"));
	assert_false(ir_is_hostname("a..b"));
	assert_false(ir_is_hostname("a\x07b"));
	assert_true(ir_is_identifier("_x1"));
	assert_false(ir_is_identifier("1x"));
	assert_true(ir_is_variable("${HOME}"));
	assert_false(ir_is_variable("${HOME}/x"));
}

/* A name that reads as an IPv4 address is refused (tests/bad-policies:
 * 125, 126); names of digits that do not read as one stay names. */
static void test_numeric_looking_names(void **state)
{
	struct ir_policy *p =
	    compile("policy \"p\" { net filtered { allow 1.2.3.4.5:443 "
		    "0x7g.test:443 10.example:443 4294967296:443 } }");
	uint8_t a[4];
	uint32_t i;

	(void)state;
	assert_int_equal(p->net.nentries, 4);
	for (i = 0; i < p->net.nentries; i++)
		assert_int_equal(p->net.entries[i].kind, IR_ADDR_NAME);
	ir_policy_destroy(&p);
	assert_true(ir_reads_as_ipv4("0x7f.1", a));
	assert_memory_equal(a, "\x7f\0\0\x01", 4);
	assert_false(ir_reads_as_ipv4("1.2.3.4.5", a));
}

/* Every path the semantic pass writes is one the reader takes back. */
static void test_sema_paths_are_normal(void **state)
{
	struct ir_policy *p = compile(
	    "policy \"p\" { fs { ro //usr/./lib/ ~ ~/a// ${W}/./b/ / } }");
	uint32_t i;

	(void)state;
	assert_int_equal(p->fs.nrules, 5);
	for (i = 0; i < p->fs.nrules; i++)
		if (!ir_is_path(p->fs.rules[i].path))
			fail_msg("sema wrote %s", p->fs.rules[i].path);
	ir_policy_destroy(&p);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The LIMITS section: defaults written out, flags, values, refusals. */
static void test_limits_section(void **state)
{
	struct ir_policy *p;
	uint8_t *out;
	size_t len;
	char err[128];

	(void)state;
	/* No limits block: core 0 and the default grace, nothing else. */
	p = compile("policy \"p\" { env { pass A } }");
	assert_int_equal(limits_section_build(p, &out, &len, err, sizeof(err)),
			 0);
	assert_int_equal(len, POLBIN_LIMITS_LEN);
	assert_int_equal(le64(out) & 0xffffffff, 0);
	assert_int_equal(le64(out) >> 32,
			 1u << POLBIN_LIM_CORE | 1u << POLBIN_LIM_GRACE);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_CORE), 0);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_GRACE),
			 POLBIN_LIMITS_GRACE_MS);
	free(out);
	ir_policy_destroy(&p);

	/* Stated, require, the policy's own core and grace. */
	p = compile("policy \"p\" { limits require { memory 1GiB; wall 1m; "
		    "core 1MiB; grace 5s } }");
	assert_int_equal(limits_section_build(p, &out, &len, err, sizeof(err)),
			 0);
	assert_int_equal(le64(out) & 0xffffffff,
			 POLBIN_LIMITS_F_STATED | POLBIN_LIMITS_F_REQUIRE);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_MEMORY), 1ull << 30);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_WALL), 60000);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_CORE), 1 << 20);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_GRACE), 5000);
	assert_int_equal(le64(out + 8 + 8 * POLBIN_LIM_PIDS), 0);
	free(out);

	/* An IR polexec would refuse is refused here first. */
	p->limits.value[IR_LIM_PIDS] = 7; /* not set */
	assert_int_equal(limits_section_build(p, &out, &len, err, sizeof(err)),
			 -1);
	assert_null(out);
	p->limits.value[IR_LIM_PIDS] = 0;
	p->limits.value[IR_LIM_MEMORY] = 0; /* set, zero */
	assert_int_equal(limits_section_build(p, &out, &len, err, sizeof(err)),
			 -1);
	p->limits.value[IR_LIM_MEMORY] = POLBIN_LIMITS_MAX_BYTES + 1;
	assert_int_equal(limits_section_build(p, &out, &len, err, sizeof(err)),
			 -1);
	ir_policy_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_equivalent_policies),
	    cmocka_unit_test(test_different_policies),
	    cmocka_unit_test(test_codec_round_trip),
	    cmocka_unit_test(test_codec_hostile),
	    cmocka_unit_test(test_codec_refuses_noncanonical),
	    cmocka_unit_test(test_defaults_written_out),
	    cmocka_unit_test(test_resolution),
	    cmocka_unit_test(test_companions),
	    cmocka_unit_test(test_name_shapes),
	    cmocka_unit_test(test_numeric_looking_names),
	    cmocka_unit_test(test_sema_paths_are_normal),
	    cmocka_unit_test(test_limits_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
