// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the front end and the semantic pass: bytes in as
 * policy source, through the lexer, the parser, `polc fmt` and sema.
 *
 * Beyond "no crash, no leak, no UB" (the sanitizers' job), it checks what
 * must hold for every input, and aborts when it does not:
 *
 *   - a diagnostic is recorded whenever parsing or compiling fails, and
 *     the printed diagnostics hold no control character but newline and
 *     tab (a hostile policy must not drive the reader's terminal);
 *   - the IR sema returns serializes, and ir_deserialize() accepts the
 *     bytes back (the writer and the hostile-input reader agree);
 *   - `polc fmt` output parses again, keeps every comment, and
 *     formatting it again changes nothing;
 *   - a policy that compiles means the same after `polc fmt`: its
 *     formatted text compiles to the same IR bytes.
 *
 * Inputs holding a NUL byte are skipped: polc refuses those files before
 * the lexer sees them (diag_load_file), so they cannot reach this code.
 *
 * `use` looks in the folders of POLC_FUZZ_PATH (colon-separated), read
 * once at start; fuzz.mk points it at the bad-policies fragments.
 * POLC_FUZZ_FMT=valid limits the idempotence check to policies that
 * compile, to explore past a known fmt bug on broken input
 * (tests/fuzz/crashes/README.md).
 */
#include "ast.h"
#include "diag.h"
#include "ir/ir.h"
#include "sema/sema.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEARCH 8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *search[MAX_SEARCH];
static struct sema_opts opts = {search, 0};
static char *search_copy;
static int fmt_valid_only;

static void die(const char *what, const struct diag *d)
{
	fprintf(stderr, "fuzz_policy: %s\n", what);
	if (d)
		diag_print(d, stderr);
	abort();
}

/* Prints the diagnostics as polc would, and checks the bytes. */
static void print_diags(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		die("open_memstream failed", NULL);
	diag_print(d, mem);
	if (fclose(mem) != 0)
		die("fclose(memstream) failed", NULL);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			fprintf(stderr, "fuzz_policy: byte 0x%02x at %zu\n", c,
				i);
			die("diagnostics print a control character", d);
		}
	}
	free(text);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("POLC_FUZZ_PATH");
	char *p, *tok, *save = NULL;

	(void)argc;
	(void)argv;
	p = getenv("POLC_FUZZ_FMT");
	fmt_valid_only = p && !strcmp(p, "valid");
	if (env && *env) {
		search_copy = strdup(env);
		if (!search_copy)
			die("out of memory", NULL);
		for (p = search_copy; opts.nsearch < MAX_SEARCH &&
				      (tok = strtok_r(p, ":", &save));
		     p = NULL)
			search[opts.nsearch++] = tok;
	}
	return 0;
}

/* Compiles text; on success returns the serialized IR in *ir. */
static int compile(const char *text, size_t len, uint8_t **ir, size_t *irlen)
{
	struct ir_policy *p = NULL, *back = NULL;
	struct diag d;
	char err[256];
	int rc;

	*ir = NULL;
	*irlen = 0;
	diag_init(&d);
	rc = sema_compile_text(&d, "fuzz.pol", text, len, &opts, &p);
	if (rc != 0) {
		if (p)
			die("sema failed but returned an IR", &d);
		if (d.errors == 0 && !d.oom)
			die("sema failed without an error", &d);
		print_diags(&d);
		diag_fini(&d);
		return -1;
	}
	if (!p || d.errors)
		die("sema succeeded with errors or without an IR", &d);
	print_diags(&d); /* warnings */
	if (ir_serialize(p, ir, irlen) != IR_OK)
		die("ir_serialize failed", &d);
	if (ir_deserialize(*ir, *irlen, &back, err, sizeof(err)) != IR_OK) {
		fprintf(stderr, "fuzz_policy: ir_deserialize: %s\n", err);
		die("the reader refuses what sema wrote", &d);
	}
	ir_policy_destroy(&back);
	ir_policy_destroy(&p);
	diag_fini(&d);
	return 0;
}

/* Parses text and formats it; *out is the malloc'd text, or NULL. */
static int parse_format(const char *text, size_t len, char **out,
			size_t *outlen, size_t *ncomments)
{
	const struct src_file *src;
	struct ast_file *f = NULL;
	struct diag d;
	FILE *mem;
	int rc = -1;

	*out = NULL;
	*outlen = 0;
	diag_init(&d);
	src = diag_add_source(&d, "fuzz.pol", text, len);
	if (!src)
		die("out of memory", NULL);
	if (ast_parse(&d, src, &f) != 0) {
		if (f)
			die("ast_parse failed but returned a tree", &d);
		if (d.errors == 0)
			die("ast_parse failed without an error", &d);
		print_diags(&d);
		goto out;
	}
	mem = open_memstream(out, outlen);
	if (!mem)
		die("open_memstream failed", NULL);
	*ncomments = f->ncomments;
	if (ast_format(f, mem) != 0)
		die("ast_format failed", NULL);
	if (fclose(mem) != 0)
		die("fclose(memstream) failed", NULL);
	rc = 0;
out:
	ast_file_destroy(&f);
	diag_fini(&d);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char *fmt1 = NULL, *fmt2 = NULL;
	size_t fmt1len, fmt2len, irlen, ir2len, nc0 = 0, nc1 = 0;
	uint8_t *ir = NULL, *ir2 = NULL;
	int compiled;

	if (memchr(data, '\0', size))
		return 0;
	compiled = compile(text, size, &ir, &irlen) == 0;
	if (parse_format(text, size, &fmt1, &fmt1len, &nc0) != 0) {
		if (compiled)
			die("sema accepted what the parser refuses", NULL);
		free(ir);
		return 0;
	}
	if (parse_format(fmt1, fmt1len, &fmt2, &fmt2len, &nc1) != 0) {
		fprintf(stderr, "--- fmt output ---\n%s", fmt1);
		die("polc fmt output does not parse", NULL);
	}
	if (nc0 != nc1) {
		fprintf(stderr, "--- fmt output ---\n%s", fmt1);
		die("polc fmt lost or added a comment", NULL);
	}
	if ((compiled || !fmt_valid_only) &&
	    (fmt1len != fmt2len || memcmp(fmt1, fmt2, fmt1len) != 0)) {
		fprintf(stderr, "--- fmt once ---\n%s--- fmt twice ---\n%s",
			fmt1, fmt2);
		die("polc fmt is not idempotent", NULL);
	}
	if (compiled) {
		if (compile(fmt1, fmt1len, &ir2, &ir2len) != 0) {
			fprintf(stderr, "--- fmt output ---\n%s", fmt1);
			die("the formatted policy no longer compiles", NULL);
		}
		if (irlen != ir2len || memcmp(ir, ir2, irlen) != 0) {
			fprintf(stderr, "--- fmt output ---\n%s", fmt1);
			die("polc fmt changed what the policy means", NULL);
		}
	}
	free(ir);
	free(ir2);
	free(fmt1);
	free(fmt2);
	return 0;
}
