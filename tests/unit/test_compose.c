/* SPDX-License-Identifier: MIT */
/*
 * Composition (docs/LANGUAGE.md, "Composition: the using file decides"):
 * what the policy says about a key replaces what the fragments it uses
 * say, with a note; fragments that disagree without one using the other
 * are an error; the result is order-independent. And the egress
 * companions' warning, given only for a rule that asks for what they
 * refuse (docs/LANGUAGE.md, "Egress companions").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "diag.h"
#include "ir/ir.h"
#include "sema/sema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fragments every test may use, written to a folder of their own. */
static const struct {
	const char *name, *text;
} frags[] = {
    {"base", "fragment \"base\" {\n"
	     "  syscalls { allow read write execve\n"
	     "             allow clone if flags & NAMESPACE_FLAGS == 0 }\n"
	     "  fs { ro /usr /etc }\n"
	     "  limits { pids 64 }\n"
	     "  env { set HOME=/home/box }\n"
	     "}\n"},
    /* Uses base and narrows it: it decides over base. */
    {"narrow", "fragment \"narrow\" {\n"
	       "  use base\n"
	       "  syscalls { errno(EPERM) execve }\n"
	       "}\n"},
    /* Neither uses the other: they may agree or disagree. */
    {"kill-execve", "fragment \"kill-execve\" {\n"
		    "  syscalls { kill execve }\n"
		    "}\n"},
    {"allow-execve", "fragment \"allow-execve\" {\n"
		     "  syscalls { allow execve }\n"
		     "}\n"},
    {"net-a", "fragment \"net-a\" {\n"
	      "  net filtered { allow a.example.com:443 }\n"
	      "}\n"},
    {"net-b", "fragment \"net-b\" {\n"
	      "  net filtered { allow b.example.com:443 a.example.com:443 }\n"
	      "}\n"},
};

static char dir[64];
static const char *search[1] = {dir};
static const struct sema_opts opts = {search, 1};

static int setup(void **state)
{
	size_t i;

	(void)state;
	strcpy(dir, "/tmp/test_compose.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < sizeof(frags) / sizeof(*frags); i++) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.pol", dir, frags[i].name);
		f = fopen(path, "w");
		if (!f || fputs(frags[i].text, f) < 0 || fclose(f))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(frags) / sizeof(*frags); i++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/%s.pol", dir, frags[i].name);
		unlink(path);
	}
	return rmdir(dir);
}

/* Compiles text as t.pol; the diagnostics stay in d (diag_fini after). */
static struct ir_policy *compile_in(struct diag *d, const char *text)
{
	struct ir_policy *p = NULL;

	diag_init(d);
	sema_compile_text(d, "t.pol", text, strlen(text), &opts, &p);
	return p;
}

static struct ir_policy *compile_ok(struct diag *d, const char *text)
{
	struct ir_policy *p = compile_in(d, text);

	if (!p) {
		diag_print(d, stderr);
		fail_msg("did not compile: %s", text);
	}
	return p;
}

/* How many entries of d have this level, place file and message part. */
static size_t count(const struct diag *d, enum diag_level level,
		    const char *file, const char *msg)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->v[i];
		const char *path = e->loc.file ? e->loc.file->path : "";
		size_t lp = strlen(path), lf = strlen(file);

		if (e->level == level && lp >= lf &&
		    !strcmp(path + lp - lf, file) && strstr(e->msg, msg))
			n++;
	}
	return n;
}

static int same_ir(const struct ir_policy *a, const struct ir_policy *b)
{
	uint8_t *x, *y;
	size_t nx, ny;
	int same;

	assert_int_equal(ir_serialize(a, &x, &nx), IR_OK);
	assert_int_equal(ir_serialize(b, &y, &ny), IR_OK);
	same = nx == ny && !memcmp(x, y, nx);
	free(x);
	free(y);
	return same;
}

static struct ir_action eval(const struct ir_policy *p, const char *sc,
			     uint64_t a0)
{
	uint64_t args[6] = {a0, 0, 0, 0, 0, 0};

	return ir_eval_syscall(&p->sys, ir_find_syscall(&p->sys, sc), args);
}

/* The policy's statements replace the fragment's about the same keys,
 * and the result is the policy written out by hand. */
static void test_policy_decides(void **state)
{
	struct ir_policy *p, *q;
	struct diag d, e;

	(void)state;
	p = compile_ok(&d, "policy \"p\" {\n"
			   "  use base\n"
			   "  syscalls { kill execve\n"
			   "             allow clone }\n"
			   "  fs { rx /usr }\n"
			   "  limits { pids 8 }\n"
			   "  env { pass HOME }\n"
			   "}\n");
	q = compile_ok(&e, "policy \"p\" {\n"
			   "  syscalls { allow read write; kill execve\n"
			   "             allow clone }\n"
			   "  fs { rx /usr; ro /etc }\n"
			   "  limits { pids 8 }\n"
			   "  env { pass HOME }\n"
			   "}\n");
	assert_true(same_ir(p, q));
	/* Narrowed and widened. */
	assert_int_equal(eval(p, "execve", 0).kind, IR_ACT_KILL_PROCESS);
	assert_int_equal(eval(p, "clone", 0x10000000).kind, IR_ACT_ALLOW);
	/* Not an error nor a warning: one note per key in the policy, one
	 * per replaced statement in the fragment. */
	assert_int_equal(d.errors, 0);
	assert_int_equal(d.warnings, 0);
	assert_int_equal(count(&d, DIAG_REMARK, "t.pol", "is decided by this"),
			 5);
	assert_int_equal(count(&d, DIAG_REMARK, "t.pol", "'execve'"), 1);
	assert_int_equal(count(&d, DIAG_REMARK, "t.pol", "'/usr'"), 1);
	assert_int_equal(count(&d, DIAG_NOTE, "/base.pol", "no longer applies"),
			 5);
	assert_int_equal(count(&d, DIAG_REMARK, "/base.pol", ""), 0);
	ir_policy_destroy(&p);
	ir_policy_destroy(&q);
	diag_fini(&d);
	diag_fini(&e);
}

/* Restating exactly what a fragment says changes nothing, silently. */
static void test_restating_is_silent(void **state)
{
	struct ir_policy *p, *q;
	struct diag d, e;

	(void)state;
	p = compile_ok(&d, "policy \"p\" { use base\n"
			   "  syscalls { allow execve }\n"
			   "  fs { ro /usr }\n"
			   "  limits { pids 64 } }");
	q = compile_ok(&e, "policy \"p\" { use base }");
	assert_true(same_ir(p, q));
	assert_int_equal(d.n, 0);
	ir_policy_destroy(&p);
	ir_policy_destroy(&q);
	diag_fini(&d);
	diag_fini(&e);
}

/* Where `use` stands, and in which order fragments are used, changes
 * nothing. */
static void test_order_independent(void **state)
{
	static const char *const same[] = {
	    "policy \"p\" { use base\n use narrow\n syscalls { trap write } }",
	    "policy \"p\" { syscalls { trap write }\n use narrow\n use base }",
	    "policy \"p\" { use narrow\n syscalls { trap write }\n use base }",
	};
	struct ir_policy *first = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(*same); i++) {
		struct diag d;
		struct ir_policy *p = compile_ok(&d, same[i]);

		if (!first)
			first = p;
		else if (!same_ir(first, p))
			fail_msg("variant %zu differs", i);
		if (p != first)
			ir_policy_destroy(&p);
		diag_fini(&d);
	}
	ir_policy_destroy(&first);
}

/* A fragment decides over the fragments it uses, also when the policy
 * uses those directly: no note, since the policy said nothing. */
static void test_fragment_decides(void **state)
{
	struct ir_policy *p;
	struct ir_action a;
	struct diag d;

	(void)state;
	p = compile_ok(&d, "policy \"p\" { use base\n use narrow }");
	a = eval(p, "execve", 0);
	assert_int_equal(a.kind, IR_ACT_ERRNO);
	assert_int_equal(a.errnum, 1);
	assert_int_equal(eval(p, "read", 0).kind, IR_ACT_ALLOW);
	assert_int_equal(d.n, 0);
	ir_policy_destroy(&p);
	diag_fini(&d);
}

/* Fragments neither of which uses the other: agreeing merges, disagreeing
 * is an error naming both, which the policy settles by deciding. */
static void test_fragments_disagree(void **state)
{
	struct ir_policy *p;
	struct diag d;

	(void)state;
	p = compile_in(&d,
		       "policy \"p\" { use allow-execve\n use kill-execve }");
	assert_null(p);
	assert_int_equal(d.errors, 1);
	assert_int_equal(count(&d, DIAG_ERROR, "/kill-execve.pol",
			       "conflicting rules for 'execve'"),
			 1);
	assert_int_equal(
	    count(&d, DIAG_NOTE, "/allow-execve.pol", "the policy settles it"),
	    1);
	diag_fini(&d);

	p = compile_ok(&d, "policy \"p\" { use allow-execve\n use kill-execve\n"
			   "  syscalls { errno(EPERM) execve } }");
	assert_int_equal(eval(p, "execve", 0).kind, IR_ACT_ERRNO);
	assert_int_equal(count(&d, DIAG_NOTE, "", "no longer applies"), 2);
	ir_policy_destroy(&p);
	diag_fini(&d);

	p = compile_ok(&d, "policy \"p\" { use allow-execve\n use base }");
	assert_int_equal(eval(p, "execve", 0).kind, IR_ACT_ALLOW);
	assert_int_equal(d.n, 0);
	ir_policy_destroy(&p);
	diag_fini(&d);
}

/* Net mode: the same mode merges the entries; another drops the
 * fragments' net statements with their entries. */
static void test_net_mode(void **state)
{
	struct ir_policy *p;
	struct diag d;

	(void)state;
	p = compile_ok(&d, "policy \"p\" { use net-a\n use net-b\n"
			   "  net filtered { allow c.example.com:443 } }");
	assert_int_equal(p->net.mode, IR_NET_FILTERED);
	assert_int_equal(p->net.nentries, 3);
	/* nothing about composition; only that the box has no view of its
	 * own (sema_fs.c: a contained network over the host's tree) */
	assert_int_equal(count(&d, DIAG_WARNING, "t.pol", "no fs section"), 1);
	assert_int_equal(d.n, 1);
	ir_policy_destroy(&p);
	diag_fini(&d);

	p = compile_ok(&d, "policy \"p\" { use net-a\n use net-b\n net none }");
	assert_int_equal(p->net.mode, IR_NET_NONE);
	assert_int_equal(p->net.nentries, 0);
	assert_int_equal(count(&d, DIAG_REMARK, "t.pol", "'net mode'"), 1);
	assert_int_equal(count(&d, DIAG_NOTE, "", "with its rules"), 2);
	ir_policy_destroy(&p);
	diag_fini(&d);
}

/* Within one file a key said twice stays an error, fragment or not. */
static void test_within_file(void **state)
{
	struct diag d;

	(void)state;
	assert_null(compile_in(&d,
			       "policy \"p\" { use base\n"
			       "  syscalls { allow ptrace; kill ptrace } }"));
	assert_int_equal(count(&d, DIAG_ERROR, "t.pol", "conflicting"), 1);
	diag_fini(&d);
	assert_null(compile_in(&d,
			       "policy \"p\" { use base\n"
			       "  limits { pids 1 }\n limits { pids 2 } }"));
	assert_int_equal(count(&d, DIAG_ERROR, "t.pol", "given twice"), 1);
	diag_fini(&d);
}

/* The policy before arg after, compiled: how many warnings it gave, and
 * in *with how many of them say msg. */
static int warnings_of(const char *before, const char *arg, const char *after,
		       const char *msg, size_t *with)
{
	char text[256];
	struct ir_policy *p;
	struct diag d;
	int n;

	snprintf(text, sizeof(text), "%s%s%s", before, arg, after);
	p = compile_ok(&d, text);
	n = d.warnings;
	*with = count(&d, DIAG_WARNING, "t.pol", msg);
	ir_policy_destroy(&p);
	diag_fini(&d);
	return n;
}

/* The companions' warning: none for a rule on the family alone (the
 * carve-out is theirs), one for a rule asking for what they refuse. */
static void test_companion_warnings(void **state)
{
	static const struct {
		const char *rule;
		int warns;
	} cases[] = {
	    {"allow socket", 0},
	    {"allow socket if domain in {AF_UNIX, AF_INET, AF_INET6}", 0},
	    {"allow socket if domain == AF_NETLINK", 0},
	    {"allow socket if domain != AF_UNIX", 0},
	    {"log socket if domain == AF_INET6", 0},
	    {"allow socket if domain == AF_INET && type & 0xf == SOCK_STREAM",
	     0},
	    {"allow socket if domain == AF_NETLINK && protocol == 0", 0},
	    {"kill socket if domain == AF_PACKET", 0},
	    {"allow socket if domain == AF_PACKET", 1},
	    {"allow socket if domain in {AF_INET, AF_PACKET}", 1},
	    {"allow socket if domain == AF_INET && type & 0xf == SOCK_RAW", 1},
	    {"allow socket if type & 0xf == SOCK_RAW", 1},
	    {"allow socket if domain == AF_NETLINK && protocol == 9", 1},
	    {"allow io_uring_setup", 1},
	    {"errno(ENOSYS) io_uring_enter", 1},
	};
	size_t i, with;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int n = warnings_of(
		    "policy \"p\" { syscalls default errno(EPERM) { ",
		    cases[i].rule, " } }", "egress companion", &with);

		if (n != cases[i].warns)
			fail_msg("'%s': %d warnings, want %d", cases[i].rule, n,
				 cases[i].warns);
		if (cases[i].warns && with != 1)
			fail_msg("'%s': not the companions' warning",
				 cases[i].rule);
	}
}

/* More loopback ports than polexec relays: valid, with one warning at the
 * entry that passes 256; overlaps counted once. */
static void test_loopback_port_warning(void **state)
{
	static const struct {
		const char *ports;
		size_t warns;
	} cases[] = {
	    {"8000-8255", 0}, {"8000-8200 8100-8255 8255", 0},
	    {"8000-8256", 1}, {"8000-8100 9000-9200 8050-8060", 1},
	    {"1-65535", 1},
	};
	size_t i, with;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		warnings_of("policy \"p\" { net none { loopback ",
			    cases[i].ports, " } }",
			    "polexec relays at most 256", &with);
		if (with != cases[i].warns)
			fail_msg("'%s': %zu warnings, want %zu", cases[i].ports,
				 with, cases[i].warns);
	}
}

/* An allow of a loopback address: one warning; a deny, a wider range or
 * another address: none. */
static void test_loopback_allow_warning(void **state)
{
	static const struct {
		const char *entry;
		size_t warns;
	} cases[] = {
	    {"allow 127.0.0.53:53 udp", 1},
	    {"allow 127.0.0.1:8080", 1},
	    {"allow 127.0.0.0/8", 1},
	    {"allow 0.0.0.0:80", 1},
	    {"allow [::1]:53 udp", 1},
	    {"allow [::]:80", 1},
	    {"allow [::ffff:127.0.0.1]:80", 1},
	    {"allow 10.0.0.2:53 udp", 0},
	    {"allow 0.0.0.0/0:443", 0},
	    {"allow 126.0.0.0/7", 0},
	    {"allow [::2]:80", 0},
	    {"deny 127.0.0.1", 0},
	    {"allow example.com:443", 0},
	};
	size_t i, with;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		warnings_of("policy \"p\" { net filtered { ", cases[i].entry,
			    " } }", "is a loopback address", &with);
		if (with != cases[i].warns)
			fail_msg("'%s': %zu warnings, want %zu", cases[i].entry,
				 with, cases[i].warns);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_policy_decides),
	    cmocka_unit_test(test_restating_is_silent),
	    cmocka_unit_test(test_order_independent),
	    cmocka_unit_test(test_fragment_decides),
	    cmocka_unit_test(test_fragments_disagree),
	    cmocka_unit_test(test_net_mode),
	    cmocka_unit_test(test_within_file),
	    cmocka_unit_test(test_companion_warnings),
	    cmocka_unit_test(test_loopback_port_warning),
	    cmocka_unit_test(test_loopback_allow_warning),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
