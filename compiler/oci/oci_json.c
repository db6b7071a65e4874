// SPDX-License-Identifier: MIT
/*
 * The profile as JSON, which is hostile input: parsed with jansson,
 * duplicate keys refused, numbers read as Go's uint64 (oci.h); then every
 * member read through a check of its type, every unknown key an error
 * with a "did you mean", all of them reported in one run.
 */
#include "diag.h"
#include "oci_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number token at t[i..] outside any string: its length. */
static size_t _number_len(const char *t, size_t n, size_t i)
{
	size_t j = i;

	while (j < n &&
	       (t[j] == '-' || t[j] == '+' || t[j] == '.' || t[j] == 'e' ||
		t[j] == 'E' || (t[j] >= '0' && t[j] <= '9')))
		j++;
	return j - i;
}

/* 1 when the token is an integer above INT64_MAX within uint64, and its
 * value; 0 when not. */
static int _big(const char *t, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(t[i] - '0');

		if (t[i] < '0' || t[i] > '9' || x > (UINT64_MAX - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	*v = x;
	return len > 0 && x > (uint64_t)INT64_MAX;
}

static void _json_fail(json_error_t *e, const char *text, size_t pos,
		       const char *msg)
{
	int line = 1, col = 1;

	for (size_t i = 0; i < pos; i++) {
		col++;
		if (text[i] == '\n') {
			line++;
			col = 1;
		}
	}
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->column = col;
	e->position = (int)pos;
	snprintf(e->text, sizeof(e->text), "%s", msg);
}

json_t *oci_json_loadb(const char *text, size_t len, json_error_t *e)
{
	char *t = malloc(len + 1);
	int in_str = 0;
	json_t *root;

	if (!t) {
		_json_fail(e, text, 0, "out of memory");
		return NULL;
	}
	memcpy(t, text, len);
	t[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		size_t k;
		uint64_t v;

		if (in_str) {
			if (t[i] == '\\')
				i++;
			else if (t[i] == '"')
				in_str = 0;
			continue;
		}
		if (t[i] == '"') {
			in_str = 1;
			continue;
		}
		if (t[i] != '-' && (t[i] < '0' || t[i] > '9'))
			continue;
		k = _number_len(t, len, i);
		if (t[i] == '-') {
			_json_fail(e, text, i,
				   "a negative number, and a profile's numbers "
				   "are unsigned");
			free(t);
			return NULL;
		}
		if (_big(t + i, k, &v)) {
			char enc[32];
			int n = snprintf(
			    enc, sizeof(enc), "-%llu",
			    (unsigned long long)(v - (uint64_t)INT64_MAX));

			/* v has 19 or 20 digits, the encoding at most as
			 * many characters. */
			memset(t + i, ' ', k);
			memcpy(t + i, enc, (size_t)n);
		}
		i += k - 1;
	}
	root = json_loadb(t, len, JSON_REJECT_DUPLICATES, e);
	free(t);
	return root;
}

int oci_json_u64(const json_t *v, uint64_t *out)
{
	json_int_t x;

	if (!json_is_integer(v))
		return -1;
	x = json_integer_value(v);
	*out = x >= 0 ? (uint64_t)x
		      : (uint64_t)INT64_MAX + (uint64_t) - (x + 1) + 1;
	return 0;
}

/* ---- Members, each read through a check of its type --------------------- */

/* JSON names for messages: a path like syscalls[3].args[1].op. */
const char *oci_json_kind(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

/* A member; null is no member, as Go's decoder takes it. */
json_t *oci_json_get(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

/* Every key of obj must be one of keys[]; unknown ones are errors. */
void imp_check_keys(struct imp *m, json_t *obj, const char *where,
		    const char *const *keys, size_t n)
{
	const char *k;
	json_t *v;

	json_object_foreach(obj, k, v)
	{
		size_t i;
		const char *close;

		for (i = 0; i < n; i++)
			if (!strcmp(k, keys[i]))
				break;
		if (i < n)
			continue;
		close = diag_closest(k, keys, n);
		if (close)
			imp_err(m, "%s: unknown key '%s'; did you mean '%s'?",
				where, k, close);
		else
			imp_err(m, "%s: unknown key '%s'", where, k);
	}
}

const char *imp_get_string(struct imp *m, json_t *obj, const char *key,
			   const char *where)
{
	json_t *v = oci_json_get(obj, key);

	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		imp_err(m, "%s.%s: %s, not a string", where, key,
			oci_json_kind(v));
		return NULL;
	}
	return json_string_value(v);
}

/* An unsigned integer member; -1 when absent or wrong (reported). */
int imp_get_uint(struct imp *m, json_t *obj, const char *key, const char *where,
		 uint64_t max, uint64_t *out)
{
	json_t *v = oci_json_get(obj, key);
	uint64_t x;

	if (!v)
		return -1;
	if (oci_json_u64(v, &x) || x > max) {
		imp_err(m, "%s.%s: %s, not an integer 0..%llu", where, key,
			json_is_integer(v) ? "out of range" : oci_json_kind(v),
			(unsigned long long)max);
		return -1;
	}
	*out = x;
	return 0;
}

/* The JSON parser's error at its place in the file. */
void imp_json_error(struct imp *m, const struct src_file *src,
		    const json_error_t *je)
{
	struct loc at = {src, 0, 0};

	if (je->line > 0 && je->position >= 0 &&
	    (size_t)je->position <= src->len) {
		size_t p = (size_t)je->position, start = p;

		while (start > 0 && src->text[start - 1] != '\n')
			start--;
		at.line = je->line;
		at.col = (int)(p - start) + 1;
	}
	diag_error(m->d, at, "not a JSON profile: %s", je->text);
}
