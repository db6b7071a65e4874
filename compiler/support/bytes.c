/* SPDX-License-Identifier: MIT */
/* A growing byte buffer for the section writers (support.h). */
#include "support.h"

#include <stdlib.h>
#include <string.h>

void bytes_put(struct bytes *b, const void *data, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2;
		uint8_t *np = realloc(b->p, cap);

		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

void bytes_le(struct bytes *b, uint64_t v, size_t n)
{
	uint8_t le[8];
	size_t i;

	for (i = 0; i < n && i < sizeof(le); i++)
		le[i] = (uint8_t)(v >> (8 * i));
	bytes_put(b, le, i);
}
