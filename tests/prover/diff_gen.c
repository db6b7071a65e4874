/* SPDX-License-Identifier: MIT */
/*
 * Random policy text for the differential test, over every dimension:
 * syscalls with conditions (masks, sets, 32- and 64-bit arguments, the
 * 2^32 seam, named constants), fs with nested and overlapping paths,
 * variables, ~, optional and follow, net in all three modes with CIDRs,
 * names, ${VAR}s, ports, protocols, denies and loopback, limits with and
 * without the values that are defaults, env, and a Landlock statement.
 *
 * The text goes through the real front end, so some of it is refused (a
 * conflict, a duplicate); the driver draws again. Nothing here knows what
 * the compiler makes of it.
 */
#include "diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint64_t dgen_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void dgen_init(struct dgen *g, uint64_t seed, int mutate)
{
	g->r1 = seed | 1;
	g->r2 = (seed * 0x9e3779b97f4a7c15ull) | 1;
	g->mutate = mutate;
	g->rate = 6;
	g->in_frame = 0;
	g->frame = 0;
}

static unsigned pick(struct dgen *g, unsigned n)
{
	if (g->mutate == 2) {
		/* the plain stream always advances: the rest stays aligned */
		unsigned plain = (unsigned)(dgen_next(&g->r1) % n);

		if (g->in_frame && dgen_next(&g->r2) % g->rate == 0)
			return (unsigned)(dgen_next(&g->r2) % n);
		return plain;
	}
	if (g->mutate && dgen_next(&g->r2) % g->rate == 0)
		return (unsigned)(dgen_next(&g->r2) % n);
	return (unsigned)(dgen_next(&g->r1) % n);
}

/* A choice among a constant array. */
#define ONE(g, arr) ((arr)[pick((g), sizeof(arr) / sizeof(*(arr)))])

struct out {
	char *p;
	size_t len, cap;
	int full;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->len) {
		o->full = 1;
		return;
	}
	o->len += (size_t)n;
}

/* ---- syscalls --------------------------------------------------------- */

struct sc {
	const char *name;
	const char *arg[3];
	int wide[3]; /* the kernel reads 64 bits */
};

static const struct sc scs[] = {
    {"socket", {"family", "type", "protocol"}, {0, 0, 0}},
    {"clone", {"clone_flags", "newsp", "parent_tidptr"}, {0, 1, 1}},
    {"mmap", {"addr", "len", "prot"}, {1, 1, 1}},
    {"ioctl", {"fd", "cmd", "arg"}, {0, 0, 1}},
    {"kill", {"pid", "sig", NULL}, {0, 0, 0}},
    {"personality", {"personality", NULL, NULL}, {0, 0, 0}},
    {"prctl", {"option", "arg2", "arg3"}, {0, 1, 1}},
    {"openat", {"dfd", "filename", "flags"}, {0, 1, 0}},
    {"ptrace", {"request", "pid", "addr"}, {1, 0, 1}},
    {"read", {"fd", "buf", "count"}, {0, 1, 1}},
    {"io_uring_setup", {"entries", "params", NULL}, {0, 1, 0}},
};

static const char *const acts[] = {
    "allow", "log",	    "errno(EPERM)", "errno(EACCES)", "errno(ENOSYS)",
    "trap",  "kill_thread", "kill",	    "kill_process",
};

/* The action's place in the order, 0 most restrictive. */
static int act_rank(const char *a)
{
	if (!strcmp(a, "allow"))
		return 5;
	if (!strcmp(a, "log"))
		return 4;
	if (!strncmp(a, "errno", 5))
		return 3;
	if (!strcmp(a, "trap"))
		return 2;
	if (!strcmp(a, "kill_thread"))
		return 1;
	return 0;
}

static const char *const v32[] = {
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "10",
    "16",
    "17",
    "0x10",
    "0xff",
    "0x100",
    "0x7fffffff",
    "0x80000000",
    "0xffffffff",
    "AF_INET",
    "AF_UNIX",
    "AF_PACKET",
    "AF_NETLINK",
    "AF_INET6",
    "SOCK_RAW",
    "SOCK_DGRAM",
    "CLONE_NEWUSER",
};
static const char *const v64[] = {
    "0",
    "1",
    "2",
    "3",
    "16",
    "0xff",
    "0xffffffff",
    "0x100000000",
    "0x100000001",
    "0x1ffffffff",
    "0x7fffffffffffffff",
    "0x8000000000000000",
    "0xffffffffffffffff",
    "PROT_EXEC",
    "0x7e020000",
};
static const char *const m32[] = {
    "0xff", "0xf0", "0xf", "0x80000001", "NAMESPACE_FLAGS", "0x7e020000"};
static const char *const m64[] = {"0xff", "0xffffffff00000000", "0x100000001",
				  "0xf0", "0x80000001"};
static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};

static void atom(struct dgen *g, struct out *o, const struct sc *s)
{
	unsigned na = s->arg[2] ? 3 : s->arg[1] ? 2 : 1, i = pick(g, na);
	int w = s->wide[i];
	unsigned k = pick(g, 10);

	if (k < 2) {
		const char *a = w ? ONE(g, v64) : ONE(g, v32);
		const char *b = w ? ONE(g, v64) : ONE(g, v32);

		/* a set names each value once (spellings may still meet) */
		if (!strcmp(a, b))
			put(o, "%s in {%s}", s->arg[i], a);
		else
			put(o, "%s in {%s, %s}", s->arg[i], a, b);
	} else if (k < 4) {
		put(o, "%s & %s %s %s", s->arg[i],
		    w ? ONE(g, m64) : ONE(g, m32), ONE(g, ops),
		    w ? ONE(g, v64) : ONE(g, v32));
	} else {
		put(o, "%s %s %s", s->arg[i], ONE(g, ops),
		    w ? ONE(g, v64) : ONE(g, v32));
	}
}

static void gen_syscalls(struct dgen *g, struct out *o)
{
	static const char *const bad[] = {"kill_process", "kill_thread", "trap",
					  "errno(EPERM)"};
	unsigned n = pick(g, 5), used = 0;

	if (pick(g, 3))
		put(o, "  syscalls default %s {\n", ONE(g, acts));
	else
		put(o, "  syscalls {\n");
	for (unsigned i = 0; i < n; i++) {
		unsigned c = pick(g, sizeof(scs) / sizeof(*scs));
		const struct sc *s = &scs[c];
		int uncond = -1;

		if (used >> c & 1)
			continue;
		used |= 1u << c;
		/* At most one unconditional rule, and conditional rules
		 * stricter than it: anything else the language refuses. */
		if (pick(g, 3) == 0) {
			const char *a = ONE(g, acts);

			uncond = act_rank(a);
			put(o, "    %s %s\n", a, s->name);
		}
		for (unsigned r = 0, nr = 1 + pick(g, 3); r < nr; r++) {
			const char *a = ONE(g, acts);
			unsigned natoms = 1 + pick(g, 3);

			if (uncond >= 0 && act_rank(a) >= uncond)
				continue;
			put(o, "    %s %s if ", a, s->name);
			for (unsigned k = 0; k < natoms; k++) {
				if (k)
					put(o, " && ");
				atom(g, o, s);
			}
			put(o, "\n");
		}
	}
	if (pick(g, 3) == 0)
		put(o, "    badarch %s\n", ONE(g, bad));
	put(o, "  }\n");
}

/* ---- fs ----------------------------------------------------------------- */

static const char *const paths[] = {
    "/",
    "/a",
    "/a/b",
    "/a/b/c",
    "/a/c",
    "/b",
    "/a/b/c/d",
    "${W}",
    "${W}/a",
    "${W}/a/b",
    "${V}",
    "~",
    "~/a",
    "${HOME}/b",
    "/home",
    "/b/a",
    /* grants inside the box's own mounts (nested under grants too) */
    "/a/w",
    "/t/w",
    "/d/x",
    "/home/u",
    "~/tmp",
    "${W}/t",
};
/* Write access to these needs `unsafe` (docs/LANGUAGE.md, lints). */
static int dangerous(const char *p)
{
	return !strcmp(p, "/") || !strcmp(p, "~") || !strcmp(p, "/home") ||
	       !strcmp(p, "${HOME}");
}

static void gen_fs(struct dgen *g, struct out *o)
{
	static const char *const groups[] = {"ro", "rx", "rw", "rwx", "allow"};
	static const char *const rights[] = {
	    "read_file", "read_dir",  "write_file",   "execute",
	    "truncate",	 "make_reg",  "remove_file",  "ioctl_dev",
	    "refer",	 "make_char", "connect_unix",
	};
	/* The box's own mounts: literal paths, some where grants go too. */
	static const char *const own[] = {
	    "tmpfs /a", "tmpfs /a/b 1MiB", "tmpfs /t 2MiB exec",
	    "proc /b",	"dev /d",	   "tmpfs /home",
	    "proc /p",
	};
	unsigned n = pick(g, 6), used = 0, m = pick(g, 3);

	/* A frame: a grant, a mount of the box's own inside it, a grant
	 * inside that, of every right set (issue 29: the inner grant's
	 * mount restrictions; a variable holding the own mount). */
	static const char *const frame_own[] = {"tmpfs", "tmpfs", "dev",
						"proc"};
	static const char *const sets[] = {
	    "ro",
	    "rx",
	    "rw",
	    "rwx",
	    "allow read_file read_dir ioctl_dev on",
	    "allow read_file execute on",
	    "allow read_file write_file on"};

	put(o, pick(g, 4) ? "  fs {\n" : "  fs best_effort {\n");
	if (g->frame || pick(g, 2)) {
		const char *outer, *inner;

		outer = ONE(g, sets);
		g->in_frame = 1; /* the inner grant's rights alone */
		inner = ONE(g, sets);
		g->in_frame = 0;

		if (pick(g, 3))
			put(o, "    %s /n\n", outer);
		put(o, "    %s /n/m\n", ONE(g, frame_own));
		if (g->frame || pick(g, 4))
			put(o, "    %s /n/m/g\n", inner);
		if (pick(g, 3) == 0)
			put(o, "    %s ${W}\n", ONE(g, sets));
	}
	for (unsigned i = 0; i < m; i++)
		put(o, "    %s\n", ONE(g, own));
	if (pick(g, 6) == 0)
		put(o, "    socket /b/s\n");
	for (unsigned i = 0; i < n; i++) {
		unsigned pi = pick(g, sizeof(paths) / sizeof(*paths));
		const char *grp = ONE(g, groups), *path = paths[pi];
		int writes = strcmp(grp, "ro") && strcmp(grp, "rx");

		if (used >> pi & 1)
			continue;
		used |= 1u << pi;
		if (!strcmp(grp, "allow")) {
			const char *r1 = ONE(g, rights), *r2 = ONE(g, rights);

			writes =
			    strcmp(r1, "read_file") && strcmp(r1, "read_dir") &&
			    strcmp(r1, "execute") && strcmp(r1, "ioctl_dev");
			writes |=
			    strcmp(r2, "read_file") && strcmp(r2, "read_dir") &&
			    strcmp(r2, "execute") && strcmp(r2, "ioctl_dev");
			put(o, "    allow %s %s on", r1,
			    strcmp(r1, r2) ? r2 : "");
		} else {
			put(o, "    %s", grp);
		}
		if (pick(g, 5) == 0)
			put(o, " optional");
		if (pick(g, 4) == 0)
			put(o, " follow");
		if (writes && dangerous(path))
			put(o, " unsafe");
		put(o, " %s\n", path);
	}
	put(o, "  }\n");
}

/* ---- net ---------------------------------------------------------------- */

static const char *const ports[] = {"443", "80-443", "1000-2000", "*",
				    "0",   "65535",  "22",	  "8080"};

static void entry(struct dgen *g, struct out *o, int allow)
{
	static const char *const cidrs[] = {
	    "10.0.0.0/8",     "10.0.0.0/9",  "10.128.0.0/9",
	    "10.1.0.0/16",    "0.0.0.0/0",   "10.0.0.5",
	    "192.168.0.0/16", "128.0.0.0/1", "0.0.0.0/1",
	    "10.1.2.3/32",    "::/0",	     "2001:db8::/32",
	    "2001:db8::/48",  "8000::/1",    "::ffff:10.0.0.0/104",
	    "[2001:db8::1]",  "[::1]",	     "255.255.255.255",
	};
	static const char *const names[] = {"a.example.com", "b.example.com",
					    "${S}", "${T}"};
	unsigned k = pick(g, 10);
	const char *a;

	if (allow && k < 3)
		a = ONE(g, names);
	else
		a = ONE(g, cidrs);
	/* A bare IPv6 CIDR takes no port; [ADDR] always one. */
	if (a[0] == '[')
		put(o, " %s:%s", a, ONE(g, ports));
	else if (strchr(a, ':') || pick(g, 3) == 0)
		put(o, " %s", a);
	else
		put(o, " %s:%s", a, ONE(g, ports));
}

static void gen_net(struct dgen *g, struct out *o)
{
	static const char *const protos[] = {"", "", " tcp", " udp",
					     " tcp udp"};
	unsigned m = pick(g, 10);

	if (m < 2) {
		put(o, "  net none");
		if (pick(g, 2))
			put(o, " {\n    loopback %s\n  }", ONE(g, ports));
		put(o, "\n");
		return;
	}
	if (m < 4) {
		put(o, "  net host");
		if (pick(g, 3)) {
			put(o, " {\n");
			if (pick(g, 3))
				put(o, "    connect %s %s\n", ONE(g, ports),
				    ONE(g, ports));
			if (pick(g, 2))
				put(o, "    bind %s\n", ONE(g, ports));
			put(o, "  }");
		}
		put(o, "\n");
		return;
	}
	put(o, "  net filtered {\n");
	for (unsigned i = 0, n = pick(g, 4); i < n; i++) {
		put(o, "    allow");
		for (unsigned k = 0, ne = 1 + pick(g, 2); k < ne; k++)
			entry(g, o, 1);
		put(o, "%s\n", ONE(g, protos));
	}
	for (unsigned i = 0, n = pick(g, 3); i < n; i++) {
		put(o, "    deny");
		entry(g, o, 0);
		put(o, "%s\n", ONE(g, protos));
	}
	if (pick(g, 3) == 0)
		put(o, "    loopback %s\n", ONE(g, ports));
	put(o, "  }\n");
}

/* ---- limits, env, landlock ---------------------------------------------- */

static void gen_limits(struct dgen *g, struct out *o)
{
	static const char *const modes[] = {"", " require", " best_effort",
					    " require"};
	static const char *const sizes[] = {"1KiB", "1MiB", "2GiB", "1048575B",
					    "1GiB"};
	static const char *const counts[] = {"1", "64", "256"};
	static const char *const times[] = {"500ms", "1500ms", "2s",	"10s",
					    "30m",   "1h",     "2001ms"};
	static const char *const keys[] = {"memory", "pids", "nofile",
					   "cpu",    "wall", "fsize",
					   "core",   "grace"};

	put(o, "  limits%s {", ONE(g, modes));
	for (unsigned i = 0; i < 8; i++) {
		/* memory and pids, the two a cgroup holds, more often */
		if (pick(g, i < 2 ? 2 : 3))
			continue;
		put(o, " %s ", keys[i]);
		if (i == 6)
			put(o, "%s", pick(g, 2) ? "0" : "1MiB");
		else if (i == 7)
			put(o, "%s", pick(g, 2) ? "2s" : ONE(g, times));
		else if (i == 0 || i == 5)
			put(o, "%s", ONE(g, sizes));
		else if (i == 1 || i == 2)
			put(o, "%s", ONE(g, counts));
		else
			put(o, "%s", ONE(g, times));
	}
	put(o, " }\n");
}

static void gen_env(struct dgen *g, struct out *o)
{
	static const char *const names[] = {"A", "B", "C", "D"};
	static const char *const vals[] = {"x", "y", "${W}", "/p:${V}"};
	unsigned used = 0;

	put(o, "  env {\n");
	for (unsigned i = 0, n = 1 + pick(g, 3); i < n; i++) {
		unsigned k = pick(g, 4), kind = pick(g, 3);

		if (used >> k & 1)
			continue;
		used |= 1u << k;
		if (kind == 0)
			put(o, "    pass %s\n", names[k]);
		else if (kind == 1)
			put(o, "    set %s=%s\n", names[k], ONE(g, vals));
		else
			put(o, "    secret %s from file %s%s\n", names[k],
			    pick(g, 2) ? "/s" : "/t",
			    pick(g, 2) ? ""
			    : k == 0   ? " to /run/x/a"
				       : "");
	}
	put(o, "  }\n");
}

int dgen_policy(struct dgen *g, char *buf, size_t len)
{
	static const char *const ll[] = {"require", "best_effort"};
	static const unsigned abis[] = {0, 1, 2, 4, 6};
	struct out o = {buf, 0, len, 0};

	put(&o, "policy \"r\" {\n");
	if (pick(g, 4) == 0)
		put(&o, "  user %s\n", pick(g, 2) ? "65534" : "1000:100");
	if (pick(g, 10) < 3) {
		unsigned abi = abis[pick(g, 5)];

		if (abi)
			put(&o, "  landlock abi >= %u %s\n", abi, ONE(g, ll));
		else
			put(&o, "  landlock %s\n", ONE(g, ll));
	}
	if (g->frame || pick(g, 4))
		gen_fs(g, &o);
	if (pick(g, 7))
		gen_net(g, &o);
	if (pick(g, 7))
		gen_syscalls(g, &o);
	if (pick(g, 5) < 3)
		gen_limits(g, &o);
	if (pick(g, 5) < 3)
		gen_env(g, &o);
	put(&o, "}\n");
	return o.full ? -1 : 0;
}
