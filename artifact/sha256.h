/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4). Our own because polexec is static and depends on
 * nothing at run time; polc uses the same code so both agree by construction.
 */
#ifndef POLC_SHA256_H
#define POLC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t total;
	uint8_t buf[64];
	size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);
void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN]);
/* 65-byte buffer: 64 hex digits and NUL. */
void sha256_hex(const uint8_t d[SHA256_LEN], char out[2 * SHA256_LEN + 1]);

#endif
