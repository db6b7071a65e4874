/* SPDX-License-Identifier: MIT */
/*
 * A file polexec writes for the user (--record), by the rule of
 * docs/OUTPUT.md (outfile.c). Opened before anything runs, so a bad path
 * is a refusal; put in place once, when it is written.
 */
#ifndef POLC_STUB_OUTFILE_H
#define POLC_STUB_OUTFILE_H

#include <stddef.h>
#include <sys/stat.h>

struct outfile {
	int fd; /* -1: none */
	const char *path;
	int how;	 /* OUTFILE_* (outfile.c) */
	char *dir;	 /* the folder of path */
	char *tmp;	 /* a named temporary file, or NULL (O_TMPFILE) */
	struct stat was; /* what lstat() saw at the path */
};

/*
 * By what path names now: nothing or a regular file, a temporary file in
 * its folder (unnamed where the file system can, else .polc-XXXXXX); a
 * character device or a FIFO, the node itself (a FIFO waits for a
 * reader). A symbolic link, a folder, a block device or a socket: die()
 * with what it is. `what` names the writer in messages ("record").
 */
void outfile_open(struct outfile *o, const char *what, const char *path);
/*
 * After the data was written to o->fd: fsync, and the temporary file
 * renamed into place (never over what is no longer the file seen at
 * open); closes o->fd. 0, or -1 with a reason in err; then what was at
 * the path is unchanged and no temporary file is left.
 */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

#endif
