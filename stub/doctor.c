/* SPDX-License-Identifier: MIT */
/*
 * polexec --doctor ARTIFACT: what that policy needs, each need found or
 * missing on this machine, with how to get what is missing. The exit
 * status is 0 when everything is here, 1 otherwise (125 when the artifact
 * itself is defective, as for a run). The needs, by section:
 *   seccomp   the filter mode of seccomp and no_new_privs
 *   limits    each limit's tier, found by making (and removing) the box's
 *             cgroups as a run would; under `limits require` memory or
 *             pids without a cgroup is missing, under best_effort it is
 *             reported degraded
 *   env       secrets need a mount namespace of the box's own: root, or
 *             a user namespace
 *   net       the box's network namespace (a user namespace when not
 *             root), and for pasta the binary and /dev/net/tun
 *   any other critical section (a newer layer, a marker of a layer polc
 *             could not compile): this polexec does not enforce it
 *
 * The kernel's features, with no artifact, are `polc doctor`'s report
 * (tools/doctor_report.c): it needs no privilege and no box.
 */
#include "doctor.h"
#include "artifact.h"
#include "boxns.h"
#include "cgroup.h"
#include "kernel.h"
#include "net.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char hint_v2[] =
    "run polexec in a delegated cgroup v2 of its own: systemd-run --user "
    "--scope -p Delegate=yes polexec ... (with a user manager: loginctl "
    "enable-linger USER)";

static int write_errno; /* a failed write to stdout: its errno */

/* "  WHAT             STATUS   DETAIL" on stdout. */
static void line(const char *what, const char *status, const char *detail)
{
	if (out(STDOUT_FILENO, "  %-16s %-8s %s\n", what, status, detail) < 0)
		write_errno = errno;
}

static int check_seccomp(void)
{
	uint32_t allow = SECCOMP_RET_ALLOW;

	if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &allow) < 0 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) < 0) {
		line("seccomp", "MISSING",
		     "the seccomp filter mode or no_new_privs is missing: a "
		     "kernel with CONFIG_SECCOMP_FILTER is needed");
		return 1;
	}
	line("seccomp", "found", "filter mode and no_new_privs");
	return 0;
}

static int check_secrets(const struct policy *p)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->nenv; i++)
		n += p->env[i].kind == ENV_SECRET;
	if (!n)
		return 0;
	if (boxns_is_root()) {
		line("env secrets", "found",
		     "a mount namespace of the box's own (root)");
		return 0;
	}
	if (boxns_userns_available()) {
		line("env secrets", "found",
		     "a user and a mount namespace of the box's own");
		return 0;
	}
	line("env secrets", "MISSING",
	     "the box's own mount namespace needs a user namespace, which "
	     "this user may not create: set user.max_user_namespaces above "
	     "0 (and kernel.unprivileged_userns_clone=1 where it exists), or "
	     "run as root");
	return 1;
}

static int check_net(const struct policy *p)
{
	const struct net_spec *n = &p->net;
	const char *what = n->mode == POLBIN_NET_FILTERED ? "net filtered"
			   : n->nloopback		  ? "net loopback"
							  : "net none";
	int pasta = n->mode == POLBIN_NET_FILTERED || n->nloopback, missing = 0;

	if (!n->present)
		return 0;
	if (boxns_is_root() && !pasta) {
		line(what, "found",
		     "a network namespace of the box's own (root)");
	} else if (boxns_userns_available()) {
		line(what, "found",
		     "a user and a network namespace of the box's own");
	} else {
		line(what, "MISSING",
		     "the box's own network namespace needs a user namespace, "
		     "which this user may not create: set "
		     "user.max_user_namespaces above 0 (and "
		     "kernel.unprivileged_userns_clone=1 where it exists), or "
		     "run as root");
		missing = 1;
	}
	if (pasta && !net_pasta_path()) {
		line("pasta", "MISSING",
		     "install the Debian package passt (/usr/bin/pasta)");
		missing = 1;
	} else if (pasta) {
		line("pasta", "found", net_pasta_path());
	}
	if (pasta && !net_tun_usable()) {
		line("/dev/net/tun", "MISSING",
		     "pasta opens it: this user needs read and write access "
		     "(udev's usual mode is 0666)");
		missing = 1;
	}
	return missing;
}

/*
 * The tier each limit would get here, found by making (and removing) the
 * box's cgroups; one line per limit. Returns how many miss what the
 * policy requires.
 */
static int check_limits(const struct policy *p)
{
	int require = !!(p->limits.flags & POLBIN_LIMITS_F_REQUIRE),
	    missing = 0;
	uint32_t want = 0;
	char detail[2048];
	int i;

	if (!p->limits.present || !(p->limits.flags & POLBIN_LIMITS_F_STATED)) {
		line("limits", "found", "none stated (core dumps off)");
		return 0;
	}
	if (p->limits.set >> POLBIN_LIM_MEMORY & 1)
		want |= CG_MEMORY;
	if (p->limits.set >> POLBIN_LIM_PIDS & 1)
		want |= CG_PIDS;
	/* cgroup_tier() below reads what it got */
	cgroup_acquire(want, p->limits.value[POLBIN_LIM_MEMORY],
		       p->limits.value[POLBIN_LIM_PIDS]);
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const char *status = "found", *tier;
		char what[32];

		if (!(p->limits.set >> i & 1) || i == POLBIN_LIM_GRACE ||
		    (i == POLBIN_LIM_CORE && !p->limits.value[i]))
			continue;
		snprintf(what, sizeof(what), "limits %s", lim_name[i]);
		if (i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) {
			uint32_t bit =
			    i == POLBIN_LIM_MEMORY ? CG_MEMORY : CG_PIDS;

			tier = cgroup_tier(bit);
			if (!tier && i == POLBIN_LIM_PIDS && getuid() != 0 &&
			    boxns_userns_available())
				tier = "rlimit-userns (the box's own count)";
			if (!tier) {
				status = require ? "MISSING" : "degraded";
				missing += require;
				snprintf(detail, sizeof(detail),
					 "only %s here (%s); %s. To get a "
					 "cgroup: run as root where cgroup v1 "
					 "is mounted, or %s",
					 i == POLBIN_LIM_MEMORY
					     ? "RLIMIT_AS of each process"
					 : getuid() == 0
					     ? "not enforced, root is exempt "
					       "from RLIMIT_NPROC"
					     : "RLIMIT_NPROC of the whole uid",
					 cgroup_why(),
					 require ? "`limits require` refuses "
						   "that"
						 : "best_effort runs with a "
						   "warning",
					 hint_v2);
				line(what, status, detail);
				continue;
			}
		} else {
			tier = i == POLBIN_LIM_WALL ? "parent (SIGTERM, then "
						      "SIGKILL after grace)"
						    : "rlimit";
		}
		line(what, status, tier);
	}
	cgroup_remove();
	return missing;
}

/* With an artifact: what it needs, found or missing; 0 or 1. */
static int check_artifact(const char *path)
{
	static struct policy policy;
	struct polbin pb;
	uint32_t everything[256], i;
	int missing = 0;
	char err[256];

	artifact_read(path, &policy);
	for (i = 0; i < 255; i++)
		everything[i] = i + 1;
	everything[255] = 0;
	if (polbin_parse(policy.buf, policy.len, everything, &pb, err,
			 sizeof(err)) < 0)
		die("doctor: %s: %s", path, err);
	out(STDOUT_FILENO, "what %s needs:\n", path);
	for (i = 0; i < pb.nsections; i++) {
		const struct polbin_section *s = &pb.sections[i];

		if (!(s->flags & POLBIN_F_CRITICAL) ||
		    artifact_implements(s->type))
			continue;
		missing++;
		line(s->type == POLBIN_SEC_UNENFORCED
			 ? "uncompiled"
			 : polbin_section_name(s->type),
		     "MISSING",
		     s->type == POLBIN_SEC_UNENFORCED
			 ? "the policy states layers polc could not compile; "
			   "no polexec runs it"
			 : "this polexec does not enforce this layer; a newer "
			   "polexec is needed");
	}
	if (!missing) {
		/* validated as for a run */
		artifact_decode(path, &policy, policy.buf, policy.len);
		if (policy.nfilter)
			missing += check_seccomp();
		missing += check_limits(&policy);
		missing += check_secrets(&policy);
		missing += check_net(&policy);
	}
	if (missing)
		out(STDOUT_FILENO,
		    "%d need%s missing: polexec would refuse or degrade "
		    "this artifact here\n",
		    missing, missing == 1 ? " is" : "s are");
	else
		out(STDOUT_FILENO, "everything it needs is here\n");
	return missing ? 1 : 0;
}

int doctor(const char *artifact)
{
	int rc;

	if (!artifact)
		die("doctor: the kernel's features are `polc doctor` now; "
		    "`polexec --doctor ARTIFACT` says what one artifact needs "
		    "here");
	rc = check_artifact(artifact);
	if (write_errno) {
		errno = write_errno;
		die_with_error("doctor: write");
	}
	return rc;
}
