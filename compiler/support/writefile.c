/* SPDX-License-Identifier: MIT */
/* Writing a whole file through a temporary and a rename; see support.h. */
#include "support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int writefile_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = NULL;
	size_t off = 0;
	int fd;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
		return -1;
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	while (off < len) {
		ssize_t w = write(fd, (const uint8_t *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail_fd;
		off += (size_t)w;
	}
	/* No fsync: rename keeps readers from a half-written file, and a
	 * build is cheap to redo after a crash. */
	if (fchmod(fd, 0644) || close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path))
		goto fail;
	free(tmp);
	return 0;
fail_fd:
	close(fd);
fail : {
	int e = errno;

	unlink(tmp);
	free(tmp);
	errno = e;
}
	return -1;
}
