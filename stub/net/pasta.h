/* SPDX-License-Identifier: MIT */
/* pasta, polexec's child, joins the box's namespace pair (pasta.c). */
#ifndef POLC_STUB_PASTA_H
#define POLC_STUB_PASTA_H

#include <sys/types.h>

/* Starts pasta at path on the pair and returns once it is ready. */
pid_t pasta_start(const char *path, int userfd, int netfd);
void pasta_stop(pid_t pid);

#endif
