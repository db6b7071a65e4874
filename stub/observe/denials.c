/* SPDX-License-Identifier: MIT */
/*
 * What the box was denied, and its destructive calls, in the run record
 * (docs/OBSERVE.md). Both tables have a fixed size: a denial is one entry
 * per distinct call (syscall, deciding rule, and the arguments shown as
 * names or numbers: not pointers, sizes or descriptors) with a count and
 * the time it was first seen; a flood of one denied call is one entry.
 * What does not fit is counted, never lost silently. The words come from
 * the OBSERVE section's tables; with --explain each distinct denial is
 * also one line on stderr when it is first seen.
 */
#include "observe.h"
#include "lib/kernel.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NBUCKETS 2048 /* > 2 * OBS_MAX_DENIALS */

/* What makes two denials one: compared and hashed as bytes. */
struct dkey {
	uint64_t key[6]; /* the arguments shown as names or numbers */
	uint64_t rights;
	uint32_t arch, nr, code;
	uint8_t layer, learned, pad[2];
};

struct denial {
	struct dkey k;
	uint8_t told;
	uint32_t ret;
	uint64_t args[6];
	char *path;  /* seccomp: the first path argument, read */
	char *what;  /* landlock: the path; net: the destination */
	char *extra; /* landlock: where it was seen; net: the host name */
	uint64_t rights;
	uint32_t count;
	uint64_t first_ns;
	int32_t next;
};

struct side {
	uint32_t nr;
	uint64_t ns;
	char *path, *path2;
	char flags[160];
};

static struct {
	struct denial d[OBS_MAX_DENIALS];
	uint32_t n;
	uint64_t dropped;
	int32_t bucket[NBUCKETS];
	int init;
	struct side s[OBS_MAX_SIDE];
	uint32_t ns;
	uint64_t side_dropped;
	char notes[4][240];
	unsigned nnotes;
} T;

void obs_note(const char *fmt, ...)
{
	va_list ap;

	if (T.nnotes >= 4)
		return;
	va_start(ap, fmt);
	vsnprintf(T.notes[T.nnotes++], sizeof(T.notes[0]), fmt, ap);
	va_end(ap);
}

/* --- words ---------------------------------------------------------------- */

static void add(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static const char *const_name(const struct obs_table *t, uint64_t v,
			      uint64_t within)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->c[i].value == v && !(t->c[i].value & ~within))
			return t->c[i].name;
	return NULL;
}

/* Names of the bits of v (greedy, most bits first), the rest in hex. */
static void flags_of(const struct obs_table *t, uint64_t v, char *buf,
		     size_t len, const char *sep)
{
	uint32_t i;

	for (i = 0; i < t->n && v; i++) {
		uint64_t c = t->c[i].value;

		if (c && (v & c) == c) {
			add(buf, len, "%s%s", sep, t->c[i].name);
			sep = "|";
			v &= ~c;
		}
	}
	if (v)
		add(buf, len, "%s0x%llx", sep, (unsigned long long)v);
}

static void table_value(const struct obs_table *t, uint64_t v, char *buf,
			size_t len)
{
	const char *name;

	if (!t->n) {
		add(buf, len, "0x%llx", (unsigned long long)v);
		return;
	}
	if (t->kind == POLBIN_OBS_CONST_ENUM) {
		name = const_name(t, v, ~0ull);
		if (name)
			add(buf, len, "%s", name);
		else
			add(buf, len, "%lld", (long long)v);
	} else if (t->kind == POLBIN_OBS_CONST_FLAGS) {
		if (!v)
			add(buf, len, "0");
		flags_of(t, v, buf, len, "");
	} else {
		uint64_t low = v & t->low_mask;

		name = const_name(t, low, t->low_mask);
		if (name)
			add(buf, len, "%s", name);
		else
			add(buf, len, "%llu", (unsigned long long)low);
		flags_of(t, v & ~(uint64_t)t->low_mask, buf, len, "|");
	}
}

/* One argument of a call, as the OBSERVE formats say. */
static void arg_text(const struct obs_spec *o, uint8_t fmt, uint64_t v,
		     const char *path, char *buf, size_t len)
{
	switch (fmt & 0xf) {
	case POLBIN_OBS_ARG_INT:
	case POLBIN_OBS_ARG_FD:
		add(buf, len, "%d", (int)(uint32_t)v);
		break;
	case POLBIN_OBS_ARG_DIRFD:
		if ((int)(uint32_t)v == -100)
			add(buf, len, "AT_FDCWD");
		else
			add(buf, len, "%d", (int)(uint32_t)v);
		break;
	case POLBIN_OBS_ARG_PATH:
		if (path)
			add(buf, len, "\"%.*s\"", 200, path);
		else
			add(buf, len, "0x%llx", (unsigned long long)v);
		break;
	case POLBIN_OBS_ARG_SIZE:
		add(buf, len, "%llu", (unsigned long long)v);
		break;
	case POLBIN_OBS_ARG_ENUM:
	case POLBIN_OBS_ARG_FLAGS:
		table_value(&o->table[fmt >> 4], v, buf, len);
		break;
	case POLBIN_OBS_ARG_MODE: {
		/* octal, as modes are written; libc.c has no %o */
		char oct[24], *e = oct + sizeof(oct) - 1;

		*e = '\0';
		do
			*--e = (char)('0' + (v & 7));
		while ((v >>= 3) && e > oct + 1);
		if (e[0] != '0')
			*--e = '0';
		add(buf, len, "%s", e);
		break;
	}
	default:
		add(buf, len, "0x%llx", (unsigned long long)v);
	}
}

static const struct obs_call *call_of(uint32_t arch, uint32_t nr)
{
	if (arch != POLEXEC_AUDIT_ARCH || nr >= OBS_MAX_NR)
		return NULL;
	return obs.o->call[nr];
}

/* "socket(AF_INET6, SOCK_DGRAM, 0)"; foreign arches by number. */
static void call_text(uint32_t arch, uint32_t nr, const uint64_t args[6],
		      const char *path, char *buf, size_t len)
{
	const struct obs_call *c = call_of(arch, nr);
	int first_path = 1;
	unsigned i;

	buf[0] = '\0';
	if (arch != POLEXEC_AUDIT_ARCH) {
		add(buf, len, "%s syscall %u",
		    arch == 0x40000003u ? "i386" : "foreign-arch", nr);
		return;
	}
	if (nr & 0x40000000u) {
		add(buf, len, "x32 syscall %u", nr & ~0x40000000u);
		return;
	}
	if (!c) {
		add(buf, len, "syscall %u", nr);
		return;
	}
	add(buf, len, "%s(", c->name);
	if (c->nargs == POLBIN_OBS_NARGS_UNKNOWN) {
		add(buf, len, "...)");
		return;
	}
	for (i = 0; i < c->nargs; i++) {
		int is_path = (c->fmt[i] & 0xf) == POLBIN_OBS_ARG_PATH;

		if (i)
			add(buf, len, ", ");
		arg_text(obs.o, c->fmt[i], args[i],
			 is_path && first_path ? path : NULL, buf, len);
		first_path &= !is_path;
	}
	add(buf, len, ")");
}

/* "errno(EACCES)", "kill_process": the action a value stands for. */
static void action_text(uint32_t ret, char *buf, size_t len)
{
	static const struct {
		uint32_t ret;
		char name[16];
	} acts[] = {{SECCOMP_RET_KILL_PROCESS, "kill_process"},
		    {SECCOMP_RET_TRAP, "trap"},
		    {SECCOMP_RET_LOG, "log"},
		    {SECCOMP_RET_ALLOW, "allow"}};
	const char *e;
	size_t i;

	buf[0] = '\0';
	if ((ret & 0xffff0000u) == SECCOMP_RET_ERRNO) {
		e = const_name(&obs.o->table[POLBIN_OBS_TABLE_ERRNO],
			       ret & 0xffffu, ~0ull);
		add(buf, len, e ? "errno(%s)" : "errno(%.0s%u)", e ? e : "",
		    ret & 0xffffu);
		return;
	}
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if ((ret & 0xffff0000u) == acts[i].ret)
			break;
	add(buf, len, "%s", i < 4 ? acts[i].name : "kill_thread");
}

static const char *rule_by(uint32_t code)
{
	const struct obs_rule *r = obs_rule_of(obs.o, code);

	if (code == 0)
		return "default";
	if (code == 1)
		return "badarch";
	return r && r->flags & POLBIN_OBS_RULE_COMPANION ? "companion" : "rule";
}

static void rights_text(uint64_t rights, char *buf, size_t len, const char *sep)
{
	const char *s = "";
	unsigned i;

	for (i = 0; i < 16; i++)
		if (rights >> i & 1) {
			add(buf, len, "%s%s", s, ll_fs_names[i]);
			s = sep;
		}
}

/* A seccomp denial's call and action in words, and its rule's text. */
static const char *seccomp_words(const struct denial *d, char *what,
				 size_t wlen, char *how, size_t hlen)
{
	const struct obs_rule *r = obs_rule_of(obs.o, d->k.code);

	call_text(d->k.arch, d->k.nr, d->args, d->path, what, wlen);
	action_text(d->ret, how, hlen);
	return r ? r->text : "";
}

/* One --explain line for a denial, on stderr. */
static void tell(struct denial *d)
{
	char what[600], how[300] = "";

	d->told = 1;
	if (!obs.explain)
		return;
	if (d->k.layer == OBS_LAYER_SECCOMP) {
		const char *rule =
		    seccomp_words(d, what, sizeof(what), how, sizeof(how));

		add(how, sizeof(how), " (seccomp %s: %s)", rule_by(d->k.code),
		    rule);
	} else if (d->k.layer == OBS_LAYER_LANDLOCK) {
		snprintf(what, sizeof(what), "%.400s", d->what);
		rights_text(d->k.rights, how, sizeof(how), ",");
		add(how, sizeof(how), " (landlock, %s)", d->extra);
	} else {
		snprintf(what, sizeof(what), "connect %.200s %.200s", d->what,
			 d->extra ? d->extra : "");
		snprintf(how, sizeof(how), "%s (net: not in the allowlist)",
			 d->path);
	}
	out(STDERR_FILENO, "polexec: %s: %s: %s\n",
	    d->k.learned ? "learn: would deny" : "denied", what, how);
}

void obs_flush_explain(void)
{
	uint32_t i;

	for (i = 0; i < T.n; i++)
		if (!T.d[i].told)
			tell(&T.d[i]);
}

void obs_explain_end(void)
{
	obs.defer_explain = 0;
	obs_flush_explain();
}

/* The i-th argument of a call as an absolute path, its dirfd the
 * argument before it when that is one. */
static int arg_path(const struct seccomp_notif *n, const struct obs_call *c,
		    unsigned i, char *out, size_t len)
{
	int dir = i && (c->fmt[i - 1] & 0xf) == POLBIN_OBS_ARG_DIRFD
		      ? (int)i - 1
		      : -1;

	if ((c->fmt[i] & 0xf) == POLBIN_OBS_ARG_FD)
		return obs_path(n, -1, -1, (int)i, out, len);
	return obs_path(n, (int)i, dir, -1, out, len);
}

/* --- the table ---------------------------------------------------------- */

static uint32_t hash(const struct denial *d)
{
	const uint8_t *b = (const uint8_t *)&d->k;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(d->k); i++)
		h = (h ^ b[i]) * 16777619u;
	for (b = (const uint8_t *)d->what; b && *b; b++)
		h = (h ^ *b) * 16777619u;
	return h % NBUCKETS;
}

static int same(const struct denial *a, const struct denial *b)
{
	return !memcmp(&a->k, &b->k, sizeof(a->k)) &&
	       !strcmp(a->what ? a->what : "", b->what ? b->what : "");
}

/* Counts d when known; else keeps a copy of it (strings copied) when
 * there is room. Returns the entry, or NULL when it was new and the
 * table full, or when it was already known. */
static struct denial *keep(const struct denial *d)
{
	uint32_t h = hash(d);
	struct denial *e;
	int32_t i;

	if (!T.init) {
		memset(T.bucket, -1, sizeof(T.bucket));
		T.init = 1;
	}
	for (i = T.bucket[h]; i >= 0; i = T.d[i].next)
		if (same(&T.d[i], d)) {
			T.d[i].count++;
			return NULL;
		}
	if (T.n >= OBS_MAX_DENIALS) {
		T.dropped++;
		return NULL;
	}
	e = &T.d[T.n];
	*e = *d;
	e->what = d->what ? xstrndup(d->what, strlen(d->what)) : NULL;
	e->extra = d->extra ? xstrndup(d->extra, strlen(d->extra)) : NULL;
	e->count = 1;
	e->first_ns = monotonic_ns();
	e->next = T.bucket[h];
	T.bucket[h] = (int32_t)T.n++;
	return e;
}

void obs_seccomp(const struct seccomp_notif *n, uint32_t ret, uint32_t code,
		 int learned)
{
	const struct obs_call *c = call_of(n->data.arch, (uint32_t)n->data.nr);
	struct denial d, *e;
	char path[4096];
	unsigned i;

	memset(&d, 0, sizeof(d));
	d.k.layer = OBS_LAYER_SECCOMP;
	d.k.learned = (uint8_t)learned;
	d.k.arch = n->data.arch;
	d.k.nr = (uint32_t)n->data.nr;
	d.ret = ret;
	d.k.code = code;
	for (i = 0; i < 6; i++) {
		uint8_t k = c && i < c->nargs ? c->fmt[i] & 0xf : 0;

		d.args[i] = n->data.args[i];
		if (k == POLBIN_OBS_ARG_INT || k == POLBIN_OBS_ARG_ENUM ||
		    k == POLBIN_OBS_ARG_FLAGS || k == POLBIN_OBS_ARG_MODE)
			d.k.key[i] = n->data.args[i];
	}
	e = keep(&d);
	if (!e)
		return;
	for (i = 0; c && c->nargs <= 6 && i < c->nargs; i++)
		if ((c->fmt[i] & 0xf) == POLBIN_OBS_ARG_PATH) {
			if (!arg_path(n, c, i, path, sizeof(path)))
				e->path = xstrndup(path, strlen(path));
			break;
		}
	if (!obs.defer_explain)
		tell(e);
}

void obs_fs(const char *path, uint64_t rights, int learned, const char *src)
{
	struct denial d, *e;

	memset(&d, 0, sizeof(d));
	d.k.layer = OBS_LAYER_LANDLOCK;
	d.k.learned = (uint8_t)learned;
	d.k.rights = rights;
	d.what = (char *)(uintptr_t)path;
	d.extra = (char *)(uintptr_t)src;
	e = keep(&d);
	if (e && !obs.defer_explain)
		tell(e);
}

void obs_net(const char *dest, const char *host, const char *what)
{
	struct denial d, *e;

	memset(&d, 0, sizeof(d));
	d.k.layer = OBS_LAYER_NET;
	d.what = (char *)(uintptr_t)dest;
	d.extra = (char *)(uintptr_t)host;
	e = keep(&d);
	if (e) {
		e->path = xstrndup(what, strlen(what));
		if (!obs.defer_explain)
			tell(e);
	}
}

/* --- side effects ------------------------------------------------------ */

void obs_side_of(const struct seccomp_notif *n)
{
	const struct obs_call *c = call_of(n->data.arch, (uint32_t)n->data.nr);
	char path[4096], shown[80];
	struct side *s;
	unsigned i, k = 0;

	if (!c || c->nargs > 6)
		return;
	if (T.ns >= OBS_MAX_SIDE) {
		T.side_dropped++;
		return;
	}
	s = &T.s[T.ns++];
	s->nr = (uint32_t)n->data.nr;
	s->ns = monotonic_ns();
	/* The paths (or ftruncate's descriptor) and the flags. */
	for (i = 0; i < c->nargs && k < 2; i++) {
		unsigned kind = c->fmt[i] & 0xf;

		if (kind == POLBIN_OBS_ARG_FLAGS && n->data.args[i])
			arg_text(obs.o, c->fmt[i], n->data.args[i], NULL,
				 s->flags, sizeof(s->flags));
		if (kind != POLBIN_OBS_ARG_PATH && kind != POLBIN_OBS_ARG_FD)
			continue;
		if (arg_path(n, c, i, path, sizeof(path)) == 0)
			obs_shown(path, shown, sizeof(shown));
		else
			snprintf(shown, sizeof(shown), "unreadable");
		*(k++ ? &s->path2 : &s->path) = xstrndup(shown, strlen(shown));
	}
}

/* --- the record --------------------------------------------------------- */

static void put_ms(struct text *t, const char *key, uint64_t ns)
{
	uint64_t rel = ns > obs.start_ns ? ns - obs.start_ns : 0;

	text_add(t, ",\"%s\":%llu.%03llu", key,
		 (unsigned long long)(rel / 1000000),
		 (unsigned long long)(rel / 1000 % 1000));
}

/* `"key":"value"` after `sep`, the value JSON-escaped; NULL: nothing. */
static void js(struct text *t, const char *sep, const char *key, const char *v)
{
	if (!v)
		return;
	text_add(t, "%s\"%s\":", sep, key);
	text_json(t, v);
}

static void put_denial(struct text *t, const struct denial *d)
{
	static const char *const layers[] = {"seccomp", "landlock", "net"};
	char buf[800], how[64];
	unsigned i;

	js(t, "{", "layer", layers[d->k.layer]);
	if (d->k.layer == OBS_LAYER_SECCOMP) {
		const struct obs_call *c = call_of(d->k.arch, d->k.nr);
		const char *rule =
		    seccomp_words(d, buf, sizeof(buf), how, sizeof(how));

		js(t, ",", "call", buf);
		js(t, ",", "syscall", c ? c->name : "");
		text_add(t, ",\"args\":[");
		for (i = 0; i < 6; i++)
			text_add(t, "%s\"0x%llx\"", i ? "," : "",
				 (unsigned long long)d->args[i]);
		text_add(t, "]");
		js(t, ",", "path", d->path);
		js(t, ",", "action", how);
		js(t, ",", "by", rule_by(d->k.code));
		js(t, ",", "rule", rule);
	} else if (d->k.layer == OBS_LAYER_LANDLOCK) {
		js(t, ",", "path", d->what);
		buf[0] = '\0';
		rights_text(d->k.rights, buf, sizeof(buf), "\",\"");
		text_add(t, ",\"rights\":[%s%s%s]", buf[0] ? "\"" : "", buf,
			 buf[0] ? "\"" : "");
		js(t, ",", "action", d->k.learned ? "allowed" : "denied");
		js(t, ",", "seen", d->extra);
	} else {
		js(t, ",", "destination", d->what);
		js(t, ",", "host", d->extra);
		js(t, ",", "action", d->path);
	}
	text_add(t, ",\"learned\":%s,\"count\":%u",
		 d->k.learned ? "true" : "false", d->count);
	put_ms(t, "first_ms", d->first_ns);
	text_add(t, "}");
}

static void put_sides(struct text *t)
{
	uint32_t i;

	text_add(t, ",\n\"side_effects\":[");
	for (i = 0; i < T.ns; i++) {
		const struct side *s = &T.s[i];
		const struct obs_call *c = call_of(POLEXEC_AUDIT_ARCH, s->nr);

		js(t, i ? ",\n {" : "{", "syscall", c ? c->name : "?");
		js(t, ",", "path", s->path ? s->path : "unreadable");
		js(t, ",", "to", s->path2);
		js(t, ",", "flags", s->flags[0] ? s->flags : NULL);
		put_ms(t, "ms", s->ns);
		text_add(t, "}");
	}
	text_add(t, "],\"side_effects_dropped\":%llu",
		 (unsigned long long)T.side_dropped);
}

void observe_record(struct text *t, int refused)
{
	uint32_t i;

	(void)refused;
	text_add(t, "\"mode\":\"%s\",\n\"observation\":{\"seccomp\":\"%s\"",
		 obs.mode == 2 ? "learn" : "enforce",
		 obs.notified ? "notified" : "off");
	js(t, ",", "landlock",
	   obs.mode == 2 && obs.p->ll.present
	       ? "learned: no Landlock was installed; the paths of the "
		 "calls it would judge were compared with its rules"
	       : llaudit_state());
	text_add(t, ",\"notifications\":%llu,\"notes\":[",
		 (unsigned long long)supervise_seen());
	for (i = 0; i < T.nnotes; i++) {
		text_add(t, "%s", i ? "," : "");
		text_json(t, T.notes[i]);
	}
	text_add(t, "]},\n\"denials\":[");
	for (i = 0; i < T.n; i++) {
		text_add(t, "%s", i ? ",\n " : "");
		put_denial(t, &T.d[i]);
	}
	text_add(t, "],\"denials_dropped\":%llu",
		 (unsigned long long)T.dropped);
	if (obs.o && obs.o->flags & POLBIN_OBS_F_DESTRUCTIVE)
		put_sides(t);
	text_add(t, ",\n");
}
