/* SPDX-License-Identifier: MIT */
/*
 * polc: the policy compiler's command line.
 *
 * Exit codes: 0 success (`check`: within the boundary); 1 `check`: the
 * boundary is exceeded; 2 bad input (policy errors, corrupt artifact,
 * usage) or a `check` the prover could not decide; 3 a compiler bug caught
 * by translation validation (no artifact is written).
 */
#include "ast.h"
#include "cli.h"
#include "diag.h"
#include "oci/oci.h"
#include "polbin.h"
#include "prove/prove.h"
#include "support/support.h"
#include "tables/tables.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The standard library's folder, searched after -I and POLC_PATH. Absolute
 * for the build tree's polc (the source tree's stdlib-policies); relative
 * for an installed polc, and then relative to the folder the polc binary
 * is in (/proc/self/exe), so an installed tree works wherever it was put,
 * also under a DESTDIR. The Makefile sets it per build.
 */
#ifndef POLC_STDLIB_DIR
#define POLC_STDLIB_DIR "../share/polc/stdlib-policies"
#endif

#define MAX_SEARCH 64

/* polc-probe, relative to polc's own folder: the build tree keeps it
 * beside polc, an installed tree in $(PREFIX)/lib/polc. */
#ifndef POLC_PROBE_REL
#define POLC_PROBE_REL "../lib/polc/polc-probe"
#endif

static const char usage[] =
    "usage: polc build [-I DIR]... [-o OUT.polbin] [--emit-bpf FILE] "
    "[--max-errors N] POLICY.pol\n"
    "       polc dump FILE.polbin\n"
    "       polc fmt [-w] POLICY.pol\n"
    "       polc check [-I DIR]... [--json] [--nested] [--max-errors N] "
    "--boundary OLD NEW\n"
    "       polc diff [-I DIR]... [--max-errors N] OLD NEW\n"
    "       polc import oci [-o OUT.pol] [--cap CAP]... [--kernel X.Y]\n"
    "                       [--int-args exact|kernel] [--name NAME]\n"
    "                       [--max-errors N] PROFILE.json\n"
    "       polc export oci [-I DIR]... [-o OUT.json] [--max-errors N] "
    "POLICY\n"
    "       polc suggest [-I DIR]... [-o OUT.pol] --policy POLICY.pol "
    "RECORD...\n"
    "       polc doctor\n"
    "       polc --help | --version\n"
    "\n"
    "  build   compile a policy into a verified artifact\n"
    "  dump    print every section of an artifact\n"
    "  fmt     print a policy in canonical layout (-w: rewrite the file)\n"
    "  check   prove that NEW allows nothing OLD does not, or print\n"
    "          re-checked counterexamples (OLD, NEW: .pol or .polbin);\n"
    "          --nested: NEW runs inside a box of OLD (limits and env\n"
    "          are OLD's to decide)\n"
    "  diff    what NEW adds (+) and removes (-) relative to OLD\n"
    "  import  an OCI/Docker seccomp profile as a policy, meaning what\n"
    "          runc makes of it, for x86_64 (docs/OCI.md)\n"
    "  export  the syscalls layer of POLICY (.pol or .polbin) as an OCI\n"
    "          profile that runc decides as polc's program does\n"
    "  suggest the policy again with the narrowest rule for each denial\n"
    "          the run records name (polexec --record, --learn); prints,\n"
    "          applies nothing: review with check --boundary\n"
    "  doctor  the kernel features this machine offers polexec, and what a\n"
    "          box gets here (each step tried by polexec --doctor)\n"
    "  selftest run escape probes in boxes of ARTIFACT, here, as you:\n"
    "          each property the policy claims held, open or not\n"
    "          claimed (exit 0 all held, 1 one open, 2 error)\n"
    "\n"
    "--max-errors N shows the first N errors (default 1000; 0: all).\n"
    "Fragments named by `use` are searched in -I folders, then POLC_PATH\n"
    "(colon-separated), then the standard library (polc --version: where).\n"
    "Exit: 0 ok (check: within), 1 check: exceeds, 2 bad input or\n"
    "undecided, 3 compiler bug caught by validation.\n";

/* --max-errors N: 0 (every error) up to INT_MAX. */
static int parse_max_errors(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX) {
		fprintf(stderr, "polc: --max-errors: '%s' is not a count\n", s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int cmd_dump(int argc, char **argv)
{
	char err[256];
	uint8_t *buf;
	size_t len;
	int rc;

	if (argc != 2) {
		fputs(usage, stderr);
		return 2;
	}
	/* One byte over the limit, so an oversized file is named as such. */
	if (readfile_all(argv[1], &buf, &len, POLBIN_MAX_SIZE + 1)) {
		fprintf(stderr, "polc: dump: %s: %s\n", argv[1],
			readfile_strerror(errno));
		return 2;
	}
	rc = dump_artifact(buf, len, stdout, err, sizeof(err));
	free(buf);
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "polc: dump: %s: %s\n", argv[1], err);
		return 2;
	}
	return 0;
}

/* fmt -w: the layout into memory, then written back by output.c's rule
 * (the file replaced atomically, its mode kept). */
static int fmt_write_back(const struct ast_file *f, const char *path)
{
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = 2;

	if (!mem) {
		fputs("polc: out of memory\n", stderr);
		return 2;
	}
	if (ast_format(f, mem) == 0 && fclose(mem) == 0) {
		if (output_write(path, text, len, err, sizeof(err)) == 0)
			rc = 0;
		else
			fprintf(stderr, "polc: fmt: write %s: %s\n", path, err);
	} else {
		fputs("polc: fmt: out of memory\n", stderr);
	}
	free(text);
	return rc;
}

static int cmd_fmt(int argc, char **argv)
{
	const struct src_file *src;
	struct ast_file *f = NULL;
	struct loc none = {0};
	const char *path;
	struct diag d;
	int write_back = 0, rc = 2;

	if (argc == 3 && !strcmp(argv[1], "-w"))
		write_back = 1;
	else if (argc != 2) {
		fputs(usage, stderr);
		return 2;
	}
	path = argv[argc - 1];
	diag_init(&d);
	src = diag_load_file(&d, path, none);
	if (!src || ast_parse(&d, src, &f))
		goto out;
	if (write_back)
		rc = fmt_write_back(f, path);
	else if (ast_format(f, stdout) == 0 && fflush(stdout) == 0)
		rc = 0;
out:
	ast_file_destroy(&f);
	diag_print(&d, stderr);
	diag_fini(&d);
	return rc;
}

/* The standard library's folder (POLC_STDLIB_DIR resolved), or NULL when
 * a relative one cannot be resolved (no /proc): then it is not searched. */
static const char *stdlib_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	if (POLC_STDLIB_DIR[0] == '/')
		return POLC_STDLIB_DIR;
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0 || (size_t)n >= sizeof(dir) - 1) {
		dir[0] = '\0';
		return NULL;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash ||
	    (size_t)(slash - dir) + 1 + sizeof(POLC_STDLIB_DIR) > sizeof(dir)) {
		dir[0] = '\0';
		return NULL;
	}
	memcpy(slash + 1, POLC_STDLIB_DIR, sizeof(POLC_STDLIB_DIR));
	return dir;
}

/* rel (a file relative to polc's folder) resolved into out, when it is
 * there and executable; 0 found, -1 not. */
static int beside_polc(const char *rel, char *out, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(out, len, "%s/%s", exe, rel) >= len)
		return -1;
	return access(out, X_OK);
}

/* Splits POLC_PATH and adds the standard library folder. */
static int add_search(const char **search, size_t *n, char **env_copy)
{
	const char *env = getenv("POLC_PATH");
	char *p, *save = NULL, *tok;

	if (env && *env) {
		*env_copy = strdup(env);
		if (!*env_copy)
			return -1;
		for (p = *env_copy; (tok = strtok_r(p, ":", &save)); p = NULL)
			if (*n < MAX_SEARCH - 1)
				search[(*n)++] = tok;
	}
	if (stdlib_dir())
		search[(*n)++] = stdlib_dir();
	return 0;
}

/*
 * What build and export share on their command lines: -I folders, -o,
 * --max-errors and one input; `own` takes a command's other options
 * (returns 1 when it took argv[*i], moving *i past what it used). 0, or 2
 * with the usage said.
 */
struct input_args {
	const char *search[MAX_SEARCH];
	size_t nsearch;
	const char *input, *output;
	int max_errors;
	char *env_copy;
};

static int input_args(const char *cmd, int argc, char **argv, int first,
		      struct input_args *a,
		      int (*own)(void *ctx, int argc, char **argv, int *i),
		      void *ctx)
{
	memset(a, 0, sizeof(*a));
	a->max_errors = -1;
	for (int i = first; i < argc; i++) {
		const char *dir = NULL;

		if (!strcmp(argv[i], "-I") && i + 1 < argc)
			dir = argv[++i];
		else if (!strncmp(argv[i], "-I", 2) && argv[i][2])
			dir = argv[i] + 2;
		if (dir) {
			if (a->nsearch >= MAX_SEARCH - 2) {
				fputs("polc: too many -I folders\n", stderr);
				return 2;
			}
			a->search[a->nsearch++] = dir;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			a->output = argv[++i];
		} else if (!strcmp(argv[i], "--max-errors") && i + 1 < argc) {
			if (parse_max_errors(argv[++i], &a->max_errors))
				return 2;
		} else if (own && own(ctx, argc, argv, &i)) {
			continue;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "polc: %s: unknown option '%s'\n%s",
				cmd, argv[i], usage);
			return 2;
		} else if (a->input) {
			fprintf(stderr, "polc: %s: one input at a time\n", cmd);
			return 2;
		} else {
			a->input = argv[i];
		}
	}
	if (!a->input) {
		fputs(usage, stderr);
		return 2;
	}
	if (add_search(a->search, &a->nsearch, &a->env_copy)) {
		fputs("polc: out of memory\n", stderr);
		return 2;
	}
	return 0;
}

static int build_own(void *ctx, int argc, char **argv, int *i)
{
	struct build_opts *o = ctx;

	if (strcmp(argv[*i], "--emit-bpf") || *i + 1 >= argc)
		return 0;
	o->emit_bpf = argv[++*i];
	return 1;
}

static int cmd_build(int argc, char **argv)
{
	struct input_args a;
	struct build_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	if ((rc = input_args("build", argc, argv, 1, &a, build_own, &o)))
		return rc;
	o.input = a.input;
	o.output = a.output;
	o.max_errors = a.max_errors;
	o.search = a.search;
	o.nsearch = a.nsearch;
	rc = build_policy(&o);
	free(a.env_copy);
	return rc;
}

/* Options shared by check and diff. */
struct prove_args {
	const char *search[MAX_SEARCH];
	size_t nsearch;
	const char *old, *nw;
	int json;
	int nested;	/* check --nested: NEW runs inside a box of OLD */
	int max_errors; /* -1: the default */
};

static int add_dir(struct prove_args *a, const char *dir)
{
	if (a->nsearch >= MAX_SEARCH - 2) {
		fputs("polc: too many -I folders\n", stderr);
		return -1;
	}
	a->search[a->nsearch++] = dir;
	return 0;
}

/* check: [--boundary] OLD given by --boundary, NEW positional; diff: two
 * positionals, OLD first. */
static int prove_parse(int argc, char **argv, int check, struct prove_args *a)
{
	const char *pos[2];
	int npos = 0, i;

	memset(a, 0, sizeof(*a));
	a->max_errors = -1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-I") && i + 1 < argc) {
			if (add_dir(a, argv[++i]))
				return -1;
		} else if (!strncmp(argv[i], "-I", 2) && argv[i][2]) {
			if (add_dir(a, argv[i] + 2))
				return -1;
		} else if (check && !strcmp(argv[i], "--boundary") &&
			   i + 1 < argc && !a->old) {
			a->old = argv[++i];
		} else if (check && !strcmp(argv[i], "--json")) {
			a->json = 1;
		} else if (check && !strcmp(argv[i], "--nested")) {
			a->nested = 1;
		} else if (!strcmp(argv[i], "--max-errors") && i + 1 < argc) {
			if (parse_max_errors(argv[++i], &a->max_errors))
				return -1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "polc: %s: unknown option '%s'\n%s",
				argv[0], argv[i], usage);
			return -1;
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			npos = 3;
		}
	}
	if (check && a->old && npos == 1) {
		a->nw = pos[0];
	} else if (!check && npos == 2) {
		a->old = pos[0];
		a->nw = pos[1];
	} else {
		fputs(usage, stderr);
		return -1;
	}
	return 0;
}

/*
 * Both sides, each a .pol or a re-validated .polbin. Returns 0 or 2. The
 * two sides share one diag, printed once: a warning about a file both
 * use (or a policy given as both) is shown once, not once per side.
 */
static int prove_inputs(struct prove_args *a, struct ir_policy **old,
			struct ir_policy **nw)
{
	struct sema_opts so;
	char *env_copy = NULL, err[640] = "";
	const char *paths[2] = {a->old, a->nw};
	struct ir_policy **outs[2] = {old, nw};
	struct diag d;
	int rc = 0;

	if (add_search(a->search, &a->nsearch, &env_copy)) {
		fputs("polc: out of memory\n", stderr);
		return 2;
	}
	so.search = a->search;
	so.nsearch = a->nsearch;
	diag_init(&d);
	if (a->max_errors >= 0)
		d.max_errors = a->max_errors;
	for (int i = 0; i < 2 && !rc; i++)
		if (prove_load(&d, paths[i], &so, outs[i], err, sizeof(err)))
			rc = 2;
	diag_print(&d, stderr); /* with warnings and notes */
	if (rc && !d.errors)
		fprintf(stderr, "polc: %s\n", err);
	diag_fini(&d);
	free(env_copy);
	if (rc) {
		ir_policy_destroy(old);
		ir_policy_destroy(nw);
	}
	return rc;
}

/* Undecided, out of memory or a witness that failed its re-check: no
 * verdict, so never exit 0. */
static int prove_status(const char *cmd, const char *err)
{
	fprintf(stderr, "polc: %s: %s\n", cmd,
		err[0] ? err : "the prover failed");
	return 2;
}

static int cmd_check(int argc, char **argv)
{
	struct ir_policy *old = NULL, *nw = NULL;
	struct prove_opts o = {0};
	struct prove_result res;
	struct prove_args a;
	char err[640];
	int rc;

	if (prove_parse(argc, argv, 1, &a) || prove_inputs(&a, &old, &nw))
		return 2;
	o.nested = a.nested;
	rc = prove_boundary(old, nw, &o, &res, err, sizeof(err));
	ir_policy_destroy(&old);
	ir_policy_destroy(&nw);
	if (rc)
		return prove_status("check", err);
	rc = a.json ? prove_print_json(&res, stdout)
		    : prove_print_text(&res, stdout);
	if (fflush(stdout))
		rc = -1;
	if (rc)
		fputs("polc: check: write error\n", stderr);
	rc = rc ? 2 : res.exceeds ? 1 : 0;
	prove_result_free(&res);
	return rc;
}

static int cmd_diff(int argc, char **argv)
{
	struct ir_policy *old = NULL, *nw = NULL;
	struct prove_result add = {0}, rem = {0};
	struct prove_args a;
	char err[640];
	int rc;

	if (prove_parse(argc, argv, 0, &a) || prove_inputs(&a, &old, &nw))
		return 2;
	rc = prove_boundary(old, nw, NULL, &add, err, sizeof(err));
	if (!rc)
		rc = prove_boundary(nw, old, NULL, &rem, err, sizeof(err));
	ir_policy_destroy(&old);
	ir_policy_destroy(&nw);
	if (rc) {
		prove_result_free(&add);
		return prove_status("diff", err);
	}
	rc = prove_print_diff(&add, &rem, stdout);
	if (fflush(stdout))
		rc = -1;
	if (rc)
		fputs("polc: diff: write error\n", stderr);
	prove_result_free(&add);
	prove_result_free(&rem);
	return rc ? 2 : 0;
}

/* polc suggest [-I DIR]... [-o OUT] --policy POLICY RECORD... */
static int cmd_suggest(int argc, char **argv)
{
	const char *search[MAX_SEARCH];
	const char **records = calloc((size_t)argc, sizeof(*records));
	struct suggest_opts o;
	char *env_copy = NULL;
	size_t n = 0;
	int rc = 2;

	memset(&o, 0, sizeof(o));
	if (!records) {
		fputs("polc: out of memory\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-I") && i + 1 < argc &&
		    n < MAX_SEARCH - 2) {
			search[n++] = argv[++i];
		} else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
			o.policy = argv[++i];
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			o.output = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr,
				"polc: suggest: unknown option '%s'\n%s",
				argv[i], usage);
			goto out;
		} else {
			records[o.nrecords++] = argv[i];
		}
	}
	o.records = records;
	if (!o.policy || !o.nrecords) {
		fputs(usage, stderr);
		goto out;
	}
	if (add_search(search, &n, &env_copy)) {
		fputs("polc: out of memory\n", stderr);
		goto out;
	}
	o.search = search;
	o.nsearch = n;
	rc = suggest_policy(&o);
out:
	free(env_copy);
	free(records);
	return rc;
}

/* name (no slash) as execvp finds it on PATH, into buf; NULL: not found */
static const char *on_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	const char *found = NULL;

	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found;
	     d = strtok_r(NULL, ":", &save))
		if ((size_t)snprintf(buf, len, "%s/%s", d, name) < len &&
		    !access(buf, X_OK))
			found = buf;
	free(copy);
	return found;
}

/* polexec: beside polc, else the first on PATH (execvp's rule); NULL
 * where neither has one. */
static const char *find_polexec(char *buf, size_t len)
{
	if (!beside_polc("polexec", buf, len))
		return buf;
	return on_path("polexec", buf, len);
}

/* polc selftest [--json] [--polexec PATH] [--probe PATH] ARTIFACT */
static int cmd_selftest(int argc, char **argv)
{
	static char polexec[PATH_MAX], probe[PATH_MAX], real[PATH_MAX],
	    artifact[PATH_MAX];
	struct selftest_opts o;

	memset(&o, 0, sizeof(o));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			o.json = 1;
		} else if (!strcmp(argv[i], "--polexec") && i + 1 < argc) {
			o.polexec = argv[++i];
		} else if (!strcmp(argv[i], "--probe") && i + 1 < argc) {
			o.probe = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr,
				"polc: selftest: unknown option '%s'\n%s",
				argv[i], usage);
			return 2;
		} else if (o.artifact) {
			fputs("polc: selftest: one artifact at a time\n",
			      stderr);
			return 2;
		} else {
			o.artifact = argv[i];
		}
	}
	if (!o.artifact) {
		fputs(usage, stderr);
		return 2;
	}
	if (!o.polexec)
		o.polexec = find_polexec(polexec, sizeof(polexec));
	else if (!strchr(o.polexec, '/'))
		o.polexec = on_path(o.polexec, polexec, sizeof(polexec));
	if (!o.polexec) {
		fputs("polc: selftest: polexec is neither beside polc nor on "
		      "PATH (--polexec PATH)\n",
		      stderr);
		return 2;
	}
	if (!o.probe && beside_polc("polc-probe", probe, sizeof(probe)) &&
	    beside_polc(POLC_PROBE_REL, probe, sizeof(probe))) {
		fputs("polc: selftest: polc-probe is not installed beside "
		      "polc (" POLC_PROBE_REL "; --probe PATH)\n",
		      stderr);
		return 2;
	}
	if (!realpath(o.probe ? o.probe : probe, real)) {
		fprintf(stderr, "polc: selftest: %s: %s\n",
			o.probe ? o.probe : probe, strerror(errno));
		return 2;
	}
	o.probe = real;
	/* polexec runs in a working folder of the selftest's own: a
	 * relative artifact would not be found there */
	if (!realpath(o.artifact, artifact)) {
		fprintf(stderr, "polc: selftest: %s: %s\n", o.artifact,
			strerror(errno));
		return 2;
	}
	o.artifact = artifact;
	return selftest_run(&o);
}

#define MAX_CAPS 64

static int cmd_import(int argc, char **argv)
{
	const char *caps[MAX_CAPS];
	struct oci_import_opts o;
	char kernel[16];
	unsigned maj = 0, min = 0;
	int i;

	memset(&o, 0, sizeof(o));
	o.max_errors = -1;
	o.caps = caps;
	if (argc < 2 || strcmp(argv[1], "oci")) {
		fprintf(stderr, "polc: import: the one format is 'oci'\n%s",
			usage);
		return 2;
	}
	sscanf(syscall_table_kernel(), "%u.%u", &maj, &min);
	snprintf(kernel, sizeof(kernel), "%u.%u", maj, min);
	o.kernel = kernel;
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			o.output = argv[++i];
		} else if (!strcmp(argv[i], "--cap") && i + 1 < argc) {
			if (o.ncaps == MAX_CAPS) {
				fputs("polc: import: too many --cap\n", stderr);
				return 2;
			}
			caps[o.ncaps++] = argv[++i];
		} else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
			o.kernel = argv[++i];
		} else if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
			o.arch = argv[++i];
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			o.name = argv[++i];
		} else if (!strcmp(argv[i], "--int-args") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "kernel"))
				o.kernel_view = 1;
			else if (strcmp(argv[i], "exact")) {
				fprintf(stderr,
					"polc: import: --int-args exact or "
					"kernel, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--max-errors") && i + 1 < argc) {
			if (parse_max_errors(argv[++i], &o.max_errors))
				return 2;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "polc: import: unknown option '%s'\n%s",
				argv[i], usage);
			return 2;
		} else if (o.input) {
			fputs("polc: import: one profile at a time\n", stderr);
			return 2;
		} else {
			o.input = argv[i];
		}
	}
	if (!o.input) {
		fputs(usage, stderr);
		return 2;
	}
	return import_oci(&o);
}

static int cmd_export(int argc, char **argv)
{
	struct oci_export_opts o;
	struct input_args a;
	int rc;

	if (argc < 2 || strcmp(argv[1], "oci")) {
		fprintf(stderr, "polc: export: the one format is 'oci'\n%s",
			usage);
		return 2;
	}
	if ((rc = input_args("export", argc, argv, 2, &a, NULL, NULL)))
		return rc;
	o = (struct oci_export_opts){.input = a.input,
				     .output = a.output,
				     .search = a.search,
				     .nsearch = a.nsearch,
				     .max_errors = a.max_errors};
	rc = export_oci(&o);
	free(a.env_copy);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		const char *std = stdlib_dir();

		printf("polc %s\nstandard library: %s\n", POLC_VERSION,
		       std ? std : "not found (/proc/self/exe is unreadable)");
		return fflush(stdout) ? 2 : 0;
	}
	if (!strcmp(argv[1], "build"))
		return cmd_build(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fmt"))
		return cmd_fmt(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "doctor")) {
		if (argc != 2) {
			fputs(usage, stderr);
			return 2;
		}
		char polexec[PATH_MAX];

		if (doctor_report(stdout) < 0)
			return 2;
		doctor_box(stdout, find_polexec(polexec, sizeof(polexec)));
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
	}
	if (!strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return cmd_export(argc - 1, argv + 1);
	if (!strcmp(argv[1], "suggest"))
		return cmd_suggest(argc - 1, argv + 1);
	if (!strcmp(argv[1], "selftest"))
		return cmd_selftest(argc - 1, argv + 1);
	fprintf(stderr, "polc: unknown command '%s'\n%s", argv[1], usage);
	return 2;
}
