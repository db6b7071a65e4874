// SPDX-License-Identifier: MIT
/*
 * polc import oci: an OCI / Docker seccomp profile (JSON) to a policy in
 * our language, for x86_64, meaning exactly what runc makes of the profile
 * (docs/OCI.md). The profile is hostile input: it is read with jansson
 * (duplicate keys refused), every key and type is checked, and every
 * problem is reported at once; no policy comes out unless there is none.
 *
 * What runc and libseccomp do, and so what the translation keeps:
 *   - entries are resolved as moby does for the container: includes
 *     (every cap, an arch, minKernel) and excludes (any cap, an arch,
 *     minKernel) against Docker's default capabilities plus --cap, the
 *     arch "amd64" and --kernel;
 *   - SCMP_ACT_KILL is kill_thread, SCMP_ACT_ERRNO without errnoRet is
 *     EPERM, an entry whose action is the default is skipped;
 *   - the conditions of one entry are ANDed, unless two test the same
 *     argument: then each is a rule of its own (ORed);
 *   - every argument is compared on 64 bits. An int argument (the kernel
 *     reads 32) is translated with ARG.hi for its upper half, exactly, or
 *     with --int-args kernel as the kernel reads it (upper half zero);
 *   - an unconditional rule replaces a syscall's conditional ones, the
 *     first of two unconditional ones wins, and overlapping conditional
 *     rules with different actions have no defined outcome: where our
 *     rule resolution (the strictest wins) would decide otherwise, the
 *     import is refused, naming both entries.
 *
 * The stages, in the order import_oci_text() runs them: the JSON
 * (oci_json.c, hostile input), the profile's top level (oci_profile.c),
 * each entry (oci_entry.c): whether it applies to the container
 * (oci_filter.c) and its action and conditions as our rules
 * (oci_translate.c); then, per syscall, where its rules meet
 * (oci_meet.c); last the policy text (oci_emit.c), compiled once here as
 * a check of the import itself. What they share is struct imp
 * (oci_int.h); this file holds its diagnostics and its memory.
 */
#include "diag.h"
#include "ir/ir.h"
#include "oci_int.h"
#include "sema/sema.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void _report(struct imp *m, enum diag_level lv, const char *fmt,
		    va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0) {
		m->oom = 1;
		return;
	}
	diag_report(m->d, lv, m->at, "%s", msg);
	free(msg);
}

void imp_err(struct imp *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_report(m, DIAG_ERROR, fmt, ap);
	va_end(ap);
}

void imp_warn(struct imp *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_report(m, DIAG_WARNING, fmt, ap);
	va_end(ap);
}

void *imp_grow(struct imp *m, void *v, size_t *cap, size_t n, size_t sz)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return v;
	nc = *cap ? 2 * *cap : 16;
	nv = realloc(v, nc * sz);
	if (!nv) {
		m->oom = 1;
		return NULL;
	}
	*cap = nc;
	return nv;
}

/* s appended to *out with a separator; out of memory leaves *out. */
void imp_append(struct imp *m, char **out, const char *sep, const char *s)
{
	char *n;

	if (asprintf(&n, "%s%s%s", *out ? *out : "", *out ? sep : "", s) < 0) {
		m->oom = 1;
		return;
	}
	free(*out);
	*out = n;
}

/* Profile text made safe for a comment line: printable ASCII only. */
char *imp_printable(struct imp *m, const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *out = malloc(n + 1);

	if (!out) {
		m->oom = 1;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n' || ch == '\t' || ch == '\r')
			ch = ' ';
		out[k++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	return out;
}

static void _free(struct imp *m)
{
	for (size_t i = 0; i < m->ne; i++) {
		free(m->e[i].why);
		free(m->e[i].cond);
		free(m->e[i].comment);
		free(m->e[i].names);
		free(m->e[i].elsewhere);
	}
	free(m->e);
	for (size_t i = 0; i < m->nc; i++)
		free(m->c[i].r);
	free(m->c);
	for (size_t i = 0; i < m->nl; i++)
		free(m->l[i].text);
	free(m->l);
	free(m->arches);
}

/* The policy text, then compiled once, as a check of the import itself:
 * its diagnostics to report (NULL: none). */
static int _self_check(const char *text, size_t len, FILE *report)
{
	struct ir_policy *p = NULL;
	struct diag d;
	int rc;

	diag_init(&d);
	rc = sema_compile_text(&d, "imported.pol", text, len, NULL, &p);
	if ((rc || d.errors) && report) {
		fputs("polc: internal error: the imported policy does not "
		      "compile:\n",
		      report);
		diag_print(&d, report);
	}
	rc = rc || d.errors;
	ir_policy_destroy(&p);
	diag_fini(&d);
	return rc ? -1 : 0;
}

int import_oci_text(const struct oci_import_opts *o, const struct src_file *src,
		    struct diag *d, char **out, size_t *outlen, FILE *report)
{
	struct imp m = {.o = o, .d = d};
	struct loc none = {0};
	json_error_t je;
	json_t *root = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = 2;

	*out = NULL;
	*outlen = 0;
	if (o->arch && strcmp(o->arch, "x86_64")) {
		diag_error(d, none,
			   "--arch %s: polc compiles for x86_64 only for now "
			   "(aarch64 is named in its tables, not yet built)",
			   o->arch);
		goto out;
	}
	if (!o->kernel || oci_parse_kernel(o->kernel, &m.kmaj, &m.kmin)) {
		diag_error(d, none, "--kernel %s: not MAJOR.MINOR",
			   o->kernel ? o->kernel : "");
		goto out;
	}
	m.at = (struct loc){src, 0, 0};
	if (imp_caps(&m))
		goto out;
	root = oci_json_loadb(src->text, src->len, &je);
	if (!root) {
		imp_json_error(&m, src, &je);
		goto out;
	}
	imp_profile(&m, root);
	if (m.oom || d->oom) {
		diag_error(d, none, "out of memory");
		goto out;
	}
	if (d->errors)
		goto out;
	imp_emit_policy(&m);
	mem = open_memstream(&text, &len);
	if (!mem || m.oom || imp_write_lines(&m, mem) || fclose(mem)) {
		diag_error(d, none, "out of memory");
		goto out;
	}
	if (_self_check(text, len, report)) {
		rc = 3;
		goto out;
	}
	for (size_t i = 0; i < m.ne; i++)
		if (m.e[i].hole)
			imp_warn(
			    &m,
			    "syscalls[%zu]%s: its 64-bit comparison on an int "
			    "argument also holds whenever the upper half is "
			    "not zero, which the kernel ignores: translated "
			    "exactly (ARG.hi), it lets such a call through "
			    "whatever the lower half says. --int-args kernel "
			    "compares as the kernel reads",
			    i, m.e[i].who);
	*out = text;
	*outlen = len;
	text = NULL;
	rc = 0;
out:
	json_decref(root);
	free(text);
	_free(&m);
	return rc;
}
