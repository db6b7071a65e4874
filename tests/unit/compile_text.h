/* SPDX-License-Identifier: MIT */
/*
 * compile(): a policy text through the whole front end to its IR, or the
 * test fails with the diagnostics. Shared by the cmocka suites that start
 * from policy text (include after cmocka.h, diag.h and sema.h).
 */
#ifndef POLC_TEST_COMPILE_TEXT_H
#define POLC_TEST_COMPILE_TEXT_H

#include <stdio.h>
#include <string.h>

static struct ir_policy *compile(const char *text)
{
	struct ir_policy *p = NULL;
	struct diag d;

	diag_init(&d);
	if (sema_compile_text(&d, "t.pol", text, strlen(text), NULL, &p)) {
		diag_print(&d, stderr);
		fail_msg("policy did not compile: %s", text);
	}
	diag_fini(&d);
	return p;
}

#endif
