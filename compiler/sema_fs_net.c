/* SPDX-License-Identifier: MIT */
/*
 * The fs and net sections. Paths are normalized here (no `.`, no `..`, no
 * doubled or trailing slash) so that the prover's path model and the
 * paths polexec opens are the same strings.
 */
#include "sema_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	uint32_t bits;
} fs_rights[] = {
    {"execute", IR_FS_EXECUTE},	      {"write_file", IR_FS_WRITE_FILE},
    {"read_file", IR_FS_READ_FILE},   {"read_dir", IR_FS_READ_DIR},
    {"remove_dir", IR_FS_REMOVE_DIR}, {"remove_file", IR_FS_REMOVE_FILE},
    {"make_char", IR_FS_MAKE_CHAR},   {"make_dir", IR_FS_MAKE_DIR},
    {"make_reg", IR_FS_MAKE_REG},     {"make_sock", IR_FS_MAKE_SOCK},
    {"make_fifo", IR_FS_MAKE_FIFO},   {"make_block", IR_FS_MAKE_BLOCK},
    {"make_sym", IR_FS_MAKE_SYM},     {"refer", IR_FS_REFER},
    {"truncate", IR_FS_TRUNCATE},     {"ioctl_dev", IR_FS_IOCTL_DEV},
};

#define FS_RO (IR_FS_READ_FILE | IR_FS_READ_DIR)
#define FS_RX (FS_RO | IR_FS_EXECUTE)
#define FS_RW                                                                  \
	(FS_RO | IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |     \
	 IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | IR_FS_MAKE_FIFO | \
	 IR_FS_MAKE_SYM | IR_FS_REFER | IR_FS_TRUNCATE)

static const char *const fs_keys[] = {"ro", "rx", "rw", "rwx", "allow"};

/*
 * Normalizes `in` into a malloc'd path. A path starts with '/', '~' or a
 * ${VAR} and has no '..' component: the prover decides containment on
 * these strings, which '..' would make meaningless.
 */
static char *normalize_path(struct sema *s, const struct ast_word *w)
{
	const char *in = w->text, *p, *rest;
	size_t n = strlen(in), o;
	char *out;

	if (sema_check_vars(s, w, in))
		return NULL;
	if (ir_has_control(in) || n >= IR_MAX_STR) {
		diag_error(s->d, w->loc,
			   ir_has_control(in) ? "control character in a path"
					      : "path longer than 4095 bytes");
		return NULL;
	}
	if (in[0] == '/')
		rest = in;
	else if (in[0] == '~' && (in[1] == '\0' || in[1] == '/'))
		rest = in + 1;
	else if (in[0] == '$' && (p = strchr(in, '}')))
		rest = p + 1;
	else {
		diag_error(s->d, w->loc,
			   "path '%s' must be absolute, or start with ~ or "
			   "${VAR}",
			   in);
		return NULL;
	}
	if (*rest && *rest != '/') {
		diag_error(s->d, w->loc,
			   "path '%s': a variable or ~ must be followed by '/'",
			   in);
		return NULL;
	}
	out = malloc(n + 2);
	if (!out) {
		s->oom = 1;
		return NULL;
	}
	o = (size_t)(rest - in);
	memcpy(out, in, o);
	p = rest;
	while (*p) {
		const char *end;
		size_t len;

		while (*p == '/')
			p++;
		end = strchr(p, '/');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0)
			break;
		if (len == 2 && !strncmp(p, "..", 2)) {
			diag_error(s->d, w->loc,
				   "path '%s' has a '..' component; write the "
				   "folder it means",
				   in);
			free(out);
			return NULL;
		}
		if (!(len == 1 && *p == '.')) {
			out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

static int fs_right(const struct ast_word *w, uint32_t *bits)
{
	size_t i;

	for (i = 0; i < sizeof(fs_rights) / sizeof(*fs_rights); i++) {
		if (!strcmp(w->text, fs_rights[i].name)) {
			*bits |= fs_rights[i].bits;
			return 0;
		}
	}
	return -1;
}

static void fs_add(struct sema *s, const struct ast_word *w, uint32_t rights,
		   uint32_t flags, const struct ast_word *waiver)
{
	char *path = normalize_path(s, w);
	size_t i;

	if (!path)
		return;
	for (i = 0; i < s->nfs; i++) {
		const struct fs_src *o = &s->fs[i];

		if (strcmp(o->rule.path, path))
			continue;
		if (o->loc.file == w->loc.file)
			sema_dup(s, w->loc, o->loc, "path", path);
		else if (o->rule.rights != rights || o->rule.flags != flags) {
			diag_error(s->d, w->loc,
				   "'%s' is granted other rights elsewhere; "
				   "grant each path in one place",
				   path);
			diag_note(s->d, o->loc, "the other grant");
		}
		free(path);
		return;
	}
	if (s->nfs >= IR_MAX_FS) {
		diag_error(s->d, w->loc, "more than %d paths", IR_MAX_FS);
		free(path);
		return;
	}
	if (sema_grow(s, (void **)&s->fs, &s->capfs, s->nfs, sizeof(*s->fs))) {
		free(path);
		return;
	}
	s->fs[s->nfs].rule.path = path;
	s->fs[s->nfs].rule.rights = rights;
	s->fs[s->nfs].rule.flags = flags;
	s->fs[s->nfs].loc = w->loc;
	s->fs[s->nfs].waived = waiver != NULL;
	if (waiver)
		s->fs[s->nfs].waiver = waiver->loc;
	s->nfs++;
}

/*
 * ro|rx|rw|rwx [optional] [follow] [unsafe] PATH...
 * allow RIGHT... on [optional] [follow] [unsafe] PATH...
 * A flag word applies to the paths after it in the statement.
 */
static void fs_stmt(struct sema *s, const struct ast_stmt *st)
{
	const struct ast_word *k = &st->words[0], *waiver = NULL, *flag = NULL;
	uint32_t rights = 0, flags = 0;
	size_t i = 1;
	int paths = 0;

	if (st->cond || st->has_block || k->kind != AST_WORD) {
		diag_error(s->d, st->loc, "expected 'ro|rx|rw|rwx PATH...'");
		return;
	}
	if (!strcmp(k->text, "ro"))
		rights = FS_RO;
	else if (!strcmp(k->text, "rx"))
		rights = FS_RX;
	else if (!strcmp(k->text, "rw"))
		rights = FS_RW;
	else if (!strcmp(k->text, "rwx"))
		rights = FS_RW | IR_FS_EXECUTE;
	else if (!strcmp(k->text, "allow")) {
		for (; i < st->nwords && strcmp(st->words[i].text, "on"); i++) {
			if (fs_right(&st->words[i], &rights)) {
				const char
				    *c[sizeof(fs_rights) / sizeof(*fs_rights)];
				size_t j;

				for (j = 0; j < sizeof(c) / sizeof(*c); j++)
					c[j] = fs_rights[j].name;
				sema_unknown(s, &st->words[i],
					     "filesystem right", c,
					     sizeof(c) / sizeof(*c));
				return;
			}
		}
		if (i == st->nwords || rights == 0) {
			diag_error(s->d, st->loc,
				   "expected 'allow RIGHT... on PATH...'");
			return;
		}
		i++;
	} else {
		sema_unknown(s, k, "fs rule", fs_keys,
			     sizeof(fs_keys) / sizeof(*fs_keys));
		return;
	}
	for (; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];

		if (w->kind == AST_WORD && !strcmp(w->text, "optional")) {
			flags |= IR_FS_OPTIONAL;
			flag = w;
		} else if (w->kind == AST_WORD && !strcmp(w->text, "follow")) {
			flags |= IR_FS_FOLLOW;
			flag = w;
		} else if (w->kind == AST_WORD && !strcmp(w->text, "unsafe")) {
			waiver = flag = w;
		} else if (w->kind == AST_WORD || w->kind == AST_STRING) {
			fs_add(s, w, rights, flags, waiver);
			paths++;
			flag = NULL;
		} else {
			diag_error(s->d, w->loc, "expected a path");
		}
	}
	if (!paths)
		diag_error(s->d, st->loc, "no path given");
	else if (flag)
		diag_error(s->d, flag->loc,
			   "'%s' applies to the paths after it, and none "
			   "follows",
			   flag->text);
}

void sema_fs(struct sema *s, const struct ast_stmt *st)
{
	size_t i;

	if (st->nwords != 1 || !st->has_block || st->cond) {
		diag_error(s->d, st->loc, "expected 'fs { ... }'");
		return;
	}
	s->p->fs.present = 1;
	for (i = 0; i < st->nchildren; i++)
		fs_stmt(s, &st->children[i]);
}

/* ---- net ---------------------------------------------------------------- */

static int parse_cidr(struct sema *s, const struct ast_word *w,
		      const char *text, struct ir_net_entry *e)
{
	char buf[64];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	unsigned bits, i;
	long long pfx;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, e->addr) == 1)
		e->kind = IR_ADDR_V4, bits = 32;
	else if (inet_pton(AF_INET6, buf, e->addr) == 1)
		e->kind = IR_ADDR_V6, bits = 128;
	else
		return -1;
	pfx = bits;
	if (slash) {
		struct ast_word pw = *w;

		pw.text = (char *)(uintptr_t)(slash + 1);
		if (!*pw.text || sema_number(s, &pw, &pfx))
			return -2;
		if (pfx < 0 || pfx > bits) {
			diag_error(s->d, w->loc,
				   "prefix /%lld out of range for %s", pfx,
				   e->kind == IR_ADDR_V4 ? "IPv4" : "IPv6");
			return -2;
		}
	}
	e->prefix = (uint8_t)pfx;
	for (i = e->prefix; i < bits; i++) {
		if (e->addr[i / 8] & (0x80u >> (i % 8))) {
			diag_error(
			    s->d, w->loc,
			    "'%s' has host bits set below /%u; write the "
			    "network address",
			    text, e->prefix);
			return -2;
		}
	}
	return 0;
}

/* ADDR[:PORTS] where ADDR is [v6], a v4 or v6 CIDR, a name or ${VAR}. */
static int parse_entry(struct sema *s, const struct ast_word *w,
		       struct ir_net_entry *e, int allow_names)
{
	char addr[300];
	const char *t = w->text, *ports = NULL, *colon;
	struct ir_port_range r = {0, 65535};
	size_t n;
	int rc;

	memset(e, 0, sizeof(*e));
	if (t[0] == '[') {
		const char *end = strchr(t, ']');

		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		n = (size_t)(end - t - 1);
		if (end[1] == ':')
			ports = end + 2;
		t++;
	} else if ((colon = strchr(t, ':')) && strchr(colon + 1, ':')) {
		n = strlen(t); /* a bare IPv6 address: no port */
	} else if (colon) {
		n = (size_t)(colon - t);
		ports = colon + 1;
	} else {
		n = strlen(t);
	}
	if (n == 0 || n >= sizeof(addr))
		goto bad;
	memcpy(addr, t, n);
	addr[n] = '\0';
	if (ports && sema_ports(s, w, ports, &r))
		return -1;
	e->port_lo = r.lo;
	e->port_hi = r.hi;
	rc = parse_cidr(s, w, addr, e);
	if (rc == -2)
		return -1;
	if (rc == 0)
		return 0;
	if (!allow_names) {
		diag_error(s->d, w->loc,
			   "expected an address or CIDR, got '%s'", addr);
		return -1;
	}
	if (addr[0] == '$') {
		if (sema_check_vars(s, w, addr))
			return -1;
		if (addr[n - 1] != '}' || strchr(addr + 1, '$'))
			goto bad;
		e->kind = IR_ADDR_VAR;
	} else {
		size_t i;

		for (i = 0; i < n; i++)
			addr[i] = (char)tolower((unsigned char)addr[i]);
		if (!ir_is_hostname(addr))
			goto bad;
		e->kind = IR_ADDR_NAME;
	}
	e->name = strdup(addr);
	if (!e->name) {
		s->oom = 1;
		return -1;
	}
	return 0;
bad:
	diag_error(s->d, w->loc,
		   "expected HOST[:PORT], IP[:PORT], CIDR[:PORT] or "
		   "[IPv6]:PORT, got '%s'",
		   w->text);
	return -1;
}

static void net_add(struct sema *s, struct ir_net_entry *e, struct loc loc)
{
	size_t i;

	for (i = 0; i < s->nnet; i++) {
		const struct ir_net_entry *o = &s->net[i].e;

		if (o->verdict == e->verdict && o->kind == e->kind &&
		    o->prefix == e->prefix && o->proto == e->proto &&
		    !memcmp(o->addr, e->addr, sizeof(o->addr)) &&
		    !(o->name || e->name
			  ? !o->name || !e->name || strcmp(o->name, e->name)
			  : 0) &&
		    o->port_lo == e->port_lo && o->port_hi == e->port_hi) {
			diag_error(s->d, loc, "duplicate net entry");
			diag_note(s->d, s->net[i].loc, "first given here");
			free(e->name);
			return;
		}
	}
	if (s->nnet >= IR_MAX_NET) {
		diag_error(s->d, loc, "more than %d net entries", IR_MAX_NET);
		free(e->name);
		return;
	}
	if (sema_grow(s, (void **)&s->net, &s->capnet, s->nnet,
		      sizeof(*s->net))) {
		free(e->name);
		return;
	}
	s->net[s->nnet].e = *e;
	s->net[s->nnet].loc = loc;
	s->nnet++;
}

/* allow|deny ENTRY... [tcp] [udp] */
static void net_entry_stmt(struct sema *s, const struct ast_stmt *st,
			   uint8_t verdict)
{
	int tcp = 0, udp = 0, entries = 0;
	size_t i;

	for (i = 1; i < st->nwords; i++) {
		if (!strcmp(st->words[i].text, "tcp"))
			tcp = 1;
		else if (!strcmp(st->words[i].text, "udp"))
			udp = 1;
	}
	if (!tcp && !udp)
		tcp = 1;
	for (i = 1; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];
		struct ir_net_entry e;

		if (!strcmp(w->text, "tcp") || !strcmp(w->text, "udp"))
			continue;
		if (w->kind != AST_WORD) {
			diag_error(s->d, w->loc, "expected an address");
			continue;
		}
		entries++;
		if (parse_entry(s, w, &e, verdict == IR_NET_ALLOW))
			continue;
		e.verdict = verdict;
		if (tcp) {
			struct ir_net_entry t = e;

			t.proto = IR_PROTO_TCP;
			if (udp && e.name && !(t.name = strdup(e.name))) {
				s->oom = 1;
				free(e.name);
				continue;
			}
			net_add(s, &t, w->loc);
		}
		if (udp) {
			e.proto = IR_PROTO_UDP;
			net_add(s, &e, w->loc);
		}
	}
	if (!entries)
		diag_error(s->d, st->loc, "no address given");
}

/*
 * PORTS... for loopback, or for connect and bind (landlock set): each of
 * those becomes one kernel rule per port, so a range is capped; `*` (every
 * port) leaves the direction unrestricted instead.
 */
static void ports_stmt(struct sema *s, const struct ast_stmt *st,
		       struct range_list *l, int landlock)
{
	size_t i, j;

	if (st->nwords < 2)
		diag_error(s->d, st->loc, "expected ports after '%s'",
			   st->words[0].text);
	for (i = 1; i < st->nwords; i++) {
		const struct ast_word *w = &st->words[i];
		struct ir_port_range r;

		if (sema_ports(s, w, w->text, &r))
			continue;
		if (landlock && !(r.lo == 0 && r.hi == 65535) &&
		    (unsigned)r.hi - r.lo + 1 > SEMA_MAX_LL_PORTS) {
			diag_error(s->d, w->loc,
				   "port range %u-%u is %u Landlock rules, one "
				   "per port; at most %d per direction (write "
				   "'*' for every port)",
				   r.lo, r.hi, (unsigned)r.hi - r.lo + 1,
				   SEMA_MAX_LL_PORTS);
			continue;
		}
		for (j = 0; j < l->n; j++) {
			if (l->v[j].r.lo == r.lo && l->v[j].r.hi == r.hi) {
				sema_dup(s, w->loc, l->v[j].loc, "port",
					 w->text);
				break;
			}
		}
		if (j < l->n)
			continue;
		if (l->n >= IR_MAX_NET) {
			diag_error(s->d, w->loc, "more than %d port entries",
				   IR_MAX_NET);
			return;
		}
		if (sema_grow(s, (void **)&l->v, &l->cap, l->n, sizeof(*l->v)))
			continue;
		l->v[l->n].r = r;
		l->v[l->n++].loc = w->loc;
	}
}

void sema_net(struct sema *s, const struct ast_stmt *st)
{
	static const char *const modes[] = {"none", "filtered", "host"};
	static const char *const keys[] = {"allow", "deny", "loopback",
					   "connect", "bind"};
	uint32_t mode;
	size_t i;

	if (st->nwords != 2 || st->cond || st->words[1].kind != AST_WORD) {
		diag_error(s->d, st->loc,
			   "expected 'net none|filtered|host [{ ... }]'");
		return;
	}
	if (!strcmp(st->words[1].text, "none"))
		mode = IR_NET_NONE;
	else if (!strcmp(st->words[1].text, "filtered"))
		mode = IR_NET_FILTERED;
	else if (!strcmp(st->words[1].text, "host"))
		mode = IR_NET_HOST;
	else {
		sema_unknown(s, &st->words[1], "network mode", modes, 3);
		return;
	}
	if (sema_once(s, &s->net_mode, st->loc, "net mode"))
		return;
	s->p->net.present = 1;
	s->p->net.mode = mode;
	for (i = 0; i < st->nchildren; i++) {
		const struct ast_stmt *c = &st->children[i];
		const char *k = c->words[0].text;

		if (c->cond || c->has_block) {
			diag_error(s->d, c->loc,
				   "net rules take no condition "
				   "or block");
		} else if (mode == IR_NET_FILTERED && !strcmp(k, "allow")) {
			net_entry_stmt(s, c, IR_NET_ALLOW);
		} else if (mode == IR_NET_FILTERED && !strcmp(k, "deny")) {
			net_entry_stmt(s, c, IR_NET_DENY);
		} else if (mode != IR_NET_HOST && !strcmp(k, "loopback")) {
			ports_stmt(s, c, &s->loopback, 0);
		} else if (mode == IR_NET_HOST && !strcmp(k, "connect")) {
			ports_stmt(s, c, &s->connect, 1);
		} else if (mode == IR_NET_HOST && !strcmp(k, "bind")) {
			ports_stmt(s, c, &s->bind, 1);
		} else if (!strcmp(k, "allow") || !strcmp(k, "deny") ||
			   !strcmp(k, "loopback") || !strcmp(k, "connect") ||
			   !strcmp(k, "bind")) {
			diag_error(s->d, c->words[0].loc,
				   "'%s' does not apply to 'net %s' (allow, "
				   "deny: filtered; loopback: none, filtered; "
				   "connect, bind: host)",
				   k, modes[mode]);
		} else {
			sema_unknown(s, &c->words[0], "net rule", keys, 5);
		}
	}
}

static int move_ranges(struct range_list *l, struct ir_port_range **out,
		       uint32_t *n)
{
	size_t i;

	if (!l->n)
		return 0;
	*out = calloc(l->n, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < l->n; i++)
		(*out)[i] = l->v[i].r;
	*n = (uint32_t)l->n;
	return 0;
}

/* ---- lints over the whole policy (docs/LANDLOCK.md) -------------------- */

#define FS_WRITE                                                               \
	(IR_FS_WRITE_FILE | IR_FS_REMOVE_DIR | IR_FS_REMOVE_FILE |             \
	 IR_FS_MAKE_CHAR | IR_FS_MAKE_DIR | IR_FS_MAKE_REG | IR_FS_MAKE_SOCK | \
	 IR_FS_MAKE_FIFO | IR_FS_MAKE_BLOCK | IR_FS_MAKE_SYM | IR_FS_REFER |   \
	 IR_FS_TRUNCATE)

/*
 * The folders a write grant must not name unless waived: what the grant
 * would expose, or NULL. The list is fixed, not taken from the build
 * machine, so a policy compiles the same everywhere; polexec checks
 * ${VAR} paths against the caller's real home when it binds them.
 */
static const char *dangerous_write(const char *path)
{
	if (!strcmp(path, "/"))
		return "the root of the filesystem";
	if (!strcmp(path, "~") || !strcmp(path, "${HOME}"))
		return "the home folder";
	if (!strcmp(path, "/home"))
		return "the folder of every user's home";
	if (!strcmp(path, "/root"))
		return "root's home folder";
	if (!strncmp(path, "/home/", 6) && !strchr(path + 6, '/'))
		return "a user's home folder";
	return NULL;
}

/* Write access to /, a home folder or an ancestor: an error unless waived. */
static void lint_writes(struct sema *s)
{
	size_t i;

	for (i = 0; i < s->nfs; i++) {
		const struct fs_src *f = &s->fs[i];
		const char *why = f->rule.rights & FS_WRITE
				      ? dangerous_write(f->rule.path)
				      : NULL;

		if (why && !f->waived)
			diag_error(s->d, f->loc,
				   "write access to '%s', %s: the box could "
				   "change or plant any file there; grant "
				   "narrower folders, or write 'unsafe' before "
				   "the path to waive this check",
				   f->rule.path, why);
		else if (!why && f->waived)
			diag_error(
			    s->d, f->waiver,
			    "'unsafe' waives nothing for '%s': it is not "
			    "write access to /, /home, /root, a home "
			    "folder (~, ${HOME}, /home/NAME)%s",
			    f->rule.path,
			    f->rule.path[0] == '$' && f->rule.rights & FS_WRITE
				? "; a ${VAR} is checked by polexec when "
				  "it binds it, and no waiver reaches "
				  "that check"
				: "");
	}
}

static const char *const secret_names[] = {
    ".ssh",    ".aws", ".gnupg", ".kube",
    ".docker", ".env", ".netrc", ".git-credentials",
};

struct secrets {
	char list[600];
	unsigned n;
};

/* Looks for the credential names directly inside dir (absolute). */
static void scan_secrets(const char *dir, struct secrets *found)
{
	size_t i;

	for (i = 0; i < sizeof(secret_names) / sizeof(*secret_names); i++) {
		char path[PATH_MAX];
		struct stat st;
		size_t used = strlen(found->list);
		int n = snprintf(path, sizeof(path), "%s%s%s", dir,
				 strcmp(dir, "/") ? "/" : "", secret_names[i]);

		if (n < 0 || (size_t)n >= sizeof(path) ||
		    fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (found->n++ < 3)
			snprintf(found->list + used, sizeof(found->list) - used,
				 "%s%s", used ? ", " : "", path);
	}
}

/*
 * The folder a read grant names on this machine: a literal path as it is,
 * ~ and ${HOME} with polc's own HOME; other variables are unknown here.
 */
static int build_machine_path(const char *path, const char *home, char *out,
			      size_t len)
{
	const char *rest;
	int n;

	if (path[0] == '/')
		home = "", rest = path;
	else if (path[0] == '~')
		rest = path + 1;
	else if (!strncmp(path, "${HOME}", 7))
		rest = path + 7;
	else
		return -1;
	if (!home || (path[0] != '/' && home[0] != '/'))
		return -1;
	n = snprintf(out, len, "%s%s", home, rest);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * A warning when a readable granted folder holds credentials on the build
 * machine: looked for directly inside it, inside each of its first
 * SEMA_SECRET_SCAN subfolders, and inside polc's HOME when the folder is a
 * farther ancestor of it. Bounded, and only stat() calls: nothing is read.
 */
static void lint_secrets(struct sema *s)
{
	const char *home = getenv("HOME");
	size_t i;

	for (i = 0; i < s->nfs; i++) {
		const struct fs_src *f = &s->fs[i];
		struct secrets found = {"", 0};
		char dir[PATH_MAX], more[32] = "";
		struct dirent *e;
		size_t dlen;
		unsigned seen = 0;
		DIR *d;

		if (!(f->rule.rights & (IR_FS_READ_FILE | IR_FS_READ_DIR)) ||
		    build_machine_path(f->rule.path, home, dir, sizeof(dir)))
			continue;
		d = opendir(dir);
		if (!d)
			continue;
		scan_secrets(dir, &found);
		while (seen++ < SEMA_SECRET_SCAN && (e = readdir(d))) {
			char sub[PATH_MAX];
			struct stat st;
			int n;

			if (e->d_name[0] == '.' &&
			    (!e->d_name[1] ||
			     (e->d_name[1] == '.' && !e->d_name[2])))
				continue;
			n = snprintf(sub, sizeof(sub), "%s%s%s", dir,
				     strcmp(dir, "/") ? "/" : "", e->d_name);
			if (n < 0 || (size_t)n >= sizeof(sub) ||
			    fstatat(AT_FDCWD, sub, &st, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISDIR(st.st_mode))
				continue;
			scan_secrets(sub, &found);
		}
		closedir(d);
		/* HOME two or more levels down was not reached above. */
		dlen = strcmp(dir, "/") ? strlen(dir) : 0;
		if (home && home[0] == '/' && !strncmp(home, dir, dlen) &&
		    home[dlen] == '/' && strchr(home + dlen + 1, '/'))
			scan_secrets(home, &found);
		if (found.n > 3)
			snprintf(more, sizeof(more), " and %u more",
				 found.n - 3);
		if (found.n)
			diag_warning(s->d, f->loc,
				     "'%s' is readable in the box, and on this "
				     "machine it holds %s%s: credentials the "
				     "box could read; grant narrower folders",
				     f->rule.path, found.list, more);
	}
}

static int range_src_cmp(const void *a, const void *b)
{
	const struct range_src *x = a, *y = b;

	return x->r.lo != y->r.lo ? (x->r.lo < y->r.lo ? -1 : 1)
				  : (x->r.hi > y->r.hi) - (x->r.hi < y->r.hi);
}

/* The ports of one Landlock direction, overlaps merged, within the cap. */
static void lint_port_total(struct sema *s, const struct range_list *l,
			    const char *dir)
{
	struct range_src *v;
	unsigned long total = 0;
	uint32_t hi = 0;
	size_t i;

	if (l->n < 2)
		return;
	v = malloc(l->n * sizeof(*v));
	if (!v) {
		s->oom = 1;
		return;
	}
	memcpy(v, l->v, l->n * sizeof(*v));
	qsort(v, l->n, sizeof(*v), range_src_cmp);
	if (v[0].r.lo == 0) {
		/* maybe every port: then the direction is not restricted */
		uint32_t reach = v[0].r.hi;

		for (i = 1; i < l->n && v[i].r.lo <= reach + 1; i++)
			if (v[i].r.hi > reach)
				reach = v[i].r.hi;
		if (reach == 65535) {
			free(v);
			return;
		}
	}
	for (i = 0; i < l->n; i++) {
		uint32_t lo = i && v[i].r.lo <= hi ? hi + 1 : v[i].r.lo;

		if (v[i].r.hi >= lo)
			total += v[i].r.hi - lo + 1;
		if (!i || v[i].r.hi > hi)
			hi = v[i].r.hi;
		if (total > SEMA_MAX_LL_PORTS) {
			diag_error(s->d, v[i].loc,
				   "the %s ports reach %lu Landlock rules, one "
				   "per port; at most %d per direction",
				   dir, total, SEMA_MAX_LL_PORTS);
			break;
		}
	}
	free(v);
}

/* `require` below ABI 4 drops `net host` port rules on older kernels. */
static void lint_landlock_abi(struct sema *s)
{
	const struct ir_policy *p = s->p;

	if (!s->landlock.set || p->landlock.mode != IR_LL_REQUIRE ||
	    p->landlock.abi_min >= 4 || !p->net.present ||
	    p->net.mode != IR_NET_HOST || !(s->connect.n || s->bind.n))
		return;
	diag_warning(s->d, s->landlock.loc,
		     "'net host' port rules need Landlock ABI 4, but this "
		     "requires only ABI %u: on a kernel with ABI %u..3 "
		     "polexec runs without them (degraded); write 'abi >= 4' "
		     "to refuse such kernels",
		     p->landlock.abi_min, p->landlock.abi_min);
}

int sema_finish_fs_net_env(struct sema *s)
{
	struct ir_policy *p = s->p;
	size_t i;

	lint_writes(s);
	lint_secrets(s);
	lint_port_total(s, &s->connect, "connect");
	lint_port_total(s, &s->bind, "bind");
	lint_landlock_abi(s);
	if (s->oom)
		return -1;

	if (s->nfs) {
		p->fs.rules = calloc(s->nfs, sizeof(*p->fs.rules));
		if (!p->fs.rules)
			return -1;
		for (i = 0; i < s->nfs; i++)
			p->fs.rules[i] = s->fs[i].rule;
		p->fs.nrules = (uint32_t)s->nfs;
		s->nfs = 0;
	}
	if (s->nnet) {
		p->net.entries = calloc(s->nnet, sizeof(*p->net.entries));
		if (!p->net.entries)
			return -1;
		for (i = 0; i < s->nnet; i++)
			p->net.entries[i] = s->net[i].e;
		p->net.nentries = (uint32_t)s->nnet;
		s->nnet = 0;
	}
	if (move_ranges(&s->loopback, &p->net.loopback, &p->net.nloopback) ||
	    move_ranges(&s->connect, &p->net.connect, &p->net.nconnect) ||
	    move_ranges(&s->bind, &p->net.bind, &p->net.nbind))
		return -1;
	if (s->nenv) {
		p->env.entries = calloc(s->nenv, sizeof(*p->env.entries));
		if (!p->env.entries)
			return -1;
		for (i = 0; i < s->nenv; i++)
			p->env.entries[i] = s->env[i].e;
		p->env.nentries = (uint32_t)s->nenv;
		s->nenv = 0;
	}
	return 0;
}
