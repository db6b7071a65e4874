/* SPDX-License-Identifier: MIT */
/*
 * Every file polc writes (build -o, --emit-bpf, fmt -w) goes through
 * output_write(). The rule, shared with polexec's writers, is
 * docs/OUTPUT.md; in short, by what the path names (lstat, not followed):
 *
 *   nothing          a temporary file in the same folder, fsync, renamed
 *                    into place without replacing what may have appeared
 *   a regular file   the same, renamed over it atomically; its permission
 *                    bits (and, where we may, its owner) are kept
 *   a char device    opened as it is (no O_CREAT, no O_TRUNC) and written
 *   or a FIFO        in place; the node stays what it was
 *   a symbolic link  refused: polc writes neither through nor over one
 *   anything else    refused (a folder, a block device, a socket)
 *
 * A failed write leaves the old file, or nothing, behind: the temporary
 * file is removed.
 */
#include "cli.h"
#include "support/support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, (const char *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
}

int output_write_fd(int fd, const void *data, size_t len, char *err,
		    size_t errlen)
{
	if (write_all(fd, data, len))
		return errbuf_fail(err, errlen, "%s", strerror(errno));
	return 0;
}

/* A character device or a FIFO, written where it is. */
static int write_in_place(const char *path, const struct stat *was,
			  const void *data, size_t len, char *err,
			  size_t errlen)
{
	struct stat st;
	int fd, rc = 0;

	/* A FIFO blocks here until it has a reader, as for any writer. */
	fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errbuf_fail(err, errlen, "%s", strerror(errno));
	if (fstat(fd, &st) || st.st_dev != was->st_dev ||
	    st.st_ino != was->st_ino ||
	    (st.st_mode & S_IFMT) != (was->st_mode & S_IFMT)) {
		close(fd);
		return errbuf_fail(err, errlen,
				   "changed while it was being opened; "
				   "nothing written");
	}
	if (write_all(fd, data, len))
		rc = errbuf_fail(err, errlen, "%s", strerror(errno));
	if (close(fd) && !rc)
		rc = errbuf_fail(err, errlen, "%s", strerror(errno));
	return rc;
}

/* path's folder ("." when it has none), malloc'd. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* After the rename: the folder's entry on disk too. Best effort: some
 * file systems refuse fsync on a folder, and the data is already safe. */
static void sync_folder(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* Moves tmp to path, which did not exist: never replaces what has
 * appeared there since (a device node made meanwhile stays). */
static int rename_new(const char *tmp, const char *path)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No RENAME_NOREPLACE on this file system: link() never replaces
	 * either. */
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	return -1;
}

/* Nothing there (was NULL) or a regular file: a temporary file in the same
 * folder, fsync, rename. */
static int replace_file(const char *path, const struct stat *was,
			const void *data, size_t len, char *err, size_t errlen)
{
	char *dir = folder_of(path), *tmp = NULL;
	struct stat now;
	mode_t mode;
	int fd = -1, rc = -1;

	if (!dir || asprintf(&tmp, "%s/.polc-XXXXXX", dir) < 0) {
		tmp = NULL;
		errbuf_fail(err, errlen, "out of memory");
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		errbuf_fail(err, errlen,
			    "cannot make a temporary file in %s: %s", dir,
			    strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (was) {
		/* Keep the owner where we may (root, or our own group), then
		 * the permission bits; never set-id bits. */
		if ((was->st_uid != geteuid() || was->st_gid != getegid()) &&
		    fchown(fd, was->st_uid, was->st_gid) < 0) {
			/* not ours to keep: the file gets our owner */
		}
		mode = was->st_mode & 0777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	if (write_all(fd, data, len) || fchmod(fd, mode) || fsync(fd)) {
		errbuf_fail(err, errlen, "%s", strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		errbuf_fail(err, errlen, "%s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (!was) {
		if (rename_new(tmp, path)) {
			errbuf_fail(err, errlen, "%s",
				    errno == EEXIST
					? "appeared while it was being "
					  "written; nothing replaced"
					: strerror(errno));
			goto out;
		}
	} else {
		/* Still the regular file we found: rename() itself would
		 * replace whatever is there. */
		if (lstat(path, &now) || !S_ISREG(now.st_mode) ||
		    now.st_dev != was->st_dev || now.st_ino != was->st_ino) {
			errbuf_fail(err, errlen,
				    "changed while it was being written; "
				    "nothing replaced");
			goto out;
		}
		if (rename(tmp, path)) {
			errbuf_fail(err, errlen, "%s", strerror(errno));
			goto out;
		}
	}
	free(tmp);
	tmp = NULL; /* in place now: nothing to remove */
	sync_folder(dir);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(dir);
	return rc;
}

int output_write(const char *path, const void *data, size_t len, char *err,
		 size_t errlen)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return replace_file(path, NULL, data, len, err, errlen);
		return errbuf_fail(err, errlen, "%s", strerror(errno));
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		return replace_file(path, &st, data, len, err, errlen);
	case S_IFCHR:
	case S_IFIFO:
		return write_in_place(path, &st, data, len, err, errlen);
	case S_IFLNK:
		return errbuf_fail(err, errlen,
				   "is a symbolic link; polc writes neither "
				   "through nor over one (name its target)");
	case S_IFDIR:
		return errbuf_fail(err, errlen, "is a directory");
	default:
		return errbuf_fail(err, errlen,
				   "is a %s; polc writes only regular files, "
				   "character devices and FIFOs",
				   S_ISBLK(st.st_mode) ? "block device"
						       : "socket");
	}
}
