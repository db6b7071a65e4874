// SPDX-License-Identifier: MIT
/*
 * The syscall argument and constant tables: bsearch only works on strictly
 * sorted tables, and a wrong width or value would silently weaken every
 * policy that uses it, so both are checked here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>

#include "tables/tables.h"

static void test_syscall_table_sorted(void **state)
{
	unsigned i, n = syscall_args_count();

	(void)state;
	assert_true(n >= 80);
	for (i = 1; i < n; i++) {
		const char *a = syscall_args_at(i - 1)->syscall;
		const char *b = syscall_args_at(i)->syscall;

		if (strcmp(a, b) >= 0)
			fail_msg("syscall table not sorted: %s >= %s", a, b);
	}
	assert_null(syscall_args_at(n));
}

static void test_syscall_rows_well_formed(void **state)
{
	unsigned i, j, k, n = syscall_args_count();

	(void)state;
	for (i = 0; i < n; i++) {
		const struct syscall_args *sa = syscall_args_at(i);

		assert_true(sa->nargs <= SYSCALL_ARGS_MAX);
		assert_ptr_equal(syscall_args_find(sa->syscall), sa);
		for (j = 0; j < SYSCALL_ARGS_MAX; j++) {
			const struct syscall_arg *a = &sa->args[j];
			unsigned w = 0;

			if (j >= sa->nargs) {
				assert_null(a->name);
				continue;
			}
			assert_non_null(a->name);
			assert_true(a->width == 32 || a->width == 64);
			/* A duplicate name would make index() ambiguous. */
			for (k = 0; k < j; k++)
				assert_string_not_equal(sa->args[k].name,
							a->name);
			assert_int_equal(
			    syscall_args_index(sa->syscall, a->name, &w), j);
			assert_int_equal(w, a->width);
		}
	}
}

static void test_syscall_widths(void **state)
{
	unsigned w = 0;

	(void)state;
	/* socket(int family, ...): the AF_VSOCK + 2^32 case. */
	assert_int_equal(syscall_args_index("socket", "family", &w), 0);
	assert_int_equal(w, 32);
	w = 0;
	assert_int_equal(syscall_args_index("socket", "domain", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("socket", "type", &w), 1);
	assert_int_equal(syscall_args_index("socket", "protocol", &w), 2);

	assert_int_equal(syscall_args_index("clone", "clone_flags", &w), 0);
	assert_int_equal(w, 32);
	w = 0;
	assert_int_equal(syscall_args_index("clone", "flags", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("clone", "tls", &w), 4);

	assert_int_equal(syscall_args_index("ioctl", "fd", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("ioctl", "cmd", &w), 1);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("ioctl", "arg", &w), 2);
	assert_int_equal(w, 64);

	assert_int_equal(syscall_args_index("prctl", "option", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("prctl", "arg2", &w), 1);
	assert_int_equal(w, 64);
	/* prctl's own names win; "arg0" stays positional. */
	assert_int_equal(syscall_args_index("prctl", "arg5", &w), 4);
	assert_int_equal(syscall_args_index("prctl", "arg0", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("keyctl", "arg2", &w), 1);

	/* The x86_64 mmap: prot, flags and fd are unsigned long. */
	assert_int_equal(syscall_args_index("mmap", "prot", &w), 2);
	assert_int_equal(w, 64);
	assert_int_equal(syscall_args_index("mmap", "off", &w), 5);
	assert_int_equal(syscall_args_index("mmap", "offset", &w), 5);
	assert_int_equal(syscall_args_index("mprotect", "prot", &w), 2);
	assert_int_equal(w, 64);

	assert_int_equal(syscall_args_index("openat", "flags", &w), 2);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("fcntl", "cmd", &w), 1);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("kill", "sig", &w), 1);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("personality", "personality", &w),
			 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("unshare", "unshare_flags", &w), 0);
	assert_int_equal(w, 64);
	assert_int_equal(syscall_args_index("setns", "nstype", &w), 1);
	assert_int_equal(w, 32);
}

static void test_syscall_positional(void **state)
{
	unsigned w = 0;

	(void)state;
	/* Known syscall: positional names take the table's width. */
	assert_int_equal(syscall_args_index("socket", "arg0", &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(syscall_args_index("clone", "arg0", &w), 0);
	assert_int_equal(w, 32); /* the kernel keeps 32 bits of the flags */
	assert_int_equal(syscall_args_index("clone", "newsp", &w), 1);
	assert_int_equal(w, 64);
	/* socket takes three arguments: arg3 is not one of them. */
	assert_int_equal(syscall_args_index("socket", "arg3", &w), -1);

	/* Unknown syscall: arg0..arg5, always 64 bits. */
	assert_null(syscall_args_find("no_such_syscall"));
	w = 0;
	assert_int_equal(syscall_args_index("getpid", "arg5", &w), 5);
	assert_int_equal(w, 64);
	assert_int_equal(syscall_args_index("getpid", "arg6", &w), -1);
	assert_int_equal(syscall_args_index("getpid", "fd", &w), -1);
	assert_int_equal(syscall_args_index("getpid", "arg", &w), -1);
	assert_int_equal(syscall_args_index("getpid", "arg00", &w), -1);

	assert_int_equal(syscall_args_index("socket", "famliy", &w), -1);
	assert_int_equal(syscall_args_index("socket", "", &w), -1);
	assert_int_equal(syscall_args_index(NULL, "fd", &w), -1);
	assert_int_equal(syscall_args_index("socket", NULL, &w), -1);
}

static void test_syscall_names(void **state)
{
	const char *n;
	unsigned i;
	int saw_domain = 0;

	(void)state;
	for (i = 0; (n = syscall_args_name("socket", i)); i++) {
		if (strcmp(n, "domain") == 0)
			saw_domain = 1;
		assert_int_not_equal(syscall_args_index("socket", n, NULL), -1);
	}
	assert_int_equal(i, 4); /* family, type, protocol, domain */
	assert_true(saw_domain);
	assert_string_equal(syscall_args_name("socket", 0), "family");

	for (i = 0; syscall_args_name("getpid", i); i++)
		;
	assert_int_equal(i, SYSCALL_ARGS_MAX);
	assert_string_equal(syscall_args_name("getpid", 5), "arg5");
}

static void test_constant_tables_sorted(void **state)
{
	unsigned i, n = constant_count(), errs = 0;
	const struct constant *prev = NULL, *c;
	long long v;

	(void)state;
	assert_true(n > 0);
	for (i = 0; (c = constant_at(i)); i++) {
		/* Two runs: the named constants, then the errno names. */
		if (prev && i != n && strcmp(prev->name, c->name) >= 0)
			fail_msg("constants not sorted: %s >= %s", prev->name,
				 c->name);
		if (i >= n) {
			errs++;
			assert_int_equal(errno_lookup(c->name), c->value);
		} else {
			assert_int_equal(errno_lookup(c->name), -1);
		}
		/* Every entry must be reachable through bsearch. */
		v = 0;
		assert_int_equal(constant_lookup(c->name, &v), 0);
		assert_true(v == c->value);
		prev = c;
	}
	assert_true(errs >= 130);
}

static void test_constant_values(void **state)
{
	long long v = 0, ns = 0, user = 0;

	(void)state;
	assert_int_equal(constant_lookup("AF_VSOCK", &v), 0);
	assert_true(v == 40);
	assert_int_equal(constant_lookup("AF_UNIX", &v), 0);
	assert_true(v == 1);
	assert_int_equal(constant_lookup("AT_FDCWD", &v), 0);
	assert_true(v == -100);
	assert_int_equal(constant_lookup("NAMESPACE_FLAGS", &ns), 0);
	assert_int_equal(constant_lookup("CLONE_NEWUSER", &user), 0);
	assert_true(user == 0x10000000);
	assert_true((ns & user) == user);
	assert_int_equal(constant_lookup("CLONE_NEWTIME", &v), 0);
	assert_true((ns & v) == v);
	assert_int_equal(constant_lookup("CLONE_THREAD", &v), 0);
	assert_true((ns & v) == 0);
	assert_int_equal(constant_lookup("CLONE_INTO_CGROUP", &v), 0);
	assert_true(v == 0x200000000LL);
	assert_int_equal(constant_lookup("PR_SET_NO_NEW_PRIVS", &v), 0);
	assert_true(v == 38);
	assert_int_equal(constant_lookup("TIOCSTI", &v), 0);
	assert_true(v == 0x5412);
	assert_int_equal(constant_lookup("PTRACE_SEIZE", &v), 0);
	assert_true(v == 0x4206);
	assert_int_equal(constant_lookup("SOCK_CLOEXEC", &v), 0);
	assert_true(v == 02000000);
	assert_int_equal(constant_lookup("O_CLOEXEC", &v), 0);
	assert_true(v == 02000000);
	assert_int_equal(constant_lookup("PER_LINUX32", &v), 0);
	assert_true(v == 8);

	/* constant_lookup also finds errno names. */
	assert_int_equal(constant_lookup("EPERM", &v), 0);
	assert_true(v == 1);

	v = 12345;
	assert_int_equal(constant_lookup("AF_VSOCKET", &v), -1);
	assert_true(v == 12345);
	assert_int_equal(constant_lookup("", &v), -1);
	assert_int_equal(constant_lookup(NULL, &v), -1);
	assert_int_equal(constant_lookup("af_unix", &v), -1);
}

static void test_errno(void **state)
{
	int v;

	(void)state;
	/* Linux numbers errnos 1..133, leaving out only 41 and 58. */
	for (v = 1; v <= 133; v++) {
		const char *n = errno_name(v);

		if (v == 41 || v == 58) {
			assert_null(n);
			continue;
		}
		assert_non_null(n);
		assert_int_equal(errno_lookup(n), v);
	}
	assert_int_equal(errno_lookup("EPERM"), 1);
	assert_int_equal(errno_lookup("EACCES"), 13);
	assert_int_equal(errno_lookup("ENOSYS"), 38);
	assert_int_equal(errno_lookup("EHWPOISON"), 133);
	assert_int_equal(errno_lookup("ENOTSUP"), 95);
	assert_int_equal(errno_lookup("EOPNOTSUPP"), 95);
	assert_int_equal(errno_lookup("EWOULDBLOCK"), 11);
	assert_int_equal(errno_lookup("AF_UNIX"), -1);
	assert_int_equal(errno_lookup("EPERMS"), -1);
	assert_int_equal(errno_lookup(NULL), -1);

	assert_string_equal(errno_name(1), "EPERM");
	assert_string_equal(errno_name(11), "EAGAIN");
	assert_string_equal(errno_name(35), "EDEADLK");
	assert_string_equal(errno_name(95), "EOPNOTSUPP");
	assert_string_equal(errno_name(133), "EHWPOISON");
	assert_null(errno_name(0));
	assert_null(errno_name(-1));
	assert_null(errno_name(4095));
}

/* ---- The syscall table against the kernel's and libseccomp's ---------- */

static const uint32_t scmp_arch[SYSCALL_ARCH_COUNT] = {
    [SYSCALL_ARCH_X86_64] = SCMP_ARCH_X86_64,
    [SYSCALL_ARCH_AARCH64] = SCMP_ARCH_AARCH64,
};

static void test_syscall_numbers_well_formed(void **state)
{
	(void)state;
	for (int a = 0; a < SYSCALL_ARCH_COUNT; a++) {
		unsigned n = syscall_count(a);

		assert_non_null(syscall_arch_name(a));
		assert_int_equal(syscall_arch_find(syscall_arch_name(a)), a);
		assert_true(n > 300);
		assert_null(syscall_at(a, n));
		for (unsigned i = 0; i < n; i++) {
			const struct syscall_entry *e = syscall_at(a, i);

			if (i > 0 && syscall_at(a, i - 1)->nr >= e->nr)
				fail_msg("%s: numbers not increasing at %s",
					 syscall_arch_name(a), e->name);
			assert_true(e->nr < SYSCALL_NR_LIMIT);
			/* Both indexes find every row. */
			assert_int_equal(syscall_nr(a, e->name), e->nr);
			assert_string_equal(syscall_name(a, e->nr), e->name);
		}
		assert_int_equal(syscall_max_nr(a), syscall_at(a, n - 1)->nr);
		assert_int_equal(syscall_nr(a, "no_such_call"), -1);
		assert_int_equal(syscall_nr(a, ""), -1);
		assert_null(syscall_name(a, -1));
		assert_null(syscall_name(a, SYSCALL_NR_LIMIT));
	}
	assert_int_equal(syscall_arch_find("i386"), -1);
	assert_null(syscall_arch_name(SYSCALL_ARCH_COUNT));
	assert_string_equal(syscall_table_kernel(), "6.18.2");
}

/* What the kernel's tables say, spot-checked by hand from syscall_64.tbl
 * and syscall.tbl (Linux 6.18). */
static void test_syscall_numbers_known(void **state)
{
	static const struct {
		int arch;
		const char *name;
		int nr;
	} v[] = {
	    {SYSCALL_ARCH_X86_64, "read", 0},
	    {SYSCALL_ARCH_X86_64, "socket", 41},
	    {SYSCALL_ARCH_X86_64, "umount2", 166},
	    {SYSCALL_ARCH_X86_64, "uretprobe", 335},
	    {SYSCALL_ARCH_X86_64, "uprobe", 336},
	    {SYSCALL_ARCH_X86_64, "io_uring_setup", 425},
	    {SYSCALL_ARCH_X86_64, "statmount", 457},
	    {SYSCALL_ARCH_X86_64, "listmount", 458},
	    {SYSCALL_ARCH_X86_64, "mseal", 462},
	    {SYSCALL_ARCH_X86_64, "setxattrat", 463},
	    {SYSCALL_ARCH_X86_64, "getxattrat", 464},
	    {SYSCALL_ARCH_X86_64, "listxattrat", 465},
	    {SYSCALL_ARCH_X86_64, "removexattrat", 466},
	    {SYSCALL_ARCH_X86_64, "file_setattr", 469},
	    /* a reserved number without an entry point keeps its name */
	    {SYSCALL_ARCH_X86_64, "uselib", 134},
	    {SYSCALL_ARCH_AARCH64, "io_setup", 0},
	    {SYSCALL_ARCH_AARCH64, "socket", 198},
	    {SYSCALL_ARCH_AARCH64, "renameat", 38},
	    {SYSCALL_ARCH_AARCH64, "getrlimit", 163},
	    {SYSCALL_ARCH_AARCH64, "memfd_secret", 447},
	    {SYSCALL_ARCH_AARCH64, "mseal", 462},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(syscall_nr(v[i].arch, v[i].name), v[i].nr);
	for (unsigned i = 0; i < syscall_count(SYSCALL_ARCH_X86_64); i++) {
		const struct syscall_entry *e =
		    syscall_at(SYSCALL_ARCH_X86_64, i);

		if (!strcmp(e->name, "uselib"))
			assert_false(e->entry);
		if (!strcmp(e->name, "read"))
			assert_true(e->entry);
	}
	/* x32's rows are another ABI, not x86_64 syscalls. */
	assert_null(syscall_name(SYSCALL_ARCH_X86_64, 512));
	/* 64-bit arm has no 32-bit time or open, and no uretprobe. */
	assert_int_equal(syscall_nr(SYSCALL_ARCH_AARCH64, "open"), -1);
	assert_int_equal(syscall_nr(SYSCALL_ARCH_AARCH64, "fstatat64"), -1);
	assert_int_equal(syscall_nr(SYSCALL_ARCH_AARCH64, "uretprobe"), -1);
}

/*
 * libseccomp as the oracle: where it knows a name, its number is ours, and
 * every number it names we name the same. The names only we know are
 * listed: they are the syscalls newer than its table.
 */
static void test_syscall_numbers_vs_libseccomp(void **state)
{
	(void)state;
	for (int a = 0; a < SYSCALL_ARCH_COUNT; a++) {
		unsigned n = syscall_count(a), both = 0, ours = 0;
		char list[4096] = "";
		size_t len = 0;

		for (unsigned i = 0; i < n; i++) {
			const struct syscall_entry *e = syscall_at(a, i);
			int theirs = seccomp_syscall_resolve_name_arch(
			    scmp_arch[a], e->name);

			if (theirs < 0) {
				ours++;
				len += (size_t)snprintf(list + len,
							sizeof(list) - len,
							" %s", e->name);
				assert_true(len < sizeof(list));
				continue;
			}
			if (theirs != e->nr)
				fail_msg("%s: %s is %d here, %d in libseccomp",
					 syscall_arch_name(a), e->name, e->nr,
					 theirs);
			both++;
		}
		for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
			char *name =
			    seccomp_syscall_resolve_num_arch(scmp_arch[a], nr);
			const char *mine = syscall_name(a, nr);

			if (name && (!mine || strcmp(mine, name)))
				fail_msg("%s: libseccomp names %d %s, we %s",
					 syscall_arch_name(a), nr, name,
					 mine ? mine : "nothing");
			free(name);
		}
		printf("%s (Linux %s, %s): %u names, %u agree with "
		       "libseccomp %u.%u.%u, %u only here:%s\n",
		       syscall_arch_name(a), syscall_table_kernel(),
		       syscall_table_source(a), n, both,
		       seccomp_version()->major, seccomp_version()->minor,
		       seccomp_version()->micro, ours, list);
		assert_true(both > 300);
	}
	/* The syscalls issue 14 could not write with libseccomp's table. */
	assert_true(syscall_nr(SYSCALL_ARCH_X86_64, "uretprobe") >= 0 &&
		    syscall_nr(SYSCALL_ARCH_X86_64, "statmount") >= 0 &&
		    syscall_nr(SYSCALL_ARCH_X86_64, "listxattrat") >= 0);
}

/* Every row of the argument table names a syscall x86_64 has. */
static void test_syscall_args_rows_exist(void **state)
{
	(void)state;
	for (unsigned i = 0; i < syscall_args_count(); i++) {
		const char *sc = syscall_args_at(i)->syscall;

		if (syscall_nr(SYSCALL_ARCH_X86_64, sc) < 0)
			fail_msg("argument row %s: no such x86_64 syscall", sc);
	}
}

/* Names of other arches are told apart from names no kernel has. */
static void test_syscall_elsewhere(void **state)
{
	(void)state;
	assert_non_null(strstr(syscall_elsewhere("chown32"), "i386"));
	assert_non_null(strstr(syscall_elsewhere("socketcall"), "i386"));
	assert_non_null(strstr(syscall_elsewhere("umount"), "arm"));
	assert_string_equal(syscall_elsewhere("riscv_hwprobe"), "riscv");
	assert_non_null(syscall_elsewhere("s390_runtime_instr"));
	assert_null(syscall_elsewhere("read")); /* x86_64's own */
	assert_null(syscall_elsewhere("opnat"));
	assert_null(syscall_elsewhere(""));
}

static void test_syscall_ir_numbers(void **state)
{
	(void)state;
	assert_int_equal(syscall_ir_nr("read"), 0);
	assert_int_equal(syscall_ir_nr("mseal"), 462);
	assert_int_equal(syscall_ir_nr("470"), 470);
	assert_int_equal(syscall_ir_nr("0"), 0);
	assert_int_equal(syscall_ir_nr("1023"), 1023);
	assert_int_equal(syscall_ir_nr("1024"), -1);
	assert_int_equal(syscall_ir_nr("0470"), -1);
	assert_int_equal(syscall_ir_nr("-1"), -1);
	assert_int_equal(syscall_ir_nr("47x"), -1);
	assert_int_equal(syscall_ir_nr(""), -1);
	assert_int_equal(syscall_ir_nr("socketcall"), -1); /* i386 only */
	assert_true(syscall_is_number("462"));
	assert_false(syscall_is_number("99999"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_syscall_table_sorted),
	    cmocka_unit_test(test_syscall_rows_well_formed),
	    cmocka_unit_test(test_syscall_widths),
	    cmocka_unit_test(test_syscall_positional),
	    cmocka_unit_test(test_syscall_names),
	    cmocka_unit_test(test_constant_tables_sorted),
	    cmocka_unit_test(test_constant_values),
	    cmocka_unit_test(test_errno),
	    cmocka_unit_test(test_syscall_numbers_well_formed),
	    cmocka_unit_test(test_syscall_numbers_known),
	    cmocka_unit_test(test_syscall_numbers_vs_libseccomp),
	    cmocka_unit_test(test_syscall_args_rows_exist),
	    cmocka_unit_test(test_syscall_elsewhere),
	    cmocka_unit_test(test_syscall_ir_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
