/* SPDX-License-Identifier: MIT */
#include "polbin_write.h"
#include "polbin.h"
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

struct polbin_writer {
	uint32_t arch;
	uint32_t n;
	struct {
		uint32_t type, flags;
		uint8_t *data;
		size_t len;
	} sec[POLBIN_MAX_SECTIONS];
};

struct polbin_writer *polbin_writer_create(uint32_t arch)
{
	struct polbin_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->arch = arch;
	return w;
}

void polbin_writer_destroy(struct polbin_writer **w)
{
	uint32_t i;

	if (!w || !*w)
		return;
	for (i = 0; i < (*w)->n; i++)
		free((*w)->sec[i].data);
	free(*w);
	*w = NULL;
}

int polbin_writer_add(struct polbin_writer *w, uint32_t type, uint32_t flags,
		      const void *data, size_t len)
{
	uint8_t *copy;

	if (w->n >= POLBIN_MAX_SECTIONS || len > POLBIN_MAX_SIZE)
		return -1;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -1;
	if (len)
		memcpy(copy, data, len);
	w->sec[w->n].type = type;
	w->sec[w->n].flags = flags;
	w->sec[w->n].data = copy;
	w->sec[w->n].len = len;
	w->n++;
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

int polbin_writer_finish(struct polbin_writer *w, uint8_t **out, size_t *len)
{
	size_t size = POLBIN_HEADER_SIZE + (size_t)w->n * POLBIN_ENTRY_SIZE;
	size_t off;
	uint8_t *buf;
	uint32_t i;

	if (w->n == 0)
		return -1;
	for (i = 0; i < w->n; i++)
		size = align8(size) + w->sec[i].len;
	if (size > POLBIN_MAX_SIZE)
		return -1;
	buf = calloc(1, size);
	if (!buf)
		return -1;
	memcpy(buf, POLBIN_MAGIC, POLBIN_MAGIC_LEN);
	put32(buf + 8, POLBIN_VERSION);
	put32(buf + 12, w->arch);
	put32(buf + 16, w->n);
	put64(buf + 24, size);
	off = POLBIN_HEADER_SIZE + (size_t)w->n * POLBIN_ENTRY_SIZE;
	for (i = 0; i < w->n; i++) {
		uint8_t *e = buf + POLBIN_HEADER_SIZE + i * POLBIN_ENTRY_SIZE;

		off = align8(off);
		put32(e, w->sec[i].type);
		put32(e + 4, w->sec[i].flags);
		put32(e + 8, (uint32_t)off);
		put32(e + 12, (uint32_t)w->sec[i].len);
		memcpy(buf + off, w->sec[i].data, w->sec[i].len);
		off += w->sec[i].len;
	}
	sha256(buf + POLBIN_HEADER_SIZE, size - POLBIN_HEADER_SIZE, buf + 32);
	*out = buf;
	*len = size;
	return 0;
}
