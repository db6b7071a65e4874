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
 * kernel requires for an unprivileged gid_map. With `user U:G` (user.c)
 * the caller's uid and gid are seen as U and G instead; a root caller's
 * namespace (pasta's pair) is made by a process that became U:G first, so
 * that the one mapping it may write, its own ids, is U:G.
 */
#include "boxns.h"
#include "lib/kernel.h"
#include "abi/userns.h"
#include "lib/util.h"

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
#include <grp.h>
#include <unistd.h>

static struct {
	int want; /* BOXNS_* */
	int probed, userns_ok;
	int premade, userfd, netfd; /* a pair made by net.c's helper */
	/* made here: in its new user namespace, the child is nobody */
	char uid_map[64], gid_map[64];
	int user;	   /* boxns_map_user() was called */
	int root_caller;   /* by root: the box's ids are taken for real */
	unsigned uid, gid; /* the box's ids */
} ns;

int boxns_is_root(void)
{
	return getuid() == 0 && geteuid() == 0;
}

/*
 * Root that may make namespaces itself: uid 0 with CAP_SYS_ADMIN. Root in
 * a box whose capabilities were dropped (a polexec inside a polexec) is
 * any other caller: its namespaces need a user one.
 */
int boxns_privileged(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];

	return boxns_is_root() && syscall(SYS_capget, &hdr, data) == 0 &&
	       data[0].effective >> CAP_SYS_ADMIN & 1;
}

/*
 * Root whose namespaces need no user one, network included: CAP_SYS_ADMIN
 * and CAP_NET_ADMIN. Root with the first but not the second (Docker's
 * --cap-add SYS_ADMIN) could make the box's network namespace and then
 * not bring its loopback up; a user namespace gives it both.
 */
int boxns_net_privileged(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];

	return boxns_privileged() && syscall(SYS_capget, &hdr, data) == 0 &&
	       data[0].effective >> CAP_NET_ADMIN & 1;
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

/* The root's line of /proc/self/mountinfo: "... / / OPTS - tmpfs polexec
 * ...", the root view.c mounts. Only the text of a refusal depends on it. */
int boxns_in_box(void)
{
	static int known, in;
	static char buf[65536];
	char *l, *e;
	size_t got = 0;
	ssize_t n;
	int fd;

	if (known)
		return in;
	known = 1;
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* procfs hands it out a page or so at a time */
	while (got < sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	for (l = buf; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		if (e)
			*e = '\0';
		/* fields 4 and 5: the root of the mount, its mount point */
		if (strstr(l, " / / ") && strstr(l, " - tmpfs polexec "))
			return in = 1;
	}
	return 0;
}

const char *boxns_userns_why(void)
{
	static char why[1024];
	struct userns_sysctls s;
	struct userns_files f;

	if (!why[0] && boxns_in_box())
		snprintf(why, sizeof(why),
			 "polexec runs inside another polexec box, whose "
			 "policy refuses the namespaces a box of its own "
			 "needs (its syscalls allow no unshare, no clone of "
			 "namespaces): the outer box's policy decides it, not "
			 "this user or a setting here; the inner box is "
			 "Landlock, seccomp and its environment "
			 "(docs/AGENTS.md, recipe C)");
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
	unsigned root = ns.root_caller && ns.user;

	ns.want |= what;
	/* Without root, a mount, network or pid namespace needs a user one. */
	if ((ns.want & (BOXNS_MOUNT | BOXNS_NET | BOXNS_PID | BOXNS_CGROUP)) &&
	    !boxns_privileged())
		ns.want |= BOXNS_USER;
	/* Root without CAP_NET_ADMIN: the user namespace gives it. */
	if ((ns.want & BOXNS_NET) && !boxns_net_privileged())
		ns.want |= BOXNS_USER;
	if (!ns.user) {
		ns.uid = (unsigned)geteuid();
		ns.gid = (unsigned)getegid();
	}
	snprintf(ns.uid_map, sizeof(ns.uid_map), "%u %u 1\n", ns.uid,
		 root ? ns.uid : (unsigned)geteuid());
	snprintf(ns.gid_map, sizeof(ns.gid_map), "%u %u 1\n", ns.gid,
		 root ? ns.gid : (unsigned)getegid());
}

void boxns_map_user(unsigned uid, unsigned gid)
{
	ns.user = 1;
	ns.root_caller = boxns_privileged();
	ns.uid = uid;
	ns.gid = gid;
	boxns_want(ns.root_caller ? 0 : BOXNS_USER);
}

unsigned boxns_uid(void)
{
	return ns.user || ns.want ? ns.uid : (unsigned)geteuid();
}

unsigned boxns_gid(void)
{
	return ns.user || ns.want ? ns.gid : (unsigned)getegid();
}

/* Already the box's ids, no group left: become() was done in this
 * process (by enter(), whose user namespace then denies setgroups). Asked
 * of the process, not of memory shared with others (CLONE_VM). */
static int became(void)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;

	return getresuid(&r, &e, &s) == 0 && getresgid(&gr, &ge, &gs) == 0 &&
	       r == ns.uid && e == ns.uid && s == ns.uid && gr == ns.gid &&
	       ge == ns.gid && gs == ns.gid && getgroups(0, NULL) == 0;
}

/* Root becomes the box's ids: groups first, while it still may. Once in
 * a process: the child that made the box's user namespace took them. */
static void become(int groups)
{
	if (became())
		return;
	if (groups && setgroups(0, NULL) < 0)
		die_with_error("child: user: setgroups(0)");
	if (setresgid(ns.gid, ns.gid, ns.gid) < 0)
		die_with_error("child: user: setresgid(%u)", ns.gid);
	if (setresuid(ns.uid, ns.uid, ns.uid) < 0)
		die_with_error("child: user: setresuid(%u)", ns.uid);
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
	if (want & BOXNS_PID)
		flags |= CLONE_NEWPID;
	/* after cgroup_join (child.c): its root is the box's cgroup, and a
	 * move out of it is refused (ENOENT) */
	if (want & BOXNS_CGROUP)
		flags |= CLONE_NEWCGROUP;
	if (!flags)
		return;
	/* Root making a user namespace maps the box's ids: it takes them. */
	if (flags & CLONE_NEWUSER && ns.user && ns.root_caller)
		become(1);
	if (unshare(flags) < 0) {
		char what[64];
		int e = errno;

		snprintf(what, sizeof(what), "child: unshare(%s%s%s%s%s)",
			 flags & CLONE_NEWUSER ? "USER " : "",
			 flags & CLONE_NEWNS ? "MOUNT " : "",
			 flags & CLONE_NEWNET ? "NET " : "",
			 flags & CLONE_NEWPID ? "PID " : "",
			 flags & CLONE_NEWCGROUP ? "CGROUP" : "");
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

void boxns_child_user(void)
{
	/* Already done when root joined pasta's pair (boxns_child_enter). */
	if (ns.user && ns.root_caller && !(ns.premade && ns.userfd >= 0))
		become(1);
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
		int become_box = ns.user && ns.root_caller && ns.userfd >= 0;

		/* Root's groups go while root may drop them (become()). */
		if (become_box && setgroups(0, NULL) < 0)
			die_with_error("child: user: setgroups(0)");
		/* Joined in this order: the user namespace first, which gives
		 * the capability to join the network one it owns. */
		if (ns.userfd >= 0 && setns(ns.userfd, CLONE_NEWUSER) < 0)
			die_with_error("child: setns(user)");
		if (setns(ns.netfd, CLONE_NEWNET) < 0)
			die_with_error("child: setns(net)");
		/* Its map holds only the box's ids (enter()): take them now,
		 * or nothing the view creates could have an owner. */
		if (become_box)
			become(0);
		want &= ~(BOXNS_USER | BOXNS_NET);
	}
	enter(want);
}
