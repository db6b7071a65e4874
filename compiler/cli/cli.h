/* SPDX-License-Identifier: MIT */
/*
 * The commands of polc that are not a stage of their own: `polc build`
 * (build.c: policy source to a verified .polbin, through the semantic
 * pass, the backends and the artifact writer), `polc dump` (dump.c: an
 * artifact's sections in human form), `polc doctor` (doctor.c: the
 * kernel features this machine offers polexec), and `polc import oci` /
 * `polc export oci` (oci_import.c, oci_export.c: OCI seccomp profiles,
 * read and written as runc reads them; docs/OCI.md). polc.c parses the
 * command line and runs them, the prover for `check` and `diff`, lang/ for
 * `fmt`. Every file any of them writes goes through output.c.
 */
#ifndef POLC_CLI_H
#define POLC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- polc build (build.c) ------------------------------------------- */

struct build_opts {
	const char *input;
	const char *output;   /* NULL: the input's name with .polbin */
	const char *emit_bpf; /* NULL: no raw seccomp program */
	const char *const *search;
	size_t nsearch;
	int max_errors; /* errors shown: 0 all, -1 the default */
};

/* Returns the process exit code: 0, 2 (bad input) or 3 (compiler bug). */
int build_policy(const struct build_opts *o);

/* ---- polc dump (dump.c) --------------------------------------------- */

/* 0, or -1 with the reason in err (the artifact is refused). */
int dump_artifact(const uint8_t *buf, size_t len, FILE *out, char *err,
		  size_t errlen);

/* ---- polc doctor (doctor.c) ----------------------------------------- */

/*
 * The kernel features polexec can use here, one probe per line; it needs
 * no artifact, no privilege and no box. What one artifact needs is
 * `polexec --doctor ARTIFACT`. 0, or -1 when writing failed.
 */
int doctor_report(FILE *out);

/* ---- Output files (output.c; the rule: docs/OUTPUT.md) ---------------- */

/*
 * Write data to path: a regular file (or none) is replaced atomically by
 * a temporary file in the same folder (fsync, rename); a character device
 * or FIFO is written in place; a symbolic link, a folder, a block device
 * or a socket is refused. Returns 0, or -1 with the reason (without the
 * path) in err; a failure leaves what was there.
 */
int output_write(const char *path, const void *data, size_t len, char *err,
		 size_t errlen);

/* Write all of data to an open fd (standard output for `-o -`). */
int output_write_fd(int fd, const void *data, size_t len, char *err,
		    size_t errlen);

/* ---- polc suggest (suggest.c, record_read.c) ------------------------- */

struct suggest_opts {
	const char *policy;	    /* POLICY.pol, a source */
	const char *const *records; /* run records, merged */
	size_t nrecords;
	const char *const *search; /* fragment folders */
	size_t nsearch;
	const char *output; /* NULL: stdout */
};

/*
 * Prints the policy with the narrowest rule for each denial the records
 * name (docs/OBSERVE.md); applies nothing. Returns the exit code: 0; 2
 * for a bad policy or record; 3 when the suggestion would not compile (a
 * polc bug: nothing is printed).
 */
int suggest_policy(const struct suggest_opts *o);

/* ---- polc import oci (oci_import.c) -------------------------------- */

struct oci_import_opts {
	const char *input;	 /* the profile, JSON */
	const char *output;	 /* NULL: stdout */
	const char *arch;	 /* NULL or "x86_64" */
	const char *const *caps; /* added to Docker's default capabilities */
	size_t ncaps;
	const char *kernel; /* "MAJOR.MINOR" that minKernel is decided on */
	int kernel_view;    /* --int-args kernel: ints as the kernel reads */
	const char *name;   /* the policy's name; NULL: the file's */
	int max_errors;	    /* -1: the default */
};

/* Returns the process exit code: 0, 2 (bad input) or 3 (polc bug). */
int import_oci(const struct oci_import_opts *o);

/* Docker's capabilities for a container that adds none: what includes
 * and excludes are decided against, with --cap. */
extern const char *const oci_docker_caps[];
extern const size_t oci_ndocker_caps;

/*
 * The import of one profile already in memory (src, of d): the policy
 * text into *out (malloc'd) and 0, or 2 (problems in d) or 3 (a polc bug:
 * the policy does not compile; its diagnostics to report, NULL: none).
 * o->input, o->output and o->max_errors are not read. For polc import
 * and the fuzzer.
 */
struct diag;
struct src_file;
int import_oci_text(const struct oci_import_opts *o, const struct src_file *src,
		    struct diag *d, char **out, size_t *outlen, FILE *report);

/*
 * A profile's numbers are unsigned 64-bit (Go's uint64), jansson's
 * integers signed. oci_json_loadb() parses like json_loadb() with
 * duplicate keys refused, but first rewrites each integer above INT64_MAX
 * in place (same length, so error positions hold) as the negative number
 * INT64_MAX - value; a profile has no negative numbers of its own, so one
 * is an error at its place. oci_json_u64() reads an integer back: 0 and
 * *out, or -1 for anything but an integer. (oci.c; for the importer and
 * the tests' runtime model, which read profiles alike.)
 */
struct json_t;
struct json_error_t;
struct json_t *oci_json_loadb(const char *text, size_t len,
			      struct json_error_t *e);
int oci_json_u64(const struct json_t *v, uint64_t *out);

/* ---- polc export oci (oci_export.c) -------------------------------- */

struct oci_export_opts {
	const char *input;  /* a .pol, or a .polbin (re-validated) */
	const char *output; /* NULL: stdout */
	const char *const *search;
	size_t nsearch;
	int max_errors; /* -1: the default */
};

/* Returns the process exit code: 0 or 2. */
int export_oci(const struct oci_export_opts *o);

#endif
