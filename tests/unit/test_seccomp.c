// SPDX-License-Identifier: MIT
/*
 * The seccomp backend on hand-built IR: every action, argument rules
 * (masked, 64-bit across the 32-bit boundary, int arguments with a dirty
 * upper half), rule resolution, bad arches, the size limit, and the
 * translation validator, which must accept what the backend generates and
 * catch a program corrupted by one instruction, naming a witness.
 *
 * Expected return values are written as literal SECCOMP_RET_* constants,
 * not through the backend's table, so a wrong table fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>

#include "bpf_interp.h"
#include "bpf_symbolic.h"
#include "backend/backend.h"
#include "seccomp_fixtures.h"

#define N(a)	       (sizeof(a) / sizeof((a)[0]))
#define R_KILL_PROCESS 0x80000000u
#define R_KILL_THREAD  0x00000000u
#define R_TRAP	       0x00030000u
#define R_ERRNO(e)     (0x00050000u | (e))
#define R_LOG	       0x7ffc0000u
#define R_ALLOW	       0x7fff0000u

#define ALLOW fx_act(IR_ACT_ALLOW)
#define KILLP fx_act(IR_ACT_KILL_PROCESS)

struct prog {
	struct sock_filter *insns;
	size_t n;
};

static struct prog gen(const struct ir_policy *p)
{
	struct prog g;
	char err[256];

	if (seccomp_generate(p, &g.insns, &g.n, err, sizeof(err)))
		fail_msg("seccomp_generate: %s", err);
	return g;
}

static int nr_of(const char *name)
{
	int nr = seccomp_syscall_nr(name);

	assert_true(nr >= 0);
	return nr;
}

static struct bpf_run_result run_full(const struct prog *g, uint32_t arch,
				      uint32_t nr, const uint64_t args[6])
{
	struct seccomp_data d = {.nr = (int)nr, .arch = arch};
	struct bpf_run_result r;
	char err[128];

	if (args)
		memcpy(d.args, args, sizeof(d.args));
	if (bpf_run(g->insns, g->n, &d, &r, err, sizeof(err)))
		fail_msg("bpf_run: %s", err);
	return r;
}

static uint32_t run1(const struct prog *g, const char *name, uint64_t a0,
		     uint64_t a1)
{
	uint64_t args[6] = {a0, a1, 0, 0, 0, 0};

	return run_full(g, AUDIT_ARCH_X86_64, (uint32_t)nr_of(name), args).ret;
}

static struct seccomp_validate_stats validate_ok(const struct ir_policy *p,
						 const struct prog *g)
{
	struct seccomp_validate_stats st;
	char err[512];
	int r =
	    seccomp_validate_stats(p, g->insns, g->n, 0, &st, err, sizeof(err));

	if (r)
		fail_msg("seccomp_validate = %d: %s", r, err);
	return st;
}

/* Everything was decided without creating a Z3 context. */
static void no_z3(struct seccomp_validate_stats st)
{
	if (st.z3_syscalls || st.z3_ranges)
		fail_msg("%u numbers and %u ranges needed Z3", st.z3_syscalls,
			 st.z3_ranges);
}

/* The program agrees with ir_eval_syscall on every listed syscall, for
 * each value in every argument position and in all at once. */
static void agrees_with_ir(const struct ir_policy *p, const struct prog *g,
			   const uint64_t *vals, size_t nvals)
{
	for (uint32_t c = 0; c < p->sys.ncalls; c++) {
		const struct ir_syscall *sc = &p->sys.calls[c];

		for (size_t v = 0; v < nvals; v++) {
			for (int pos = -1; pos < 6; pos++) {
				uint64_t args[6] = {0};
				struct ir_action want;
				uint32_t got, exp;

				for (int i = 0; i < 6; i++)
					if (pos < 0 || pos == i)
						args[i] = vals[v];
				want = ir_eval_syscall(&p->sys, sc, args);
				assert_int_equal(
				    seccomp_action_value(&want, &exp), 0);
				got = run_full(g, AUDIT_ARCH_X86_64,
					       (uint32_t)nr_of(sc->name), args)
					  .ret;
				if (got != exp)
					fail_msg("%s pos %d value 0x%llx: "
						 "program 0x%x, IR 0x%x",
						 sc->name, pos,
						 (unsigned long long)vals[v],
						 got, exp);
			}
		}
	}
}

static const uint64_t boundary[] = {
    0,
    1,
    5,
    7,
    8,
    40,
    0xff,
    0xffffffff,
    0x100000000,
    0x100000001,
    0x100000028,
    0x1000000ff,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0xfffffffffffffffeull,
    ~0ull,
};

/* ---- Actions and layout ------------------------------------------------ */

static size_t find(const struct prog *g, uint16_t code, uint32_t k);

static void test_every_action(void **state)
{
	struct ir_policy *p =
	    fx_policy(fx_errno(EPERM), fx_act(IR_ACT_KILL_THREAD));
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "write", fx_act(IR_ACT_LOG), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "getpid", fx_errno(EACCES), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "kill", fx_act(IR_ACT_TRAP), 0, NULL), 0);
	assert_int_equal(
	    fx_rule(p, "ptrace", fx_act(IR_ACT_KILL_THREAD), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "mount", KILLP, 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	assert_int_equal(run1(&g, "read", 0, 0), R_ALLOW);
	assert_int_equal(run1(&g, "write", 0, 0), R_LOG);
	assert_int_equal(run1(&g, "getpid", 0, 0), R_ERRNO(EACCES));
	assert_int_equal(run1(&g, "kill", 0, 0), R_TRAP);
	assert_int_equal(run1(&g, "ptrace", 0, 0), R_KILL_THREAD);
	assert_int_equal(run1(&g, "mount", 0, 0), R_KILL_PROCESS);
	assert_int_equal(run1(&g, "uname", 0, 0), R_ERRNO(EPERM));
	/* One RET per distinct action: 7 actions, 7 RETs at most (far
	 * jumps may copy a RET, this program has none). */
	size_t rets = 0;

	for (size_t i = 0; i < g.n; i++)
		rets += BPF_CLASS(g.insns[i].code) == BPF_RET;
	assert_int_equal(rets, 7);
	/* Arch check first, then nr, then the tree, which has the x32
	 * range as an interval of its own: some jge compares its bound. */
	assert_int_equal(g.insns[0].code, BPF_LD | BPF_W | BPF_ABS);
	assert_int_equal(g.insns[0].k, 4);
	assert_int_equal(g.insns[1].k, AUDIT_ARCH_X86_64);
	assert_int_equal(g.insns[2].k, 0);
	assert_true(
	    find(&g, BPF_JMP | BPF_JGE | BPF_K, SECCOMP_X32_SYSCALL_BIT) > 2);
	validate_ok(p, &g);
	free(g.insns);
	ir_policy_destroy(&p);
}

static void test_bad_arches(void **state)
{
	struct ir_policy *p = fx_policy(ALLOW, KILLP);
	uint32_t nr_read = (uint32_t)nr_of("read");
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	/* Default allow, yet x32 and i386 are killed. */
	assert_int_equal(run_full(&g, AUDIT_ARCH_X86_64, nr_read, NULL).ret,
			 R_ALLOW);
	assert_int_equal(run_full(&g, AUDIT_ARCH_X86_64, 999, NULL).ret,
			 R_ALLOW);
	assert_int_equal(
	    run_full(&g, AUDIT_ARCH_X86_64, 0x40000000 | nr_read, NULL).ret,
	    R_KILL_PROCESS);
	assert_int_equal(run_full(&g, AUDIT_ARCH_X86_64, 0x40000000, NULL).ret,
			 R_KILL_PROCESS);
	assert_int_equal(run_full(&g, AUDIT_ARCH_X86_64, 0xffffffff, NULL).ret,
			 R_KILL_PROCESS);
	assert_int_equal(run_full(&g, AUDIT_ARCH_X86_64, 0x80000000, NULL).ret,
			 R_KILL_PROCESS);
	assert_int_equal(run_full(&g, AUDIT_ARCH_I386, 3, NULL).ret,
			 R_KILL_PROCESS);
	assert_int_equal(run_full(&g, AUDIT_ARCH_AARCH64, 63, NULL).ret,
			 R_KILL_PROCESS);
	validate_ok(p, &g);
	free(g.insns);
	/* A bad-arch action that lets the call through is refused. */
	char err[256];

	p->sys.badarch = ALLOW;
	assert_int_equal(seccomp_generate(p, &g.insns, &g.n, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bad-arch"));
	p->sys.badarch = fx_act(IR_ACT_LOG);
	assert_int_equal(seccomp_generate(p, &g.insns, &g.n, err, sizeof(err)),
			 -1);
	ir_policy_destroy(&p);
}

/* ---- Argument rules ---------------------------------------------------- */

static void test_args_64bit_across_boundary(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom gt = fx_atom(1, 64, IR_OP_GT, 0, 0xffffffff);
	struct ir_atom lt = fx_atom(1, 64, IR_OP_LT, 0, 0x100000005);
	struct ir_atom eq = fx_atom(0, 64, IR_OP_EQ, 0, 0x100000000);
	struct ir_atom ge = fx_atom(0, 64, IR_OP_GE, 0, 0x200000000);
	struct ir_atom le = fx_atom(0, 64, IR_OP_LE, 0, 0x1ffffffff);
	struct ir_atom ne = fx_atom(1, 64, IR_OP_NE, 0, 0x100000000);
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "lseek", ALLOW, 1, &gt), 0);
	assert_int_equal(fx_rule(p, "pread64", ALLOW, 1, &lt), 0);
	assert_int_equal(fx_rule(p, "pwrite64", ALLOW, 1, &eq), 0);
	struct ir_atom both[2] = {ge, ne};

	assert_int_equal(fx_rule(p, "ftruncate", ALLOW, 2, both), 0);
	assert_int_equal(fx_rule(p, "fallocate", ALLOW, 1, &le), 0);
	fx_finish(p);
	g = gen(p);
	/* lseek: arg1 > 0xffffffff */
	assert_int_equal(run1(&g, "lseek", 0, 0xffffffff), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "lseek", 0, 0x100000000), R_ALLOW);
	assert_int_equal(run1(&g, "lseek", 0, ~0ull), R_ALLOW);
	/* pread64: arg1 < 0x100000005 */
	assert_int_equal(run1(&g, "pread64", 0, 0x100000004), R_ALLOW);
	assert_int_equal(run1(&g, "pread64", 0, 0x100000005), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "pread64", 0, 0xffffffff), R_ALLOW);
	assert_int_equal(run1(&g, "pread64", 0, 0x200000000), R_ERRNO(EPERM));
	/* pwrite64: arg0 == 2^32, not 0 (same low word) */
	assert_int_equal(run1(&g, "pwrite64", 0x100000000, 0), R_ALLOW);
	assert_int_equal(run1(&g, "pwrite64", 0, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "pwrite64", 0x200000000, 0), R_ERRNO(EPERM));
	/* ftruncate: arg0 >= 2^33 && arg1 != 2^32 */
	assert_int_equal(run1(&g, "ftruncate", 0x200000000, 0), R_ALLOW);
	assert_int_equal(run1(&g, "ftruncate", 0x200000000, 0x100000000),
			 R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "ftruncate", 0x1ffffffff, 0), R_ERRNO(EPERM));
	/* fallocate: arg0 <= 0x1ffffffff */
	assert_int_equal(run1(&g, "fallocate", 0x1ffffffff, 0), R_ALLOW);
	assert_int_equal(run1(&g, "fallocate", 0x200000000, 0), R_ERRNO(EPERM));
	agrees_with_ir(p, &g, boundary, N(boundary));
	validate_ok(p, &g);
	free(g.insns);
	ir_policy_destroy(&p);
}

static void test_args_masked(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	/* a mask over both words */
	struct ir_atom m64 = fx_atom(2, 64, IR_OP_EQ, 0x0000ff00000000ffull,
				     0x0000120000000034ull);
	/* flags & MASK == 0, the clone shape */
	struct ir_atom none = fx_atom(0, 32, IR_OP_EQ, 0x7E020000, 0);
	/* masked order comparison */
	struct ir_atom mgt = fx_atom(0, 32, IR_OP_GT, 0xf0, 0x30);
	struct ir_atom mne = fx_atom(3, 64, IR_OP_NE, 0xffff000000000000ull,
				     0x1234000000000000ull);
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "mmap", ALLOW, 1, &m64), 0);
	assert_int_equal(fx_rule(p, "clone", ALLOW, 1, &none), 0);
	assert_int_equal(fx_rule(p, "fcntl", ALLOW, 1, &mgt), 0);
	assert_int_equal(fx_rule(p, "mprotect", ALLOW, 1, &mne), 0);
	fx_finish(p);
	g = gen(p);
	uint64_t a[6] = {0, 0, 0x0000129999999934ull, 0, 0, 0};

	assert_int_equal(
	    run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("mmap"), a).ret,
	    R_ALLOW);
	a[2] = 0x0000139999999934ull;
	assert_int_equal(
	    run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("mmap"), a).ret,
	    R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "clone", 0x01000011, 0), R_ALLOW);
	assert_int_equal(run1(&g, "clone", 0x10000000, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "fcntl", 0x4f, 0), R_ALLOW);
	assert_int_equal(run1(&g, "fcntl", 0x3f, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "fcntl", 0xffffff4f, 0), R_ALLOW);
	uint64_t masks[] = {0x1234000000000000ull, 0x1234ffffffffffffull,
			    0x1235000000000000ull, 0x123400000000007full};

	agrees_with_ir(p, &g, boundary, N(boundary));
	agrees_with_ir(p, &g, masks, N(masks));
	validate_ok(p, &g);
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * socket(family) takes an int: the kernel ignores the upper half, so
 * 40 + 2^32 is AF_VSOCK to it. Width 32 compares the low word only (the
 * high word is never loaded); a width-64 rule would let it through.
 */
static void test_int_arg_dirty_upper_half(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom ne32 = fx_atom(0, 32, IR_OP_NE, 0, 40);
	struct ir_atom ne64 = fx_atom(0, 64, IR_OP_NE, 0, 40);
	uint64_t dirty[6] = {0x100000028}; /* 40 + 2^32 */
	struct bpf_run_result r;
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "socket", ALLOW, 1, &ne32), 0);
	assert_int_equal(fx_rule(p, "socketpair", ALLOW, 1, &ne64), 0);
	fx_finish(p);
	g = gen(p);
	assert_int_equal(run1(&g, "socket", 40, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "socket", 1, 0), R_ALLOW);
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("socket"), dirty);
	assert_int_equal(r.ret, R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "socket", 0xffffffff00000001ull, 0), R_ALLOW);
	/* The high word of args[0] (word 5) was never read. */
	assert_false(r.loaded & (1u << 5));
	assert_true(r.loaded & (1u << 4));
	/* The 64-bit rule sees a value different from 40. */
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("socketpair"),
		     dirty);
	assert_int_equal(r.ret, R_ALLOW);
	agrees_with_ir(p, &g, boundary, N(boundary));
	validate_ok(p, &g);
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * Overlapping rules: the most restrictive action that holds wins, the
 * smaller errno among errnos, whatever the order of the rules.
 */
static void test_resolution_order(void **state)
{
	struct ir_policy *p = fx_policy(fx_act(IR_ACT_LOG), KILLP);
	struct ir_atom lt10 = fx_atom(0, 64, IR_OP_LT, 0, 10);
	struct ir_atom gt5 = fx_atom(0, 64, IR_OP_GT, 0, 5);
	struct ir_atom eq7 = fx_atom(0, 64, IR_OP_EQ, 0, 7);
	struct ir_atom eq100 = fx_atom(0, 32, IR_OP_EQ, 0, 100);
	struct ir_atom ge8[2] = {fx_atom(0, 64, IR_OP_GE, 0, 8),
				 fx_atom(1, 64, IR_OP_EQ, 0, 0)};
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "prctl", ALLOW, 1, &lt10), 0);
	assert_int_equal(fx_rule(p, "prctl", fx_errno(EACCES), 2, ge8), 0);
	assert_int_equal(fx_rule(p, "prctl", fx_errno(EPERM), 1, &gt5), 0);
	assert_int_equal(fx_rule(p, "prctl", KILLP, 1, &eq7), 0);
	assert_int_equal(fx_rule(p, "prctl", fx_act(IR_ACT_TRAP), 1, &eq100),
			 0);
	/* an unconditional rule less strict than some conditional ones */
	assert_int_equal(fx_rule(p, "prctl", fx_errno(EINVAL), 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	assert_int_equal(run1(&g, "prctl", 3, 0), R_ERRNO(EINVAL));
	assert_int_equal(run1(&g, "prctl", 6, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "prctl", 7, 0), R_KILL_PROCESS);
	assert_int_equal(run1(&g, "prctl", 8, 0), R_ERRNO(EPERM));
	assert_int_equal(run1(&g, "prctl", 100, 0), R_TRAP);
	assert_int_equal(run1(&g, "prctl", 0x100000064, 0), R_TRAP);
	uint64_t vals[16];

	for (int i = 0; i < 16; i++)
		vals[i] = (uint64_t)i * 7;
	agrees_with_ir(p, &g, vals, N(vals));
	agrees_with_ir(p, &g, boundary, N(boundary));
	validate_ok(p, &g);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* No argument is read before the dispatch reaches a syscall that tests
 * one: unconditional syscalls stay in the kernel's constant-action cache. */
static void test_unconditional_reads_no_argument(void **state)
{
	struct ir_policy *p = fx_docker_policy(NULL, NULL);
	struct prog g;
	size_t checked = 0;

	(void)state;
	assert_non_null(p);
	g = gen(p);
	for (int nr = 0; nr < 512; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
		const struct ir_syscall *sc =
		    name ? ir_find_syscall(&p->sys, name) : NULL;
		int conditional = 0;
		uint64_t args[6] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
		struct bpf_run_result r =
		    run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr, args);

		for (uint32_t i = 0; sc && i < sc->nrules; i++)
			conditional |= sc->rules[i].natoms > 0;
		if (!conditional) {
			if (r.loaded & (BPF_LOADED_ARGS | BPF_LOADED_IP))
				fail_msg("%s (%d) reads an argument",
					 name ? name : "?", nr);
			checked++;
		}
		free(name);
	}
	assert_true(checked > 450);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* ---- Limits and refusals ----------------------------------------------- */

static void test_too_many_instructions_refused(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct sock_filter *insns = NULL;
	size_t n = 0;
	char err[256];

	(void)state;
	/* 2000 distinct 64-bit values, a few instructions each. */
	for (uint64_t i = 0; i < 2000; i++) {
		struct ir_atom a =
		    fx_atom(0, 64, IR_OP_EQ, 0, (i << 32) | (i * 3 + 1));

		assert_int_equal(fx_rule(p, "ioctl", ALLOW, 1, &a), 0);
	}
	fx_finish(p);
	assert_int_equal(seccomp_generate(p, &insns, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "4096"));
	assert_null(insns);
	assert_int_equal(n, 0);
	ir_policy_destroy(&p);
}

static void test_refusals(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct sock_filter *insns;
	size_t n;
	char err[256];

	(void)state;
	/* socketcall exists on i386, not on x86_64 */
	assert_int_equal(fx_rule(p, "socketcall", ALLOW, 0, NULL), 0);
	assert_int_equal(seccomp_generate(p, &insns, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "socketcall"));
	ir_policy_destroy(&p);
	p = fx_policy(fx_errno(5000), KILLP);
	assert_int_equal(seccomp_generate(p, &insns, &n, err, sizeof(err)), -1);
	ir_policy_destroy(&p);
	p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom bad = fx_atom(6, 64, IR_OP_EQ, 0, 1);

	assert_int_equal(fx_rule(p, "read", ALLOW, 1, &bad), 0);
	assert_int_equal(seccomp_generate(p, &insns, &n, err, sizeof(err)), -1);
	ir_policy_destroy(&p);
	assert_int_equal(seccomp_syscall_nr("read"), 0);
	assert_int_equal(seccomp_syscall_nr("no_such_call"), -1);
	assert_int_equal(seccomp_syscall_nr("socketcall"), -1);
}

/*
 * No path loads a word the accumulator already holds: for every jump
 * whose target is `ld k` (optionally followed by `and #m`), the state
 * before the jump must not be word k (unmasked, or masked by m). The
 * states come from a forward pass over the program (jumps only go
 * forward; A is unknown at the start).
 */
static void assert_no_reload(const struct prog *g)
{
	enum { NONE, ANY, WORD };
	struct st {
		int kind;
		uint32_t off, mask;
	} *in = calloc(g->n + 1, sizeof(*in));
	size_t reloads = 0;

	assert_non_null(in);
	in[0].kind = ANY;
	for (size_t pc = 0; pc < g->n; pc++) {
		const struct sock_filter *f = &g->insns[pc];
		struct st s = in[pc], out = s;
		size_t t[2];
		int nt = 0;

		if (s.kind == NONE)
			continue;
		if (f->code == (BPF_LD | BPF_W | BPF_ABS))
			out = (struct st){WORD, f->k, 0xffffffffu};
		else if (f->code == (BPF_ALU | BPF_AND | BPF_K))
			out = s.kind == WORD
				  ? (struct st){WORD, s.off, s.mask & f->k}
				  : (struct st){ANY, 0, 0};
		else if (BPF_CLASS(f->code) == BPF_JMP) {
			if (BPF_OP(f->code) == BPF_JA)
				t[nt++] = pc + 1 + f->k;
			else {
				t[nt++] = pc + 1 + f->jt;
				t[nt++] = pc + 1 + f->jf;
			}
		} else if (BPF_CLASS(f->code) == BPF_RET)
			continue;
		else
			out = (struct st){ANY, 0, 0};
		if (BPF_CLASS(f->code) != BPF_JMP)
			t[nt++] = pc + 1;
		for (int i = 0; i < nt; i++) {
			struct st *d = &in[t[i]];
			const struct sock_filter *to = &g->insns[t[i]];

			assert_true(t[i] < g->n);
			if (BPF_CLASS(f->code) == BPF_JMP && s.kind == WORD &&
			    to->code == (BPF_LD | BPF_W | BPF_ABS) &&
			    to->k == s.off &&
			    (s.mask == 0xffffffffu ||
			     (t[i] + 1 < g->n &&
			      g->insns[t[i] + 1].code ==
				  (BPF_ALU | BPF_AND | BPF_K) &&
			      g->insns[t[i] + 1].k == s.mask)))
				reloads++;
			if (d->kind == NONE)
				*d = out;
			else if (d->kind != WORD || out.kind != WORD ||
				 d->off != out.off || d->mask != out.mask)
				d->kind = ANY;
		}
	}
	free(in);
	assert_int_equal(reloads, 0);
}

static struct ir_policy *socket_policy(void)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom a[3];
	static const uint64_t fams[] = {1, 2, 10};
	static const uint64_t pers[] = {0, 8, 0x20000};

	/* The egress companions, and allows by family. */
	a[0] = fx_atom(0, 32, IR_OP_EQ, 0, 17);
	assert_int_equal(fx_rule(p, "socket", fx_errno(EACCES), 1, a), 0);
	for (int f = 1; f < 3; f++) {
		a[0] = fx_atom(0, 32, IR_OP_EQ, 0, fams[f]);
		a[1] = fx_atom(1, 32, IR_OP_EQ, 0xf, 3);
		assert_int_equal(fx_rule(p, "socket", fx_errno(EACCES), 2, a),
				 0);
	}
	a[0] = fx_atom(0, 32, IR_OP_EQ, 0, 16);
	a[1] = fx_atom(2, 32, IR_OP_NE, 0, 0);
	assert_int_equal(fx_rule(p, "socket", fx_errno(EACCES), 2, a), 0);
	for (int f = 0; f < 3; f++) {
		a[0] = fx_atom(0, 32, IR_OP_EQ, 0, fams[f]);
		assert_int_equal(fx_rule(p, "socket", ALLOW, 1, a), 0);
	}
	a[0] = fx_atom(0, 32, IR_OP_EQ, 0, 16);
	a[1] = fx_atom(2, 32, IR_OP_EQ, 0, 0);
	a[2] = fx_atom(2, 64, IR_OP_EQ, 0xffffffff00000000ull, 0);
	assert_int_equal(fx_rule(p, "socket", ALLOW, 3, a), 0);
	/* personality by value, the upper half zero (as an import has it) */
	for (int v = 0; v < 3; v++) {
		a[0] = fx_atom(0, 32, IR_OP_EQ, 0, pers[v]);
		a[1] = fx_atom(0, 64, IR_OP_EQ, 0xffffffff00000000ull, 0);
		assert_int_equal(fx_rule(p, "personality", ALLOW, 2, a), 0);
	}
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	fx_finish(p);
	return p;
}

/*
 * The argument blocks: no word loaded twice on a path, and a failed test
 * teaches the path what it needs (issue 14's "socket reloads args[0]
 * three times"): socket(AF_NETLINK, *, NETLINK_ROUTE) fails the companion
 * and goes straight to the allow rule's upper-half test.
 */
static void test_arg_block_paths(void **state)
{
	struct ir_policy *p = socket_policy();
	struct prog g = gen(p);
	const struct {
		uint64_t fam, type, proto;
		uint32_t want;
		size_t max;
	} v[] = {
	    /* the paths as this generator lays them out, the dispatch
	     * included: a longer one is a regression */
	    {16, 3, 0, R_ALLOW, 16},	     {16, 3, 9, R_ERRNO(EACCES), 14},
	    {10, 3, 0, R_ERRNO(EACCES), 14}, {10, 1, 0, R_ALLOW, 14},
	    {2, 1, 0, R_ALLOW, 13},	     {1, 1, 0, R_ALLOW, 13},
	    {40, 1, 0, R_ERRNO(EPERM), 16},  {0x100000010, 3, 0, R_ALLOW, 16},
	};
	uint32_t nr = (uint32_t)nr_of("socket");

	(void)state;
	validate_ok(p, &g);
	assert_no_reload(&g);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t args[6] = {v[i].fam, v[i].type, v[i].proto};
		struct bpf_run_result r =
		    run_full(&g, AUDIT_ARCH_X86_64, nr, args);

		assert_int_equal(r.ret, v[i].want);
		if (r.executed > v[i].max)
			fail_msg("socket(%#llx, %llu, %llu): %zu instructions, "
				 "at most %zu",
				 (unsigned long long)v[i].fam,
				 (unsigned long long)v[i].type,
				 (unsigned long long)v[i].proto, r.executed,
				 v[i].max);
	}
	free(g.insns);
	ir_policy_destroy(&p);
	/* The Docker-like fixture has no reload on any path either. */
	p = fx_docker_policy(NULL, NULL);
	g = gen(p);
	assert_no_reload(&g);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* ---- The validator ----------------------------------------------------- */

static size_t find(const struct prog *g, uint16_t code, uint32_t k)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->insns[i].code == code && g->insns[i].k == k)
			return i;
	fail_msg("instruction 0x%x #0x%x not found", code, k);
	return 0;
}

static struct seccomp_validate_stats expect_mismatch(const struct ir_policy *p,
						     const struct prog *g,
						     const char *want1,
						     const char *want2)
{
	struct seccomp_validate_stats st;
	char err[512] = "";
	int r =
	    seccomp_validate_stats(p, g->insns, g->n, 0, &st, err, sizeof(err));

	if (r != 1)
		fail_msg("validate returned %d (%s)", r, err);
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		fail_msg("message \"%s\" lacks \"%s\"/\"%s\"", err, want1,
			 want2 ? want2 : "");
	return st;
}

static void test_validator_catches_corruption(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom ne = fx_atom(0, 32, IR_OP_NE, 0, 40);
	struct prog g;
	size_t i;

	(void)state;
	assert_int_equal(fx_rule(p, "socket", ALLOW, 1, &ne), 0);
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "write", ALLOW, 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	no_z3(validate_ok(p, &g));

	/* Swap the branches of the family test: needs an argument witness. */
	i = find(&g, BPF_JMP | BPF_JEQ | BPF_K, 40);
	uint8_t t = g.insns[i].jt;

	g.insns[i].jt = g.insns[i].jf;
	g.insns[i].jf = t;
	no_z3(expect_mismatch(p, &g, "socket(arg0=0x", "policy"));
	g.insns[i].jf = g.insns[i].jt;
	g.insns[i].jt = t;
	no_z3(validate_ok(p, &g));

	/* Make the family test 64-bit-blind the other way: 41 instead. */
	g.insns[i].k = 41;
	no_z3(expect_mismatch(p, &g, "socket(arg0=0x", NULL));
	g.insns[i].k = 40;

	/* Flip the ALLOW return to LOG. */
	i = find(&g, BPF_RET | BPF_K, R_ALLOW);
	g.insns[i].k = R_LOG;
	no_z3(expect_mismatch(p, &g, "program log, policy allow", NULL));
	g.insns[i].k = R_ALLOW;

	/* Let x32 numbers through the dispatch. */
	i = find(&g, BPF_JMP | BPF_JGE | BPF_K, SECCOMP_X32_SYSCALL_BIT);
	g.insns[i].k = 0x50000000;
	no_z3(expect_mismatch(p, &g, "x32 syscall 0x4", "policy kill_process"));
	g.insns[i].k = SECCOMP_X32_SYSCALL_BIT;

	/* Accept i386 as if it were x86_64. */
	g.insns[1].k = AUDIT_ARCH_I386;
	no_z3(expect_mismatch(p, &g, "policy", NULL));
	g.insns[1].k = AUDIT_ARCH_X86_64;

	/* A jump out of the program. */
	g.insns[3].jf = 200;
	expect_mismatch(p, &g, "invalid", NULL);
	free(g.insns);
	ir_policy_destroy(&p);
}

static void test_validator_accepts_docker(void **state)
{
	struct ir_policy *p = fx_docker_policy(NULL, NULL);
	struct seccomp_validate_stats st;
	size_t corrupted = 0;
	struct prog g;

	(void)state;
	assert_non_null(p);
	g = gen(p);
	assert_true(g.n < 200);
	st = validate_ok(p, &g);
	no_z3(st);
	/* personality, clone and socket read arguments; every range too. */
	assert_int_equal(st.exact_syscalls, 3);
	assert_int_equal(st.exact_ranges, 5);
	assert_true(st.concrete > 300);
	/* Every argument test corrupted in turn is caught, without Z3. */
	for (size_t i = 4; i < g.n; i++) {
		struct sock_filter *f = &g.insns[i];

		if (BPF_CLASS(f->code) != BPF_JMP ||
		    BPF_OP(f->code) == BPF_JA || f->k == AUDIT_ARCH_X86_64)
			continue;
		/* Only tests inside argument blocks: after an argument load. */
		size_t j = i;

		while (j > 0 && g.insns[j].code != (BPF_LD | BPF_W | BPF_ABS))
			j--;
		if (g.insns[j].k < BPF_OFF_ARG(0))
			continue;
		f->k ^= 1;
		no_z3(expect_mismatch(p, &g, "(arg0=0x", "policy"));
		f->k ^= 1;
		corrupted++;
	}
	assert_true(corrupted >= 5);
	/* Corrupting the dispatch tree is noticed on some number. */
	for (size_t i = 4; i < g.n; i++) {
		if (g.insns[i].code == (BPF_JMP | BPF_JGE | BPF_K)) {
			g.insns[i].k += 1;
			expect_mismatch(p, &g, "program", "policy");
			g.insns[i].k -= 1;
			break;
		}
	}
	free(g.insns);
	ir_policy_destroy(&p);
}

static int no_leaf(struct bpf_sym *s, const struct bpf_sym_path *path,
		   void *user)
{
	(void)s;
	(void)path;
	(void)user;
	return 0;
}

/*
 * 24 rules "bit i of arg0 and bit i of arg1", each able to fail at either
 * test independently of the others: 2^24 paths through the ioctl block.
 * Validation switches to the merged result term, and still finds a
 * corruption.
 */
static void test_validator_many_paths(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct seccomp_validate_stats st;
	struct bpf_sym *s;
	struct prog g;
	char err[256];

	(void)state;
	for (int i = 0; i < 24; i++) {
		struct ir_atom two[2] = {fx_atom(0, 32, IR_OP_NE, 1u << i, 0),
					 fx_atom(1, 32, IR_OP_NE, 1u << i, 0)};

		assert_int_equal(fx_rule(p, "ioctl", ALLOW, 2, two), 0);
	}
	fx_finish(p);
	g = gen(p);
	/* Path by path gives up... */
	assert_int_equal(bpf_sym_create(&s, 10000, err, sizeof(err)), 0);
	bpf_sym_set_max_paths(s, 1024);
	assert_int_equal(
	    bpf_sym_explore(s, g.insns, g.n,
			    bpf_sym_u32(s, (uint32_t)nr_of("ioctl")),
			    bpf_sym_u32(s, AUDIT_ARCH_X86_64), NULL, no_leaf,
			    NULL, err, sizeof(err)),
	    BPF_SYM_PATH_LIMIT);
	bpf_sym_destroy(&s);
	/* ...the validator does not: the exact route runs out of budget on
	 * ioctl alone and hands it to Z3's merged query. */
	st = validate_ok(p, &g);
	assert_int_equal(st.z3_syscalls, 1);
	assert_int_equal(st.z3_ranges, 0);
	size_t i = find(&g, BPF_JMP | BPF_JSET | BPF_K, 1u << 17);

	g.insns[i].k = 1u << 18;
	/* (Found by whichever route gets there: a witness is a witness.) */
	expect_mismatch(p, &g, "ioctl(arg0=0x", "policy");
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * Products of `in` sets on three arguments (issue 29): too many paths for
 * the exact route, few values. The values decide it, no Z3 query, and a
 * constant changed in one test is still caught.
 */
static void test_validator_brute_products(void **state)
{
	static const uint64_t sets[4][3][5] = {
	    {{0, 1, 2}, {1, 2, 3, 4, 5}, {7, 8, 9}},
	    {{1, 2}, {3, 4, 5, 6, 7}, {8, 9, 10, 11}},
	    {{0, 2, 4, 5}, {10, 11, 12}, {1, 2, 3, 4, 5}},
	    {{3, 4}, {1, 6, 11, 16, 21}, {0, 9}},
	};
	static const unsigned lens[4][3] = {
	    {3, 5, 3}, {2, 5, 4}, {4, 3, 5}, {2, 5, 2}};
	const struct ir_action acts[4] = {ALLOW, fx_errno(EACCES),
					  fx_act(IR_ACT_LOG), KILLP};
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct seccomp_validate_stats st;
	struct prog g;
	size_t i;

	(void)state;
	for (int r = 0; r < 4; r++)
		for (unsigned a = 0; a < lens[r][0]; a++)
			for (unsigned b = 0; b < lens[r][1]; b++)
				for (unsigned c = 0; c < lens[r][2]; c++) {
					struct ir_atom t[3] = {
					    fx_atom(0, 32, IR_OP_EQ, 0,
						    sets[r][0][a]),
					    fx_atom(1, 32, IR_OP_EQ, 0,
						    sets[r][1][b]),
					    fx_atom(2, 64, IR_OP_EQ, 0,
						    sets[r][2][c])};

					assert_int_equal(fx_rule(p,
								 "getpriority",
								 acts[r], 3, t),
							 0);
				}
	fx_finish(p);
	g = gen(p);
	st = validate_ok(p, &g);
	assert_int_equal(st.z3_syscalls, 1);
	assert_int_equal(st.brute_syscalls, 1);
	/* A test of arg1 == 21 made arg1 == 22, found by the values (the
	 * exact route skipped: it might find it first). */
	i = find(&g, BPF_JMP | BPF_JEQ | BPF_K, 21);
	g.insns[i].k = 22;
	{
		char err[512] = "";

		assert_int_equal(seccomp_validate_stats(
				     p, g.insns, g.n, SECCOMP_VALIDATE_NO_EXACT,
				     &st, err, sizeof(err)),
				 1);
		assert_non_null(strstr(err, "getpriority(arg0=0x"));
	}
	assert_int_equal(st.brute_syscalls, 1);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* A policy without argument rules never needs Z3, nor reads an argument. */
static void test_validator_no_arguments_no_z3(void **state)
{
	struct ir_policy *p = fx_policy(fx_act(IR_ACT_KILL_PROCESS), KILLP);
	struct seccomp_validate_stats st;
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "ptrace", fx_errno(EPERM), 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	st = validate_ok(p, &g);
	no_z3(st);
	assert_int_equal(st.exact_syscalls, 0);
	assert_int_equal(st.exact_ranges, 5);
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * 64-bit tests across the word boundary, corrupted: the witness must
 * combine both words of the argument, and comes without Z3.
 */
static void test_validator_64bit_witness(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom lt = fx_atom(1, 64, IR_OP_LT, 0, 0x100000005ull);
	struct ir_atom ne = fx_atom(2, 64, IR_OP_NE, 0xffff0000ffff0000ull,
				    0x1234000056780000ull);
	struct prog g;
	size_t i;

	(void)state;
	assert_int_equal(fx_rule(p, "lseek", ALLOW, 1, &lt), 0);
	assert_int_equal(fx_rule(p, "mprotect", ALLOW, 1, &ne), 0);
	fx_finish(p);
	g = gen(p);
	no_z3(validate_ok(p, &g));
	/* lseek: the low-word bound 5 becomes 6. */
	i = find(&g, BPF_JMP | BPF_JGE | BPF_K, 5);
	g.insns[i].k = 6;
	no_z3(expect_mismatch(p, &g, "lseek(arg0=0x0, arg1=0x100000005",
			      "program allow, policy errno(EPERM)"));
	g.insns[i].k = 5;
	/* mprotect: the high-word constant 0x1234 becomes 0x1235. */
	i = find(&g, BPF_JMP | BPF_JEQ | BPF_K, 0x12340000);
	g.insns[i].k = 0x12350000;
	no_z3(expect_mismatch(p, &g, "mprotect(arg0=0x0, arg1=0x0, arg2=0x123",
			      "policy"));
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * A program outside the generator's fragment (an X-register load, here
 * harmless) is still validated: those parts fall back to Z3, which must
 * accept the program and catch its corruption.
 */
static void test_validator_outside_fragment(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct ir_atom ne = fx_atom(0, 32, IR_OP_NE, 0, 40);
	struct seccomp_validate_stats st;
	struct prog g, h;
	size_t i;

	(void)state;
	assert_int_equal(fx_rule(p, "socket", ALLOW, 1, &ne), 0);
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	fx_finish(p);
	g = gen(p);
	/* Jumps are relative: one instruction in front changes nothing. */
	h.n = g.n + 1;
	h.insns = calloc(h.n, sizeof(*h.insns));
	assert_non_null(h.insns);
	h.insns[0] = (struct sock_filter)BPF_STMT(BPF_LDX | BPF_IMM, 0);
	memcpy(h.insns + 1, g.insns, g.n * sizeof(*g.insns));
	st = validate_ok(p, &h);
	assert_int_equal(st.z3_syscalls, 1);
	assert_int_equal(st.z3_ranges, 5);
	i = find(&h, BPF_JMP | BPF_JEQ | BPF_K, 40);
	h.insns[i].k = 41;
	st = expect_mismatch(p, &h, "socket(arg0=0x", "policy");
	assert_int_equal(st.z3_syscalls, 1);
	free(h.insns);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* ---- Random policies --------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t pick(uint64_t *s, const uint64_t *set, size_t n)
{
	return rnd(s) % 4 ? set[rnd(s) % n] : rnd(s);
}

static const char *const rnd_names[] = {"read",	  "ioctl", "socket",
					"clone",  "prctl", "mmap",
					"openat", "kill",  "fcntl"};

/* A random policy over rnd_names: up to 3 rules each, up to 2 atoms. */
static struct ir_policy *random_policy(uint64_t *seed)
{
	static const uint64_t masks[] = {0,
					 0,
					 0,
					 0xff,
					 0xffffffff00000000ull,
					 0x7E020000,
					 0x0000ff00000000ffull};
	/* errnos 1, 2 and ENOSYS (a rule's is not notified, the default's
	 * is: docs/OBSERVE.md), and 0 for a rule */
	static const uint16_t errnos[] = {0, 1, 2, ENOSYS};
	struct ir_policy *p =
	    fx_policy(fx_errno(errnos[1 + rnd(seed) % 3]), KILLP);

	assert_non_null(p);
	for (size_t c = 0; c < N(rnd_names); c++) {
		int nrules = (int)(rnd(seed) % 4);

		for (int r = 0; r < nrules; r++) {
			struct ir_atom atoms[3];
			uint32_t natoms = (uint32_t)(rnd(seed) % 3);
			uint8_t kind = (uint8_t)(rnd(seed) % 6);
			struct ir_action act = {
			    kind,
			    kind == IR_ACT_ERRNO ? errnos[rnd(seed) % 4] : 0};

			for (uint32_t a = 0; a < natoms; a++)
				atoms[a] =
				    fx_atom((uint8_t)(rnd(seed) % 3),
					    rnd(seed) % 2 ? 32 : 64,
					    (uint8_t)(rnd(seed) % 6),
					    pick(seed, masks, N(masks)),
					    pick(seed, boundary, N(boundary)));
			assert_int_equal(
			    fx_rule(p, rnd_names[c], act, natoms, atoms), 0);
		}
	}
	fx_finish(p);
	return p;
}

static void test_random_policies(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int round = 0; round < 40; round++) {
		struct ir_policy *p = random_policy(&seed);
		struct prog g = gen(p);

		agrees_with_ir(p, &g, boundary, N(boundary));
		no_z3(validate_ok(p, &g));
		free(g.insns);
		ir_policy_destroy(&p);
	}
}

/* Does instruction i work on an argument (the last load before it)? */
static int in_arg_block(const struct prog *g, size_t i)
{
	while (i > 0 && g->insns[i].code != (BPF_LD | BPF_W | BPF_ABS))
		i--;
	return g->insns[i].k >= BPF_OFF_ARG(0);
}

/*
 * Change one instruction past the arch check at random, in an argument
 * block three times in four when there is one: a corrupted dispatch is
 * mostly caught by the concrete runs, before either route is asked.
 */
static void corrupt(struct prog *g, uint64_t *seed)
{
	int args = 0;

	for (size_t i = 3; i < g->n; i++)
		args |= in_arg_block(g, i);
	args &= rnd(seed) % 4 != 0;
	for (;;) {
		size_t i = 3 + rnd(seed) % (g->n - 3);
		struct sock_filter *f = &g->insns[i];
		uint8_t t;

		if (args && BPF_CLASS(f->code) != BPF_RET &&
		    !in_arg_block(g, i))
			continue;

		switch (BPF_CLASS(f->code)) {
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA)
				continue;
			switch (rnd(seed) % 3) {
			case 0:
				t = f->jt;
				f->jt = f->jf;
				f->jf = t;
				break;
			case 1:
				f->k += rnd(seed) % 2 ? 1 : -1u;
				break;
			default:
				f->k ^= 1u << (rnd(seed) % 32);
				break;
			}
			return;
		case BPF_ALU:
			f->k ^= 1u << (rnd(seed) % 32);
			return;
		case BPF_LD:
			/* Another argument word: still a valid load. */
			if (f->k >= BPF_OFF_ARG(0)) {
				f->k = BPF_OFF_ARG(0) +
				       4 * (uint32_t)(rnd(seed) % 12);
				return;
			}
			continue;
		case BPF_RET:
			f->k = rnd(seed) % 2 ? R_ALLOW : R_ERRNO(1);
			return;
		default:
			continue;
		}
	}
}

/*
 * The exact route against Z3 on randomly corrupted programs: both must
 * reach the same verdict (and a mismatch is only ever reported with a
 * replayed witness). The unchanged programs are covered above.
 */
static void test_exact_agrees_with_z3(void **state)
{
	uint64_t seed = 0x2545f4914f6cdd1dull;
	int mismatches = 0, same = 0;

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct ir_policy *p = random_policy(&seed);
		struct prog g = gen(p);
		struct seccomp_validate_stats st;
		char e1[512], e2[512];
		int r1, r2;

		corrupt(&g, &seed);
		r1 = seccomp_validate_stats(p, g.insns, g.n, 0, &st, e1,
					    sizeof(e1));
		r2 = seccomp_validate_stats(p, g.insns, g.n,
					    SECCOMP_VALIDATE_FORCE_Z3, NULL, e2,
					    sizeof(e2));
		if (r1 != r2 || r1 < 0)
			fail_msg("round %d: exact %d (%s), Z3 %d (%s)", round,
				 r1, r1 ? e1 : "", r2, r2 ? e2 : "");
		no_z3(st);
		if (r1)
			mismatches++;
		else
			same++;
		free(g.insns);
		ir_policy_destroy(&p);
	}
	/* Both verdicts must occur, or the comparison proves little. */
	print_message("corrupted: %d caught, %d still equal\n", mismatches,
		      same);
	assert_true(mismatches >= 10 && same >= 1);
}

/* ---- The observation programs (docs/OBSERVE.md) ---------------------- */

#define R_NOTIF 0x7fc00000u

static const char *const obs_names[] = {"unlink", "open",     "openat",
					"creat",  "execve",   "getpid",
					"rmdir",  "ftruncate"};

static int listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

/*
 * What a variant returns, written from docs/OBSERVE.md here again, not
 * through seccomp_observe.c: a wrong entry there fails here.
 */
static uint32_t spec_variant(const struct ir_policy *p, enum seccomp_variant v,
			     const char *name, const uint64_t args[6])
{
	static const char *const destructive[] = {
	    "unlink",	 "unlinkat", "rmdir",	  "rename", "renameat",
	    "renameat2", "truncate", "ftruncate", "creat",  "openat2"};
	static const char *const paths[] = {
	    "creat",   "execve",  "execveat",  "link",	   "linkat",
	    "mkdir",   "mkdirat", "mknod",     "mknodat",  "open",
	    "openat",  "openat2", "rename",    "renameat", "renameat2",
	    "rmdir",   "symlink", "symlinkat", "truncate", "unlink",
	    "unlinkat"};
	const struct ir_syscall *sc = ir_find_syscall(&p->sys, name);
	struct ir_action a = ir_eval_syscall(&p->sys, sc, args);
	int obs = 0;
	uint32_t val;

	assert_int_equal(seccomp_action_value(&a, &val), 0);
	if (v == SECCOMP_EXPLAIN) {
		int i = ir_explain_syscall(sc, args);
		uint32_t code = 2;

		if (i < 0)
			return 0;
		for (const struct ir_syscall *c = p->sys.calls; c < sc; c++)
			code += c->nrules;
		return code + (uint32_t)i;
	}
	/* a rule's errno(ENOSYS) is a fallback, not a denial: not notified */
	if (v == SECCOMP_NOTIFY && a.kind == IR_ACT_ERRNO &&
	    a.errnum == ENOSYS && ir_explain_syscall(sc, args) >= 0)
		return val;
	if (v == SECCOMP_NOTIFY &&
	    (a.kind == IR_ACT_ERRNO || a.kind == IR_ACT_KILL_PROCESS))
		return R_NOTIF;
	if (v == SECCOMP_LEARN && a.kind != IR_ACT_ALLOW &&
	    a.kind != IR_ACT_LOG)
		return R_NOTIF;
	if (a.kind != IR_ACT_ALLOW || v == SECCOMP_DECIDE)
		return val;
	if (p->fs.observe & IR_OBSERVE_DESTRUCTIVE)
		obs = listed(name, destructive, N(destructive)) ||
		      (!strcmp(name, "open") && (args[1] & 01000)) ||
		      (!strcmp(name, "openat") && (args[2] & 01000));
	if (v == SECCOMP_LEARN && p->fs.present)
		obs |= listed(name, paths, N(paths));
	return obs ? R_NOTIF : val;
}

static struct prog gen_variant(const struct ir_policy *p,
			       enum seccomp_variant v)
{
	struct prog g;
	char err[256];

	if (seccomp_generate_variant(p, v, &g.insns, &g.n, err, sizeof(err)))
		fail_msg("seccomp_generate_variant(%d): %s", v, err);
	return g;
}

/* The variant agrees with spec_variant() on the names, for each value in
 * every argument position and in all at once, and O_TRUNC alone. */
static void variant_agrees(const struct ir_policy *p, enum seccomp_variant v,
			   const struct prog *g)
{
	static const uint64_t extra[] = {01000, 01101, 0x100000000ull | 01000,
					 0x100000000ull};

	for (size_t c = 0; c < N(rnd_names) + N(obs_names); c++) {
		const char *name = c < N(rnd_names)
				       ? rnd_names[c]
				       : obs_names[c - N(rnd_names)];

		for (size_t k = 0; k < N(boundary) + N(extra); k++) {
			uint64_t val = k < N(boundary) ? boundary[k]
						       : extra[k - N(boundary)];

			for (int pos = -1; pos < 6; pos++) {
				uint64_t args[6] = {0};
				uint32_t got, exp;

				for (int i = 0; i < 6; i++)
					if (pos < 0 || pos == i)
						args[i] = val;
				exp = spec_variant(p, v, name, args);
				got = run_full(g, AUDIT_ARCH_X86_64,
					       (uint32_t)nr_of(name), args)
					  .ret;
				if (got != exp)
					fail_msg("variant %d: %s pos %d value "
						 "0x%llx: program 0x%x, spec "
						 "0x%x",
						 v, name, pos,
						 (unsigned long long)val, got,
						 exp);
			}
		}
	}
}

static struct seccomp_validate_stats variant_ok(const struct ir_policy *p,
						enum seccomp_variant v,
						const struct prog *g)
{
	struct seccomp_validate_stats st;
	char err[512];
	int r = seccomp_validate_variant(p, v, g->insns, g->n, 0, &st, err,
					 sizeof(err));

	if (r)
		fail_msg("seccomp_validate_variant(%d) = %d: %s", v, r, err);
	return st;
}

/* A random policy, with an fs section and `observe destructive` or not. */
static struct ir_policy *random_observed(uint64_t *seed)
{
	struct ir_policy *p = random_policy(seed);

	p->fs.present = rnd(seed) % 2;
	if (p->fs.present && rnd(seed) % 2) {
		p->fs.observe = IR_OBSERVE_DESTRUCTIVE;
		p->fs.workspace = strdup("${WORKSPACE}");
		assert_non_null(p->fs.workspace);
	}
	return p;
}

/*
 * Every variant of random policies: equal to the specification written
 * above on concrete points, proven by the validator without Z3, and the
 * decision variant byte for byte the decision program.
 */
static void test_variants_random(void **state)
{
	uint64_t seed = 0x853c49e6748fea9bull;

	(void)state;
	for (int round = 0; round < 40; round++) {
		struct ir_policy *p = random_observed(&seed);
		struct prog d = gen(p), v0 = gen_variant(p, SECCOMP_DECIDE);

		assert_int_equal(d.n, v0.n);
		assert_memory_equal(d.insns, v0.insns, d.n * sizeof(*d.insns));
		for (int v = SECCOMP_NOTIFY; v <= SECCOMP_EXPLAIN; v++) {
			struct prog g = gen_variant(p, (enum seccomp_variant)v);

			variant_agrees(p, (enum seccomp_variant)v, &g);
			no_z3(variant_ok(p, (enum seccomp_variant)v, &g));
			free(g.insns);
		}
		free(d.insns);
		free(v0.insns);
		ir_policy_destroy(&p);
	}
}

/*
 * The notify program keeps the kernel's fast path: a syscall the policy
 * allows without condition returns straight from the dispatch, so the
 * kernel's constant-action cache still decides it; only open and openat
 * under `observe destructive` read their flags.
 */
static void test_notify_keeps_allows_cached(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	uint64_t args[6] = {0, 0, 01101, 0, 0, 0};
	struct bpf_run_result r;
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "openat", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "ptrace", KILLP, 0, NULL), 0);
	fx_finish(p);
	g = gen_variant(p, SECCOMP_NOTIFY);
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("read"), NULL);
	assert_int_equal(r.ret, R_ALLOW);
	assert_false(r.loaded & BPF_LOADED_ARGS);
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("openat"), args);
	assert_int_equal(r.ret, R_ALLOW);
	assert_false(r.loaded & BPF_LOADED_ARGS);
	assert_int_equal(run1(&g, "ptrace", 0, 0), R_NOTIF);
	assert_int_equal(run1(&g, "getpid", 0, 0), R_NOTIF);
	free(g.insns);

	p->fs.present = 1;
	p->fs.observe = IR_OBSERVE_DESTRUCTIVE;
	p->fs.workspace = strdup("${WORKSPACE}");
	g = gen_variant(p, SECCOMP_NOTIFY);
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("read"), NULL);
	assert_false(r.loaded & BPF_LOADED_ARGS);
	/* openat O_WRONLY|O_CREAT|O_TRUNC: notified; O_RDONLY: allowed. */
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("openat"), args);
	assert_int_equal(r.ret, R_NOTIF);
	args[2] = 0;
	r = run_full(&g, AUDIT_ARCH_X86_64, (uint32_t)nr_of("openat"), args);
	assert_int_equal(r.ret, R_ALLOW);
	/* unlink is not in the policy: the default errno decides it, and
	 * the default is notified as a denial. */
	assert_int_equal(run1(&g, "unlink", 0, 0), R_NOTIF);
	no_z3(variant_ok(p, SECCOMP_NOTIFY, &g));
	free(g.insns);
	ir_policy_destroy(&p);
}

/*
 * A rule's errno(ENOSYS) tells the program the call does not exist and
 * its libc falls back (clone3 to clone): the notify program answers it in
 * the kernel, as the decision does. The default's errno(ENOSYS) is a
 * denial and is notified, and so is a rule's other errno.
 */
static void test_notify_leaves_enosys_rules(void **state)
{
	struct ir_policy *p = fx_policy(fx_errno(ENOSYS), KILLP);
	struct prog g;

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	assert_int_equal(fx_rule(p, "clone3", fx_errno(ENOSYS), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "unshare", fx_errno(EPERM), 0, NULL), 0);
	fx_finish(p);
	g = gen_variant(p, SECCOMP_NOTIFY);
	assert_int_equal(run1(&g, "clone3", 0, 0), R_ERRNO(ENOSYS));
	assert_int_equal(run1(&g, "unshare", 0, 0), R_NOTIF);
	assert_int_equal(run1(&g, "getpid", 0, 0), R_NOTIF);
	assert_int_equal(run1(&g, "read", 0, 0), R_ALLOW);
	no_z3(variant_ok(p, SECCOMP_NOTIFY, &g));
	variant_agrees(p, SECCOMP_NOTIFY, &g);
	free(g.insns);
	/* learn mode still reports it: it would be allowed there */
	g = gen_variant(p, SECCOMP_LEARN);
	assert_int_equal(run1(&g, "clone3", 0, 0), R_NOTIF);
	free(g.insns);
	ir_policy_destroy(&p);
}

/* A notify program that lets a denial through, or notifies an allow, is
 * caught with a witness; exact route and Z3 agree on random corruptions. */
static void test_variants_corrupted(void **state)
{
	uint64_t seed = 0x6a09e667f3bcc909ull;
	struct ir_policy *p = fx_policy(fx_errno(EPERM), KILLP);
	struct prog g;
	size_t i;
	int caught = 0, same = 0;
	char err[512];

	(void)state;
	assert_int_equal(fx_rule(p, "read", ALLOW, 0, NULL), 0);
	fx_finish(p);
	g = gen_variant(p, SECCOMP_NOTIFY);
	i = find(&g, BPF_RET | BPF_K, R_NOTIF);
	g.insns[i].k = R_ALLOW;
	assert_int_equal(seccomp_validate_variant(p, SECCOMP_NOTIFY, g.insns,
						  g.n, 0, NULL, err,
						  sizeof(err)),
			 1);
	assert_non_null(strstr(err, "program allow, policy user_notif"));
	g.insns[i].k = R_ERRNO(EPERM);
	assert_int_equal(seccomp_validate_variant(p, SECCOMP_NOTIFY, g.insns,
						  g.n, 0, NULL, err,
						  sizeof(err)),
			 1);
	free(g.insns);
	ir_policy_destroy(&p);

	for (int round = 0; round < 90; round++) {
		enum seccomp_variant v =
		    (enum seccomp_variant)(SECCOMP_NOTIFY + round % 3);
		struct seccomp_validate_stats st;
		char e2[512];
		int r1, r2;

		p = random_observed(&seed);
		g = gen_variant(p, v);
		if (g.n <= 4) {
			/* one outcome for everything: nothing past the
			 * arch check to corrupt */
			free(g.insns);
			ir_policy_destroy(&p);
			continue;
		}
		corrupt(&g, &seed);
		r1 = seccomp_validate_variant(p, v, g.insns, g.n, 0, &st, err,
					      sizeof(err));
		r2 = seccomp_validate_variant(p, v, g.insns, g.n,
					      SECCOMP_VALIDATE_FORCE_Z3, NULL,
					      e2, sizeof(e2));
		if (r1 != r2 || r1 < 0)
			fail_msg("round %d variant %d: exact %d (%s), Z3 %d "
				 "(%s)",
				 round, v, r1, r1 ? err : "", r2, r2 ? e2 : "");
		no_z3(st);
		caught += r1 != 0;
		same += r1 == 0;
		free(g.insns);
		ir_policy_destroy(&p);
	}
	print_message("corrupted variants: %d caught, %d still equal\n", caught,
		      same);
	assert_true(caught >= 10 && same >= 1);
}

/* ir_explain_syscall() names a rule whose action is ir_eval_syscall()'s. */
static void test_explain_consistent(void **state)
{
	uint64_t seed = 0xbb67ae8584caa73bull;

	(void)state;
	for (int round = 0; round < 40; round++) {
		struct ir_policy *p = random_policy(&seed);

		for (uint32_t c = 0; c < p->sys.ncalls; c++) {
			const struct ir_syscall *sc = &p->sys.calls[c];

			for (size_t k = 0; k < N(boundary); k++) {
				uint64_t args[6];
				struct ir_action a;
				int i;

				for (int j = 0; j < 6; j++)
					args[j] = boundary[(k + (size_t)j) %
							   N(boundary)];
				a = ir_eval_syscall(&p->sys, sc, args);
				i = ir_explain_syscall(sc, args);
				if (i < 0)
					assert_int_equal(
					    ir_action_cmp(&a, &p->sys.def), 0);
				else
					assert_int_equal(
					    ir_action_cmp(&a,
							  &sc->rules[i].action),
					    0);
			}
		}
		ir_policy_destroy(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_action),
	    cmocka_unit_test(test_bad_arches),
	    cmocka_unit_test(test_args_64bit_across_boundary),
	    cmocka_unit_test(test_args_masked),
	    cmocka_unit_test(test_int_arg_dirty_upper_half),
	    cmocka_unit_test(test_resolution_order),
	    cmocka_unit_test(test_unconditional_reads_no_argument),
	    cmocka_unit_test(test_too_many_instructions_refused),
	    cmocka_unit_test(test_arg_block_paths),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_validator_catches_corruption),
	    cmocka_unit_test(test_validator_accepts_docker),
	    cmocka_unit_test(test_validator_many_paths),
	    cmocka_unit_test(test_validator_brute_products),
	    cmocka_unit_test(test_validator_no_arguments_no_z3),
	    cmocka_unit_test(test_validator_64bit_witness),
	    cmocka_unit_test(test_validator_outside_fragment),
	    cmocka_unit_test(test_random_policies),
	    cmocka_unit_test(test_exact_agrees_with_z3),
	    cmocka_unit_test(test_variants_random),
	    cmocka_unit_test(test_notify_keeps_allows_cached),
	    cmocka_unit_test(test_notify_leaves_enosys_rules),
	    cmocka_unit_test(test_variants_corrupted),
	    cmocka_unit_test(test_explain_consistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
