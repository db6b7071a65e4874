// SPDX-License-Identifier: MIT
/*
 * polc import oci: an OCI / Docker seccomp profile (JSON) to a policy in
 * our language, for x86_64, meaning exactly what runc makes of the profile
 * (docs/OCI.md). The profile is hostile input: it is read with jansson
 * (duplicate keys refused), every key and type is checked, and every
 * problem is reported at once; nothing is written unless there is none.
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
 */
#include "cli.h"
#include "diag.h"
#include "ir/ir.h"
#include "logic/logic.h"
#include "oci_int.h"
#include "sema/sema.h"
#include "support/support.h"
#include "tables/tables.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARGS_MAX  16 /* conditions in one entry */
#define ALTS_MAX  64 /* our rules for one libseccomp rule */
#define TEXT_COLS 78

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

struct cond {
	unsigned index;
	int op; /* enum oci_op */
	uint64_t v, v2;
};

/* One of our rules, from one libseccomp rule of one entry. */
struct rule {
	struct ir_action act;
	uint32_t natoms;
	struct ir_atom atoms[IR_MAX_ATOMS];
	int entry;    /* syscalls[entry] */
	int orule;    /* libseccomp rule within the entry */
	int scmp_all; /* the libseccomp rule has no condition at all */
	int drop;     /* not written: why, and the entry it yields to */
	int other;
};

enum drop_why {
	KEEP = 0,
	DUP,	    /* the same rule again */
	UNCOND,	    /* the syscall has an unconditional rule */
	SAME_UNCOND /* an unconditional rule with the same action */
};

struct call {
	char name[IR_SYSCALL_NAME];
	struct rule *r;
	size_t n, cap;
};

struct entry {
	int applies;
	char *why;	 /* not applied: why */
	char *cond;	 /* its includes and excludes, as text */
	char *comment;	 /* the profile's, made printable */
	char *names;	 /* x86_64 names, space-separated */
	char *elsewhere; /* other arches' names */
	struct ir_action act;
	int is_default; /* runc skips it */
	int or_split;	/* conditions on one argument: ORed */
	int never;	/* its conditions can never hold */
	char who[80];	/* " (name name ...)": its first names, for messages */
	int hole;	/* holds only with a dirty upper half */
};

/* Output lines: a comment, a statement, a blank (dropped where fmt would
 * drop it: not before a closing brace, which fmt sets apart). */
enum line_kind { L_COMMENT, L_STMT, L_BLANK, L_CLOSE };
struct line {
	enum line_kind kind;
	char *text;
};

struct imp {
	const struct oci_import_opts *o;
	struct diag *d;
	struct loc at;
	struct ir_action def;
	int def_ok;
	char *arches; /* the profile's arches for x86_64 */
	int subarches;
	const char *caps[64];
	size_t ncaps;
	unsigned kmaj, kmin;
	struct entry *e;
	size_t ne;
	struct call *c;
	size_t nc, capc;
	struct line *l;
	size_t nl, capl;
	int oom;
};

static void _err(struct imp *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void _warn(struct imp *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

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

static void _err(struct imp *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_report(m, DIAG_ERROR, fmt, ap);
	va_end(ap);
}

static void _warn(struct imp *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_report(m, DIAG_WARNING, fmt, ap);
	va_end(ap);
}

static void *_grow(struct imp *m, void *v, size_t *cap, size_t n, size_t sz)
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

/* ---- Strings ---------------------------------------------------------- */

/* s appended to *out with a separator; out of memory leaves *out. */
static void _append(struct imp *m, char **out, const char *sep, const char *s)
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
static char *_printable(struct imp *m, const char *s)
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

/* JSON names for messages: a path like syscalls[3].args[1].op. */
static const char *_kind(json_t *v)
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
static json_t *_get(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

/* Every key of obj must be one of keys[]; unknown ones are errors. */
static void _keys(struct imp *m, json_t *obj, const char *where,
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
			_err(m, "%s: unknown key '%s'; did you mean '%s'?",
			     where, k, close);
		else
			_err(m, "%s: unknown key '%s'", where, k);
	}
}

static const char *_string(struct imp *m, json_t *obj, const char *key,
			   const char *where)
{
	json_t *v = _get(obj, key);

	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		_err(m, "%s.%s: %s, not a string", where, key, _kind(v));
		return NULL;
	}
	return json_string_value(v);
}

/* An unsigned integer member; -1 when absent or wrong (reported). */
static int _uint(struct imp *m, json_t *obj, const char *key, const char *where,
		 uint64_t max, uint64_t *out)
{
	json_t *v = _get(obj, key);
	uint64_t x;

	if (!v)
		return -1;
	if (oci_json_u64(v, &x) || x > max) {
		_err(m, "%s.%s: %s, not an integer 0..%llu", where, key,
		     json_is_integer(v) ? "out of range" : _kind(v),
		     (unsigned long long)max);
		return -1;
	}
	*out = x;
	return 0;
}

/* ---- The container: caps, arch, kernel -------------------------------- */

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
		_err(m, "%s: unknown capability '%s'; did you mean '%s'?",
		     where, name, close);
	else
		_err(m, "%s: unknown capability '%s'", where, name);
}

static int _has_cap(const struct imp *m, const char *name)
{
	for (size_t i = 0; i < m->ncaps; i++)
		if (!strcmp(m->caps[i], name))
			return 1;
	return 0;
}

/* "X.Y" into major and minor; -1 if it is not that. */
static int _kernel(const char *s, unsigned *maj, unsigned *min)
{
	char tail;

	return sscanf(s, "%u.%u%c", maj, min, &tail) == 2 ? 0 : -1;
}

/*
 * includes / excludes of one entry: 1 when the entry applies to the
 * container, 0 when not (why gets the reason), -1 on a malformed filter.
 */
static int _filter(struct imp *m, json_t *f, int include, const char *where,
		   char **why, char **cond)
{
	static const char *const keys[] = {"caps", "arches", "minKernel"};
	json_t *caps, *arches, *v;
	const char *mk;
	char *capv = NULL, *archv = NULL, *part = NULL;
	size_t i;
	int ok = 1, bad = 0;

	if (!json_is_object(f)) {
		_err(m, "%s: %s, not an object", where, _kind(f));
		return -1;
	}
	_keys(m, f, where, keys, 3);
	caps = _get(f, "caps");
	arches = _get(f, "arches");
	if (caps && !json_is_array(caps)) {
		_err(m, "%s.caps: %s, not an array", where, _kind(caps));
		bad = 1;
	}
	if (arches && !json_is_array(arches)) {
		_err(m, "%s.arches: %s, not an array", where, _kind(arches));
		bad = 1;
	}
	json_array_foreach(json_is_array(caps) ? caps : NULL, i, v)
	{
		const char *c = json_string_value(v);

		if (!c) {
			_err(m, "%s.caps[%zu]: %s, not a string", where, i,
			     _kind(v));
			bad = 1;
			continue;
		}
		if (!_is_cap(c)) {
			_unknown_cap(m, where, c);
			bad = 1;
			continue;
		}
		_append(m, &capv, " ", c);
		/* includes: every cap held; excludes: none held. */
		if (include && !_has_cap(m, c)) {
			ok = 0;
			_append(m, why, " ", "needs");
			_append(m, why, " ", c);
		} else if (!include && _has_cap(m, c)) {
			ok = 0;
			_append(m, why, " ", "not with");
			_append(m, why, " ", c);
		}
	}
	if (json_is_array(arches) && json_array_size(arches)) {
		int hit = 0;

		json_array_foreach(arches, i, v)
		{
			if (!json_is_string(v)) {
				_err(m, "%s.arches[%zu]: %s, not a string",
				     where, i, _kind(v));
				bad = 1;
			} else {
				_append(m, &archv, " ", json_string_value(v));
				hit |= !strcmp(json_string_value(v),
					       OCI_NATIVE_AMD64);
			}
		}
		if (include ? !hit : hit) {
			ok = 0;
			_append(m, why, " ",
				include ? "not for amd64" : "excludes amd64");
		}
	}
	if (capv && asprintf(&part, "%s %s", include ? "with" : "not with",
			     capv) >= 0) {
		_append(m, cond, ", ", part);
		free(part);
	}
	if (archv &&
	    asprintf(&part, "%s %s", include ? "on" : "not on", archv) >= 0) {
		_append(m, cond, ", ", part);
		free(part);
	}
	free(capv);
	free(archv);
	mk = _string(m, f, "minKernel", where);
	if (mk) {
		unsigned maj = 0, min = 0;

		if (_kernel(mk, &maj, &min)) {
			_err(m, "%s.minKernel: '%s' is not MAJOR.MINOR", where,
			     mk);
			bad = 1;
		} else {
			_append(m, cond, ", ",
				include ? "on kernel >=" : "on kernel <");
			_append(m, cond, " ", mk);
		}
		if (!bad) {
			int ge =
			    m->kmaj > maj || (m->kmaj == maj && m->kmin >= min);

			if (include ? !ge : ge) {
				char buf[64];

				ok = 0;
				snprintf(buf, sizeof(buf), "%s kernel %s",
					 include ? "needs" : "not on", mk);
				_append(m, why, " ", buf);
			}
		}
	}
	return bad ? -1 : ok;
}

/* ---- Actions ------------------------------------------------------------ */

/*
 * An action as runc reads it: 0 and *a, or -1 (reported). errnum is the
 * errnoRet given (has_errno) for ERRNO.
 */
static int _action(struct imp *m, const char *where, const char *name,
		   int has_errno, uint64_t errnum, struct ir_action *a)
{
	int k = oci_act_find(name);

	memset(a, 0, sizeof(*a));
	switch (k) {
	case OCI_ACT_KILL:
	case OCI_ACT_KILL_THREAD:
		a->kind = IR_ACT_KILL_THREAD;
		break;
	case OCI_ACT_KILL_PROCESS:
		a->kind = IR_ACT_KILL_PROCESS;
		break;
	case OCI_ACT_TRAP:
		a->kind = IR_ACT_TRAP;
		break;
	case OCI_ACT_ALLOW:
		a->kind = IR_ACT_ALLOW;
		break;
	case OCI_ACT_LOG:
		a->kind = IR_ACT_LOG;
		break;
	case OCI_ACT_ERRNO:
		a->kind = IR_ACT_ERRNO;
		a->errnum = OCI_DEFAULT_ERRNO;
		if (!has_errno)
			break;
		if (errnum == 0 || errnum > 4095) {
			_err(m,
			     "%s: errno %llu: polc's errno actions return "
			     "1..4095 (errno 0 would make the call return 0 "
			     "without running it)",
			     where, (unsigned long long)errnum);
			return -1;
		}
		a->errnum = (uint16_t)errnum;
		break;
	case OCI_ACT_TRACE:
	case OCI_ACT_NOTIFY:
		_err(m,
		     "%s: %s hands the call to a %s, which polc's actions "
		     "cannot say",
		     where, name, k == OCI_ACT_TRACE ? "tracer" : "supervisor");
		return -1;
	default: {
		const char *close =
		    diag_closest(name, oci_act_names, OCI_ACT_COUNT);

		if (close)
			_err(m, "%s: unknown action '%s'; did you mean '%s'?",
			     where, name, close);
		else
			_err(m, "%s: unknown action '%s'", where, name);
		return -1;
	}
	}
	if (has_errno && k != OCI_ACT_ERRNO)
		_warn(m,
		      "%s: errnoRet %llu means nothing to %s (runc ignores "
		      "it)",
		      where, (unsigned long long)errnum, name);
	return 0;
}

/* ---- Conditions to atoms ------------------------------------------------ */

/* Alternatives of one condition: each a conjunction of at most 2 atoms. */
struct alt {
	uint32_t n;
	struct ir_atom a[2];
	int dirty; /* holds only when an int's upper half is not zero */
};

struct alts {
	struct alt v[2];
	size_t n; /* 0: the condition never holds */
};

static struct ir_atom _atom(unsigned idx, unsigned width, int op, uint64_t mask,
			    uint64_t value)
{
	return (struct ir_atom){(uint8_t)idx, (uint8_t)width, (uint8_t)op, mask,
				value};
}

static void _alt(struct alts *out, int dirty, uint32_t n, struct ir_atom a0,
		 struct ir_atom a1)
{
	out->v[out->n] = (struct alt){n, {a0, a1}, dirty};
	out->n++;
}

/* A 64-bit comparison on a 64-bit argument: one atom, or none. */
static void _cond64(const struct cond *c, struct alts *out)
{
	static const int ops[] = {
	    [OCI_OP_NE] = IR_OP_NE, [OCI_OP_LT] = IR_OP_LT,
	    [OCI_OP_LE] = IR_OP_LE, [OCI_OP_EQ] = IR_OP_EQ,
	    [OCI_OP_GE] = IR_OP_GE, [OCI_OP_GT] = IR_OP_GT,
	};
	struct ir_atom none = {0};

	out->n = 0;
	if (c->op == OCI_OP_MASKED_EQ) {
		if (c->v2 & ~c->v)
			return; /* never */
		if (c->v == 0)
			_alt(out, 0, 0, none, none); /* always */
		else
			_alt(out, 0, 1,
			     _atom(c->index, 64, IR_OP_EQ, c->v, c->v2), none);
		return;
	}
	if ((c->op == OCI_OP_LT && c->v == 0) ||
	    (c->op == OCI_OP_GT && c->v == UINT64_MAX))
		return;
	if ((c->op == OCI_OP_GE && c->v == 0) ||
	    (c->op == OCI_OP_LE && c->v == UINT64_MAX)) {
		_alt(out, 0, 0, none, none);
		return;
	}
	_alt(out, 0, 1, _atom(c->index, 64, ops[c->op], UINT64_MAX, c->v),
	     none);
}

/*
 * A 64-bit comparison on an int argument, exactly: the upper half (as
 * ARG.hi) decides unless it equals the value's, then the lower half does.
 * `dirty` marks the alternatives that hold only with the upper half not
 * zero: the kernel never sees that half, so there the rule lets a call
 * through for a reason the kernel ignores.
 */
static void _cond32(const struct cond *c, struct alts *out)
{
	uint32_t vh = (uint32_t)(c->v >> 32), vl = (uint32_t)c->v;
	struct ir_atom none = {0};
	unsigned i = c->index;
	struct ir_atom hi_eq =
	    _atom(i, 64, IR_OP_EQ, 0xffffffff00000000ull, (uint64_t)vh << 32);

	out->n = 0;
#define HI(op) _atom(i, 64, op, 0xffffffff00000000ull, (uint64_t)vh << 32)
#define LO(op) _atom(i, 32, op, 0xffffffffull, vl)
	switch (c->op) {
	case OCI_OP_EQ:
		_alt(out, vh != 0, 2, hi_eq, LO(IR_OP_EQ));
		break;
	case OCI_OP_NE:
		_alt(out, vh == 0, 1, HI(IR_OP_NE), none);
		_alt(out, vh != 0, 2, hi_eq, LO(IR_OP_NE));
		break;
	case OCI_OP_LT:
	case OCI_OP_LE:
		if (vh)
			_alt(out, 0, 1, HI(IR_OP_LT), none);
		if (c->op == OCI_OP_LE && vl == 0xffffffffu)
			_alt(out, vh != 0, 1, hi_eq, none);
		else if (c->op == OCI_OP_LE || vl)
			_alt(out, vh != 0, 2, hi_eq,
			     LO(c->op == OCI_OP_LT ? IR_OP_LT : IR_OP_LE));
		break;
	case OCI_OP_GT:
	case OCI_OP_GE:
		if (vh != 0xffffffffu)
			_alt(out, 1, 1, HI(IR_OP_GT), none);
		if (c->op == OCI_OP_GE && vl == 0)
			_alt(out, vh != 0, 1, hi_eq, none);
		else if (c->op == OCI_OP_GE || vl != 0xffffffffu)
			_alt(out, vh != 0, 2, hi_eq,
			     LO(c->op == OCI_OP_GT ? IR_OP_GT : IR_OP_GE));
		break;
	default: { /* MASKED_EQ: (x & v) == v2, word by word */
		uint32_t mh = (uint32_t)(c->v >> 32), ml = (uint32_t)c->v;
		uint32_t dh = (uint32_t)(c->v2 >> 32), dl = (uint32_t)c->v2;
		struct ir_atom a[2];
		uint32_t n = 0;

		if ((dh & ~mh) || (dl & ~ml))
			break; /* never */
		if (mh)
			a[n++] = _atom(i, 64, IR_OP_EQ, (uint64_t)mh << 32,
				       (uint64_t)dh << 32);
		if (ml)
			a[n++] = _atom(i, 32, IR_OP_EQ, ml, dl);
		_alt(out, dh != 0, n, n > 0 ? a[0] : none, n > 1 ? a[1] : none);
	}
	}
#undef HI
#undef LO
}

/* As the kernel reads an int: the upper half taken as zero. */
static void _kernel_view(struct alts *x)
{
	size_t k = 0;

	for (size_t j = 0; j < x->n; j++) {
		struct alt a = x->v[j];
		uint32_t n = 0;
		int holds = 1;

		for (uint32_t t = 0; t < a.n; t++) {
			uint64_t zero[6] = {0};

			if (a.a[t].width == 64)
				holds &= ir_atom_holds(&a.a[t], zero);
			else
				a.a[n++] = a.a[t];
		}
		a.n = n;
		a.dirty = 0;
		if (holds)
			x->v[k++] = a;
	}
	x->n = k;
}

/* ---- Entries -------------------------------------------------------- */

static struct call *_call(struct imp *m, const char *name)
{
	struct call *c;

	for (size_t i = 0; i < m->nc; i++)
		if (!strcmp(m->c[i].name, name))
			return &m->c[i];
	c = _grow(m, m->c, &m->capc, m->nc, sizeof(*m->c));
	if (!c)
		return NULL;
	m->c = c;
	c = &m->c[m->nc++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

static void _add_rule(struct imp *m, struct call *c, const struct rule *r)
{
	struct rule *v = _grow(m, c->r, &c->cap, c->n, sizeof(*c->r));

	if (!v)
		return;
	c->r = v;
	c->r[c->n] = *r;
	qsort(c->r[c->n].atoms, r->natoms, sizeof(r->atoms[0]),
	      (int (*)(const void *, const void *))ir_atom_cmp);
	c->n++;
}

/*
 * One libseccomp rule (conditions cv, ANDed) of entry ei for syscall sc:
 * the product of the conditions' alternatives. 0, or -1 (reported).
 */
static int _product(struct imp *m, int ei, int orule, const char *sc,
		    const struct cond *cv, size_t n, struct call *c)
{
	struct alts alts[ARGS_MAX];
	size_t total = 1, k;
	struct entry *e = &m->e[ei];

	for (size_t i = 0; i < n; i++) {
		unsigned width;
		char pos[8];

		snprintf(pos, sizeof(pos), "arg%u", cv[i].index);
		if (syscall_args_index(sc, pos, &width) < 0) {
			_err(m,
			     "syscalls[%d] (%s): %s takes no argument %u; "
			     "libseccomp would compare a register the kernel "
			     "does not read",
			     ei, sc, sc, cv[i].index);
			return -1;
		}
		if (width == 64)
			_cond64(&cv[i], &alts[i]);
		else {
			_cond32(&cv[i], &alts[i]);
			if (m->o->kernel_view)
				_kernel_view(&alts[i]);
		}
		total *= alts[i].n;
	}
	if (total == 0) {
		e->never = 1;
		return 0;
	}
	for (k = 0; k < total; k++) {
		struct rule r = {.act = e->act, .entry = ei, .orule = orule};
		size_t rest = k;

		r.scmp_all = n == 0;
		for (size_t i = 0; i < n; i++) {
			const struct alt *a = &alts[i].v[rest % alts[i].n];

			rest /= alts[i].n;
			if (r.natoms + a->n > IR_MAX_ATOMS) {
				_err(m,
				     "syscalls[%d] (%s): more than %d "
				     "argument tests in one rule",
				     ei, sc, IR_MAX_ATOMS);
				return -1;
			}
			for (uint32_t t = 0; t < a->n; t++)
				r.atoms[r.natoms++] = a->a[t];
			if (a->dirty && e->act.kind >= IR_ACT_LOG &&
			    ir_action_cmp(&e->act, &m->def) > 0)
				e->hole = 1;
		}
		_add_rule(m, c, &r);
	}
	return 0;
}

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
		_err(m, "syscalls[%d].args: %s, not an array", ei, _kind(args));
		return -1;
	}
	if (json_array_size(args) > ARGS_MAX) {
		_err(m, "syscalls[%d].args: more than %d conditions", ei,
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
			_err(m, "%s: %s, not an object", where, _kind(a));
			bad = 1;
			continue;
		}
		_keys(m, a, where, keys, 4);
		if (_uint(m, a, "index", where, 5, &idx)) {
			if (!_get(a, "index"))
				_err(m, "%s: no index", where);
			bad = 1;
		}
		if (_get(a, "value") &&
		    _uint(m, a, "value", where, UINT64_MAX, &c.v))
			bad = 1;
		if (_get(a, "valueTwo") &&
		    _uint(m, a, "valueTwo", where, UINT64_MAX, &c.v2))
			bad = 1;
		op = _string(m, a, "op", where);
		if (!op) {
			if (!_get(a, "op"))
				_err(m, "%s: no op", where);
			bad = 1;
		} else if ((c.op = oci_op_find(op)) < 0) {
			const char *close =
			    diag_closest(op, oci_op_names, OCI_OP_COUNT);

			if (close)
				_err(m,
				     "%s: unknown op '%s'; did you mean "
				     "'%s'?",
				     where, op, close);
			else
				_err(m, "%s: unknown op '%s'", where, op);
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
	json_t *names = _get(s, "names"), *v;
	const char *one = _string(m, s, "name", "syscalls[]");
	struct entry *e = &m->e[ei];
	size_t i;
	int bad = 0;

	*nx86 = 0;
	if (names && _get(s, "name")) {
		_err(m, "syscalls[%d]%s: both 'name' and 'names'", ei, e->who);
		return -1;
	}
	if (!names && !one) {
		_err(m, "syscalls[%d]: no names", ei);
		return -1;
	}
	if (names && !json_is_array(names)) {
		_err(m, "syscalls[%d].names: %s, not an array", ei,
		     _kind(names));
		return -1;
	}
	for (i = 0; names ? i < json_array_size(names) : i < 1; i++) {
		const char *n = one;

		if (names) {
			v = json_array_get(names, i);
			if (!json_is_string(v)) {
				_err(m,
				     "syscalls[%d].names[%zu]: %s, not a "
				     "string",
				     ei, i, _kind(v));
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
				_append(m, &e->names, " ", n);
			}
		} else if (syscall_elsewhere(n)) {
			_append(m, &e->elsewhere, " ", n);
		} else {
			static const char *all[SYSCALL_NR_LIMIT];
			unsigned na = syscall_count(SYSCALL_ARCH_X86_64);
			char *safe = _printable(m, n);
			const char *close;

			for (unsigned k = 0; k < na; k++)
				all[k] =
				    syscall_at(SYSCALL_ARCH_X86_64, k)->name;
			close = diag_closest(n, all, na);
			if (close)
				_err(m,
				     "syscalls[%d]%s: unknown syscall \'%s\'; "
				     "did you mean \'%s\'?",
				     ei, e->who, safe ? safe : "?", close);
			else
				_err(m,
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
	json_t *names = _get(s, "names"), *one = _get(s, "name"), *v;
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

static void _entry(struct imp *m, int ei, json_t *s)
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
		_err(m, "%s: %s, not an object", where, _kind(s));
		return;
	}
	_keys(m, s, where, keys, sizeof(keys) / sizeof(keys[0]));
	if ((comment = _string(m, s, "comment", where)))
		e->comment = _printable(m, comment);
	e->applies = 1;
	if ((f = _get(s, "includes"))) {
		int r = _filter(m, f, 1, where, &e->why, &e->cond);

		bad |= r < 0;
		e->applies &= r > 0;
	}
	if ((f = _get(s, "excludes"))) {
		int r = _filter(m, f, 0, where, &e->why, &e->cond);

		bad |= r < 0;
		e->applies &= r > 0;
	}
	bad |= _names(m, ei, s, x86, &nx86) != 0;
	bad |= _parse_args(m, ei, _get(s, "args"), cv, &ncv) != 0;
	has_errno = _get(s, "errnoRet") != NULL;
	if (has_errno && _uint(m, s, "errnoRet", where, UINT32_MAX, &errnum))
		bad = 1;
	act = _string(m, s, "action", where);
	if (!act) {
		if (!_get(s, "action"))
			_err(m, "%s: no action", where);
		return;
	}
	/* An entry for another container is checked, not translated. */
	if (_action(m, where, act, has_errno, errnum, &e->act) || bad ||
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
		struct call *c = _call(m, x86[k]);

		if (!c)
			return;
		if (!e->or_split) {
			if (_product(m, ei, 0, x86[k], cv, ncv, c))
				return;
			continue;
		}
		for (size_t i = 0; i < ncv; i++)
			if (_product(m, ei, (int)i, x86[k], &cv[i], 1, c))
				return;
	}
}

/* ---- libseccomp's outcome per syscall ---------------------------------- */

static int _same_atoms(const struct rule *a, const struct rule *b)
{
	if (a->natoms != b->natoms)
		return 0;
	for (uint32_t i = 0; i < a->natoms; i++)
		if (ir_atom_cmp(&a->atoms[i], &b->atoms[i]))
			return 0;
	return 1;
}

/* Can a and b hold at once? 1 yes, 0 no, -1 undecided or no memory. */
static int _overlap(const struct rule *a, const struct rule *b)
{
	struct ir_rule rules[2] = {{.natoms = a->natoms},
				   {.natoms = b->natoms}};
	struct ir_syscall sc = {.nrules = 2, .rules = rules};
	struct ir_words_rules rs = {0};
	struct ws_clause cl[2 * IR_MAX_ATOMS];
	struct ws_set *set = NULL;
	uint32_t w[WS_WORDS];
	size_t n = 0, budget = 1u << 14;
	int r = -1;

	memcpy(rules[0].atoms, a->atoms, sizeof(a->atoms));
	memcpy(rules[1].atoms, b->atoms, sizeof(b->atoms));
	rules[0].action = a->act;
	rules[1].action = b->act;
	if (ir_words_rules_build(&rs, &sc, IR_WORDS_LOW_FIRST) == 0 &&
	    ws_set_create(&set) == 0) {
		for (uint32_t k = 0; k < rs.n; k++)
			for (uint32_t i = 0; i < rs.r[k].natoms; i++)
				cl[n++] = rs.r[k].pos[i];
		r = ws_set_search(set, cl, n, &budget, w);
		r = r == WS_SAT ? 1 : r == WS_UNSAT ? 0 : -1;
	}
	ws_set_destroy(&set);
	ir_words_rules_free(&rs);
	return r;
}

static void _resolve(struct imp *m, struct call *c)
{
	const struct rule *first = NULL;
	char a1[32], a2[32];

	/* An unconditional libseccomp rule: the first one decides all. */
	for (size_t i = 0; i < c->n; i++) {
		struct rule *r = &c->r[i];

		if (!r->scmp_all)
			continue;
		if (!first) {
			first = r;
			continue;
		}
		if (ir_action_cmp(&r->act, &first->act))
			_err(m,
			     "syscalls[%d] and syscalls[%d]: %s gets %s and "
			     "then %s unconditionally; libseccomp keeps the "
			     "first and ignores the second",
			     first->entry, r->entry, c->name,
			     ir_action_str(&first->act, a1, sizeof(a1)),
			     ir_action_str(&r->act, a2, sizeof(a2)));
		r->drop = SAME_UNCOND;
		r->other = first->entry;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct rule *r = &c->r[i];

		if (r->drop || r == first)
			continue;
		if (first) {
			/* libseccomp drops the conditions for the
			 * unconditional rule; ours would let a stricter one
			 * win. */
			if (ir_action_cmp(&r->act, &first->act) < 0)
				_err(
				    m,
				    "syscalls[%d]: its %s rule for %s is "
				    "ignored by libseccomp, because "
				    "syscalls[%d] gives %s unconditionally",
				    r->entry,
				    ir_action_str(&r->act, a1, sizeof(a1)),
				    c->name, first->entry,
				    ir_action_str(&first->act, a2, sizeof(a2)));
			r->drop = ir_action_cmp(&r->act, &first->act)
				      ? UNCOND
				      : SAME_UNCOND;
			r->other = first->entry;
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			struct rule *q = &c->r[j];
			int ov;

			if (q->drop)
				continue;
			if (!ir_action_cmp(&r->act, &q->act)) {
				if (_same_atoms(r, q)) {
					r->drop = DUP;
					r->other = q->entry;
					break;
				}
				continue;
			}
			if (r->entry == q->entry && r->orule == q->orule)
				continue; /* alternatives of one rule */
			ov = _overlap(r, q);
			if (ov)
				_err(m,
				     "syscalls[%d] and syscalls[%d]: %s "
				     "%s %s and %s where both hold; libseccomp "
				     "does not define which wins",
				     q->entry, r->entry, c->name,
				     ov < 0 ? "may get" : "gets",
				     ir_action_str(&q->act, a1, sizeof(a1)),
				     ir_action_str(&r->act, a2, sizeof(a2)));
		}
	}
	/* An always-true rule of ours makes the others of its action
	 * redundant (sema would say "never applies"). */
	for (size_t i = 0; i < c->n; i++) {
		struct rule *u = &c->r[i];

		if (u->drop || u->natoms || u->scmp_all)
			continue;
		for (size_t j = 0; j < c->n; j++)
			if (j != i && !c->r[j].drop &&
			    !ir_action_cmp(&c->r[j].act, &u->act)) {
				c->r[j].drop = SAME_UNCOND;
				c->r[j].other = u->entry;
			}
	}
}

/* ---- Output ------------------------------------------------------------- */

static void _line(struct imp *m, enum line_kind k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void _line(struct imp *m, enum line_kind k, const char *fmt, ...)
{
	struct line *v = _grow(m, m->l, &m->capl, m->nl, sizeof(*m->l));
	va_list ap;
	char *t = NULL;

	if (!v)
		return;
	m->l = v;
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&t, fmt, ap) < 0) {
			m->oom = 1;
			t = NULL;
		}
		va_end(ap);
		if (!t)
			return;
	}
	m->l[m->nl++] = (struct line){k, t};
}

/* A comment, wrapped at words into lines of `# ` at depth 4. */
static void _comment(struct imp *m, int indent, const char *text)
{
	const char *p = text;
	int width = TEXT_COLS - indent - 2;

	while (*p) {
		int n = (int)strlen(p), cut = n;

		if (n > width) {
			for (cut = width; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = width;
		}
		_line(m, L_COMMENT, "%*s# %.*s", indent, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

/* `ACTION name name ...`, as many statements as it takes to wrap. */
static void _names_stmt(struct imp *m, const char *act, const char **v,
			size_t n)
{
	char buf[256];
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t w = strlen(v[i]) + 1;

		if (len && len + w > TEXT_COLS) {
			_line(m, L_STMT, "%s", buf);
			len = 0;
		}
		if (!len)
			len = (size_t)snprintf(buf, sizeof(buf), "    %s", act);
		len +=
		    (size_t)snprintf(buf + len, sizeof(buf) - len, " %s", v[i]);
	}
	if (len)
		_line(m, L_STMT, "%s", buf);
}

static void _number(char *buf, size_t len, uint64_t v)
{
	if (v < 4096)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

/* One atom as policy text, with the kernel's argument names. */
static void _atom_text(char *buf, size_t len, const char *sc,
		       const struct ir_atom *a)
{
	const struct syscall_args *sa = syscall_args_find(sc);
	int hi = a->width == 64 && !(uint32_t)a->mask && sa &&
		 a->arg < sa->nargs && sa->args[a->arg].width == 32;
	uint64_t full = hi		 ? 0xffffffffull
			: a->width == 32 ? 0xffffffffull
					 : UINT64_MAX;
	uint64_t mask = hi ? a->mask >> 32 : a->mask;
	uint64_t val = hi ? a->value >> 32 : a->value;
	char name[48], v[32];
	int n;

	if (sa && a->arg < sa->nargs)
		snprintf(name, sizeof(name), "%s%s", sa->args[a->arg].name,
			 hi ? ".hi" : "");
	else
		snprintf(name, sizeof(name), "arg%u", a->arg);
	n = snprintf(buf, len, "%s", name);
	if (mask != full)
		n += snprintf(buf + n, len - (size_t)n, " & 0x%llx",
			      (unsigned long long)mask);
	_number(v, sizeof(v), val);
	snprintf(buf + n, len - (size_t)n, " %s %s", ir_op_str(a->op), v);
}

static void _rule_stmt(struct imp *m, const char *sc, const struct rule *r)
{
	char act[32], text[IR_MAX_ATOMS * 64 + 64], atom[64];
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "    %s %s",
			     ir_action_str(&r->act, act, sizeof(act)), sc);
	for (uint32_t i = 0; i < r->natoms; i++) {
		_atom_text(atom, sizeof(atom), sc, &r->atoms[i]);
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
				      i ? " && " : " if ", atom);
	}
	_line(m, L_STMT, "%s", text);
}

static const char *const drop_text[] = {
    [DUP] = "the same rule as",
    [UNCOND] = "replaced by the unconditional rule of",
    [SAME_UNCOND] = "already given by",
};

/* Entry ei: its comment, then its statements, syscall by syscall. */
static void _emit_entry(struct imp *m, int ei)
{
	const struct entry *e = &m->e[ei];
	char head[96], *text = NULL, act[32];
	const char *uncond[SYSCALL_NR_LIMIT];
	size_t nu = 0;

	_line(m, L_BLANK, NULL);
	snprintf(head, sizeof(head), "syscalls[%d]", ei);
	_append(m, &text, "", head);
	if (e->cond) {
		_append(m, &text, " ", "(");
		_append(m, &text, "", e->cond);
		_append(m, &text, "", ")");
	}
	if (e->comment) {
		_append(m, &text, ": ", e->comment);
	}
	if (!e->applies) {
		_append(m, &text, ". ", "Not for this container:");
		_append(m, &text, " ", e->why ? e->why : "");
		if (e->names)
			_append(m, &text, " ", "(");
		if (e->names) {
			char *t = text;

			text = NULL;
			if (asprintf(&text, "%s%s)", t, e->names) < 0)
				m->oom = 1;
			free(t);
		}
	} else if (e->is_default) {
		_append(m, &text, ". ",
			"The default action, which runc skips:");
		_append(m, &text, " ", e->names ? e->names : "");
	} else if (e->never) {
		_append(m, &text, ". ", "Its conditions never hold:");
		_append(m, &text, " ", e->names ? e->names : "");
	} else if (e->or_split) {
		_append(m, &text, ". ",
			"Two conditions on one argument: runc adds each as a "
			"rule of its own, so they are joined by OR.");
	}
	if (e->elsewhere) {
		_append(m, &text, ". ",
			"Other arches' syscalls, none on x86_64:");
		_append(m, &text, " ", e->elsewhere);
	}
	if (text)
		_comment(m, 4, text);
	free(text);
	if (!e->applies || e->is_default || e->never)
		return;
	ir_action_str(&e->act, act, sizeof(act));
	/* Unconditional rules of this entry first, in one statement. */
	for (size_t k = 0; k < m->nc; k++) {
		const struct call *c = &m->c[k];

		for (size_t i = 0; i < c->n; i++)
			if (c->r[i].entry == ei && !c->r[i].drop &&
			    c->r[i].natoms == 0)
				uncond[nu++] = c->name;
	}
	_names_stmt(m, act, uncond, nu);
	for (size_t k = 0; k < m->nc; k++) {
		const struct call *c = &m->c[k];

		for (size_t i = 0; i < c->n; i++) {
			const struct rule *r = &c->r[i];
			char note[160];

			if (r->entry != ei)
				continue;
			if (r->drop) {
				snprintf(note, sizeof(note),
					 "%s: %s syscalls[%d]", c->name,
					 drop_text[r->drop], r->other);
				_comment(m, 4, note);
			} else if (r->natoms) {
				_rule_stmt(m, c->name, r);
			}
		}
	}
}

static void _header(struct imp *m)
{
	char *caps = NULL, *text = NULL;

	for (size_t i = 0; i < m->ncaps; i++)
		_append(m, &caps, " ", m->caps[i]);
	if (asprintf(&text,
		     "Imported by polc import oci (polc %s) from %s, for "
		     "x86_64: a container with the capabilities %s, on "
		     "Linux %u.%u. Every entry of the profile is here, as "
		     "runc reads it (docs/OCI.md)%s. polc adds its egress "
		     "companions (docs/LANGUAGE.md).",
		     POLC_VERSION, m->at.file->path, caps ? caps : "(none)",
		     m->kmaj, m->kmin,
		     m->o->kernel_view
			 ? "; int arguments are compared as the kernel reads "
			   "them (--int-args kernel), not on 64 bits"
			 : "") < 0)
		m->oom = 1;
	else {
		char *safe = _printable(m, text);

		if (safe)
			_comment(m, 0, safe);
		free(safe);
	}
	free(text);
	free(caps);
}

/* Drop the blank lines polc fmt would drop, so fmt changes nothing. */
static int _write(struct imp *m, FILE *out)
{
	int last_stmt = 0;

	for (size_t i = 0; i < m->nl; i++) {
		const struct line *l = &m->l[i];

		if (l->kind == L_BLANK) {
			size_t j = i + 1;

			while (j < m->nl && m->l[j].kind == L_COMMENT)
				j++;
			if (last_stmt && j < m->nl && m->l[j].kind == L_STMT &&
			    m->l[i + 1].kind != L_BLANK)
				fputc('\n', out);
			continue;
		}
		fprintf(out, "%s\n", l->text);
		last_stmt = l->kind == L_STMT;
	}
	return ferror(out) ? -1 : 0;
}

/* ---- The profile -------------------------------------------------------- */

static void _arches(struct imp *m, json_t *root)
{
	json_t *list = _get(root, "architectures");
	json_t *map = _get(root, "archMap"), *v;
	size_t i;

	if (list && map) {
		_err(m, "both 'architectures' and 'archMap' (moby refuses "
			"the profile)");
		return;
	}
	if (list && !json_is_array(list)) {
		_err(m, "architectures: %s, not an array", _kind(list));
		return;
	}
	if (map && !json_is_array(map)) {
		_err(m, "archMap: %s, not an array", _kind(map));
		return;
	}
	json_array_foreach(list, i, v)
	{
		const char *a = json_string_value(v);

		if (!a || !oci_arch_known(a)) {
			_err(m, "architectures[%zu]: not an SCMP_ARCH_ name",
			     i);
			continue;
		}
		_append(m, &m->arches, ", ", a);
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
			_err(m, "%s: %s, not an object", where, _kind(v));
			continue;
		}
		_keys(m, v, where, keys, 2);
		a = _string(m, v, "architecture", where);
		subs = _get(v, "subArchitectures");
		if (!a || !oci_arch_known(a)) {
			_err(m, "%s.architecture: not an SCMP_ARCH_ name",
			     where);
			continue;
		}
		if (subs && !json_is_array(subs)) {
			_err(m, "%s.subArchitectures: %s, not an array", where,
			     _kind(subs));
			continue;
		}
		json_array_foreach(subs, k, s)
		{
			const char *sa = json_string_value(s);

			if (!sa || !oci_arch_known(sa)) {
				_err(m,
				     "%s.subArchitectures[%zu]: not an "
				     "SCMP_ARCH_ name",
				     where, k);
				continue;
			}
			if (!strcmp(a, OCI_ARCH_X86_64)) {
				_append(m, &m->arches, ", ", sa);
				m->subarches = 1;
			}
		}
		if (!strcmp(a, OCI_ARCH_X86_64))
			_append(m, &m->arches, ", ", a);
	}
}

static void _top(struct imp *m, json_t *root)
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
		_err(m, "the profile is %s, not an object", _kind(root));
		return;
	}
	_keys(m, root, "the profile", keys, sizeof(keys) / sizeof(keys[0]));
	has_errno = _get(root, "defaultErrnoRet") != NULL;
	if (has_errno && _uint(m, root, "defaultErrnoRet", "the profile",
			       UINT32_MAX, &errnum))
		has_errno = -1;
	def = _string(m, root, "defaultAction", "the profile");
	if (!def && !_get(root, "defaultAction"))
		_err(m, "no defaultAction (Docker would run the container "
			"without seccomp, or refuse it)");
	if (def && has_errno >= 0 &&
	    !_action(m, "defaultAction", def, has_errno, errnum, &m->def))
		m->def_ok = 1;
	_arches(m, root);
	flags = _get(root, "flags");
	if (flags && !json_is_array(flags))
		_err(m, "flags: %s, not an array", _kind(flags));
	json_array_foreach(json_is_array(flags) ? flags : NULL, i, v)
	{
		const char *fl = json_string_value(v);

		if (fl && !strcmp(fl, "SECCOMP_FILTER_FLAG_TSYNC"))
			continue; /* polexec's box is one thread at exec */
		_err(m, "flags[%zu]: %s: polc has no such filter flag", i,
		     fl ? fl : _kind(v));
	}
	if ((s = _string(m, root, "listenerPath", "the profile")) && *s)
		_err(m, "listenerPath: a seccomp agent, which polc does not "
			"have");
	if ((s = _string(m, root, "listenerMetadata", "the profile")) && *s)
		_err(m, "listenerMetadata: a seccomp agent, which polc does "
			"not have");
	calls = _get(root, "syscalls");
	if (calls && !json_is_array(calls)) {
		_err(m, "syscalls: %s, not an array", _kind(calls));
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
		_entry(m, (int)i, v);
	}
	for (i = 0; i < m->nc; i++)
		_resolve(m, &m->c[i]);
}

/* What the policy is called: the profile's file name, made an identifier
 * of letters, digits, '_', '-' and '.'. */
static char *_policy_name(struct imp *m)
{
	const char *in = m->at.file->path, *base = strrchr(in, '/');
	char *n;
	size_t k;

	if (m->o->name)
		base = m->o->name;
	else
		base = base ? base + 1 : in;
	n = strdup(*base ? base : "imported");
	if (!n) {
		m->oom = 1;
		return NULL;
	}
	k = strlen(n);
	if (!m->o->name && k > 5 && !strcmp(n + k - 5, ".json"))
		n[k - 5] = '\0';
	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		      *p == '.'))
			*p = '_';
	return n;
}

static void _policy(struct imp *m)
{
	char act[32], bad[32], *name = _policy_name(m), *text = NULL;
	struct ir_action badarch = {IR_ACT_KILL_THREAD, 0};

	_header(m);
	_line(m, L_STMT, "policy \"%s\" {", name ? name : "imported");
	free(name);
	_line(m, L_STMT, "  syscalls default %s {",
	      ir_action_str(&m->def, act, sizeof(act)));
	if (asprintf(&text,
		     "The profile's arches for x86_64: %s. polc compiles for "
		     "x86_64 alone: every other arch gets the badarch action, "
		     "%s, which is what libseccomp does with an arch a "
		     "filter does not list%s.",
		     m->arches ? m->arches : "(none: the native one)",
		     ir_action_str(&badarch, bad, sizeof(bad)),
		     m->subarches ? "; the profile's i386 and x32 rules are "
				    "not kept"
				  : "") < 0)
		m->oom = 1;
	else
		_comment(m, 4, text);
	free(text);
	_line(m, L_STMT, "    badarch %s", bad);
	for (size_t i = 0; i < m->ne; i++)
		_emit_entry(m, (int)i);
	_line(m, L_CLOSE, "  }");
	_line(m, L_CLOSE, "}");
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

/* The JSON parser's error at its place in the file. */
static void _json_error(struct imp *m, const struct src_file *src,
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

/* The container's capabilities: Docker's defaults and --cap. */
static int _caps(struct imp *m)
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
	if (!o->kernel || _kernel(o->kernel, &m.kmaj, &m.kmin)) {
		diag_error(d, none, "--kernel %s: not MAJOR.MINOR",
			   o->kernel ? o->kernel : "");
		goto out;
	}
	m.at = (struct loc){src, 0, 0};
	if (_caps(&m))
		goto out;
	root = oci_json_loadb(src->text, src->len, &je);
	if (!root) {
		_json_error(&m, src, &je);
		goto out;
	}
	_top(&m, root);
	if (m.oom || d->oom) {
		diag_error(d, none, "out of memory");
		goto out;
	}
	if (d->errors)
		goto out;
	_policy(&m);
	mem = open_memstream(&text, &len);
	if (!mem || m.oom || _write(&m, mem) || fclose(mem)) {
		diag_error(d, none, "out of memory");
		goto out;
	}
	if (_self_check(text, len, report)) {
		rc = 3;
		goto out;
	}
	for (size_t i = 0; i < m.ne; i++)
		if (m.e[i].hole)
			_warn(
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

/* The policy to -o FILE by output.c's rule, or to stdout (none, or -). */
static int _output(const char *path, const char *text, size_t len,
		   struct diag *d)
{
	struct loc none = {0};
	char err[256];
	int rc =
	    !path || !strcmp(path, "-")
		? output_write_fd(STDOUT_FILENO, text, len, err, sizeof(err))
		: output_write(path, text, len, err, sizeof(err));

	if (rc)
		diag_error(d, none, "import: %s: %s", path ? path : "stdout",
			   err);
	return rc;
}

int import_oci(const struct oci_import_opts *o)
{
	const struct src_file *src;
	struct loc none = {0};
	struct diag d;
	char *text = NULL;
	size_t len = 0;
	int rc = 2;

	diag_init(&d);
	if (o->max_errors >= 0)
		d.max_errors = o->max_errors;
	src = diag_load_file(&d, o->input, none);
	if (src)
		rc = import_oci_text(o, src, &d, &text, &len, stderr);
	if (!rc && _output(o->output, text, len, &d))
		rc = 2;
	diag_print(&d, stderr);
	diag_fini(&d);
	free(text);
	return rc;
}
