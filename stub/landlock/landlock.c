/* SPDX-License-Identifier: MIT */
/*
 * The Landlock layer. polc decided the ruleset (compiler/landlock_backend.c,
 * docs/LANDLOCK.md); here it meets the running kernel. In the parent,
 * before clone, one phase after another:
 *
 *   probe_abi       the kernel's Landlock ABI, asked once
 *   negotiate       what the kernel lacks, stripped in one descending
 *                   switch as the kernel's sandboxer sample does; the
 *                   policy says whether that is allowed (best_effort) or a
 *                   refusal (require)
 *   create_ruleset  the handled rights that remain, and the scopes
 *   add_path_rules  each path bound (~, ${VAR}), opened O_PATH with no
 *                   symlink followed unless the rule says follow, checked,
 *                   and added with the rights its file type takes
 *   add_port_rules  one rule per TCP port
 *
 * Why the parent opens the paths: they name files in the caller's view,
 * with the caller's rights, before the box changes anything; a refusal
 * (missing path, unbound variable, symlink) then leaves a refusal record,
 * which only the parent writes; and the child, which shares our memory
 * until execve (CLONE_VM), allocates nothing and only has to call
 * landlock_restrict_self() on the finished ruleset, after no_new_privs.
 * The ruleset's fd reaches the child through clone's copy of the fd table.
 */
#include "landlock.h"
#include "lib/kernel.h"
#include "abi/landlock_compat.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define FALLTHROUGH __attribute__((fallthrough))

#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* Every right that changes the tree: what the write lint looks at. */
#define LL_WRITE                                                               \
	(POLC_LANDLOCK_FS_ALL & ~(LL_READ | LANDLOCK_ACCESS_FS_EXECUTE |       \
				  LANDLOCK_ACCESS_FS_IOCTL_DEV))

/* "polexec: warning: landlock: MSG" on stderr, kept for the record. */
static void ll_warn(struct ll_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void ll_warn(struct ll_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warning("landlock: %s", msg);
	if (run->nwarn < POLEXEC_MAX_LL_WARN)
		snprintf(run->warn[run->nwarn++], sizeof(run->warn[0]), "%.*s",
			 (int)sizeof(run->warn[0]) - 1, msg);
}

/* Appends the names of bits to buf: " name name". */
static void put_names(char *buf, size_t len, uint64_t bits,
		      const char *const *names, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		size_t used = strlen(buf);

		if (bits & (1ull << i))
			snprintf(buf + used, len - used, " %s", names[i]);
	}
}

/* The kernel's ABI, or 0 with *err set when Landlock is unavailable. */
static int probe_abi(int *err)
{
	int abi = sys_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);

	*err = abi < 0 ? errno : 0;
	return abi < 0 ? 0 : abi;
}

/*
 * Strips from the handled sets what a kernel of this ABI lacks: one case
 * per ABI, oldest first, each falling through to the newer ones.
 */
static void strip(int abi, uint64_t *fs, uint64_t *net, uint64_t *scoped)
{
	switch (abi) {
	case 0:
		/* No Landlock: nothing can be handled. */
		*fs = 0;
		FALLTHROUGH;
	case 1:
		/* ABI 2 (5.19) added refer. Without it, every rename or link
		 * across folders is denied: stricter, not weaker. */
		*fs &= ~LANDLOCK_ACCESS_FS_REFER;
		FALLTHROUGH;
	case 2:
		/* ABI 3 (6.2) added truncate. */
		*fs &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
		FALLTHROUGH;
	case 3:
		/* ABI 4 (6.7) added TCP bind and connect by port. */
		*net = 0;
		FALLTHROUGH;
	case 4:
		/* ABI 5 (6.10) added ioctl on devices. */
		*fs &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
		FALLTHROUGH;
	case 5:
		/* ABI 6 (6.12) added the abstract unix socket and signal
		 * scopes. */
		*scoped = 0;
		FALLTHROUGH;
	case 6:
		/* ABI 7 (6.15) added audit log flags: llaudit.c sets
		 * LOG_NEW_EXEC_ON where it can read the log. */
		FALLTHROUGH;
	case 7:
		/* ABI 8 added connect to pathname unix sockets (RESOLVE_UNIX,
		 * landlock_compat.h). Without it the box reaches the sockets
		 * its view shows (docs/VIEW.md). */
		*fs &= ~LANDLOCK_ACCESS_FS_RESOLVE_UNIX;
		break;
	default:
		break;
	}
}

/*
 * After it: run holds what the kernel will handle and what was dropped,
 * and st the layer's tier; a `require` policy on a kernel older than its
 * minimum (or without Landlock) has been refused, naming what is missing.
 */
static void negotiate(const struct ll_spec *l, struct ll_run *run,
		      struct layer_state *st)
{
	static char reason[280];
	char lacks[240] = "";
	uint64_t weaker;

	run->fs = l->handled_fs;
	run->net = l->handled_net;
	run->scoped = l->scoped;
	strip(run->abi, &run->fs, &run->net, &run->scoped);
	run->dropped_fs = l->handled_fs & ~run->fs;
	run->dropped_net = l->handled_net & ~run->net;
	run->dropped_scoped = l->scoped & ~run->scoped;
	put_names(lacks, sizeof(lacks), run->dropped_fs, ll_fs_names, 17);
	put_names(lacks, sizeof(lacks), run->dropped_net, ll_net_names, 2);
	put_names(lacks, sizeof(lacks), run->dropped_scoped, ll_scope_names, 2);
	if (run->abi == 0) {
		int e = run->probe_errno;

		snprintf(reason, sizeof(reason), "Landlock unavailable: %s%s",
			 strerror(e),
			 e == ENOSYS	   ? " (not built into this kernel)"
			 : e == EOPNOTSUPP ? " (disabled at boot)"
					   : "");
		if (l->mode == POLBIN_LL_REQUIRE)
			die("landlock: %s; the policy requires Landlock ABI "
			    ">= %u (require)",
			    reason, l->abi_min);
	} else if (run->abi < (int)l->abi_min && l->mode == POLBIN_LL_REQUIRE) {
		die("landlock: the kernel has Landlock ABI %d, the policy "
		    "requires ABI >= %u (require); missing:%s",
		    run->abi, l->abi_min,
		    lacks[0] ? lacks : " nothing this polexec knows of");
	} else {
		snprintf(reason, sizeof(reason), "kernel ABI %d lacks:%s",
			 run->abi, lacks);
	}
	/* Losing refer only denies more (see strip()): not a degradation. */
	weaker = (run->dropped_fs & ~LANDLOCK_ACCESS_FS_REFER) |
		 run->dropped_net | run->dropped_scoped;
	st->tier = run->abi == 0 || weaker ? TIER_DEGRADED : TIER_ENFORCED;
	st->reason = reason;
	if (run->abi == 0 || lacks[0])
		ll_warn(run, "%s; running without %s (policy: ABI >= %u %s)",
			reason, run->abi ? "them" : "Landlock", l->abi_min,
			l->mode == POLBIN_LL_REQUIRE ? "require"
						     : "best_effort");
}

/* After it: run->ruleset_fd handles what negotiate() left, or is -1. */
static void create_ruleset(struct ll_run *run)
{
	struct polc_landlock_ruleset_attr attr = {
	    .handled_access_fs = run->fs,
	    .handled_access_net = run->net,
	    .scoped = run->scoped,
	};

	run->ruleset_fd = -1;
	if (run->abi == 0 || !(run->fs | run->net | run->scoped))
		return;
	run->ruleset_fd = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);
	if (run->ruleset_fd < 0)
		die_with_error("landlock: landlock_create_ruleset(fs 0x%llx, "
			       "net 0x%llx, scoped 0x%llx)",
			       (unsigned long long)run->fs,
			       (unsigned long long)run->net,
			       (unsigned long long)run->scoped);
}

/* "BOUND (PATH)" when a variable was bound, else the path, for messages. */
static const char *shown(const struct ll_rule *r)
{
	static char buf[600];

	if (!r->bound || !strcmp(r->bound, r->path))
		snprintf(buf, sizeof(buf), "%s", r->path);
	else
		snprintf(buf, sizeof(buf), "%s (%s)", r->bound, r->path);
	return buf;
}

/*
 * The rule's path with ~ (the caller's HOME) or its ${VAR} bound like the
 * env section's references: --var, else polexec's environment. A value
 * must be an absolute path without control characters or "..", so the
 * path opened is the one the policy names below it.
 */
static char *bind_path(const char *path, const struct vars *vars)
{
	const char *name = "HOME", *rest = path + 1, *val, *c;
	size_t nlen = 4, vlen, rlen;
	char *out;

	if (path[0] == '/')
		return xstrndup(path, strlen(path));
	if (path[0] == '$') {
		name = path + 2;
		rest = strchr(path, '}') + 1; /* ll_path_ok() checked it */
		nlen = (size_t)(rest - 1 - name);
	}
	val = vars_lookup(vars, name, nlen);
	if (!val && path[0] == '~')
		die("landlock: %s: ~ is the caller's HOME, which is not set: "
		    "give --var HOME=PATH or set HOME",
		    path);
	if (!val)
		die("landlock: %s: variable ${%.*s} is not bound: give --var "
		    "%.*s=PATH or set it in polexec's environment",
		    path, (int)nlen, name, (int)nlen, name);
	for (c = val; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			die("landlock: %s: the value of %.*s holds a control "
			    "character",
			    path, (int)nlen, name);
	if (val[0] != '/')
		die("landlock: %s: %.*s=%s is not an absolute path", path,
		    (int)nlen, name, val);
	for (c = val; (c = strstr(c, "..")); c += 2)
		if (c[-1] == '/' && (c[2] == '/' || !c[2]))
			die("landlock: %s: %.*s=%s has a '..' component; give "
			    "the folder it means",
			    path, (int)nlen, name, val);
	vlen = strlen(val);
	while (vlen > 1 && val[vlen - 1] == '/')
		vlen--;
	rlen = strlen(rest);
	if (vlen == 1 && rlen)
		vlen = 0; /* "/" followed by "/rest" */
	if (vlen + rlen >= PATH_MAX)
		die("landlock: %s: longer than %d bytes once bound", path,
		    PATH_MAX - 1);
	out = xcalloc(vlen + rlen + 1, 1);
	memcpy(out, val, vlen);
	memcpy(out + vlen, rest, rlen);
	return out;
}

/*
 * O_PATH without following a symlink in any component, as openat2's
 * RESOLVE_NO_SYMLINKS does, for kernels or sandboxes without openat2: one
 * component at a time with O_NOFOLLOW, a symlink found is ELOOP.
 */
static int walk_nofollow(const char *path)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	while (fd >= 0 && *path) {
		char comp[NAME_MAX + 1];
		size_t n;
		struct stat st;
		int next, e;

		path += strspn(path, "/");
		n = strcspn(path, "/");
		if (!n)
			break;
		if (n > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, path, n);
		comp[n] = '\0';
		path += n;
		next = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		e = errno;
		close(fd);
		if (next < 0) {
			errno = e;
			return -1;
		}
		if (fstat(next, &st) < 0 || S_ISLNK(st.st_mode)) {
			e = S_ISLNK(st.st_mode) ? ELOOP : errno;
			close(next);
			errno = e;
			return -1;
		}
		fd = next;
	}
	return fd;
}

/* An O_PATH fd on the rule's path, symlinks followed only with follow. */
int landlock_open_rule(const char *path, int follow)
{
	struct open_how how = {
	    .flags = O_PATH | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS,
	};
	int fd;

	if (follow)
		return open(path, O_PATH | O_CLOEXEC);
	fd = sys_openat2(path, &how);
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	return walk_nofollow(path);
}

/* polc refuses write grants on these unless waived (sema_fs.c). */
static int linted_by_polc(const char *path)
{
	return !strcmp(path, "/") || !strcmp(path, "~") ||
	       !strcmp(path, "${HOME}") || !strcmp(path, "/home") ||
	       !strcmp(path, "/root") ||
	       (!strncmp(path, "/home/", 6) && !strchr(path + 6, '/'));
}

/*
 * polc's write lint on what it could not see: a write grant whose bound
 * path is /, /home, /root, the caller's HOME or an ancestor of HOME (same
 * inode, so a symlinked spelling is caught too) is a refusal. No waiver
 * reaches here: the policy can only waive paths it spells out.
 */
static void check_write_target(const struct ll_rule *r, const struct stat *st,
			       const struct vars *vars)
{
	static const char *const fixed[] = {"/", "/home", "/root"};
	const char *home = vars_lookup(vars, "HOME", 4);
	char cand[PATH_MAX];
	size_t i = 0;
	char *cut;

	if (!(r->access & LL_WRITE) || !S_ISDIR(st->st_mode) ||
	    linted_by_polc(r->path))
		return;
	/* "/", "/home", "/root", then HOME and its ancestors above "/" */
	snprintf(cand, sizeof(cand), "%s", home && home[0] == '/' ? home : "/");
	for (;;) {
		const char *c = i < 3 ? fixed[i++] : cand;
		struct stat cs;

		if (stat(c, &cs) == 0 && cs.st_dev == st->st_dev &&
		    cs.st_ino == st->st_ino)
			die("landlock: %s: write access to %s, which is /, "
			    "/home, /root, the caller's HOME or an ancestor of "
			    "it; polc refuses that unless waived, and no "
			    "waiver reaches a path bound at run time: bind a "
			    "narrower folder",
			    shown(r), c);
		if (c != cand)
			continue;
		cut = strrchr(cand, '/');
		if (!cut || cut == cand)
			return;
		*cut = '\0';
	}
}

static const char *const secret_names[] = {
    ".ssh",    ".aws", ".gnupg", ".kube",
    ".docker", ".env", ".netrc", ".git-credentials",
};

/* The bit of a credential store's name, or 0. */
static unsigned secret_bit(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(secret_names) / sizeof(*secret_names); i++)
		if (!strcmp(name, secret_names[i]))
			return 1u << i;
	return 0;
}

/*
 * A warning per credential store directly inside the folder at dirfd.
 * Reading the folder's entries costs three or four syscalls where a
 * folder is small; past SCAN_MAX bytes of entries, or where polexec may
 * not read the folder, one fstatat per name (eight) answers instead.
 */
#define SCAN_MAX (64u << 10)
static void add_secret(const char *name, void *found)
{
	*(unsigned *)found |= secret_bit(name);
}

static void scan_secrets(int dirfd, const char *dir, struct ll_run *run)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned found = 0;
	size_t i;
	int n = -1;

	if (fd >= 0) {
		n = each_dirent(fd, SCAN_MAX, add_secret, &found);
		close(fd);
	}
	for (i = 0; n != 0 && i < sizeof(secret_names) / sizeof(*secret_names);
	     i++) {
		struct stat st;

		if (fstatat(dirfd, secret_names[i], &st, AT_SYMLINK_NOFOLLOW) ==
		    0)
			found |= 1u << i;
	}
	for (i = 0; i < sizeof(secret_names) / sizeof(*secret_names); i++)
		if (found & 1u << i)
			ll_warn(run,
				"%s%s%s is inside a folder the box may read: "
				"credentials",
				dir, strcmp(dir, "/") ? "/" : "",
				secret_names[i]);
}

/* Is a (normalized, absolute) a strict ancestor of b? */
static int ancestor(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return b[0] == '/' && b[1];
	return !strncmp(a, b, n) && b[n] == '/';
}

/*
 * After it: every path rule was bound and opened, or skipped because it is
 * optional and missing (or its rights are all unknown to this kernel), and
 * added to the ruleset with the rights its file type takes; folders the
 * box may read were looked into, one level deep, for credentials.
 */
static void add_path_rules(struct ll_spec *l, const struct vars *vars,
			   struct ll_run *run, int keep)
{
	const char *home = vars_lookup(vars, "HOME", 4);
	int home_below = 0;
	uint32_t i;

	for (i = 0; i < l->nfs; i++) {
		struct ll_rule *r = &l->fs[i];
		struct landlock_path_beneath_attr attr;
		int follow = r->flags & POLBIN_LL_F_FOLLOW;
		uint64_t access = r->access;
		struct stat st;
		int fd;

		r->bound = bind_path(r->path, vars);
		fd = landlock_open_rule(r->bound, follow);
		if (fd < 0 && errno == ENOENT &&
		    r->flags & POLBIN_LL_F_OPTIONAL) {
			r->skipped = "missing (optional)";
			continue;
		}
		if (fd < 0 && errno == ELOOP && !follow)
			die("landlock: open %s: a symbolic link in the path, "
			    "and the rule does not say follow",
			    shown(r));
		if (fd < 0 && errno == ENOENT)
			die("landlock: open %s: No such file or directory "
			    "(the rule is not optional)",
			    shown(r));
		if (fd < 0)
			die_with_error("landlock: open %s", shown(r));
		if (fstat(fd, &st) < 0)
			die_with_error("landlock: fstat %s", shown(r));
		if (!S_ISDIR(st.st_mode)) {
			access &= POLC_LANDLOCK_FS_FILE;
			if (!access && r->access)
				die("landlock: %s is not a folder, and every "
				    "right granted on it applies to folders "
				    "only",
				    shown(r));
		}
		check_write_target(r, &st, vars);
		if (S_ISDIR(st.st_mode) && r->access & LL_READ) {
			scan_secrets(fd, r->bound, run);
			if (home && home[0] == '/' && ancestor(r->bound, home))
				home_below = 1;
		}
		access &= run->fs;
		if (run->ruleset_fd < 0)
			r->skipped = "no ruleset: Landlock unavailable";
		else if (!r->access)
			r->skipped = "no right the ruleset handles: the view "
				     "alone shows it";
		else if (!access)
			r->skipped = "its rights are all unknown to this "
				     "kernel";
		attr.allowed_access = access;
		attr.parent_fd = fd;
		if (!r->skipped &&
		    sys_landlock_add_rule(
			run->ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &attr) < 0)
			die_with_error("landlock: add rule %s", shown(r));
		if (!r->skipped)
			r->installed = access;
		/* The view binds it from this very fd (view.c). */
		r->isdir = S_ISDIR(st.st_mode);
		if (keep)
			r->fd = fd;
		else if (close(fd) < 0)
			die_with_error("landlock: close %s", shown(r));
	}
	/* A tree holding the caller's HOME exposes what HOME holds. */
	if (home_below) {
		int fd = open(home, O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0) {
			scan_secrets(fd, home, run);
			close(fd);
		}
	}
}

/* After it: one kernel rule per port of each range the kernel handles. */
static void add_port_rules(const struct ll_spec *l, struct ll_run *run)
{
	uint32_t i, port;

	if (run->ruleset_fd < 0)
		return;
	for (i = 0; i < l->nports; i++) {
		const struct ll_range *r = &l->ports[i];

		if (!(r->access & run->net))
			continue;
		for (port = r->lo; port <= r->hi; port++) {
			struct polc_landlock_net_port_attr attr = {
			    .allowed_access = r->access,
			    .port = port,
			};

			if (sys_landlock_add_rule(run->ruleset_fd,
						  POLC_LANDLOCK_RULE_NET_PORT,
						  &attr) < 0)
				die_with_error("landlock: add rule %s %u",
					       ll_net_names[r->access - 1],
					       port);
			run->nports++;
		}
	}
}

/*
 * With a view, the rule paths stay open for the box's binds (view.c):
 * one fd each (two in the box: a clone of each tree), so the soft
 * RLIMIT_NOFILE is raised for them when it is too low, and the box child
 * puts it back once they are closed.
 */
static int keep_fds(const struct policy *p, struct ll_run *run)
{
	struct rlimit rl;

	if (!(p->view.flags & POLBIN_VIEW_F_ROOT))
		return 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		die_with_error("landlock: getrlimit(RLIMIT_NOFILE)");
	run->nofile = rl;
	/* each path, and in the box a clone of its tree (view.c) */
	if (rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < 2u * p->ll.nfs + 64u) {
		rl.rlim_cur = 2u * p->ll.nfs + 64u;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
			die("landlock: %u rule paths kept open for the view "
			    "need more files than RLIMIT_NOFILE allows (%llu)",
			    p->ll.nfs, (unsigned long long)rl.rlim_max);
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die_with_error("landlock: setrlimit(RLIMIT_NOFILE)");
		run->nofile_raised = 1;
	}
	return 1;
}

void landlock_prepare(struct policy *p, const struct vars *vars,
		      struct ll_run *run, struct layer_state *st)
{
	memset(run, 0, sizeof(*run));
	run->ruleset_fd = -1;
	st->tier = TIER_OFF;
	st->reason = NULL;
	if (!p->ll.present)
		return;
	run->abi = probe_abi(&run->probe_errno);
	negotiate(&p->ll, run, st);
	create_ruleset(run);
	add_path_rules(&p->ll, vars, run, keep_fds(p, run));
	add_port_rules(&p->ll, run);
}

/*
 * After it: the box's Landlock domain is the ruleset; this process and
 * everything it execs are confined by it, for good.
 */
/*
 * In the child, before landlock_restrict(): the box may read a file made
 * after the ruleset was built (a secret on the box's own tmpfs, which no
 * rule of the policy can name, since the parent opened its paths in the
 * caller's mount namespace). Read only, that one file.
 */
void landlock_allow(const struct ll_run *run, int fd, uint64_t access,
		    const char *path)
{
	struct landlock_path_beneath_attr attr;

	attr.allowed_access = access & run->fs;
	attr.parent_fd = fd;
	if (run->ruleset_fd >= 0 && attr.allowed_access &&
	    sys_landlock_add_rule(run->ruleset_fd, LANDLOCK_RULE_PATH_BENEATH,
				  &attr) < 0)
		die_with_error("child: landlock: add_rule %s", path);
}

void landlock_allow_read(const struct ll_run *run, const char *path)
{
	int fd;

	if (run->ruleset_fd < 0 || !(run->fs & LANDLOCK_ACCESS_FS_READ_FILE))
		return;
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die_with_error("child: landlock: open %s", path);
	landlock_allow(run, fd, LANDLOCK_ACCESS_FS_READ_FILE, path);
	if (close(fd) < 0)
		die_with_error("child: landlock: close %s", path);
}

void landlock_restrict(const struct ll_run *run)
{
	if (run->ruleset_fd < 0)
		return;
	if (sys_landlock_restrict_self(run->ruleset_fd, run->restrict_flags) <
	    0)
		die_with_error("child: landlock_restrict_self(flags 0x%x)",
			       run->restrict_flags);
	if (close(run->ruleset_fd) < 0)
		die_with_error("child: close(ruleset)");
}

int landlock_abi(void)
{
	int abi = sys_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : abi;
}

void landlock_scope_abstract(void)
{
	struct polc_landlock_ruleset_attr attr = {
	    .scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET};
	int fd = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);

	if (fd < 0)
		die_with_error("child: net: landlock_create_ruleset(scope)");
	if (sys_landlock_restrict_self(fd, 0) < 0)
		die_with_error("child: net: landlock_restrict_self(scope)");
	close(fd);
}
