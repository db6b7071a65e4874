/* SPDX-License-Identifier: MIT */
/*
 * polexec's output files, by the rule polc's writers follow too
 * (docs/OUTPUT.md; polc's is compiler/cli/output.c). What the path names,
 * looked at with lstat() when polexec starts:
 *
 *   nothing          an unnamed temporary file in the same folder
 *                    (O_TMPFILE), linked in at the end without replacing
 *                    what may have appeared meanwhile
 *   a regular file   the same, renamed over it at the end if it is still
 *                    the file seen at the start; its permission bits (and,
 *                    where we may, its owner) are kept
 *   a char device    opened as it is (O_WRONLY | O_NOFOLLOW, no O_CREAT,
 *   or a FIFO        no O_TRUNC) and written in place
 *   anything else    refused before anything runs: a symbolic link, a
 *                    folder, a block device, a socket
 *
 * The temporary file is made at the start, since polexec opens its outputs
 * before anything runs, and put in place when the output is written. An
 * unnamed one leaves nothing behind when polexec is killed; where the file
 * system has no O_TMPFILE, it is a named .polc-XXXXXX file, which a
 * SIGKILL can leave in the folder (never a half-written output at the
 * path).
 */
#include "outfile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum {
	OUTFILE_NEW = 1, /* nothing was there */
	OUTFILE_REPLACE, /* a regular file was */
	OUTFILE_IN_PLACE /* a character device or a FIFO */
};

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

/* "/dir/.polc-XXXXXX" with six random letters, into o->tmp's buffer. */
static void temp_name(const struct outfile *o, char *buf, size_t len)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[6];
	uint64_t x = monotonic_ns() ^ ((uint64_t)getpid() << 32);
	char s[7];
	int i;

	if (syscall(SYS_getrandom, r, sizeof(r), 0) != (long)sizeof(r))
		for (i = 0; i < 6; i++, x >>= 6)
			r[i] = (unsigned char)x;
	for (i = 0; i < 6; i++)
		s[i] = abc[r[i] % (sizeof(abc) - 1)];
	s[6] = '\0';
	snprintf(buf, len, "%s/.polc-%s", o->dir, s);
}

/* A named temporary file in o->dir: its fd; o->tmp holds its name. */
static int open_named(struct outfile *o)
{
	size_t len = strlen(o->dir) + 16;
	int i, fd = -1;

	o->tmp = xcalloc(len, 1);
	for (i = 0; i < 100 && fd < 0; i++) {
		temp_name(o, o->tmp, len);
		fd = open(o->tmp,
			  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

/* The temporary file for a new or a replaced regular file, mode set. */
static void open_temp(struct outfile *o, const char *what)
{
	const char *slash = strrchr(o->path, '/');
	mode_t mode;

	o->dir = slash == o->path ? xstrndup("/", 1)
		 : slash	  ? xstrndup(o->path, (size_t)(slash - o->path))
				  : xstrndup(".", 1);
	o->fd = open(o->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
			  errno == EINVAL || errno == ENOSYS))
		o->fd = open_named(o);
	if (o->fd < 0)
		die_with_error("%s: %s: cannot make a temporary file in %s",
			       what, o->path, o->dir);
	if (o->how == OUTFILE_REPLACE) {
		/* The owner where we may (root), then the permission bits;
		 * never set-id bits. */
		if (o->was.st_uid != geteuid() || o->was.st_gid != getegid())
			(void)fchown(o->fd, o->was.st_uid, o->was.st_gid);
		mode = o->was.st_mode & 0777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(o->fd, mode) < 0)
		die_with_error("%s: %s: fchmod of its temporary file", what,
			       o->path);
}

/* A character device or a FIFO, opened where it is. */
static void open_in_place(struct outfile *o, const char *what)
{
	struct stat st;

	/* A FIFO blocks here until it has a reader, as for any writer. */
	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (o->fd < 0)
		die_with_error("%s: open %s", what, o->path);
	if (fstat(o->fd, &st) < 0 || st.st_dev != o->was.st_dev ||
	    st.st_ino != o->was.st_ino ||
	    (st.st_mode & S_IFMT) != (o->was.st_mode & S_IFMT))
		die("%s: %s: changed while it was being opened; nothing "
		    "written",
		    what, o->path);
}

void outfile_open(struct outfile *o, const char *what, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = path;
	if (lstat(path, &o->was) < 0) {
		if (errno != ENOENT)
			die_with_error("%s: %s", what, path);
		o->how = OUTFILE_NEW;
		open_temp(o, what);
		return;
	}
	switch (o->was.st_mode & S_IFMT) {
	case S_IFREG:
		o->how = OUTFILE_REPLACE;
		open_temp(o, what);
		return;
	case S_IFCHR:
	case S_IFIFO:
		o->how = OUTFILE_IN_PLACE;
		open_in_place(o, what);
		return;
	case S_IFLNK:
		die("%s: %s: is a symbolic link; polexec writes neither "
		    "through nor over one (name its target)",
		    what, path);
	case S_IFDIR:
		die("%s: %s: is a directory", what, path);
	default:
		die("%s: %s: is a %s; polexec writes only regular files, "
		    "character devices and FIFOs",
		    what, path,
		    S_ISBLK(o->was.st_mode) ? "block device" : "socket");
	}
}

/* The unnamed file of o->fd under the name path; never replaces. */
static int link_unnamed(const struct outfile *o, const char *path)
{
	char self[64];

	/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd does not. */
	if (linkat(o->fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno == EEXIST)
		return -1;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", o->fd);
	return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* Moves the named temporary file to path, which must not exist. */
static int rename_new(const char *tmp, const char *path)
{
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path,
		    RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No RENAME_NOREPLACE on this file system: link() never replaces. */
	if (link(tmp, path) < 0)
		return -1;
	unlink(tmp);
	return 0;
}

/* A name in o->dir for the unnamed file of o->fd, into o->tmp. */
static int name_unnamed(struct outfile *o)
{
	size_t n = strlen(o->dir) + 16;
	int i;

	o->tmp = xcalloc(n, 1);
	for (i = 0; i < 100; i++) {
		temp_name(o, o->tmp, n);
		if (link_unnamed(o, o->tmp) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

/* The temporary file in place: NULL, or why not (errno for its text). */
static const char *put_in_place(struct outfile *o)
{
	struct stat now;
	int r;

	if (o->how == OUTFILE_NEW) {
		r = o->tmp ? rename_new(o->tmp, o->path)
			   : link_unnamed(o, o->path);
		if (r < 0)
			return errno == EEXIST ? "appeared while polexec ran; "
						 "nothing replaced"
					       : NULL;
		free(o->tmp);
		o->tmp = NULL;
		return "";
	}
	/* Replacing needs a name to rename from. */
	if (!o->tmp && name_unnamed(o) < 0)
		return NULL;
	/* Still the regular file we found: rename() would replace
	 * whatever is there. */
	if (lstat(o->path, &now) < 0 || !S_ISREG(now.st_mode) ||
	    now.st_dev != o->was.st_dev || now.st_ino != o->was.st_ino)
		return "changed while polexec ran; nothing replaced";
	if (rename(o->tmp, o->path) < 0)
		return NULL;
	free(o->tmp);
	o->tmp = NULL;
	return "";
}

int outfile_commit(struct outfile *o, char *err, size_t len)
{
	const char *why = "";
	int rc = 0, dirfd;

	err[0] = '\0';
	if (o->fd < 0) {
		snprintf(err, len, "not open");
		return -1;
	}
	if (o->how != OUTFILE_IN_PLACE)
		why = fsync(o->fd) < 0 ? NULL : put_in_place(o);
	if (!why || why[0]) {
		/* "": in place; NULL: errno says why */
		snprintf(err, len, "%s", why ? why : strerror(errno));
		rc = -1;
	}
	if (close(o->fd) < 0 && rc == 0) {
		snprintf(err, len, "%s", strerror(errno));
		rc = -1;
	}
	o->fd = -1;
	if (o->tmp) {
		unlink(o->tmp); /* a failure: the temporary file goes */
		o->tmp = NULL;
	}
	if (rc == 0 && o->how != OUTFILE_IN_PLACE) {
		/* The folder's entry on disk too; best effort. */
		dirfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd >= 0) {
			(void)fsync(dirfd);
			close(dirfd);
		}
	}
	return rc;
}
