/* SPDX-License-Identifier: MIT */
/*
 * Names and widths of the arguments of the syscalls policies filter on.
 *
 * The width is the one the kernel reads: an argument the kernel declares as
 * int is compared on its low 32 bits only, because the kernel throws the
 * upper half away. See syscall_args.c.
 */
#ifndef POLC_SYSCALL_ARGS_H
#define POLC_SYSCALL_ARGS_H

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

#endif /* POLC_SYSCALL_ARGS_H */
