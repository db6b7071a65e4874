/* SPDX-License-Identifier: MIT */
/*
 * The box's pid namespace and its init (init.c): pid 1 is polexec's, the
 * command is its child.
 */
#ifndef POLC_STUB_INIT_H
#define POLC_STUB_INIT_H

#include <sys/types.h>

#include "lib/policy.h"
#include "landlock/landlock.h"
#include "lib/util.h"

/* Parent, planning the view: the page the box's processes report in. */
void init_plan(void);
/* polexec's argv and envp as main() got them: pid 1 wipes its copy of
 * their strings once the command has exec'd, so the box's
 * /proc/1/cmdline and environ show "polexec" and nothing of the host. */
void init_args(char **argv, char **envp);
/*
 * Child, right after entering its namespaces: with a pid namespace, makes
 * its pid 1 (a child of polexec's, CLONE_PARENT) and leaves; pid 1
 * returns, with vm.memfd_noexec set where it can be. Without one, returns.
 */
void init_enter(pid_t parent);
/*
 * Pid 1, the view built: the command's process runs box(arg) and never
 * returns; pid 1 narrows itself like the box and stays to reap and pass
 * on signals until the command ends. Without a pid namespace, box(arg).
 */
_Noreturn void init_run(int (*box)(void *), void *arg, const struct ll_run *ll);
/* Parent, after clone() returned: the pid of the box to wait for. */
pid_t init_box_pid(pid_t child);
/* Parent, after the wait: the command's own status. */
int init_box_status(int status);
/* The command's process, before the policy's filter: NOEXEC, where
 * memfds could still be executed. */
void init_noexec(const struct policy *p);
/* The record's fields of the pid namespace and memfd_noexec. */
void init_record(struct text *t);

#endif
