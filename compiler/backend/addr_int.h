/* SPDX-License-Identifier: MIT */
/* What the nft and eBPF backends share: addresses of family 4 or 6, in
 * network order, as numbers (the decomposition into prefixes and sets). */
#ifndef POLC_BACKEND_ADDR_INT_H
#define POLC_BACKEND_ADDR_INT_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

/* An address of family 4 or 6 (network order) as a number. */
static inline u128 addr_get(const uint8_t *a, int family)
{
	u128 v = 0;
	int i;

	for (i = 0; i < (family == 4 ? 4 : 16); i++)
		v = v << 8 | a[i];
	return v;
}

/* The number v as an address of family 4 or 6, zero-padded to 16 bytes. */
static inline void addr_put(uint8_t *a, u128 v, int family)
{
	int i, n = family == 4 ? 4 : 16;

	memset(a, 0, 16);
	for (i = n - 1; i >= 0; i--, v >>= 8)
		a[i] = (uint8_t)v;
}

/* The family's last address. */
static inline u128 addr_max(int family)
{
	return family == 4 ? (u128)0xffffffffu : ~(u128)0;
}

static inline int u128_cmp(const void *a, const void *b)
{
	u128 x = *(const u128 *)a, y = *(const u128 *)b;

	return (x > y) - (x < y);
}

#endif
