/* SPDX-License-Identifier: MIT */
/*
 * badarch native|x32|int80: getpid three ways. native is the x86_64
 * `syscall` instruction; x32 is the same instruction with bit 30 set in
 * the number (__X32_SYSCALL_BIT); int80 is the i386 entry, where getpid is
 * number 20. Prints "MODE: ret=N". A filter that handles the arch check
 * kills the process on x32 and int80 before anything is printed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

static long native(long nr)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr)
			 : "rcx", "r11", "memory");
	return ret;
}

static long int80(long nr)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr)
			 : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long r;

	if (strcmp(mode, "native") == 0)
		r = native(SYS_getpid);
	else if (strcmp(mode, "x32") == 0)
		r = native(SYS_getpid | 0x40000000L);
	else if (strcmp(mode, "int80") == 0)
		r = int80(20);
	else {
		fprintf(stderr, "badarch: unknown mode %s\n", mode);
		return 2;
	}
	printf("%s: ret=%ld\n", mode, r);
	return 0;
}
