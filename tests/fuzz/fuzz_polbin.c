// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the artifact readers: bytes in as a .polbin, through
 * the container reader (polbin_parse, shared with polexec), the IR decoder
 * (ir_deserialize) and `polc dump`.
 *
 * Each input is tried twice: as it is, and with its size field and SHA-256
 * digest made right. Random bytes almost never carry a valid digest, so
 * without the second try the fuzzer would never get past the checksum to
 * the section table, the IR and the section printers, which is where a
 * hostile artifact does its work (an attacker can always recompute a
 * digest).
 *
 * Checks beyond the sanitizers', aborting when they fail:
 *   - a refusal always comes with a reason;
 *   - an IR section the decoder accepts re-encodes to the same bytes
 *     (the reader promises to refuse non-canonical IR);
 *   - dump_artifact() never accepts what polbin_parse() refuses;
 *   - what `polc dump` prints holds no control character but newline and
 *     tab, whatever the artifact holds: a hostile artifact must not drive
 *     the reader's terminal. POLC_FUZZ_CONTROL=ignore skips this check,
 *     to explore past a known bug (tests/fuzz/crashes/README.md).
 */
#include "backend/backend.h"
#include "cli/cli.h"
#include "ir/ir.h"
#include "polbin.h"
#include "sha256.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_polbin: %s%s%s\n", what, err ? ": " : "",
		err ? err : "");
	abort();
}

/* Aborts on a control byte other than newline and tab. */
static void check_clean(const char *what, const char *s, size_t n)
{
	const char *skip = getenv("POLC_FUZZ_CONTROL");
	size_t i;

	if (skip && !strcmp(skip, "ignore"))
		return;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			fprintf(stderr,
				"fuzz_polbin: %s printed byte 0x%02x at %zu\n",
				what, c, i);
			abort();
		}
	}
}

static void check_ir(const struct polbin_section *s)
{
	struct ir_policy *p = NULL;
	uint8_t *again = NULL;
	size_t againlen = 0, textlen = 0;
	char err[256] = "", *text = NULL;
	FILE *mem;

	if (ir_deserialize(s->data, s->len, &p, err, sizeof(err)) != IR_OK) {
		if (p)
			die("ir_deserialize failed but returned an IR", err);
		if (!err[0])
			die("ir_deserialize refused without a reason", NULL);
		return;
	}
	if (!p)
		die("ir_deserialize succeeded without an IR", NULL);
	if (ir_serialize(p, &again, &againlen) != IR_OK)
		die("ir_serialize failed", NULL);
	if (againlen != s->len || memcmp(again, s->data, s->len) != 0)
		die("accepted IR does not re-encode to the same bytes", NULL);
	mem = open_memstream(&text, &textlen);
	if (!mem)
		die("open_memstream failed", NULL);
	ir_print(p, mem);
	if (fclose(mem) != 0)
		die("fclose(memstream) failed", NULL);
	check_clean("ir_print", text, textlen);
	free(text);
	free(again);
	ir_policy_destroy(&p);
}

static void one(const uint8_t *buf, size_t len)
{
	struct polbin pb;
	char err[256] = "", derr[256] = "";
	const struct polbin_section *ir;
	char *text = NULL;
	size_t textlen = 0;
	FILE *mem;
	int parsed, dumped;

	parsed = polbin_parse(buf, len, backends_known_sections, &pb, err,
			      sizeof(err)) == 0;
	if (!parsed && !err[0])
		die("polbin_parse refused without a reason", NULL);
	if (parsed) {
		if (pb.nsections < 1 || pb.nsections > POLBIN_MAX_SECTIONS)
			die("polbin_parse accepted a bad section count", NULL);
		ir = polbin_find(&pb, POLBIN_SEC_IR);
		if (ir)
			check_ir(ir);
	}
	mem = open_memstream(&text, &textlen);
	if (!mem)
		die("open_memstream failed", NULL);
	dumped = dump_artifact(buf, len, mem, derr, sizeof(derr)) == 0;
	if (fclose(mem) != 0)
		die("fclose(memstream) failed", NULL);
	check_clean("dump", text, textlen);
	check_clean("dump's refusal", derr, strlen(derr));
	free(text);
	if (dumped && !parsed)
		die("dump accepted what polbin_parse refused", err);
	if (!dumped && !derr[0])
		die("dump refused without a reason", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;
	size_t i;

	if (size > POLBIN_MAX_SIZE)
		return 0;
	one(data, size);
	if (size < POLBIN_HEADER_SIZE)
		return 0;
	/* The same bytes with a true size field and digest. */
	fixed = malloc(size);
	if (!fixed)
		die("out of memory", NULL);
	memcpy(fixed, data, size);
	for (i = 0; i < 8; i++)
		fixed[24 + i] = (uint8_t)((uint64_t)size >> (8 * i));
	sha256(fixed + POLBIN_HEADER_SIZE, size - POLBIN_HEADER_SIZE,
	       fixed + 32);
	one(fixed, size);
	free(fixed);
	return 0;
}
