// SPDX-License-Identifier: MIT
/*
 * The profile's top level: its default action, its architectures (for
 * the header comment: polc keeps x86_64 alone), the flags and the
 * seccomp agent polc refuses, then every entry, and last, per syscall,
 * how its rules meet.
 */
#include "oci_int.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void _arches(struct imp *m, json_t *root)
{
	json_t *list = oci_json_get(root, "architectures");
	json_t *map = oci_json_get(root, "archMap"), *v;
	size_t i;

	if (list && map) {
		imp_err(m, "both 'architectures' and 'archMap' (moby refuses "
			   "the profile)");
		return;
	}
	if (list && !json_is_array(list)) {
		imp_err(m, "architectures: %s, not an array",
			oci_json_kind(list));
		return;
	}
	if (map && !json_is_array(map)) {
		imp_err(m, "archMap: %s, not an array", oci_json_kind(map));
		return;
	}
	json_array_foreach(list, i, v)
	{
		const char *a = json_string_value(v);

		if (!a || !oci_arch_known(a)) {
			imp_err(m, "architectures[%zu]: not an SCMP_ARCH_ name",
				i);
			continue;
		}
		imp_append(m, &m->arches, ", ", a);
		if (strcmp(a, OCI_ARCH_X86_64))
			m->subarches = 1;
	}
	json_array_foreach(map, i, v)
	{
		static const char *const keys[] = {"architecture",
						   "subArchitectures"};
		json_t *subs, *s;
		const char *a;
		char where[32];
		size_t k;

		snprintf(where, sizeof(where), "archMap[%zu]", i);
		if (!json_is_object(v)) {
			imp_err(m, "%s: %s, not an object", where,
				oci_json_kind(v));
			continue;
		}
		imp_check_keys(m, v, where, keys, 2);
		a = imp_get_string(m, v, "architecture", where);
		subs = oci_json_get(v, "subArchitectures");
		if (!a || !oci_arch_known(a)) {
			imp_err(m, "%s.architecture: not an SCMP_ARCH_ name",
				where);
			continue;
		}
		if (subs && !json_is_array(subs)) {
			imp_err(m, "%s.subArchitectures: %s, not an array",
				where, oci_json_kind(subs));
			continue;
		}
		json_array_foreach(subs, k, s)
		{
			const char *sa = json_string_value(s);

			if (!sa || !oci_arch_known(sa)) {
				imp_err(m,
					"%s.subArchitectures[%zu]: not an "
					"SCMP_ARCH_ name",
					where, k);
				continue;
			}
			if (!strcmp(a, OCI_ARCH_X86_64)) {
				imp_append(m, &m->arches, ", ", sa);
				m->subarches = 1;
			}
		}
		if (!strcmp(a, OCI_ARCH_X86_64))
			imp_append(m, &m->arches, ", ", a);
	}
}

void imp_profile(struct imp *m, json_t *root)
{
	static const char *const keys[] = {
	    "defaultAction", "defaultErrnoRet", "architectures",    "archMap",
	    "flags",	     "listenerPath",	"listenerMetadata", "syscalls"};
	const char *def, *s;
	json_t *flags, *calls, *v;
	uint64_t errnum = 0;
	int has_errno;
	size_t i;

	if (!json_is_object(root)) {
		imp_err(m, "the profile is %s, not an object",
			oci_json_kind(root));
		return;
	}
	imp_check_keys(m, root, "the profile", keys,
		       sizeof(keys) / sizeof(keys[0]));
	has_errno = oci_json_get(root, "defaultErrnoRet") != NULL;
	if (has_errno && imp_get_uint(m, root, "defaultErrnoRet", "the profile",
				      UINT32_MAX, &errnum))
		has_errno = -1;
	def = imp_get_string(m, root, "defaultAction", "the profile");
	if (!def && !oci_json_get(root, "defaultAction"))
		imp_err(m, "no defaultAction (Docker would run the container "
			   "without seccomp, or refuse it)");
	if (def && has_errno >= 0 &&
	    !imp_action(m, "defaultAction", def, has_errno, errnum, &m->def))
		m->def_ok = 1;
	_arches(m, root);
	flags = oci_json_get(root, "flags");
	if (flags && !json_is_array(flags))
		imp_err(m, "flags: %s, not an array", oci_json_kind(flags));
	json_array_foreach(json_is_array(flags) ? flags : NULL, i, v)
	{
		const char *fl = json_string_value(v);

		if (fl && !strcmp(fl, "SECCOMP_FILTER_FLAG_TSYNC"))
			continue; /* polexec's box is one thread at exec */
		imp_err(m, "flags[%zu]: %s: polc has no such filter flag", i,
			fl ? fl : oci_json_kind(v));
	}
	if ((s = imp_get_string(m, root, "listenerPath", "the profile")) && *s)
		imp_err(m, "listenerPath: a seccomp agent, which polc does not "
			   "have");
	if ((s = imp_get_string(m, root, "listenerMetadata", "the profile")) &&
	    *s)
		imp_err(m, "listenerMetadata: a seccomp agent, which polc does "
			   "not have");
	calls = oci_json_get(root, "syscalls");
	if (calls && !json_is_array(calls)) {
		imp_err(m, "syscalls: %s, not an array", oci_json_kind(calls));
		return;
	}
	m->ne = calls ? json_array_size(calls) : 0;
	m->e = calloc(m->ne ? m->ne : 1, sizeof(*m->e));
	if (!m->e) {
		m->oom = 1;
		return;
	}
	json_array_foreach(calls, i, v)
	{
		if (i > INT32_MAX)
			break;
		imp_entry(m, (int)i, v);
	}
	for (i = 0; i < m->nc; i++)
		imp_rules_meet(m, &m->c[i]);
}
