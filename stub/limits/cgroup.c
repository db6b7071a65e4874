/* SPDX-License-Identifier: MIT */
/*
 * The box's own cgroups, v2 or v1 (limits.c decides which limits want
 * one): made under polexec's cgroup before the clone, signalled through
 * pidfds, and after the box ends read, emptied, removed, and what polexec
 * changed in its own cgroup put back.
 *
 * The hierarchies are found in /proc/self/mountinfo and /proc/self/cgroup,
 * not assumed at /sys/fs/cgroup: hosts mount them elsewhere, and v1 keeps
 * each controller in a hierarchy of its own.
 *
 * A polexec killed with SIGKILL runs no cleanup, and nothing else would
 * ever remove its cgroups. So before the first mkdir a keeper starts: a
 * child that shares polexec's memory (CLONE_VM: it sees C as polexec
 * fills it) and blocks reading a pipe whose one write end is polexec's.
 * However polexec ends, the pipe closes; when polexec has not removed its
 * cgroups itself, the keeper does (what is in them killed first, what
 * polexec changed in its v2 cgroup put back) and exits. After removing
 * them itself, polexec closes the pipe and reaps the keeper.
 */
#include "cgroup.h"
#include "lib/kernel.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One cgroup of the box's own, in one hierarchy. */
struct cg {
	int version; /* 1 or 2; 0: slot unused */
	uint32_t mask;
	char box[PATH_MAX]; /* its folder */
	char rel[PATH_MAX]; /* its path in the hierarchy, as /proc says */
	int procs_fd;
	/* v2: the cgroup polexec runs in, and what we changed there */
	char parent[PATH_MAX];
	char self[PATH_MAX]; /* the leaf polexec moved itself into */
	char enabled[32];    /* controllers we enabled in its subtree */
};

static struct {
	struct cg cg[3];
	int ncg;
	uint64_t memory, pids; /* the limits to set */
	uint32_t also;	       /* cgroup_also(): CG_BPF */
	char why[512];	       /* why no cgroup, for refusals and --doctor */
	pid_t owner;	       /* polexec, whose cgroups these are */
	char tag[32];	       /* their names' end: "PID-RANDOM" */
	int born_v2;	       /* the child is cloned into the v2 one */
	pid_t keeper;	       /* the keeper, while it runs */
	int keeper_fd;	       /* the pipe's write end, while keeper > 0 */
} C; /* zero-initialized: an initializer would put its 48 KiB in the file */

/* --- cgroup files ------------------------------------------------------ */

static int join(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int join(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int write_text(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	size_t n = strlen(text);
	ssize_t w;
	int fd, e;

	if (join(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = write(fd, text, n);
	e = w < 0 ? errno : EIO;
	if (w != (ssize_t)n) {
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* dir/file into buf, NUL-terminated; -1 when it cannot be read. */
static int read_text(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	int fd;

	if (join(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	return 0;
}

/* The decimal number at *p, which moves past it; at most 2^62. */
static long long number(const char **p)
{
	long long v = 0;

	for (; **p >= '0' && **p <= '9'; (*p)++)
		if (v < (1ll << 62) / 10)
			v = v * 10 + (**p - '0');
	return v;
}

/* "KEY N" in dir/file, or the file's only number when key is NULL. */
static long long read_value(const char *dir, const char *file, const char *key)
{
	char buf[1024];
	const char *p = buf;
	size_t k;

	if (read_text(dir, file, buf, sizeof(buf)) < 0)
		return -1;
	if (key) {
		k = strlen(key);
		for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (strncmp(p, key, k) == 0 && p[k] == ' ')
				break;
		if (!p)
			return -1;
		p += k + 1;
	}
	if (*p < '0' || *p > '9')
		return -1;
	return number(&p);
}

/* Is `word` one of the comma- or space-separated tokens of `list`? */
static int has_token(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		int start = p == list || p[-1] == ',' || p[-1] == ' ';
		int end =
		    p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\n';

		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}

/* Splits s at spaces and tabs (and the newline), in place; returns how
 * many of the first max fields it found. */
static int split_fields(char *s, char **fld, int max)
{
	int n = 0;

	while (n < max) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			*s++ = '\0';
		if (!*s)
			break;
		fld[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* What a line of /proc/self/mountinfo or /proc/self/cgroup is matched
 * against, and where the path found goes. */
struct find {
	const char *ctrl; /* a v1 controller, or NULL for cgroup2 */
	char *out;
	size_t len;
	const char *under; /* mountinfo: our cgroup's path, the mount's root
			    * holding it; the root's length into *rootlen */
	size_t *rootlen;
};

/*
 * fn on each line of path (NUL-terminated, its newline removed; a line
 * longer than 4 KiB is skipped) until it returns 0: the line matched and
 * its path fit. Returns 0, or -1 when no line did.
 */
static int each_line(const char *path, int (*fn)(char *, const struct find *),
		     const struct find *f)
{
	char buf[4096], *line, *nl;
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = -1, skip = 0;
	size_t have = 0;
	ssize_t n = 1;

	if (fd < 0)
		return -1;
	while (found < 0 && n > 0) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n > 0)
			have += (size_t)n;
		else if (have && !skip) /* the last line, with no newline */
			buf[have++] = '\n';
		buf[have] = '\0';
		for (line = buf; found < 0 && (nl = strchr(line, '\n'));
		     line = nl + 1) {
			*nl = '\0';
			if (!skip)
				found = fn(line, f);
			skip = 0;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1) {
			skip = 1; /* a line too long to be one we want */
			have = 0;
		}
	}
	close(fd);
	return found;
}

/*
 * A line of /proc/self/mountinfo: fields 4 and 5 (root, mount point);
 * after " - ": type, source, options. Only a mount whose root holds our
 * cgroup, so /proc/self/cgroup's path leads below it: a hierarchy's root,
 * or (a container without a cgroup namespace, `--privileged` among them)
 * the container's own cgroup, bound where the hierarchy would be.
 */
static int mountinfo_line(char *line, const struct find *f)
{
	char *fld[5], *after[3], *sep = strstr(line, " - ");
	size_t root;

	if (!sep)
		return -1;
	*sep = '\0';
	if (split_fields(line, fld, 5) < 5 ||
	    split_fields(sep + 3, after, 3) < 3)
		return -1;
	if (strchr(fld[3], '\\') || strchr(fld[4], '\\'))
		return -1;
	root = strcmp(fld[3], "/") ? strlen(fld[3]) : 0;
	if (root && (strncmp(f->under, fld[3], root) ||
		     (f->under[root] != '/' && f->under[root] != '\0')))
		return -1;
	if (f->ctrl ? strcmp(after[0], "cgroup") == 0 &&
			  has_token(after[2], f->ctrl)
		    : strcmp(after[0], "cgroup2") == 0) {
		*f->rootlen = root;
		return join(f->out, f->len, "%s", fld[4]);
	}
	return -1;
}

/* A line "ID:CONTROLLERS:PATH" of /proc/self/cgroup: v2 is "0::PATH", v1
 * lists ctrl among its controllers. */
static int cgroup_line(char *line, const struct find *f)
{
	char *ctrls = strchr(line, ':'), *path;

	if (!ctrls || !(path = strchr(ctrls + 1, ':')))
		return -1;
	*ctrls++ = '\0';
	*path++ = '\0';
	if (f->ctrl ? has_token(ctrls, f->ctrl)
		    : strcmp(line, "0") == 0 && ctrls[0] == '\0')
		return join(f->out, f->len, "%s", path);
	return -1;
}

/*
 * Our own cgroup in the cgroup2 hierarchy (ctrl NULL) or in the v1
 * hierarchy holding ctrl: its folder into dir, its path in the hierarchy
 * into path ("" for the root). 0; -1 when the hierarchy is mounted but
 * our cgroup cannot be found; -2 when it is not mounted.
 */
static int cg_locate(const char *ctrl, char dir[PATH_MAX], char path[PATH_MAX])
{
	char mnt[PATH_MAX];
	size_t root = 0;
	const struct find c = {ctrl, path, PATH_MAX, NULL, NULL},
			  m = {ctrl, mnt, PATH_MAX, path, &root};

	if (each_line("/proc/self/cgroup", cgroup_line, &c) < 0)
		return each_line(
			   "/proc/self/mountinfo", mountinfo_line,
			   &(struct find){ctrl, mnt, PATH_MAX, "/", &root}) < 0
			   ? -2
			   : -1;
	if (each_line("/proc/self/mountinfo", mountinfo_line, &m) < 0)
		return -2;
	if (!strcmp(path, "/"))
		path[0] = '\0';
	return join(dir, PATH_MAX, "%s%s", mnt, path + root);
}

/* --- the box's cgroups ------------------------------------------------ */

static void why_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void why_add(const char *fmt, ...)
{
	size_t n = strlen(C.why);
	va_list ap;

	if (n && n + 2 < sizeof(C.why)) {
		strcat(C.why, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(C.why + n, sizeof(C.why) - n, fmt, ap);
	va_end(ap);
}

/*
 * sig to one member of the box's cgroup, through a pidfd: the pid is read
 * from cgroup.procs, then pinned, then checked to be in the box's cgroup
 * (its /proc/PID/cgroup names c->rel), so a pid that ended and was reused
 * meanwhile by a process outside the box is never signalled.
 */
static void cg_kill_member(const struct cg *c, pid_t pid, int sig)
{
	char dir[32], buf[4096], want[PATH_MAX + 2];
	int fd = sys_pidfd_open(pid);

	if (fd < 0)
		return; /* gone already, or a kernel before 5.3: not guessed */
	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	if (join(want, sizeof(want), ":%s\n", c->rel) == 0 &&
	    read_text(dir, "cgroup", buf, sizeof(buf)) == 0 &&
	    strstr(buf, want))
		sys_pidfd_send_signal(fd, sig);
	close(fd);
}

/* sig to every process in the box's cgroup (v2 SIGKILL: cgroup.kill). */
static void cg_signal(const struct cg *c, int sig)
{
	char buf[8192];
	const char *p;

	if (c->version == 2 && sig == SIGKILL &&
	    write_text(c->box, "cgroup.kill", "1") == 0)
		return;
	if (read_text(c->box, "cgroup.procs", buf, sizeof(buf)) < 0)
		return;
	for (p = buf; *p >= '0' && *p <= '9';) {
		long long pid = number(&p);

		if (pid > 0 && pid != getpid())
			cg_kill_member(c, (pid_t)pid, sig);
		while (*p == '\n')
			p++;
	}
}

/* Removes one of the box's cgroups, killing what is left in it first. */
static void cg_remove(struct cg *c)
{
	struct timespec nap = {0, 5 * 1000 * 1000};
	int i;

	if (c->procs_fd >= 0) {
		close(c->procs_fd);
		c->procs_fd = -1;
	}
	if (c->box[0]) {
		for (i = 0; i < 400 && rmdir(c->box) < 0; i++) {
			if (errno == ENOENT) /* killed before its mkdir */
				break;
			if (errno != EBUSY) {
				warning("limits: rmdir %s: %s", c->box,
					strerror(errno));
				break;
			}
			cg_signal(c, SIGKILL);
			nanosleep(&nap, NULL);
		}
		c->box[0] = '\0';
	}
	if (c->version == 2 && c->enabled[0]) {
		char minus[32];
		size_t k;

		snprintf(minus, sizeof(minus), "%s", c->enabled);
		for (k = 0; minus[k]; k++)
			if (minus[k] == '+')
				minus[k] = '-';
		if (write_text(c->parent, "cgroup.subtree_control", minus) < 0)
			warning("limits: could not restore "
				"%s/cgroup.subtree_control: %s",
				c->parent, strerror(errno));
		c->enabled[0] = '\0';
	}
	if (c->version == 2 && c->self[0]) {
		char pid[32];

		/* us, and the keeper when it is not us */
		snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (write_text(c->parent, "cgroup.procs", pid) < 0 ||
		    (C.keeper > 0 && C.keeper != getpid() &&
		     (snprintf(pid, sizeof(pid), "%d\n", (int)C.keeper),
		      write_text(c->parent, "cgroup.procs", pid) < 0)) ||
		    (rmdir(c->self) < 0 && errno != ENOENT))
			warning("limits: could not move back to %s: %s",
				c->parent, strerror(errno));
		c->self[0] = '\0';
	}
	c->version = 0;
}

/* mkdir, replacing a stale empty cgroup of a polexec that had our pid. */
static int cg_mkdir(const char *path)
{
	if (mkdir(path, 0755) == 0)
		return 0;
	if (errno != EEXIST || rmdir(path) < 0)
		return -1;
	return mkdir(path, 0755);
}

/*
 * The file the child writes "0" to (cgroup_join). v1: "tasks", which moves
 * the writing thread alone: the child has no other thread then, so it is
 * the same move as through cgroup.procs, without the kernel's lock on
 * every thread group, whose taking waits for an RCU grace period (up to
 * 19 ms here; docs/BENCHMARKS.md). v2 moves single threads only inside a
 * threaded subtree: cgroup.procs there.
 */
static int cg_open_procs(struct cg *c)
{
	char path[PATH_MAX];

	if (join(path, sizeof(path), "%s/%s", c->box,
		 c->version == 1 ? "tasks" : "cgroup.procs") < 0)
		return -1;
	c->procs_fd = open(path, O_WRONLY | O_CLOEXEC);
	return c->procs_fd < 0 ? -1 : 0;
}

static int cg_set_limits(struct cg *c, uint32_t mask, int v2)
{
	char v[32];

	if (mask & CG_MEMORY) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)C.memory);
		if (write_text(c->box,
			       v2 ? "memory.max" : "memory.limit_in_bytes",
			       v) < 0)
			return -1;
		/* Swap counts too: v1 bounds memory + swap, v2 forbids swap. */
		if (write_text(c->box,
			       v2 ? "memory.swap.max"
				  : "memory.memsw.limit_in_bytes",
			       v2 ? "0" : v) < 0 &&
		    errno != ENOENT)
			return -1;
		/* v2: an OOM kill takes the whole box, not one process. */
		if (v2 && write_text(c->box, "memory.oom.group", "1") < 0 &&
		    errno != ENOENT)
			return -1;
	}
	if (mask & CG_PIDS) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)C.pids);
		if (write_text(c->box, "pids.max", v) < 0)
			return -1;
	}
	return 0;
}

/*
 * What a polexec killed together with its keeper (`pkill -9 polexec`)
 * left under dir: folders polexec-PID-TAG[.self] whose PID no longer
 * runs. rmdir removes only an empty cgroup, so nothing running is
 * touched. A polexec of another pid namespace under the same parent,
 * whose PID is not one of ours, could lose a cgroup it has just made and
 * not yet joined: it then fails as with any cgroup it cannot set up or
 * join, and says so; its box never runs in a cgroup it believes it has.
 */
static void sweep_one(const char *name, void *dirfd)
{
	const char *end = name + 8;
	long long pid;

	if (strncmp(name, "polexec-", 8))
		return;
	pid = number(&end);
	if (end > name + 8 && *end == '-' && pid > 0 && pid < (1ll << 31) &&
	    pid != getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		unlinkat(*(int *)dirfd, name, AT_REMOVEDIR);
}

static void cg_sweep(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	each_dirent(fd, ~(size_t)0, sweep_one, &fd);
	close(fd);
}

/*
 * The box's cgroup c below dir, our own (path in its hierarchy), with the
 * limits of mask. 0; -1 when it could not be made, -2 when it could not
 * be set up (errno says why).
 */
static int cg_make(struct cg *c, const char *dir, const char *path,
		   uint32_t mask)
{
	cg_sweep(dir);
	if (join(c->box, sizeof(c->box), "%s/polexec-%s", dir, C.tag) < 0 ||
	    join(c->rel, sizeof(c->rel), "%s/polexec-%s", path, C.tag) < 0 ||
	    cg_mkdir(c->box) < 0) {
		c->box[0] = '\0';
		return -1;
	}
	if (cg_set_limits(c, mask, c->version == 2) < 0 || cg_open_procs(c) < 0)
		return -2;
	c->mask = mask;
	C.ncg++;
	return 0;
}

/*
 * cgroup v2: a child of polexec's own cgroup with the wanted controllers
 * the hierarchy offers. When polexec's cgroup does not delegate them to
 * its children yet, polexec enables them there, which the kernel allows
 * only in a cgroup without processes: so polexec moves itself into a leaf
 * of its own first, and only when it is alone in its cgroup (as under
 * `systemd-run --user --scope -p Delegate=yes polexec ...`). Everything
 * is undone after the box ends. Returns the controllers it set up.
 */
static uint32_t cg2_setup(uint32_t want)
{
	struct cg *c = &C.cg[C.ncg];
	char path[PATH_MAX], ctl[256], sub[256], buf[64];
	uint32_t avail = 0, need = 0;
	int n;

	memset(c, 0, sizeof(*c));
	c->procs_fd = -1;
	n = cg_locate(NULL, c->parent, path);
	if (n == -2) {
		why_add("v2: not mounted");
		return 0;
	}
	if (n < 0 ||
	    read_text(c->parent, "cgroup.controllers", ctl, sizeof(ctl)) < 0) {
		why_add("v2: polexec's cgroup is not readable");
		return 0;
	}
	if ((want & CG_MEMORY) && has_token(ctl, "memory"))
		avail |= CG_MEMORY;
	if ((want & CG_PIDS) && has_token(ctl, "pids"))
		avail |= CG_PIDS;
	if (!(avail & (CG_MEMORY | CG_PIDS)) && (want & (CG_MEMORY | CG_PIDS)))
		why_add("v2: %s offers no %s controller", c->parent,
			(want & (CG_MEMORY | CG_PIDS)) == (CG_MEMORY | CG_PIDS)
			    ? "memory or pids"
			: want & CG_MEMORY ? "memory"
					   : "pids");
	avail |= want & CG_BPF; /* needs no controller */
	if (!avail)
		return 0;
	if (read_text(c->parent, "cgroup.subtree_control", sub, sizeof(sub)) <
	    0)
		sub[0] = '\0';
	if ((avail & CG_MEMORY) && !has_token(sub, "memory"))
		need |= CG_MEMORY;
	if ((avail & CG_PIDS) && !has_token(sub, "pids"))
		need |= CG_PIDS;
	c->version = 2;
	if (need) {
		if (path[0]) {
			char procs[64];

			char alone[2][64];

			/* alone: polexec and its keeper, in either order */
			snprintf(alone[0], sizeof(alone[0]), "%d\n%d\n",
				 (int)getpid(), (int)C.keeper);
			snprintf(alone[1], sizeof(alone[1]), "%d\n%d\n",
				 (int)C.keeper, (int)getpid());
			snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
			if (read_text(c->parent, "cgroup.procs", procs,
				      sizeof(procs)) < 0 ||
			    (strcmp(procs, buf) != 0 &&
			     strcmp(procs, alone[0]) != 0 &&
			     strcmp(procs, alone[1]) != 0)) {
				why_add("v2: polexec shares its cgroup %s with "
					"other processes, so it cannot "
					"delegate controllers to the box",
					c->parent);
				goto fail;
			}
			if (join(c->self, sizeof(c->self), "%s/polexec-%s.self",
				 c->parent, C.tag) < 0 ||
			    cg_mkdir(c->self) < 0) {
				why_add("v2: cannot make a leaf in %s: %s",
					c->parent, strerror(errno));
				c->self[0] = '\0';
				goto fail;
			}
			if (write_text(c->self, "cgroup.procs", buf) < 0 ||
			    (C.keeper > 0 &&
			     (snprintf(buf, sizeof(buf), "%d\n", (int)C.keeper),
			      write_text(c->self, "cgroup.procs", buf) < 0))) {
				why_add("v2: cannot move polexec into %s: %s",
					c->self, strerror(errno));
				rmdir(c->self);
				c->self[0] = '\0';
				goto fail;
			}
		}
		n = snprintf(c->enabled, sizeof(c->enabled), "%s%s",
			     need & CG_MEMORY ? "+memory " : "",
			     need & CG_PIDS ? "+pids" : "");
		if (n > 0 && c->enabled[n - 1] == ' ')
			c->enabled[n - 1] = '\0';
		if (write_text(c->parent, "cgroup.subtree_control",
			       c->enabled) < 0) {
			why_add("v2: cannot enable %s in %s: %s", c->enabled,
				c->parent, strerror(errno));
			c->enabled[0] = '\0';
			goto fail;
		}
	}
	n = cg_make(c, c->parent, path, avail);
	if (n == 0)
		return avail;
	if (n == -1)
		why_add("v2: cannot create a cgroup under %s: %s", c->parent,
			strerror(errno));
	else
		why_add("v2: cannot set up %s: %s", c->box, strerror(errno));
fail:
	cg_remove(c);
	return 0;
}

/* cgroup v1: a child of polexec's cgroup in the hierarchy of ctrl. */
static uint32_t cg1_setup(uint32_t bit)
{
	const char *ctrl = bit == CG_MEMORY ? "memory" : "pids";
	struct cg *c = &C.cg[C.ncg];
	char dir[PATH_MAX], path[PATH_MAX];
	int r;

	memset(c, 0, sizeof(*c));
	c->procs_fd = -1;
	if (cg_locate(ctrl, dir, path) < 0) {
		why_add("v1: no %s hierarchy", ctrl);
		return 0;
	}
	c->version = 1;
	r = cg_make(c, dir, path, bit);
	if (r == 0)
		return bit;
	if (r == -1)
		why_add("v1 %s: cannot create a cgroup: %s%s", ctrl,
			strerror(errno),
			errno == EACCES || errno == EPERM ? " (needs root)"
							  : "");
	else
		why_add("v1 %s: cannot set up %s: %s", ctrl, c->box,
			strerror(errno));
	cg_remove(c);
	return 0;
}

/* --- the keeper (see the top) ------------------------------------------ */

static void keeper_stop(void);

static char keeper_stack[64 << 10] __attribute__((aligned(16)));

/* Only a folder polexec named for itself: a path half written when it was
 * killed is never taken for another's. */
/*
 * The end of the box's cgroups' names: our pid, which another polexec in
 * another pid namespace may have too under the same parent cgroup, and a
 * random number, which it will not.
 */
static void make_tag(void)
{
	uint32_t r;

	if (syscall(SYS_getrandom, &r, sizeof(r), 0) != (long)sizeof(r))
		r = (uint32_t)monotonic_ns();
	snprintf(C.tag, sizeof(C.tag), "%d-%08x", (int)getpid(), (unsigned)r);
}

static int owned(const char *path, const char *suffix)
{
	const char *base = strrchr(path, '/');
	char want[64];

	snprintf(want, sizeof(want), "polexec-%s%s", C.tag, suffix);
	return base && !strcmp(base + 1, want);
}

/*
 * The keeper shares our errno too (CLONE_VM, the same thread pointer):
 * polexec waits until its set-up is done, and after that it makes no call
 * that could fail until polexec has gone or has closed the pipe.
 */
static int keeper_main(void *arg)
{
	static const int calm[] = {SIGINT,  SIGTERM, SIGHUP, SIGQUIT,
				   SIGUSR1, SIGUSR2, SIGPIPE};
	const int *fd = arg; /* the pipe's read end, the ready pipe's write */
	int rfd = fd[0], ready = fd[1], i, lo, hi;
	char byte = 'k';

	/* The terminal's signals are the box's: the keeper outlives them,
	 * and a SIGKILL of polexec's whole process group (a job
	 * supervisor's way to stop it): a session of its own.
	 * Of polexec's fds it keeps stderr and its ends of the pipes. */
	setsid();
	for (i = 0; i < (int)(sizeof(calm) / sizeof(calm[0])); i++)
		signal(calm[i], SIG_IGN);
	lo = rfd < ready ? rfd : ready;
	hi = rfd < ready ? ready : rfd;
	sys_close_range(0, 1, 0);
	if (lo > 3)
		sys_close_range(3, (unsigned)lo - 1, 0);
	if (hi > lo + 1)
		sys_close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
	sys_close_range((unsigned)hi + 1, ~0U, 0);
	if (write(ready, &byte, 1) != 1)
		_exit(1);
	close(ready);
	while (read(rfd, &byte, 1) < 0 && errno == EINTR)
		;
	/* polexec is gone, or has closed the pipe after its own cleanup:
	 * whatever slot it was still filling is handled too. */
	for (i = 0; i < 3; i++) {
		struct cg *c = &C.cg[i];

		if (!c->version)
			continue;
		if (c->box[0] && !owned(c->box, ""))
			c->box[0] = '\0';
		if (c->self[0] && !owned(c->self, ".self"))
			c->self[0] = '\0';
		cg_remove(c);
	}
	_exit(0);
}

/* Before the first mkdir: the keeper, or a refusal. */
static void keeper_start(void)
{
	static int fd[2];
	int p[2], r[2];
	char byte;
	ssize_t n;

	if (C.keeper > 0)
		return;
	C.owner = getpid();
	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(r, O_CLOEXEC) < 0)
		die_with_error("limits: cgroups: pipe");
	fd[0] = p[0];
	fd[1] = r[1];
	C.keeper = clone(keeper_main, keeper_stack + sizeof(keeper_stack),
			 CLONE_VM | SIGCHLD, fd);
	if (C.keeper < 0)
		die_with_error("limits: cgroups: clone the keeper");
	close(p[0]);
	close(r[1]);
	C.keeper_fd = p[1];
	while ((n = read(r[0], &byte, 1)) < 0 && errno == EINTR)
		;
	close(r[0]);
	if (n != 1) {
		keeper_stop();
		die("limits: cgroups: the keeper did not start");
	}
}

/* polexec's own cleanup is done: the keeper ends, and is reaped. */
static void keeper_stop(void)
{
	if (C.keeper <= 0 || getpid() == C.keeper)
		return;
	close(C.keeper_fd);
	C.keeper_fd = -1;
	while (waitpid(C.keeper, NULL, 0) < 0 && errno == EINTR)
		;
	C.keeper = 0;
}

const char *cgroup_tier(uint32_t bit)
{
	int i;

	for (i = 0; i < C.ncg; i++)
		if (C.cg[i].mask & bit)
			return C.cg[i].version == 2 ? "cgroup-v2" : "cgroup-v1";
	return NULL;
}

const char *cgroup_why(void)
{
	return C.why;
}

void cgroup_also(uint32_t bits)
{
	C.also |= bits;
}

int cgroup_open_v2(void)
{
	int i;

	for (i = 0; i < C.ncg; i++)
		if (C.cg[i].version == 2 && C.cg[i].box[0])
			return open(C.cg[i].box,
				    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return -1;
}

uint32_t cgroup_acquire(uint32_t want, uint64_t memory, uint64_t pids)
{
	uint32_t got = 0;

	want |= C.also;
	C.memory = memory;
	C.pids = pids;
	if (want) {
		if (!C.tag[0])
			make_tag();
		keeper_start();
		got = cg2_setup(want);
	}
	if ((want & ~got & CG_MEMORY) && cg1_setup(CG_MEMORY))
		got |= CG_MEMORY;
	if ((want & ~got & CG_PIDS) && cg1_setup(CG_PIDS))
		got |= CG_PIDS;
	if (!got)
		keeper_stop(); /* nothing to keep */
	return got;
}

/*
 * After it: the child is in each of the box's cgroups, so everything it
 * becomes and starts is counted there. "0" moves the writer itself (the
 * same in v1 and v2); the child is one thread (cg_open_procs).
 */
void cgroup_born_inside(int yes)
{
	C.born_v2 = yes;
}

void cgroup_join(void)
{
	int i;

	for (i = 0; i < C.ncg; i++)
		if (!(C.born_v2 && C.cg[i].version == 2) &&
		    write(C.cg[i].procs_fd, "0", 1) != 1)
			die_with_error("child: join the box's cgroup %s",
				       C.cg[i].box);
}

void cgroup_signal(int sig)
{
	int i;

	for (i = 0; i < C.ncg; i++)
		cg_signal(&C.cg[i], sig);
}

void cgroup_counts(struct cg_counts *n)
{
	int i;

	n->oom_kills = n->memory_max = n->memory_peak = -1;
	n->pids_max = n->pids_peak = -1;
	for (i = 0; i < C.ncg; i++) {
		const struct cg *c = &C.cg[i];
		int v2 = c->version == 2;

		if (c->mask & CG_MEMORY) {
			n->oom_kills = read_value(
			    c->box, v2 ? "memory.events" : "memory.oom_control",
			    "oom_kill");
			n->memory_max =
			    v2 ? read_value(c->box, "memory.events", "max")
			       : read_value(c->box, "memory.failcnt", NULL);
			n->memory_peak = read_value(
			    c->box,
			    v2 ? "memory.peak" : "memory.max_usage_in_bytes",
			    NULL);
		}
		if (c->mask & CG_PIDS) {
			n->pids_max = read_value(c->box, "pids.events", "max");
			n->pids_peak = read_value(c->box, "pids.peak", NULL);
		}
	}
}

void cgroup_remove(void)
{
	int i;

	for (i = 0; i < C.ncg; i++)
		cg_remove(&C.cg[i]);
	C.ncg = 0;
	keeper_stop();
}
