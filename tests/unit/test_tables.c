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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
