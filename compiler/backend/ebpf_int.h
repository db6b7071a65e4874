/* SPDX-License-Identifier: MIT */
/* What ebpf.c and ebpf_print.c share: the section's byte readers. */
#ifndef POLC_BACKEND_EBPF_INT_H
#define POLC_BACKEND_EBPF_INT_H

#include "addr_int.h"
#include "sections.h"

#include <stdint.h>
#include <string.h>

#define HDR_LEN	 16
#define RULE_LEN (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN)

static inline uint32_t rd32(const uint8_t *d)
{
	return (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
	       (uint32_t)d[3] << 24;
}

static inline uint16_t rd16(const uint8_t *d)
{
	return (uint16_t)(d[0] | d[1] << 8);
}

/* The rules' order: by key bytes. */
static inline int key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, POLBIN_EBPF_KEY_LEN);
}

#endif
