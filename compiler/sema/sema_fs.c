/* SPDX-License-Identifier: MIT */
/*
 * The fs section, and the lints over its grants. Paths are normalized
 * here (no `.`, no `..`, no doubled or trailing slash) so that the
 * prover's path model and the paths polexec opens are the same strings.
 */
#include "sema_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	uint32_t bits;
} fs_rights[] = {
    {"execute", IR_FS_EXECUTE},		  {"write_file", IR_FS_WRITE_FILE},
    {"read_file", IR_FS_READ_FILE},	  {"read_dir", IR_FS_READ_DIR},
    {"remove_dir", IR_FS_REMOVE_DIR},	  {"remove_file", IR_FS_REMOVE_FILE},
    {"make_char", IR_FS_MAKE_CHAR},	  {"make_dir", IR_FS_MAKE_DIR},
    {"make_reg", IR_FS_MAKE_REG},	  {"make_sock", IR_FS_MAKE_SOCK},
    {"make_fifo", IR_FS_MAKE_FIFO},	  {"make_block", IR_FS_MAKE_BLOCK},
    {"make_sym", IR_FS_MAKE_SYM},	  {"refer", IR_FS_REFER},
    {"truncate", IR_FS_TRUNCATE},	  {"ioctl_dev", IR_FS_IOCTL_DEV},
    {"connect_unix", IR_FS_CONNECT_UNIX},
};

static const char *const fs_keys[] = {"ro",    "rx",	 "rw",	  "rwx",
				      "allow", "socket", "tmpfs", "dev",
				      "proc",  "observe"};

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

/* What fs_add() records besides the path. */
struct fs_what {
	uint32_t rights, flags;
	uint8_t kind;
	uint64_t size;
};

static void fs_add_path(struct sema *s, struct loc loc, char *path,
			const struct fs_what *what,
			const struct ast_word *waiver);

static void fs_add(struct sema *s, const struct ast_word *w, uint32_t rights,
		   uint32_t flags, const struct ast_word *waiver)
{
	struct fs_what what = {rights, flags, IR_FS_GRANT, 0};
	char *path = normalize_path(s, w);

	if (path)
		fs_add_path(s, w->loc, path, &what, waiver);
}

static void fs_add_path(struct sema *s, struct loc loc, char *path,
			const struct fs_what *what,
			const struct ast_word *waiver)
{
	uint32_t rights = what->rights, flags = what->flags;
	struct compose c;
	size_t i;
	int v;

	/* A path is a key of composition (sema_compose.c). */
	sema_compose_begin(&c, loc);
	for (i = 0; i < s->nfs; i++) {
		const struct fs_src *o = &s->fs[i];

		if (!strcmp(o->rule.path, path))
			sema_compose_with(s, &c, o->loc,
					  o->rule.rights == rights &&
					      o->rule.flags == flags &&
					      o->rule.kind == what->kind &&
					      o->rule.size == what->size);
	}
	v = sema_compose_end(s, &c, path, "grant");
	if (v == SEMA_DUP)
		sema_dup(s, loc, c.at, "path", path);
	if (v == SEMA_CONFLICT) {
		diag_error(s->d, loc,
			   "'%s' is granted other rights elsewhere; grant "
			   "each path in one place",
			   path);
		sema_other(s, loc, c.at, "the other grant");
	}
	if (v != SEMA_TAKE && v != SEMA_SAME) {
		free(path);
		return;
	}
	if (v == SEMA_TAKE && s->nfs >= IR_MAX_FS) {
		diag_error(s->d, loc, "more than %d paths", IR_MAX_FS);
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
	s->fs[s->nfs].rule.kind = what->kind;
	s->fs[s->nfs].rule.size = what->size;
	s->fs[s->nfs].loc = loc;
	s->fs[s->nfs].waived = waiver != NULL;
	if (waiver)
		s->fs[s->nfs].waiver = waiver->loc;
	s->fs[s->nfs].restated = v == SEMA_SAME;
	s->nfs++;
}

/* A path as a set-once setting's value (FNV-1a). */
static uint64_t path_key(const char *p)
{
	uint64_t h = 14695981039346656037ull;

	while (*p)
		h = (h ^ (unsigned char)*p++) * 1099511628211ull;
	return h;
}

/*
 * The box's own mounts (docs/VIEW.md), a literal path each:
 *   tmpfs PATH [SIZE] [exec]     an empty tmpfs, rw (rwx with exec)
 *   dev [PATH]                   a minimal /dev (default /dev)
 *   proc [PATH]                  a procfs of the box's pid namespace
 */
static void fs_own(struct sema *s, const struct ast_stmt *st, uint8_t kind)
{
	static const char *const deflt[] = {NULL, NULL, "/dev", "/proc"};
	struct fs_what what = {kind == IR_FS_PROC  ? IR_FS_RO
			       : kind == IR_FS_DEV ? IR_FS_DEV_RIGHTS
						   : IR_FS_RW,
			       0, kind, 0};
	const struct ast_word *w = st->nwords > 1 ? &st->words[1] : NULL;
	struct once *once = kind == IR_FS_DEV	 ? &s->fs_dev
			    : kind == IR_FS_PROC ? &s->fs_proc
						 : NULL;
	struct loc loc = w ? w->loc : st->loc;
	int sized = 0, rc;
	char *path;
	size_t i;

	if (st->cond || st->has_block ||
	    (w && w->kind != AST_WORD && w->kind != AST_STRING) ||
	    (kind != IR_FS_TMPFS && st->nwords > 2) ||
	    (kind == IR_FS_TMPFS && !w)) {
		diag_error(s->d, st->loc,
			   kind == IR_FS_TMPFS ? "expected 'tmpfs PATH [SIZE] "
						 "[exec]'"
					       : "expected '%s [PATH]'",
			   ir_fs_kind_name(kind));
		return;
	}
	path = w ? normalize_path(s, w) : strdup(deflt[kind]);
	if (!path) {
		if (!w)
			s->oom = 1;
		return;
	}
	/* One of each; fragments that say the same path merge. */
	rc = once
		 ? sema_once(s, once, st->loc,
			     kind == IR_FS_DEV ? "dev" : "proc", path_key(path))
		 : SEMA_TAKE;
	if (rc < 0 || rc == SEMA_DROP) {
		free(path);
		return;
	}
	if (path[0] != '/' || !strcmp(path, "/")) {
		diag_error(s->d, loc,
			   "%s '%s': the box's own mounts take a literal "
			   "absolute path other than / (no ~ or ${VAR})",
			   ir_fs_kind_name(kind), path);
		free(path);
		return;
	}
	if (kind == IR_FS_TMPFS)
		what.size = IR_TMPFS_DEFAULT_SIZE;
	for (i = 2; i < st->nwords; i++) {
		const struct ast_word *x = &st->words[i];

		if (x->kind == AST_WORD && !strcmp(x->text, "exec") &&
		    what.rights == IR_FS_RW) {
			what.rights = IR_FS_RWX;
		} else if (x->kind == AST_WORD && x->text[0] >= '0' &&
			   x->text[0] <= '9' && kind == IR_FS_TMPFS &&
			   !sized++) {
			if (sema_size(s, x, &what.size)) {
				free(path);
				return;
			}
			if (what.size == 0 || what.size > IR_TMPFS_MAX_SIZE) {
				diag_error(s->d, x->loc,
					   "a tmpfs size is 1B to 1TiB");
				free(path);
				return;
			}
		} else {
			diag_error(s->d, x->loc,
				   "expected a size (256MiB) or 'exec' after "
				   "the tmpfs path, each once");
			free(path);
			return;
		}
	}
	fs_add_path(s, loc, path, &what, NULL);
}

/*
 * observe destructive [workspace PATH]: the run record lists the box's
 * destructive filesystem calls (docs/OBSERVE.md), paths under PATH
 * (default ${WORKSPACE}) in clear, others hashed. It changes no right.
 */
static void fs_observe(struct sema *s, const struct ast_stmt *st)
{
	static const char *const what[] = {"destructive", "argv"};
	const struct ast_word *w = st->words;
	uint64_t val = 1469598103934665603ull;
	char *ws;
	int r;

	/* observe argv redacted: the run record names no argument */
	if (st->nwords >= 2 && w[1].kind == AST_WORD &&
	    !strcmp(w[1].text, "argv")) {
		if (st->nwords != 3 || w[2].kind != AST_WORD ||
		    strcmp(w[2].text, "redacted")) {
			diag_error(s->d, st->loc,
				   "expected 'observe argv redacted'");
			return;
		}
		if (sema_once(s, &s->observe_argv, st->loc,
			      "'observe argv redacted'", 1) == SEMA_TAKE)
			s->p->fs.observe |= IR_OBSERVE_ARGV_REDACTED;
		return;
	}
	if (st->nwords < 2 || (st->nwords != 2 && st->nwords != 4) ||
	    (st->nwords == 4 &&
	     (w[2].kind != AST_WORD || strcmp(w[2].text, "workspace")))) {
		diag_error(s->d, st->loc,
			   "expected 'observe destructive [workspace PATH]'");
		return;
	}
	if (w[1].kind != AST_WORD || strcmp(w[1].text, "destructive")) {
		sema_unknown(s, &w[1], "observation", what, 2);
		return;
	}
	if (st->nwords == 4) {
		ws = normalize_path(s, &w[3]);
	} else {
		ws = strdup("${WORKSPACE}");
		if (!ws)
			s->oom = 1;
	}
	if (!ws)
		return;
	/* A setting given once; its value is the workspace's text. */
	for (const char *c = ws; *c; c++)
		val = (val ^ (uint8_t)*c) * 1099511628211ull;
	r = sema_once(s, &s->observe, st->loc, "'observe destructive'", val);
	if (r != SEMA_TAKE) {
		free(ws);
		return;
	}
	free(s->p->fs.workspace);
	s->p->fs.workspace = ws;
	s->p->fs.observe |= IR_OBSERVE_DESTRUCTIVE;
}

/*
 * ro|rx|rw|rwx [optional] [follow] [unsafe] PATH...
 * allow RIGHT... on [optional] [follow] [unsafe] PATH...
 * socket [optional] [follow] PATH...   (allow connect_unix on PATH...)
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
	if (!strcmp(k->text, "observe")) {
		fs_observe(s, st);
		return;
	}
	if (!strcmp(k->text, "tmpfs") || !strcmp(k->text, "dev") ||
	    !strcmp(k->text, "proc")) {
		fs_own(s, st,
		       k->text[0] == 't'   ? IR_FS_TMPFS
		       : k->text[0] == 'd' ? IR_FS_DEV
					   : IR_FS_PROC);
		return;
	}
	if (!strcmp(k->text, "socket"))
		rights = IR_FS_CONNECT_UNIX;
	else if (!strcmp(k->text, "ro"))
		rights = IR_FS_RO;
	else if (!strcmp(k->text, "rx"))
		rights = IR_FS_RX;
	else if (!strcmp(k->text, "rw"))
		rights = IR_FS_RW;
	else if (!strcmp(k->text, "rwx"))
		rights = IR_FS_RWX;
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

/* fs [require|best_effort] { ... } */
void sema_fs(struct sema *s, const struct ast_stmt *st)
{
	static const char *const modes[] = {"best_effort", "require"};
	size_t i;

	if (st->nwords > 2 || !st->has_block || st->cond ||
	    (st->nwords == 2 && st->words[1].kind != AST_WORD)) {
		diag_error(s->d, st->loc,
			   "expected 'fs [require|best_effort] { ... }'");
		return;
	}
	if (st->nwords == 2) {
		const struct ast_word *w = &st->words[1];

		if (strcmp(w->text, "require") &&
		    strcmp(w->text, "best_effort"))
			sema_unknown(s, w, "fs mode", modes, 2);
		else if (sema_once(s, &s->fs_mode, st->loc, "fs mode",
				   w->text[0]) == SEMA_TAKE)
			s->p->fs.mode = w->text[0] == 'b' ? IR_VIEW_BEST_EFFORT
							  : IR_VIEW_REQUIRE;
	}
	s->p->fs.present = 1;
	for (i = 0; i < st->nchildren; i++)
		fs_stmt(s, &st->children[i]);
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
		const char *why =
		    f->rule.rights & FS_WRITE && f->rule.kind == IR_FS_GRANT
			? dangerous_write(f->rule.path)
			: NULL;

		if (f->restated)
			continue;
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

		if (f->restated ||
		    !(f->rule.rights & (IR_FS_READ_FILE | IR_FS_READ_DIR)) ||
		    f->rule.kind != IR_FS_GRANT ||
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

/*
 * Does a grant other than `self` hold `path` (a real path on this
 * machine) with at least `rights`? Its path, or NULL.
 */
static const char *covered_by(const struct sema *s, size_t self,
			      const char *path, uint32_t rights)
{
	size_t i;

	for (i = 0; i < s->nfs; i++) {
		const struct ir_fs_rule *r = &s->fs[i].rule;
		size_t n = strlen(r->path);

		if (i == self || r->kind != IR_FS_GRANT || r->path[0] != '/' ||
		    (r->rights & rights) != rights)
			continue;
		if (!strcmp(r->path, "/") ||
		    (!strncmp(r->path, path, n) &&
		     (path[n] == '/' || path[n] == '\0')))
			return r->path;
	}
	return NULL;
}

/* The top-level links of a merged /usr, which the box's view copies. */
static int merged_usr_link(const char *link)
{
	static const char *const names[] = {"/bin",   "/sbin",	"/lib",
					    "/lib32", "/lib64", "/libx32"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(link, names[i]))
			return 1;
	return 0;
}

/*
 * The first symbolic link on this machine among the leading paths of p
 * (absolute, shorter than PATH_MAX) that are at least `from` bytes long:
 * 1 with it in part (PATH_MAX bytes), else 0 (none, or a missing one).
 */
static int first_link(const char *p, size_t from, char *part)
{
	struct stat st;
	size_t k;

	for (k = from ? from : 1; p[k - 1]; k++) {
		if (p[k] != '/' && p[k] != '\0')
			continue;
		memcpy(part, p, k);
		part[k] = '\0';
		if (lstat(part, &st) < 0)
			return 0;
		if (S_ISLNK(st.st_mode))
			return 1;
	}
	return 0;
}

/*
 * A warning for a grant whose literal path runs through a symbolic link
 * on this machine (Debian 12's merged /usr: /lib is usr/lib): polexec
 * refuses such a rule at start unless it says follow. The warning names
 * the link, its target, and what already covers it.
 */
static void lint_symlinks(struct sema *s)
{
	size_t i;

	for (i = 0; i < s->nfs; i++) {
		const struct fs_src *f = &s->fs[i];
		char part[PATH_MAX], target[PATH_MAX], real[PATH_MAX];
		char said[2 * PATH_MAX + 40];
		const char *p = f->rule.path, *cover;
		ssize_t n = -1;

		if (f->rule.kind != IR_FS_GRANT || p[0] != '/' ||
		    (f->rule.flags & IR_FS_FOLLOW) || strlen(p) >= PATH_MAX)
			continue;
		if (first_link(p, 0, part))
			n = readlink(part, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		cover = realpath(p, real)
			    ? covered_by(s, i, real, f->rule.rights)
			    : NULL;
		if (strcmp(part, p))
			snprintf(said, sizeof(said),
				 "'%s' goes through '%s', which is", p, part);
		else
			snprintf(said, sizeof(said), "'%s' is", p);
		diag_warning(s->d, f->loc,
			     "%s a symbolic link to %s here, and polexec "
			     "refuses a rule through a symbolic link unless "
			     "it says 'follow'%s%s%s",
			     said, target, cover ? "; " : "",
			     cover ? cover : "",
			     !cover ? ": write 'follow', or grant the target"
			     : merged_usr_link(part)
				 ? " already covers it, and the box's view "
				   "holds the same link: leave the path out"
				 : " already covers its target: leave the "
				   "path out");
	}
}

/* Does the (normalized, absolute) a hold b, below it (a != b)? */
static int holds_below(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strcmp(a, b) &&
	       (!strcmp(a, "/") ||
		(!strncmp(a, b, n) && (b[n] == '/' || b[n] == '\0')));
}

/*
 * A `follow` rule inside another grant (std/shell's `ro optional follow
 * /etc/localtime` with the policy's `ro /etc`): the view would mount the
 * link's target over a path inside a host folder it has bound, through
 * the link, which polexec refuses at start. Decided here, on the build
 * machine, for literal paths, where the deepest rule holding the path is
 * a grant: when a component of the path below that grant is a symbolic
 * link, the grant already shows the link, so the rule is left out when
 * its target is granted with the rule's rights (or it dangles and is
 * optional: polexec would skip it), and is an error otherwise.
 */
static void resolve_follow_in_grants(struct sema *s)
{
	size_t i, j;

	for (i = 0; i < s->nfs; i++) {
		struct fs_src *f = &s->fs[i];
		const struct fs_src *up = NULL;
		const char *p = f->rule.path, *cover;
		char part[PATH_MAX], real[PATH_MAX];

		if (f->restated || f->rule.kind != IR_FS_GRANT ||
		    !(f->rule.flags & IR_FS_FOLLOW) || p[0] != '/' ||
		    strlen(p) >= PATH_MAX)
			continue;
		for (j = 0; j < s->nfs; j++)
			if (j != i && !s->fs[j].restated &&
			    s->fs[j].rule.path[0] == '/' &&
			    holds_below(s->fs[j].rule.path, p) &&
			    (!up || strlen(s->fs[j].rule.path) >
					strlen(up->rule.path)))
				up = &s->fs[j];
		if (!up || up->rule.kind != IR_FS_GRANT)
			continue;
		/* a link at or below the holding grant's path */
		if (!first_link(p, strlen(up->rule.path) + 1, part))
			continue;
		if (!realpath(p, real)) {
			if (f->rule.flags & IR_FS_OPTIONAL) {
				diag_remark(
				    s->d, f->loc,
				    "'%s' is a symbolic link that leads "
				    "nowhere here, shown as it is by "
				    "the grant of '%s': the rule is left "
				    "out",
				    p, up->rule.path);
				f->restated = 1;
				continue;
			}
			diag_error(s->d, f->loc,
				   "'%s' is a symbolic link that leads nowhere "
				   "here, inside the grant of '%s'",
				   p, up->rule.path);
			diag_note(s->d, up->loc, "that grant is here");
			continue;
		}
		cover = covered_by(s, i, real, f->rule.rights);
		if (!cover) {
			diag_error(s->d, f->loc,
				   "'%s' says 'follow', and it is a symbolic "
				   "link to %s inside the grant of '%s', which "
				   "shows the link; polexec mounts nothing "
				   "through a link: grant the target (with "
				   "the rights of this rule), or leave the "
				   "path out",
				   p, real, up->rule.path);
			diag_note(s->d, up->loc,
				  "the grant that shows the "
				  "link is here");
			continue;
		}
		diag_remark(s->d, f->loc,
			    "'%s' is a symbolic link to %s here: the grant of "
			    "'%s' shows the link and '%s' grants its target, "
			    "so this rule is left out",
			    p, real, up->rule.path, cover);
		f->restated = 1;
	}
}

/*
 * Without an fs section the box sees the host's whole tree. Said where it
 * matters: a policy that contains the network, or names who the box runs
 * as, and leaves every file the caller (or that user) may reach open.
 */
static void lint_no_view(struct sema *s)
{
	const struct ir_policy *p = s->p;
	int net = p->net.present && p->net.mode != IR_NET_HOST;

	if (p->fs.present || (!net && !p->user.present))
		return;
	diag_warning(s->d, p->user.present ? s->user.loc : s->net_mode.loc,
		     "no fs section: the box sees the host's whole tree, %s "
		     "(an fs section gives it a view of its own, "
		     "docs/VIEW.md)",
		     p->user.present ? "every file this user may reach"
				     : "though its network is contained");
}

void sema_lint_fs(struct sema *s)
{
	lint_writes(s);
	lint_secrets(s);
	lint_symlinks(s);
	lint_no_view(s);
	resolve_follow_in_grants(s);
}

int sema_finish_fs(struct sema *s)
{
	struct ir_policy *p = s->p;
	size_t i;

	if (s->nfs) {
		p->fs.rules = calloc(s->nfs, sizeof(*p->fs.rules));
		if (!p->fs.rules)
			return -1;
		for (i = 0; i < s->nfs; i++) {
			if (s->fs[i].restated)
				free(s->fs[i].rule.path);
			else
				p->fs.rules[p->fs.nrules++] = s->fs[i].rule;
		}
		s->nfs = 0;
	}
	return 0;
}
