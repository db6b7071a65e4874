/* SPDX-License-Identifier: MIT */
/*
 * The .polbin container, shared by polc (writer and reader) and polexec
 * (reader only, so this header and polbin_read.c use nothing beyond libc).
 *
 * Layout, all integers little-endian (docs/ARTIFACT.md has the full text):
 *
 *   0  magic[8]       "\x89POLBIN\n"
 *   8  u32 version    POLBIN_VERSION
 *  12  u32 arch       AUDIT_ARCH_* the artifact was compiled for
 *  16  u32 nsections  1..POLBIN_MAX_SECTIONS
 *  20  u32 reserved   0
 *  24  u64 size       the whole file, header included
 *  32  u8 digest[32]  SHA-256 over bytes [64, size)
 *  64  section table: nsections x { u32 type, u32 flags, u32 offset, u32 len }
 *      then the section payloads, each 8-byte aligned, in table order,
 *      neither overlapping each other nor the header or table.
 *
 * A reader treats the file as hostile: every field is checked before use.
 */
#ifndef POLC_POLBIN_H
#define POLC_POLBIN_H

#include <stddef.h>
#include <stdint.h>

#define POLBIN_MAGIC	    "\x89POLBIN\n"
#define POLBIN_MAGIC_LEN    8
#define POLBIN_VERSION	    1
#define POLBIN_HEADER_SIZE  64
#define POLBIN_ENTRY_SIZE   16
#define POLBIN_MAX_SECTIONS 32
#define POLBIN_MAX_SIZE	    (16u << 20) /* 16 MiB */

/* Section types. New types get new numbers; numbers are never reused. */
enum polbin_section_type {
	POLBIN_SEC_IR = 1,	 /* canonical IR (compiler/ir/ir.h encoding) */
	POLBIN_SEC_META = 2,	 /* policy name, source digest, compiler */
	POLBIN_SEC_SECCOMP = 3,	 /* raw struct sock_filter[] for x86_64 */
	POLBIN_SEC_LANDLOCK = 4, /* Landlock ruleset */
	POLBIN_SEC_NFT = 5,	 /* nftables netlink batch */
	POLBIN_SEC_LIMITS = 6,	 /* resource limits */
	POLBIN_SEC_ENV = 7,	 /* environment recipe */
	POLBIN_SEC_NET = 8,	 /* the box's network namespace */
	POLBIN_SEC_VIEW = 9,	 /* the box's own view and its user */
	POLBIN_SEC_NOEXEC = 10,	 /* seccomp stacked where memfds run */
	POLBIN_SEC_OBSERVE = 11, /* the run record's programs and names */
	POLBIN_SEC_EBPF = 12,	 /* cgroup eBPF egress programs, rules */
	POLBIN_SEC_NONET = 13,	 /* seccomp stacked for net none without a
				  * network namespace */
	POLBIN_SEC_BROKER = 14,	 /* the notify broker's seccomp program */
	/*
	 * Layers the policy states but this polc cannot compile yet (text:
	 * their names). Always critical: no reader may run such an artifact,
	 * since part of what the policy says would not be enforced.
	 */
	POLBIN_SEC_UNENFORCED = 99,
};

/* A reader that does not know a critical section must refuse the file. */
#define POLBIN_F_CRITICAL 0x1u
#define POLBIN_F_KNOWN	  POLBIN_F_CRITICAL

struct polbin_section {
	uint32_t type;
	uint32_t flags;
	const uint8_t *data; /* points into the caller's buffer */
	uint32_t len;
};

struct polbin {
	uint32_t version;
	uint32_t arch;
	uint32_t nsections;
	struct polbin_section sections[POLBIN_MAX_SECTIONS];
};

/*
 * Validate buf as a polbin: magic, version, size, digest, table, bounds,
 * alignment, overlap, duplicate types, unknown critical types (any type not
 * in `known`, a zero-terminated list of the types the caller
 * understands). Returns 0, or -1 with a one-line reason in err.
 */
int polbin_parse(const uint8_t *buf, size_t len, const uint32_t *known,
		 struct polbin *out, char *err, size_t errlen);

/* The section of that type, or NULL. */
const struct polbin_section *polbin_find(const struct polbin *pb,
					 uint32_t type);

/* Human name of a section type ("seccomp"), or "unknown". */
const char *polbin_section_name(uint32_t type);

/*
 * Strings in an artifact are UTF-8 text. The length of the well-formed
 * UTF-8 sequence at s that is not a C1 control (U+0080..U+009F, a CSI
 * among them: one byte from a terminal escape), or 0. polc refuses such
 * strings in a policy; polexec replaces them before printing or
 * recording anything.
 */
static inline size_t polbin_utf8_len(const unsigned char *s)
{
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || (c >= 0x80 && c <= 0x9f))
		return 0;
	return n;
}

/*
 * Name rules that polc writes and polexec checks again, one copy for both
 * (the static stub links nothing of polc's). An identifier is
 * [A-Za-z_][A-Za-z0-9_]*; callers bound its length. A host name is
 * lower-case labels of [a-z0-9-], at most 63 bytes each, joined by dots,
 * at most 253 bytes, not starting with '-' or '.', no label ending in '-'
 * before a dot.
 */
static inline int polbin_is_identifier(const char *s, size_t len)
{
	size_t i;

	if (len == 0)
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

static inline int polbin_is_hostname(const char *s, size_t len)
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

/*
 * s (len bytes) read as inet_aton reads an IPv4 address: one to four
 * parts joined by dots, each decimal, octal (a leading 0) or hex (0x),
 * the last filling the bytes left (127.1 and 2130706433 are 127.0.0.1).
 * 1 and the address in a, or 0. Such a word passes polbin_is_hostname,
 * but a libc would take it for that address: polc refuses it as a name
 * and polexec never looks it up.
 */
static inline int polbin_inet_aton(const char *s, size_t len, uint8_t a[4])
{
	uint64_t part[4], v;
	size_t i = 0, n = 0, k;

	for (;;) {
		unsigned base = 10, d;
		size_t start;

		if (n == 4 || i == len || s[i] < '0' || s[i] > '9')
			return 0;
		if (s[i] == '0')
			base = 8;
		if (s[i] == '0' && i + 1 < len && (s[i + 1] | 0x20) == 'x') {
			base = 16;
			i += 2;
		}
		for (v = 0, start = i; i < len; i++) {
			char c = s[i], x = (char)(c | 0x20);

			d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			    : x >= 'a' && x <= 'f' ? (unsigned)(x - 'a' + 10)
						   : 16;
			if (d >= base)
				break;
			if (v >> 32 == 0) /* saturates past any part's range */
				v = v * base + d;
		}
		if (i == start && base == 16)
			return 0;
		part[n++] = v;
		if (i == len)
			break;
		if (s[i++] != '.')
			return 0;
	}
	for (k = 0; k + 1 < n; k++)
		if (part[k] > 255)
			return 0;
	if (part[n - 1] >> (8 * (5 - n)))
		return 0;
	for (k = 0; k < 4; k++)
		a[k] = k + 1 < n ? (uint8_t)part[k]
				 : (uint8_t)(part[n - 1] >> (8 * (3 - k)));
	return 1;
}

/* Little-endian decoding helpers for section readers. */
static inline uint16_t polbin_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t polbin_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t polbin_le64(const uint8_t *p)
{
	return (uint64_t)polbin_le32(p) | (uint64_t)polbin_le32(p + 4) << 32;
}

/* And their encoding twins, for section writers. */
static inline void polbin_put_le16(uint8_t *d, uint16_t v)
{
	d[0] = (uint8_t)v;
	d[1] = (uint8_t)(v >> 8);
}

static inline void polbin_put_le32(uint8_t *d, uint32_t v)
{
	polbin_put_le16(d, (uint16_t)v);
	polbin_put_le16(d + 2, (uint16_t)(v >> 16));
}

#endif
