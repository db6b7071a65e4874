/* SPDX-License-Identifier: MIT */
/*
 * polexec --doctor: the kernel features this machine offers, one probe per
 * line. Each probe asks the kernel itself (a syscall's answer, not a config
 * file's claim) where it can.
 *
 * With an artifact, then what that policy needs, each need found or missing
 * on this machine, with how to get what is missing. The exit status is 0
 * when everything is here, 1 otherwise (125 when the artifact itself is
 * defective, as for a run). The needs, by section:
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
 */
#include "doctor.h"
#include "artifact.h"
#include "boxns.h"
#include "cgroup.h"
#include "kernel.h"
#include "net.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/netlink.h>

static int write_errno; /* a failed write to stdout: its errno */

/* "  WHAT             STATUS   DETAIL" on stdout. */
static void line(const char *what, const char *status, const char *detail)
{
	if (out(STDOUT_FILENO, "  %-16s %-8s %s\n", what, status, detail) < 0)
		write_errno = errno;
}

enum probe_result {
	PROBE_FOUND,
	PROBE_MISSING,
};

struct probe {
	const char *name;
	enum probe_result (*run)(char *detail, size_t len);
};

static enum probe_result probe_seccomp(char *d, size_t len)
{
	static const struct {
		uint32_t action;
		const char *name;
	} actions[] = {
	    {SECCOMP_RET_KILL_PROCESS, "kill_process"},
	    {SECCOMP_RET_KILL_THREAD, "kill_thread"},
	    {SECCOMP_RET_TRAP, "trap"},
	    {SECCOMP_RET_ERRNO, "errno"},
	    {SECCOMP_RET_USER_NOTIF, "user_notif"},
	    {SECCOMP_RET_TRACE, "trace"},
	    {SECCOMP_RET_LOG, "log"},
	    {SECCOMP_RET_ALLOW, "allow"},
	};
	size_t i, used;
	uint32_t a = SECCOMP_RET_ALLOW;

	if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &a) < 0) {
		snprintf(d, len, "filter mode unavailable: %s%s",
			 strerror(errno),
			 errno == ENOSYS || errno == EINVAL
			     ? " (kernel without CONFIG_SECCOMP_FILTER?)"
			     : "");
		return PROBE_MISSING;
	}
	used = (size_t)snprintf(d, len, "filter mode; actions:");
	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		a = actions[i].action;
		if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &a) < 0)
			continue;
		if (used < len)
			used += (size_t)snprintf(d + used, len - used, " %s",
						 actions[i].name);
	}
	return PROBE_FOUND;
}

static enum probe_result probe_nnp(char *d, size_t len)
{
	int v = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);

	if (v < 0) {
		snprintf(d, len, "unavailable: %s", strerror(errno));
		return PROBE_MISSING;
	}
	snprintf(d, len, "available (currently %s)", v ? "set" : "unset");
	return PROBE_FOUND;
}

static enum probe_result probe_landlock(char *d, size_t len)
{
	int abi = sys_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0) {
		int e = errno;

		snprintf(d, len, "unavailable: %s%s", strerror(e),
			 e == ENOSYS	   ? " (not built into this kernel)"
			 : e == EOPNOTSUPP ? " (disabled at boot: add landlock "
					     "to the lsm= parameter)"
					   : "");
		return PROBE_MISSING;
	}
	/* What each ABI brought, newest last (landlock.c strips the rest). */
	snprintf(d, len, "ABI %d: fs rights%s%s%s%s%s%s", abi,
		 abi >= 2 ? " +refer" : "", abi >= 3 ? " +truncate" : "",
		 abi >= 5 ? " +ioctl_dev" : "",
		 abi >= 4 ? "; TCP bind/connect ports" : "; no TCP ports",
		 abi >= 6 ? "; scopes abstract_unix_socket signal"
			  : "; no scopes",
		 abi >= 7 ? "; audit log flags" : "");
	return PROBE_FOUND;
}

/* Rule paths are opened with RESOLVE_NO_SYMLINKS (landlock.c). */
static enum probe_result probe_openat2(char *d, size_t len)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve = RESOLVE_NO_SYMLINKS};
	int fd = sys_openat2("/", &how);

	if (fd < 0) {
		snprintf(d, len,
			 "%s: Landlock rule paths are walked one component "
			 "at a time instead",
			 strerror(errno));
		return PROBE_MISSING;
	}
	close(fd);
	snprintf(d, len, "RESOLVE_NO_SYMLINKS for Landlock rule paths");
	return PROBE_FOUND;
}

/* Reads a small /proc file's first line into buf; -1 when absent. */
static int read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static enum probe_result probe_userns(char *d, size_t len)
{
	char max[32] = "?", clone[32] = "";
	int works = boxns_userns_available();

	read_line("/proc/sys/user/max_user_namespaces", max, sizeof(max));
	if (read_line("/proc/sys/kernel/unprivileged_userns_clone", clone,
		      sizeof(clone)) < 0)
		snprintf(clone, sizeof(clone), "absent");
	snprintf(
	    d, len, "%s (max_user_namespaces=%s, unprivileged_userns_clone=%s)",
	    works ? "available to this user" : "not available to this user",
	    max, clone);
	return works ? PROBE_FOUND : PROBE_MISSING;
}

/* The limits tiers (cgroup.c, and rlimits below) and pasta. */
static enum probe_result probe_cgroup_v2(char *d, size_t len)
{
	return cgroup_probe_v2(d, len) ? PROBE_MISSING : PROBE_FOUND;
}

static enum probe_result probe_cgroup_v1(char *d, size_t len)
{
	return cgroup_probe_v1(d, len) ? PROBE_MISSING : PROBE_FOUND;
}

static enum probe_result probe_rlimits(char *d, size_t len)
{
	struct rlimit nofile, nproc;

	if (sys_prlimit(RLIMIT_NOFILE, NULL, &nofile) < 0 ||
	    sys_prlimit(RLIMIT_NPROC, NULL, &nproc) < 0) {
		snprintf(d, len, "getrlimit: %s", strerror(errno));
		return PROBE_MISSING;
	}
	snprintf(d, len,
		 "AS NPROC NOFILE CPU FSIZE CORE (hard nofile %llu); "
		 "RLIMIT_NPROC %s",
		 (unsigned long long)nofile.rlim_max,
		 getuid() == 0 ? "does not bind root"
		 : boxns_userns_available()
		     ? "counts the box alone in its own user namespace"
		     : "counts every process of this uid (no user namespace)");
	return PROBE_FOUND;
}

static enum probe_result probe_pasta(char *d, size_t len)
{
	const char *path = getenv("PATH"), *dir, *end;
	char cand[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
		       "/sbin:/bin";
	for (dir = path; *dir; dir = *end ? end + 1 : end) {
		struct stat st;
		int n;

		end = strchr(dir, ':');
		if (!end)
			end = dir + strlen(dir);
		if (end == dir)
			continue;
		n = snprintf(cand, sizeof(cand), "%.*s/pasta", (int)(end - dir),
			     dir);
		if (n < 0 || (size_t)n >= sizeof(cand))
			continue;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			snprintf(d, len, "%s", cand);
			return PROBE_FOUND;
		}
	}
	snprintf(d, len,
		 "not in PATH; `net filtered` needs it: apt-get install passt");
	return PROBE_MISSING;
}

static enum probe_result probe_nft(char *d, size_t len)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);

	if (fd < 0) {
		snprintf(d, len, "NETLINK_NETFILTER socket: %s",
			 strerror(errno));
		return PROBE_MISSING;
	}
	close(fd);
	snprintf(d, len, "NETLINK_NETFILTER socket opens");
	return PROBE_FOUND;
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
					 cgroup_hint_v2);
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
	out(STDOUT_FILENO, "\nwhat %s needs:\n", path);
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

static const struct probe probes[] = {
    {"seccomp", probe_seccomp},
    {"no_new_privs", probe_nnp},
    {"landlock", probe_landlock},
    {"openat2", probe_openat2},
    {"user namespaces", probe_userns},
    {"cgroup v2", probe_cgroup_v2},
    {"cgroup v1", probe_cgroup_v1},
    {"rlimits", probe_rlimits},
    {"pasta", probe_pasta},
    {"nftables", probe_nft},
};

int doctor(const char *artifact)
{
	size_t i;
	int rc = 0;

	out(STDOUT_FILENO, "polexec %s: kernel features found\n", POLC_VERSION);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		char detail[512] = "";
		enum probe_result r = probes[i].run(detail, sizeof(detail));

		line(probes[i].name, r == PROBE_FOUND ? "found" : "MISSING",
		     detail);
	}
	if (artifact)
		rc = check_artifact(artifact);
	if (write_errno) {
		errno = write_errno;
		die_with_error("doctor: write");
	}
	return rc;
}
