/* SPDX-License-Identifier: MIT */
/*
 * Why this user may not create a user namespace, from the files that
 * decide it, in the order the kernel consults them:
 *
 *   kernel.unprivileged_userns_clone = 0      Debian's and older Ubuntu's
 *       kernels: only a process with CAP_SYS_ADMIN may (unshare: EPERM)
 *   user.max_user_namespaces = 0              nobody may (ENOSPC)
 *   kernel.apparmor_restrict_unprivileged_userns = 1   Ubuntu 23.10 and
 *       later: an unconfined process's new namespace holds no capability
 *       (writing its uid_map fails: EPERM), unless an AppArmor profile
 *       that allows `userns,` confines the program
 *
 * The texts name the fix for each; contrib/apparmor/polexec is the profile
 * (docs/INSTALL.md). No allocation, so polexec's child may call it.
 */
#include "userns.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first line of path into buf, or NULL when it cannot be read. */
static const char *first_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

void userns_read(struct userns_sysctls *s, struct userns_files *f)
{
	s->max_user_namespaces = first_line(
	    "/proc/sys/user/max_user_namespaces", f->max, sizeof(f->max));
	s->unprivileged_userns_clone =
	    first_line("/proc/sys/kernel/unprivileged_userns_clone", f->clone,
		       sizeof(f->clone));
	s->apparmor_restrict =
	    first_line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
		       f->restrict_, sizeof(f->restrict_));
	/* the LSM-specific file (Linux 5.8+), else the shared one */
	s->apparmor_label = first_line("/proc/self/attr/apparmor/current",
				       f->label, sizeof(f->label));
	if (!s->apparmor_label)
		s->apparmor_label = first_line("/proc/self/attr/current",
					       f->label, sizeof(f->label));
}

/* Does the value (blanks around it allowed) read as the number n? */
static int is(const char *v, const char *n)
{
	size_t len = strlen(n);

	if (!v)
		return 0;
	v += strspn(v, " \t\n");
	return !strncmp(v, n, len) && !v[len + strspn(v + len, " \t\n")];
}

/* Confined: a label other than "unconfined" (an AppArmor profile's name,
 * "NAME (enforce)"). Other LSMs' labels are not AppArmor's. */
static int confined(const char *label)
{
	return label && label[0] && strncmp(label, "unconfined", 10) != 0 &&
	       strchr(label, '(') != NULL;
}

enum userns_cause userns_cause(const struct userns_sysctls *s)
{
	if (is(s->unprivileged_userns_clone, "0"))
		return USERNS_CAUSE_CLONE_OFF;
	if (is(s->max_user_namespaces, "0"))
		return USERNS_CAUSE_MAX_ZERO;
	if (is(s->apparmor_restrict, "1"))
		return confined(s->apparmor_label)
			   ? USERNS_CAUSE_APPARMOR_PROFILE
			   : USERNS_CAUSE_APPARMOR;
	return USERNS_CAUSE_UNKNOWN;
}

static const char persist[] =
    "; to keep it, put the line in a file in /etc/sysctl.d/";
static const char profile[] =
    "load polexec's AppArmor profile: `make install-apparmor` then "
    "`apparmor_parser -r /etc/apparmor.d/polexec` (docs/INSTALL.md; its "
    "attachment must be the path polexec runs from)";

void userns_explain(const struct userns_sysctls *s, char *buf, size_t len)
{
	const char *label = s->apparmor_label ? s->apparmor_label : "";

	switch (userns_cause(s)) {
	case USERNS_CAUSE_CLONE_OFF:
		snprintf(buf, len,
			 "kernel.unprivileged_userns_clone is 0 (a Debian or "
			 "older Ubuntu kernel): only root may create a user "
			 "namespace; allow it with `sysctl -w "
			 "kernel.unprivileged_userns_clone=1`%s, or run as "
			 "root",
			 persist);
		return;
	case USERNS_CAUSE_MAX_ZERO:
		snprintf(buf, len,
			 "user.max_user_namespaces is 0: no user namespace "
			 "may be created; allow them with `sysctl -w "
			 "user.max_user_namespaces=15000`%s",
			 persist);
		return;
	case USERNS_CAUSE_APPARMOR:
		snprintf(buf, len,
			 "AppArmor restricts unprivileged user namespaces "
			 "(kernel.apparmor_restrict_unprivileged_userns=1, "
			 "Ubuntu 23.10 and later) and polexec runs "
			 "unconfined: %s; or lift the restriction for every "
			 "program with `sysctl -w "
			 "kernel.apparmor_restrict_unprivileged_userns=0`",
			 profile);
		return;
	case USERNS_CAUSE_APPARMOR_PROFILE:
		snprintf(
		    buf, len,
		    "AppArmor restricts unprivileged user namespaces "
		    "(kernel.apparmor_restrict_unprivileged_userns=1) and "
		    "polexec runs under the profile %.100s, which does not "
		    "allow `userns,`: %s",
		    label, profile);
		return;
	case USERNS_CAUSE_UNKNOWN:
		break;
	}
	snprintf(buf, len,
		 "no setting here explains it (user.max_user_namespaces=%s, "
		 "kernel.unprivileged_userns_clone=%s, "
		 "kernel.apparmor_restrict_unprivileged_userns=%s): inside a "
		 "container, its seccomp filter may refuse unshare "
		 "(Docker's default does), and user namespaces nest at "
		 "most 32 deep",
		 s->max_user_namespaces ? s->max_user_namespaces : "absent",
		 s->unprivileged_userns_clone ? s->unprivileged_userns_clone
					      : "absent",
		 s->apparmor_restrict ? s->apparmor_restrict : "absent");
}
