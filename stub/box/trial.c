/* SPDX-License-Identifier: MIT */
/*
 * The view's steps tried in a throwaway child (docs/CONTAINERS.md): a
 * container refuses them for reasons no feature test sees (a seccomp
 * profile without pivot_root, masked /proc paths that make a fresh procfs
 * "too revealing", a missing CAP_NET_ADMIN). So before the box, and in
 * `polexec --doctor`, a child of ours takes each step the box would, in
 * namespaces of its own that die with it, and says the first that failed:
 *
 *   user        unshare(CLONE_NEWUSER) and the uid map (not root)
 *   namespaces  unshare(CLONE_NEWNS | CLONE_NEWPID [| CLONE_NEWNET])
 *   private     / made private, recursively
 *   loopback    lo up in the new network namespace (CAP_NET_ADMIN; a
 *               seccomp profile may refuse the socket or the ioctl)
 *   tmpfs       the root's tmpfs, mounted on /tmp of the new namespace
 *   procfs      a fresh procfs (pid 1 of the new pid namespace); where it
 *               is refused (runc's masked paths make it "too revealing"
 *               in a user namespace), an rbind of /proc (the next rung)
 *   bind        open_tree of a folder, cloned (the view's binds)
 *   pivot_root  into the tmpfs; where it is refused, chroot (the next
 *               rung) is tried instead
 *
 * The network's trial (TRIAL_WANT_NET) is the first two alone: a network
 * namespace of the child's own, as the box would make it (in a user
 * namespace where the box takes one), and its loopback up; the host's
 * network is not touched.
 *
 * Nothing of it reaches the host: every mount is in the child's own mount
 * namespace, made private first, the interface brought up is the child's
 * own namespace's, and the child's only output is one small record
 * through a pipe.
 */
#include "trial.h"
#include "boxns.h"
#include "mountapi.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const step_names[] = {
    [TRIAL_OK] = "none",
    [TRIAL_USER] = "user",
    [TRIAL_NAMESPACES] = "namespaces",
    [TRIAL_PRIVATE] = "private",
    [TRIAL_LOOPBACK] = "loopback",
    [TRIAL_TMPFS] = "tmpfs",
    [TRIAL_PROCFS] = "procfs",
    [TRIAL_BIND] = "bind",
    [TRIAL_PIVOT] = "pivot_root",
    [TRIAL_CHROOT] = "pivot_root",
};

const char *trial_step_name(enum trial_step s)
{
	return step_names[s];
}

static int rbind; /* a fresh procfs refused, /proc's rbind taken */

static _Noreturn void report(int fd, enum trial_step s, int err)
{
	int msg[3] = {(int)s, err, rbind};

	if (write(fd, msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		_exit(2);
	_exit(0);
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = (ssize_t)strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (rc == 0)
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	close(fd);
	return rc;
}

/* Pid 1 of the trial's pid namespace: the mounts and the pivot. */
static _Noreturn void mounts(int fd)
{
	int fs, m, tree;

	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755,size=64k") < 0)
		report(fd, TRIAL_TMPFS, errno);
	fs = (int)syscall(SYS_fsopen, "proc", 1u);
	if (fs < 0 || syscall(SYS_fsconfig, fs, 6u, NULL, NULL, 0) < 0 ||
	    (m = (int)syscall(SYS_fsmount, fs, 1u, 0x2u | 0x4u | 0x8u)) < 0) {
		int e = errno;

		/* the next rung: the host's /proc, its masks kept */
		m = (int)syscall(SYS_open_tree, AT_FDCWD, "/proc",
				 1u | O_CLOEXEC | 0x8000u);
		if (m < 0)
			report(fd, TRIAL_PROCFS, e);
		rbind = 1;
	}
	close(m);
	if (fs >= 0)
		close(fs);
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, "/usr",
			    1u | O_CLOEXEC | 0x8000u);
	if (tree < 0)
		report(fd, TRIAL_BIND, errno);
	close(tree);
	if (chdir("/tmp") < 0)
		report(fd, TRIAL_PIVOT, errno);
	if (syscall(SYS_pivot_root, ".", ".") < 0) {
		int e = errno;

		/* the next rung: a chroot into the same tree */
		report(fd, chroot(".") == 0 ? TRIAL_CHROOT : TRIAL_PIVOT, e);
	}
	report(fd, TRIAL_OK, 0);
}

static _Noreturn void trial_child(int fd, int user, int what)
{
	int view = what & TRIAL_WANT_VIEW, net = what & TRIAL_WANT_NET;
	int flags =
	    (view ? CLONE_NEWNS | CLONE_NEWPID : 0) | (net ? CLONE_NEWNET : 0);
	char map[64];
	pid_t pid;
	int status;

	if (user) {
		unsigned u = (unsigned)geteuid(), g = (unsigned)getegid();

		if (unshare(CLONE_NEWUSER) < 0)
			report(fd, TRIAL_USER, errno);
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0 ||
		    put("/proc/self/setgroups", "deny\n") < 0)
			report(fd, TRIAL_USER, errno);
		snprintf(map, sizeof(map), "%u %u 1\n", u, u);
		if (put("/proc/self/uid_map", map) < 0)
			report(fd, TRIAL_USER, errno);
		snprintf(map, sizeof(map), "%u %u 1\n", g, g);
		if (put("/proc/self/gid_map", map) < 0)
			report(fd, TRIAL_USER, errno);
	}
	if (unshare(flags) < 0)
		report(fd, TRIAL_NAMESPACES, errno);
	if (view && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		report(fd, TRIAL_PRIVATE, errno);
	if (net && lo_up() < 0)
		report(fd, TRIAL_LOOPBACK, errno);
	if (!view)
		report(fd, TRIAL_OK, 0);
	pid = fork();
	if (pid < 0)
		report(fd, TRIAL_NAMESPACES, errno);
	if (pid == 0)
		mounts(fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(2);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
}

int trial_run(int user, int what, struct trial *t)
{
	int p[2], status, msg[3];
	pid_t pid;
	ssize_t n;

	t->step = TRIAL_NAMESPACES;
	t->err = 0;
	t->proc_rbind = 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		trial_child(p[1], user, what);
	}
	close(p[1]);
	n = read(p[0], msg, sizeof(msg));
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (n != (ssize_t)sizeof(msg) || msg[0] < TRIAL_OK ||
	    msg[0] > TRIAL_CHROOT)
		return -1;
	t->step = (enum trial_step)msg[0];
	t->err = msg[1];
	t->proc_rbind = msg[2];
	return 0;
}

const char *trial_hint(const struct trial *t)
{
	switch (t->step) {
	case TRIAL_USER:
		return boxns_userns_why();
	case TRIAL_NAMESPACES:
	case TRIAL_PRIVATE:
	case TRIAL_TMPFS:
		return "the container's seccomp profile or capabilities refuse "
		       "namespaces or mounts: run with a profile that allows "
		       "unshare and mount (polc export oci writes one from "
		       "the policy) and CAP_SYS_ADMIN, or as a user who may "
		       "make a user namespace";
	case TRIAL_LOOPBACK:
		return "bringing the box's loopback up (a socket(AF_INET) and "
		       "ioctl(SIOCSIFFLAGS) in the box's own network "
		       "namespace) needs CAP_NET_ADMIN there (--cap-add "
		       "NET_ADMIN, or a user namespace) and a seccomp profile "
		       "that allows both calls";
	case TRIAL_PROCFS:
		return "a fresh procfs is refused under the container's masked "
		       "/proc paths: Docker --security-opt systempaths="
		       "unconfined, Kubernetes securityContext.procMount: "
		       "Unmasked, or drop `proc` from the policy";
	case TRIAL_BIND:
		return "open_tree (Linux 5.2) is refused: a seccomp profile "
		       "that allows it";
	case TRIAL_PIVOT:
	case TRIAL_CHROOT:
		return "the container's seccomp profile refuses pivot_root "
		       "(Docker's default does): add pivot_root to the "
		       "profile, or --security-opt seccomp=unconfined";
	default:
		return "";
	}
}

void trial_net_or_die(int user)
{
	struct trial t;

	if (trial_run(user, TRIAL_WANT_NET, &t) < 0)
		die_with_error("net: the trial of the box's network namespace");
	if (t.step == TRIAL_OK)
		return;
	die("net: the box's own network namespace cannot be had here: %s: "
	    "%s: %s",
	    trial_step_name(t.step), strerror(t.err), trial_hint(&t));
}
