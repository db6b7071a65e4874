/* SPDX-License-Identifier: MIT */
/* An error message into a caller's buffer, for the section writers. */
#ifndef POLC_ERRBUF_H
#define POLC_ERRBUF_H

#include <stddef.h>

/* Format into err (skipped when err is NULL or errlen 0); returns -1. */
int errbuf_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
