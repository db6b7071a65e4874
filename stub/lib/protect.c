/* SPDX-License-Identifier: MIT */
/*
 * After protect_self(): polexec is not dumpable, so a box running as the
 * same user can neither ptrace it nor read its /proc/PID/environ, mem or
 * fds. execve gives the box its own, normal dumpable state.
 *
 * A child made with CLONE_VM shares this state until it execs or exits,
 * and the box child makes it dumpable for a moment to write its own
 * uid_map (boxns.c); protect_after_clone() makes sure it is off again.
 */
#include "protect.h"
#include "util.h"

#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

void protect_self(void)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		die_with_error("self: prctl(PR_SET_DUMPABLE, 0)");
}

void protect_after_clone(void)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		warning("self: prctl(PR_SET_DUMPABLE, 0) failed");
}
