/* SPDX-License-Identifier: MIT */
/* pasta, polexec's child, joins the box's namespace pair (pasta.c). */
#ifndef POLC_STUB_PASTA_H
#define POLC_STUB_PASTA_H

#include <sys/types.h>

#include "artifact.h"

/* Starts pasta at path on the pair and returns once it is ready. */
pid_t pasta_start(const char *path, const struct net_spec *s, int userfd,
		  int netfd);
void pasta_stop(pid_t pid);
/* In the pair's network namespace, before pasta: the box acknowledges
 * loopback traffic at once (pasta's splice writes with Nagle on). */
void pasta_quickack(void);

#endif
