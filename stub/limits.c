/* SPDX-License-Identifier: MIT */
/*
 * Limits: the LIMITS section (artifact/sections.h) enforced at the
 * strongest tier this machine offers, and a record of the tier each limit
 * got and whether the box hit it.
 *
 *   limit   tiers, strongest first                 the box sees, past it
 *   memory  cgroup v2 memory.max, swap.max 0       OOM kill (the whole box
 *           cgroup v1 memory.limit_in_bytes,       on v2: memory.oom.group)
 *                     memsw.limit_in_bytes
 *           RLIMIT_AS, each process (degraded)     allocations fail ENOMEM
 *   pids    cgroup v2 / v1 pids.max                fork/clone fail EAGAIN
 *           RLIMIT_NPROC in the box's own user namespace, where it counts
 *                     the box's processes and threads only (not root)
 *           RLIMIT_NPROC (degraded: counts every process of the uid)
 *           none (degraded: root is exempt from RLIMIT_NPROC)
 *   nofile  RLIMIT_NOFILE, each process            open fails EMFILE
 *   cpu     RLIMIT_CPU, each process: soft = cpu,  SIGXCPU, then SIGKILL
 *           hard = cpu + grace (whole seconds, rounded up)
 *   fsize   RLIMIT_FSIZE, each process             SIGXFSZ (EFBIG if ignored)
 *   core    RLIMIT_CORE (0 unless the policy sets it: no core dumps)
 *   wall    the waiting parent                     SIGTERM, SIGKILL after grace
 *
 * A cgroup is the box's own: created under polexec's cgroup before the
 * clone, joined by the child before it does anything else, emptied (its
 * remaining processes killed) and removed after the command ends. An
 * rlimit is never raised: a policy value above the caller's hard limit
 * gets the caller's hard limit (the box gets less, never more).
 *
 * Under `limits require` a limit below its full tier (memory or pids
 * without a cgroup) is a refusal; under best_effort it is a warning on
 * stderr and "degraded(reason)" in the record.
 */
#include "polexec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif

enum { CG_MEMORY = 1, CG_PIDS = 2 };

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

struct lim {
	const char *tier; /* NULL: not enforced at all */
	const char *degraded;
	const char *on_exceed;
	uint64_t applied; /* what the kernel holds, when not the policy's */
	int hit;	  /* 1, 0, or -1 when polexec cannot observe it */
	long long events, peak;
};

struct rl {
	int resource;
	const char *name;
	struct rlimit value;
};

static struct {
	const struct limits_spec *spec;
	struct lim lim[POLBIN_LIM_COUNT];
	struct cg cg[3];
	int ncg;
	char cg_why[512]; /* why no cgroup, for the record */
	struct rl rl[8];
	int nrl;
	char reasons[300];
	int wall_hit, term_sent, kill_sent;
	uint64_t cpu_soft_ms;
} L;

static const char *const lim_name[POLBIN_LIM_COUNT] = {
    "memory", "pids", "nofile", "cpu", "wall", "fsize", "core", "grace",
};

static int sys_prlimit(int resource, const struct rlimit *new,
		       struct rlimit *old)
{
	return (int)syscall(__NR_prlimit64, 0, resource, new, old);
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)polbin_le32(p) | (uint64_t)polbin_le32(p + 4) << 32;
}

/* --- decoding --------------------------------------------------------- */

static uint64_t bound(int i)
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
 * After it: p->limits holds the section's flags, set and values, each
 * checked against artifact/sections.h, or present == 0 when the artifact
 * has no LIMITS section (then nothing is limited).
 */
void limits_decode(struct policy *p)
{
	const struct polbin_section *s = polbin_find(&p->pb, POLBIN_SEC_LIMITS);
	struct limits_spec *l = &p->limits;
	int i;

	memset(l, 0, sizeof(*l));
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
		uint64_t v = le64(s->data + 8 + 8 * i);

		if (!(l->set >> i & 1)) {
			if (v)
				die("artifact: limits: %s is not set but has "
				    "a value",
				    lim_name[i]);
			continue;
		}
		if (v == 0 && i != POLBIN_LIM_CORE)
			die("artifact: limits: %s is 0", lim_name[i]);
		if (v > bound(i))
			die("artifact: limits: %s %llu is above %llu",
			    lim_name[i], (unsigned long long)v,
			    (unsigned long long)bound(i));
		l->value[i] = v;
	}
	l->present = 1;
}

static int is_set(int i)
{
	return L.spec && L.spec->present && (L.spec->set >> i & 1);
}

/* --- small file helpers (parent only) ----------------------------------- */

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

/* "KEY N" in dir/file, or the file's only number when key is NULL. */
static long long read_value(const char *dir, const char *file, const char *key)
{
	char buf[1024], *p = buf;
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
	return strtoll(p, NULL, 10);
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

/*
 * The mount point of the cgroup2 hierarchy (ctrl NULL) or of the v1
 * hierarchy holding ctrl, from /proc/self/mountinfo. Only mounts of the
 * hierarchy's root, so /proc/self/cgroup's paths lead below it.
 */
static int cg_mountpoint(const char *ctrl, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = -1, lines = 0;

	if (!f)
		return -1;
	while (found < 0 && lines++ < 65536 && fgets(line, sizeof(line), f)) {
		char root[256], dir[PATH_MAX], type[32], src[64], opts[512];
		char *sep = strstr(line, " - ");

		if (!sep ||
		    sscanf(line, "%*s %*s %*s %255s %4095s", root, dir) != 2 ||
		    sscanf(sep + 3, "%31s %63s %511s", type, src, opts) != 3)
			continue;
		if (strcmp(root, "/") != 0 || strchr(dir, '\\'))
			continue;
		if (ctrl ? strcmp(type, "cgroup") == 0 && has_token(opts, ctrl)
			 : strcmp(type, "cgroup2") == 0)
			found = join(out, len, "%s", dir);
	}
	fclose(f);
	return found;
}

/*
 * Our cgroup's path in that hierarchy, from /proc/self/cgroup's lines
 * "ID:CONTROLLERS:PATH": v2 is "0::PATH", v1 lists ctrl among its
 * controllers.
 */
static int cg_selfpath(const char *ctrl, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		char *ctrls = strchr(line, ':'), *path;

		if (!ctrls || !(path = strchr(ctrls + 1, ':')))
			continue;
		*ctrls++ = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (ctrl ? has_token(ctrls, ctrl)
			 : strcmp(line, "0") == 0 && ctrls[0] == '\0')
			found = join(out, len, "%s", path);
	}
	fclose(f);
	return found;
}

static void why_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void why_add(const char *fmt, ...)
{
	size_t n = strlen(L.cg_why);
	va_list ap;

	if (n && n + 2 < sizeof(L.cg_why)) {
		strcat(L.cg_why, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(L.cg_why + n, sizeof(L.cg_why) - n, fmt, ap);
	va_end(ap);
}

/* --- cgroups ---------------------------------------------------------- */

/*
 * sig to one member of the box's cgroup, through a pidfd: the pid is read
 * from cgroup.procs, then pinned, then checked to be in the box's cgroup
 * (its /proc/PID/cgroup names c->rel), so a pid that ended and was reused
 * meanwhile by a process outside the box is never signalled.
 */
static void cg_kill_member(const struct cg *c, pid_t pid, int sig)
{
	char dir[32], buf[4096], want[PATH_MAX + 2];
	int fd = (int)syscall(__NR_pidfd_open, pid, 0);

	if (fd < 0)
		return; /* gone already, or a kernel before 5.3: not guessed */
	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	if (join(want, sizeof(want), ":%s\n", c->rel) == 0 &&
	    read_text(dir, "cgroup", buf, sizeof(buf)) == 0 &&
	    strstr(buf, want))
		syscall(__NR_pidfd_send_signal, fd, sig, NULL, 0);
	close(fd);
}

/* sig to every process in the box's cgroup (v2 SIGKILL: cgroup.kill). */
static void cg_signal(const struct cg *c, int sig)
{
	char buf[8192], *p;

	if (c->version == 2 && sig == SIGKILL &&
	    write_text(c->box, "cgroup.kill", "1") == 0)
		return;
	if (read_text(c->box, "cgroup.procs", buf, sizeof(buf)) < 0)
		return;
	for (p = buf; *p >= '0' && *p <= '9';) {
		long pid = strtol(p, &p, 10);

		if (pid > 0 && pid != getpid())
			cg_kill_member(c, (pid_t)pid, sig);
		while (*p == '\n')
			p++;
	}
}

/* Removes the box's cgroup, killing what is left in it first. */
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
			if (errno != EBUSY) {
				fprintf(stderr,
					"polexec: warning: limits: rmdir %s: "
					"%s\n",
					c->box, strerror(errno));
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
			fprintf(stderr,
				"polexec: warning: limits: could not restore "
				"%s/cgroup.subtree_control: %s\n",
				c->parent, strerror(errno));
		c->enabled[0] = '\0';
	}
	if (c->version == 2 && c->self[0]) {
		char pid[32];

		snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (write_text(c->parent, "cgroup.procs", pid) < 0 ||
		    rmdir(c->self) < 0)
			fprintf(stderr,
				"polexec: warning: limits: could not move "
				"back to %s: %s\n",
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

static int cg_open_procs(struct cg *c)
{
	char path[PATH_MAX];

	if (join(path, sizeof(path), "%s/cgroup.procs", c->box) < 0)
		return -1;
	c->procs_fd = open(path, O_WRONLY | O_CLOEXEC);
	return c->procs_fd < 0 ? -1 : 0;
}

static int cg_set_limits(struct cg *c, uint32_t mask, int v2)
{
	char v[32];

	if (mask & CG_MEMORY) {
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)L.spec->value[POLBIN_LIM_MEMORY]);
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
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)L.spec->value[POLBIN_LIM_PIDS]);
		if (write_text(c->box, "pids.max", v) < 0)
			return -1;
	}
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
	struct cg *c = &L.cg[L.ncg];
	char mnt[PATH_MAX], path[PATH_MAX], ctl[256], sub[256], buf[64];
	uint32_t avail = 0, need = 0;
	int n;

	memset(c, 0, sizeof(*c));
	c->procs_fd = -1;
	if (cg_mountpoint(NULL, mnt, sizeof(mnt)) < 0) {
		why_add("v2: not mounted");
		return 0;
	}
	if (cg_selfpath(NULL, path, sizeof(path)) < 0 ||
	    join(c->parent, sizeof(c->parent), "%s%s", mnt,
		 strcmp(path, "/") ? path : "") < 0 ||
	    read_text(c->parent, "cgroup.controllers", ctl, sizeof(ctl)) < 0) {
		why_add("v2: polexec's cgroup is not readable");
		return 0;
	}
	if ((want & CG_MEMORY) && has_token(ctl, "memory"))
		avail |= CG_MEMORY;
	if ((want & CG_PIDS) && has_token(ctl, "pids"))
		avail |= CG_PIDS;
	if (!avail) {
		why_add("v2: %s offers no %s controller", c->parent,
			want == (CG_MEMORY | CG_PIDS) ? "memory or pids"
			: want & CG_MEMORY	      ? "memory"
						      : "pids");
		return 0;
	}
	if (read_text(c->parent, "cgroup.subtree_control", sub, sizeof(sub)) <
	    0)
		sub[0] = '\0';
	if ((avail & CG_MEMORY) && !has_token(sub, "memory"))
		need |= CG_MEMORY;
	if ((avail & CG_PIDS) && !has_token(sub, "pids"))
		need |= CG_PIDS;
	c->version = 2;
	if (need) {
		if (strcmp(path, "/") != 0) {
			char procs[64];

			snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
			if (read_text(c->parent, "cgroup.procs", procs,
				      sizeof(procs)) < 0 ||
			    strcmp(procs, buf) != 0) {
				why_add("v2: polexec shares its cgroup %s with "
					"other processes, so it cannot "
					"delegate controllers to the box",
					c->parent);
				goto fail;
			}
			if (join(c->self, sizeof(c->self), "%s/polexec-%d.self",
				 c->parent, (int)getpid()) < 0 ||
			    cg_mkdir(c->self) < 0) {
				why_add("v2: cannot make a leaf in %s: %s",
					c->parent, strerror(errno));
				c->self[0] = '\0';
				goto fail;
			}
			if (write_text(c->self, "cgroup.procs", buf) < 0) {
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
	if (join(c->box, sizeof(c->box), "%s/polexec-%d", c->parent,
		 (int)getpid()) < 0 ||
	    join(c->rel, sizeof(c->rel), "%s/polexec-%d",
		 strcmp(path, "/") ? path : "", (int)getpid()) < 0 ||
	    cg_mkdir(c->box) < 0) {
		why_add("v2: cannot create a cgroup under %s: %s", c->parent,
			strerror(errno));
		c->box[0] = '\0';
		goto fail;
	}
	if (cg_set_limits(c, avail, 1) < 0 || cg_open_procs(c) < 0) {
		why_add("v2: cannot set up %s: %s", c->box, strerror(errno));
		goto fail;
	}
	c->mask = avail;
	L.ncg++;
	return avail;
fail:
	cg_remove(c);
	return 0;
}

/* cgroup v1: a child of polexec's cgroup in the hierarchy of ctrl. */
static uint32_t cg1_setup(uint32_t bit)
{
	const char *ctrl = bit == CG_MEMORY ? "memory" : "pids";
	struct cg *c = &L.cg[L.ncg];
	char mnt[PATH_MAX], path[PATH_MAX];

	memset(c, 0, sizeof(*c));
	c->procs_fd = -1;
	if (cg_mountpoint(ctrl, mnt, sizeof(mnt)) < 0 ||
	    cg_selfpath(ctrl, path, sizeof(path)) < 0) {
		why_add("v1: no %s hierarchy", ctrl);
		return 0;
	}
	c->version = 1;
	if (join(c->box, sizeof(c->box), "%s%s/polexec-%d", mnt,
		 strcmp(path, "/") ? path : "", (int)getpid()) < 0 ||
	    join(c->rel, sizeof(c->rel), "%s/polexec-%d",
		 strcmp(path, "/") ? path : "", (int)getpid()) < 0 ||
	    cg_mkdir(c->box) < 0) {
		why_add("v1 %s: cannot create a cgroup: %s%s", ctrl,
			strerror(errno),
			errno == EACCES || errno == EPERM ? " (needs root)"
							  : "");
		c->box[0] = '\0';
		goto fail;
	}
	if (cg_set_limits(c, bit, 0) < 0 || cg_open_procs(c) < 0) {
		why_add("v1 %s: cannot set up %s: %s", ctrl, c->box,
			strerror(errno));
		goto fail;
	}
	c->mask = bit;
	L.ncg++;
	return bit;
fail:
	cg_remove(c);
	return 0;
}

static const char *cg_tier(uint32_t bit)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		if (L.cg[i].mask & bit)
			return L.cg[i].version == 2 ? "cgroup-v2" : "cgroup-v1";
	return NULL;
}

/* --- rlimits ------------------------------------------------------------ */

/* Queues an rlimit for the child, never above the caller's hard limit. */
static uint64_t add_rlimit(int resource, const char *name, uint64_t soft,
			   uint64_t hard)
{
	struct rlimit cur;
	struct rl *r = &L.rl[L.nrl++];

	if (sys_prlimit(resource, NULL, &cur) < 0)
		die_with_error("limits: getrlimit(%s)", name);
	if (cur.rlim_max != RLIM_INFINITY && hard > cur.rlim_max)
		hard = cur.rlim_max;
	if (soft > hard)
		soft = hard;
	r->resource = resource;
	r->name = name;
	r->value.rlim_cur = soft;
	r->value.rlim_max = hard;
	return hard;
}

static void set_rlimit_tier(int i, int resource, const char *name,
			    const char *on_exceed)
{
	uint64_t v = L.spec->value[i];

	L.lim[i].tier = "rlimit";
	L.lim[i].on_exceed = on_exceed;
	L.lim[i].hit = -1;
	L.lim[i].applied = add_rlimit(resource, name, v, v);
}

/* --- the plan ------------------------------------------------------------ */

static void reason_add(const char *what)
{
	size_t n = strlen(L.reasons);

	snprintf(L.reasons + n, sizeof(L.reasons) - n, "%s%s", n ? "; " : "",
		 what);
}

static void plan_memory(uint32_t got)
{
	struct lim *m = &L.lim[POLBIN_LIM_MEMORY];

	if (got & CG_MEMORY) {
		m->tier = cg_tier(CG_MEMORY);
		m->on_exceed = "oom_kill";
		m->hit = 0;
		return;
	}
	set_rlimit_tier(POLBIN_LIM_MEMORY, RLIMIT_AS, "RLIMIT_AS", "enomem");
	m->degraded = "RLIMIT_AS: the address space of each process, not "
		      "the whole box (no cgroup)";
	reason_add("memory: RLIMIT_AS of each process, no cgroup");
}

static void plan_pids(uint32_t got)
{
	struct lim *m = &L.lim[POLBIN_LIM_PIDS];

	if (got & CG_PIDS) {
		m->tier = cg_tier(CG_PIDS);
		m->on_exceed = "eagain";
		m->hit = 0;
		return;
	}
	m->on_exceed = "eagain";
	m->hit = -1;
	if (getuid() == 0) {
		m->tier = NULL;
		m->degraded = "not enforced: no cgroup, and root is exempt "
			      "from RLIMIT_NPROC";
		reason_add("pids: not enforced, no cgroup and root is exempt "
			   "from RLIMIT_NPROC");
		return;
	}
	set_rlimit_tier(POLBIN_LIM_PIDS, RLIMIT_NPROC, "RLIMIT_NPROC",
			"eagain");
	if (boxns_userns_available()) {
		/* In its own user namespace, the box's count is its own. */
		boxns_want(BOXNS_USER);
		m->tier = "rlimit-userns";
		return;
	}
	m->degraded = "RLIMIT_NPROC counts every process of the caller's "
		      "uid, not only the box's (no cgroup, no user namespace)";
	reason_add("pids: RLIMIT_NPROC counts all of the uid's processes, no "
		   "cgroup or user namespace");
}

static void plan_rest(void)
{
	uint64_t grace = L.spec->value[POLBIN_LIM_GRACE];

	if (is_set(POLBIN_LIM_NOFILE))
		set_rlimit_tier(POLBIN_LIM_NOFILE, RLIMIT_NOFILE,
				"RLIMIT_NOFILE", "emfile");
	if (is_set(POLBIN_LIM_CPU)) {
		/* Whole seconds, rounded up: SIGXCPU at cpu, SIGKILL one
		 * grace later. */
		uint64_t soft = (L.spec->value[POLBIN_LIM_CPU] + 999) / 1000;
		uint64_t hard = soft + (grace + 999) / 1000;
		struct lim *m = &L.lim[POLBIN_LIM_CPU];

		m->tier = "rlimit";
		m->on_exceed = "sigxcpu_then_sigkill";
		m->hit = 0;
		add_rlimit(RLIMIT_CPU, "RLIMIT_CPU", soft, hard);
		m->applied = L.rl[L.nrl - 1].value.rlim_cur * 1000;
		L.cpu_soft_ms = m->applied;
	}
	if (is_set(POLBIN_LIM_FSIZE))
		set_rlimit_tier(POLBIN_LIM_FSIZE, RLIMIT_FSIZE, "RLIMIT_FSIZE",
				"sigxfsz_or_efbig");
	if (is_set(POLBIN_LIM_CORE))
		set_rlimit_tier(POLBIN_LIM_CORE, RLIMIT_CORE, "RLIMIT_CORE",
				"core_dump_cut");
	if (is_set(POLBIN_LIM_WALL)) {
		L.lim[POLBIN_LIM_WALL].tier = "parent";
		L.lim[POLBIN_LIM_WALL].on_exceed = "sigterm_then_sigkill";
		L.lim[POLBIN_LIM_WALL].hit = 0;
	}
	if (is_set(POLBIN_LIM_GRACE)) {
		L.lim[POLBIN_LIM_GRACE].tier = "parent";
		L.lim[POLBIN_LIM_GRACE].hit = -1;
	}
}

void limits_plan(const struct policy *p, struct layer_state *layer)
{
	uint32_t want = 0, got = 0;
	int i;

	L.spec = &p->limits;
	layer->tier = TIER_OFF;
	if (!p->limits.present)
		return;
	if (is_set(POLBIN_LIM_MEMORY))
		want |= CG_MEMORY;
	if (is_set(POLBIN_LIM_PIDS))
		want |= CG_PIDS;
	if (want)
		got = cg2_setup(want);
	if ((want & ~got & CG_MEMORY) && cg1_setup(CG_MEMORY))
		got |= CG_MEMORY;
	if ((want & ~got & CG_PIDS) && cg1_setup(CG_PIDS))
		got |= CG_PIDS;
	if (want & CG_MEMORY)
		plan_memory(got);
	if (want & CG_PIDS)
		plan_pids(got);
	plan_rest();
	if (!(p->limits.flags & POLBIN_LIMITS_F_STATED))
		return; /* only the defaults (core 0): nothing to report */
	if (!L.reasons[0]) {
		layer->tier = TIER_ENFORCED;
		return;
	}
	if (p->limits.flags & POLBIN_LIMITS_F_REQUIRE)
		die("limits: the policy says `limits require`, and here %s "
		    "(cgroups: %s); run as root (cgroup v1) or with a "
		    "delegated cgroup v2 (systemd-run --user --scope -p "
		    "Delegate=yes polexec ...), see polexec --doctor",
		    L.reasons, L.cg_why);
	layer->tier = TIER_DEGRADED;
	layer->reason = L.reasons;
	for (i = 0; i < POLBIN_LIM_COUNT; i++)
		if (L.lim[i].degraded)
			fprintf(stderr,
				"polexec: warning: limits: %s degraded: "
				"%s\n",
				lim_name[i], L.lim[i].degraded);
}

/* --- the child ------------------------------------------------------------ */

/*
 * After it: the child is in each of the box's cgroups, so everything it
 * becomes and starts is counted there. "0" moves the writer itself (the
 * same in v1 and v2).
 */
void limits_child_join(void)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		if (write(L.cg[i].procs_fd, "0", 1) != 1)
			die_with_error("child: join the box's cgroup %s",
				       L.cg[i].box);
}

/*
 * After it: the rlimits hold. Late, once the child has done everything
 * that opens files or writes them (secrets), and after it entered its
 * user namespace, where RLIMIT_NPROC counts only the box.
 */
void limits_child_apply(void)
{
	int i;

	for (i = 0; i < L.nrl; i++)
		if (sys_prlimit(L.rl[i].resource, &L.rl[i].value, NULL) < 0)
			die_with_error("child: setrlimit(%s)", L.rl[i].name);
}

/* --- the parent while the box runs -----------------------------------------
 */

static void signal_box(pid_t pid, int sig)
{
	int i;

	kill(-pid, sig); /* the box's process group: it leads a session */
	kill(pid, sig);
	for (i = 0; i < L.ncg; i++)
		cg_signal(&L.cg[i], sig);
}

/*
 * Returns once the box's first process has ended (not reaped). With a wall
 * limit: SIGTERM to the box when it runs out, SIGKILL one grace later.
 */
void limits_wait(pid_t pid)
{
	uint64_t deadline, now, ms;
	struct pollfd pfd;
	int pidfd;

	if (!is_set(POLBIN_LIM_WALL))
		return;
	ms = L.spec->value[POLBIN_LIM_WALL];
	deadline = monotonic_ns() + ms * 1000000u;
	pidfd = (int)syscall(__NR_pidfd_open, pid, 0);
	for (;;) {
		siginfo_t info;
		int timeout = -1, r;

		now = monotonic_ns();
		if (!L.kill_sent && now >= deadline) {
			if (!L.term_sent) {
				L.wall_hit = 1;
				L.term_sent = 1;
				signal_box(pid, SIGTERM);
				deadline =
				    now +
				    L.spec->value[POLBIN_LIM_GRACE] * 1000000u;
			} else {
				L.kill_sent = 1;
				signal_box(pid, SIGKILL);
			}
			continue;
		}
		if (!L.kill_sent) {
			uint64_t left = (deadline - now + 999999) / 1000000;

			timeout = left > 60000 ? 60000 : (int)left;
		}
		if (pidfd >= 0) {
			pfd.fd = pidfd;
			pfd.events = POLLIN;
			r = poll(&pfd, 1, timeout);
			if (r > 0)
				break;
			if (r < 0 && errno != EINTR)
				die_with_error("wait: poll(pidfd)");
			continue;
		}
		/* No pidfd (before Linux 5.3): look every 10 ms. */
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid == pid)
			break;
		{
			struct timespec nap = {0, 10 * 1000 * 1000};

			nanosleep(&nap, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* Reads what each cgroup saw, then empties and removes it. */
static void cg_collect(void)
{
	int i;

	for (i = 0; i < L.ncg; i++) {
		struct cg *c = &L.cg[i];
		int v2 = c->version == 2;

		if (c->mask & CG_MEMORY) {
			struct lim *m = &L.lim[POLBIN_LIM_MEMORY];
			long long oom =
			    v2 ? read_value(c->box, "memory.events", "oom_kill")
			       : read_value(c->box, "memory.oom_control",
					    "oom_kill");
			long long max =
			    v2 ? read_value(c->box, "memory.events", "max")
			       : read_value(c->box, "memory.failcnt", NULL);

			m->events = oom;
			m->peak = read_value(c->box,
					     v2 ? "memory.peak"
						: "memory.max_usage_in_bytes",
					     NULL);
			m->hit = oom > 0 || max > 0 ? 1 : oom < 0 ? -1 : 0;
		}
		if (c->mask & CG_PIDS) {
			struct lim *m = &L.lim[POLBIN_LIM_PIDS];
			long long max =
			    read_value(c->box, "pids.events", "max");

			m->events = max;
			m->peak = read_value(c->box, "pids.peak", NULL);
			m->hit = max > 0 ? 1 : max < 0 ? -1 : 0;
		}
		cg_remove(c);
	}
	L.ncg = 0;
}

/*
 * After it: each limit says whether the box hit it, as far as polexec can
 * see, and the box's cgroups are gone (with whatever still ran in them).
 */
void limits_finish(int status, const struct rusage *ru)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;

	if (!L.spec || !L.spec->present)
		return;
	cg_collect();
	L.lim[POLBIN_LIM_WALL].hit = L.wall_hit;
	if (is_set(POLBIN_LIM_CPU)) {
		uint64_t used =
		    (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) *
			1000 +
		    (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) /
			1000;

		L.lim[POLBIN_LIM_CPU].hit =
		    sig == SIGXCPU || (sig == SIGKILL && !L.wall_hit &&
				       L.lim[POLBIN_LIM_MEMORY].hit != 1 &&
				       used >= L.cpu_soft_ms);
	}
	if (is_set(POLBIN_LIM_FSIZE) && sig == SIGXFSZ)
		L.lim[POLBIN_LIM_FSIZE].hit = 1;
}

/* The die hook: a refusal after the cgroups were made leaves none behind. */
void limits_abort(void)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		cg_remove(&L.cg[i]);
	L.ncg = 0;
}

/* --- the record ---------------------------------------------------------- */

struct jbuf {
	char *s;
	size_t len, used;
	int overflow;
};

static void jput(struct jbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void jput(struct jbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->len - b->used)
		b->overflow = 1;
	else
		b->used += (size_t)n;
}

/*
 * `"limits":{"mode":..., NAME:{"max":N, "tier":..., "status":...,
 * "on_exceed":..., "hit":true|false|null, ...}, ...},` followed by a
 * newline; nothing for a refused run or an artifact without limits.
 * Strings are fixed words of this file, and a reason that may carry a
 * path from the host is not included.
 */
size_t limits_record(char *buf, size_t len, int refused)
{
	struct jbuf b = {buf, len, 0, 0};
	int i;

	if (refused || !L.spec || !L.spec->present || len == 0)
		return 0;
	jput(&b, "\"limits\":{\"mode\":\"%s\"",
	     !(L.spec->flags & POLBIN_LIMITS_F_STATED) ? "default"
	     : L.spec->flags & POLBIN_LIMITS_F_REQUIRE ? "require"
						       : "best_effort");
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const struct lim *m = &L.lim[i];

		if (!is_set(i))
			continue;
		jput(&b, ",\n  \"%s\":{\"max\":%llu,\"tier\":\"%s\"",
		     lim_name[i], (unsigned long long)L.spec->value[i],
		     m->tier ? m->tier : "none");
		if (m->applied && m->applied != L.spec->value[i])
			jput(&b, ",\"applied\":%llu",
			     (unsigned long long)m->applied);
		if (m->degraded)
			jput(&b, ",\"status\":\"degraded(%s)\"", m->degraded);
		else
			jput(&b, ",\"status\":\"enforced\"");
		if (m->on_exceed)
			jput(&b, ",\"on_exceed\":\"%s\"", m->on_exceed);
		if (i != POLBIN_LIM_GRACE)
			jput(&b, ",\"hit\":%s",
			     m->hit > 0	   ? "true"
			     : m->hit == 0 ? "false"
					   : "null");
		if ((i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) &&
		    m->tier && !strncmp(m->tier, "cgroup", 6)) {
			if (m->events >= 0)
				jput(&b, ",\"%s\":%lld",
				     i == POLBIN_LIM_MEMORY ? "oom_kills"
							    : "refused_forks",
				     m->events);
			if (m->peak >= 0)
				jput(&b, ",\"peak\":%lld", m->peak);
		}
		jput(&b, "}");
	}
	jput(&b, "},\n");
	if (b.overflow) {
		buf[0] = '\0';
		return 0;
	}
	return b.used;
}

/* --- --doctor ------------------------------------------------------------ */

static const char hint_v2[] =
    "run polexec in a delegated cgroup v2 of its own: systemd-run --user "
    "--scope -p Delegate=yes polexec ... (with a user manager: loginctl "
    "enable-linger USER)";

int limits_probe_cgroup_v2(char *d, size_t len)
{
	char mnt[PATH_MAX], path[PATH_MAX], dir[PATH_MAX], ctl[256];
	char sub[PATH_MAX + 32];
	int mem, pids, writable;

	if (cg_mountpoint(NULL, mnt, sizeof(mnt)) < 0) {
		snprintf(d, len, "not mounted; to use it, %s", hint_v2);
		return 1;
	}
	if (cg_selfpath(NULL, path, sizeof(path)) < 0 ||
	    join(dir, sizeof(dir), "%s%s", mnt, strcmp(path, "/") ? path : "") <
		0 ||
	    read_text(dir, "cgroup.controllers", ctl, sizeof(ctl)) < 0) {
		snprintf(d, len, "mounted at %s, polexec's cgroup unreadable",
			 mnt);
		return 1;
	}
	ctl[strcspn(ctl, "\n")] = '\0';
	mem = has_token(ctl, "memory");
	pids = has_token(ctl, "pids");
	snprintf(sub, sizeof(sub), "%s/cgroup.subtree_control", dir);
	writable = access(dir, W_OK) == 0 && access(sub, W_OK) == 0;
	if (mem && pids && writable) {
		snprintf(d, len, "%s: memory and pids delegated to polexec",
			 dir);
		return 0;
	}
	snprintf(d, len, "%s offers [%s]%s; %s%s", dir, ctl,
		 writable ? "" : ", not writable by this user",
		 !mem || !pids
		     ? "memory and pids are not v2 controllers here (a hybrid "
		       "host keeps them in v1; boot with "
		       "systemd.unified_cgroup_hierarchy=1 for v2); then "
		     : "",
		 hint_v2);
	return 1;
}

int limits_probe_cgroup_v1(char *d, size_t len)
{
	static const char *const ctrls[] = {"memory", "pids"};
	char mnt[PATH_MAX], path[PATH_MAX], dir[PATH_MAX];
	size_t used = 0, i;
	int ok = 0;

	for (i = 0; i < 2; i++) {
		const char *state;

		if (cg_mountpoint(ctrls[i], mnt, sizeof(mnt)) < 0 ||
		    cg_selfpath(ctrls[i], path, sizeof(path)) < 0)
			state = "not mounted";
		else if (join(dir, sizeof(dir), "%s%s", mnt,
			      strcmp(path, "/") ? path : "") < 0 ||
			 access(dir, W_OK) < 0)
			state = "mounted, not writable (needs root)";
		else {
			state = "usable";
			ok++;
		}
		if (used < len)
			used +=
			    (size_t)snprintf(d + used, len - used, "%s%s %s",
					     i ? "; " : "", ctrls[i], state);
	}
	return ok == 2 ? 0 : 1;
}

int limits_probe_rlimits(char *d, size_t len)
{
	struct rlimit nofile, nproc;

	if (sys_prlimit(RLIMIT_NOFILE, NULL, &nofile) < 0 ||
	    sys_prlimit(RLIMIT_NPROC, NULL, &nproc) < 0) {
		snprintf(d, len, "getrlimit: %s", strerror(errno));
		return 1;
	}
	snprintf(d, len,
		 "AS NPROC NOFILE CPU FSIZE CORE (hard nofile %llu); "
		 "RLIMIT_NPROC %s",
		 (unsigned long long)nofile.rlim_max,
		 getuid() == 0 ? "does not bind root"
		 : boxns_userns_available()
		     ? "counts the box alone in its own user namespace"
		     : "counts every process of this uid (no user namespace)");
	return 0;
}

static void doctor_line(const char *what, const char *status,
			const char *detail)
{
	printf("  %-16s %-8s %s\n", what, status, detail);
}

int limits_doctor(const struct policy *p)
{
	int require = !!(p->limits.flags & POLBIN_LIMITS_F_REQUIRE),
	    missing = 0;
	uint32_t want = 0, got = 0;
	char line[2048];
	int i;

	if (!p->limits.present || !(p->limits.flags & POLBIN_LIMITS_F_STATED)) {
		doctor_line("limits", "found", "none stated (core dumps off)");
		return 0;
	}
	L.spec = &p->limits;
	if (is_set(POLBIN_LIM_MEMORY))
		want |= CG_MEMORY;
	if (is_set(POLBIN_LIM_PIDS))
		want |= CG_PIDS;
	if (want)
		got = cg2_setup(want);
	if ((want & ~got & CG_MEMORY) && cg1_setup(CG_MEMORY))
		got |= CG_MEMORY;
	if ((want & ~got & CG_PIDS) && cg1_setup(CG_PIDS))
		got |= CG_PIDS;
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		const char *status = "found", *tier;
		char what[32];

		if (!is_set(i) || i == POLBIN_LIM_GRACE ||
		    (i == POLBIN_LIM_CORE && !p->limits.value[i]))
			continue;
		snprintf(what, sizeof(what), "limits %s", lim_name[i]);
		if (i == POLBIN_LIM_MEMORY || i == POLBIN_LIM_PIDS) {
			uint32_t bit =
			    i == POLBIN_LIM_MEMORY ? CG_MEMORY : CG_PIDS;

			tier = cg_tier(bit);
			if (!tier && i == POLBIN_LIM_PIDS && getuid() != 0 &&
			    boxns_userns_available())
				tier = "rlimit-userns (the box's own count)";
			if (!tier) {
				status = require ? "MISSING" : "degraded";
				missing += require;
				snprintf(line, sizeof(line),
					 "only %s here (%s); %s. To get a "
					 "cgroup: run as root where cgroup v1 "
					 "is mounted, or %s",
					 i == POLBIN_LIM_MEMORY
					     ? "RLIMIT_AS of each process"
					 : getuid() == 0
					     ? "not enforced, root is exempt "
					       "from RLIMIT_NPROC"
					     : "RLIMIT_NPROC of the whole uid",
					 L.cg_why,
					 require ? "`limits require` refuses "
						   "that"
						 : "best_effort runs with a "
						   "warning",
					 hint_v2);
				doctor_line(what, status, line);
				continue;
			}
		} else {
			tier = i == POLBIN_LIM_WALL ? "parent (SIGTERM, then "
						      "SIGKILL after grace)"
						    : "rlimit";
		}
		doctor_line(what, status, tier);
	}
	limits_abort();
	return missing;
}
