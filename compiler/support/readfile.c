/* SPDX-License-Identifier: MIT */
/* A bounded whole-file reader; see support.h. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int readfile_all(const char *path, uint8_t **out, size_t *len, size_t max)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	/* O_NONBLOCK: a FIFO named as an artifact must not hang us; it is
	 * refused below, and regular files ignore the flag. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		int e = S_ISREG(st.st_mode) ? EFBIG : EINVAL;

		close(fd);
		errno = e;
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			close(fd);
			if (r == 0)
				errno = EIO;
			return -1;
		}
		got += (size_t)r;
	}
	close(fd);
	*out = buf;
	*len = got;
	return 0;
}

const char *readfile_strerror(int e)
{
	if (e == EFBIG)
		return "larger than the 16 MiB limit";
	if (e == EINVAL)
		return "not a regular file";
	return strerror(e);
}
