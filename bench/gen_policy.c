/* SPDX-License-Identifier: MIT */
/*
 * Writes a policy shaped like Docker's default profile to stdout: the first
 * N x86_64 syscalls libseccomp knows (400 by default) allowed, with
 * argument rules on personality, clone and socket, and kill rules on a few
 * dangerous calls. Used by the build and prover benchmarks.
 */
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const special[] = {
    "personality",	 "clone",      "socket", "ptrace",
    "process_vm_writev", "kexec_load", "clone3",
};

static int is_special(const char *n)
{
	size_t i;

	for (i = 0; i < sizeof(special) / sizeof(*special); i++)
		if (!strcmp(n, special[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 400, got = 0, nr, col = 0;

	printf("policy \"docker-like\" {\n  syscalls default errno(EPERM) {\n");
	for (nr = 0; nr < 1024 && got < want; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);

		if (!name)
			continue;
		if (!is_special(name)) {
			printf(col == 0 ? "    allow %s" : " %s", name);
			if (++col == 8) {
				putchar('\n');
				col = 0;
			}
			got++;
		}
		free(name);
	}
	if (col)
		putchar('\n');
	printf(
	    "    allow personality if personality in {0, 8, 0x20000, 0x20008, "
	    "0xffffffff}\n"
	    "    allow clone if flags & NAMESPACE_FLAGS == 0\n"
	    "    allow socket if domain != AF_VSOCK && domain != AF_PACKET\n"
	    "    errno(ENOSYS) clone3\n"
	    "    kill ptrace process_vm_writev kexec_load\n"
	    "  }\n}\n");
	return 0;
}
