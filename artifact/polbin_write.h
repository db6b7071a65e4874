/* SPDX-License-Identifier: MIT */
/* Building a .polbin (polc only). */
#ifndef POLC_POLBIN_WRITE_H
#define POLC_POLBIN_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct polbin_writer;

struct polbin_writer *polbin_writer_create(uint32_t arch);
void polbin_writer_destroy(struct polbin_writer **w);

/* Copies data. Returns 0, or -1 on allocation failure or too many sections. */
int polbin_writer_add(struct polbin_writer *w, uint32_t type, uint32_t flags,
		      const void *data, size_t len);

/* Lays out, digests and returns the file in a malloc'd *out. */
int polbin_writer_finish(struct polbin_writer *w, uint8_t **out, size_t *len);

#endif
