/* SPDX-License-Identifier: MIT */
/*
 * Internal to the limits (stub/limits*.c): the state one run builds up,
 * and the helpers those files share. The rest of polexec sees only the
 * limits_* functions of polexec.h.
 *
 *   limits.c         decode the LIMITS section, choose each limit's tier
 *   limits_cgfs.c    cgroup files: read, write, find the hierarchies
 *   limits_cgroup.c  the box's cgroups (v2, v1): make, signal, remove
 *   limits_rlimit.c  the queued rlimits; the child's side of the limits
 *   limits_run.c     the parent while the box runs: wall clock, hits,
 *                    cleanup
 *   limits_record.c  the run record's "limits" member
 *   limits_doctor.c  --doctor: the probes and the tier of each limit
 */
#ifndef POLC_LIMITS_INT_H
#define POLC_LIMITS_INT_H

#include "polexec.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
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

struct limits_state {
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
};

extern struct limits_state L; /* limits.c */
extern const char *const lim_name[POLBIN_LIM_COUNT];

static inline int sys_prlimit(int resource, const struct rlimit *new,
			      struct rlimit *old)
{
	return (int)syscall(__NR_prlimit64, 0, resource, new, old);
}

static inline int is_set(int i)
{
	return L.spec && L.spec->present && (L.spec->set >> i & 1);
}

/* --- limits_cgfs.c --- */

int join(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int write_text(const char *dir, const char *file, const char *text);
int read_text(const char *dir, const char *file, char *buf, size_t len);
long long read_value(const char *dir, const char *file, const char *key);
int has_token(const char *list, const char *word);
int cg_mountpoint(const char *ctrl, char *out, size_t len);
int cg_selfpath(const char *ctrl, char *out, size_t len);

/* --- limits_cgroup.c --- */

uint32_t cg2_setup(uint32_t want);
uint32_t cg1_setup(uint32_t bit);
uint32_t cg_acquire(uint32_t *want);
const char *cg_tier(uint32_t bit);
void cg_signal(const struct cg *c, int sig);
void cg_remove(struct cg *c);

/* --- limits_rlimit.c --- */

uint64_t add_rlimit(int resource, const char *name, uint64_t soft,
		    uint64_t hard);
void set_rlimit_tier(int i, int resource, const char *name,
		     const char *on_exceed);

#endif
