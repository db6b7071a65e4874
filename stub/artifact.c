/* SPDX-License-Identifier: MIT */
/*
 * Reading the artifact. The file is hostile input: it is read with a bounded
 * size, the container is validated by polbin_parse() (digest, table, bounds,
 * unknown critical sections), then each section this polexec implements is
 * decoded with its own checks. Any defect is a refusal before anything runs.
 *
 * The sections this polexec implements. A critical section not listed here
 * (a newer layer, or a marker polc adds for a layer it could not compile)
 * stops the run: a layer the policy asks for is never silently skipped and
 * presented as enforced.
 */
#include "artifact.h"
#include "lib/kernel.h"
#include "net/nfnl.h"
#include "observe/observe.h"
#include "sha256.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/bpf.h>

static const uint32_t implemented[] = {
    POLBIN_SEC_META,
    POLBIN_SEC_SECCOMP,
    POLBIN_SEC_ENV,
    POLBIN_SEC_LANDLOCK,
    POLBIN_SEC_LIMITS,	/* limits.c */
    POLBIN_SEC_NET,	/* net.c: the box's network namespace */
    POLBIN_SEC_NFT,	/* net.c, nfnl.c: its egress table */
    POLBIN_SEC_VIEW,	/* view.c, init.c, user.c: the box's own view */
    POLBIN_SEC_NOEXEC,	/* init.c: stacked where memfds could run */
    POLBIN_SEC_IR,	/* read by polc dump and the prover, not by polexec */
    POLBIN_SEC_OBSERVE, /* obs_decode.c: the run record's programs, names */
    POLBIN_SEC_EBPF,	/* net/ebpf.c: the cgroup egress programs */
    POLBIN_SEC_NONET,	/* net/fallback.c: net none without a namespace */
    POLBIN_SEC_BROKER,	/* net/broker.c: the notify broker's program */
    0,
};

int artifact_implements(uint32_t type)
{
	const uint32_t *t;

	for (t = implemented; *t; t++)
		if (*t == type)
			return 1;
	return 0;
}

/*
 * Phase 1: read the file. After it, p->buf holds at most POLBIN_MAX_SIZE
 * bytes read from a regular file, exactly as many as it had when opened;
 * nothing in it has been trusted yet.
 */
void artifact_read(const char *path, struct policy *p)
{
	size_t cap, len = 0;
	struct stat st;
	uint8_t *buf;
	int fd;

	/* O_NONBLOCK: a FIFO must be refused below, not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		die_with_error("artifact: open %s", path);
	if (fstat(fd, &st) < 0)
		die_with_error("artifact: fstat %s", path);
	if (!S_ISREG(st.st_mode))
		die("artifact: %s: not a regular file", path);
	if (st.st_size > (off_t)POLBIN_MAX_SIZE)
		die("artifact: %s: %lld bytes, the limit is %u", path,
		    (long long)st.st_size, POLBIN_MAX_SIZE);
	/* One byte more than fstat said, to notice a file that grew. */
	cap = (size_t)st.st_size + 1;
	buf = xcalloc(cap, 1);
	while (len < cap) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_with_error("artifact: read %s", path);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len != (size_t)st.st_size)
		die("artifact: %s: changed while being read (%zu bytes, "
		    "expected %lld)",
		    path, len, (long long)st.st_size);
	if (close(fd) < 0)
		die_with_error("artifact: close %s", path);
	p->buf = buf;
	p->len = len;
}

/* A critical section this polexec does not implement: which layer. */
static _Noreturn void refuse_layer(const char *path,
				   const struct polbin_section *s)
{
	if (s->type == POLBIN_SEC_UNENFORCED) {
		char layers[128];
		size_t n =
		    s->len < sizeof(layers) - 1 ? s->len : sizeof(layers) - 1;

		memcpy(layers, s->data, n);
		layers[n] = '\0';
		strip_controls(layers);
		die("artifact: %s: the policy states layers that polc could "
		    "not compile and no polexec enforces yet (%s); refusing "
		    "to run the command without them",
		    path, layers);
	}
	if (strcmp(polbin_section_name(s->type), "unknown") == 0)
		die("artifact: %s: the policy needs a layer this polexec does "
		    "not know (critical section type %u); refusing to run the "
		    "command without it",
		    path, s->type);
	die("artifact: %s: the policy needs the %s layer (critical section "
	    "type %u), which this polexec does not enforce; refusing to run "
	    "the command without it",
	    path, polbin_section_name(s->type), s->type);
}

/*
 * Phase 2: the container. After it, p->pb lists sections whose bounds lie
 * inside p->buf, the digest matches, and every critical section is one we
 * implement; the artifact targets the arch this polexec runs on. It is
 * parsed with every type 1..255 accepted, so that a critical section we
 * do not implement is named, not just refused.
 */
static void parse_container(const char *path, struct policy *p)
{
	uint32_t everything[256], i;
	char err[256];

	for (i = 0; i < 255; i++)
		everything[i] = i + 1;
	everything[255] = 0;
	if (polbin_parse(p->buf, p->len, everything, &p->pb, err, sizeof(err)) <
	    0)
		die("artifact: %s: %s", path, err);
	for (i = 0; i < p->pb.nsections; i++)
		if (p->pb.sections[i].flags & POLBIN_F_CRITICAL &&
		    !artifact_implements(p->pb.sections[i].type))
			refuse_layer(path, &p->pb.sections[i]);
	if (p->pb.arch != POLEXEC_AUDIT_ARCH)
		die("artifact: %s: compiled for arch 0x%x, this polexec "
		    "enforces 0x%x (x86_64)",
		    path, p->pb.arch, (unsigned)POLEXEC_AUDIT_ARCH);
	sha256_hex(p->buf + 32, p->artifact_sha256);
}

/* A copy of an untrusted string: bounded, no NUL inside, terminated. */
static char *take_string(const uint8_t *s, size_t len, size_t max,
			 const char *what)
{
	if (len > max)
		die("artifact: %s: %zu bytes, the limit is %zu", what, len,
		    max);
	if (memchr(s, '\0', len))
		die("artifact: %s: contains a NUL byte", what);
	return xstrndup((const char *)s, len);
}

/*
 * Phase 3a: META. After it, the name and digests are NUL-terminated strings
 * free of control characters (they reach the terminal and the record).
 */
static void decode_meta(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_META);
	size_t off = 0;

	p->name = xstrndup("", 0);
	p->source_sha256 = xstrndup("", 0);
	p->ir_sha256 = xstrndup("", 0);
	p->compiler = xstrndup("", 0);
	p->record_argv = xstrndup("", 0);
	if (!s)
		return;
	while (off < s->len) {
		uint16_t key, len;
		char **slot = NULL;

		if (s->len - off < 4)
			die("artifact: meta: truncated record at byte %zu",
			    off);
		key = polbin_le16(s->data + off);
		len = polbin_le16(s->data + off + 2);
		off += 4;
		if (len > s->len - off)
			die("artifact: meta: record at byte %zu runs past the "
			    "section",
			    off - 4);
		switch (key) {
		case POLBIN_META_NAME:
			slot = &p->name;
			break;
		case POLBIN_META_SOURCE_SHA256:
			slot = &p->source_sha256;
			break;
		case POLBIN_META_IR_SHA256:
			slot = &p->ir_sha256;
			break;
		case POLBIN_META_COMPILER:
			slot = &p->compiler;
			break;
		case POLBIN_META_RECORD_ARGV:
			slot = &p->record_argv;
			break;
		}
		if (slot) {
			free(*slot);
			*slot = take_string(s->data + off, len,
					    POLEXEC_MAX_META, "meta string");
			strip_controls(*slot);
		}
		off += len;
	}
}

/*
 * Phase 3b: SECCOMP and NOEXEC. After it, p->filter (p->noexec) holds
 * 1..4096 instructions decoded field by field (the kernel checks the
 * program itself when it loads it), or p->nfilter is 0 because the policy
 * has no syscalls block (p->nnoexec 0: no view).
 */
static unsigned short decode_filter(struct policy *p, uint32_t type,
				    struct sock_filter **out, int critical)
{
	const struct polbin_section *s = polbin_find(&p->pb, type);
	const char *name = polbin_section_name(type);
	uint32_t i, n;

	if (!s)
		return 0;
	if (critical && !(s->flags & POLBIN_F_CRITICAL))
		die("artifact: %s: section is not marked critical", name);
	if (s->len % 8 != 0)
		die("artifact: %s: %u bytes is not a whole number of "
		    "8-byte instructions",
		    name, s->len);
	n = s->len / 8;
	if (n < 1 || n > POLBIN_SECCOMP_MAX_INSNS)
		die("artifact: %s: %u instructions, expected 1..%d", name, n,
		    POLBIN_SECCOMP_MAX_INSNS);
	*out = xcalloc(n, sizeof(**out));
	for (i = 0; i < n; i++) {
		const uint8_t *in = s->data + 8 * i;

		(*out)[i].code = polbin_le16(in);
		(*out)[i].jt = in[2];
		(*out)[i].jf = in[3];
		(*out)[i].k = polbin_le32(in + 4);
	}
	return (unsigned short)n;
}

static void decode_seccomp(struct policy *p)
{
	p->nfilter = decode_filter(p, POLBIN_SEC_SECCOMP, &p->filter, 1);
	p->nnoexec = decode_filter(p, POLBIN_SEC_NOEXEC, &p->noexec, 1);
}

/*
 * Phase 3h: NONET, not critical (net/fallback.c). After it, p->nonet holds
 * the program `net none` stacks where the box cannot have a network
 * namespace, or p->nnonet is 0; only with `net none` and no loopback port.
 */
static void decode_nonet(struct policy *p)
{
	p->nnonet = decode_filter(p, POLBIN_SEC_NONET, &p->nonet, 0);
	if (p->nnonet && (!p->net.present || p->net.mode != POLBIN_NET_NONE ||
			  p->net.nloopback))
		die("artifact: nonet: a NONET section without `net none`");
}

/*
 * Phase 3i: BROKER, critical when the policy says `backend broker`
 * (net/broker.c). After it, p->broker holds the program the box installs
 * in place of NOTIFY where the notify broker enforces the net layer, or
 * p->nbroker is 0; only with `net filtered` or loopback ports.
 */
static void decode_broker(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_BROKER);

	p->nbroker = decode_filter(p, POLBIN_SEC_BROKER, &p->broker, 0);
	p->broker_forced = s && (s->flags & POLBIN_F_CRITICAL);
	if (p->nbroker &&
	    (!p->net.present ||
	     (p->net.mode != POLBIN_NET_FILTERED && !p->net.nloopback)))
		die("artifact: broker: a BROKER section without `net "
		    "filtered` or loopback ports");
}

/*
 * One ENV entry at `off`: { u8 kind, u8 zero, u16 name_len, u16 value_len,
 * u16 dest_len, name, value, dest }. Returns the offset after it.
 */
static size_t decode_env_entry(const struct polbin_section *s, size_t off,
			       uint32_t i, struct env_entry *e)
{
	size_t nlen, vlen, dlen;
	const uint8_t *d;

	if (s->len - off < 8)
		die("artifact: env: entry %u: truncated header", i);
	d = s->data + off;
	e->kind = d[0];
	if (d[1] != 0)
		die("artifact: env: entry %u: reserved byte is not zero", i);
	nlen = polbin_le16(d + 2);
	vlen = polbin_le16(d + 4);
	dlen = polbin_le16(d + 6);
	off += 8;
	if (nlen + vlen + dlen > s->len - off)
		die("artifact: env: entry %u: %zu bytes run past the section",
		    i, nlen + vlen + dlen);
	if (!valid_identifier((const char *)s->data + off, nlen))
		die("artifact: env: entry %u: name is not a valid identifier",
		    i);
	e->name = take_string(s->data + off, nlen, POLEXEC_MAX_STR, "env name");
	off += nlen;
	switch (e->kind) {
	case ENV_PASS:
		if (vlen || dlen)
			die("artifact: env: pass %s: carries a value", e->name);
		break;
	case ENV_SET:
		if (dlen)
			die("artifact: env: set %s: carries a destination",
			    e->name);
		e->value = take_string(s->data + off, vlen, POLEXEC_MAX_STR,
				       "env value");
		break;
	case ENV_SECRET:
		if (!vlen || !dlen)
			die("artifact: env: secret %s: needs a source and a "
			    "destination",
			    e->name);
		e->value = take_string(s->data + off, vlen, POLEXEC_MAX_STR,
				       "secret source");
		e->dest = take_string(s->data + off + vlen, dlen,
				      POLEXEC_MAX_STR, "secret destination");
		break;
	default:
		die("artifact: env: entry %u: unknown kind %u", i, e->kind);
	}
	return off + vlen + dlen;
}

/*
 * Phase 3c: ENV. After it, p->env holds up to POLEXEC_MAX_ENV entries with
 * unique, valid names, in the section's order, and the section had no
 * trailing bytes. A secret's source and place are checked once bound
 * (secrets.c); it never becomes a variable.
 */
static void decode_env(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_ENV);
	size_t off = 4;
	uint32_t i, j, n;

	if (!s)
		return;
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: env: section is not marked critical");
	if (s->len < 4)
		die("artifact: env: truncated count");
	n = polbin_le32(s->data);
	if (n > POLEXEC_MAX_ENV)
		die("artifact: env: %u entries, the limit is %d", n,
		    POLEXEC_MAX_ENV);
	for (i = 0; i < n; i++) {
		off = decode_env_entry(s, off, i, &p->env[i]);
		for (j = 0; j < i; j++)
			if (strcmp(p->env[j].name, p->env[i].name) == 0)
				die("artifact: env: %s appears twice",
				    p->env[i].name);
	}
	if (off != s->len)
		die("artifact: env: %zu trailing bytes after %u entries",
		    s->len - off, n);
	p->env_present = 1;
	p->nenv = n;
}

/* One path rule at `off`: { u64 access, u32 flags, u32 len, path }. */
static size_t decode_ll_rule(const struct polbin_section *s, size_t off,
			     uint32_t i, struct ll_spec *l)
{
	struct ll_rule *r = &l->fs[i];
	uint32_t len;

	if (s->len - off < 16)
		die("artifact: landlock: path rule %u: truncated", i);
	r->access = polbin_le64(s->data + off);
	r->flags = polbin_le32(s->data + off + 8);
	len = polbin_le32(s->data + off + 12);
	off += 16;
	if (r->access & ~l->handled_fs)
		die("artifact: landlock: path rule %u: rights 0x%llx are not "
		    "a part of the handled 0x%llx",
		    i, (unsigned long long)r->access,
		    (unsigned long long)l->handled_fs);
	if (r->flags & ~(uint32_t)(POLBIN_LL_F_FOLLOW | POLBIN_LL_F_OPTIONAL))
		die("artifact: landlock: path rule %u: unknown flags 0x%x", i,
		    r->flags);
	if (len == 0 || len > POLBIN_LL_MAX_PATH || len > s->len - off)
		die("artifact: landlock: path rule %u: length %u is 0, over "
		    "%d, or runs past the section",
		    i, len, POLBIN_LL_MAX_PATH);
	r->fd = -1;
	r->path = take_string(s->data + off, len, POLBIN_LL_MAX_PATH,
			      "landlock path");
	if (!ll_path_ok(r->path)) {
		strip_controls(r->path);
		die("artifact: landlock: path rule %u: '%s' is not a "
		    "normalized path",
		    i, r->path);
	}
	if (i && strcmp(l->fs[i - 1].path, r->path) >= 0)
		die("artifact: landlock: path rule %u: not sorted after the "
		    "one before, or a duplicate",
		    i);
	return off + len;
}

/*
 * Phase 3d: LANDLOCK. After it, p->ll holds a requirement in range, handled
 * sets within what this polexec knows, at most POLEXEC_MAX_LL_FS path rules
 * (sorted, unique, normalized paths, rights within the handled set) and
 * port ranges (sorted, disjoint, each of one handled access, at most
 * POLEXEC_MAX_LL_PORTS ports per access), and no trailing bytes.
 */
static void decode_landlock(struct policy *p)
{
	const struct polbin_section *s =
	    polbin_find(&p->pb, POLBIN_SEC_LANDLOCK);
	struct ll_spec *l = &p->ll;
	uint32_t i, ports[3] = {0, 0, 0};
	size_t off = POLBIN_LL_HEADER_SIZE;
	const uint8_t *d;

	if (!s)
		return;
	d = s->data;
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: landlock: section is not marked critical");
	if (s->len < POLBIN_LL_HEADER_SIZE)
		die("artifact: landlock: truncated header (%u bytes, expected "
		    "%d)",
		    s->len, POLBIN_LL_HEADER_SIZE);
	if (polbin_le32(d) != POLBIN_LL_VERSION)
		die("artifact: landlock: format version %u, this polexec reads "
		    "%d",
		    polbin_le32(d), POLBIN_LL_VERSION);
	l->abi_min = polbin_le32(d + 4);
	l->mode = polbin_le32(d + 8);
	l->handled_fs = polbin_le64(d + 16);
	l->handled_net = polbin_le64(d + 24);
	l->scoped = polbin_le64(d + 32);
	l->nfs = polbin_le32(d + 40);
	l->nports = polbin_le32(d + 44);
	if (l->abi_min < 1 || l->abi_min > POLBIN_LL_MAX_ABI ||
	    l->mode > POLBIN_LL_REQUIRE || polbin_le32(d + 12))
		die("artifact: landlock: requirement out of range (ABI %u, "
		    "mode %u, reserved %u)",
		    l->abi_min, l->mode, polbin_le32(d + 12));
	if (l->handled_fs & ~POLBIN_LL_FS_ALL ||
	    l->handled_net & ~POLBIN_LL_NET_ALL ||
	    l->scoped & ~POLBIN_LL_SCOPE_ALL)
		die("artifact: landlock: unknown handled rights or scopes");
	if (!l->handled_fs && !l->handled_net && !l->scoped)
		die("artifact: landlock: the ruleset handles nothing");
	if (l->nfs > POLEXEC_MAX_LL_FS || l->nports > 2 * POLEXEC_MAX_LL_PORTS)
		die("artifact: landlock: %u path rules and %u port ranges, the "
		    "limits are %d and %d",
		    l->nfs, l->nports, POLEXEC_MAX_LL_FS,
		    2 * POLEXEC_MAX_LL_PORTS);
	l->fs = xcalloc(l->nfs, sizeof(*l->fs));
	l->ports = xcalloc(l->nports, sizeof(*l->ports));
	for (i = 0; i < l->nfs; i++)
		off = decode_ll_rule(s, off, i, l);
	for (i = 0; i < l->nports; i++) {
		struct ll_range *r = &l->ports[i], *prev = i ? r - 1 : NULL;

		if (s->len - off < 8)
			die("artifact: landlock: port range %u: truncated", i);
		r->access = polbin_le32(d + off);
		r->lo = polbin_le16(d + off + 4);
		r->hi = polbin_le16(d + off + 6);
		off += 8;
		if ((r->access != POLBIN_LL_NET_BIND &&
		     r->access != POLBIN_LL_NET_CONNECT) ||
		    !(r->access & l->handled_net) || r->lo > r->hi)
			die("artifact: landlock: port range %u: access %u or "
			    "ports %u-%u out of range",
			    i, r->access, r->lo, r->hi);
		if (prev && (prev->access > r->access ||
			     (prev->access == r->access && prev->hi >= r->lo)))
			die("artifact: landlock: port range %u: not sorted "
			    "after the one before, or overlapping it",
			    i);
		ports[r->access] += (uint32_t)r->hi - r->lo + 1;
		if (ports[r->access] > POLEXEC_MAX_LL_PORTS)
			die("artifact: landlock: more than %d %s ports",
			    POLEXEC_MAX_LL_PORTS, ll_net_names[r->access - 1]);
	}
	if (off != s->len)
		die("artifact: landlock: %zu trailing bytes", s->len - off);
	l->present = 1;
}

/* One VIEW entry at `off` (artifact/sections.h); the offset after it. */
static size_t decode_view_entry(const struct polbin_section *s, size_t off,
				uint32_t i, struct policy *p, uint32_t *rule)
{
	struct view_entry *e = &p->view.e[i];
	const uint8_t *d = s->data + off;
	uint16_t plen;

	if (s->len - off < POLBIN_VIEW_ENTRY_LEN)
		die("artifact: view: entry %u: truncated", i);
	e->kind = d[0];
	e->attrs = d[1];
	plen = polbin_le16(d + 2);
	e->rule = polbin_le32(d + 4);
	e->size = polbin_le64(d + 8);
	e->access = polbin_le64(d + 16);
	off += POLBIN_VIEW_ENTRY_LEN;
	if (plen > s->len - off || (size_t)(plen + 7u) / 8 * 8 > s->len - off)
		die("artifact: view: entry %u: runs past the section", i);
	if (e->kind == POLBIN_VIEW_BIND) {
		/* Every path rule once, in rule order. */
		if (plen || e->rule != *rule || e->rule >= p->ll.nfs ||
		    e->size || e->access ||
		    e->attrs & ~(POLBIN_VIEW_A_RDONLY | POLBIN_VIEW_A_NOEXEC |
				 POLBIN_VIEW_A_NODEV))
			die("artifact: view: entry %u: a bind that is not "
			    "Landlock path rule %u",
			    i, *rule);
		++*rule;
		e->path = p->ll.fs[e->rule].path;
	} else {
		e->path = take_string(d + POLBIN_VIEW_ENTRY_LEN, plen,
				      POLBIN_LL_MAX_PATH, "view path");
		if (e->kind < POLBIN_VIEW_TMPFS || e->kind > POLBIN_VIEW_LINK ||
		    e->rule || e->path[0] != '/' || !e->path[1] ||
		    !ll_path_ok(e->path) ||
		    e->access & ~(uint64_t)POLBIN_LL_FS_ALL ||
		    (e->kind == POLBIN_VIEW_TMPFS
			 ? e->size < 1 || e->size > POLBIN_VIEW_MAX_TMPFS ||
			       e->attrs & ~POLBIN_VIEW_A_NOEXEC
			 : e->size || e->attrs ||
			       (e->kind == POLBIN_VIEW_LINK && e->access)))
			die("artifact: view: entry %u is malformed", i);
	}
	for (; plen % 8; plen++)
		if (d[POLBIN_VIEW_ENTRY_LEN + plen])
			die("artifact: view: entry %u: padding is not zero", i);
	if (i && strcmp(p->view.e[i - 1].path, e->path) >= 0)
		die("artifact: view: entry %u: not sorted after the one "
		    "before, or a duplicate",
		    i);
	return off + plen;
}

/*
 * Phase 3e: VIEW. After it, p->view says whether the box gets a root of
 * its own (then every Landlock path rule is one BIND entry, in order, and
 * the NOEXEC program is there), and who it runs as; entries sorted,
 * unique, each checked against artifact/sections.h.
 */
static void decode_view(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_VIEW);
	struct view_spec *v = &p->view;
	uint32_t i, rule = 0;
	size_t off = POLBIN_VIEW_HEADER_LEN;

	if (!s) {
		if (p->nnoexec)
			die("artifact: noexec: a NOEXEC section without VIEW");
		return;
	}
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: view: section is not marked critical");
	if (s->len < POLBIN_VIEW_HEADER_LEN ||
	    polbin_le32(s->data) != POLBIN_VIEW_VERSION)
		die("artifact: view: truncated, or a version this polexec does "
		    "not read");
	v->flags = polbin_le32(s->data + 4);
	v->uid = polbin_le32(s->data + 8);
	v->gid = polbin_le32(s->data + 12);
	v->n = polbin_le32(s->data + 16);
	if (v->flags &
		~(uint32_t)(POLBIN_VIEW_F_ROOT | POLBIN_VIEW_F_BEST_EFFORT |
			    POLBIN_VIEW_F_USER) ||
	    polbin_le32(s->data + 20) || v->n > POLBIN_VIEW_MAX ||
	    v->uid == UINT32_MAX || v->gid == UINT32_MAX ||
	    (!(v->flags & POLBIN_VIEW_F_USER) && (v->uid || v->gid)) ||
	    (!(v->flags & POLBIN_VIEW_F_ROOT) &&
	     (v->n || v->flags & POLBIN_VIEW_F_BEST_EFFORT)))
		die("artifact: view: header out of range");
	if (!(v->flags & POLBIN_VIEW_F_ROOT) != !p->nnoexec)
		die("artifact: noexec: %s", p->nnoexec ? "a NOEXEC section "
							 "without a view"
						       : "a view without its "
							 "NOEXEC section");
	v->e = xcalloc(v->n ? v->n : 1, sizeof(*v->e));
	for (i = 0; i < v->n; i++)
		off = decode_view_entry(s, off, i, p, &rule);
	if (v->flags & POLBIN_VIEW_F_ROOT && rule != p->ll.nfs)
		die("artifact: view: %u of %u Landlock path rules have a bind",
		    rule, p->ll.nfs);
	if (off != s->len)
		die("artifact: view: %zu trailing bytes", s->len - off);
	v->present = 1;
}

/* The bound of limit i's value (artifact/sections.h). */
static uint64_t limit_bound(int i)
{
	switch (i) {
	case POLBIN_LIM_MEMORY:
	case POLBIN_LIM_FSIZE:
	case POLBIN_LIM_CORE:
		return POLBIN_LIMITS_MAX_BYTES;
	case POLBIN_LIM_PIDS:
	case POLBIN_LIM_NOFILE:
		return POLBIN_LIMITS_MAX_COUNT;
	default:
		return POLBIN_LIMITS_MAX_MS;
	}
}

/*
 * Phase 3f: LIMITS. After it, p->limits holds the section's flags, set and
 * values, each checked against artifact/sections.h, or present == 0 when
 * the artifact has no LIMITS section (then nothing is limited).
 */
static void decode_limits(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_LIMITS);
	struct limits_spec *l = &p->limits;
	int i;

	if (!s)
		return;
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: limits: section is not marked critical");
	if (s->len != POLBIN_LIMITS_LEN)
		die("artifact: limits: %u bytes, expected %d", s->len,
		    POLBIN_LIMITS_LEN);
	l->flags = polbin_le32(s->data);
	l->set = polbin_le32(s->data + 4);
	if (l->flags &
	    ~(uint32_t)(POLBIN_LIMITS_F_STATED | POLBIN_LIMITS_F_REQUIRE))
		die("artifact: limits: unknown flag bits 0x%x", l->flags);
	if ((l->flags & POLBIN_LIMITS_F_REQUIRE) &&
	    !(l->flags & POLBIN_LIMITS_F_STATED))
		die("artifact: limits: require without a limits block");
	if (l->set >> POLBIN_LIM_COUNT)
		die("artifact: limits: unknown limit bits 0x%x", l->set);
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		uint64_t v = polbin_le64(s->data + 8 + 8 * i);

		if (!(l->set >> i & 1)) {
			if (v)
				die("artifact: limits: %s is not set but has "
				    "a value",
				    lim_name[i]);
			continue;
		}
		if (v == 0 && i != POLBIN_LIM_CORE)
			die("artifact: limits: %s is 0", lim_name[i]);
		if (v > limit_bound(i))
			die("artifact: limits: %s %llu is above %llu",
			    lim_name[i], (unsigned long long)v,
			    (unsigned long long)limit_bound(i));
		l->value[i] = v;
	}
	l->present = 1;
}

/* A runtime entry's name: a host name, or ${NAME} (names.c's checks). */
static int valid_rt_name(uint8_t kind, const char *n, size_t len)
{
	if (kind == POLBIN_NET_RT_NAME)
		return polbin_is_hostname(n, len);
	return len > 3 && n[0] == '$' && n[1] == '{' && n[len - 1] == '}' &&
	       valid_identifier(n + 2, len - 3);
}

static size_t decode_net_rt(struct policy *p, const uint8_t *d, size_t len,
			    size_t off)
{
	struct net_spec *ns = &p->net;
	uint32_t i;

	ns->rt = xcalloc(ns->nruntime ? ns->nruntime : 1, sizeof(*ns->rt));
	for (i = 0; i < ns->nruntime; i++) {
		struct net_rt *rt = &ns->rt[i];
		uint16_t nlen;

		if (len - off < 8)
			die("artifact: net: runtime entry %u truncated", i);
		rt->kind = d[off];
		rt->proto = d[off + 1];
		rt->lo = polbin_le16(d + off + 2);
		rt->hi = polbin_le16(d + off + 4);
		nlen = polbin_le16(d + off + 6);
		off += 8;
		if ((rt->kind != POLBIN_NET_RT_NAME &&
		     rt->kind != POLBIN_NET_RT_VAR) ||
		    (rt->proto != 6 && rt->proto != 17) || rt->lo > rt->hi)
			die("artifact: net: runtime entry %u is malformed", i);
		if (nlen == 0 || nlen > len - off ||
		    (size_t)((nlen + 3u) & ~3u) > len - off ||
		    !valid_rt_name(rt->kind, (const char *)d + off, nlen))
			die("artifact: net: runtime entry %u: bad name", i);
		rt->name = xstrndup((const char *)d + off, nlen);
		for (off += nlen; off % 4; off++)
			if (d[off])
				die("artifact: net: runtime entry %u: "
				    "padding is not zero",
				    i);
	}
	return off;
}

/*
 * Phase 3g: NET and NFT. After it, p->net says whether the box gets a
 * network namespace of its own, which host loopback ports pasta splices
 * into it, which entries polexec binds at start, and (filtered) the
 * table's messages, framing checked.
 */
static void decode_net(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_NET);
	const struct polbin_section *t = polbin_find(&p->pb, POLBIN_SEC_NFT);
	struct net_spec *ns = &p->net;
	const uint8_t *d;
	size_t off;
	uint32_t i;
	char why[160];

	if (!s) {
		if (t)
			die("artifact: nft: an NFT section without NET");
		return;
	}
	if (!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: net: section is not marked critical");
	d = s->data;
	if (s->len < POLBIN_NET_HEADER_LEN)
		die("artifact: net: %u bytes, expected at least %d", s->len,
		    POLBIN_NET_HEADER_LEN);
	if (polbin_le32(d) != POLBIN_NET_VERSION)
		die("artifact: net: version %u, this polexec knows %d",
		    polbin_le32(d), POLBIN_NET_VERSION);
	ns->mode = polbin_le32(d + 4);
	ns->nloopback = polbin_le32(d + 8);
	ns->nruntime = polbin_le32(d + 12);
	if (ns->mode != POLBIN_NET_NONE && ns->mode != POLBIN_NET_FILTERED)
		die("artifact: net: mode %u is not known to this polexec",
		    ns->mode);
	if (ns->nloopback > POLBIN_NET_MAX_LOOPBACK ||
	    ns->nruntime > POLBIN_NET_MAX_RUNTIME || polbin_le32(d + 16) ||
	    polbin_le32(d + 20))
		die("artifact: net: header out of range");
	if (ns->mode == POLBIN_NET_NONE && ns->nruntime)
		die("artifact: net: runtime entries in mode none");
	off = POLBIN_NET_HEADER_LEN;
	if ((s->len - off) / 4 < ns->nloopback)
		die("artifact: net: loopback ports truncated");
	for (i = 0; i < ns->nloopback; i++, off += 4) {
		uint16_t lo = polbin_le16(d + off),
			 hi = polbin_le16(d + off + 2);

		if (lo == 0 || lo > hi ||
		    (i && lo <= (uint32_t)ns->loopback[i - 1][1] + 1))
			die("artifact: net: loopback ports not sorted, "
			    "disjoint ranges");
		ns->loopback[i][0] = lo;
		ns->loopback[i][1] = hi;
	}
	off = decode_net_rt(p, d, s->len, off);
	if (off != s->len)
		die("artifact: net: %zu bytes after the entries",
		    (size_t)s->len - off);
	if ((ns->mode == POLBIN_NET_FILTERED) != (t != NULL))
		die("artifact: nft: %s", t ? "an NFT section outside mode "
					     "filtered"
					   : "mode filtered without its NFT "
					     "section");
	if (t) {
		if (!(t->flags & POLBIN_F_CRITICAL))
			die("artifact: nft: section is not marked critical");
		if (t->len > POLBIN_NET_MAX_NFT)
			die("artifact: nft: %u bytes, at most %u", t->len,
			    POLBIN_NET_MAX_NFT);
		if (nfnl_validate(t->data, t->len, &ns->nft_msgs, why,
				  sizeof(why)))
			die("artifact: nft: %s", why);
		ns->nft = t->data;
		ns->nft_len = t->len;
	}
	ns->present = 1;
}

/*
 * Phase 3g': EBPF, beside NET. After it, p->net.ebpf points at nine
 * programs, one per hook in order, whose only map references are
 * BPF_LD_IMM64 of a map number below POLBIN_EBPF_NMAPS and which call no
 * function of their own (the kernel's verifier checks the rest when
 * polexec loads them), and at rules whose kinds and protocols are the
 * format's (the kernel's LPM map checks the prefix lengths).
 */
static void decode_ebpf(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_EBPF);
	struct net_ebpf *e = &p->net.ebpf;
	const uint8_t *d;
	size_t off = 16;
	uint32_t h, i;

	if (!s)
		return;
	if (!p->net.present)
		die("artifact: ebpf: an EBPF section without NET");
	d = s->data;
	if (s->len < 16 || polbin_le32(d) != POLBIN_EBPF_VERSION ||
	    (polbin_le32(d + 4) & ~POLBIN_EBPF_F_ALL) ||
	    polbin_le32(d + 8) != POLBIN_EBPF_NPROG ||
	    polbin_le32(d + 12) > POLBIN_EBPF_MAX_RULES)
		die("artifact: ebpf: bad header");
	e->forced = !!(polbin_le32(d + 4) & POLBIN_EBPF_F_FORCED);
	e->fallback = !!(polbin_le32(d + 4) & POLBIN_EBPF_F_FALLBACK);
	if (e->forced != !!(s->flags & POLBIN_F_CRITICAL))
		die("artifact: ebpf: critical iff the backend is forced");
	if (e->forced && e->fallback)
		die("artifact: ebpf: a forced backend with a fallback");
	e->nrules = polbin_le32(d + 12);
	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		uint32_t n;

		if (s->len - off < 8 || polbin_le32(d + off) != h ||
		    (n = polbin_le32(d + off + 4)) == 0 ||
		    n > POLBIN_EBPF_MAX_INSNS || (s->len - off - 8) / 8 < n)
			die("artifact: ebpf: program %u malformed", h);
		e->prog[h] = d + off + 8;
		e->ninsn[h] = n;
		for (i = 0; i < n; i++) {
			const uint8_t *in = e->prog[h] + 8 * i;
			uint8_t src = in[1] >> 4;

			if (in[0] == (BPF_LD | BPF_DW | BPF_IMM) &&
			    (i + 1 >= n || in[8] || in[9] ||
			     (src &&
			      (src != BPF_PSEUDO_MAP_FD ||
			       polbin_le32(in + 4) >= POLBIN_EBPF_NMAPS))))
				die("artifact: ebpf: program %u: instruction "
				    "%u loads what is not a map of the "
				    "section",
				    h, i);
			if (in[0] == (BPF_LD | BPF_DW | BPF_IMM))
				i++;
			else if (in[0] == (BPF_JMP | BPF_CALL) && src)
				die("artifact: ebpf: program %u: instruction "
				    "%u calls what is not a helper",
				    h, i);
		}
		off += 8 + (size_t)n * 8;
	}
	if ((s->len - off) / (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN) !=
		e->nrules ||
	    (s->len - off) % (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN))
		die("artifact: ebpf: the rules do not fill the section");
	e->rules = d + off;
	for (i = 0; i < e->nrules; i++) {
		const uint8_t *k = e->rules + (size_t)i * (POLBIN_EBPF_KEY_LEN +
							   POLBIN_EBPF_VAL_LEN);

		if (k[4] < POLBIN_EBPF_K_ALLOW4 || k[4] > POLBIN_EBPF_K_LOOP ||
		    (k[5] != 6 && k[5] != 17))
			die("artifact: ebpf: rule %u malformed", i);
	}
	e->present = 1;
}

/*
 * Phases 2 and 3 over bytes already in memory; `path` only names the
 * artifact in refusals. p keeps buf: the NFT messages point into it.
 */
void artifact_decode(const char *path, struct policy *p, uint8_t *buf,
		     size_t len)
{
	memset(p, 0, sizeof(*p));
	p->buf = buf;
	p->len = len;
	parse_container(path, p);
	decode_meta(p);
	decode_seccomp(p);
	decode_env(p);
	decode_landlock(p);
	decode_view(p);
	decode_limits(p);
	decode_net(p);
	decode_ebpf(p);
	decode_nonet(p);
	decode_broker(p);
	observe_decode(path, p); /* obs_decode.c: OBSERVE, not critical */
}

void artifact_load(const char *path, struct policy *p)
{
	memset(p, 0, sizeof(*p));
	artifact_read(path, p);
	artifact_decode(path, p, p->buf, p->len);
}
