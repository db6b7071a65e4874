// SPDX-License-Identifier: MIT
/*
 * The container a profile is resolved for, and which entries apply to it,
 * as moby decides: includes needs every listed capability, an arch of the
 * list and a kernel at least minKernel; excludes drops the entry for any
 * listed capability, a listed arch, or such a kernel. The container has
 * Docker's default capabilities plus --cap, the arch amd64, and the
 * kernel --kernel.
 */
#include "diag.h"
#include "oci_int.h"
#include "tables/tables.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Docker's capabilities for a container that adds none (moby's
 * oci/caps.DefaultCapabilities). */
const char *const oci_docker_caps[] = {
    "CAP_CHOWN",   "CAP_DAC_OVERRIDE", "CAP_FSETID",	       "CAP_FOWNER",
    "CAP_MKNOD",   "CAP_NET_RAW",      "CAP_SETGID",	       "CAP_SETUID",
    "CAP_SETFCAP", "CAP_SETPCAP",      "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT",
    "CAP_KILL",	   "CAP_AUDIT_WRITE",
};
const size_t oci_ndocker_caps =
    sizeof(oci_docker_caps) / sizeof(oci_docker_caps[0]);

static int _is_cap(const char *name)
{
	long long v;

	return !strncmp(name, "CAP_", 4) && !constant_lookup(name, &v) &&
	       v >= 0 && v <= 63;
}

static void _unknown_cap(struct imp *m, const char *where, const char *name)
{
	const char *caps[64], *close;
	const struct constant *c;
	size_t n = 0;

	for (unsigned i = 0; (c = constant_at(i)) && n < 64; i++)
		if (_is_cap(c->name))
			caps[n++] = c->name;
	close = diag_closest(name, caps, n);
	if (close)
		imp_err(m, "%s: unknown capability '%s'; did you mean '%s'?",
			where, name, close);
	else
		imp_err(m, "%s: unknown capability '%s'", where, name);
}

static int _has_cap(const struct imp *m, const char *name)
{
	for (size_t i = 0; i < m->ncaps; i++)
		if (!strcmp(m->caps[i], name))
			return 1;
	return 0;
}

/* "X.Y" into major and minor; -1 if it is not that. */
int oci_parse_kernel(const char *s, unsigned *maj, unsigned *min)
{
	char tail;

	return sscanf(s, "%u.%u%c", maj, min, &tail) == 2 ? 0 : -1;
}

/*
 * includes / excludes of one entry: 1 when the entry applies to the
 * container, 0 when not (why gets the reason), -1 on a malformed filter.
 */
int imp_filter(struct imp *m, json_t *f, int include, const char *where,
	       char **why, char **cond)
{
	static const char *const keys[] = {"caps", "arches", "minKernel"};
	json_t *caps, *arches, *v;
	const char *mk;
	char *capv = NULL, *archv = NULL, *part = NULL;
	size_t i;
	int ok = 1, bad = 0;

	if (!json_is_object(f)) {
		imp_err(m, "%s: %s, not an object", where, oci_json_kind(f));
		return -1;
	}
	imp_check_keys(m, f, where, keys, 3);
	caps = oci_json_get(f, "caps");
	arches = oci_json_get(f, "arches");
	if (caps && !json_is_array(caps)) {
		imp_err(m, "%s.caps: %s, not an array", where,
			oci_json_kind(caps));
		bad = 1;
	}
	if (arches && !json_is_array(arches)) {
		imp_err(m, "%s.arches: %s, not an array", where,
			oci_json_kind(arches));
		bad = 1;
	}
	json_array_foreach(json_is_array(caps) ? caps : NULL, i, v)
	{
		const char *c = json_string_value(v);

		if (!c) {
			imp_err(m, "%s.caps[%zu]: %s, not a string", where, i,
				oci_json_kind(v));
			bad = 1;
			continue;
		}
		if (!_is_cap(c)) {
			_unknown_cap(m, where, c);
			bad = 1;
			continue;
		}
		imp_append(m, &capv, " ", c);
		/* includes: every cap held; excludes: none held. */
		if (include && !_has_cap(m, c)) {
			ok = 0;
			imp_append(m, why, " ", "needs");
			imp_append(m, why, " ", c);
		} else if (!include && _has_cap(m, c)) {
			ok = 0;
			imp_append(m, why, " ", "not with");
			imp_append(m, why, " ", c);
		}
	}
	if (json_is_array(arches) && json_array_size(arches)) {
		int hit = 0;

		json_array_foreach(arches, i, v)
		{
			if (!json_is_string(v)) {
				imp_err(m, "%s.arches[%zu]: %s, not a string",
					where, i, oci_json_kind(v));
				bad = 1;
			} else {
				imp_append(m, &archv, " ",
					   json_string_value(v));
				hit |= !strcmp(json_string_value(v),
					       OCI_NATIVE_AMD64);
			}
		}
		if (include ? !hit : hit) {
			ok = 0;
			imp_append(m, why, " ",
				   include ? "not for amd64"
					   : "excludes amd64");
		}
	}
	if (capv && asprintf(&part, "%s %s", include ? "with" : "not with",
			     capv) >= 0) {
		imp_append(m, cond, ", ", part);
		free(part);
	}
	if (archv &&
	    asprintf(&part, "%s %s", include ? "on" : "not on", archv) >= 0) {
		imp_append(m, cond, ", ", part);
		free(part);
	}
	free(capv);
	free(archv);
	mk = imp_get_string(m, f, "minKernel", where);
	if (mk) {
		unsigned maj = 0, min = 0;

		if (oci_parse_kernel(mk, &maj, &min)) {
			imp_err(m, "%s.minKernel: '%s' is not MAJOR.MINOR",
				where, mk);
			bad = 1;
		} else {
			imp_append(m, cond, ", ",
				   include ? "on kernel >=" : "on kernel <");
			imp_append(m, cond, " ", mk);
		}
		if (!bad) {
			int ge =
			    m->kmaj > maj || (m->kmaj == maj && m->kmin >= min);

			if (include ? !ge : ge) {
				char buf[64];

				ok = 0;
				snprintf(buf, sizeof(buf), "%s kernel %s",
					 include ? "needs" : "not on", mk);
				imp_append(m, why, " ", buf);
			}
		}
	}
	return bad ? -1 : ok;
}

/* The container's capabilities: Docker's defaults and --cap. */
int imp_caps(struct imp *m)
{
	int bad = 0;

	for (size_t i = 0; i < oci_ndocker_caps; i++)
		m->caps[m->ncaps++] = oci_docker_caps[i];
	for (size_t i = 0; i < m->o->ncaps; i++) {
		const char *c = m->o->caps[i];

		if (!_is_cap(c)) {
			_unknown_cap(m, "--cap", c);
			bad = 1;
		} else if (!_has_cap(m, c) && m->ncaps < 64) {
			m->caps[m->ncaps++] = c;
		}
	}
	return bad ? -1 : 0;
}
