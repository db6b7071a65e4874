// SPDX-License-Identifier: MIT
/*
 * polc import oci and polc export oci, the command's part: read the input,
 * run compiler/oci/ on it in memory, write what it made by output.c's
 * rule (docs/OCI.md, docs/OUTPUT.md).
 */
#include "cli.h"
#include "diag.h"
#include "ir/ir.h"
#include "oci/oci.h"
#include "prove/prove.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* text to -o FILE by output.c's rule, or to stdout (none, or -); err is
 * the caller's, for the reason. */
static int _output(const char *cmd, const char *path, const char *text,
		   size_t len, char *err, size_t errlen, struct diag *d)
{
	struct loc none = {0};
	int rc = !path || !strcmp(path, "-")
		     ? output_write_fd(STDOUT_FILENO, text, len, err, errlen)
		     : output_write(path, text, len, err, errlen);

	if (rc)
		diag_error(d, none, "%s: %s: %s", cmd, path ? path : "stdout",
			   err);
	return rc;
}

int import_oci(const struct oci_import_opts *o)
{
	const struct src_file *src;
	struct loc none = {0};
	struct diag d;
	char err[256], *text = NULL;
	size_t len = 0;
	int rc = 2;

	diag_init(&d);
	if (o->max_errors >= 0)
		d.max_errors = o->max_errors;
	src = diag_load_file(&d, o->input, none);
	if (src)
		rc = import_oci_text(o, src, &d, &text, &len, stderr);
	if (!rc &&
	    _output("import", o->output, text, len, err, sizeof(err), &d))
		rc = 2;
	diag_print(&d, stderr);
	diag_fini(&d);
	free(text);
	return rc;
}

int export_oci(const struct oci_export_opts *o)
{
	struct sema_opts so = {o->search, o->nsearch};
	struct ir_policy *p = NULL;
	struct loc none = {0};
	struct diag d;
	char err[640], *text = NULL;
	size_t len = 0;
	int rc = 2;

	diag_init(&d);
	if (o->max_errors >= 0)
		d.max_errors = o->max_errors;
	if (prove_load(&d, o->input, &so, &p, err, sizeof(err))) {
		if (!d.errors)
			diag_error(&d, none, "%s: %s", o->input, err);
		goto out;
	}
	if (export_oci_text(p, &d, &text, &len) ||
	    _output("export", o->output, text, len, err, sizeof(err), &d))
		goto out;
	rc = 0;
out:
	diag_print(&d, stderr);
	diag_fini(&d);
	free(text);
	ir_policy_destroy(&p);
	return rc;
}
