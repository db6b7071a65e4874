/* SPDX-License-Identifier: MIT */
/*
 * Why a user namespace cannot be made here, and what to do (userns.c).
 * libc only, no allocation: polexec's parent and child, its doctor and
 * polc doctor (compiler/cli/doctor.c) all use it, and a unit test feeds
 * it file contents (tests/unit/test_userns.c).
 */
#ifndef POLC_STUB_USERNS_H
#define POLC_STUB_USERNS_H

#include <stddef.h>

/* The files that decide it, as read; NULL where a file is absent. */
struct userns_sysctls {
	const char *max_user_namespaces;       /* /proc/sys/user/ */
	const char *unprivileged_userns_clone; /* /proc/sys/kernel/: Debian,
						  older Ubuntu */
	const char *apparmor_restrict; /* /proc/sys/kernel/apparmor_restrict_
					  unprivileged_userns: Ubuntu 23.10+ */
	const char *apparmor_label;    /* our own AppArmor label */
};

enum userns_cause {
	USERNS_CAUSE_UNKNOWN,	      /* no file explains it */
	USERNS_CAUSE_MAX_ZERO,	      /* user.max_user_namespaces = 0 */
	USERNS_CAUSE_CLONE_OFF,	      /* kernel.unprivileged_userns_clone = 0 */
	USERNS_CAUSE_APPARMOR,	      /* the restriction, polexec unconfined */
	USERNS_CAUSE_APPARMOR_PROFILE /* confined by a profile without userns */
};

/* Room for the four files' first lines. */
struct userns_files {
	char max[32], clone[32], restrict_[32], label[256];
};

/* Reads the files into f; s points into f (or NULL: absent). */
void userns_read(struct userns_sysctls *s, struct userns_files *f);
/* The likeliest cause, in the order the kernel checks them. */
enum userns_cause userns_cause(const struct userns_sysctls *s);
/* One line into buf: the cause, what the files say, and the fix. */
void userns_explain(const struct userns_sysctls *s, char *buf, size_t len);

#endif
