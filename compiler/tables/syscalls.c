// SPDX-License-Identifier: MIT
/*
 * Syscall names and numbers, looked up in the tables gen_syscalls.py made
 * from the kernel's syscall_64.tbl and syscall.tbl (syscalls_gen.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

static const struct syscall_table *_table(enum syscall_arch a)
{
	return (unsigned)a < SYSCALL_ARCH_COUNT ? &syscall_tables[a] : NULL;
}

const char *syscall_arch_name(enum syscall_arch a)
{
	const struct syscall_table *t = _table(a);

	return t ? t->arch : NULL;
}

int syscall_arch_find(const char *name)
{
	for (int a = 0; a < SYSCALL_ARCH_COUNT; a++)
		if (!strcmp(syscall_tables[a].arch, name))
			return a;
	return -1;
}

int syscall_nr(enum syscall_arch a, const char *name)
{
	const struct syscall_table *t = _table(a);
	unsigned lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const struct syscall_entry *e = &t->by_nr[t->by_name[mid]];
		int c = strcmp(name, e->name);

		if (!c)
			return e->nr;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const char *syscall_name(enum syscall_arch a, int nr)
{
	const struct syscall_table *t = _table(a);
	unsigned lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (t->by_nr[mid].nr == nr)
			return t->by_nr[mid].name;
		if (t->by_nr[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int syscall_max_nr(enum syscall_arch a)
{
	const struct syscall_table *t = _table(a);

	return t && t->n ? t->by_nr[t->n - 1].nr : -1;
}

unsigned syscall_count(enum syscall_arch a)
{
	const struct syscall_table *t = _table(a);

	return t ? t->n : 0;
}

const struct syscall_entry *syscall_at(enum syscall_arch a, unsigned i)
{
	const struct syscall_table *t = _table(a);

	return t && i < t->n ? &t->by_nr[i] : NULL;
}

const char *syscall_table_source(enum syscall_arch a)
{
	const struct syscall_table *t = _table(a);

	return t ? t->source : NULL;
}

const char *syscall_table_kernel(void)
{
	return syscall_tables_kernel;
}

const char *syscall_elsewhere(const char *name)
{
	unsigned lo = 0, hi = syscall_elsewhere_count;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = strcmp(name, syscall_elsewhere_names[mid].name);

		if (!c)
			return syscall_elsewhere_names[mid].where;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

int syscall_is_number(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 4 || (s[0] == '0' && n > 1))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return atoi(s) < SYSCALL_NR_LIMIT;
}

int syscall_ir_nr(const char *ir_name)
{
	if (syscall_is_number(ir_name))
		return atoi(ir_name);
	return syscall_nr(SYSCALL_ARCH_X86_64, ir_name);
}
