/* SPDX-License-Identifier: MIT */
/*
 * Internal to `polc suggest` (suggest.c, record_read.c): what it reads of
 * run records. Bounded: a record that holds more is refused.
 */
#ifndef POLC_SUGGEST_INT_H
#define POLC_SUGGEST_INT_H

#include <stddef.h>
#include <stdint.h>

#define SUG_MAX_DENIALS 8192 /* over all records */
#define SUG_MAX_MAPS	256

enum sug_layer { SUG_SECCOMP, SUG_LANDLOCK, SUG_NET };

struct sug_denial {
	enum sug_layer layer;
	char syscall[48];
	uint64_t args[6];
	char call[600];
	char action[64];
	char by[16];
	char rule[1100];
	char path[4096];
	uint32_t rights; /* landlock: the rights it lacked, IR_FS_* bits */
	char dest[128];	 /* net: ADDR:PORT/PROTO */
	char host[256];
	uint32_t count;
	int learned;
};

/* A Landlock rule's path as the policy wrote it and as it was bound. */
struct sug_map {
	char path[4096];
	char bound[4096];
};

struct sug_input {
	struct sug_denial *d; /* SUG_MAX_DENIALS */
	size_t n;
	struct sug_map *maps; /* SUG_MAX_MAPS */
	size_t nmaps;
};

/* Adds the denials and path bindings of one record (hostile input) to in.
 * 0, or -1 with the reason in err. */
int record_read(const uint8_t *buf, size_t len, struct sug_input *in, char *err,
		size_t errlen);

#endif
