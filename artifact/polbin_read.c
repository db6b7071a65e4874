/* SPDX-License-Identifier: MIT */
/*
 * The hostile-input reader. Every check runs before the value it guards is
 * used, and every refusal says which field was wrong, so a corrupt artifact
 * is diagnosed rather than half-trusted. Arithmetic is done in 64 bits on
 * 32-bit fields so that offset + length cannot wrap.
 */
#include "polbin.h"
#include "sha256.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_known(const uint32_t *known, uint32_t type)
{
	for (; known && *known; known++)
		if (*known == type)
			return 1;
	return 0;
}

int polbin_parse(const uint8_t *buf, size_t len, const uint32_t *known,
		 struct polbin *out, char *err, size_t errlen)
{
	uint8_t digest[SHA256_LEN];
	uint64_t size, table_end, prev_end;
	uint32_t n, i, j;

	memset(out, 0, sizeof(*out));
	if (len < POLBIN_HEADER_SIZE)
		return fail(err, errlen,
			    "truncated: %zu bytes, header needs %d", len,
			    POLBIN_HEADER_SIZE);
	if (len > POLBIN_MAX_SIZE)
		return fail(err, errlen, "too large: %zu bytes, limit %u", len,
			    POLBIN_MAX_SIZE);
	if (memcmp(buf, POLBIN_MAGIC, POLBIN_MAGIC_LEN) != 0)
		return fail(err, errlen, "not a polbin (bad magic)");
	out->version = polbin_le32(buf + 8);
	if (out->version != POLBIN_VERSION)
		return fail(err, errlen,
			    "format version %u, this reader knows %u",
			    out->version, POLBIN_VERSION);
	out->arch = polbin_le32(buf + 12);
	n = polbin_le32(buf + 16);
	if (polbin_le32(buf + 20) != 0)
		return fail(err, errlen, "reserved header field is not zero");
	size = polbin_le64(buf + 24);
	if (size != len)
		return fail(err, errlen,
			    "size field says %llu bytes, file has %zu "
			    "(truncated or padded)",
			    (unsigned long long)size, len);
	if (n == 0 || n > POLBIN_MAX_SECTIONS)
		return fail(err, errlen, "section count %u out of range 1..%d",
			    n, POLBIN_MAX_SECTIONS);
	table_end = POLBIN_HEADER_SIZE + (uint64_t)n * POLBIN_ENTRY_SIZE;
	if (table_end > len)
		return fail(err, errlen, "section table runs past end of file");
	/* The digest covers the table too, so check it before reading it. */
	sha256(buf + POLBIN_HEADER_SIZE, len - POLBIN_HEADER_SIZE, digest);
	if (memcmp(digest, buf + 32, SHA256_LEN) != 0)
		return fail(err, errlen, "SHA-256 digest mismatch");

	prev_end = table_end;
	for (i = 0; i < n; i++) {
		const uint8_t *e =
		    buf + POLBIN_HEADER_SIZE + i * POLBIN_ENTRY_SIZE;
		struct polbin_section *s = &out->sections[i];
		uint64_t off = polbin_le32(e + 8), slen = polbin_le32(e + 12);

		s->type = polbin_le32(e);
		s->flags = polbin_le32(e + 4);
		if (s->flags & ~POLBIN_F_KNOWN)
			return fail(err, errlen,
				    "section %u: unknown flags 0x%x", i,
				    s->flags);
		if (!is_known(known, s->type) && (s->flags & POLBIN_F_CRITICAL))
			return fail(
			    err, errlen,
			    "section %u: unknown critical section type %u", i,
			    s->type);
		if (off % 8 != 0)
			return fail(
			    err, errlen,
			    "section %u: offset %llu not 8-byte aligned", i,
			    (unsigned long long)off);
		if (off < prev_end)
			return fail(
			    err, errlen,
			    "section %u: offset %llu overlaps the header, "
			    "table or previous section",
			    i, (unsigned long long)off);
		if (off + slen > len)
			return fail(
			    err, errlen,
			    "section %u: %llu bytes at %llu run past end "
			    "of file (%zu)",
			    i, (unsigned long long)slen,
			    (unsigned long long)off, len);
		for (j = 0; j < i; j++)
			if (out->sections[j].type == s->type)
				return fail(err, errlen,
					    "section %u: duplicate type %u", i,
					    s->type);
		s->data = buf + off;
		s->len = (uint32_t)slen;
		prev_end = off + slen;
	}
	out->nsections = n;
	return 0;
}

const struct polbin_section *polbin_find(const struct polbin *pb, uint32_t type)
{
	uint32_t i;

	for (i = 0; i < pb->nsections; i++)
		if (pb->sections[i].type == type)
			return &pb->sections[i];
	return NULL;
}

const char *polbin_section_name(uint32_t type)
{
	switch (type) {
	case POLBIN_SEC_IR:
		return "ir";
	case POLBIN_SEC_META:
		return "meta";
	case POLBIN_SEC_SECCOMP:
		return "seccomp";
	case POLBIN_SEC_LANDLOCK:
		return "landlock";
	case POLBIN_SEC_NFT:
		return "nft";
	case POLBIN_SEC_LIMITS:
		return "limits";
	case POLBIN_SEC_ENV:
		return "env";
	case POLBIN_SEC_NET:
		return "net";
	case POLBIN_SEC_VIEW:
		return "view";
	case POLBIN_SEC_NOEXEC:
		return "noexec";
	case POLBIN_SEC_OBSERVE:
		return "observe";
	case POLBIN_SEC_EBPF:
		return "ebpf";
	case POLBIN_SEC_NONET:
		return "nonet";
	case POLBIN_SEC_BROKER:
		return "broker";
	case POLBIN_SEC_UNENFORCED:
		return "unenforced";
	}
	return "unknown";
}
