/* SPDX-License-Identifier: MIT */
/*
 * The box's own cgroups (cgroup.c), for the memory and pids limits: made
 * under polexec's cgroup before the clone, joined by the child first,
 * read, emptied and removed after the box ends (after a refusal too).
 */
#ifndef POLC_STUB_CGROUP_H
#define POLC_STUB_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/* CG_BPF: a cgroup v2 of the box's own, with or without controllers, for
 * the egress programs (net/ebpf.c): asked for by the net layer. */
enum { CG_MEMORY = 1, CG_PIDS = 2, CG_BPF = 4 };

/* What the box's cgroups saw; -1 where polexec cannot tell. */
struct cg_counts {
	long long oom_kills, memory_max, memory_peak;
	long long pids_max, pids_peak;
};

/*
 * The box's cgroups for the controllers in want, limited to memory bytes
 * and pids processes: a v2 cgroup where one is delegated, else v1 per
 * controller. Returns those the box has; cgroup_why() says why not.
 */
uint32_t cgroup_acquire(uint32_t want, uint64_t memory, uint64_t pids);
/* Before cgroup_acquire: bits it makes too, whatever the limits want. */
void cgroup_also(uint32_t bits);
/* The box's cgroup v2 folder, opened (O_DIRECTORY, close-on-exec), or -1
 * when it has none. */
int cgroup_open_v2(void);
/* "cgroup-v2", "cgroup-v1", or NULL: the cgroup that holds bit. */
const char *cgroup_tier(uint32_t bit);
const char *cgroup_why(void);
/* Parent, around the clone: 1 when the child is cloned into the v2 cgroup
 * (CLONE_INTO_CGROUP, with the fd cgroup_open_v2 gave), which
 * cgroup_join then leaves alone; 0 when that clone failed. */
void cgroup_born_inside(int yes);
/* Child, first: joins each of the box's cgroups (but a v2 one it was
 * born in). */
void cgroup_join(void);
/* sig to every process in the box's cgroups. */
void cgroup_signal(int sig);
/* After the box ended: what the cgroups saw (each -1 when not set). */
void cgroup_counts(struct cg_counts *c);
/* Removes the box's cgroups, killing what is left in them first. */
void cgroup_remove(void);

#endif
