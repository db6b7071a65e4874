/* SPDX-License-Identifier: MIT */
/*
 * clone3 with CLONE_INTO_CGROUP (clone_into.h). A process that writes its
 * pid to a cgroup v2's cgroup.procs takes the kernel's lock on every
 * thread group, whose taking waits for an RCU grace period: 0.2 to 19 ms
 * on this machine (docs/BENCHMARKS.md); a child born in the cgroup takes
 * nothing of the sort (0.16 ms for clone, exit and wait).
 *
 * The child runs on the stack given, in our address space when flags has
 * CLONE_VM, as glibc's and musl's clone() start it: the system call in
 * assembly, the child calling fn(arg) on its new stack and leaving
 * through exit with what fn returned. x86_64 only; elsewhere ENOSYS, and
 * the caller clones and joins the cgroup as before.
 */
#include "clone_into.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>

#include <linux/sched.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* The first 11 words of struct clone_args (CLONE_ARGS_SIZE_VER2). */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
	    stack_size, tls, set_tid, set_tid_size, cgroup;
};

#if defined(__x86_64__)
static long clone3_run(struct clone3_args *a, int (*fn)(void *), void *arg)
{
	register long rax __asm__("rax") = SYS_clone3;
	register long rdi __asm__("rdi") = (long)a;
	register long rsi __asm__("rsi") = (long)sizeof(*a);
	register long r12 __asm__("r12") = (long)fn;
	register long r13 __asm__("r13") = (long)arg;

	/* The child: rsp is stack + size (16-byte aligned), rax 0; r12 and
	 * r13 are ours. It never comes back here. */
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov %%eax, %%edi\n\t"
			 "mov $60, %%eax\n\t" /* SYS_exit */
			 "syscall\n\t"
			 "hlt\n"
			 "1:\n\t"
			 : "+r"(rax)
			 : "r"(rdi), "r"(rsi), "r"(r12), "r"(r13)
			 : "rcx", "r11", "memory", "cc");
	return rax;
}
#endif

pid_t clone_into_cgroup(int (*fn)(void *), void *stack, size_t size,
			unsigned long flags, int cgfd, void *arg)
{
#if defined(__x86_64__)
	struct clone3_args a;
	long r;

	memset(&a, 0, sizeof(a));
	a.flags = (uint64_t)(flags & ~0xffUL) | CLONE_INTO_CGROUP;
	a.exit_signal = SIGCHLD;
	a.stack = (uint64_t)(uintptr_t)stack;
	a.stack_size = size;
	a.cgroup = (uint64_t)cgfd;
	r = clone3_run(&a, fn, arg);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return (pid_t)r;
#else
	(void)fn;
	(void)stack;
	(void)size;
	(void)flags;
	(void)cgfd;
	(void)arg;
	errno = ENOSYS;
	return -1;
#endif
}
