// SPDX-License-Identifier: MIT
/*
 * Reading run records for `polc suggest` (docs/OBSERVE.md). A record is
 * hostile input: the box chose the paths and arguments in it, and anyone
 * may hand polc a file. It is parsed with jansson (duplicate keys
 * refused), every member's type is checked before use, every string is
 * bounded and free of control characters, and only what suggest needs is
 * kept: the denials, and the Landlock rules' paths as written and as
 * bound, to write a denial's path back with the policy's variables.
 */
#include "suggest_int.h"
#include "ir/ir.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A string member into out (at most len - 1 bytes, no control
 * character); absent or null: "". -1 when present and not such a string. */
static int str(json_t *o, const char *key, char *out, size_t len)
{
	json_t *v = json_object_get(o, key);
	const char *s;
	size_t n;

	out[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	n = json_string_length(v);
	if (n >= len || memchr(s, 0, n) || ir_has_control(s))
		return -1;
	memcpy(out, s, n + 1);
	return 0;
}

static int rights_of(json_t *a, uint32_t *out)
{
	static const char *const names[16] = {
	    "execute",	  "write_file",	 "read_file", "read_dir",
	    "remove_dir", "remove_file", "make_char", "make_dir",
	    "make_reg",	  "make_sock",	 "make_fifo", "make_block",
	    "make_sym",	  "refer",	 "truncate",  "ioctl_dev",
	};
	size_t i;
	json_t *v;

	*out = 0;
	if (!json_is_array(a) || json_array_size(a) > 16)
		return -1;
	json_array_foreach(a, i, v)
	{
		unsigned k;

		if (!json_is_string(v))
			return -1;
		for (k = 0; k < 16; k++)
			if (!strcmp(json_string_value(v), names[k]))
				break;
		if (k == 16)
			return -1;
		*out |= 1u << k;
	}
	return 0;
}

static int hex64(const char *s, uint64_t *v)
{
	char *end;

	if (strncmp(s, "0x", 2) || !s[2] || strlen(s) > 18)
		return -1;
	*v = strtoull(s + 2, &end, 16);
	return *end ? -1 : 0;
}

static int one_denial(json_t *o, struct sug_denial *d)
{
	char layer[16];
	json_t *v;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!json_is_object(o) || str(o, "layer", layer, sizeof(layer)) ||
	    str(o, "action", d->action, sizeof(d->action)) ||
	    str(o, "by", d->by, sizeof(d->by)) ||
	    str(o, "rule", d->rule, sizeof(d->rule)) ||
	    str(o, "call", d->call, sizeof(d->call)) ||
	    str(o, "syscall", d->syscall, sizeof(d->syscall)) ||
	    str(o, "path", d->path, sizeof(d->path)) ||
	    str(o, "destination", d->dest, sizeof(d->dest)) ||
	    str(o, "host", d->host, sizeof(d->host)))
		return -1;
	v = json_object_get(o, "learned");
	d->learned = v && json_is_true(v);
	v = json_object_get(o, "count");
	d->count = v && json_is_integer(v) && json_integer_value(v) > 0 &&
			   json_integer_value(v) <= UINT32_MAX
		       ? (uint32_t)json_integer_value(v)
		       : 1;
	if (!strcmp(layer, "seccomp")) {
		d->layer = SUG_SECCOMP;
		v = json_object_get(o, "args");
		if (!d->syscall[0] || !json_is_array(v) ||
		    json_array_size(v) != 6)
			return -1;
		for (i = 0; i < 6; i++) {
			json_t *a = json_array_get(v, i);

			if (!json_is_string(a) ||
			    hex64(json_string_value(a), &d->args[i]))
				return -1;
		}
	} else if (!strcmp(layer, "landlock")) {
		d->layer = SUG_LANDLOCK;
		if (!d->path[0] || d->path[0] != '/' ||
		    rights_of(json_object_get(o, "rights"), &d->rights))
			return -1;
	} else if (!strcmp(layer, "net")) {
		d->layer = SUG_NET;
		if (!d->dest[0])
			return -1;
	} else {
		return -1;
	}
	return 0;
}

/* The Landlock rules' paths as written and as bound: ${WS} -> /w/x. */
static int maps(json_t *root, struct sug_input *in)
{
	json_t *rules = json_object_get(
	    json_object_get(json_object_get(root, "layers"), "landlock"),
	    "rules");
	size_t i;
	json_t *r;

	if (!rules)
		return 0;
	if (!json_is_array(rules))
		return -1;
	json_array_foreach(rules, i, r)
	{
		struct sug_map m;

		if (!json_is_object(r) ||
		    str(r, "path", m.path, sizeof(m.path)) ||
		    str(r, "bound", m.bound, sizeof(m.bound)))
			return -1;
		if (m.path[0] != '$' && m.path[0] != '~')
			continue;
		if (!m.bound[0] || in->nmaps >= SUG_MAX_MAPS)
			continue;
		in->maps[in->nmaps++] = m;
	}
	return 0;
}

int record_read(const uint8_t *buf, size_t len, struct sug_input *in, char *err,
		size_t errlen)
{
	json_error_t je;
	json_t *root, *ds, *o;
	size_t i;
	int rc = -1;

	root = json_loadb((const char *)buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return bad(err, errlen, "not JSON: line %d: %s", je.line,
			   je.text);
	if (!json_is_object(root) ||
	    !json_is_integer(json_object_get(root, "schema_version")) ||
	    json_integer_value(json_object_get(root, "schema_version")) != 1) {
		bad(err, errlen, "not a run record of schema_version 1");
		goto out;
	}
	ds = json_object_get(root, "denials");
	if (ds && !json_is_array(ds)) {
		bad(err, errlen, "denials is not an array");
		goto out;
	}
	if (maps(root, in)) {
		bad(err, errlen, "layers.landlock.rules is malformed");
		goto out;
	}
	json_array_foreach(ds, i, o)
	{
		if (in->n >= SUG_MAX_DENIALS) {
			bad(err, errlen, "more than %d denials",
			    SUG_MAX_DENIALS);
			goto out;
		}
		if (one_denial(o, &in->d[in->n])) {
			bad(err, errlen, "denial %zu is malformed", i);
			goto out;
		}
		in->n++;
	}
	rc = 0;
out:
	json_decref(root);
	return rc;
}
