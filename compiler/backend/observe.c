// SPDX-License-Identifier: MIT
/*
 * The OBSERVE section (artifact/sections.h, docs/OBSERVE.md): the three
 * observation programs, each generated from the IR and proven against its
 * specification like the decision program, and the tables polexec names
 * what it saw with: syscall names, how each argument is shown, constant
 * names, the rules' texts. Nothing here decides anything: the tables only
 * turn numbers into words, and the supervisor answers every notification
 * with the decision program's own action.
 *
 * Keeping the names here, not in polexec, keeps the stub small and makes
 * the words the ones this polc compiled against.
 */
#include "backend.h"
#include "polbin.h"
#include "sections.h"
#include "sema/sema.h" /* the companion rules' table, to name them */
#include "support/support.h"
#include "tables/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Constant tables (the `table` of a format), 1..15. */
enum obs_table {
	T_NONE = 0,
	T_AF,
	T_SOCKTYPE,
	T_OPEN,
	T_FCNTL,
	T_PRCTL,
	T_CLONE,
	T_PROT,
	T_MAP,
	T_AT,
	T_SECCOMP,
	T_ERRNO, /* errno names, for the actions: polexec has no table */
	T_COUNT
};

static const struct {
	const char *prefix;
	uint8_t kind;
	uint32_t low_mask;
} tables[T_COUNT] = {
    [T_AF] = {"AF_", POLBIN_OBS_CONST_ENUM, 0},
    [T_SOCKTYPE] = {"SOCK_", POLBIN_OBS_CONST_ENUM_LOW, 0xf},
    [T_OPEN] = {"O_", POLBIN_OBS_CONST_ENUM_LOW, 0x3},
    [T_FCNTL] = {"F_", POLBIN_OBS_CONST_ENUM, 0},
    [T_PRCTL] = {"PR_", POLBIN_OBS_CONST_ENUM, 0},
    [T_CLONE] = {"CLONE_", POLBIN_OBS_CONST_FLAGS, 0},
    [T_PROT] = {"PROT_", POLBIN_OBS_CONST_FLAGS, 0},
    [T_MAP] = {"MAP_", POLBIN_OBS_CONST_ENUM_LOW, 0x3},
    [T_AT] = {"AT_", POLBIN_OBS_CONST_FLAGS, 0},
    [T_SECCOMP] = {"SECCOMP_FILTER_FLAG_", POLBIN_OBS_CONST_FLAGS, 0},
    [T_ERRNO] = {"E", POLBIN_OBS_CONST_ENUM, 0},
};

/* Names a table leaves out: aliases of a clearer name, masks, values of
 * another argument that share the prefix. */
static int skipped(const char *name)
{
	static const char *const skip[] = {
	    "AT_EACCESS", /* faccessat's bit, the value of AT_REMOVEDIR */
	    "AF_FILE",
	    "AF_LOCAL",
	    "AF_ROUTE",
	    "O_ACCMODE",
	    "O_FSYNC",
	    "O_NDELAY",
	    "O_RSYNC",
	    "F_RDLCK",
	    "F_WRLCK",
	    "F_UNLCK",
	    "MAP_ANON",
	    "MAP_FILE",
	    "MAP_TYPE",
	    "MAP_EXECUTABLE",
	    "MAP_DENYWRITE",
	    "AT_FDCWD",
	    "AT_STATX_SYNC_TYPE",
	    "AT_STATX_SYNC_AS_STAT",
	    "SOCK_PACKET",
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return 1;
	return !strncmp(name, "F_SEAL_", 7) ||
	       !strncmp(name, "PR_CAP_AMBIENT_", 15);
}

/* ---- How each argument is shown ----------------------------------------- */

static const struct {
	const char *syscall, *arg;
	uint8_t kind, table;
} arg_formats[] = {
    {"socket", "family", POLBIN_OBS_ARG_ENUM, T_AF},
    {"socket", "type", POLBIN_OBS_ARG_ENUM, T_SOCKTYPE},
    {"socket", "protocol", POLBIN_OBS_ARG_INT, T_NONE},
    {"socketpair", "family", POLBIN_OBS_ARG_ENUM, T_AF},
    {"socketpair", "type", POLBIN_OBS_ARG_ENUM, T_SOCKTYPE},
    {"open", "flags", POLBIN_OBS_ARG_FLAGS, T_OPEN},
    {"openat", "flags", POLBIN_OBS_ARG_FLAGS, T_OPEN},
    {"fcntl", "cmd", POLBIN_OBS_ARG_ENUM, T_FCNTL},
    {"prctl", "option", POLBIN_OBS_ARG_ENUM, T_PRCTL},
    {"clone", "clone_flags", POLBIN_OBS_ARG_FLAGS, T_CLONE},
    {"unshare", "unshare_flags", POLBIN_OBS_ARG_FLAGS, T_CLONE},
    {"setns", "flags", POLBIN_OBS_ARG_FLAGS, T_CLONE},
    {"mmap", "prot", POLBIN_OBS_ARG_FLAGS, T_PROT},
    {"mmap", "flags", POLBIN_OBS_ARG_FLAGS, T_MAP},
    {"mprotect", "prot", POLBIN_OBS_ARG_FLAGS, T_PROT},
    {"pkey_mprotect", "prot", POLBIN_OBS_ARG_FLAGS, T_PROT},
    {"seccomp", "flags", POLBIN_OBS_ARG_FLAGS, T_SECCOMP},
    {"ioctl", "cmd", POLBIN_OBS_ARG_HEX, T_NONE},
};

static int in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

int observe_arg_format(const char *syscall, unsigned arg, unsigned *table)
{
	static const char *const paths[] = {
	    "filename", "pathname",    "oldname",  "newname",
	    "path",	"specialfile", "dev_name", "dir_name",
	    "library",	"oldpath",     "newpath"};
	static const char *const fds[] = {
	    "fd",   "fildes", "oldfd",	  "newfd", "ufd",
	    "epfd", "pidfd",  "dfd_from", "fd_in", "fd_out"};
	static const char *const dirfds[] = {"dfd", "olddfd", "newdfd"};
	static const char *const sizes[] = {"count",  "len",	"size",
					    "bufsiz", "length", "addrlen",
					    "usize",  "vlen",	"nbytes"};
	const struct syscall_args *sa = syscall_args_find(syscall);
	const char *name;

	*table = T_NONE;
	if (!sa || arg >= sa->nargs)
		return POLBIN_OBS_ARG_NONE;
	name = sa->args[arg].name;
	for (size_t i = 0; i < sizeof(arg_formats) / sizeof(arg_formats[0]);
	     i++)
		if (!strcmp(arg_formats[i].syscall, syscall) &&
		    !strcmp(arg_formats[i].arg, name)) {
			*table = arg_formats[i].table;
			return arg_formats[i].kind;
		}
	if (in_list(name, paths, sizeof(paths) / sizeof(paths[0])))
		return POLBIN_OBS_ARG_PATH;
	if (in_list(name, dirfds, sizeof(dirfds) / sizeof(dirfds[0])))
		return POLBIN_OBS_ARG_DIRFD;
	if (in_list(name, fds, sizeof(fds) / sizeof(fds[0])))
		return POLBIN_OBS_ARG_FD;
	if (in_list(name, sizes, sizeof(sizes) / sizeof(sizes[0])))
		return POLBIN_OBS_ARG_SIZE;
	if (!strcmp(name, "mode"))
		return POLBIN_OBS_ARG_MODE;
	/* *at()'s flags are AT_ flags. */
	if ((!strcmp(name, "flags") || !strcmp(name, "flag")) &&
	    strlen(syscall) > 2 &&
	    !strcmp(syscall + strlen(syscall) - 2, "at")) {
		*table = T_AT;
		return POLBIN_OBS_ARG_FLAGS;
	}
	return sa->args[arg].width == 32 ? POLBIN_OBS_ARG_INT
					 : POLBIN_OBS_ARG_HEX;
}

/* ---- Writing ---------------------------------------------------------- */

struct out {
	FILE *f;
	char *buf;
	size_t len;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (n)
		fwrite(p, 1, n, o->f);
}

static void put8(struct out *o, uint8_t v)
{
	put(o, &v, 1);
}

static void put16(struct out *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};

	put(o, b, 2);
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, (uint16_t)v);
	put16(o, (uint16_t)(v >> 16));
}

static void put64(struct out *o, uint64_t v)
{
	put32(o, (uint32_t)v);
	put32(o, (uint32_t)(v >> 32));
}

/* One record: tag, length, payload, padding. */
static void record(struct out *o, uint16_t tag, const void *p, size_t n)
{
	static const uint8_t zero[4];

	put16(o, tag);
	put16(o, 0);
	put32(o, (uint32_t)n);
	put(o, p, n);
	put(o, zero, (4 - n % 4) % 4);
}

/* A record built in a buffer of its own. */
static int record_of(struct out *o, uint16_t tag, struct out *rec)
{
	if (fclose(rec->f))
		return -1;
	record(o, tag, rec->buf, rec->len);
	free(rec->buf);
	return 0;
}

static int open_out(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	return o->f ? 0 : -1;
}

/* ---- The programs ----------------------------------------------------- */

static int program(struct out *o, const struct ir_policy *p,
		   enum seccomp_variant v, uint16_t tag, char *err,
		   size_t errlen)
{
	static const char *const names[] = {"decision", "notify", "learn",
					    "explain"};
	struct sock_filter *prog = NULL;
	size_t n = 0;
	char why[512];
	int r;

	if (seccomp_generate_variant(p, v, &prog, &n, why, sizeof(why))) {
		errbuf_fail(err, errlen, "seccomp %s program: %s", names[v],
			    why);
		return 2;
	}
	r = seccomp_validate_variant(p, v, prog, n, 0, NULL, why, sizeof(why));
	if (r) {
		errbuf_fail(
		    err, errlen,
		    "translation validation of the %s program %s: %s", names[v],
		    r == 1 ? "found a mismatch" : "could not finish", why);
		free(prog);
		return 3;
	}
	record(o, tag, prog, n * sizeof(*prog));
	free(prog);
	return 0;
}

/* ---- The tables ------------------------------------------------------- */

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

struct cname {
	const char *name;
	uint64_t value;
};

/* FLAGS tables: most bits first, so that the greedy decoding in polexec
 * names O_SYNC before O_DSYNC. Else by value; names keep their order. */
static int cname_cmp(const void *x, const void *y, void *flags)
{
	const struct cname *a = x, *b = y;

	if (*(const int *)flags && popcount64(a->value) != popcount64(b->value))
		return popcount64(a->value) > popcount64(b->value) ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int const_table(struct out *o, unsigned t)
{
	const struct constant *c;
	struct cname v[256];
	size_t n = 0, prefix = strlen(tables[t].prefix), kept = 0;
	int flags = tables[t].kind != POLBIN_OBS_CONST_ENUM;
	struct out rec;

	for (unsigned i = 0; (c = constant_at(i)) && i < constant_count(); i++)
		if (t != T_ERRNO &&
		    !strncmp(c->name, tables[t].prefix, prefix) &&
		    !skipped(c->name) && n < sizeof(v) / sizeof(v[0]))
			v[n++] = (struct cname){c->name, (uint64_t)c->value};
	/* errno: the canonical name of each value (EAGAIN, not
	 * EWOULDBLOCK) */
	for (int e = 1;
	     t == T_ERRNO && e < 4096 && n < sizeof(v) / sizeof(v[0]); e++)
		if (errno_name(e))
			v[n++] = (struct cname){errno_name(e), (uint64_t)e};
	qsort_r(v, n, sizeof(v[0]), cname_cmp, &flags);
	if (open_out(&rec))
		return -1;
	put8(&rec, (uint8_t)t);
	put8(&rec, tables[t].kind);
	/* count patched below: entries of one value after the first go */
	for (size_t i = 0; i < n; i++)
		kept += !(i && v[i].value == v[i - 1].value);
	put16(&rec, (uint16_t)kept);
	put32(&rec, tables[t].low_mask);
	for (size_t i = 0; i < n; i++) {
		if (i && v[i].value == v[i - 1].value)
			continue;
		put64(&rec, v[i].value);
		put8(&rec, (uint8_t)strlen(v[i].name));
		put(&rec, v[i].name, strlen(v[i].name));
	}
	return record_of(o, POLBIN_OBS_CONST, &rec);
}

/* Every x86_64 number our syscall table names, with its arguments'
 * formats. */
static int syscall_names(struct out *o)
{
	for (int nr = 0; nr <= syscall_max_nr(SYSCALL_ARCH_X86_64) &&
			 nr < POLBIN_OBS_MAX_NR;
	     nr++) {
		const char *name = syscall_name(SYSCALL_ARCH_X86_64, nr);
		const struct syscall_args *sa;
		uint8_t rec[10 + 40] = {0};
		size_t len = name ? strlen(name) : 0;

		if (len == 0 || len > 40)
			continue;
		sa = syscall_args_find(name);
		rec[0] = (uint8_t)nr;
		rec[1] = (uint8_t)(nr >> 8);
		rec[2] = sa ? sa->nargs : POLBIN_OBS_NARGS_UNKNOWN;
		rec[3] = (uint8_t)len;
		for (unsigned i = 0; sa && i < sa->nargs && i < 6; i++) {
			unsigned table,
			    kind =
				(unsigned)observe_arg_format(name, i, &table);

			rec[4 + i] = (uint8_t)(kind | table << 4);
		}
		memcpy(rec + 10, name, len);
		record(o, POLBIN_OBS_SYSCALL, rec, 10 + len);
	}
	return 0;
}

/* ---- The rules' texts ------------------------------------------------- */

/* The name of v in table t when it has one. */
static const char *const_name(unsigned t, uint64_t v)
{
	const struct constant *c;
	size_t prefix;

	if (t == T_NONE || t >= T_COUNT ||
	    tables[t].kind != POLBIN_OBS_CONST_ENUM)
		return NULL;
	prefix = strlen(tables[t].prefix);
	for (unsigned i = 0; (c = constant_at(i)) && i < constant_count(); i++)
		if (!strncmp(c->name, tables[t].prefix, prefix) &&
		    !skipped(c->name) && (uint64_t)c->value == v)
			return c->name;
	return NULL;
}

const char *observe_value_name(const char *syscall, unsigned arg, uint64_t v)
{
	unsigned table = T_NONE;

	if (observe_arg_format(syscall, arg, &table) != POLBIN_OBS_ARG_ENUM)
		return NULL;
	return const_name(table, v);
}

/* "family == AF_INET6", "type & 0xf == 0x3": the atom as policy text. */
static void atom_text(FILE *f, const char *syscall, const struct ir_atom *a)
{
	uint64_t full = a->width == 32 ? 0xffffffffull : ~0ull;
	unsigned table = T_NONE;
	const char *value = NULL;

	if (a->mask == full &&
	    observe_arg_format(syscall, a->arg, &table) == POLBIN_OBS_ARG_ENUM)
		value = const_name(table, a->value);
	if (!value) {
		ir_print_atom(f, syscall, a);
		return;
	}
	{
		const char *name = syscall_args_name(syscall, a->arg);

		fprintf(f, "%s %s %s", name ? name : "arg", ir_op_str(a->op),
			value);
	}
}

/* The policy text of rule r of sc; the companions' own text for theirs. */
int observe_rule_text(FILE *f, const struct ir_syscall *sc,
		      const struct ir_rule *r)
{
	char act[32];

	for (size_t k = 0; k < ncompanions; k++)
		if (!strcmp(companions[k].name, sc->name) &&
		    !ir_rule_cmp(&companions[k].rule, r)) {
			fputs(companions[k].text, f);
			return 1;
		}
	fprintf(f, "%s %s", ir_action_str(&r->action, act, sizeof(act)),
		sc->name);
	for (uint32_t i = 0; i < r->natoms; i++) {
		fputs(i ? " && " : " if ", f);
		atom_text(f, sc->name, &r->atoms[i]);
	}
	return 0;
}

static int rule_text(const struct ir_syscall *sc, const struct ir_rule *r,
		     struct out *o, uint8_t *flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -1;
	*flags = observe_rule_text(f, sc, r) ? POLBIN_OBS_RULE_COMPANION : 0;
	if (fclose(f))
		return -1;
	put(o, text, len);
	free(text);
	return 0;
}

static int rule_record(struct out *o, uint32_t code, uint8_t flags,
		       const struct ir_action *a, const char *text,
		       const struct ir_syscall *sc, const struct ir_rule *r)
{
	struct out rec, body;
	uint8_t rflags = flags;

	if (open_out(&body))
		return -1;
	if (text)
		put(&body, text, strlen(text));
	else if (rule_text(sc, r, &body, &rflags))
		return -1;
	if (fclose(body.f) || open_out(&rec))
		return -1;
	put32(&rec, code);
	put8(&rec, rflags);
	put8(&rec, a->kind);
	put16(&rec, a->errnum);
	put16(&rec, (uint16_t)(body.len < 1024 ? body.len : 1024));
	put(&rec, body.buf, body.len < 1024 ? body.len : 1024);
	free(body.buf);
	return record_of(o, POLBIN_OBS_RULE, &rec);
}

static int rules(struct out *o, const struct ir_syscalls *s)
{
	char act[32], text[64];

	snprintf(text, sizeof(text), "default %s",
		 ir_action_str(&s->def, act, sizeof(act)));
	if (rule_record(o, SECCOMP_EXPLAIN_DEFAULT, 0, &s->def, text, NULL,
			NULL))
		return -1;
	snprintf(text, sizeof(text), "badarch %s",
		 ir_action_str(&s->badarch, act, sizeof(act)));
	if (rule_record(o, SECCOMP_EXPLAIN_BADARCH, 0, &s->badarch, text, NULL,
			NULL))
		return -1;
	for (uint32_t i = 0; i < s->ncalls; i++) {
		const struct ir_syscall *sc = &s->calls[i];

		for (uint32_t r = 0; r < sc->nrules; r++)
			if (rule_record(o, seccomp_explain_code(s, sc, r), 0,
					&sc->rules[r].action, NULL, sc,
					&sc->rules[r]))
				return -1;
	}
	return 0;
}

/* ---- The section ------------------------------------------------------- */

int observe_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
			  char *err, size_t errlen)
{
	struct out o;
	uint32_t flags = 0;
	int rc;

	*out = NULL;
	*len = 0;
	if (!p->sys.present)
		return 0;
	if (p->fs.observe & IR_OBSERVE_DESTRUCTIVE)
		flags |= POLBIN_OBS_F_DESTRUCTIVE;
	if (p->fs.present)
		flags |= POLBIN_OBS_F_LEARN_PATHS;
	if (open_out(&o)) {
		errbuf_fail(err, errlen, "observe: out of memory");
		return 2;
	}
	put32(&o, POLBIN_OBS_VERSION);
	put32(&o, flags);
	if ((rc = program(&o, p, SECCOMP_NOTIFY, POLBIN_OBS_NOTIFY, err,
			  errlen)) ||
	    (rc = program(&o, p, SECCOMP_LEARN, POLBIN_OBS_LEARN, err,
			  errlen)) ||
	    (rc = program(&o, p, SECCOMP_EXPLAIN, POLBIN_OBS_EXPLAIN, err,
			  errlen)))
		goto fail;
	rc = 2;
	if (syscall_names(&o))
		goto oom;
	for (unsigned t = 1; t < T_COUNT; t++)
		if (const_table(&o, t))
			goto oom;
	if (rules(&o, &p->sys))
		goto oom;
	if (p->fs.workspace)
		record(&o, POLBIN_OBS_WORKSPACE, p->fs.workspace,
		       strlen(p->fs.workspace));
	if (fclose(o.f)) {
		o.f = NULL;
		goto oom;
	}
	*out = (uint8_t *)o.buf;
	*len = o.len;
	return 0;
oom:
	errbuf_fail(err, errlen, "observe: out of memory");
fail:
	if (o.f)
		fclose(o.f);
	free(o.buf);
	return rc;
}
