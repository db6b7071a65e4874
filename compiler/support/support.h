/* SPDX-License-Identifier: MIT */
/*
 * Helpers every stage of the compiler may use, and that use no stage:
 * reading polc's input files, bounded (readfile.c), a growing byte buffer
 * (bytes.c), and an error message into a caller's buffer (errbuf.c).
 */
#ifndef POLC_SUPPORT_H
#define POLC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* ---- Reading a whole regular file, bounded (polc.c, prove_load.c) ---- */

/*
 * Read the regular file at path, at most max bytes, into *out (malloc'd,
 * one byte to spare; the caller frees it) and *len. Returns 0, or -1 with
 * errno: EFBIG when larger than max, EINVAL when not a regular file, EIO
 * when it ends early, else what open() or read() said.
 */
int readfile_all(const char *path, uint8_t **out, size_t *len, size_t max);

/* What a readfile_all() failure means, for messages: errno e. */
const char *readfile_strerror(int e);

/* ---- A growing byte buffer (the section writers) -------------------- */

/* Bytes appended in order; oom set on the first failed allocation, after
 * which nothing more is added. The caller frees p. */
struct bytes {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

void bytes_put(struct bytes *b, const void *data, size_t n);
/* v as n little-endian bytes (n at most 8). */
void bytes_le(struct bytes *b, uint64_t v, size_t n);

/* ---- An error message into a caller's buffer (the section writers) --- */

/* Format into err (skipped when err is NULL or errlen 0); returns -1. */
int errbuf_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
