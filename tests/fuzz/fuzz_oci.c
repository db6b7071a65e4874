// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for polc import oci: bytes in as a seccomp profile,
 * through jansson, the resolution, the translation and the writer.
 *
 * Beyond "no crash, no leak, no UB", it checks what must hold for every
 * input, and aborts when it does not:
 *
 *   - an import either fails with at least one error, or succeeds with
 *     policy text that compiles (import_oci_text() compiles it once
 *     itself: a 3 is a polc bug) and that `polc fmt` leaves unchanged;
 *   - the printed diagnostics hold no control character but newline and
 *     tab (a hostile profile must not drive the reader's terminal);
 *   - the policy text holds only printable ASCII and newlines (names,
 *     comments and numbers from the profile are made safe).
 *
 * Inputs holding a NUL byte are skipped, as polc refuses such files
 * before reading them (diag_load_file).
 */
#include "ast.h"
#include "diag.h"
#include "oci/oci.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *text, const struct diag *d)
{
	fprintf(stderr, "fuzz_oci: %s\n", what);
	if (text)
		fputs(text, stderr);
	if (d)
		diag_print(d, stderr);
	abort();
}

static void check_bytes(const char *s, size_t n, int tabs, const char *what,
			const struct diag *d)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' || (tabs && c == '\t'))
			continue;
		if (c < 0x20 || c == 0x7f || (!tabs && c >= 0x80)) {
			fprintf(stderr, "fuzz_oci: byte 0x%02x at %zu\n", c, i);
			die(what, tabs ? NULL : s, d);
		}
	}
}

/* The diagnostics as polc prints them, checked. */
static void print_diags(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		die("open_memstream failed", NULL, NULL);
	diag_print(d, mem);
	if (fclose(mem))
		die("fclose(memstream) failed", NULL, NULL);
	check_bytes(text, len, 1, "diagnostics print a control character", d);
	free(text);
}

/* polc fmt of the policy text changes nothing. */
static void check_fmt(const char *text, size_t len)
{
	struct ast_file *f = NULL;
	const struct src_file *src;
	char *out = NULL;
	size_t olen = 0;
	struct diag d;
	FILE *mem;

	diag_init(&d);
	src = diag_add_source(&d, "imported.pol", text, len);
	if (!src || ast_parse(&d, src, &f))
		die("the imported policy does not parse", text, &d);
	mem = open_memstream(&out, &olen);
	if (!mem || ast_format(f, mem) || fclose(mem))
		die("polc fmt failed", text, &d);
	if (olen != len || memcmp(out, text, len))
		die("polc fmt changes the imported policy", text, NULL);
	free(out);
	ast_file_destroy(&f);
	diag_fini(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const caps[] = {"CAP_SYS_ADMIN"};
	struct oci_import_opts o = {.kernel = "6.18", .max_errors = -1};
	const struct src_file *src;
	char *text = NULL;
	size_t len = 0;
	struct diag d;
	int rc;

	if (memchr(data, '\0', size))
		return 0;
	/* The first byte picks the options, so both paths get explored. */
	if (size && (data[0] & 1)) {
		o.caps = caps;
		o.ncaps = 1;
	}
	o.kernel_view = size && (data[0] & 2);
	diag_init(&d);
	src = diag_add_source(&d, "profile.json", (const char *)data, size);
	if (!src)
		die("out of memory", NULL, NULL);
	rc = import_oci_text(&o, src, &d, &text, &len, stderr);
	if (rc == 3)
		die("the imported policy does not compile (a polc bug)", text,
		    &d);
	if (rc == 0) {
		check_bytes(text, len, 0, "the policy text is not plain ASCII",
			    NULL);
		check_fmt(text, len);
	} else if (!d.errors) {
		die("an import failed without an error", NULL, &d);
	}
	print_diags(&d);
	free(text);
	diag_fini(&d);
	return 0;
}
