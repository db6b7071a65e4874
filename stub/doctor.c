/* SPDX-License-Identifier: MIT */
/*
 * polexec --doctor: the kernel features this machine offers, one probe per
 * line. Each probe asks the kernel itself (a syscall's answer, not a config
 * file's claim) where it can. With an artifact, tiers.c then checks what
 * that policy needs against what was found, and the exit status says.
 */
#include "polexec.h"
#include "kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/openat2.h>

#ifndef __NR_openat2
#define __NR_openat2 437
#endif

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
	int fd = (int)syscall(__NR_openat2, AT_FDCWD, "/", &how, sizeof(how));

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

/* Asks the kernel: can a child of ours create a user namespace? */
static int userns_works(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static enum probe_result probe_userns(char *d, size_t len)
{
	char max[32] = "?", clone[32] = "";
	int works = userns_works();

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

/* The limits tiers and pasta (tiers.c, limits_doctor.c). */
static enum probe_result probe_cgroup_v2(char *d, size_t len)
{
	return limits_probe_cgroup_v2(d, len) ? PROBE_MISSING : PROBE_FOUND;
}

static enum probe_result probe_cgroup_v1(char *d, size_t len)
{
	return limits_probe_cgroup_v1(d, len) ? PROBE_MISSING : PROBE_FOUND;
}

static enum probe_result probe_rlimits(char *d, size_t len)
{
	return limits_probe_rlimits(d, len) ? PROBE_MISSING : PROBE_FOUND;
}

static enum probe_result probe_pasta(char *d, size_t len)
{
	return tiers_probe_pasta(d, len) ? PROBE_MISSING : PROBE_FOUND;
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

static const struct probe probes[] = {
    {"seccomp", probe_seccomp},	    {"no_new_privs", probe_nnp},
    {"landlock", probe_landlock},   {"openat2", probe_openat2},
    {"user namespaces", probe_userns}, {"cgroup v2", probe_cgroup_v2},
    {"cgroup v1", probe_cgroup_v1},   {"rlimits", probe_rlimits},
    {"pasta", probe_pasta},
    {"nftables", probe_nft},
};

int doctor(const char *artifact)
{
	size_t i;

	printf("polexec %s: kernel features found\n", POLC_VERSION);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		char detail[512] = "";
		enum probe_result r = probes[i].run(detail, sizeof(detail));

		printf("  %-16s %-8s %s\n", probes[i].name,
		       r == PROBE_FOUND ? "found" : "MISSING", detail);
	}
	if (fflush(stdout) != 0)
		die_with_error("doctor: write");
	return artifact ? tiers_check_artifact(artifact) : 0;
}
