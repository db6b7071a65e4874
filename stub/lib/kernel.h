/* SPDX-License-Identifier: MIT */
/*
 * Our own wrappers for the syscalls polexec needs, as the kernel's Landlock
 * sandboxer sample does: musl has no wrapper for some of them, and we want
 * the raw kernel interface with its own errno, not a libc emulation. The
 * sys_ prefix keeps them clear of any wrapper a newer libc may declare.
 */
#ifndef POLC_STUB_KERNEL_H
#define POLC_STUB_KERNEL_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "abi/landlock_compat.h"

#if defined(__x86_64__)
#define POLEXEC_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#error "polexec enforces x86_64 artifacts only"
#endif

#ifndef __NR_seccomp
#define __NR_seccomp 317
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif

#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG 0x7ffc0000U
#endif

static inline int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return (int)syscall(__NR_seccomp, op, flags, args);
}

static inline int sys_capset(struct __user_cap_header_struct *hdr,
			     struct __user_cap_data_struct *data)
{
	return (int)syscall(__NR_capset, hdr, data);
}

static inline int sys_close_range(unsigned int first, unsigned int last,
				  unsigned int flags)
{
	return (int)syscall(__NR_close_range, first, last, flags);
}

/* attr: struct polc_landlock_ruleset_attr (landlock_compat.h), or NULL. */
static inline int sys_landlock_create_ruleset(const void *attr, size_t size,
					      __u32 flags)
{
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

static inline int sys_landlock_add_rule(int fd, unsigned int type,
					const void *attr)
{
	return (int)syscall(__NR_landlock_add_rule, fd, type, attr, 0);
}

static inline int sys_landlock_restrict_self(int fd, unsigned flags)
{
	return (int)syscall(__NR_landlock_restrict_self, fd, flags);
}

static inline int sys_openat2(const char *path, struct open_how *how)
{
	return (int)syscall(__NR_openat2, AT_FDCWD, path, how, sizeof(*how));
}

static inline int sys_pidfd_open(pid_t pid)
{
	return (int)syscall(__NR_pidfd_open, pid, 0);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig)
{
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* prlimit64 on ourselves: new or old may be NULL. */
static inline int sys_prlimit(int resource, const struct rlimit *new,
			      struct rlimit *old)
{
	return (int)syscall(__NR_prlimit64, 0, resource, new, old);
}

#endif
