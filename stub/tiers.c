/* SPDX-License-Identifier: MIT */
/*
 * polexec --doctor ARTIFACT: what that policy needs, each need found or
 * missing on this machine, with how to get what is missing. The exit
 * status is 0 when everything is here, 1 otherwise (125 when the artifact
 * itself is defective, as for a run).
 *
 * The needs, by section:
 *   seccomp   the filter mode of seccomp and no_new_privs
 *   limits    each limit's tier, found by making (and removing) the box's
 *             cgroups as a run would (limits_doctor.c); under `limits require`
 *             memory or pids without a cgroup is missing, under
 *             best_effort it is reported degraded
 *   env       secrets need a mount namespace of the box's own: root, or
 *             a user namespace
 *   any other critical section (landlock, nft, a marker of a layer polc
 *             could not compile): this polexec does not enforce it
 */
#include "polexec.h"
#include "kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

int tiers_probe_pasta(char *d, size_t len)
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
			return 0;
		}
	}
	snprintf(d, len,
		 "not in PATH; `net filtered` needs it: apt-get install passt");
	return 1;
}

static void line(const char *what, const char *status, const char *detail)
{
	printf("  %-16s %-8s %s\n", what, status, detail);
}

/* The file's sections, with every type accepted: which ones are there. */
static void list_sections(const char *path, struct polbin *pb, uint8_t **buf)
{
	uint32_t everything[256], i;
	struct stat st;
	size_t got = 0;
	char err[256];
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		die_with_error("doctor: open %s", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)POLBIN_MAX_SIZE)
		die("doctor: %s: not a regular file of at most %u bytes", path,
		    POLBIN_MAX_SIZE);
	*buf = xcalloc((size_t)st.st_size + 1, 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("doctor: %s: cannot read it whole", path);
		got += (size_t)n;
	}
	close(fd);
	for (i = 0; i < 255; i++)
		everything[i] = i + 1;
	everything[255] = 0;
	if (polbin_parse(*buf, got, everything, pb, err, sizeof(err)) < 0)
		die("doctor: %s: %s", path, err);
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

int tiers_check_artifact(const char *path)
{
	static struct policy policy;
	struct polbin pb;
	uint8_t *buf = NULL;
	int missing = 0;
	uint32_t i;

	list_sections(path, &pb, &buf);
	printf("\nwhat %s needs:\n", path);
	for (i = 0; i < pb.nsections; i++) {
		const struct polbin_section *s = &pb.sections[i];
		char what[64];

		if (!(s->flags & POLBIN_F_CRITICAL) ||
		    artifact_implements(s->type))
			continue;
		missing++;
		snprintf(what, sizeof(what), "%s",
			 s->type == POLBIN_SEC_UNENFORCED
			     ? "uncompiled"
			     : polbin_section_name(s->type));
		line(what, "MISSING",
		     s->type == POLBIN_SEC_UNENFORCED
			 ? "the policy states layers polc could not compile; "
			   "no polexec runs it"
			 : "this polexec does not enforce this layer; a newer "
			   "polexec is needed");
	}
	free(buf);
	if (!missing) {
		artifact_load(path, &policy); /* validated as for a run */
		if (policy.nfilter)
			missing += check_seccomp();
		missing += limits_doctor(&policy);
		missing += check_secrets(&policy);
		missing += check_net(&policy);
	}
	if (missing)
		printf("%d need%s missing: polexec would refuse or degrade "
		       "this artifact here\n",
		       missing, missing == 1 ? " is" : "s are");
	else
		printf("everything it needs is here\n");
	if (fflush(stdout) != 0)
		die_with_error("doctor: write");
	return missing ? 1 : 0;
}
