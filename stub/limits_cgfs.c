/* SPDX-License-Identifier: MIT */
/*
 * Small file helpers for the cgroup filesystem (parent only). The
 * hierarchies are found in /proc/self/mountinfo and /proc/self/cgroup,
 * not assumed at /sys/fs/cgroup: hosts mount them elsewhere, and v1 keeps
 * each controller in a hierarchy of its own.
 */
#include "limits_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int join(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int write_text(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	size_t n = strlen(text);
	ssize_t w;
	int fd, e;

	if (join(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = write(fd, text, n);
	e = w < 0 ? errno : EIO;
	if (w != (ssize_t)n) {
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* dir/file into buf, NUL-terminated; -1 when it cannot be read. */
int read_text(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	int fd;

	if (join(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	return 0;
}

/* "KEY N" in dir/file, or the file's only number when key is NULL. */
long long read_value(const char *dir, const char *file, const char *key)
{
	char buf[1024], *p = buf;
	size_t k;

	if (read_text(dir, file, buf, sizeof(buf)) < 0)
		return -1;
	if (key) {
		k = strlen(key);
		for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (strncmp(p, key, k) == 0 && p[k] == ' ')
				break;
		if (!p)
			return -1;
		p += k + 1;
	}
	if (*p < '0' || *p > '9')
		return -1;
	return strtoll(p, NULL, 10);
}

/* Is `word` one of the comma- or space-separated tokens of `list`? */
int has_token(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		int start = p == list || p[-1] == ',' || p[-1] == ' ';
		int end =
		    p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\n';

		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}

/* Splits s at spaces and tabs (and the newline), in place; returns how
 * many of the first max fields it found. */
static int split_fields(char *s, char **fld, int max)
{
	int n = 0;

	while (n < max) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			*s++ = '\0';
		if (!*s)
			break;
		fld[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/*
 * The mount point of the cgroup2 hierarchy (ctrl NULL) or of the v1
 * hierarchy holding ctrl, from /proc/self/mountinfo. Only mounts of the
 * hierarchy's root, so /proc/self/cgroup's paths lead below it.
 */
int cg_mountpoint(const char *ctrl, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = -1, lines = 0;

	if (!f)
		return -1;
	while (found < 0 && lines++ < 65536 && fgets(line, sizeof(line), f)) {
		/* Fields 4 and 5 (root, mount point); after " - ": type,
		 * source, options. Split in place: no sscanf, whose code is
		 * a tenth of the static stub. */
		char *fld[5], *after[3], *sep = strstr(line, " - ");
		const char *root, *dir, *type, *opts;

		if (!sep)
			continue;
		*sep = '\0';
		if (split_fields(line, fld, 5) < 5 ||
		    split_fields(sep + 3, after, 3) < 3)
			continue;
		root = fld[3];
		dir = fld[4];
		type = after[0];
		opts = after[2];
		if (strcmp(root, "/") != 0 || strchr(dir, '\\'))
			continue;
		if (ctrl ? strcmp(type, "cgroup") == 0 && has_token(opts, ctrl)
			 : strcmp(type, "cgroup2") == 0)
			found = join(out, len, "%s", dir);
	}
	fclose(f);
	return found;
}

/*
 * Our cgroup's path in that hierarchy, from /proc/self/cgroup's lines
 * "ID:CONTROLLERS:PATH": v2 is "0::PATH", v1 lists ctrl among its
 * controllers.
 */
int cg_selfpath(const char *ctrl, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		char *ctrls = strchr(line, ':'), *path;

		if (!ctrls || !(path = strchr(ctrls + 1, ':')))
			continue;
		*ctrls++ = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (ctrl ? has_token(ctrls, ctrl)
			 : strcmp(line, "0") == 0 && ctrls[0] == '\0')
			found = join(out, len, "%s", path);
	}
	fclose(f);
	return found;
}
