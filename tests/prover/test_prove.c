/* SPDX-License-Identifier: MIT */
/*
 * The prover, case by case: exact answers a sampled test could miss
 * (masks, unions of 64-bit ranges, CIDR unions, nested and variable
 * paths), the artifact re-validation (a compiled section that is not what
 * the IR compiles to is refused), the budget (undecided is an error, not
 * a verdict), the concrete evaluators, and the output formats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "polbin.h"
#include "polbin_write.h"
#include "prove/prove.h"
#include "sema/sema.h"
#include "../unit/compile_text.h"

#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The verdict (0 within, 1 exceeds) and the number of findings in dim. */
static int verdict(const char *old, const char *nw, enum prove_dim dim,
		   size_t *ndim)
{
	struct ir_policy *o = compile(old), *n = compile(nw);
	struct prove_result r;
	char err[256];
	int v;

	assert_int_equal(prove_boundary(o, n, NULL, &r, err, sizeof(err)),
			 PROVE_OK);
	if (ndim) {
		*ndim = 0;
		for (size_t i = 0; i < r.n; i++)
			*ndim += r.f[i].dim == dim;
	}
	v = r.exceeds;
	prove_result_free(&r);
	ir_policy_destroy(&o);
	ir_policy_destroy(&n);
	return v;
}

#define SYS(rules)                                                             \
	"policy \"p\" { syscalls default errno(EPERM) {\n" rules "\n} }"
#define FS(rules)  "policy \"p\" { fs {\n" rules "\n} }"
#define NET(rules) "policy \"p\" { net filtered {\n" rules "\n} }"

/* Pairs the sampled property test could get wrong by missing a point. */
static void test_exact_syscalls(void **state)
{
	static const struct {
		const char *old, *nw;
		int exceeds;
	} cases[] = {
	    /* A narrower mask tested for zero allows more. */
	    {SYS("allow clone if flags & 0xf0 == 0"),
	     SYS("allow clone if flags & 0x70 == 0"), 1},
	    {SYS("allow clone if flags & 0x70 == 0"),
	     SYS("allow clone if flags & 0xf0 == 0"), 0},
	    /* Masked equality: (x & 0xff) == 0x1f implies (x & 0xf0) ==
	     * 0x10. */
	    {SYS("allow clone if flags & 0xf0 == 0x10"),
	     SYS("allow clone if flags & 0xff == 0x1f"), 0},
	    /* Two 64-bit ranges meeting at 2^32 cover everything. */
	    {SYS("allow mmap if addr < 0x100000000\n"
		 "allow mmap if addr >= 0x100000000"),
	     SYS("allow mmap"), 0},
	    /* ... and with one value missing at the seam they do not. */
	    {SYS("allow mmap if addr < 0xffffffff\n"
		 "allow mmap if addr >= 0x100000000"),
	     SYS("allow mmap"), 1},
	    /* A bit either set or clear: complementary masks. */
	    {SYS("allow clone if flags & 0x3 != 0\n"
		 "allow clone if flags & 0x3 == 0"),
	     SYS("allow clone"), 0},
	    /* A stricter rule inside: kill below allow is within. */
	    {SYS("allow clone"), SYS("allow clone\nkill clone if flags == 5"),
	     0},
	    {SYS("allow clone\nkill clone if flags == 5"), SYS("allow clone"),
	     1},
	    /* 32-bit arguments: the high word is ignored by both. */
	    {SYS("allow socket if domain != 40"),
	     SYS("allow socket if domain < 40\nallow socket if domain > 40"),
	     0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t nd;

		if (verdict(cases[i].old, cases[i].nw, PROVE_DIM_SYSCALLS,
			    &nd) != cases[i].exceeds)
			fail_msg("case %zu: expected %s", i,
				 cases[i].exceeds ? "exceeds" : "within");
		assert_int_equal(nd, (size_t)cases[i].exceeds);
	}
}

static void test_exact_fs_net(void **state)
{
	static const struct {
		const char *old, *nw;
		enum prove_dim dim;
		int exceeds;
	} cases[] = {
	    {FS("ro /usr\nrw /usr/local"), FS("rw /usr/local/x\nro /usr/y"),
	     PROVE_DIM_FS, 0},
	    {FS("ro /usr/local"), FS("ro /usr"), PROVE_DIM_FS, 1},
	    {FS("ro /"), FS("ro ${W}/a\nro ~/b"), PROVE_DIM_FS, 0},
	    {FS("ro /a"), FS("ro ${W}"), PROVE_DIM_FS, 1},
	    {FS("ro ${W}"), FS("ro ${V}"), PROVE_DIM_FS, 1},
	    {FS("ro follow /a"), FS("ro follow /a"), PROVE_DIM_FS, 0},
	    {FS("ro /a"), FS("ro follow /a"), PROVE_DIM_FS, 1},
	    /* polexec binds ~ as ${HOME}: one folder, two spellings. */
	    {FS("rw ~/p"), FS("rw ${HOME}/p/q"), PROVE_DIM_FS, 0},
	    {FS("ro ~/p"), FS("rw optional ${HOME}/p"), PROVE_DIM_FS, 1},
	    {FS("ro optional ~/p"), FS("ro optional ${HOME}/p"), PROVE_DIM_FS,
	     0},
	    /* Start conditions on the world's content do not count: a
	     * rule made optional, or required, is within either way. */
	    {FS("ro ~/p"), FS("ro optional ${HOME}/p"), PROVE_DIM_FS, 0},
	    {FS("ro optional /a"), FS("ro /a"), PROVE_DIM_FS, 0},
	    {FS("ro /a"), FS("ro optional /a\nro /a/b"), PROVE_DIM_FS, 0},
	    {FS("ro /a"), FS("ro optional /a\nrw /a/b"), PROVE_DIM_FS, 1},
	    /* OLD's follow covers NEW's plain rule: no symlink, same path. */
	    {FS("ro follow /a"), FS("ro /a/b"), PROVE_DIM_FS, 0},
	    {NET("allow 10.0.0.0/9\nallow 10.128.0.0/9"),
	     NET("allow 10.0.0.0/8"), PROVE_DIM_NET, 0},
	    {NET("allow 0.0.0.0/1 128.0.0.0/1 ::/1 8000::/1"),
	     NET("allow 0.0.0.0/0 ::/0 api.example.com"), PROVE_DIM_NET, 0},
	    {NET("allow 0.0.0.0/1 128.0.0.0/1"), NET("allow api.example.com"),
	     PROVE_DIM_NET, 1},
	    {NET("allow 10.0.0.0/8:1-100 10.0.0.0/8:101-65535 10.0.0.0/8:0"),
	     NET("allow 10.0.0.0/8"), PROVE_DIM_NET, 0},
	    {NET("allow 10.0.0.0/8\ndeny 10.1.0.0/16:443"),
	     NET("allow 10.0.0.0/8:443\ndeny 10.1.0.0/16"), PROVE_DIM_NET, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t nd;

		if (verdict(cases[i].old, cases[i].nw, cases[i].dim, &nd) !=
		    cases[i].exceeds)
			fail_msg("case %zu: expected %s", i,
				 cases[i].exceeds ? "exceeds" : "within");
		assert_int_equal(nd > 0, cases[i].exceeds);
	}
}

/* Undecided is never a verdict: one step, no Z3, cannot decide. */
static void test_budget_undecided(void **state)
{
	struct ir_policy *o = compile(SYS("allow clone if flags & 0xf0 == 0\n"
					  "allow clone if flags & 0x1 == 1"));
	struct ir_policy *n = compile(SYS("allow clone if flags & 0x70 == 0"));
	struct prove_opts opts = {1, 1, 1, 0};
	struct prove_result r;
	char err[256];

	(void)state;
	assert_int_equal(prove_boundary(o, n, &opts, &r, err, sizeof(err)),
			 PROVE_UNDECIDED);
	assert_non_null(strstr(err, "undecided"));
	assert_int_equal(r.n, 0);
	assert_int_equal(prove_boundary(o, n, NULL, &r, err, sizeof(err)),
			 PROVE_OK);
	assert_true(r.exceeds);
	prove_result_free(&r);
	ir_policy_destroy(&o);
	ir_policy_destroy(&n);
}

/*
 * Rules over several arguments at once refuted case by case blow the
 * clause search up; past its budget the syscall goes to Z3, which must
 * give the same answers.
 */
static void test_z3_route(void **state)
{
	static const char *const product =
	    SYS("allow mmap if addr in {0, 1, 2} && len in {0, 1, 2} && "
		"prot in {0, 1, 2}");
	static const struct {
		const char *nw;
		int exceeds;
	} cases[] = {
	    {SYS("allow mmap if addr < 3 && len < 3 && prot < 3"), 0},
	    {SYS("allow mmap if addr < 3 && len <= 3 && prot < 3"), 1},
	    {SYS("allow mmap if addr == 2 && len == 1"), 1},
	};
	struct ir_policy *o = compile(product);
	struct prove_opts tiny = {1, 0, 1, 0};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct ir_policy *n = compile(cases[i].nw);
		struct prove_result r;
		char err[256];

		for (int b = 0; b < 2; b++) {
			assert_int_equal(prove_boundary(o, n, b ? &tiny : NULL,
							&r, err, sizeof(err)),
					 PROVE_OK);
			if (r.exceeds != cases[i].exceeds)
				fail_msg("case %zu, budget %s: expected %s", i,
					 b ? "1" : "default",
					 cases[i].exceeds ? "exceeds"
							  : "within");
			prove_result_free(&r);
		}
		ir_policy_destroy(&n);
	}
	ir_policy_destroy(&o);
}

/* The one finding of a check on syscall `name`, with the route taken. */
static const struct prove_finding *sys_finding(const char *old, const char *nw,
					       const char *name,
					       const struct prove_opts *opts,
					       struct prove_result *r)
{
	struct ir_policy *o = compile(old), *n = compile(nw);
	const struct prove_finding *f = NULL;
	char err[256];

	assert_int_equal(prove_boundary(o, n, opts, r, err, sizeof(err)),
			 PROVE_OK);
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].dim == PROVE_DIM_SYSCALLS &&
		    !strncmp(r->f[i].witness, name, strlen(name)) &&
		    r->f[i].witness[strlen(name)] == '(') {
			assert_null(f);
			f = &r->f[i];
		}
	assert_non_null(f);
	ir_policy_destroy(&o);
	ir_policy_destroy(&n);
	return f;
}

/*
 * The witness is the most permissive excess on both routes: where NEW
 * answers errno(EACCES) against kill_process almost everywhere and allow
 * at one vector, that vector is the witness, also when the clause search
 * runs past its budget and Z3 decides. Forced with a budget of one step,
 * and reached with the default budget by a 4096-rule cartesian product.
 */
/* The witness: allow against kill_process at (a0, a1, a2). */
static void allow_against_kill(const struct prove_finding *f, uint64_t a0,
			       uint64_t a1, uint64_t a2)
{
	assert_string_equal(f->new_s, "allow");
	assert_string_equal(f->old_s, "kill_process");
	assert_int_equal(f->sys.args[0], a0);
	assert_int_equal(f->sys.args[1], a1);
	assert_int_equal(f->sys.args[2], a2);
}

#define CUBE   6
#define CUBE_S "6"
static void test_z3_witness_most_permissive(void **state)
{
	static const char *const old =
	    "policy \"p\" { syscalls { allow read } }";
	static const char *const nw =
	    "policy \"p\" { syscalls default errno(EACCES) {\n"
	    "  allow socket if domain == 5 && type == 3 && protocol == 7\n"
	    "} }";
	struct prove_opts tiny = {1, 0, 1, 0};
	struct prove_result r;
	const struct prove_finding *f;
	char *big_old;
	const char *big_new;
	size_t len = 0;
	FILE *m;

	(void)state;
	for (int b = 0; b < 2; b++) {
		f = sys_finding(old, nw, "socket", b ? &tiny : NULL, &r);
		assert_true(b ? r.z3_syscalls == 1 : r.z3_syscalls == 0);
		allow_against_kill(f, 5, 3, 7);
		prove_result_free(&r);
	}
	/* 6 x 6 x 6 allows but one: finding the missing one among them
	 * takes the clause search past its 2^16 steps. NEW allows it, and
	 * answers EACCES outside the cube. */
	m = open_memstream(&big_old, &len);
	assert_non_null(m);
	fputs("policy \"p\" { syscalls {\n", m);
	for (int a = 0; a < CUBE; a++)
		for (int l = 0; l < CUBE; l++) {
			fprintf(m,
				" allow mmap if addr == %d && len == %d && "
				"prot in {",
				a, l);
			for (int i = 0, k = 0; i < CUBE; i++)
				if (a != 3 || l != 4 || i != 2)
					fprintf(m, "%s%d", k++ ? ", " : "", i);
			fputs("}\n", m);
		}
	fputs("} }", m);
	assert_int_equal(fclose(m), 0);
	big_new = "policy \"p\" { syscalls default errno(EACCES) {\n"
		  " allow mmap if addr < " CUBE_S " && len < " CUBE_S
		  " && prot < " CUBE_S "\n} }";
	/* Past the budget the values the rules name decide it (7^3
	 * points); with that route off, Z3 does: the same witness. */
	f = sys_finding(big_old, big_new, "mmap", NULL, &r);
	assert_int_equal(r.brute_syscalls, 1);
	assert_int_equal(r.z3_syscalls, 0);
	allow_against_kill(f, 3, 4, 2);
	prove_result_free(&r);
	{
		struct prove_opts z3 = {0, 0, 1, 0};

		f = sys_finding(big_old, big_new, "mmap", &z3, &r);
		assert_int_equal(r.z3_syscalls, 1);
		allow_against_kill(f, 3, 4, 2);
		prove_result_free(&r);
	}
	free(big_old);
}

/*
 * Issue 29: two one-syscall policies of four getpriority rules, each a
 * product of three `in` sets of at most five values. Past the budget, the
 * values decide it (no Z3 query); both ways round, the verdict and the
 * most permissive witness.
 */
static void test_products_by_values(void **state)
{
	static const char *const old =
	    "policy \"o\" { syscalls default errno(EPERM) {\n"
	    " allow getpriority if arg0 in {0, 1, 2} && arg1 in {1, 2, 3, 4, "
	    "5} && arg2 in {7, 8, 9}\n"
	    " errno(EACCES) getpriority if arg0 in {1, 2} && arg1 in {3, 4, "
	    "5, 6, 7} && arg2 in {8, 9, 10, 11}\n"
	    " log getpriority if arg0 in {0, 2, 4, 5} && arg1 in {10, 11, "
	    "12} && arg2 in {1, 2, 3, 4, 5}\n"
	    " kill getpriority if arg0 in {3, 4} && arg1 in {1, 6, 11, 16, "
	    "21} && arg2 in {0, 9}\n} }";
	static const char *const nw =
	    "policy \"n\" { syscalls default errno(EPERM) {\n"
	    " allow getpriority if arg0 in {0, 1} && arg1 in {1, 2, 3} && "
	    "arg2 in {7, 8}\n"
	    " errno(EACCES) getpriority if arg0 in {1, 2, 3} && arg1 in {3, "
	    "4, 5, 6} && arg2 in {8, 9, 10}\n"
	    " log getpriority if arg0 in {0, 2, 4} && arg1 in {10, 11, 12, "
	    "13} && arg2 in {1, 2, 3}\n"
	    " kill getpriority if arg0 in {3, 4, 5} && arg1 in {1, 6, 11, "
	    "16} && arg2 in {0, 9, 12}\n} }";
	struct prove_result r;
	const struct prove_finding *f;

	(void)state;
	/* NEW logs getpriority(0, 13, 1..3): OLD's default errno there */
	f = sys_finding(old, nw, "getpriority", NULL, &r);
	assert_int_equal(r.brute_syscalls, 1);
	assert_int_equal(r.z3_queries, 0);
	assert_string_equal(f->new_s, "log");
	assert_string_equal(f->old_s, "errno(EPERM)");
	prove_result_free(&r);
	/* the other way: OLD allows (2, 4, 9), which NEW answers EACCES;
	 * allow is the most permissive excess */
	f = sys_finding(nw, old, "getpriority", NULL, &r);
	assert_int_equal(r.brute_syscalls, 1);
	assert_string_equal(f->new_s, "allow");
	prove_result_free(&r);
}

/* ---- Artifacts ------------------------------------------------------- */

/*
 * An artifact of p whose compiled sections are those of `other`'s IR
 * (NULL: p's own), with `drop` left out and `extra` (type) added.
 */
static uint8_t *artifact(const struct ir_policy *p,
			 const struct ir_policy *other, uint32_t drop,
			 uint32_t extra, uint32_t flip_flags, size_t *len)
{
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	struct compiled c;
	uint8_t *ir = NULL, *out = NULL;
	size_t irlen;
	char err[256];

	assert_non_null(w);
	assert_int_equal(ir_serialize(p, &ir, &irlen), IR_OK);
	assert_int_equal(
	    polbin_writer_add(w, POLBIN_SEC_IR, POLBIN_F_CRITICAL, ir, irlen),
	    0);
	assert_int_equal(
	    backends_compile(other ? other : p, &c, err, sizeof(err)), 0);
	for (size_t i = 0; i < c.n; i++) {
		uint32_t flags = c.sec[i].flags;

		if (c.sec[i].type == drop)
			continue;
		if (c.sec[i].type == flip_flags)
			flags ^= POLBIN_F_CRITICAL;
		assert_int_equal(polbin_writer_add(w, c.sec[i].type, flags,
						   c.sec[i].data, c.sec[i].len),
				 0);
	}
	if (extra)
		assert_int_equal(polbin_writer_add(w, extra, 0, "x", 1), 0);
	assert_int_equal(polbin_writer_finish(w, &out, len), 0);
	backends_free(&c);
	polbin_writer_destroy(&w);
	free(ir);
	return out;
}

static void load_expect(uint8_t *buf, size_t len, int rc, const char *msg)
{
	struct ir_policy *p = NULL;
	char err[512] = "";

	assert_int_equal(prove_load_artifact(buf, len, &p, err, sizeof(err)),
			 rc);
	if (rc == PROVE_OK) {
		assert_non_null(p);
		ir_policy_destroy(&p);
	} else {
		assert_null(p);
		if (!strstr(err, msg))
			fail_msg("error '%s', expected '%s'", err, msg);
	}
	free(buf);
}

static void test_artifact_revalidation(void **state)
{
	static const char *mismatch =
	    "artifact's compiled sections do not match its IR";
	struct ir_policy *p = compile(SYS("allow read write\nkill ptrace") "");
	struct ir_policy *q = compile(SYS("allow read write ptrace"));
	size_t len;
	uint8_t *buf;

	(void)state;
	buf = artifact(p, NULL, 0, 0, 0, &len);
	load_expect(buf, len, PROVE_OK, NULL);
	/* q's seccomp program under p's IR: p would be judged, q enforced. */
	buf = artifact(p, q, 0, 0, 0, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	buf = artifact(p, NULL, POLBIN_SEC_SECCOMP, 0, 0, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	buf = artifact(p, NULL, POLBIN_SEC_ENV, 0, 0, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	buf = artifact(p, NULL, 0, POLBIN_SEC_NFT, 0, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	buf = artifact(p, NULL, 0, 0, POLBIN_SEC_SECCOMP, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	/* The run record's programs are re-derived too: none, marked
	 * critical, or q's (whose NOTIFY would let ptrace through) under
	 * p's decision program. */
	buf = artifact(p, NULL, POLBIN_SEC_OBSERVE, 0, 0, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	buf = artifact(p, NULL, 0, 0, POLBIN_SEC_OBSERVE, &len);
	load_expect(buf, len, PROVE_EINVAL, mismatch);
	{
		struct polbin_writer *w =
		    polbin_writer_create(AUDIT_ARCH_X86_64);
		struct compiled cp, cq;
		uint8_t *ir = NULL;
		size_t irlen;
		char err[256];

		assert_int_equal(ir_serialize(p, &ir, &irlen), IR_OK);
		assert_int_equal(polbin_writer_add(w, POLBIN_SEC_IR,
						   POLBIN_F_CRITICAL, ir,
						   irlen),
				 0);
		assert_int_equal(backends_compile(p, &cp, err, sizeof(err)), 0);
		assert_int_equal(backends_compile(q, &cq, err, sizeof(err)), 0);
		for (size_t i = 0; i < cp.n; i++) {
			const struct compiled_section *c =
			    cp.sec[i].type == POLBIN_SEC_OBSERVE
				? backends_find(&cq, POLBIN_SEC_OBSERVE)
				: &cp.sec[i];

			assert_non_null(c);
			assert_int_equal(polbin_writer_add(w, c->type, c->flags,
							   c->data, c->len),
					 0);
		}
		assert_int_equal(polbin_writer_finish(w, &buf, &len), 0);
		backends_free(&cp);
		backends_free(&cq);
		polbin_writer_destroy(&w);
		free(ir);
		load_expect(buf, len, PROVE_EINVAL, mismatch);
	}
	/* No IR at all. */
	{
		struct polbin_writer *w =
		    polbin_writer_create(AUDIT_ARCH_X86_64);

		assert_int_equal(
		    polbin_writer_add(w, POLBIN_SEC_META, 0, "", 0), 0);
		assert_int_equal(polbin_writer_finish(w, &buf, &len), 0);
		polbin_writer_destroy(&w);
		load_expect(buf, len, PROVE_EINVAL, "no IR section");
	}
	ir_policy_destroy(&p);
	ir_policy_destroy(&q);
}

/* ---- Evaluators ------------------------------------------------------ */

static void test_fs_evaluator(void **state)
{
	struct ir_policy *p = compile(FS("ro /a\nrw follow /a/l\nro ${W}/x\n"
					 "allow execute on /a/plain"));
	struct prove_fs_world lit = {.fresh = "F"};
	struct prove_fs_world sym = {.fresh = "F", .symlink = "/a/l"};
	struct prove_fs_world sym2 = {.fresh = "F", .symlink = "/a"};
	char t[64];

	(void)state;
	prove_fs_target("F", t, sizeof(t));
	assert_string_equal(t, "/F/target");
	assert_int_equal(prove_fs_rights(p, &lit, "/a/b"), IR_FS_RO);
	assert_int_equal(prove_fs_rights(p, &lit, "/b"), 0);
	assert_int_equal(prove_fs_rights(p, &lit, "${W}/x/y"), IR_FS_RO);
	assert_int_equal(prove_fs_rights(p, &lit, "/F/var/W/x"), IR_FS_RO);
	assert_int_equal(prove_fs_rights(p, &lit, "${W}"), 0);
	/* /a/l a symlink: the follow rule lands on the target. */
	assert_true(prove_fs_rights(p, &sym, t) & IR_FS_WRITE_FILE);
	assert_false(prove_fs_rights(p, &lit, t) & IR_FS_WRITE_FILE);
	/* /a a symlink: rules through it without follow are not installed. */
	assert_int_equal(prove_fs_rights(p, &sym2, "/a/plain"), 0);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { env { pass A } }");
	assert_int_equal(prove_fs_rights(p, &lit, "/x"), IR_FS_ALL);
	ir_policy_destroy(&p);
}

static void test_net_evaluator(void **state)
{
	struct ir_policy *p =
	    compile(NET("allow 10.0.0.0/8:443 api.example.com:80\n"
			"deny 10.1.0.0/16\nloopback 8080"));
	struct ir_policy *h =
	    compile("policy \"h\" { net host { connect 443 } }");
	struct ir_policy *h0 = compile("policy \"h\" { net host }");
	struct prove_net_point d = {.kind = PROVE_NET_ADDR,
				    .family = IR_ADDR_V4,
				    .proto = IR_PROTO_TCP,
				    .addr = {10, 2, 3, 4},
				    .port = 443};

	(void)state;
	assert_int_equal(prove_net_allows(p, &d), 1);
	d.addr[1] = 1;
	assert_int_equal(prove_net_allows(p, &d), 0); /* the deny wins */
	d.port = 80;
	d.name = "api.example.com";
	assert_int_equal(prove_net_allows(p, &d), 0); /* deny, even so */
	d.addr[1] = 2;
	assert_int_equal(prove_net_allows(p, &d), 1);
	d.proto = IR_PROTO_UDP;
	assert_int_equal(prove_net_allows(p, &d), 0);
	d.kind = PROVE_NET_LOOPBACK;
	d.proto = IR_PROTO_TCP;
	d.port = 8080;
	assert_int_equal(prove_net_allows(p, &d), 1);
	assert_int_equal(prove_net_allows(h, &d), 0);
	d.port = 443;
	assert_int_equal(prove_net_allows(h, &d), 1);
	/* Host ports: with a connect rule, binding is denied; with none,
	 * nothing is restricted. */
	d.kind = PROVE_NET_BIND;
	assert_int_equal(prove_net_allows(h, &d), 0);
	assert_int_equal(prove_net_allows(h0, &d), 1);
	d.kind = PROVE_NET_HOSTNET;
	assert_int_equal(prove_net_allows(p, &d), 0);
	assert_int_equal(prove_net_allows(h0, &d), 1);
	/* The host's network namespace, under the cgroup backend: where the
	 * caller may ask for it (auto, programs in the artifact), or the
	 * policy forces it; never `backend namespace`, nor a plain none. */
	d.kind = PROVE_NET_SHARED;
	assert_int_equal(prove_net_allows(p, &d), 1);
	assert_int_equal(prove_net_allows(h0, &d), 1);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { net filtered backend namespace "
		    "{ allow 10.0.0.1:443 } }");
	assert_int_equal(prove_net_allows(p, &d), 0);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { net none }");
	assert_int_equal(prove_net_allows(p, &d), 0);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { net none { loopback 8080 } }");
	assert_int_equal(prove_net_allows(p, &d), 1);
	ir_policy_destroy(&p);
	p = compile("policy \"p\" { net none backend cgroup }");
	assert_int_equal(prove_net_allows(p, &d), 1);
	ir_policy_destroy(&p);
	ir_policy_destroy(&h);
	ir_policy_destroy(&h0);
}

/* ---- Output ---------------------------------------------------------- */

static char *print(const struct prove_result *r, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(json ? prove_print_json(r, f) : prove_print_text(r, f),
			 0);
	fclose(f);
	return buf;
}

static void test_output(void **state)
{
	struct ir_policy *o = compile("policy \"o\" { env { pass A } }");
	struct ir_policy *n = compile("policy \"n\" { env { set "
				      "A=\"q\\\"b\\\\t\\tx\" } }");
	struct prove_result r;
	char err[256], *s;

	(void)state;
	assert_int_equal(prove_boundary(o, n, NULL, &r, err, sizeof(err)),
			 PROVE_OK);
	assert_int_equal(r.n, 1);
	s = print(&r, 1);
	assert_non_null(strstr(s, "{\"schema_version\":1,\"verdict\":"
				  "\"exceeds\",\"findings\":[{\"dimension\":"
				  "\"env\",\"witness\":\"A\",\"new\":\"set "
				  "A=q\\\"b\\\\t\\u0009x\",\"boundary\":"
				  "\"pass A\"}],\"notes\":[]}"));
	free(s);
	s = print(&r, 0);
	/* The tab is not printed to a terminal. */
	assert_string_equal(s, "env: A: new set A=q\"b\\t?x, boundary pass A\n"
			       "verdict: exceeds (1 finding)\n");
	free(s);
	prove_result_free(&r);
	assert_int_equal(prove_boundary(o, o, NULL, &r, err, sizeof(err)),
			 PROVE_OK);
	s = print(&r, 1);
	assert_string_equal(s, "{\"schema_version\":1,\"verdict\":\"within\","
			       "\"findings\":[],\"notes\":[]}\n");
	free(s);
	prove_result_free(&r);
	ir_policy_destroy(&o);
	ir_policy_destroy(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_exact_syscalls),
	    cmocka_unit_test(test_exact_fs_net),
	    cmocka_unit_test(test_budget_undecided),
	    cmocka_unit_test(test_z3_route),
	    cmocka_unit_test(test_z3_witness_most_permissive),
	    cmocka_unit_test(test_products_by_values),
	    cmocka_unit_test(test_artifact_revalidation),
	    cmocka_unit_test(test_fs_evaluator),
	    cmocka_unit_test(test_net_evaluator),
	    cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
