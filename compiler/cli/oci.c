// SPDX-License-Identifier: MIT
/* The OCI seccomp profile's vocabulary; see oci_int.h. */
#include "oci_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const oci_act_names[OCI_ACT_COUNT] = {
    [OCI_ACT_KILL] = "SCMP_ACT_KILL",
    [OCI_ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
    [OCI_ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD",
    [OCI_ACT_TRAP] = "SCMP_ACT_TRAP",
    [OCI_ACT_ERRNO] = "SCMP_ACT_ERRNO",
    [OCI_ACT_TRACE] = "SCMP_ACT_TRACE",
    [OCI_ACT_ALLOW] = "SCMP_ACT_ALLOW",
    [OCI_ACT_LOG] = "SCMP_ACT_LOG",
    [OCI_ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

const char *const oci_op_names[OCI_OP_COUNT] = {
    [OCI_OP_NE] = "SCMP_CMP_NE",
    [OCI_OP_LT] = "SCMP_CMP_LT",
    [OCI_OP_LE] = "SCMP_CMP_LE",
    [OCI_OP_EQ] = "SCMP_CMP_EQ",
    [OCI_OP_GE] = "SCMP_CMP_GE",
    [OCI_OP_GT] = "SCMP_CMP_GT",
    [OCI_OP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

/* libseccomp 2.5's arch names, as the runtime spec lists them. */
const char *const oci_arch_names[] = {
    "SCMP_ARCH_X86",	  "SCMP_ARCH_X86_64",	   "SCMP_ARCH_X32",
    "SCMP_ARCH_ARM",	  "SCMP_ARCH_AARCH64",	   "SCMP_ARCH_MIPS",
    "SCMP_ARCH_MIPS64",	  "SCMP_ARCH_MIPS64N32",   "SCMP_ARCH_MIPSEL",
    "SCMP_ARCH_MIPSEL64", "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",
    "SCMP_ARCH_PPC64",	  "SCMP_ARCH_PPC64LE",	   "SCMP_ARCH_S390",
    "SCMP_ARCH_S390X",	  "SCMP_ARCH_PARISC",	   "SCMP_ARCH_PARISC64",
    "SCMP_ARCH_RISCV64",  "SCMP_ARCH_LOONGARCH64", "SCMP_ARCH_M68K",
    "SCMP_ARCH_SH",	  "SCMP_ARCH_SHEB",	   NULL,
};

static int _find(const char *const *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (v[i] && !strcmp(v[i], name))
			return i;
	return -1;
}

int oci_act_find(const char *name)
{
	return _find(oci_act_names, OCI_ACT_COUNT, name);
}

int oci_op_find(const char *name)
{
	return _find(oci_op_names, OCI_OP_COUNT, name);
}

int oci_arch_known(const char *name)
{
	int n = 0;

	while (oci_arch_names[n])
		n++;
	return _find(oci_arch_names, n, name) >= 0;
}

const char *oci_act_of(const struct ir_action *a, unsigned *errnum)
{
	*errnum = 0;
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		return oci_act_names[OCI_ACT_KILL_PROCESS];
	case IR_ACT_KILL_THREAD:
		return oci_act_names[OCI_ACT_KILL_THREAD];
	case IR_ACT_TRAP:
		return oci_act_names[OCI_ACT_TRAP];
	case IR_ACT_ERRNO:
		*errnum = a->errnum;
		return oci_act_names[OCI_ACT_ERRNO];
	case IR_ACT_LOG:
		return oci_act_names[OCI_ACT_LOG];
	default:
		return oci_act_names[OCI_ACT_ALLOW];
	}
}

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
