// SPDX-License-Identifier: MIT
/*
 * Codegen on a real profile: `make bench-oci PROFILE=...` imports an OCI
 * profile (polc import oci, a container with Docker's default
 * capabilities), compiles the policy with its egress companions, and
 * counts the instructions polc's program executes for every x86_64 number
 * 0..the table's largest, each over test_oci's grid of argument vectors
 * (tests/oci/grid.h: the policy's constants, one off either side, upper
 * halves 0, 1 and all ones; one argument at a time past 50,000 vectors).
 *
 * Reported: per number the longest path over its grid, then the mean and
 * the max over the numbers; and the mean over every (number, vector)
 * point. libseccomp's filter for the same profile, built as runc builds it
 * (tests/oci/runc_model.c, without runc's ENOSYS stub in front), is
 * measured on the same points, with its default optimizer and with its
 * binary tree (SCMP_FLTATR_CTL_OPTIMIZE=2). Targets (issue 14): mean at
 * most 10, max at most 20.
 */
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>

#include "backend/backend.h"
#include "bpf_interp.h"
#include "diag.h"
#include "ir/ir.h"
#include "oci/oci.h"
#include "grid.h"
#include "runc_model.h"
#include "sema/sema.h"
#include "tables/tables.h"

#define GRID_MAX 50000

struct stats {
	const char *name;
	size_t len;
	double mean, mean_points;
	size_t max, sum, points, sum_points;
	int worst_nr;
};

static int measure(const struct ir_policy *p, const struct sock_filter *prog,
		   size_t n, struct stats *st)
{
	int top = syscall_max_nr(SYSCALL_ARCH_X86_64);
	struct grid g;

	st->len = n;
	for (int nr = 0; nr <= top; nr++) {
		size_t worst = 0;
		uint64_t args[6];

		grid_fill(&g, &p, 1, nr);
		for (size_t i = 0; grid_vector(&g, i, GRID_MAX, args); i++) {
			struct seccomp_data d = {.nr = nr,
						 .arch = AUDIT_ARCH_X86_64};
			struct bpf_run_result res;
			char err[128];

			memcpy(d.args, args, sizeof(args));
			if (bpf_run(prog, n, &d, &res, err, sizeof(err))) {
				fprintf(stderr, "oci_insns: nr %d: %s\n", nr,
					err);
				return -1;
			}
			st->sum_points += res.executed;
			st->points++;
			if (res.executed > worst)
				worst = res.executed;
		}
		st->sum += worst;
		if (worst > st->max) {
			st->max = worst;
			st->worst_nr = nr;
		}
	}
	st->mean = (double)st->sum / (top + 1);
	st->mean_points = (double)st->sum_points / (double)st->points;
	return 0;
}

static struct ir_policy *import(const char *path, size_t *ncalls)
{
	struct oci_import_opts o = {.kernel = "6.18", .max_errors = -1};
	const struct src_file *src;
	struct ir_policy *p = NULL;
	struct loc none = {0};
	char *text = NULL;
	size_t len = 0;
	struct diag d;

	diag_init(&d);
	src = diag_load_file(&d, path, none);
	if (!src || import_oci_text(&o, src, &d, &text, &len, stderr) ||
	    sema_compile_text(&d, "imported.pol", text, len, NULL, &p)) {
		diag_print(&d, stderr);
		p = NULL;
	}
	*ncalls = p ? p->sys.ncalls : 0;
	free(text);
	diag_fini(&d);
	return p;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "bench/profiles/agent.json";
	struct stats st[3] = {{.name = "polc"},
			      {.name = "libseccomp, as runc builds it"},
			      {.name = "libseccomp, binary tree"}};
	struct sock_filter *prog = NULL;
	struct runc_model m[2] = {{0}};
	size_t n = 0, ncalls = 0;
	struct ir_policy *p = import(path, &ncalls);
	char err[256];
	int rc = 1;

	if (!p)
		return 1;
	if (seccomp_generate(p, &prog, &n, err, sizeof(err))) {
		fprintf(stderr, "oci_insns: %s\n", err);
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		runc_model_optimize = i ? 2 : 0;
		if (runc_model_build(path, oci_docker_caps, oci_ndocker_caps, 6,
				     18, &m[i], err, sizeof(err))) {
			fprintf(stderr, "oci_insns: libseccomp: %s\n", err);
			goto out;
		}
	}
	if (measure(p, prog, n, &st[0]) ||
	    measure(p, m[0].prog, m[0].n, &st[1]) ||
	    measure(p, m[1].prog, m[1].n, &st[2]))
		goto out;
	printf("%s: %zu syscalls in the policy (egress companions "
	       "included), x86_64 numbers 0..%d, %zu points\n\n",
	       path, ncalls, syscall_max_nr(SYSCALL_ARCH_X86_64), st[0].points);
	printf("%-32s %6s %10s %5s %12s\n", "program", "insns", "mean(nr)",
	       "max", "mean(points)");
	for (int i = 0; i < 3; i++)
		printf("%-32s %6zu %10.2f %5zu %12.2f  (longest: nr %d)\n",
		       st[i].name, st[i].len, st[i].mean, st[i].max,
		       st[i].mean_points, st[i].worst_nr);
	printf("\ntarget (mean <= 10, max <= 20): %s\n",
	       st[0].mean <= 10 && st[0].max <= 20 ? "met" : "NOT met");
	rc = 0;
out:
	free(prog);
	runc_model_free(&m[0]);
	runc_model_free(&m[1]);
	ir_policy_destroy(&p);
	return rc;
}
