/* SPDX-License-Identifier: MIT */
/*
 * The commands of polc that are not a stage of their own: `polc build`
 * (build.c: policy source to a verified .polbin, through the semantic
 * pass, the backends and the artifact writer), `polc dump` (dump.c: an
 * artifact's sections in human form), `polc doctor` (doctor.c: the
 * kernel features this machine offers polexec), and `polc import oci` /
 * `polc export oci` (oci_cmd.c: the files around compiler/oci/, which
 * reads and writes OCI seccomp profiles as runc reads them; docs/OCI.md).
 * polc.c parses the command line and runs them, the prover for `check`
 * and `diff`, lang/ for `fmt`. Every file any of them writes goes through
 * output.c.
 */
#ifndef POLC_CLI_H
#define POLC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oci/oci.h" /* struct oci_import_opts */

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

/*
 * What a box gets here, tried rather than read (doctor_box.c): polc builds
 * a policy of its own (fs best_effort, net none, memory and pids caps) and
 * prints what `POLEXEC --doctor` says of it, each step taken in a
 * throwaway child as a run takes it. polexec NULL: not found, said so.
 * 0, or 1 when the box's steps could not be tried.
 */
int doctor_box(FILE *out, const char *polexec);

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

/* ---- polc import oci, polc export oci (oci_cmd.c) --------------------- */

/*
 * The profile o->input imported by import_oci_text() (oci/oci.h), its
 * policy written to o->output; every problem on stderr. Returns the
 * process exit code: 0, 2 (bad input) or 3 (polc bug).
 */
int import_oci(const struct oci_import_opts *o);

struct oci_export_opts {
	const char *input;  /* a .pol, or a .polbin (re-validated) */
	const char *output; /* NULL: stdout */
	const char *const *search;
	size_t nsearch;
	int max_errors; /* -1: the default */
};

/*
 * The policy o->input (a .polbin re-validated) exported by
 * export_oci_text() (oci/oci.h), the profile written to o->output; every
 * problem on stderr. Returns the process exit code: 0 or 2.
 */
int export_oci(const struct oci_export_opts *o);

/* ---- polc selftest (selftest.c; docs/SELFTEST.md) --------------------- */

struct selftest_opts {
	const char *artifact; /* the user's .polbin */
	const char *polexec;  /* the polexec to run it with */
	const char *probe;    /* polc-probe, a real path */
	int json;
};

/*
 * Runs polc-probe in boxes of the artifact, one per property, and prints
 * the table (or JSON). Returns the exit code: 0 every property the policy
 * claims held; 1 one did not (open, or its twin failed); 2 an error.
 */
int selftest_run(const struct selftest_opts *o);

#endif
