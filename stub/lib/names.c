/* SPDX-License-Identifier: MIT */
/*
 * Small helpers of the artifact decoder and the rest of polexec: checked
 * allocation, the checks of names read from an artifact, text made safe
 * for a terminal or a JSON reader, a growing text buffer, lines out, a
 * folder's entries.
 * Apart from util.c (the die() family) so that the fuzz harness, which
 * brings its own die(), links them (tests/fuzz/fuzz_stub.c).
 */
#include "util.h"
#include "polbin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xcalloc(n + 1, 1);

	memcpy(p, s, n);
	return p;
}

int valid_identifier(const char *s, size_t len)
{
	return len <= POLEXEC_MAX_STR && polbin_is_identifier(s, len);
}

/* The length of the printable UTF-8 sequence at s, or 0 for a byte that
 * is a control character (C0, DEL, C1) or not well-formed UTF-8. */
static size_t printable_len(const unsigned char *s)
{
	size_t n = polbin_utf8_len(s);

	return n == 1 && (*s < 0x20 || *s == 0x7f) ? 0 : n;
}

/* Also what a terminal or a JSON reader would choke on: C1 controls
 * (a CSI is one byte away from escape sequences) and bytes that are not
 * well-formed UTF-8, each of their bytes replaced by one '?'. */
void strip_controls(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;

	while (*r) {
		size_t n = printable_len(r);

		if (n == 0) {
			*w++ = '?';
			r++;
			continue;
		}
		while (n--)
			*w++ = *r++;
	}
	*w = '\0';
}

static void text_vadd(struct text *t, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	if (t->overflow)
		return;
	va_copy(again, ap);
	n = vsnprintf(t->s ? t->s + t->len : NULL, t->cap - t->len, fmt, ap);
	if (n >= 0 && (size_t)n >= t->cap - t->len &&
	    t->len + (size_t)n < TEXT_MAX) {
		/* grow, then format again into the room now there */
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap < TEXT_MAX ? cap : TEXT_MAX);

		if (!s) {
			t->overflow = 1;
			va_end(again);
			return;
		}
		t->s = s;
		t->cap = cap < TEXT_MAX ? cap : TEXT_MAX;
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, again);
	}
	va_end(again);
	if (n < 0 || (size_t)n >= t->cap - t->len)
		t->overflow = 1;
	else
		t->len += (size_t)n;
}

void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vadd(t, fmt, ap);
	va_end(ap);
}

/* A JSON string: quotes and backslashes escaped, what strip_controls()
 * replaces replaced, so the record parses whatever the artifact or the
 * caller handed us. */
void text_json(struct text *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	text_add(t, "\"");
	while (*p) {
		size_t run = 0, n;

		while (p[run] && p[run] != '"' && p[run] != '\\' &&
		       (n = printable_len(p + run)))
			run += n;
		if (run)
			text_add(t, "%.*s", (int)run, (const char *)p);
		else if (*p == '"' || *p == '\\')
			text_add(t, "\\%c", *p);
		else
			text_add(t, "?");
		p += run ? run : 1;
	}
	text_add(t, "\"");
}

/* prefix, fmt formatted, a newline if asked: one write, at most 4 KiB. */
static int vout(int fd, const char *prefix, int newline, const char *fmt,
		va_list ap)
{
	char line[4096];
	size_t n = strlen(prefix);
	int m;

	memcpy(line, prefix, n);
	m = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (m < 0)
		return -1;
	/* what fit, the NUL's byte left for the newline */
	n = n + (size_t)m < sizeof(line) - 1 ? n + (size_t)m : sizeof(line) - 1;
	if (newline)
		line[n++] = '\n';
	return write(fd, line, n) == (ssize_t)n ? 0 : -1;
}

int out(int fd, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vout(fd, "", 0, fmt, ap);
	va_end(ap);
	return r;
}

static int quiet;

void warnings_off(void)
{
	quiet = 1;
}

void warning(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	/* nothing useful to do if stderr is gone */
	vout(STDERR_FILENO, "polexec: warning: ", 1, fmt, ap);
	va_end(ap);
	errno = saved;
}

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		die_with_error("clock: clock_gettime(CLOCK_MONOTONIC)");
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int each_dirent(int fd, size_t max, void (*fn)(const char *name, void *arg),
		void *arg)
{
	static char buf[8192] __attribute__((aligned(8)));
	size_t total = 0;
	long n = -1;

	while (total < max &&
	       (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		/* struct linux_dirent64: u64 ino, s64 off, u16 reclen,
		 * u8 type, then the name, NUL-padded to reclen */
		while (off + 20 <= n) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			if (reclen < 20 || off + reclen > n)
				break;
			buf[off + reclen - 1] = '\0';
			fn(buf + off + 19, arg);
			off += reclen;
		}
		total += (size_t)n;
	}
	return n == 0 ? 0 : -1;
}
