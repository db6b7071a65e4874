// SPDX-License-Identifier: MIT
/*
 * One entry of the profile's syscalls: its keys, its names (x86_64's,
 * other arches', unknown ones an error), its conditions, its filters and
 * its action. An entry that applies becomes rules of its syscalls
 * (oci_translate.c): one libseccomp rule of all its conditions, ANDed, or,
 * where two test the same argument, one rule per condition, as runc adds
 * them (ORed).
 */
#include "diag.h"
#include "oci_int.h"
#include "tables/tables.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int _parse_args(struct imp *m, int ei, json_t *args, struct cond *cv,
		       size_t *n)
{
	static const char *const keys[] = {"index", "value", "valueTwo", "op"};
	char where[160];
	json_t *a;
	size_t i;
	int bad = 0;

	*n = 0;
	if (!args)
		return 0;
	if (!json_is_array(args)) {
		imp_err(m, "syscalls[%d].args: %s, not an array", ei,
			oci_json_kind(args));
		return -1;
	}
	if (json_array_size(args) > ARGS_MAX) {
		imp_err(m, "syscalls[%d].args: more than %d conditions", ei,
			ARGS_MAX);
		return -1;
	}
	json_array_foreach(args, i, a)
	{
		struct cond c = {0};
		const char *op;
		uint64_t idx = 0;

		snprintf(where, sizeof(where), "syscalls[%d].args[%zu]%s", ei,
			 i, m->e[ei].who);
		if (!json_is_object(a)) {
			imp_err(m, "%s: %s, not an object", where,
				oci_json_kind(a));
			bad = 1;
			continue;
		}
		imp_check_keys(m, a, where, keys, 4);
		if (imp_get_uint(m, a, "index", where, 5, &idx)) {
			if (!oci_json_get(a, "index"))
				imp_err(m, "%s: no index", where);
			bad = 1;
		}
		if (oci_json_get(a, "value") &&
		    imp_get_uint(m, a, "value", where, UINT64_MAX, &c.v))
			bad = 1;
		if (oci_json_get(a, "valueTwo") &&
		    imp_get_uint(m, a, "valueTwo", where, UINT64_MAX, &c.v2))
			bad = 1;
		op = imp_get_string(m, a, "op", where);
		if (!op) {
			if (!oci_json_get(a, "op"))
				imp_err(m, "%s: no op", where);
			bad = 1;
		} else if ((c.op = oci_op_find(op)) < 0) {
			const char *close =
			    diag_closest(op, oci_op_names, OCI_OP_COUNT);

			if (close)
				imp_err(m,
					"%s: unknown op '%s'; did you mean "
					"'%s'?",
					where, op, close);
			else
				imp_err(m, "%s: unknown op '%s'", where, op);
			bad = 1;
		}
		c.index = (unsigned)idx;
		cv[(*n)++] = c;
	}
	return bad ? -1 : 0;
}

/* The names of one entry, sorted into x86_64's, other arches' and
 * unknown (errors). x86 gets the x86_64 ones. */
static int _names(struct imp *m, int ei, json_t *s, const char **x86,
		  size_t *nx86)
{
	json_t *names = oci_json_get(s, "names"), *v;
	const char *one = imp_get_string(m, s, "name", "syscalls[]");
	struct entry *e = &m->e[ei];
	size_t i;
	int bad = 0;

	*nx86 = 0;
	if (names && oci_json_get(s, "name")) {
		imp_err(m, "syscalls[%d]%s: both 'name' and 'names'", ei,
			e->who);
		return -1;
	}
	if (!names && !one) {
		imp_err(m, "syscalls[%d]: no names", ei);
		return -1;
	}
	if (names && !json_is_array(names)) {
		imp_err(m, "syscalls[%d].names: %s, not an array", ei,
			oci_json_kind(names));
		return -1;
	}
	for (i = 0; names ? i < json_array_size(names) : i < 1; i++) {
		const char *n = one;

		if (names) {
			v = json_array_get(names, i);
			if (!json_is_string(v)) {
				imp_err(m,
					"syscalls[%d].names[%zu]: %s, not a "
					"string",
					ei, i, oci_json_kind(v));
				bad = 1;
				continue;
			}
			n = json_string_value(v);
		}
		if (syscall_nr(SYSCALL_ARCH_X86_64, n) >= 0) {
			int dup = 0;

			for (size_t k = 0; k < *nx86; k++)
				dup |= !strcmp(x86[k], n);
			if (!dup && *nx86 < SYSCALL_NR_LIMIT) {
				x86[(*nx86)++] = n;
				imp_append(m, &e->names, " ", n);
			}
		} else if (syscall_elsewhere(n)) {
			imp_append(m, &e->elsewhere, " ", n);
		} else {
			static const char *all[SYSCALL_NR_LIMIT];
			unsigned na = syscall_count(SYSCALL_ARCH_X86_64);
			char *safe = imp_printable(m, n);
			const char *close;

			for (unsigned k = 0; k < na; k++)
				all[k] =
				    syscall_at(SYSCALL_ARCH_X86_64, k)->name;
			close = diag_closest(n, all, na);
			if (close)
				imp_err(
				    m,
				    "syscalls[%d]%s: unknown syscall \'%s\'; "
				    "did you mean \'%s\'?",
				    ei, e->who, safe ? safe : "?", close);
			else
				imp_err(
				    m,
				    "syscalls[%d]%s: unknown syscall \'%s\' "
				    "(no table of Linux %s has it)",
				    ei, e->who, safe ? safe : "?",
				    syscall_table_kernel());
			free(safe);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* " (read write ...)": the first names of an entry, made safe, or "". */
static void _who(json_t *s, char *buf, size_t len)
{
	json_t *names = oci_json_get(s, "names"),
	       *one = oci_json_get(s, "name"), *v;
	size_t n = 0, k = 0, i;

	buf[0] = '\0';
	if (!json_is_array(names) && !json_is_string(one))
		return;
	k += (size_t)snprintf(buf + k, len - k, " (");
	for (i = 0; json_is_array(names) ? i < json_array_size(names) : i < 1;
	     i++) {
		const char *t;

		v = json_is_array(names) ? json_array_get(names, i) : one;
		if (!json_is_string(v))
			continue;
		if (n == 3) {
			k += (size_t)snprintf(buf + k, len - k, " ...");
			break;
		}
		k += (size_t)snprintf(buf + k, len - k, "%s", n ? " " : "");
		for (t = json_string_value(v); *t && k + 8 < len; t++)
			buf[k++] = (*t >= 'a' && *t <= 'z') ||
					   (*t >= '0' && *t <= '9') || *t == '_'
				       ? *t
				       : '?';
		buf[k] = '\0';
		n++;
		if (k + 8 >= len)
			break;
	}
	if (!n) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf + k, len - k, ")");
}

void imp_entry(struct imp *m, int ei, json_t *s)
{
	static const char *const keys[] = {"names",    "name",	  "action",
					   "errnoRet", "args",	  "comment",
					   "includes", "excludes"};
	static const char *x86[SYSCALL_NR_LIMIT];
	struct entry *e = &m->e[ei];
	struct cond cv[ARGS_MAX];
	size_t ncv = 0, nx86 = 0;
	char where[160];
	const char *act, *comment;
	uint64_t errnum = 0;
	int has_errno, bad = 0, counts[6] = {0};
	json_t *f;

	if (json_is_object(s))
		_who(s, e->who, sizeof(e->who));
	snprintf(where, sizeof(where), "syscalls[%d]%s", ei, e->who);
	if (!json_is_object(s)) {
		imp_err(m, "%s: %s, not an object", where, oci_json_kind(s));
		return;
	}
	imp_check_keys(m, s, where, keys, sizeof(keys) / sizeof(keys[0]));
	if ((comment = imp_get_string(m, s, "comment", where)))
		e->comment = imp_printable(m, comment);
	e->applies = 1;
	if ((f = oci_json_get(s, "includes"))) {
		int r = imp_filter(m, f, 1, where, &e->why, &e->cond);

		bad |= r < 0;
		e->applies &= r > 0;
	}
	if ((f = oci_json_get(s, "excludes"))) {
		int r = imp_filter(m, f, 0, where, &e->why, &e->cond);

		bad |= r < 0;
		e->applies &= r > 0;
	}
	bad |= _names(m, ei, s, x86, &nx86) != 0;
	bad |= _parse_args(m, ei, oci_json_get(s, "args"), cv, &ncv) != 0;
	has_errno = oci_json_get(s, "errnoRet") != NULL;
	if (has_errno &&
	    imp_get_uint(m, s, "errnoRet", where, UINT32_MAX, &errnum))
		bad = 1;
	act = imp_get_string(m, s, "action", where);
	if (!act) {
		if (!oci_json_get(s, "action"))
			imp_err(m, "%s: no action", where);
		return;
	}
	/* An entry for another container is checked, not translated. */
	if (imp_action(m, where, act, has_errno, errnum, &e->act) || bad ||
	    !e->applies || !m->def_ok)
		return;
	if (!ir_action_cmp(&e->act, &m->def)) {
		e->is_default = 1;
		return;
	}
	for (size_t i = 0; i < ncv; i++)
		if (++counts[cv[i].index] > 1)
			e->or_split = 1;
	for (size_t k = 0; k < nx86; k++) {
		struct call *c = imp_call(m, x86[k]);

		if (!c)
			return;
		if (!e->or_split) {
			if (imp_product(m, ei, 0, x86[k], cv, ncv, c))
				return;
			continue;
		}
		for (size_t i = 0; i < ncv; i++)
			if (imp_product(m, ei, (int)i, x86[k], &cv[i], 1, c))
				return;
	}
}
