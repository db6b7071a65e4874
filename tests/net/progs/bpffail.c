// SPDX-License-Identifier: MIT
//
// bpffail CMD PROG ARGS...: PROG run with every bpf() call of command CMD
// (a number: BPF_MAP_CREATE 0, BPF_MAP_UPDATE_ELEM 2, BPF_PROG_LOAD 5,
// BPF_PROG_ATTACH 8, BPF_MAP_FREEZE 22) failing with EACCES, through a
// seccomp filter installed here and inherited: the net suite's way of
// making polexec's cgroup backend fail where the kernel would not
// (t_cgroup_install_failure_refuses).
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "bpffail: no audit arch for this machine"
#endif

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bpffail CMD PROG [ARGS...]\n");
		return 2;
	}
	unsigned cmd = (unsigned)strtoul(argv[1], NULL, 0);
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_bpf, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[0])),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, cmd, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("bpffail: seccomp");
		return 2;
	}
	execv(argv[2], argv + 2);
	perror("bpffail: exec");
	return 2;
}
