/* SPDX-License-Identifier: MIT */
/*
 * Phase 3g: OBSERVE (artifact/sections.h), decoded as hostile input like
 * every other section. The section is not critical, but one that is
 * present and malformed is a refusal: an artifact polc did not write is
 * not run. After it, p->obs holds three programs that sbpf_check()
 * accepts, names of [a-z0-9_] for numbers below OBS_MAX_NR, constant
 * tables of [A-Za-z0-9_] names, rule texts without control characters
 * sorted by code, and a normalized workspace path, or p->obs is NULL.
 */
#include "observe.h"
#include "sbpf.h"

#include <string.h>

struct rd {
	const uint8_t *d;
	size_t len;
};

/* Every defect is one refusal naming the part: polc writes none. */
static _Noreturn void bad(const char *what)
{
	die("artifact: observe: malformed %s", what);
}

static int name_ok(const uint8_t *s, size_t n, int upper)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t c = s[i];

		/* syscalls are lower case; constants mostly upper
		 * (AF_DECnet) */
		if (!((c >= '0' && c <= '9') || c == '_' ||
		      (c >= 'a' && c <= 'z') ||
		      (upper && c >= 'A' && c <= 'Z')))
			return 0;
	}
	return n > 0;
}

static void program(struct obs_spec *o, int which, struct rd r)
{
	static const char *const names[] = {"notify", "learn", "explain"};
	uint32_t n = (uint32_t)(r.len / 8);
	unsigned at;

	if (o->prog[which] || r.len % 8 || n < 1 ||
	    n > POLBIN_SECCOMP_MAX_INSNS)
		bad(names[which]);
	/* x86_64 only (kernel.h): the bytes are struct sock_filter's. */
	o->prog[which] = xcalloc(n, sizeof(struct sock_filter));
	memcpy(o->prog[which], r.d, r.len);
	if (sbpf_check(o->prog[which], n, &at))
		die("artifact: observe: %s program: instruction %u is not "
		    "one polc emits",
		    names[which], at);
	o->nprog[which] = (unsigned short)n;
}

static void syscall_rec(struct obs_spec *o, struct rd r, int *last)
{
	struct obs_call *c;
	unsigned nr, i;

	if (r.len < 10 || r.len != 10u + r.d[3] || r.d[3] > 40 ||
	    !name_ok(r.d + 10, r.d[3], 0))
		bad("syscall name");
	nr = polbin_le16(r.d);
	if (nr >= OBS_MAX_NR || (int)nr <= *last ||
	    (r.d[2] > 6 && r.d[2] != POLBIN_OBS_NARGS_UNKNOWN))
		bad("syscall number");
	*last = (int)nr;
	c = xcalloc(1, sizeof(*c));
	memcpy(c->name, r.d + 10, r.d[3]);
	c->nargs = r.d[2];
	for (i = 0; i < 6; i++) {
		c->fmt[i] = r.d[4 + i];
		if ((c->fmt[i] & 0xf) >= POLBIN_OBS_ARG_KINDS ||
		    (c->fmt[i] && i >= c->nargs))
			bad("argument format");
	}
	o->call[nr] = c;
}

static void const_rec(struct obs_spec *o, struct rd r, int *last)
{
	struct obs_table *t;
	size_t off = 8;
	uint32_t i;

	if (r.len < 8 || r.d[0] == 0 || r.d[0] >= OBS_MAX_TABLES ||
	    r.d[0] <= *last || r.d[1] > POLBIN_OBS_CONST_ENUM_LOW ||
	    polbin_le16(r.d + 2) > OBS_MAX_CONSTS)
		bad("constant table");
	*last = r.d[0];
	t = &o->table[r.d[0]];
	t->kind = r.d[1];
	t->n = polbin_le16(r.d + 2);
	t->low_mask = polbin_le32(r.d + 4);
	t->c = xcalloc(t->n, sizeof(*t->c));
	for (i = 0; i < t->n; i++) {
		size_t n;

		if (r.len - off < 9)
			bad("constant table");
		n = r.d[off + 8];
		if (n > 63 || n > r.len - off - 9 ||
		    !name_ok(r.d + off + 9, n, 1))
			bad("constant name");
		t->c[i].value = polbin_le64(r.d + off);
		t->c[i].name = xstrndup((const char *)r.d + off + 9, n);
		off += 9 + n;
	}
	if (off != r.len)
		bad("constant table");
}

static void rule_rec(struct obs_spec *o, struct rd r)
{
	struct obs_rule *ru;
	uint32_t code;
	size_t n;

	if (r.len < 10 || (n = polbin_le16(r.d + 8)) != r.len - 10 ||
	    n > 1024 || memchr(r.d + 10, 0, n) || r.d[4] & ~1u || r.d[5] > 5 ||
	    polbin_le16(r.d + 6) > 4095 || o->nrules >= OBS_MAX_RULES)
		bad("rule text");
	code = polbin_le32(r.d);
	if (o->nrules && code <= o->rules[o->nrules - 1].code)
		bad("rule code");
	if (!(o->nrules & (o->nrules - 1))) {
		/* grow at powers of two; the old block is not reused */
		struct obs_rule *nr =
		    xcalloc(o->nrules ? 2 * o->nrules : 1, sizeof(*nr));

		if (o->nrules)
			memcpy(nr, o->rules, o->nrules * sizeof(*nr));
		o->rules = nr;
	}
	ru = &o->rules[o->nrules++];
	ru->code = code;
	ru->flags = r.d[4];
	ru->kind = r.d[5];
	ru->errnum = polbin_le16(r.d + 6);
	ru->text = xstrndup((const char *)r.d + 10, n);
	strip_controls(ru->text);
}

void observe_decode(const char *path, struct policy *p)
{
	const struct polbin_section *s =
	    polbin_find(&p->pb, POLBIN_SEC_OBSERVE);
	struct obs_spec *o;
	int last_sys = -1, last_const = 0;
	unsigned last_tag = 0;
	size_t off = 8;

	if (!s)
		return;
	if (!p->nfilter)
		die("artifact: %s: an observe section without a seccomp one",
		    path);
	if (s->len < 8 || polbin_le32(s->data) != POLBIN_OBS_VERSION ||
	    polbin_le32(s->data + 4) & ~POLBIN_OBS_F_ALL)
		bad("header (version or flags)");
	o = xcalloc(1, sizeof(*o));
	o->flags = polbin_le32(s->data + 4);
	while (off < s->len) {
		unsigned tag;
		struct rd r;
		size_t pad;

		if (s->len - off < 8 || polbin_le16(s->data + off + 2))
			bad("record header");
		tag = polbin_le16(s->data + off);
		r.len = polbin_le32(s->data + off + 4);
		off += 8;
		pad = (4 - r.len % 4) % 4;
		if (r.len > s->len - off || pad > s->len - off - r.len ||
		    tag < last_tag || !tag || tag > POLBIN_OBS_WORKSPACE)
			bad("record");
		r.d = s->data + off;
		for (size_t i = 0; i < pad; i++)
			if (r.d[r.len + i])
				bad("padding");
		off += r.len + pad;
		if (tag <= POLBIN_OBS_EXPLAIN)
			program(o, (int)tag - 1, r);
		else if (tag == POLBIN_OBS_SYSCALL)
			syscall_rec(o, r, &last_sys);
		else if (tag == POLBIN_OBS_CONST)
			const_rec(o, r, &last_const);
		else if (tag == POLBIN_OBS_RULE)
			rule_rec(o, r);
		else if (o->workspace || r.len == 0 || r.len > 4095 ||
			 memchr(r.d, 0, r.len) ||
			 !ll_path_ok(o->workspace =
					 xstrndup((const char *)r.d, r.len)))
			bad("workspace");
		last_tag = tag;
	}
	if (!o->prog[0] || !o->prog[1] || !o->prog[2])
		bad("section: a program is missing");
	o->present = 1;
	p->obs = o;
}

const struct obs_rule *obs_rule_of(const struct obs_spec *o, uint32_t code)
{
	uint32_t lo = 0, hi = o->nrules;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o->rules[mid].code == code)
			return &o->rules[mid];
		if (o->rules[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
