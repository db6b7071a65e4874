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
	size_t i;

	if (len == 0 || len > POLEXEC_MAX_STR)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    c == '_';

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return 0;
	}
	return 1;
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

/* The same rules as polc's ir_is_hostname(), which wrote the name. */
int valid_hostname(const char *s, size_t len)
{
	size_t i, label = 0;

	if (len == 0 || len > 253 || s[0] == '.' || s[len - 1] == '.' ||
	    s[0] == '-')
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return 0;
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-') ||
		    ++label > 63)
			return 0;
	}
	return 1;
}
