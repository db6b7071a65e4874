// SPDX-License-Identifier: MIT
/*
 * A static probe for the runc suite: makes one syscall with raw 64-bit
 * register values and prints what came back, so that the container
 * runtime's answer can be compared with polexec's.
 *
 *   probe socket FAMILY TYPE PROTOCOL   (numbers, 0x... allowed)
 *   probe mkdir PATH
 *
 * Prints "ok" or the errno's name, and exits 0 either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EXDEV:
		return "EXDEV";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case EINVAL:
		return "EINVAL";
	case ENOSYS:
		return "ENOSYS";
	case EPROTONOSUPPORT:
		return "EPROTONOSUPPORT";
	case ESOCKTNOSUPPORT:
		return "ESOCKTNOSUPPORT";
	default:
		return strerror(e);
	}
}

int main(int argc, char **argv)
{
	long r;

	if (argc == 5 && !strcmp(argv[1], "socket"))
		r = syscall(SYS_socket, strtoul(argv[2], NULL, 0),
			    strtoul(argv[3], NULL, 0),
			    strtoul(argv[4], NULL, 0));
	else if (argc == 3 && !strcmp(argv[1], "mkdir"))
		r = syscall(SYS_mkdir, argv[2], 0700);
	else {
		fputs("usage: probe socket FAMILY TYPE PROTOCOL | mkdir PATH\n",
		      stderr);
		return 2;
	}
	if (r < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	return 0;
}
