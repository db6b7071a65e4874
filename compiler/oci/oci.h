/* SPDX-License-Identifier: MIT */
/*
 * OCI / Docker seccomp profiles, read and written as runc reads them
 * (docs/OCI.md), for x86_64: a front end that makes a profile a policy in
 * our language (import_oci_text(), oci_import.c and the stages it runs),
 * and a backend that makes a policy's syscalls layer a profile
 * (export_oci_text(), oci_export.c). Both work in memory; polc's import
 * and export commands (cli/oci_cmd.c) read the files and write the text.
 */
#ifndef POLC_OCI_H
#define POLC_OCI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Import: a profile to policy text --------------------------------- */

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
 * *out, or -1 for anything but an integer. (For the importer and the
 * tests' runtime model, which read profiles alike.)
 */
struct json_t;
struct json_error_t;
struct json_t *oci_json_loadb(const char *text, size_t len,
			      struct json_error_t *e);
int oci_json_u64(const struct json_t *v, uint64_t *out);

/* ---- Export: a policy's syscalls layer to a profile ------------------- */

/*
 * The profile of p's syscalls layer, egress companions included, into
 * *out (malloc'd) and 0; or 2, with the reasons in d (what a profile
 * cannot carry). What the runtime decides otherwise but no worse is a
 * warning in d.
 */
struct ir_policy;
int export_oci_text(const struct ir_policy *p, struct diag *d, char **out,
		    size_t *outlen);

#endif
