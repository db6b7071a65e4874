/* SPDX-License-Identifier: MIT */
/*
 * The box's own cgroups, v2 or v1 (limits.c decides which it wants): made
 * under polexec's cgroup before the clone, signalled through pidfds, and
 * after the box ends emptied, removed, and what polexec changed in its own
 * cgroup put back.
 */
#include "limits_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
void cg_signal(const struct cg *c, int sig)
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
void cg_remove(struct cg *c)
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
uint32_t cg2_setup(uint32_t want)
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
uint32_t cg1_setup(uint32_t bit)
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

const char *cg_tier(uint32_t bit)
{
	int i;

	for (i = 0; i < L.ncg; i++)
		if (L.cg[i].mask & bit)
			return L.cg[i].version == 2 ? "cgroup-v2" : "cgroup-v1";
	return NULL;
}

/*
 * The box's cgroups for the memory and pids limits L.spec sets: a v2
 * cgroup where one is delegated, else v1 per controller. *want gets the
 * controllers asked for; the result, those the box has.
 */
uint32_t cg_acquire(uint32_t *want)
{
	uint32_t got = 0;

	*want = 0;
	if (is_set(POLBIN_LIM_MEMORY))
		*want |= CG_MEMORY;
	if (is_set(POLBIN_LIM_PIDS))
		*want |= CG_PIDS;
	if (*want)
		got = cg2_setup(*want);
	if ((*want & ~got & CG_MEMORY) && cg1_setup(CG_MEMORY))
		got |= CG_MEMORY;
	if ((*want & ~got & CG_PIDS) && cg1_setup(CG_PIDS))
		got |= CG_PIDS;
	return got;
}
