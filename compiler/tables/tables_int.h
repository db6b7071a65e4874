/* SPDX-License-Identifier: MIT */
/*
 * The shape of the generated syscall tables (syscalls_gen.c), for
 * syscalls.c only: the rest of the compiler asks through tables.h.
 */
#ifndef POLC_TABLES_INT_H
#define POLC_TABLES_INT_H

#include "tables.h"

struct syscall_table {
	const char *arch;   /* "x86_64", "aarch64" */
	const char *source; /* the kernel file it was generated from */
	const struct syscall_entry *by_nr; /* sorted by number */
	const unsigned short *by_name;	   /* indexes into by_nr, by name */
	unsigned n;
};

struct syscall_elsewhere {
	const char *name;
	const char *where; /* "i386 arm", ... */
};

extern const struct syscall_table syscall_tables[SYSCALL_ARCH_COUNT];
extern const struct syscall_elsewhere syscall_elsewhere_names[];
extern const unsigned syscall_elsewhere_count;
extern const char syscall_tables_kernel[];

#endif /* POLC_TABLES_INT_H */
