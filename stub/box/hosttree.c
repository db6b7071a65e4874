/* SPDX-License-Identifier: MIT */
/*
 * The view's last rung (docs/CONTAINERS.md): `fs best_effort` where no
 * step of the box's own view can be had (no user namespace, a seccomp
 * profile refusing unshare or mount). The box runs on the host's tree
 * under Landlock alone, and what the view would have made of the box's
 * own is replaced, so that a shell, mktemp, python3 and git still work:
 *
 *   dev [PATH]    the host's own nodes null zero full random urandom tty
 *                 under /dev, each granted the `dev` entry's rights (a
 *                 file rule each: nothing else of the host's /dev);
 *   tmpfs /tmp    a private folder of the box's own, made by the parent
 *                 (mode 0700, the box's owner), granted the tmpfs's
 *                 rights, named by TMPDIR in the box's environment, and
 *                 removed when the box ends; a `tmpfs` elsewhere has no
 *                 replacement (its path stays the host's, ungranted);
 *   proc [PATH]   the host's /proc, read-only (the `proc` entry's rights):
 *                 no fresh procfs can be mounted without a mount
 *                 namespace. The box sees the host's processes' names; a
 *                 process outside its Landlock domain stays out of its
 *                 ptrace reach, and so out of /proc/PID/mem, environ, fd.
 *
 * The record's view says "rung":"landlock" and each replacement. The
 * tier stays degraded: nothing of the host's tree is hidden, only denied.
 */
#include "hosttree.h"
#include "boxns.h"
#include "abi/landlock_compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HT_FILE_RIGHTS                                                         \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |          \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |          \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

static const char *const dev_nodes[] = {"null",	  "zero",    "full",
					"random", "urandom", "tty"};

static struct {
	const struct view_entry *dev, *tmp, *proc;
	uint32_t other_tmpfs; /* tmpfs entries with no replacement */
	char tmpdir[4096];    /* the private folder, or "" */
	char tmpenv[4096 + 8];
	const char *tmp_why; /* why no folder could be made */
	int removed;
} H;

/* A private folder in base: made, the box's, 0700; 0 or -1 (errno). */
static int make_folder(const char *base)
{
	size_t n;

	if (!base || base[0] != '/')
		return -1;
	n = strlen(base);
	if (n + sizeof("/polexec-box.XXXXXX") > sizeof(H.tmpdir))
		return -1;
	memcpy(H.tmpdir, base, n);
	while (n > 1 && H.tmpdir[n - 1] == '/')
		n--;
	memcpy(H.tmpdir + n, "/polexec-box.XXXXXX",
	       sizeof("/polexec-box.XXXXXX"));
	if (!mkdtemp(H.tmpdir)) {
		H.tmpdir[0] = '\0';
		return -1;
	}
	/* root with `user U:G` gives the box its ids for real (boxns.c) */
	if (geteuid() == 0 && chown(H.tmpdir, boxns_uid(), boxns_gid()) < 0) {
		int e = errno;

		rmdir(H.tmpdir);
		H.tmpdir[0] = '\0';
		errno = e;
		return -1;
	}
	return 0;
}

void hosttree_plan(const struct policy *p)
{
	const char *bases[4];
	uint32_t i;
	size_t k;

	for (i = 0; i < p->view.n; i++) {
		const struct view_entry *e = &p->view.e[i];

		if (e->kind == POLBIN_VIEW_DEV)
			H.dev = e;
		else if (e->kind == POLBIN_VIEW_PROC)
			H.proc = e;
		else if (e->kind == POLBIN_VIEW_TMPFS &&
			 !strcmp(e->path, "/tmp"))
			H.tmp = e;
		else if (e->kind == POLBIN_VIEW_TMPFS)
			H.other_tmpfs++;
	}
	if (!H.tmp)
		return;
	/* The host's /tmp first, then where the caller keeps its own; a
	 * read-only root (a restricted pod) still has /dev/shm. */
	bases[0] = "/tmp";
	bases[1] = getenv("TMPDIR");
	bases[2] = "/var/tmp";
	bases[3] = "/dev/shm";
	for (k = 0; k < 4; k++)
		if (make_folder(bases[k]) == 0)
			break;
	if (!H.tmpdir[0]) {
		H.tmp_why = "no writable /tmp, $TMPDIR, /var/tmp or /dev/shm";
		warning("view: tmpfs /tmp: %s: the box has no temporary "
			"folder",
			H.tmp_why);
		return;
	}
	memcpy(H.tmpenv, "TMPDIR=", 7);
	memcpy(H.tmpenv + 7, H.tmpdir, strlen(H.tmpdir) + 1);
}

const char *hosttree_tmpdir_env(void)
{
	return H.tmpdir[0] ? H.tmpenv : NULL;
}

/* One path granted `access` (masked to what a file or folder takes). */
static void grant(const struct ll_run *ll, const char *path, uint64_t access,
		  int dir)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return; /* a node the host lacks is left out, as in the view */
	if (fd < 0 || fstat(fd, &st) < 0)
		die_with_error("child: view: open the host's %s", path);
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISCHR(st.st_mode))
		die("child: view: the host's %s is not a %s", path,
		    dir ? "folder" : "character device");
	landlock_allow(ll, fd, dir ? access : access & HT_FILE_RIGHTS, path);
	close(fd);
}

void hosttree_child(const struct ll_run *ll)
{
	char path[32];
	size_t i;

	if (H.dev)
		for (i = 0; i < sizeof(dev_nodes) / sizeof(*dev_nodes); i++) {
			memcpy(path, "/dev/", 5);
			memcpy(path + 5, dev_nodes[i],
			       strlen(dev_nodes[i]) + 1);
			grant(ll, path, H.dev->access, 0);
		}
	if (H.tmpdir[0])
		grant(ll, H.tmpdir, H.tmp->access, 1);
	if (H.proc)
		grant(ll, "/proc", H.proc->access, 1);
}

/* --- the folder removed ---------------------------------------------- */

/*
 * Everything below dirfd removed, no symbolic link followed (the box may
 * have made any); a folder the box made unreadable is made ours first.
 * -1 when something stayed.
 */
static int empty_folder(int dirfd, int depth)
{
	char *buf;
	long n;
	int rc = 0;

	if (depth > 64)
		return -1;
	buf = xcalloc(8192, 1);
	for (;;) {
		long off = 0;
		int removed = 0;

		if (lseek(dirfd, 0, SEEK_SET) < 0 ||
		    (n = syscall(SYS_getdents64, dirfd, buf, 8192)) <= 0)
			break;
		while (off + 20 <= n) {
			unsigned short reclen;
			const char *name = buf + off + 19;
			int sub;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			if (reclen < 20 || off + reclen > n)
				break;
			buf[off + reclen - 1] = '\0';
			off += reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if (unlinkat(dirfd, name, 0) == 0) {
				removed++;
				continue;
			}
			if (errno != EISDIR && errno != EPERM)
				continue;
			sub = openat(dirfd, name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
			if (sub < 0)
				continue;
			if (fchmod(sub, 0700) < 0) {
				/* not ours: leave it */
			}
			if (empty_folder(sub, depth + 1) < 0)
				rc = -1;
			close(sub);
			if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0)
				removed++;
		}
		if (!removed)
			break;
	}
	free(buf);
	return rc;
}

void hosttree_finish(void)
{
	int fd;

	if (!H.tmpdir[0] || H.removed)
		return;
	H.removed = 1;
	fd = open(H.tmpdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		if (fchmod(fd, 0700) < 0) {
			/* the box's own, root's box: chmod may fail; go on */
		}
		empty_folder(fd, 0);
		close(fd);
	}
	if (rmdir(H.tmpdir) < 0 && errno != ENOENT)
		warning("view: remove the box's folder %s: %s", H.tmpdir,
			strerror(errno));
}

void hosttree_record(struct text *t)
{
	text_add(t, ",\"replaced\":{");
	text_add(t, "\"dev\":%s",
		 H.dev ? "\"the host's null zero full random urandom tty\""
		       : "null");
	text_add(t, ",\"tmp\":");
	if (!H.tmp)
		text_add(t, "null");
	else if (H.tmpdir[0])
		text_json(t, H.tmpdir);
	else
		text_add(t, "\"none (%s)\"", H.tmp_why);
	text_add(t, ",\"proc\":%s",
		 H.proc ? "\"the host's /proc, read-only\"" : "null");
	text_add(t, ",\"tmpfs_not_replaced\":%u}", H.other_tmpfs);
}
