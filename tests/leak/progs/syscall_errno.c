/* SPDX-License-Identifier: MIT */
/*
 * syscall_errno NAME [DIR]: makes one syscall directly (no libc wrapper)
 * and prints "NAME: ok" or "NAME: errno=N (TEXT)", then exits 0. A seccomp
 * kill rule ends it before it prints anything.
 *
 * The calls are harmless even when allowed: mount targets a path under the
 * test's own DIR that does not exist (the kernel answers ENOENT), unshare
 * makes a user namespace for this process only, ptrace(TRACEME) is never
 * followed by an exec, a clone's child exits at once.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "";
	char path[4096];
	struct utsname u;
	long r;

	if (strcmp(name, "getpid") == 0) {
		r = syscall(SYS_getpid);
	} else if (strcmp(name, "getppid") == 0) {
		r = syscall(SYS_getppid);
	} else if (strcmp(name, "uname") == 0) {
		r = syscall(SYS_uname, &u);
	} else if (strcmp(name, "chdir") == 0) {
		r = syscall(SYS_chdir, "/");
	} else if (strcmp(name, "mount") == 0 && argc > 2) {
		snprintf(path, sizeof(path), "%s/no-such-mountpoint", argv[2]);
		r = syscall(SYS_mount, "none", path, "tmpfs", 0UL, NULL);
	} else if (strcmp(name, "unshare") == 0) {
		r = syscall(SYS_unshare, (long)CLONE_NEWUSER);
	} else if (strcmp(name, "clone-newuser") == 0 ||
		   strcmp(name, "clone-plain") == 0) {
		/* The child of a successful clone exits at once. */
		long flags = SIGCHLD | (name[6] == 'n' ? CLONE_NEWUSER : 0);

		r = syscall(SYS_clone, flags, 0L, 0L, 0L, 0L);
		if (r == 0)
			_exit(0);
		if (r > 0 && waitpid((pid_t)r, NULL, 0) < 0)
			r = -1;
	} else if (strcmp(name, "ptrace") == 0) {
		r = syscall(SYS_ptrace, (long)PTRACE_TRACEME, 0L, 0L, 0L);
	} else {
		fprintf(stderr, "syscall_errno: unknown call %s\n", name);
		return 2;
	}
	if (r < 0)
		printf("%s: errno=%d (%s)\n", name, errno, strerror(errno));
	else
		printf("%s: ok\n", name);
	return 0;
}
