/* SPDX-License-Identifier: MIT */
#include "sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	unsigned i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++) {
		uint32_t s0 =
		    ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
		uint32_t s1 =
		    ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
			      ((e & f) ^ (~e & g)) + K[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

/*
 * The CPU's SHA extensions (x86-64 SHA-NI, chosen by CPUID), which hash
 * polexec's artifact in a fifth of the time: the whole artifact is hashed
 * on every start-up, before anything else.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

#define SHA_NI __attribute__((target("sha,sse4.1,ssse3")))

SHA_NI static void blocks_ni(uint32_t st[8], const uint8_t *p, size_t n)
{
	const __m128i swap =
	    _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const void *)st), 0xb1);
	__m128i s1 =
	    _mm_shuffle_epi32(_mm_loadu_si128((const void *)(st + 4)), 0x1b);
	__m128i s0 = _mm_alignr_epi8(t, s1, 8); /* ABEF */

	s1 = _mm_blend_epi16(s1, t, 0xf0); /* CDGH */
	for (; n; n--, p += 64) {
		__m128i abef = s0, cdgh = s1, m[4];
		unsigned i;

		for (i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(
			    _mm_loadu_si128((const void *)(p + 16 * i)), swap);
		for (i = 0; i < 16; i++) {
			__m128i w = _mm_add_epi32(
			    m[i & 3],
			    _mm_loadu_si128((const void *)(K + 4 * i)));

			s1 = _mm_sha256rnds2_epu32(s1, s0, w);
			s0 = _mm_sha256rnds2_epu32(s0, s1,
						   _mm_shuffle_epi32(w, 0x0e));
			if (i < 12) /* W[4i+16 .. 4i+19] */
				m[i & 3] = _mm_sha256msg2_epu32(
				    _mm_add_epi32(
					_mm_sha256msg1_epu32(m[i & 3],
							     m[(i + 1) & 3]),
					_mm_alignr_epi8(m[(i + 3) & 3],
							m[(i + 2) & 3], 4)),
				    m[(i + 3) & 3]);
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1b);  /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1); /* DCHG */
	_mm_storeu_si128((void *)st, _mm_blend_epi16(t, s1, 0xf0));
	_mm_storeu_si128((void *)(st + 4), _mm_alignr_epi8(s1, t, 8));
}

static int have_ni(void)
{
	static int have = -1;
	unsigned a, b, c, d;

	if (have < 0)
		have = __get_cpuid(1, &a, &b, &c, &d) && c & bit_SSE4_1 &&
		       c & bit_SSSE3 &&
		       __get_cpuid_count(7, 0, &a, &b, &c, &d) && b & bit_SHA;
	return have;
}
#else
#define have_ni()	    0
#define blocks_ni(st, p, n) ((void)0)
#endif

/* n whole blocks at p. */
static void blocks(struct sha256 *s, const uint8_t *p, size_t n)
{
	if (have_ni()) {
		blocks_ni(s->h, p, n);
		return;
	}
	for (; n; n--, p += 64)
		block(s, p);
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, iv, sizeof(iv));
	s->total = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->total += len;
	while (len > 0) {
		size_t n = 64 - s->used;

		if (s->used == 0 && len >= 64) { /* whole blocks, in place */
			n = len / 64;
			blocks(s, p, n);
			p += 64 * n;
			len -= 64 * n;
			continue;
		}
		if (n > len)
			n = len;
		memcpy(s->buf + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == 64) {
			blocks(s, s->buf, 1);
			s->used = 0;
		}
	}
}

void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN])
{
	uint64_t bits = s->total * 8;
	uint8_t pad = 0x80;
	uint8_t len[8];
	unsigned i;

	sha256_update(s, &pad, 1);
	pad = 0;
	while (s->used != 56)
		sha256_update(s, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(s, len, 8);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, out);
}

void sha256_hex(const uint8_t d[SHA256_LEN], char out[2 * SHA256_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	for (i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[2 * SHA256_LEN] = '\0';
}
