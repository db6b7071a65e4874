/* SPDX-License-Identifier: MIT */
/*
 * Small helpers of the artifact decoder and the rest of polexec: checked
 * allocation and the checks of names read from an artifact. Apart from
 * util.c (the die() family) so that the fuzz harness, which brings its own
 * die(), links them (tests/fuzz/fuzz_stub.c).
 */
#include "polexec.h"

#include <stdint.h>

#include <stdlib.h>
#include <string.h>

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

/* Also what a terminal or a JSON reader would choke on: C1 controls
 * (a CSI is one byte away from escape sequences) and bytes that are not
 * well-formed UTF-8, each of their bytes replaced by one '?'. */
void strip_controls(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;

	while (*r) {
		size_t n = polbin_utf8_len(r);

		if (n == 0 || (n == 1 && (*r < 0x20 || *r == 0x7f))) {
			*w++ = '?';
			r++;
			continue;
		}
		while (n--)
			*w++ = *r++;
	}
	*w = '\0';
}
