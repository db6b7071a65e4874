/* SPDX-License-Identifier: MIT */
/*
 * clone3 with CLONE_INTO_CGROUP, the child started on a stack of its own
 * (clone_into.c).
 */
#ifndef POLC_STUB_LIB_CLONE_INTO_H
#define POLC_STUB_LIB_CLONE_INTO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * As clone(fn, stack + size, flags | SIGCHLD, arg), the child born in the
 * cgroup v2 open at cgfd. -1 and errno when it was not made: ENOSYS where
 * clone3 is not there (before Linux 5.7, a seccomp profile that refuses
 * it, an architecture this file has no entry for), or the kernel's reason.
 */
pid_t clone_into_cgroup(int (*fn)(void *), void *stack, size_t size,
			unsigned long flags, int cgfd, void *arg);

#endif
