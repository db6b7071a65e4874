/* SPDX-License-Identifier: MIT */
/*
 * The kernel features polexec can use on this machine, one probe per line:
 *
 *   NAME             found|MISSING  DETAIL
 *
 * Each probe asks the kernel itself (a syscall's answer, not a config
 * file's claim) where it can. Self-contained: libc and the kernel's uapi
 * headers only; polc runs it as `polc doctor` (cli.h).
 * What one artifact needs on this machine is `polexec --doctor ARTIFACT`.
 */
#include "cli.h"
#include "abi/userns.h"	     /* why a user namespace cannot be made */
#include "backend/backend.h" /* ebpf_probe */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/landlock.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif

/* 0 found, 1 missing; one line of detail in d. */
typedef int probe_fn(char *d, size_t len);

static const char hint_v2[] =
    "run polexec in a delegated cgroup v2 of its own: systemd-run --user "
    "--scope -p Delegate=yes polexec ... (with a user manager: loginctl "
    "enable-linger USER)";

static int probe_seccomp(char *d, size_t len)
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
	uint32_t a = SECCOMP_RET_ALLOW;
	size_t i, used;

	if (syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &a) < 0) {
		snprintf(d, len, "filter mode unavailable: %s%s",
			 strerror(errno),
			 errno == ENOSYS || errno == EINVAL
			     ? " (kernel without CONFIG_SECCOMP_FILTER?)"
			     : "");
		return 1;
	}
	used = (size_t)snprintf(d, len, "filter mode; actions:");
	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		a = actions[i].action;
		if (syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &a) < 0)
			continue;
		if (used < len)
			used += (size_t)snprintf(d + used, len - used, " %s",
						 actions[i].name);
	}
	return 0;
}

static int probe_nnp(char *d, size_t len)
{
	int v = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);

	if (v < 0) {
		snprintf(d, len, "unavailable: %s", strerror(errno));
		return 1;
	}
	snprintf(d, len, "available (currently %s)", v ? "set" : "unset");
	return 0;
}

static int probe_landlock(char *d, size_t len)
{
	long abi = syscall(__NR_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0) {
		int e = errno;

		snprintf(d, len, "unavailable: %s%s", strerror(e),
			 e == ENOSYS	   ? " (not built into this kernel)"
			 : e == EOPNOTSUPP ? " (disabled at boot: add landlock "
					     "to the lsm= parameter)"
					   : "");
		return 1;
	}
	/* What each ABI brought, newest last (polexec strips the rest). */
	snprintf(d, len, "ABI %ld: fs rights%s%s%s%s%s%s", abi,
		 abi >= 2 ? " +refer" : "", abi >= 3 ? " +truncate" : "",
		 abi >= 5 ? " +ioctl_dev" : "",
		 abi >= 4 ? "; TCP bind/connect ports" : "; no TCP ports",
		 abi >= 6 ? "; scopes abstract_unix_socket signal"
			  : "; no scopes",
		 abi >= 7 ? "; audit log flags" : "");
	return 0;
}

/* polexec opens Landlock rule paths with RESOLVE_NO_SYMLINKS. */
static int probe_openat2(char *d, size_t len)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve = RESOLVE_NO_SYMLINKS};
	long fd = syscall(__NR_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd < 0) {
		snprintf(d, len,
			 "%s: Landlock rule paths are walked one component "
			 "at a time instead",
			 strerror(errno));
		return 1;
	}
	close((int)fd);
	snprintf(d, len, "RESOLVE_NO_SYMLINKS for Landlock rule paths");
	return 0;
}

/* Asks the kernel: may a child of ours create a user namespace and map
 * its uid in it, as polexec's box does? (Under AppArmor's restriction the
 * unshare succeeds and the uid_map write fails.) */
static int userns_works(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0) {
		char map[64];
		int n = snprintf(map, sizeof(map), "%u %u 1\n",
				 (unsigned)geteuid(), (unsigned)geteuid());
		int fd = unshare(CLONE_NEWUSER) == 0
			     ? open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC)
			     : -1;

		_exit(fd >= 0 && write(fd, map, (size_t)n) == n ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int probe_userns(char *d, size_t len)
{
	struct userns_sysctls s;
	struct userns_files f;
	int works = userns_works();

	userns_read(&s, &f);
	if (!works) {
		char why[1024];

		userns_explain(&s, why, sizeof(why));
		snprintf(d, len, "not available to this user: %s", why);
		return 1;
	}
	snprintf(d, len,
		 "available to this user (max_user_namespaces=%s, "
		 "unprivileged_userns_clone=%s, "
		 "apparmor_restrict_unprivileged_userns=%s)",
		 s.max_user_namespaces ? s.max_user_namespaces : "?",
		 s.unprivileged_userns_clone ? s.unprivileged_userns_clone
					     : "absent",
		 s.apparmor_restrict ? s.apparmor_restrict : "absent");
	return 0;
}

/* Is word one of the comma-separated tokens of list? */
static int has_token(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ',' || p[-1] == ' ') &&
		    strchr(", \n", p[n]))
			return 1;
	return 0;
}

/*
 * Our own cgroup in the cgroup2 hierarchy (ctrl NULL) or in the v1
 * hierarchy holding ctrl: the mount point of the hierarchy's root from
 * /proc/self/mountinfo into mnt, then our path in it from
 * /proc/self/cgroup, joined, into dir. 0; -1 when mounted but our cgroup
 * was not found; -2 when not mounted.
 */
static int cgroup_dir(const char *ctrl, char *mnt, char *dir, size_t len)
{
	char root[PATH_MAX], at[PATH_MAX], type[64], opts[4096];
	char *line = NULL, *ctrls, *path;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int rc = -2;

	while (f && rc == -2 && getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ");

		if (sep &&
		    sscanf(line, "%*s %*s %*s %4095s %4095s", root, at) == 2 &&
		    sscanf(sep, " - %63s %*s %4095s", type, opts) == 2 &&
		    !strcmp(root, "/") && !strchr(at, '\\') &&
		    (ctrl ? !strcmp(type, "cgroup") && has_token(opts, ctrl)
			  : !strcmp(type, "cgroup2")) &&
		    snprintf(mnt, len, "%s", at) < (int)len)
			rc = -1;
	}
	if (f)
		fclose(f);
	f = rc == -1 ? fopen("/proc/self/cgroup", "re") : NULL;
	while (f && rc == -1 && getline(&line, &cap, f) > 0) {
		if (!(ctrls = strchr(line, ':')) ||
		    !(path = strchr(ctrls + 1, ':')))
			continue;
		*ctrls++ = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if ((ctrl ? has_token(ctrls, ctrl)
			  : !strcmp(line, "0") && !ctrls[0]) &&
		    snprintf(dir, len, "%s%s", mnt,
			     strcmp(path, "/") ? path : "") < (int)len)
			rc = 0;
	}
	if (f)
		fclose(f);
	free(line);
	return rc;
}

static int probe_cgroup_v2(char *d, size_t len)
{
	char mnt[PATH_MAX], dir[PATH_MAX], ctl[256] = "", sub[PATH_MAX + 32];
	int rc = cgroup_dir(NULL, mnt, dir, sizeof(dir)), mem, pids, writable;
	FILE *f = NULL;

	if (rc == -2) {
		snprintf(d, len, "not mounted; to use it, %s", hint_v2);
		return 1;
	}
	if (rc == 0 && snprintf(sub, sizeof(sub), "%s/cgroup.controllers",
				dir) < (int)sizeof(sub))
		f = fopen(sub, "re");
	if (!f || !fgets(ctl, sizeof(ctl), f)) {
		if (f)
			fclose(f);
		snprintf(d, len, "mounted at %s, polexec's cgroup unreadable",
			 mnt);
		return 1;
	}
	fclose(f);
	ctl[strcspn(ctl, "\n")] = '\0';
	mem = has_token(ctl, "memory");
	pids = has_token(ctl, "pids");
	writable = access(dir, W_OK) == 0 &&
		   snprintf(sub, sizeof(sub), "%s/cgroup.subtree_control",
			    dir) < (int)sizeof(sub) &&
		   access(sub, W_OK) == 0;
	if (mem && pids && writable) {
		snprintf(d, len, "%s: memory and pids delegated to polexec",
			 dir);
		return 0;
	}
	snprintf(d, len, "%s offers [%s]%s; %s%s", dir, ctl,
		 writable ? "" : ", not writable by this user",
		 !mem || !pids
		     ? "memory and pids are not v2 controllers here (a hybrid "
		       "host keeps them in v1; boot with "
		       "systemd.unified_cgroup_hierarchy=1 for v2); then "
		     : "",
		 hint_v2);
	return 1;
}

static int probe_cgroup_v1(char *d, size_t len)
{
	static const char *const ctrls[] = {"memory", "pids"};
	char mnt[PATH_MAX], dir[PATH_MAX];
	size_t used = 0, i;
	int ok = 0;

	for (i = 0; i < 2; i++) {
		const char *state = "usable";

		if (cgroup_dir(ctrls[i], mnt, dir, sizeof(dir)) < 0)
			state = "not mounted";
		else if (access(dir, W_OK) < 0)
			state = "mounted, not writable (needs root)";
		else
			ok++;
		if (used < len)
			used +=
			    (size_t)snprintf(d + used, len - used, "%s%s %s",
					     i ? "; " : "", ctrls[i], state);
	}
	return ok == 2 ? 0 : 1;
}

static int probe_rlimits(char *d, size_t len)
{
	struct rlimit nofile, nproc;

	if (getrlimit(RLIMIT_NOFILE, &nofile) < 0 ||
	    getrlimit(RLIMIT_NPROC, &nproc) < 0) {
		snprintf(d, len, "getrlimit: %s", strerror(errno));
		return 1;
	}
	snprintf(d, len,
		 "AS NPROC NOFILE CPU FSIZE CORE (hard nofile %llu); "
		 "RLIMIT_NPROC %s",
		 (unsigned long long)nofile.rlim_max,
		 getuid() == 0 ? "does not bind root"
		 : userns_works()
		     ? "counts the box alone in its own user namespace"
		     : "counts every process of this uid (no user namespace)");
	return 0;
}

static int probe_pasta(char *d, size_t len)
{
	const char *path = getenv("PATH"), *dir, *end;
	char cand[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
		       "/sbin:/bin";
	for (dir = path; *dir; dir = *end ? end + 1 : end) {
		struct stat st;

		end = strchrnul(dir, ':');
		if (end == dir ||
		    snprintf(cand, sizeof(cand), "%.*s/pasta", (int)(end - dir),
			     dir) >= (int)sizeof(cand))
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

static int probe_nft(char *d, size_t len)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);

	if (fd < 0) {
		snprintf(d, len, "NETLINK_NETFILTER socket: %s",
			 strerror(errno));
		return 1;
	}
	close(fd);
	snprintf(d, len, "NETLINK_NETFILTER socket opens");
	return 0;
}

int doctor_report(FILE *out)
{
	static const struct {
		const char *name;
		probe_fn *run;
	} probes[] = {
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
	    {"cgroup eBPF", ebpf_probe},
	};
	size_t i;

	fprintf(out, "kernel features polexec can use here\n");
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		char detail[1024] = "";
		int missing = probes[i].run(detail, sizeof(detail));

		fprintf(out, "  %-16s %-8s %s\n", probes[i].name,
			missing ? "MISSING" : "found", detail);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
