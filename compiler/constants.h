/* SPDX-License-Identifier: MIT */
/*
 * Named constants usable in policies (AF_UNIX, CLONE_NEWUSER, EPERM, ...),
 * with their x86_64 Linux values. See constants.c.
 */
#ifndef POLC_CONSTANTS_H
#define POLC_CONSTANTS_H

/* 64-bit and signed, so that AT_FDCWD keeps its value of -100. */
struct constant {
	const char *name;
	long long value;
};

/* 0 and fills *value when `name` is a known constant, else -1. */
int constant_lookup(const char *name, long long *value);

/* errno value for an errno name ("EPERM" -> 1), or -1. */
int errno_lookup(const char *name);

/*
 * Name of an errno value (1 -> "EPERM"), or NULL. When two names share a
 * value, return the canonical one (EAGAIN not EWOULDBLOCK, EOPNOTSUPP not
 * ENOTSUP, EDEADLK not EDEADLOCK).
 */
const char *errno_name(int value);

/*
 * i-th constant for "did you mean" scans; NULL past the end. The named
 * constants come first, sorted by name, then the errno names, sorted by
 * name too.
 */
const struct constant *constant_at(unsigned i);

/*
 * For tests: how many named constants constant_at() yields before the
 * errno names start.
 */
unsigned constant_count(void);

#endif /* POLC_CONSTANTS_H */
