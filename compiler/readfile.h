/* SPDX-License-Identifier: MIT */
/* Reading a whole regular file, bounded: polc's inputs (polc.c, prove_load.c).
 */
#ifndef POLC_READFILE_H
#define POLC_READFILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read the regular file at path, at most max bytes, into *out (malloc'd,
 * one byte to spare; the caller frees it) and *len. Returns 0, or -1 with
 * errno: EFBIG when larger than max, EINVAL when not a regular file, EIO
 * when it ends early, else what open() or read() said.
 */
int readfile_all(const char *path, uint8_t **out, size_t *len, size_t max);

/* What a readfile_all() failure means, for messages: errno e. */
const char *readfile_strerror(int e);

#endif
