/* SPDX-License-Identifier: MIT */
/*
 * The die() family, after bubblewrap's: polexec has nothing to recover, only
 * to refuse. Every message is one line, "polexec: <phase>: <what>[: <errno>]".
 * In the parent, a refusal exits 125 and, when --record was given, leaves a
 * record saying why. The child shares the parent's memory until it execs
 * (CLONE_VM, see run.c), so die() always leaves through _exit: no stdio
 * buffer or atexit handler runs twice, and the child never writes the
 * parent's state. Only the process that set the hook runs it.
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*die_hook)(const char *msg);
static pid_t die_hook_pid;

/*
 * The one thing a dying child writes into the memory it shares with the
 * parent: why it died. The parent reads it only after clone() returned,
 * which with CLONE_VFORK is after the child exec'd or exited, so the two
 * never touch it at once. It lets the record say "refused" (the command
 * never ran) instead of reporting the child's 125 as the command's.
 * With a pid namespace the box's init and command run in memory of their
 * own; the place then moves to a shared page (init.c).
 */
static struct die_area own, *area = &own;

void die_share(struct die_area *shared)
{
	area = shared;
}

const char *die_child_failure(void)
{
	return area->failed ? area->msg : NULL;
}

void die_child_note(const char *msg, int said)
{
	if (!area->failed) {
		snprintf(area->msg, sizeof(area->msg), "%s", msg);
		area->failed = said ? 1 : 2;
	}
}

void die_set_hook(void (*hook)(const char *msg))
{
	die_hook = hook;
	die_hook_pid = getpid();
}

static _Noreturn void die_msg_print(const char *msg, int print)
{
	/* One write, so concurrent output never splits the line. */
	char line[1200];
	int n = snprintf(line, sizeof(line), "polexec: %s\n", msg);

	if (n < 0)
		_exit(POLEXEC_EXIT_REFUSED);
	if (!print)
		n = 0;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	/* Nothing useful to do if stderr is gone: the exit code still says. */
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0)
		errno = 0;
	if (die_hook_pid && getpid() != die_hook_pid && !area->failed) {
		snprintf(area->msg, sizeof(area->msg), "%s", msg);
		area->failed = 1;
	}
	if (die_hook && getpid() == die_hook_pid) {
		void (*hook)(const char *) = die_hook;

		die_hook = NULL; /* a failing hook must not recurse */
		hook(msg);
	}
	_exit(POLEXEC_EXIT_REFUSED);
}

static _Noreturn void die_msg(const char *msg)
{
	die_msg_print(msg, 1);
}

_Noreturn void die_child_said(void)
{
	die_msg_print(area->failed ? area->msg : "a child failed",
		      area->failed == 2);
}

_Noreturn void die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die_msg(msg);
}

_Noreturn void die_with_error(const char *fmt, ...)
{
	int saved = errno;
	char msg[1024];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(msg);
	snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(saved));
	die_msg(msg);
}

_Noreturn void die_oom(void)
{
	die_msg("out of memory");
}
