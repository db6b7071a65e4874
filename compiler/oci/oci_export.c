// SPDX-License-Identifier: MIT
/*
 * polc export oci: a policy's syscalls layer (the egress companions
 * included) as an OCI seccomp profile that runc, with its libseccomp,
 * decides as polc's own program does (docs/OCI.md). The rules come from
 * seccomp_oci_rules() (backend/seccomp_oci.c): disjoint regions, int
 * arguments masked to the 32 bits the kernel reads. What a profile cannot
 * carry is refused (a syscall known by number only, a name the runtime's
 * libseccomp would drop where that widens the profile) or is a warning
 * (the bad-arch action, names only a newer libseccomp knows).
 *
 * The JSON is written here, not with jansson: its integers stop at 2^63,
 * and argument values and masks are unsigned 64-bit numbers.
 */
#include "backend/backend.h"
#include "diag.h"
#include "ir/ir.h"
#include "oci_int.h"
#include "tables/tables.h"

#include <inttypes.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_PER_LINE 6

struct exp {
	const struct ir_policy *p;
	const struct seccomp_oci_rules *r;
	struct diag *d;
	struct loc at;
	FILE *out;
	int first; /* no entry written yet */
};

/* A JSON string of text we made: names and our own comments. */
static void _str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void _action(FILE *out, const struct ir_action *a, const char *key,
		    const char *errkey, int indent)
{
	unsigned e;
	const char *name = oci_act_of(a, &e);

	fprintf(out, "\"%s\": \"%s\"", key, name);
	if (a->kind == IR_ACT_ERRNO)
		fprintf(out, ",\n%*s\"%s\": %u", indent, "", errkey, e);
}

static void _begin(struct exp *x)
{
	fputs(x->first ? "\n" : ",\n", x->out);
	x->first = 0;
	fputs("    {\n", x->out);
}

/* One entry: the names, the action, the args, a comment. */
static void _entry(struct exp *x, const char *const *names, size_t n,
		   const struct ir_action *a, const struct seccomp_oci_rule *r,
		   const char *comment)
{
	FILE *out = x->out;

	_begin(x);
	fputs("      \"names\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		if (n > NAMES_PER_LINE && i % NAMES_PER_LINE == 0)
			fputs("\n        ", out);
		else if (i)
			fputc(' ', out);
		_str(out, names[i]);
	}
	fputs(n > NAMES_PER_LINE ? "\n      ],\n      " : "],\n      ", out);
	_action(out, a, "action", "errnoRet", 6);
	if (r) {
		int first = 1;

		fputs(",\n      \"args\": [", out);
		for (unsigned k = 0; k < 6; k++) {
			if (!r->mask[k])
				continue;
			fputs(first ? "\n" : ",\n", out);
			first = 0;
			if (r->mask[k] == UINT64_MAX)
				fprintf(out,
					"        {\"index\": %u, \"value\": "
					"%" PRIu64 ", \"op\": \"SCMP_CMP_EQ\"}",
					k, r->value[k]);
			else
				fprintf(out,
					"        {\"index\": %u, \"value\": "
					"%" PRIu64 ", \"valueTwo\": %" PRIu64
					", \"op\": \"SCMP_CMP_MASKED_EQ\"}",
					k, r->mask[k], r->value[k]);
		}
		fputs("\n      ]", out);
	}
	if (comment) {
		fputs(",\n      \"comment\": ", out);
		_str(out, comment);
	}
	fputs("\n    }", out);
}

/* What a region says, in the kernel's argument names, for the comment. */
static void _region_text(char *buf, size_t len,
			 const struct seccomp_oci_rule *r)
{
	const struct syscall_args *sa = syscall_args_find(r->syscall);
	size_t n = (size_t)snprintf(buf, len, "polc: %s if", r->syscall);
	const char *sep = " ";
	int ints = 0;

	for (unsigned k = 0; k < 6 && n < len; k++) {
		char name[48];
		int i32 = sa && k < sa->nargs && sa->args[k].width == 32;
		uint64_t full = i32 ? 0xffffffffull : UINT64_MAX;

		if (!r->mask[k])
			continue;
		if (sa && k < sa->nargs)
			snprintf(name, sizeof(name), "%s", sa->args[k].name);
		else
			snprintf(name, sizeof(name), "arg%u", k);
		if (r->mask[k] == full)
			n += (size_t)snprintf(buf + n, len - n,
					      "%s%s == 0x%" PRIx64, sep, name,
					      r->value[k]);
		else
			n += (size_t)snprintf(
			    buf + n, len - n,
			    "%s%s & 0x%" PRIx64 " == 0x%" PRIx64, sep, name,
			    r->mask[k], r->value[k]);
		sep = " && ";
		ints |= i32 && !(r->mask[k] >> 32);
	}
	if (ints && n < len)
		snprintf(buf + n, len - n,
			 "; an int is compared on the low 32 bits the kernel "
			 "reads");
}

static int _unconditional(const struct seccomp_oci_rule *r)
{
	for (unsigned k = 0; k < 6; k++)
		if (r->mask[k])
			return 0;
	return 1;
}

static int _name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * What the runtime can say: every syscall a name (runc's libseccomp drops
 * names it does not know, so where that widens the profile it is an
 * error, where it narrows a warning).
 */
static int _check(struct exp *x)
{
	const struct scmp_version *ver = seccomp_version();
	char a1[32], a2[32];
	int bad = 0;

	for (size_t i = 0; i < x->r->n; i++) {
		const struct seccomp_oci_rule *r = &x->r->v[i];
		int stricter = ir_action_cmp(&r->action, &x->p->sys.def) < 0;

		if (i && !strcmp(r->syscall, x->r->v[i - 1].syscall))
			continue;
		if (syscall_is_number(r->syscall)) {
			diag_error(x->d, x->at,
				   "syscall %s: a profile names syscalls, and "
				   "no table names this number",
				   r->syscall);
			bad = 1;
			continue;
		}
		if (seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64,
						      r->syscall) >= 0)
			continue;
		/* Where the runtime's answer is weaker, an error. */
		diag_report(x->d, stricter ? DIAG_ERROR : DIAG_WARNING, x->at,
			    "%s: libseccomp %u.%u.%u does not know it, and "
			    "runc drops such a name: the runtime would give "
			    "%s (or ENOSYS), not %s",
			    r->syscall, ver->major, ver->minor, ver->micro,
			    ir_action_str(&x->p->sys.def, a1, sizeof(a1)),
			    ir_action_str(&r->action, a2, sizeof(a2)));
		bad |= stricter;
	}
	return bad ? -1 : 0;
}

static int _write(struct exp *x)
{
	const struct seccomp_oci_rules *r = x->r;
	const char **names = calloc(r->n + 1, sizeof(*names));
	char text[512];
	int kind;

	if (!names)
		return -1;
	fputs("{\n  ", x->out);
	_action(x->out, &x->p->sys.def, "defaultAction", "defaultErrnoRet", 2);
	fputs(",\n  \"architectures\": [\"" OCI_ARCH_X86_64 "\"],\n"
	      "  \"syscalls\": [",
	      x->out);
	x->first = 1;
	/* Unconditional rules, one entry per action, least strict first. */
	for (kind = IR_ACT_ALLOW; kind >= IR_ACT_KILL_PROCESS; kind--) {
		for (unsigned e = 0; e < 4096; e++) {
			struct ir_action a = {(uint8_t)kind, (uint16_t)e};
			size_t n = 0;

			if (kind != IR_ACT_ERRNO && e)
				break;
			for (size_t i = 0; i < r->n; i++)
				if (_unconditional(&r->v[i]) &&
				    !ir_action_cmp(&r->v[i].action, &a))
					names[n++] = r->v[i].syscall;
			if (!n)
				continue;
			qsort(names, n, sizeof(*names), _name_cmp);
			_entry(x, names, n, &a, NULL, NULL);
		}
	}
	for (size_t i = 0; i < r->n; i++) {
		if (_unconditional(&r->v[i]))
			continue;
		names[0] = r->v[i].syscall;
		_region_text(text, sizeof(text), &r->v[i]);
		_entry(x, names, 1, &r->v[i].action, &r->v[i], text);
	}
	fputs(x->first ? "]\n}\n" : "\n  ]\n}\n", x->out);
	free(names);
	return ferror(x->out) ? -1 : 0;
}

int export_oci_text(const struct ir_policy *p, struct diag *d, char **out,
		    size_t *outlen)
{
	struct seccomp_oci_rules rules = {0};
	struct loc none = {0};
	struct exp x = {0};
	char err[640], *text = NULL, a[32];
	size_t len = 0;
	FILE *mem = NULL;
	int rc = 2;

	*out = NULL;
	*outlen = 0;
	if (seccomp_oci_rules(&p->sys, &rules, err, sizeof(err))) {
		diag_error(d, none, "export: %s", err);
		goto out;
	}
	x = (struct exp){.p = p, .r = &rules, .d = d, .at = none};
	if (_check(&x))
		goto out;
	if (p->sys.badarch.kind != IR_ACT_KILL_THREAD)
		diag_warning(d, none,
			     "the policy's badarch action is %s; a profile "
			     "cannot say one, and the runtime's libseccomp "
			     "kills the thread of an i386 or x32 call",
			     ir_action_str(&p->sys.badarch, a, sizeof(a)));
	mem = open_memstream(&text, &len);
	if (!mem) {
		diag_error(d, none, "out of memory");
		goto out;
	}
	x.out = mem;
	if (_write(&x) || fclose(mem)) {
		mem = NULL;
		diag_error(d, none, "out of memory");
		goto out;
	}
	mem = NULL;
	*out = text;
	*outlen = len;
	text = NULL;
	rc = 0;
out:
	if (mem)
		fclose(mem);
	free(text);
	seccomp_oci_rules_free(&rules);
	return rc;
}
