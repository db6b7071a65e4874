/* SPDX-License-Identifier: MIT */
/*
 * The box's own view (the VIEW section, docs/VIEW.md): a mount namespace
 * whose root holds only what the policy names, over an empty tmpfs, after
 * bubblewrap's setup_newroot. polc decided every entry and each mount's
 * attributes; this file makes them and checks them.
 *
 * In the parent (view_plan), after landlock_prepare bound and opened the
 * rule paths:
 *   - the tier: a caller who is not root needs a user namespace; the
 *     kernel needs the mount API (open_tree, move_mount, fsopen,
 *     mount_setattr: Linux 5.12). Without them `fs best_effort` runs on
 *     the host's tree with Landlock alone (degraded), else a refusal;
 *   - the mount and pid namespaces asked for (boxns.c, init.c);
 *   - the entries in the order of their bound paths, parents first, and
 *     each bind's attributes: its own, less the restrictions the bind it
 *     lands in does not have (so a nested grant never takes away what an
 *     enclosing one gives: Landlock's union, the prover's model); one that
 *     lands in a mount of the box's own keeps all of its own.
 *
 * In the box's init (view_child), pid 1 of the box's pid namespace, in
 * its mount namespace where every mount is private (boxns.c):
 *   - each bind's tree cloned (open_tree, recursive) from the very fd
 *     Landlock's rule was made from, before anything is mounted;
 *   - a tmpfs on /tmp becomes the new root (the clones do not hold it,
 *     so a grant of the host's /tmp shows the host's /tmp); nothing of
 *     the host is reached by path from here on but /dev's nodes and the
 *     links;
 *   - each entry in order: a bind's clone is given nosuid and its
 *     attributes (mount_setattr, recursive), moved onto its mount point,
 *     and checked (fstatvfs: a bind takes most flags only when asked);
 *     the box's own tmpfs, /dev and /proc are new mounts, each with its
 *     Landlock rule; the merged-/usr links are copied. Mount points are
 *     made only on the box's own tmpfs, never on the host, and no
 *     symbolic link is followed on the way to one;
 *   - the pinned hosts file (net.c) in the root;
 *   - pivot_root into it; the old root detached, never reachable again;
 *   - the secrets' tmpfs (secrets.c); the root made read-only; the
 *     working directory the caller's when the view has it, else /.
 * Every step fails closed with what was being done and the path.
 */
#include "view.h"
#include "boxns.h"
#include "hosttree.h"
#include "init.h"
#include "mountapi.h"
#include "trial.h"
#include "abi/landlock_compat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#define OPEN_TREE_CLONE_	 1u
#define AT_RECURSIVE_		 0x8000u
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4u
#define MOVE_MOUNT_T_EMPTY_PATH_ 0x40u
#define FSCONFIG_SET_FLAG_	 0u
#define FSCONFIG_SET_STRING_	 1u
#define FSCONFIG_CMD_CREATE_	 6u
#define MOUNT_ATTR_RDONLY_	 0x1u
#define MOUNT_ATTR_NOSUID_	 0x2u
#define MOUNT_ATTR_NODEV_	 0x4u
#define MOUNT_ATTR_NOEXEC_	 0x8u
#define VIEW_MAX_OURS		 64

struct mount_attr_ {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static struct {
	const struct policy *p;
	int root;	    /* a root of its own */
	int hosttree;	    /* degraded: the host's tree (hosttree.c) */
	int chroot;	    /* pivot_root refused: a chroot (trial.c) */
	int proc_rbind;	    /* a fresh procfs refused: /proc's rbind */
	uint32_t n;	    /* entries in order */
	uint32_t *order;    /* entry indices, by bound path */
	const char **path;  /* the bound path of order[k] */
	uint8_t *attrs;	    /* the attributes of order[k] */
	uint8_t *skip;	    /* order[k] is a bind the one above shows */
	char cwd[PATH_MAX]; /* the caller's, or "" */
	int rootfd;	    /* the new root (child) */
	uint32_t nours;	    /* the box's own tmpfs mounts (child) */
	dev_t ours[VIEW_MAX_OURS];
} V;

static int open_tree_(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static int setattr(int fd, unsigned flags, unsigned attrs)
{
	struct mount_attr_ a = {.attr_set = attrs};

	return (int)syscall(SYS_mount_setattr, fd, "", flags | AT_EMPTY_PATH,
			    &a, sizeof(a));
}

static int move(int from, int to)
{
	return (int)syscall(SYS_move_mount, from, "", to, "",
			    MOVE_MOUNT_F_EMPTY_PATH_ |
				MOVE_MOUNT_T_EMPTY_PATH_);
}

static int entry_is(uint32_t k, uint8_t kind)
{
	return V.p->view.e[V.order[k]].kind == kind;
}

/* Is a (normalized, absolute) b or a folder holding it? */
static int holds(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strcmp(a, "/") ||
	       (!strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/'));
}

static int follows(uint32_t k)
{
	const struct view_entry *e = &V.p->view.e[V.order[k]];

	return V.p->ll.fs[e->rule].flags & POLBIN_LL_F_FOLLOW;
}

/*
 * Orders the entries by bound path (insertion sort: a few hundred at most,
 * nearly sorted already), then gives each bind what it keeps of its
 * attributes: a restriction only where the nearest bind holding it (whose
 * attributes already count its own parents) has it too; all of its own
 * where it lands in a mount of the box's own (docs/VIEW.md). A bind that the
 * nearest one holding it already shows, with the same attributes, with no
 * mount of the box's own between them and no symbolic link followed by
 * either, is not made: one mount, so a rename between the two folders is
 * Landlock's to decide, as without a view.
 */
static void plan_order(const struct policy *p)
{
	const struct view_spec *v = &p->view;
	uint32_t *stack = xcalloc(v->n + 1, sizeof(*stack));
	uint32_t i, k, top = 0;

	V.order = xcalloc(v->n + 1, sizeof(*V.order));
	V.path = xcalloc(v->n + 1, sizeof(*V.path));
	V.attrs = xcalloc(v->n + 1, 1);
	V.skip = xcalloc(v->n + 1, 1);
	for (i = 0; i < v->n; i++) {
		const struct view_entry *e = &v->e[i];
		const struct ll_rule *r =
		    e->kind == POLBIN_VIEW_BIND ? &p->ll.fs[e->rule] : NULL;
		const char *path = r ? r->bound : e->path;

		if (r && r->fd < 0)
			continue; /* optional and missing: skipped */
		for (k = V.n; k > 0 && strcmp(V.path[k - 1], path) > 0; k--) {
			V.order[k] = V.order[k - 1];
			V.path[k] = V.path[k - 1];
		}
		V.order[k] = i;
		V.path[k] = path;
		V.n++;
	}
	for (k = 0; k < V.n; k++) {
		const struct view_entry *e = &v->e[V.order[k]];

		if (k && !strcmp(V.path[k - 1], V.path[k]) &&
		    (!entry_is(k, POLBIN_VIEW_BIND) ||
		     !entry_is(k - 1, POLBIN_VIEW_BIND)))
			die("view: %s is bound where the policy puts a mount "
			    "of the box's own",
			    V.path[k]);
		V.attrs[k] = e->attrs;
		if (e->kind == POLBIN_VIEW_LINK)
			continue;
		while (top && !holds(V.path[stack[top - 1]], V.path[k]))
			top--;
		if (e->kind == POLBIN_VIEW_BIND) {
			/* landing in a mount of the box's own: its own */
			uint32_t j = top, up;

			if (j && !entry_is(stack[j - 1], POLBIN_VIEW_BIND))
				j = 0;
			if (j)
				V.attrs[k] &= V.attrs[stack[j - 1]];
			up = j ? stack[j - 1] : 0;
			V.skip[k] = j && V.attrs[k] == V.attrs[up] &&
				    !follows(k) && !follows(up);
		}
		stack[top++] = k;
	}
	free(stack);
}

/* Does the kernel have the mount API the view is built with (5.12)? */
static int mount_api(void)
{
	return syscall(SYS_mount_setattr, -1, "", 0, NULL, 0) < 0 &&
	       errno != ENOSYS;
}

int view_in_userns(const struct policy *p)
{
	/* not root; root without CAP_NET_ADMIN; the network's pair (a user
	 * and network namespace made before the box, which it joins, root's
	 * too), unless the policy forces the cgroup backend */
	return !boxns_privileged() ||
	       (p->net.present && !boxns_net_privileged()) ||
	       (net_needs_pair(&p->net) && !p->net.ebpf.forced);
}

void view_plan(const struct policy *p, struct layer_state *l, int learn)
{
	const struct view_spec *v = &p->view;
	const char *why = NULL, *hint = "";
	static char tried[160];
	struct trial t = {TRIAL_OK, 0, 0};

	V.p = p;
	l->tier = TIER_OFF;
	if (v->flags & POLBIN_VIEW_F_USER) {
		boxns_map_user(v->uid, v->gid);
		/* whatever rung the view gets: refused here, not in the
		 * child's unshare */
		if (boxns_wanted(BOXNS_USER) && !boxns_userns_available())
			die("view: `user %u:%u` needs a user namespace, which "
			    "this user may not create: %s",
			    v->uid, v->gid, boxns_userns_why());
	}
	/* Learn mode sees the host's tree, as it has no Landlock: what the
	 * view would hide is what it is there to record (docs/OBSERVE.md). */
	if (!(v->flags & POLBIN_VIEW_F_ROOT) || learn) {
		if (boxns_wanted(BOXNS_USER) && !boxns_userns_available())
			die("view: `user %u:%u` needs a user namespace, which "
			    "this user may not create: %s",
			    v->uid, v->gid, boxns_userns_why());
		return;
	}
	if (!boxns_privileged() && !boxns_userns_available()) {
		why = boxns_in_box() ? "no user namespace inside the outer "
				       "polexec box"
				     : "no user namespace for this user";
		hint = boxns_userns_why();
	} else if (!mount_api()) {
		why = "the kernel lacks the mount API (Linux 5.12)";
	} else if (trial_run(view_in_userns(p), TRIAL_WANT_VIEW, &t) == 0 &&
		   t.step != TRIAL_OK) {
		/* trial.c: the steps tried, the first refused named */
		snprintf(tried, sizeof(tried), "%s: %s",
			 trial_step_name(t.step), strerror(t.err));
		hint = trial_hint(&t);
		V.proc_rbind = t.proc_rbind;
		if (t.proc_rbind)
			warning(
			    "view: proc: a fresh procfs is refused here "
			    "(masked /proc paths): the container's /proc is "
			    "bound instead, its processes visible");
		if (t.step == TRIAL_CHROOT) {
			V.chroot = 1;
			snprintf(tried + strlen(tried),
				 sizeof(tried) - strlen(tried),
				 ": a chroot into the same tree");
			warning("view: %s (%s)", tried, hint);
			l->reason = tried;
		} else {
			why = tried;
		}
	}
	if (why && !(v->flags & POLBIN_VIEW_F_BEST_EFFORT))
		die("view: the box's own view cannot be had here: %s%s%s; the "
		    "policy requires it (`fs best_effort` would run without "
		    "it)",
		    why, hint[0] ? ": " : "", hint);
	if (why) {
		hosttree_plan(p);
		warning("view: %s: the host's tree under Landlock, with the "
			"host's /dev nodes, a private temporary folder and the "
			"host's /proc read-only in place of the box's own%s%s",
			why, hint[0] ? "; to have the view: " : "", hint);
		l->tier = TIER_DEGRADED;
		l->reason = why;
		V.hosttree = 1;
		return;
	}
	if (!why && t.step == TRIAL_OK && t.proc_rbind) {
		V.proc_rbind = 1;
		l->reason = "procfs: a fresh procfs is refused here: the "
			    "container's /proc, bound";
		warning("view: proc: a fresh procfs is refused here (masked "
			"/proc paths): the container's /proc is bound instead, "
			"its processes visible");
	}
	boxns_want(BOXNS_MOUNT | BOXNS_PID);
	init_plan();
	plan_order(p);
	/* The system call: "(unreachable)..." or an error leave it "". */
	if (syscall(SYS_getcwd, V.cwd, sizeof(V.cwd)) < 0 || V.cwd[0] != '/')
		V.cwd[0] = '\0';
	V.root = 1;
	l->tier = V.chroot || V.proc_rbind ? TIER_DEGRADED : TIER_ENFORCED;
}

int view_root(void)
{
	return V.root;
}

/* --- in the box's init ------------------------------------------------- */

static void ours_add(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		die_with_error("view: fstat %s", path);
	if (V.nours < VIEW_MAX_OURS)
		V.ours[V.nours++] = st.st_dev;
}

static int is_ours(const struct stat *st)
{
	uint32_t i;

	for (i = 0; i < V.nours; i++)
		if (V.ours[i] == st->st_dev)
			return 1;
	return 0;
}

/*
 * An O_PATH fd on `path` in the new root. What is missing is made, only
 * on the box's own tmpfs: folders, and at the end a folder or (file) an
 * empty file. No symbolic link is followed; one on the way is a refusal.
 */
static int point(const char *path, int file)
{
	int fd = openat(V.rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	const char *c = path;

	while (fd >= 0 && *(c += strspn(c, "/"))) {
		char name[NAME_MAX + 1];
		size_t n = strcspn(c, "/");
		int last = !c[n + strspn(c + n, "/")], next;
		struct stat st;

		if (n > NAME_MAX)
			die("view: %s: a component longer than %d bytes", path,
			    NAME_MAX);
		memcpy(name, c, n);
		name[n] = '\0';
		c += n;
		next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT) {
			if (fstat(fd, &st) < 0 || !is_ours(&st))
				die("view: %s: %s is missing on the host, and "
				    "polexec makes mount points only on the "
				    "box's own tmpfs",
				    path, name);
			if (last && file) {
				next = openat(fd, name,
					      O_WRONLY | O_CREAT | O_EXCL |
						  O_NOFOLLOW | O_CLOEXEC,
					      0644);
				if (next >= 0)
					close(next);
			} else if (mkdirat(fd, name, 0755) < 0) {
				die_with_error("view: mkdir %s (for %s)", name,
					       path);
			}
			next =
			    openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0)
			die_with_error("view: %s: open %s", path, name);
		if (fstat(next, &st) < 0)
			die_with_error("view: fstat %s", path);
		if (S_ISLNK(st.st_mode))
			die("view: %s: %s is a symbolic link, and polexec "
			    "follows none on the way to a mount point",
			    path, name);
		close(fd);
		fd = next;
	}
	if (fd < 0)
		die_with_error("view: %s: open", path);
	return fd;
}

/* After a mount: it has the restrictions asked for (most are not taken
 * silently by a bind, so each is looked at). */
static void check(int fd, unsigned attrs, const char *what, const char *path)
{
	struct statfs sf;
	unsigned long want = ST_NOSUID;

	if (attrs & MOUNT_ATTR_RDONLY_)
		want |= ST_RDONLY;
	if (attrs & MOUNT_ATTR_NOEXEC_)
		want |= ST_NOEXEC;
	if (attrs & MOUNT_ATTR_NODEV_)
		want |= ST_NODEV;
	/* f_flags: ST_* (statfs(2)); libc's fstatvfs converts the same */
	if (syscall(SYS_fstatfs, fd, &sf) < 0)
		die_with_error("view: %s %s: fstatfs", what, path);
	if (((unsigned long)sf.f_flags & want) != want)
		die("view: %s %s: the mount lacks flags 0x%lx it was given",
		    what, path, want & ~(unsigned long)sf.f_flags);
}

/* A VIEW attribute set as MOUNT_ATTR_* bits, nosuid always. */
static unsigned mount_attrs(uint8_t a)
{
	return MOUNT_ATTR_NOSUID_ |
	       (a & POLBIN_VIEW_A_RDONLY ? MOUNT_ATTR_RDONLY_ : 0) |
	       (a & POLBIN_VIEW_A_NOEXEC ? MOUNT_ATTR_NOEXEC_ : 0) |
	       (a & POLBIN_VIEW_A_NODEV ? MOUNT_ATTR_NODEV_ : 0);
}

/* A clone of the tree at fd (recursive, detached). */
static int clone_tree(int fd, const char *sub, const char *path)
{
	int tree =
	    open_tree_(fd, sub,
		       OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE_ |
			   (sub[0] ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH));

	if (tree < 0)
		die_with_error("view: bind %s: open_tree", path);
	return tree;
}

/* Restricts a cloned tree and puts it on `to`; closes it. */
static void place_tree(int tree, int to, unsigned attrs, const char *path)
{
	if (setattr(tree, AT_RECURSIVE_, attrs) < 0)
		die_with_error("view: bind %s: mount_setattr", path);
	if (move(tree, to) < 0)
		die_with_error("view: bind %s: move_mount", path);
	check(tree, attrs, "bind", path);
	close(tree);
}

/* Clones the tree at fd (recursively), restricts it, puts it on `to`. */
static void bind_fd(int fd, const char *sub, int to, unsigned attrs,
		    const char *path)
{
	place_tree(clone_tree(fd, sub, path), to, attrs, path);
}

/* A new mount of `type`, options as key, value pairs (NULL: a flag). */
static int fs_new(const char *type, const char *const *kv, unsigned attrs,
		  const char *path)
{
	int fs = (int)syscall(SYS_fsopen, type, 1u /* FSOPEN_CLOEXEC */), m;

	if (fs < 0)
		die_with_error("view: %s %s: fsopen", type, path);
	for (; kv && kv[0]; kv += 2)
		if (syscall(SYS_fsconfig, fs,
			    kv[1] ? FSCONFIG_SET_STRING_ : FSCONFIG_SET_FLAG_,
			    kv[0], kv[1], 0) < 0)
			die_with_error("view: %s %s: option %s", type, path,
				       kv[0]);
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0) < 0)
		die_with_error("view: %s %s: create", type, path);
	m = (int)syscall(SYS_fsmount, fs, 1u /* FSMOUNT_CLOEXEC */, attrs);
	if (m < 0)
		die_with_error("view: %s %s: fsmount", type, path);
	close(fs);
	return m;
}

/* A new mount at `path`, or below `at` as `name`; its root's fd. */
static int mount_new(const char *type, const char *const *kv, unsigned attrs,
		     int at, const char *name, const char *path)
{
	int m = fs_new(type, kv, attrs, path), to;

	if (at >= 0) {
		if (mkdirat(at, name, 0755) < 0)
			die_with_error("view: %s: mkdir %s", path, name);
		to = openat(at, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	} else {
		to = point(path, 0);
	}
	if (to < 0 || move(m, to) < 0)
		die_with_error("view: %s %s: move_mount", type, path);
	check(m, attrs, type, path);
	close(to);
	if (!strcmp(type, "tmpfs"))
		ours_add(m, path);
	return m;
}

static void link_at(int at, const char *target, const char *name,
		    const char *path)
{
	if (symlinkat(target, at, name) < 0)
		die_with_error("view: %s: symlink %s", path, name);
}

/*
 * A /dev of the box's own: a small tmpfs holding the host's null zero
 * full random urandom tty (bound, each a file; a name the host lacks is
 * left out), a devpts of its own with ptmx, a private /dev/shm, the
 * usual links; then read-only, and Landlock's rule on it.
 */
static void make_dev(const struct view_entry *e, const char *path,
		     const struct ll_run *ll)
{
	static const char *const nodes[] = {"null",   "zero",	 "full",
					    "random", "urandom", "tty"};
	static const char *const tmpfs[] = {"mode",	 "0755", "size", "64k",
					    "nr_inodes", "64",	 NULL};
	static const char *const pts[] = {
	    "newinstance", NULL, "ptmxmode", "0666", "mode", "0620", NULL};
	static const char *const shm[] = {"mode", "1777", "size", "64m", NULL};
	static const char *const links[][2] = {
	    {"pts/ptmx", "ptmx"},	   {"/proc/self/fd", "fd"},
	    {"/proc/self/fd/0", "stdin"},  {"/proc/self/fd/1", "stdout"},
	    {"/proc/self/fd/2", "stderr"},
	};
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve = RESOLVE_NO_SYMLINKS};
	int d =
	    mount_new("tmpfs", tmpfs, MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NOEXEC_,
		      -1, NULL, path);
	size_t i;

	for (i = 0; i < sizeof(nodes) / sizeof(*nodes); i++) {
		char host[16];
		struct stat st;
		int src, to;

		snprintf(host, sizeof(host), "/dev/%s", nodes[i]);
		src = (int)syscall(SYS_openat2, AT_FDCWD, host, &how,
				   sizeof(how));
		if (src < 0 && errno == ENOENT)
			continue;
		if (src < 0 || fstat(src, &st) < 0 || !S_ISCHR(st.st_mode))
			die("view: %s: the host's %s is not a character "
			    "device",
			    path, host);
		to = openat(d, nodes[i],
			    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (to < 0)
			die_with_error("view: %s: create %s", path, nodes[i]);
		close(to);
		to = openat(d, nodes[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		bind_fd(src, "", to, MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NOEXEC_,
			host);
		close(to);
		close(src);
	}
	close(mount_new("devpts", pts, MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NOEXEC_,
			d, "pts", path));
	close(mount_new("tmpfs", shm,
			MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_ |
			    MOUNT_ATTR_NOEXEC_,
			d, "shm", path));
	for (i = 0; i < sizeof(links) / sizeof(*links); i++)
		link_at(d, links[i][0], links[i][1], path);
	if (setattr(d, 0, MOUNT_ATTR_RDONLY_) < 0)
		die_with_error("view: %s: read-only", path);
	landlock_allow(ll, d, e->access, path);
	close(d);
}

/*
 * A procfs of the box's pid namespace (this process is its pid 1), the
 * processes the box may not ptrace hidden (pid 1 among them); /proc/sys
 * and the other files that change the kernel read-only over themselves,
 * as bubblewrap does. The group that would see them all is root's by
 * default, which a root box is in: outside a user namespace it is a gid
 * no one has.
 */
static void make_proc(const struct view_entry *e, const char *path,
		      const struct ll_run *ll)
{
	const char *opts[] = {"hidepid", "invisible", "gid", "4294967294",
			      NULL};
	static const char *const ro[] = {"sys", "sysrq-trigger", "irq", "bus"};
	unsigned attrs =
	    MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_ | MOUNT_ATTR_NOEXEC_;
	int m;
	size_t i;

	if (boxns_wanted(BOXNS_USER))
		opts[2] = NULL;
	if (V.proc_rbind) {
		/* trial.c: a fresh procfs is refused (masked paths); the
		 * host's, recursively, so its masks come along, read-only */
		int host = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
		int to = point(path, 0);

		if (host < 0)
			die_with_error("view: %s: open the host's /proc", path);
		bind_fd(host, "", to, attrs | MOUNT_ATTR_RDONLY_, path);
		close(host);
		/* the bound tree's root, not the folder below it */
		m = openat(V.rootfd, path + 1,
			   O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (m < 0)
			die_with_error("view: %s: open", path);
		close(to);
		landlock_allow(ll, m, e->access, path);
		close(m);
		return;
	}
	m = mount_new("proc", opts, attrs, -1, NULL, path);
	for (i = 0; i < sizeof(ro) / sizeof(*ro); i++) {
		int to = openat(m, ro[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);

		if (to < 0 && errno == ENOENT)
			continue;
		if (to < 0)
			die_with_error("view: %s: open %s", path, ro[i]);
		bind_fd(m, ro[i], to, attrs | MOUNT_ATTR_RDONLY_, path);
		close(to);
	}
	landlock_allow(ll, m, e->access, path);
	close(m);
}

/* The host's link at path (a merged /usr), copied into the root. */
static void copy_link(const char *path)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return; /* not a link here, or missing: nothing to copy */
	target[n] = '\0';
	link_at(V.rootfd, target, path + 1, path);
}

/*
 * The box's file at path with text: written in place where the folder is
 * the box's tmpfs and nothing is there yet, else written beside and bound
 * over the file there (a grant's: the host's file stays as it is).
 * required == 0: a place the view cannot have is skipped. The box may
 * read it: a Landlock rule on the file itself (a rule on the host's file
 * does not reach a file bound over it, nor does any rule reach the box's
 * tmpfs).
 */
static void put_file(const char *path, const char *text, int required,
		     const struct ll_run *ll)
{
	const char *slash = strrchr(path, '/'), *name = slash + 1;
	char dir[64];
	struct stat st;
	int d, f, to, at;

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	d = point(dir, 0);
	to = openat(d, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fstat(d, &st) < 0)
		die_with_error("view: fstat %s", dir);
	at = to < 0 && is_ours(&st) ? d : V.rootfd;
	if (at == V.rootfd &&
	    (to < 0 || fstat(to, &st) < 0 || !S_ISREG(st.st_mode))) {
		if (required)
			die("view: %s: the view has no such file to cover",
			    path);
		goto out;
	}
	if (at == V.rootfd)
		name = ".polexec-file";
	f = openat(at, name,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (f < 0 || write(f, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(f) < 0)
		die_with_error("view: write %s", path);
	if (at == V.rootfd) {
		int src = openat(at, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

		bind_fd(src, "", to,
			MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_ |
			    MOUNT_ATTR_NOEXEC_ | MOUNT_ATTR_RDONLY_,
			path);
		if (unlinkat(at, name, 0) < 0)
			die_with_error("view: unlink the staged %s", path);
		close(src);
	}
	f = openat(d, slash + 1, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (f < 0)
		die_with_error("view: open %s", path);
	landlock_allow(ll, f, LANDLOCK_ACCESS_FS_READ_FILE, path);
	close(f);
out:
	if (to >= 0)
		close(to);
	close(d);
}

/* The mount points of the secrets' tmpfs, made on the box's tmpfs. */
static void secret_points(const struct view_extras *x)
{
	const char *m;
	uint32_t i;

	for (i = 0; (m = x->secret_point(i)); i++)
		close(point(m, 0));
}

/*
 * The bind sources again, in the box's mount namespace: a mount of the
 * host's namespace cannot be cloned here, so each path is opened once
 * more, the same way, and must be the very file the Landlock rule was
 * made from (same device and inode), or the box is refused.
 */
static void reopen_sources(void)
{
	uint32_t i;

	for (i = 0; i < V.p->ll.nfs; i++) {
		struct ll_rule *r = &V.p->ll.fs[i];
		struct stat a, b;
		int fd;

		if (r->fd < 0)
			continue;
		fd =
		    landlock_open_rule(r->bound, r->flags & POLBIN_LL_F_FOLLOW);
		if (fd < 0)
			die_with_error("view: bind %s: open", r->bound);
		if (fstat(fd, &a) < 0 || fstat(r->fd, &b) < 0 ||
		    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
			die("view: bind %s: the path changed since Landlock's "
			    "rule was made from it",
			    r->bound);
		close(r->fd);
		r->fd = fd;
	}
}

/*
 * A grant of / is a bind stacked on the new root itself. A lookup that
 * starts at V.rootfd does not cross a mount stacked on its own start, so
 * every later mount point and the pivot_root would land in the empty
 * tmpfs below it, and the box would see that: nothing. From here the
 * root is the bind's top (reached through /tmp, where the new root is
 * mounted); it is the host's tree, not ours, so point() makes nothing
 * in it.
 */
static void root_on_top(void)
{
	int top = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (top < 0)
		die_with_error("view: bind /: open the new root");
	close(V.rootfd);
	V.rootfd = top;
}

static void build(const struct ll_run *ll, const struct view_extras *x)
{
	int *tree = xcalloc(V.n + 1, sizeof(*tree));
	uint32_t k;

	reopen_sources();
	/* Each bind's tree is cloned before the new root is mounted on
	 * /tmp: a clone made after it would hold it (a grant of /tmp, or of
	 * /, would show the box's root where the host's /tmp is). */
	for (k = 0; k < V.n; k++)
		tree[k] = entry_is(k, POLBIN_VIEW_BIND) && !V.skip[k]
			      ? clone_tree(
				    V.p->ll.fs[V.p->view.e[V.order[k]].rule].fd,
				    "", V.path[k])
			      : -1;
	/* Its source names polexec: a polexec run inside the box knows it
	 * is in one, and says so (boxns_in_box). */
	if (mount("polexec", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755,size=4m") < 0)
		die_with_error("view: mount the new root's tmpfs");
	V.rootfd = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (V.rootfd < 0)
		die_with_error("view: open the new root");
	ours_add(V.rootfd, "/");
	for (k = 0; k < V.n; k++) {
		const struct view_entry *e = &V.p->view.e[V.order[k]];
		const char *path = V.path[k];
		char size[24];
		const char *opts[] = {"mode", "0755", "size", size, "uid",
				      "",     "gid",  "",     NULL};
		char uid[12], gid[12];
		int to, m;

		switch (e->kind) {
		case POLBIN_VIEW_BIND: {
			const struct ll_rule *r = &V.p->ll.fs[e->rule];

			if (V.skip[k])
				break;
			to = point(path, !r->isdir);
			place_tree(tree[k], to, mount_attrs(V.attrs[k]), path);
			close(to);
			if (!strcmp(path, "/"))
				root_on_top();
			break;
		}
		case POLBIN_VIEW_TMPFS:
			snprintf(size, sizeof(size), "%llu",
				 (unsigned long long)e->size);
			snprintf(uid, sizeof(uid), "%u", boxns_uid());
			snprintf(gid, sizeof(gid), "%u", boxns_gid());
			opts[5] = uid;
			opts[7] = gid;
			m = mount_new(
			    "tmpfs", opts,
			    mount_attrs(e->attrs | POLBIN_VIEW_A_NODEV), -1,
			    NULL, path);
			landlock_allow(ll, m, e->access, path);
			close(m);
			break;
		case POLBIN_VIEW_DEV:
			make_dev(e, path, ll);
			break;
		case POLBIN_VIEW_PROC:
			make_proc(e, path, ll);
			break;
		default:
			copy_link(path);
		}
	}
	if (x->hosts) {
		put_file("/etc/hosts", x->hosts, 1, ll);
		put_file("/etc/resolv.conf", x->resolv, 0, ll);
	}
	free(tree);
	secret_points(x);
	/* The old root goes: stacked over the new one, then detached. */
	if (fchdir(V.rootfd) < 0)
		die_with_error("view: chdir into the new root");
	if (V.chroot) {
		/* pivot_root refused (trial.c): the same tree, chrooted; the
		 * old root stays mounted below it, out of every path, and
		 * the box keeps no CAP_SYS_CHROOT to leave it */
		if (chroot(".") < 0)
			die_with_error("view: chroot");
	} else {
		if (syscall(SYS_pivot_root, ".", ".") < 0)
			die_with_error("view: pivot_root");
		if (umount2(".", MNT_DETACH) < 0)
			die_with_error("view: detach the old root");
	}
	if (chdir("/") < 0)
		die_with_error("view: chdir /");
	x->secrets();
	if (setattr(V.rootfd, 0, MOUNT_ATTR_RDONLY_ | MOUNT_ATTR_NOSUID_) < 0)
		die_with_error("view: make the root read-only");
	check(V.rootfd, MOUNT_ATTR_RDONLY_, "root", "/");
	if (!V.cwd[0] || chdir(V.cwd) < 0)
		if (chdir("/") < 0)
			die_with_error("view: chdir /");
}

void view_child(const struct ll_run *ll, const struct view_extras *x)
{
	uint32_t i;

	if (!V.root) {
		if (V.hosttree)
			hosttree_child(ll); /* /dev, /tmp, /proc replaced */
		x->host_files();	    /* the host's tree, as before */
		x->secrets();
		return;
	}
	build(ll, x);
	/* Nothing of the host's tree stays open here. */
	for (i = 0; i < V.p->ll.nfs; i++)
		if (V.p->ll.fs[i].fd >= 0)
			close(V.p->ll.fs[i].fd);
	close(V.rootfd);
	if (ll->nofile_raised && setrlimit(RLIMIT_NOFILE, &ll->nofile) < 0)
		die_with_error("view: setrlimit(RLIMIT_NOFILE)");
}

const char *view_env(void)
{
	return V.hosttree ? hosttree_tmpdir_env() : NULL;
}

void view_finish(void)
{
	if (V.hosttree)
		hosttree_finish();
}

void view_record(struct text *t, int refused)
{
	const struct view_spec *v = V.p ? &V.p->view : NULL;

	if (v && v->flags & POLBIN_VIEW_F_USER)
		text_add(t, ",\"user\":{\"uid\":%u,\"gid\":%u}", v->uid,
			 v->gid);
	else
		text_add(t, ",\"user\":\"caller\"");
	text_add(t, ",\"root\":\"%s\"", V.root ? "own" : "host");
	if (V.hosttree) {
		text_add(t, ",\"rung\":\"landlock\"");
		hosttree_record(t);
	}
	if (!V.root || refused)
		return;
	text_add(t, ",\"rung\":\"%s\"", V.chroot ? "chroot" : "pivot_root");
	if (V.proc_rbind)
		text_add(t, ",\"proc\":\"rbind\"");
	text_add(t, ",\"entries\":%u", V.n);
	init_record(t);
}
