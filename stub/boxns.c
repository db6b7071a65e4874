/* SPDX-License-Identifier: MIT */
/*
 * The box's own namespaces. Two layers ask for them: secrets need a mount
 * namespace (a private tmpfs, secrets.c) and, for a caller who is not root,
 * the user namespace that lets it mount; a pids limit without a cgroup
 * needs a user namespace, in which RLIMIT_NPROC counts the box's own
 * processes only (limits.c). The parent decides; the child enters them
 * right after it joined its cgroups, before anything else it sets up.
 *
 * The user namespace maps the caller's uid and gid to themselves, nothing
 * else: the box keeps its identity, files owned by other users show as
 * the overflow uid (nobody) inside it. setgroups is denied in it, as the
 * kernel requires for an unprivileged gid_map.
 */
#include "boxns.h"
#include "userns.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static struct {
	int want; /* BOXNS_* */
	int probed, userns_ok;
	int premade, userfd, netfd; /* a pair made by net.c's helper */
	/* made here: in its new user namespace, the child is nobody */
	char uid_map[64], gid_map[64];
} ns;

int boxns_is_root(void)
{
	return getuid() == 0 && geteuid() == 0;
}

/* The probe's child: a user namespace, and our uid mapped in it, as the
 * box child will (under AppArmor's restriction the unshare succeeds and
 * the uid_map write is what fails). */
static _Noreturn void probe_child(void)
{
	char map[64];
	int fd, n = snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)geteuid(),
			     (unsigned)geteuid());

	if (unshare(CLONE_NEWUSER) < 0)
		_exit(1);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		_exit(2);
	fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, map, (size_t)n) != n)
		_exit(3);
	_exit(0);
}

/* Asks the kernel: may a child of ours create a user namespace and map
 * itself in it? Cached. */
int boxns_userns_available(void)
{
	int status;
	pid_t pid;

	if (ns.probed)
		return ns.userns_ok;
	ns.probed = 1;
	pid = fork();
	if (pid < 0)
		return ns.userns_ok = 0;
	if (pid == 0)
		probe_child();
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ns.userns_ok = 0;
	ns.userns_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return ns.userns_ok;
}

const char *boxns_userns_why(void)
{
	static char why[1024];
	struct userns_sysctls s;
	struct userns_files f;

	if (!why[0]) {
		userns_read(&s, &f);
		userns_explain(&s, why, sizeof(why));
	}
	return why;
}

/* A step of making the box's user namespace failed: the refusal names the
 * likely cause. No allocation: the child may be the one dying. */
static _Noreturn void die_userns(const char *what, int err)
{
	char why[1024];
	struct userns_sysctls s;
	struct userns_files f;

	userns_read(&s, &f);
	userns_explain(&s, why, sizeof(why));
	die("%s: %s; likely cause: %s", what, strerror(err), why);
}

void boxns_want(int what)
{
	ns.want |= what;
	/* Without root, a mount or network namespace needs a user one. */
	if ((ns.want & (BOXNS_MOUNT | BOXNS_NET)) && !boxns_is_root())
		ns.want |= BOXNS_USER;
	snprintf(ns.uid_map, sizeof(ns.uid_map), "%u %u 1\n",
		 (unsigned)geteuid(), (unsigned)geteuid());
	snprintf(ns.gid_map, sizeof(ns.gid_map), "%u %u 1\n",
		 (unsigned)getegid(), (unsigned)getegid());
}

int boxns_wanted(int what)
{
	return (ns.want & what) == what;
}

/* The child may not allocate: a write of a small string, checked; a
 * failure names the likely cause (AppArmor's restriction fails here). */
static void put_proc(const char *path, const char *text)
{
	char what[128];
	size_t n = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		die_with_error("child: open %s", path);
	if (write(fd, text, n) != (ssize_t)n) {
		snprintf(what, sizeof(what), "child: write %s", path);
		die_userns(what, errno);
	}
	if (close(fd) < 0)
		die_with_error("child: close %s", path);
}

/*
 * A new network namespace holds one interface, lo, and it is down. Brought
 * up, the box can talk to itself on 127.0.0.1 and nothing else: there is
 * no other interface, hence no route; the host's loopback is another
 * namespace's. Needs CAP_NET_ADMIN in the new namespace, which the child
 * still has here (capabilities are dropped later).
 */
static void loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die_with_error("child: net: socket(AF_INET)");
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die_with_error("child: net: SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		die_with_error("child: net: SIOCSIFFLAGS lo up");
	if (close(fd) < 0)
		die_with_error("child: net: close");
}

/*
 * After it: the child is in the namespaces the parent asked for. In a new
 * user namespace it is the caller's uid and gid, mapped to themselves, with
 * every capability in that namespace (dropped later, with the rest); in a
 * new mount namespace every mount is private, so nothing it mounts reaches
 * the host and nothing the host mounts later reaches the box.
 *
 * Writing our own uid_map needs our /proc files to be ours: polexec made
 * its memory non-dumpable (protect.c), which makes them root's. We share
 * that memory until execve (CLONE_VM), so it is dumpable for the three
 * writes below and non-dumpable again before anything else runs. Nothing
 * secret is in it (secrets.c never reads a secret into memory: the kernel
 * copies it file to file); another process of the caller's uid could, for
 * those microseconds, read what it can read in the caller's own shell.
 */
static void enter(int want)
{
	int flags = 0;

	if (want & BOXNS_USER)
		flags |= CLONE_NEWUSER;
	if (want & BOXNS_MOUNT)
		flags |= CLONE_NEWNS;
	if (want & BOXNS_NET)
		flags |= CLONE_NEWNET;
	if (!flags)
		return;
	if (unshare(flags) < 0) {
		char what[64];
		int e = errno;

		snprintf(what, sizeof(what), "child: unshare(%s%s%s)",
			 flags & CLONE_NEWUSER ? "USER " : "",
			 flags & CLONE_NEWNS ? "MOUNT " : "",
			 flags & CLONE_NEWNET ? "NET" : "");
		if (flags & CLONE_NEWUSER)
			die_userns(what, e);
		errno = e;
		die_with_error("%s", what);
	}
	if (flags & CLONE_NEWUSER) {
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			die_with_error("child: prctl(PR_SET_DUMPABLE, 1)");
		put_proc("/proc/self/setgroups", "deny\n");
		put_proc("/proc/self/uid_map", ns.uid_map);
		put_proc("/proc/self/gid_map", ns.gid_map);
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			die_with_error("child: prctl(PR_SET_DUMPABLE, 0)");
	}
	if (flags & CLONE_NEWNET)
		loopback_up();
	if ((flags & CLONE_NEWNS) &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die_with_error("child: mount(/, MS_REC | MS_PRIVATE)");
}

void boxns_premade(int userfd, int netfd)
{
	ns.userfd = userfd;
	ns.netfd = netfd;
	ns.premade = 1;
}

/* net.c's helper: the user and network namespaces alone, lo up. */
void boxns_helper_enter(void)
{
	enter(ns.want & (BOXNS_USER | BOXNS_NET));
}

void boxns_child_enter(void)
{
	int want = ns.want;

	if (ns.premade) {
		/* Joined in this order: the user namespace first, which gives
		 * the capability to join the network one it owns. */
		if (ns.userfd >= 0 && setns(ns.userfd, CLONE_NEWUSER) < 0)
			die_with_error("child: setns(user)");
		if (setns(ns.netfd, CLONE_NEWNET) < 0)
			die_with_error("child: setns(net)");
		want &= ~(BOXNS_USER | BOXNS_NET);
	}
	enter(want);
}
