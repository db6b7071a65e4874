/* SPDX-License-Identifier: MIT */
/* What the caller asked for (args.c). */
#ifndef POLC_STUB_ARGS_H
#define POLC_STUB_ARGS_H

#include "lib/vars.h"

struct args {
	int doctor; /* --doctor [ARTIFACT]: artifact may be NULL */
	const char *artifact;
	const char *record;
	int require_enforced;
	int learn; /* --learn: profile a trusted workload (observe.h) */
	const char *started_by; /* --started-by NAME, for the record */
	int explain;	 /* --explain: one stderr line per distinct denial;
			  * 2: --explain=end, after the command ended */
	int net_backend; /* --net-backend: NET_BACKEND_* (net/net.h) */
	struct vars vars;
	char **argv; /* the command, NULL-terminated */
};

/*
 * After it: a is filled, or the process has exited (--help, --version,
 * or 125 on a usage error). Options come before ARTIFACT; `--` and a
 * command must follow it. --doctor ends the parsing.
 */
void parse_args(char **argv, struct args *a);

#endif
