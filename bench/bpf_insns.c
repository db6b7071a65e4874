// SPDX-License-Identifier: MIT
/*
 * Instructions executed per syscall number: our program against
 * libseccomp's (SCMP_FLTATR_CTL_OPTIMIZE = 2, its binary tree) on the same
 * Docker-like policy, both run through our interpreter.
 *
 * For each x86_64 number 0..max the count is the largest over a set of
 * argument vectors (the boundary values of the policy's argument rules),
 * so an argument-checking syscall counts its longest path. Reported: the
 * mean and the max over all numbers, and over the names the policy lists.
 * "libseccomp (exact)" is the oracle's translation, which means exactly
 * what the IR means; "libseccomp (as written)" has one rule per IR rule
 * with 64-bit comparisons, as Docker's profile is written (a different
 * meaning for int arguments, shown only for its instruction counts).
 */
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>

#include "bpf_interp.h"
#include "backend/backend.h"
#include "seccomp_fixtures.h"

#define NVEC 16

struct stats {
	const char *name;
	size_t len;
	double mean_all, mean_listed;
	size_t max_all, max_listed;
};

static const uint64_t vectors[NVEC] = {
    0,		1,	     8,		  0x20000,
    0x20008,	40,	     41,	  0x7E020000,
    0xffffffff, 0x100000000, 0x10000002a, 0x8000000000000000ull,
    ~0ull,	0x10000,     0x40000000,  0xfffffffe,
};

/* Most instructions executed for nr over the vectors, or 0 on error. */
static size_t _cost(const struct sock_filter *prog, size_t n, int nr)
{
	size_t worst = 0;

	for (int v = 0; v < NVEC; v++) {
		struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
		struct bpf_run_result res;
		char err[128];

		for (int i = 0; i < 6; i++)
			d.args[i] = vectors[v];
		if (bpf_run(prog, n, &d, &res, err, sizeof(err))) {
			fprintf(stderr, "bpf_insns: nr %d: %s\n", nr, err);
			return 0;
		}
		if (res.executed > worst)
			worst = res.executed;
	}
	return worst;
}

static int _measure(const struct ir_policy *p, const struct sock_filter *prog,
		    size_t n, int max_nr, struct stats *st)
{
	size_t sum_all = 0, sum_listed = 0, listed = 0;

	st->len = n;
	for (int nr = 0; nr <= max_nr; nr++) {
		size_t c = _cost(prog, n, nr);
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
		int in = name && ir_find_syscall(&p->sys, name);

		free(name);
		if (!c)
			return -1;
		sum_all += c;
		if (c > st->max_all)
			st->max_all = c;
		if (in) {
			sum_listed += c;
			listed++;
			if (c > st->max_listed)
				st->max_listed = c;
		}
	}
	st->mean_all = (double)sum_all / (max_nr + 1);
	st->mean_listed = listed ? (double)sum_listed / listed : 0;
	return 0;
}

int main(void)
{
	size_t ntable = 0, nx86 = 0, n[3] = {0};
	struct ir_policy *p = fx_docker_policy(&ntable, &nx86);
	struct sock_filter *prog[3] = {NULL};
	struct stats st[3] = {{.name = "polc"},
			      {.name = "libseccomp (exact)"},
			      {.name = "libseccomp (as written)"}};
	char err[256] = "";
	int max_nr = 0, rc = 1;

	if (!p) {
		fprintf(stderr, "bpf_insns: cannot build the policy\n");
		return 1;
	}
	for (int nr = 0; nr < 1024; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);

		if (name)
			max_nr = nr;
		free(name);
	}
	if (seccomp_generate(p, &prog[0], &n[0], err, sizeof(err)) ||
	    fx_libseccomp_filter(p, 1, &prog[1], &n[1], err, sizeof(err)) ||
	    fx_libseccomp_filter(p, 0, &prog[2], &n[2], err, sizeof(err))) {
		fprintf(stderr, "bpf_insns: %s\n", err);
		goto out;
	}
	for (int i = 0; i < 3; i++)
		if (_measure(p, prog[i], n[i], max_nr, &st[i]))
			goto out;
	printf("Docker-like policy: %zu names in the table, %zu on x86_64; "
	       "numbers 0..%d\n\n",
	       ntable, nx86, max_nr);
	printf("%-24s %6s %10s %9s %13s %12s\n", "program", "insns",
	       "mean(all)", "max(all)", "mean(listed)", "max(listed)");
	for (int i = 0; i < 3; i++)
		printf("%-24s %6zu %10.2f %9zu %13.2f %12zu\n", st[i].name,
		       st[i].len, st[i].mean_all, st[i].max_all,
		       st[i].mean_listed, st[i].max_listed);
	printf("\ntarget (ours <= libseccomp's mean and max): %s\n",
	       st[0].mean_all <= st[1].mean_all &&
		       st[0].max_all <= st[1].max_all &&
		       st[0].mean_all <= st[2].mean_all &&
		       st[0].max_all <= st[2].max_all
		   ? "met"
		   : "NOT met");
	rc = 0;
out:
	for (int i = 0; i < 3; i++)
		free(prog[i]);
	ir_policy_destroy(&p);
	return rc;
}
