/* SPDX-License-Identifier: MIT */
/*
 * The .polbin container: a round trip, and the corrupt-artifact corpus.
 * Each corruption is its own test, and each must be refused with the
 * reason that names it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "polbin.h"
#include "polbin_write.h"
#include "sha256.h"

#include <linux/audit.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t known[] = {POLBIN_SEC_IR, POLBIN_SEC_META,
				 POLBIN_SEC_SECCOMP, 0};

struct art {
	uint8_t *p;
	size_t len;
};

static struct art make(void)
{
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	struct art a;

	assert_non_null(w);
	assert_int_equal(polbin_writer_add(w, POLBIN_SEC_META, 0, "meta", 4),
			 0);
	assert_int_equal(polbin_writer_add(w, POLBIN_SEC_IR, POLBIN_F_CRITICAL,
					   "the ir bytes", 12),
			 0);
	assert_int_equal(polbin_writer_add(w, POLBIN_SEC_SECCOMP,
					   POLBIN_F_CRITICAL,
					   "\x06\0\0\0\0\0\xff\x7f", 8),
			 0);
	assert_int_equal(polbin_writer_finish(w, &a.p, &a.len), 0);
	polbin_writer_destroy(&w);
	assert_null(w);
	return a;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* After an edit, make the digest right again so the check under test is
 * the one that must catch the corruption. */
static void redigest(struct art *a)
{
	sha256(a->p + POLBIN_HEADER_SIZE, a->len - POLBIN_HEADER_SIZE,
	       a->p + 32);
}

static void refused(const struct art *a, const char *why)
{
	struct polbin pb;
	char err[256] = "";

	assert_int_equal(
	    polbin_parse(a->p, a->len, known, &pb, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("refused for '%s', expected '%s'", err, why);
}

static void test_round_trip(void **state)
{
	struct art a = make();
	struct polbin pb;
	const struct polbin_section *s;
	char err[128];

	(void)state;
	assert_int_equal(polbin_parse(a.p, a.len, known, &pb, err, sizeof(err)),
			 0);
	assert_int_equal(pb.arch, AUDIT_ARCH_X86_64);
	assert_int_equal(pb.nsections, 3);
	s = polbin_find(&pb, POLBIN_SEC_IR);
	assert_non_null(s);
	assert_int_equal(s->len, 12);
	assert_memory_equal(s->data, "the ir bytes", 12);
	assert_int_equal((s->data - a.p) % 8, 0);
	assert_null(polbin_find(&pb, POLBIN_SEC_ENV));
	free(a.p);
}

static void test_truncated(void **state)
{
	struct art a = make();
	size_t n;

	(void)state;
	/* Every shorter length, header included, is refused. */
	for (n = 0; n < a.len; n++) {
		struct art t = {a.p, n};

		refused(&t,
			n < POLBIN_HEADER_SIZE ? "truncated" : "size field");
	}
	free(a.p);
}

static void test_flipped_digest(void **state)
{
	struct art a = make();

	(void)state;
	a.p[40] ^= 1;
	refused(&a, "digest mismatch");
	free(a.p);
}

static void test_flipped_payload(void **state)
{
	struct art a = make();

	(void)state;
	a.p[a.len - 1] ^= 0x80;
	refused(&a, "digest mismatch");
	free(a.p);
}

static void test_huge_section_length(void **state)
{
	struct art a = make();
	uint8_t *e = a.p + POLBIN_HEADER_SIZE + POLBIN_ENTRY_SIZE;

	(void)state;
	put32(e + 12, 0xffffffffu);
	redigest(&a);
	refused(&a, "run past end");
	free(a.p);
}

static void test_huge_offset(void **state)
{
	struct art a = make();
	uint8_t *e = a.p + POLBIN_HEADER_SIZE + 2 * POLBIN_ENTRY_SIZE;

	(void)state;
	put32(e + 8, 0xfffffff8u);
	redigest(&a);
	refused(&a, "run past end");
	free(a.p);
}

static void test_huge_section_count(void **state)
{
	struct art a = make();

	(void)state;
	put32(a.p + 16, 0x10000000u);
	refused(&a, "section count");
	free(a.p);
}

static void test_oversized_file(void **state)
{
	struct art a = {calloc(1, POLBIN_MAX_SIZE + 1), POLBIN_MAX_SIZE + 1};

	(void)state;
	assert_non_null(a.p);
	refused(&a, "too large");
	free(a.p);
}

static void test_unknown_critical_section(void **state)
{
	struct polbin_writer *w = polbin_writer_create(AUDIT_ARCH_X86_64);
	struct art a;
	struct polbin pb;
	char err[128];

	(void)state;
	assert_int_equal(polbin_writer_add(w, POLBIN_SEC_IR, 1, "x", 1), 0);
	assert_int_equal(polbin_writer_add(w, 4242, POLBIN_F_CRITICAL, "y", 1),
			 0);
	assert_int_equal(polbin_writer_finish(w, &a.p, &a.len), 0);
	polbin_writer_destroy(&w);
	refused(&a, "unknown critical section type 4242");
	free(a.p);
	/* The same section, not critical, is skipped by design. */
	w = polbin_writer_create(AUDIT_ARCH_X86_64);
	assert_int_equal(polbin_writer_add(w, POLBIN_SEC_IR, 1, "x", 1), 0);
	assert_int_equal(polbin_writer_add(w, 4242, 0, "y", 1), 0);
	assert_int_equal(polbin_writer_finish(w, &a.p, &a.len), 0);
	polbin_writer_destroy(&w);
	assert_int_equal(polbin_parse(a.p, a.len, known, &pb, err, sizeof(err)),
			 0);
	free(a.p);
}

static void test_overlapping_sections(void **state)
{
	struct art a = make();
	uint8_t *e1 = a.p + POLBIN_HEADER_SIZE;
	uint8_t *e2 = e1 + POLBIN_ENTRY_SIZE;

	(void)state;
	put32(e2 + 8, polbin_le32(e1 + 8));
	redigest(&a);
	refused(&a, "overlaps");
	free(a.p);
}

static void test_section_over_table(void **state)
{
	struct art a = make();

	(void)state;
	put32(a.p + POLBIN_HEADER_SIZE + 8, POLBIN_HEADER_SIZE);
	redigest(&a);
	refused(&a, "overlaps");
	free(a.p);
}

static void test_misaligned_section(void **state)
{
	struct art a = make();
	uint8_t *e = a.p + POLBIN_HEADER_SIZE + 2 * POLBIN_ENTRY_SIZE;

	(void)state;
	put32(e + 8, polbin_le32(e + 8) + 1);
	redigest(&a);
	refused(&a, "aligned");
	free(a.p);
}

static void test_duplicate_section(void **state)
{
	struct art a = make();
	uint8_t *e = a.p + POLBIN_HEADER_SIZE + POLBIN_ENTRY_SIZE;

	(void)state;
	put32(e, POLBIN_SEC_META);
	redigest(&a);
	refused(&a, "duplicate type");
	free(a.p);
}

static void test_bad_header_fields(void **state)
{
	struct art a = make();

	(void)state;
	a.p[0] ^= 0xff;
	refused(&a, "bad magic");
	a.p[0] ^= 0xff;
	put32(a.p + 8, 2);
	refused(&a, "format version 2");
	put32(a.p + 8, POLBIN_VERSION);
	put32(a.p + 20, 1);
	refused(&a, "reserved");
	put32(a.p + 20, 0);
	put32(a.p + 24, (uint32_t)a.len + 8);
	refused(&a, "size field");
	put32(a.p + 24, (uint32_t)a.len);
	put32(a.p + POLBIN_HEADER_SIZE + 4, 0x80);
	redigest(&a);
	refused(&a, "unknown flags");
	free(a.p);
}

static void test_sha256_vectors(void **state)
{
	uint8_t d[SHA256_LEN];
	char hex[65];

	(void)state;
	sha256("", 0, d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b"
				 "934ca495991b7852b855");
	sha256("abc", 3, d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a39617"
				 "7a9cb410ff61f20015ad");
	sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	       d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff"
				 "2167f6ecedd419db06c1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_truncated),
	    cmocka_unit_test(test_flipped_digest),
	    cmocka_unit_test(test_flipped_payload),
	    cmocka_unit_test(test_huge_section_length),
	    cmocka_unit_test(test_huge_offset),
	    cmocka_unit_test(test_huge_section_count),
	    cmocka_unit_test(test_oversized_file),
	    cmocka_unit_test(test_unknown_critical_section),
	    cmocka_unit_test(test_overlapping_sections),
	    cmocka_unit_test(test_section_over_table),
	    cmocka_unit_test(test_misaligned_section),
	    cmocka_unit_test(test_duplicate_section),
	    cmocka_unit_test(test_bad_header_fields),
	    cmocka_unit_test(test_sha256_vectors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
