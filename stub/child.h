/* SPDX-License-Identifier: MIT */
/* The child, between clone() and execve() (child.c). */
#ifndef POLC_STUB_CHILD_H
#define POLC_STUB_CHILD_H

#include <sys/types.h>

#include "artifact.h"
#include "landlock/landlock.h"

/* Runs in the child until execve; never returns. parent: polexec's pid. */
_Noreturn void child_exec(const struct policy *p, const struct ll_run *ll,
			  char *const envp[], char *const argv[], pid_t parent);

#endif
