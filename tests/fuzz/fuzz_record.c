// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for polc suggest: bytes in as a run record (hostile
 * input: the box chose its paths and arguments), through jansson, the
 * record reader, the rejudging against a fixed policy and the writer.
 *
 * Beyond "no crash, no leak, no UB", it checks what must hold for every
 * input, and aborts when it does not:
 *
 *   - suggest exits 0 or 2, never 3 (3: the text it built does not
 *     compile, a polc bug) and never anything else;
 *   - on 0 the suggestion holds only printable ASCII, tabs and newlines,
 *     and every line of the original policy, in order (suggest inserts,
 *     it never removes or rewrites);
 *   - the policy's explicit `kill ptrace` and its `deny` stay: no
 *     suggestion line allows ptrace or 10.9.0.0/16.
 *
 * The policy and the record are files in a folder of the harness's own
 * (mkdtemp), as polc reads them; the suggestion is written there too.
 */
#include "cli/cli.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char policy[] =
    "# the fixed policy of fuzz_record\n"
    "policy \"fuzz-record\" {\n"
    "  fs {\n"
    "    rx /usr ${WORKSPACE}\n"
    "    ro /etc\n"
    "  }\n"
    "  net filtered {\n"
    "    allow example.com:443\n"
    "    allow 10.0.0.0/8:80\n"
    "    deny 10.9.0.0/16\n"
    "  }\n"
    "  syscalls default errno(EPERM) {\n"
    "    allow read write close exit_group\n"
    "    allow socket if domain == AF_UNIX\n"
    "    kill ptrace\n"
    "    errno(EACCES) prctl if option == PR_SET_DUMPABLE\n"
    "  }\n"
    "}\n";

static char dir[64], pol_path[96], rec_path[96], out_path[96];

static void die(const char *what, const char *text)
{
	fprintf(stderr, "fuzz_record: %s\n", what);
	if (text)
		fputs(text, stderr);
	abort();
}

static void put(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		die("cannot write a file of the harness", path);
}

static void cleanup(void)
{
	unlink(pol_path);
	unlink(rec_path);
	unlink(out_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz_record.XXXXXX",
		 tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp failed", NULL);
	snprintf(pol_path, sizeof(pol_path), "%s/agent.pol", dir);
	snprintf(rec_path, sizeof(rec_path), "%s/record.json", dir);
	snprintf(out_path, sizeof(out_path), "%s/new.pol", dir);
	put(pol_path, policy, sizeof(policy) - 1);
	atexit(cleanup);
	return 0;
}

/* Every line of the policy appears in text, in order. */
static void check_kept(const char *text)
{
	const char *at = text, *line = policy;

	while (*line) {
		const char *end = strchr(line, '\n');
		char want[128];
		const char *hit;

		snprintf(want, sizeof(want), "%.*s\n", (int)(end - line), line);
		hit = strstr(at, want);
		if (!hit)
			die("the suggestion lost a line of the policy", text);
		at = hit + strlen(want);
		line = end + 1;
	}
}

static void check_text(const char *text, size_t len)
{
	const char *l;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
			die("the suggestion is not plain ASCII", text);
	}
	check_kept(text);
	for (l = text; l; l = strchr(l, '\n')) {
		l += *l == '\n';
		l += strspn(l, " ");
		if (*l == '#')
			continue;
		if (!strncmp(l, "allow ptrace", 12) ||
		    (!strncmp(l, "allow 10.9.", 11)))
			die("the suggestion widens past an explicit rule",
			    text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *records[1] = {rec_path};
	struct suggest_opts o = {
	    .policy = pol_path,
	    .records = records,
	    .nrecords = 1,
	    .output = out_path,
	};
	char *text;
	long len = 0;
	FILE *f;
	int rc;

	put(rec_path, data, size);
	unlink(out_path);
	rc = suggest_policy(&o);
	if (rc == 3)
		die("the suggestion does not compile (a polc bug)", NULL);
	if (rc != 0 && rc != 2)
		die("suggest returned neither 0 nor 2", NULL);
	if (rc)
		return 0;
	f = fopen(out_path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read the suggestion back", NULL);
	text = calloc(1, (size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, f) != (size_t)len)
		die("cannot read the suggestion back", NULL);
	fclose(f);
	check_text(text, (size_t)len);
	free(text);
	return 0;
}
