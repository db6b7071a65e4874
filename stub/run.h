/* SPDX-License-Identifier: MIT */
/* The command run: clone, signals forwarded, the wait (run.c). */
#ifndef POLC_STUB_RUN_H
#define POLC_STUB_RUN_H

#include "artifact.h"
#include "landlock/landlock.h"

/* After it: no signal is ignored (the caller's SIG_IGN undone). */
void signals_default(void);

/* After it: the command ran and ended; returns waitpid()'s status. */
int run(const struct policy *p, const struct ll_run *ll, char **envp,
	char **argv);

#endif
