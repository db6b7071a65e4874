/* SPDX-License-Identifier: MIT */
/*
 * An OCI seccomp profile compiled the way Docker and runc compile it,
 * written for the tests from moby's profiles/seccomp/seccomp_linux.go
 * (includes and excludes, archMap) and runc 1.1.5's
 * libcontainer/seccomp/seccomp_linux.go and patchbpf/enosys_linux.go:
 *
 *   - a libseccomp filter with the default action (SCMP_ACT_KILL is
 *     kill_thread, SCMP_ACT_ERRNO without errnoRet is EPERM), the
 *     profile's arches added, no_new_privs left alone;
 *   - per entry and name: skipped when its action is the default or
 *     libseccomp cannot resolve the name; no args: seccomp_rule_add; else
 *     all conditions in one rule, unless two test one argument, then one
 *     rule per condition;
 *   - libseccomp's BPF (seccomp_export_bpf), run in our interpreter;
 *   - runc's ENOSYS stub, as a decision in front of it: when the default
 *     is not allow, log or trace, an x86_64 call (no x32 bit) whose number
 *     is above the largest x86_64 syscall the profile names gets
 *     ERRNO(ENOSYS).
 *
 * Independent of polc's importer and exporter on purpose: it is the
 * oracle both are checked against.
 */
#ifndef POLC_RUNC_MODEL_H
#define POLC_RUNC_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

struct runc_model {
	struct sock_filter *prog; /* libseccomp's, as runc loads it */
	size_t n;
	uint32_t def;	/* the default action, as a seccomp return value */
	int stub;	/* runc's ENOSYS stub is in front */
	int stub_max;	/* x86_64 numbers above this get ENOSYS */
	int x86_64_max; /* the largest x86_64 number the rules name */
};

/* libseccomp's optimizer for the benchmark (SCMP_FLTATR_CTL_OPTIMIZE):
 * 0 leaves its default, as runc does; 2 is its binary tree. */
extern int runc_model_optimize;

/*
 * Compile the profile at path for a container with the capabilities caps
 * (the whole bounding set, as moby checks it) on kernel kmaj.kmin. 0, or
 * -1 with err (a malformed profile, or libseccomp refusing a rule, which
 * makes runc refuse the container).
 */
int runc_model_build(const char *path, const char *const *caps, size_t ncaps,
		     unsigned kmaj, unsigned kmin, struct runc_model *m,
		     char *err, size_t errlen);

/* What the runtime answers at d: the seccomp return value. */
uint32_t runc_model_decide(const struct runc_model *m,
			   const struct seccomp_data *d);

void runc_model_free(struct runc_model *m);

#endif
