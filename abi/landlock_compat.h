/* SPDX-License-Identifier: MIT */
/*
 * Landlock's uapi as of ABI 7 (Linux 6.15), and ABI 8's RESOLVE_UNIX,, for
 * builds against older kernel headers: Debian 12's are 6.1 (ABI 2), which lack
 * TRUNCATE (ABI 3), the TCP port rules (ABI 4), IOCTL_DEV (ABI 5), the scopes
 * (ABI 6) and the restrict_self log flags (ABI 7), and whose struct
 * landlock_ruleset_attr has only its first member. Used by polexec (musl) and
 * by polc (glibc).
 *
 * Values are the kernel's (include/uapi/linux/landlock.h); each is defined
 * only when the installed header lacks it, so a newer header wins and any
 * disagreement is a redefinition error, not a silent difference.
 */
#ifndef POLC_LANDLOCK_COMPAT_H
#define POLC_LANDLOCK_COMPAT_H

#include <linux/landlock.h>
#include <linux/types.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

/* ABI 2 */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
/* ABI 3 */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
/* ABI 4: TCP ports, a second rule type and ruleset member */
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
/* an enumerator in the kernel's header, so not testable with #ifndef */
#define POLC_LANDLOCK_RULE_NET_PORT 2
/* ABI 5 */
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
/* ABI 6 */
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif
/* ABI 7: audit logging of denials; polexec passes none of these */
#ifndef LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF
#define LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF (1U << 0)
#endif
#ifndef LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON
#define LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON (1U << 1)
#endif
#ifndef LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF
#define LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF (1U << 2)
#endif

/*
 * ABI 8: connect to (and send to) a pathname unix socket. Upstream added
 * LANDLOCK_ACCESS_FS_RESOLVE_UNIX in 2026-04 for the ABI after 7; no
 * kernel this code has met has it, so the bit and the ABI number are the
 * ones proposed upstream, next after IOCTL_DEV. polexec asks for it only
 * on a kernel that reports ABI 8 or later (landlock.c); a kernel header
 * that defines it differently is a redefinition error here.
 */
#ifndef LANDLOCK_ACCESS_FS_RESOLVE_UNIX
#define LANDLOCK_ACCESS_FS_RESOLVE_UNIX (1ULL << 16)
#endif

/* The newest ABI whose rights this header knows. */
#define POLC_LANDLOCK_ABI_KNOWN 8

/* Every filesystem right up to ABI 8 (RESOLVE_UNIX, the last fs right). */
#define POLC_LANDLOCK_FS_ALL ((1ULL << 17) - 1)
/* The rights a rule on a file (not a directory) may carry. */
#define POLC_LANDLOCK_FS_FILE                                                  \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |          \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |          \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV | LANDLOCK_ACCESS_FS_RESOLVE_UNIX)
#define POLC_LANDLOCK_NET_ALL                                                  \
	(LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP)
#define POLC_LANDLOCK_SCOPE_ALL                                                \
	(LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL)

/*
 * struct landlock_ruleset_attr as of ABI 6. The kernel takes the size it
 * is given: 8 bytes (fs only) on ABI 1..3, 16 with handled_access_net on
 * ABI 4..5, 24 with scoped from ABI 6; a larger size with a nonzero
 * member it does not know is E2BIG.
 */
struct polc_landlock_ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

/* struct landlock_net_port_attr (ABI 4): port in host byte order. */
struct polc_landlock_net_port_attr {
	__u64 allowed_access;
	__u64 port;
};

#endif
