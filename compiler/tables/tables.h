/* SPDX-License-Identifier: MIT */
/*
 * The kernel's tables, as the compiler reads them: named constants usable
 * in policies (AF_UNIX, CLONE_NEWUSER, EPERM, ...) with their x86_64 Linux
 * values (constants.c), and the names and widths of the arguments of the
 * syscalls policies filter on (syscall_args.c). Every stage may read them;
 * they read nothing of the compiler.
 *
 * Syscall names and numbers per architecture (syscalls.c), generated from
 * the kernel's own syscall tables (syscalls_gen.c, by gen_syscalls.py):
 * libseccomp is a test oracle for them, not their source.
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

/* ---- Syscall names and numbers (syscalls.c) ------------------------- */

/*
 * Architectures the table names. Artifacts are x86_64 only for now; the
 * aarch64 table is there so that names, errors and docs can say what a
 * syscall is on the other 64-bit arch polc will target.
 */
enum syscall_arch {
	SYSCALL_ARCH_X86_64 = 0,
	SYSCALL_ARCH_AARCH64 = 1,
	SYSCALL_ARCH_COUNT
};

/*
 * A syscall number a policy may give as such (`allow 470`) is below this:
 * far above any arch's table today, low enough to catch a typo.
 */
#define SYSCALL_NR_LIMIT 1024

struct syscall_entry {
	const char *name;
	unsigned short nr;
	unsigned char entry; /* 0: the kernel reserves the number, no entry */
};

/* "x86_64", "aarch64"; NULL for an arch out of range. */
const char *syscall_arch_name(enum syscall_arch a);
/* The arch called `name`, or -1. */
int syscall_arch_find(const char *name);

/* The number of `name` on arch a, or -1 when the table has no such name. */
int syscall_nr(enum syscall_arch a, const char *name);
/* The name of number nr on arch a, or NULL when the table has none. */
const char *syscall_name(enum syscall_arch a, int nr);
/* The largest number in arch a's table. */
int syscall_max_nr(enum syscall_arch a);

/* For tests and scans: entries in number order; NULL past the end. */
unsigned syscall_count(enum syscall_arch a);
const struct syscall_entry *syscall_at(enum syscall_arch a, unsigned i);
/* The kernel file arch a's table was generated from, and the version of
 * the kernel tree ("6.18.2"). */
const char *syscall_table_source(enum syscall_arch a);
const char *syscall_table_kernel(void);

/*
 * Where a name that is no x86_64 syscall is one: "i386 arm", "powerpc",
 * ... (the kernel's other tables), or NULL when no table of the kernel
 * has it (a typo, or a name newer than the tables).
 */
const char *syscall_elsewhere(const char *name);

/*
 * The x86_64 number an IR syscall name stands for: a name from the table,
 * or the decimal spelling of a number below SYSCALL_NR_LIMIT (how the IR
 * keeps a number no table names, e.g. "470"); -1 for anything else. The
 * decimal spelling is canonical: no sign, no leading zero.
 */
int syscall_ir_nr(const char *ir_name);
/* 1 when s is such a decimal number (whether or not a table names it). */
int syscall_is_number(const char *s);

#endif /* POLC_TABLES_H */
