/* SPDX-License-Identifier: MIT */
/*
 * The kernel's tables, as the compiler reads them: named constants usable
 * in policies (AF_UNIX, CLONE_NEWUSER, EPERM, ...) with their x86_64 Linux
 * values (constants.c), and the names and widths of the arguments of the
 * syscalls policies filter on (syscall_args.c). Every stage may read them;
 * they read nothing of the compiler.
 *
 * Syscall names and numbers still come from libseccomp
 * (seccomp_syscall_resolve_*); a table of our own, generated from the
 * kernel's syscall tables, belongs in this folder beside the two above.
 */
#ifndef POLC_TABLES_H
#define POLC_TABLES_H

/* ---- Named constants (constants.c) ---------------------------------- */

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

/* ---- Syscall arguments (syscall_args.c) ------------------------------ */

/*
 * The width is the one the kernel reads: an argument the kernel declares as
 * int is compared on its low 32 bits only, because the kernel throws the
 * upper half away.
 */
#define SYSCALL_ARGS_MAX 6

struct syscall_arg {
	const char *name;
	unsigned char width; /* 32 or 64 */
};

struct syscall_args {
	const char *syscall;
	unsigned char nargs;
	struct syscall_arg args[SYSCALL_ARGS_MAX];
};

/* NULL when the syscall is not in the table. */
const struct syscall_args *syscall_args_find(const char *syscall);

/*
 * Index of the argument called `name` (also accepts "arg0".."arg5", width 64
 * unless the table knows it), or -1. Fills *width.
 *
 * The kernel's own names win over positional ones (prctl's "arg2" is its
 * second argument, index 1), and for a syscall in the table a position it
 * does not take (socket's "arg3") is -1.
 */
int syscall_args_index(const char *syscall, const char *name, unsigned *width);

/*
 * Iterate all names known for a syscall, for "did you mean" (returns NULL
 * past the end).
 */
const char *syscall_args_name(const char *syscall, unsigned i);

/* For tests: the table in its (sorted) order. */
unsigned syscall_args_count(void);
const struct syscall_args *syscall_args_at(unsigned i);

#endif /* POLC_TABLES_H */
