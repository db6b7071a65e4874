/* SPDX-License-Identifier: MIT */
/*
 * abi/userns.c: the cause of a user namespace that cannot be made, from
 * the files' contents as a machine would have them, and the fix each
 * explanation names. The files are fed in, so the AppArmor and Debian
 * cases are tested on a machine that has neither.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "abi/userns.h"

/* max, clone, apparmor_restrict, label: NULL is an absent file. */
static enum userns_cause cause(const char *max, const char *clone,
			       const char *aa, const char *label, char *why,
			       size_t len)
{
	struct userns_sysctls s = {max, clone, aa, label};

	userns_explain(&s, why, len);
	return userns_cause(&s);
}

static void contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("[%s] does not contain [%s]", text, part);
}

/* Ubuntu 24.04: the restriction on, polexec unconfined. */
static void test_apparmor_restriction_unconfined(void **state)
{
	char why[1024];

	(void)state;
	assert_int_equal(
	    cause("63352\n", NULL, "1\n", "unconfined\n", why, sizeof(why)),
	    USERNS_CAUSE_APPARMOR);
	contains(why, "kernel.apparmor_restrict_unprivileged_userns=1");
	contains(why, "make install-apparmor");
	contains(why, "apparmor_parser -r /etc/apparmor.d/polexec");
	contains(why,
		 "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
	/* the same with the label's file absent (no AppArmor attr) */
	assert_int_equal(cause("63352", NULL, "1", NULL, why, sizeof(why)),
			 USERNS_CAUSE_APPARMOR);
}

/* Confined by a profile that lacks `userns,`: its name is said. */
static void test_apparmor_restriction_confined(void **state)
{
	char why[1024];

	(void)state;
	assert_int_equal(
	    cause("63352", NULL, "1", "polexec (enforce)", why, sizeof(why)),
	    USERNS_CAUSE_APPARMOR_PROFILE);
	contains(why, "polexec (enforce)");
	contains(why, "does not allow `userns,`");
}

/* The restriction off, or its file absent: not AppArmor's doing. */
static void test_apparmor_restriction_off(void **state)
{
	char why[1024];

	(void)state;
	assert_int_equal(
	    cause("63352", NULL, "0", "unconfined", why, sizeof(why)),
	    USERNS_CAUSE_UNKNOWN);
	contains(why, "apparmor_restrict_unprivileged_userns=0");
	assert_int_equal(cause("63352", NULL, NULL, NULL, why, sizeof(why)),
			 USERNS_CAUSE_UNKNOWN);
	contains(why, "apparmor_restrict_unprivileged_userns=absent");
	contains(why, "container");
}

/* Debian's older switch: checked first by the kernel, named first. */
static void test_unprivileged_userns_clone_off(void **state)
{
	char why[1024];

	(void)state;
	assert_int_equal(
	    cause("63352", "0\n", "1", "unconfined", why, sizeof(why)),
	    USERNS_CAUSE_CLONE_OFF);
	contains(why, "sysctl -w kernel.unprivileged_userns_clone=1");
	contains(why, "/etc/sysctl.d/");
	assert_int_equal(cause("63352", "1", NULL, NULL, why, sizeof(why)),
			 USERNS_CAUSE_UNKNOWN);
}

static void test_max_user_namespaces_zero(void **state)
{
	char why[1024];

	(void)state;
	assert_int_equal(cause(" 0 \n", NULL, NULL, NULL, why, sizeof(why)),
			 USERNS_CAUSE_MAX_ZERO);
	contains(why, "sysctl -w user.max_user_namespaces=15000");
	/* "0" only as the whole value */
	assert_int_equal(cause("0x10", NULL, NULL, NULL, why, sizeof(why)),
			 USERNS_CAUSE_UNKNOWN);
	assert_int_equal(cause("10", NULL, NULL, NULL, why, sizeof(why)),
			 USERNS_CAUSE_UNKNOWN);
}

/* A short buffer: cut, still a string. */
static void test_short_buffer(void **state)
{
	char why[16];

	(void)state;
	cause("0", NULL, NULL, NULL, why, sizeof(why));
	assert_int_equal(strlen(why), sizeof(why) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_apparmor_restriction_unconfined),
	    cmocka_unit_test(test_apparmor_restriction_confined),
	    cmocka_unit_test(test_apparmor_restriction_off),
	    cmocka_unit_test(test_unprivileged_userns_clone_off),
	    cmocka_unit_test(test_max_user_namespaces_zero),
	    cmocka_unit_test(test_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
