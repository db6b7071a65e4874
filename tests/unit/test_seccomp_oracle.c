// SPDX-License-Identifier: MIT
/*
 * libseccomp as an independent oracle. For each policy, libseccomp builds
 * its own filter from the same IR (SCMP_FLTATR_CTL_OPTIMIZE = 2, exported
 * with seccomp_export_bpf), and both programs run through our interpreter
 * over every x86_64 syscall number, x32 numbers and foreign arches, with a
 * set of boundary argument vectors: 0, 1, every single bit, around every
 * constant of the rules, 2^32 - 1, 2^32, 2^32 + constant, 2^63, ~0, and
 * mixes of them.
 * Their decisions must be identical, and equal to ir_eval_syscall().
 *
 * Our meaning and libseccomp's differ in rule resolution and in argument
 * width, so the IR is translated into libseccomp rules faithfully rather
 * than one to one: fx_libseccomp_filter() explains how (masked equalities
 * only, disjoint regions per action). The one deliberate difference left
 * is syscall number -1: libseccomp sends it to the default action (a
 * tracer's "skip this call"), we send every number with bit 30 or above
 * set to the bad-arch action; test_nr_minus_one pins that down.
 *
 * Every example policy (the .pol files of examples/) and every fragment of
 * the standard library (stdlib-policies/std/, each used by a one-line
 * policy) goes through the front end and the same comparison; the folders
 * are read at run time, so a new example is covered without touching this
 * file. The suite runs from the repository root, as `make check` runs it.
 *
 * Each policy is also validated, and must be decided without Z3: the
 * generator only emits what the exact procedure (bpf/wordsat.h) handles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/audit.h>

#include "backend/backend.h"
#include "bpf_interp.h"
#include "sema/sema.h"
#include "seccomp_fixtures.h"

#define MAX_VALS 256
#define MIXES	 64

static int max_nr(void)
{
	int max = 0;

	for (int nr = 0; nr < 1024; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);

		if (name)
			max = nr;
		free(name);
	}
	return max;
}

/*
 * Ours, and libseccomp's: one filter for the syscalls whose action does
 * not depend on the arguments (the others get the default there), and one
 * filter per syscall that does, holding only that syscall's rules. Each
 * libseccomp filter is compared only where it is exact, so no translation
 * has to hold the whole policy's argument rules at once: its size grows
 * with the largest syscall, not with the policy.
 */
struct both {
	struct sock_filter *ours, *lib;
	size_t nours, nlib;
	struct sock_filter **per; /* per[i]: calls[i]'s own, or NULL */
	size_t *nper;
	size_t nper_total, nper_max, nfilters;
};

static struct both build(const struct ir_policy *p)
{
	struct both b = {0};
	char err[256] = "";

	if (seccomp_generate(p, &b.ours, &b.nours, err, sizeof(err)))
		fail_msg("seccomp_generate: %s", err);
	if (fx_libseccomp_filter(p, FX_CONSTANT, &b.lib, &b.nlib, err,
				 sizeof(err)))
		fail_msg("libseccomp: %s", err);
	b.per = calloc(p->sys.ncalls + 1, sizeof(*b.per));
	b.nper = calloc(p->sys.ncalls + 1, sizeof(*b.nper));
	assert_true(b.per && b.nper);
	for (uint32_t i = 0; i < p->sys.ncalls; i++) {
		if (!fx_depends_on_args(&p->sys.calls[i]))
			continue;
		if (fx_libseccomp_syscall_filter(p, &p->sys.calls[i], &b.per[i],
						 &b.nper[i], err, sizeof(err)))
			fail_msg("libseccomp, %s alone: %s",
				 p->sys.calls[i].name, err);
		b.nper_total += b.nper[i];
		if (b.nper[i] > b.nper_max)
			b.nper_max = b.nper[i];
		b.nfilters++;
	}
	return b;
}

static void release(const struct ir_policy *p, struct both *b)
{
	free(b->ours);
	free(b->lib);
	for (uint32_t i = 0; i < p->sys.ncalls; i++)
		free(b->per[i]);
	free(b->per);
	free(b->nper);
}

static uint32_t run(const struct sock_filter *prog, size_t n,
		    const struct seccomp_data *d)
{
	struct bpf_run_result r;
	char err[128];

	if (bpf_run(prog, n, d, &r, err, sizeof(err)))
		fail_msg("bpf_run (nr %d): %s", d->nr, err);
	return r.ret;
}

static void add_val(uint64_t *vals, size_t *n, uint64_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (vals[i] == v)
			return;
	if (*n < MAX_VALS)
		vals[(*n)++] = v;
}

/* Boundary values: the fixed ones, and around every constant in p. */
static size_t boundary_values(const struct ir_policy *p, uint64_t *vals)
{
	static const uint64_t fixed[] = {
	    0, 1, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull, ~0ull};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_val(vals, &n, fixed[i]);
	/* Every single bit: a `!=` is one masked equality per bit. */
	for (int bit = 0; bit < 64; bit++)
		add_val(vals, &n, 1ull << bit);
	for (uint32_t c = 0; c < p->sys.ncalls; c++) {
		const struct ir_syscall *sc = &p->sys.calls[c];

		for (uint32_t r = 0; r < sc->nrules; r++) {
			for (uint32_t a = 0; a < sc->rules[r].natoms; a++) {
				const struct ir_atom *at =
				    &sc->rules[r].atoms[a];
				uint64_t v = at->value;

				add_val(vals, &n, v - 1);
				add_val(vals, &n, v);
				add_val(vals, &n, v + 1);
				add_val(vals, &n, 0x100000000ull + v);
				add_val(vals, &n, v | 0xffffffff00000000ull);
				add_val(vals, &n, at->mask);
				add_val(vals, &n, v | ~at->mask);
			}
		}
	}
	return n;
}

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

/* Argument vectors: each value in each position, in all at once, and
 * pseudo-random mixes. Returns how many were written. */
static size_t vectors(const uint64_t *vals, size_t nv, uint64_t (*out)[6])
{
	uint64_t seed = 42;
	size_t n = 0;

	for (size_t v = 0; v < nv; v++) {
		for (int pos = -1; pos < 6; pos++) {
			for (int i = 0; i < 6; i++)
				out[n][i] = pos < 0 || pos == i ? vals[v] : 0;
			n++;
		}
	}
	for (int m = 0; m < MIXES; m++, n++)
		for (int i = 0; i < 6; i++)
			out[n][i] = vals[rnd(&seed) % nv];
	return n;
}

/* One number and vector: ours, libseccomp's and the IR agree. */
static void one(const struct ir_policy *p, const struct ir_syscall *sc,
		const char *name, int nr, const struct both *b,
		const struct sock_filter *lib, size_t nlib,
		const uint64_t args[6])
{
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
	struct ir_action want = ir_eval_syscall(&p->sys, sc, args);
	uint32_t ours, theirs, exp;

	memcpy(d.args, args, sizeof(d.args));
	assert_int_equal(seccomp_action_value(&want, &exp), 0);
	ours = run(b->ours, b->nours, &d);
	theirs = run(lib, nlib, &d);
	if (ours != theirs || ours != exp)
		fail_msg("%s (%d) args[0..2]=0x%llx,0x%llx,0x%llx: ours 0x%x, "
			 "libseccomp 0x%x, IR 0x%x",
			 name ? name : "?", nr, (unsigned long long)d.args[0],
			 (unsigned long long)d.args[1],
			 (unsigned long long)d.args[2], ours, theirs, exp);
}

/*
 * A vector where rule r holds, built from vals: each argument r tests
 * takes the first value satisfying all of r's atoms on it. 0 if none does.
 */
static int rule_base(const struct ir_rule *r, const uint64_t *vals, size_t nv,
		     uint64_t base[6])
{
	memset(base, 0, 6 * sizeof(*base));
	for (uint32_t i = 0; i < r->natoms; i++) {
		int arg = r->atoms[i].arg, ok = 0;

		for (size_t v = 0; v < nv && !ok; v++) {
			base[arg] = vals[v];
			ok = 1;
			for (uint32_t j = 0; j < r->natoms; j++)
				if (r->atoms[j].arg == arg)
					ok &= ir_atom_holds(&r->atoms[j], base);
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* Ours, libseccomp's and the IR agree on every number and vector; on a
 * syscall with argument rules, also on every vector one value or one bit
 * away from a point where a rule holds. */
static void agree(const struct ir_policy *p)
{
	static uint64_t vecs[MAX_VALS * 7 + MIXES][6];
	uint64_t vals[MAX_VALS];
	size_t nval = boundary_values(p, vals);
	struct both b = build(p);
	size_t nvec = vectors(vals, nval, vecs);
	int max = max_nr();
	size_t compared = 0;

	for (int nr = 0; nr <= max + 2; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
		const struct ir_syscall *sc =
		    name ? ir_find_syscall(&p->sys, name) : NULL;
		const struct sock_filter *libp = b.lib;
		size_t nlibp = b.nlib;

		if (sc && fx_depends_on_args(sc)) {
			libp = b.per[sc - p->sys.calls];
			nlibp = b.nper[sc - p->sys.calls];
			assert_non_null(libp);
		}
		for (size_t v = 0; v < nvec; v++) {
			one(p, sc, name, nr, &b, libp, nlibp, vecs[v]);
			compared++;
			/* Numbers without an argument rule: one vector will do
			 * past the first few, the rest is the same path. */
			if (!sc && v > 8)
				break;
		}
		for (uint32_t r = 0; sc && libp != b.lib && r < sc->nrules;
		     r++) {
			uint64_t base[6], vec[6];

			if (!rule_base(&sc->rules[r], vals, nval, base))
				continue;
			for (int pos = 0; pos < 6; pos++) {
				memcpy(vec, base, sizeof(vec));
				for (size_t v = 0; v < nval; v++, compared++) {
					vec[pos] = vals[v];
					one(p, sc, name, nr, &b, libp, nlibp,
					    vec);
				}
				for (int bit = 0; bit < 64; bit++, compared++) {
					vec[pos] = base[pos] ^ 1ull << bit;
					one(p, sc, name, nr, &b, libp, nlibp,
					    vec);
				}
			}
		}
		free(name);
	}
	/* x32 numbers and foreign arches: both give the bad-arch action. */
	for (int nr = 0; nr <= max; nr++) {
		struct seccomp_data x32 = {
		    .nr = (int)(0x40000000u | (unsigned)nr),
		    .arch = AUDIT_ARCH_X86_64};
		struct seccomp_data i386 = {.nr = nr, .arch = AUDIT_ARCH_I386};
		struct seccomp_data arm = {.nr = nr,
					   .arch = AUDIT_ARCH_AARCH64};
		uint32_t bad;

		assert_int_equal(seccomp_action_value(&p->sys.badarch, &bad),
				 0);
		assert_int_equal(run(b.ours, b.nours, &x32), bad);
		assert_int_equal(run(b.lib, b.nlib, &x32), bad);
		assert_int_equal(run(b.ours, b.nours, &i386), bad);
		assert_int_equal(run(b.lib, b.nlib, &i386), bad);
		assert_int_equal(run(b.ours, b.nours, &arm), bad);
		assert_int_equal(run(b.lib, b.nlib, &arm), bad);
	}
	/* Each syscall's own filter: bad arches too. */
	for (uint32_t i = 0; i < p->sys.ncalls; i++) {
		struct seccomp_data i386 = {.nr = 0, .arch = AUDIT_ARCH_I386};
		uint32_t bad;

		if (!b.per[i])
			continue;
		assert_int_equal(seccomp_action_value(&p->sys.badarch, &bad),
				 0);
		assert_int_equal(run(b.per[i], b.nper[i], &i386), bad);
	}
	assert_true(compared > (size_t)max);
	release(p, &b);
}

/* ---- Policies ---------------------------------------------------------- */

/* libseccomp's sizes, for the messages. */
static const char *lib_sizes(const struct both *b, char *buf, size_t len)
{
	snprintf(buf, len,
		 "libseccomp %zu + %zu in %zu per-syscall filters, "
		 "largest %zu",
		 b->nlib, b->nper_total, b->nfilters, b->nper_max);
	return buf;
}

/* The whole policy in one faithful libseccomp filter, when it fits. */
static const char *whole_size(const struct ir_policy *p, char *buf, size_t len)
{
	struct sock_filter *prog;
	size_t n;
	char err[256] = "";

	if (fx_libseccomp_filter(p, FX_FAITHFUL, &prog, &n, err, sizeof(err)))
		snprintf(buf, len, "does not fit: %s", err);
	else
		snprintf(buf, len, "%zu insns", n);
	if (!err[0])
		free(prog);
	return buf;
}

static void docker_check(const char *what, struct ir_policy *p, size_t ntable,
			 size_t nx86, unsigned nargs)
{
	struct seccomp_validate_stats st;
	struct timespec t0, t1;
	struct both b;
	char err[512], sizes[128], whole[300];

	agree(p);
	/* The build's translation validation on this policy, timed. */
	b = build(p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (seccomp_validate_stats(p, b.ours, b.nours, 0, &st, err,
				   sizeof(err)))
		fail_msg("validate: %s", err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Decided without Z3: personality, clone and socket by argument,
	 * and with the companions seccomp too. */
	assert_int_equal(st.z3_syscalls + st.z3_ranges, 0);
	assert_int_equal(st.exact_syscalls, nargs);
	assert_int_equal(st.exact_ranges, 5);
	print_message("%s: %zu names, %zu on x86_64, %zu insns (%s; whole "
		      "policy in one: %s), validated in %.3f s\n",
		      what, ntable, nx86, b.nours,
		      lib_sizes(&b, sizes, sizeof(sizes)),
		      whole_size(p, whole, sizeof(whole)),
		      (double)(t1.tv_sec - t0.tv_sec) +
			  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	release(p, &b);
}

static void test_docker_profile(void **state)
{
	size_t ntable, nx86;
	struct ir_policy *p = fx_docker_policy(&ntable, &nx86);

	(void)state;
	assert_non_null(p);
	assert_true(ntable >= 400);
	assert_true(nx86 >= 300);
	docker_check("docker-like", p, ntable, nx86, 3);
	ir_policy_destroy(&p);
}

/* The same with the egress companions every compiled policy carries:
 * socket has Docker's rule and four companions on three arguments, and
 * seccomp one on its flags. */
static void test_docker_with_companions(void **state)
{
	size_t ntable, nx86;
	struct ir_policy *p = fx_docker_policy(&ntable, &nx86);

	(void)state;
	assert_non_null(p);
	assert_int_equal(companions_add(p), IR_OK);
	assert_int_equal(ir_canonicalize(p), IR_OK);
	docker_check("docker-like + companions", p, ntable, nx86, 4);
	ir_policy_destroy(&p);
}

/* Default errno, a few kills, socket in {AF_UNIX, AF_INET, AF_INET6}. */
static void test_shell_like(void **state)
{
	static const char *const allow[] = {
	    "read",  "write",  "openat",     "close",	   "fstat", "mmap",
	    "brk",   "execve", "exit",	     "exit_group", "wait4", "clone",
	    "pipe2", "dup2",   "getdents64", "newfstatat"};
	struct ir_policy *p =
	    fx_policy(fx_errno(EPERM), fx_act(IR_ACT_KILL_PROCESS));
	uint64_t fam[] = {1, 2, 10};

	(void)state;
	for (size_t i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
		assert_int_equal(
		    fx_rule(p, allow[i], fx_act(IR_ACT_ALLOW), 0, NULL), 0);
	for (size_t i = 0; i < 3; i++) {
		struct ir_atom a = fx_atom(0, 32, IR_OP_EQ, 0, fam[i]);

		assert_int_equal(
		    fx_rule(p, "socket", fx_act(IR_ACT_ALLOW), 1, &a), 0);
	}
	assert_int_equal(
	    fx_rule(p, "ptrace", fx_act(IR_ACT_KILL_PROCESS), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "mount", fx_act(IR_ACT_TRAP), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "unshare", fx_errno(EACCES), 0, NULL), 0);
	assert_int_equal(fx_rule(p, "getpid", fx_act(IR_ACT_LOG), 0, NULL), 0);
	assert_int_equal(
	    fx_rule(p, "tkill", fx_act(IR_ACT_KILL_THREAD), 0, NULL), 0);
	fx_finish(p);
	agree(p);
	ir_policy_destroy(&p);
}

/* Ranges and masks on 64-bit and 32-bit arguments, several per rule. */
static void test_ranges_and_masks(void **state)
{
	struct ir_policy *p =
	    fx_policy(fx_act(IR_ACT_ALLOW), fx_act(IR_ACT_KILL_THREAD));
	struct ir_atom mm[2] = {fx_atom(2, 64, IR_OP_EQ, 0x4, 0x4),
				fx_atom(3, 64, IR_OP_GE, 0, 0x100000000ull)};
	struct ir_atom lt = fx_atom(1, 64, IR_OP_LT, 0, 0x100000005ull);
	struct ir_atom le = fx_atom(0, 32, IR_OP_LE, 0xff, 0x10);
	struct ir_atom gt = fx_atom(0, 32, IR_OP_GT, 0, 0x7fffffff);
	struct ir_atom ne = fx_atom(1, 64, IR_OP_NE, 0xffff0000ffff0000ull,
				    0x1234000056780000ull);

	(void)state;
	assert_int_equal(fx_rule(p, "mmap", fx_errno(EACCES), 2, mm), 0);
	assert_int_equal(fx_rule(p, "lseek", fx_errno(EINVAL), 1, &lt), 0);
	assert_int_equal(fx_rule(p, "fcntl", fx_act(IR_ACT_TRAP), 1, &le), 0);
	assert_int_equal(fx_rule(p, "kill", fx_act(IR_ACT_LOG), 1, &gt), 0);
	assert_int_equal(fx_rule(p, "mprotect", fx_errno(EPERM), 1, &ne), 0);
	fx_finish(p);
	agree(p);
	ir_policy_destroy(&p);
}

/* Overlapping rules with different actions: the strictest that holds. */
static void test_overlapping_actions(void **state)
{
	struct ir_policy *p =
	    fx_policy(fx_errno(ENOSYS), fx_act(IR_ACT_KILL_PROCESS));
	struct ir_atom lt10 = fx_atom(0, 32, IR_OP_LT, 0, 10);
	struct ir_atom gt5 = fx_atom(0, 32, IR_OP_GT, 0, 5);
	struct ir_atom eq7 = fx_atom(0, 32, IR_OP_EQ, 0, 7);
	struct ir_atom z1 = fx_atom(1, 32, IR_OP_EQ, 0, 0);

	(void)state;
	assert_int_equal(fx_rule(p, "prctl", fx_act(IR_ACT_ALLOW), 1, &lt10),
			 0);
	assert_int_equal(fx_rule(p, "prctl", fx_errno(EPERM), 1, &gt5), 0);
	assert_int_equal(
	    fx_rule(p, "prctl", fx_act(IR_ACT_KILL_THREAD), 1, &eq7), 0);
	/* A conditional rule stricter than an unconditional one. (Kept to
	 * one argument: the exact translation of "allow unless x > 5 and
	 * y == 0" takes libseccomp past 4096 instructions.) */
	assert_int_equal(fx_rule(p, "ioctl", fx_errno(EACCES), 1, &gt5), 0);
	assert_int_equal(fx_rule(p, "ioctl", fx_act(IR_ACT_ALLOW), 0, NULL), 0);
	struct ir_atom both[2] = {gt5, z1};

	assert_int_equal(fx_rule(p, "fcntl", fx_errno(EACCES), 2, both), 0);
	fx_finish(p);
	agree(p);
	ir_policy_destroy(&p);
}

/* ---- Example policies and the standard library ------------------------ */

#define EXAMPLES_DIR "examples"
#define STDLIB_DIR   "stdlib-policies"
#define MAX_FILES    256

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's *.pol files, sorted; fails the test on none. */
static size_t pol_files(const char *dir, char **names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		fail_msg("cannot open %s/ (run from the repository root): %s",
			 dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 4 || strcmp(e->d_name + len - 4, ".pol"))
			continue;
		assert_true(n < MAX_FILES);
		names[n] = strdup(e->d_name);
		assert_non_null(names[n]);
		n++;
	}
	closedir(d);
	if (!n)
		fail_msg("no .pol file in %s/", dir);
	qsort(names, n, sizeof(*names), by_name);
	return n;
}

/* sema_compile() or sema_compile_text(), errors printed on failure. */
static struct ir_policy *front_end(const char *path, const char *text)
{
	static const char *const search[] = {STDLIB_DIR};
	struct sema_opts o = {search, 1};
	struct ir_policy *p = NULL;
	struct diag d;
	int r;

	diag_init(&d);
	if (text)
		r = sema_compile_text(&d, path, text, strlen(text), &o, &p);
	else
		r = sema_compile(&d, path, &o, &p);
	if (r) {
		diag_print(&d, stderr);
		diag_fini(&d);
		fail_msg("%s does not compile", path);
	}
	diag_fini(&d);
	return p;
}

/* The oracle comparison, and validation without Z3. */
static void check_policy(const char *what, struct ir_policy *p)
{
	struct seccomp_validate_stats st;
	struct both b;
	char err[512], sizes[128], whole[300];

	assert_non_null(p);
	if (!p->sys.present)
		fail_msg("%s has no syscalls block: nothing to compare", what);
	agree(p);
	b = build(p);
	if (seccomp_validate_stats(p, b.ours, b.nours, 0, &st, err,
				   sizeof(err)))
		fail_msg("%s: validate: %s", what, err);
	print_message(
	    "%s: %u syscalls, %zu insns (%s; whole policy in one: "
	    "%s), %u depending on arguments, %u parts through Z3\n",
	    what, p->sys.ncalls, b.nours, lib_sizes(&b, sizes, sizeof(sizes)),
	    whole_size(p, whole, sizeof(whole)),
	    st.exact_syscalls + st.z3_syscalls, st.z3_syscalls + st.z3_ranges);
	assert_int_equal(st.z3_syscalls, 0);
	assert_int_equal(st.z3_ranges, 0);
	release(p, &b);
}

static void test_examples(void **state)
{
	char *names[MAX_FILES], path[512];
	size_t n = pol_files(EXAMPLES_DIR, names);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct ir_policy *p;

		snprintf(path, sizeof(path), "%s/%s", EXAMPLES_DIR, names[i]);
		p = front_end(path, NULL);
		check_policy(path, p);
		ir_policy_destroy(&p);
		free(names[i]);
	}
}

/* Fragments cannot compile alone: each is used by a one-line policy. */
static void test_stdlib_fragments(void **state)
{
	char *names[MAX_FILES], text[512], what[512];
	size_t n = pol_files(STDLIB_DIR "/std", names);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct ir_policy *p;
		int len = (int)strlen(names[i]) - 4;

		snprintf(text, sizeof(text),
			 "policy \"x\" {\n  use std/%.*s\n}\n", len, names[i]);
		snprintf(what, sizeof(what), "std/%.*s", len, names[i]);
		p = front_end(what, text);
		check_policy(what, p);
		ir_policy_destroy(&p);
		free(names[i]);
	}
}

/* The one intended difference: nr -1 (0xffffffff). */
static void test_nr_minus_one(void **state)
{
	struct ir_policy *p = fx_docker_policy(NULL, NULL);
	struct seccomp_data d = {.nr = -1, .arch = AUDIT_ARCH_X86_64};
	struct both b;

	(void)state;
	assert_non_null(p);
	b = build(p);
	assert_int_equal(run(b.ours, b.nours, &d), 0x80000000u);
	assert_int_equal(run(b.lib, b.nlib, &d), 0x00050000u | EPERM);
	release(p, &b);
	ir_policy_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_docker_profile),
	    cmocka_unit_test(test_docker_with_companions),
	    cmocka_unit_test(test_shell_like),
	    cmocka_unit_test(test_ranges_and_masks),
	    cmocka_unit_test(test_overlapping_actions),
	    cmocka_unit_test(test_nr_minus_one),
	    cmocka_unit_test(test_examples),
	    cmocka_unit_test(test_stdlib_fragments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
