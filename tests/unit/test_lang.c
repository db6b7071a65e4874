/* SPDX-License-Identifier: MIT */
/* The lexer, the parser and `polc fmt`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "ast.h"
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ast_file *parse(struct diag *d, const char *text)
{
	const struct src_file *src =
	    diag_add_source(d, "t.pol", text, strlen(text));
	struct ast_file *f = NULL;

	assert_non_null(src);
	if (ast_parse(d, src, &f))
		return NULL;
	return f;
}

static void test_words_and_locations(void **state)
{
	struct diag d;
	struct ast_file *f;
	const struct ast_stmt *st, *c;

	(void)state;
	diag_init(&d);
	f = parse(&d,
		  "policy \"p\" {\n  fs {\n    ro /usr ${HOME}/x\n  }\n}\n");
	assert_non_null(f);
	assert_int_equal(f->nstmts, 1);
	st = &f->stmts[0];
	assert_int_equal(st->nwords, 2);
	assert_int_equal(st->words[1].kind, AST_STRING);
	assert_string_equal(st->words[1].text, "p");
	assert_true(st->has_block);
	c = &st->children[0].children[0];
	assert_int_equal(c->nwords, 3);
	assert_string_equal(c->words[0].text, "ro");
	assert_string_equal(c->words[2].text, "${HOME}/x");
	assert_int_equal(c->words[2].loc.line, 3);
	assert_int_equal(c->words[2].loc.col, 13);
	ast_file_destroy(&f);
	assert_null(f);
	diag_fini(&d);
}

static void test_condition(void **state)
{
	struct diag d;
	struct ast_file *f;
	const struct ast_cond *c;

	(void)state;
	diag_init(&d);
	f = parse(&d, "allow socket if domain in {AF_UNIX, 2} && type & "
		      "0xf | 0x10 != 3; kill ptrace");
	assert_non_null(f);
	assert_int_equal(f->nstmts, 2);
	c = f->stmts[0].cond;
	assert_non_null(c);
	assert_int_equal(c->n, 2);
	assert_int_equal(c->atoms[0].cmp, AST_IN);
	assert_int_equal(c->atoms[0].nset, 2);
	assert_string_equal(c->atoms[0].set[0].terms[0].text, "AF_UNIX");
	assert_int_equal(c->atoms[1].cmp, AST_NE);
	assert_true(c->atoms[1].has_mask);
	assert_int_equal(c->atoms[1].mask.n, 2);
	assert_string_equal(c->atoms[1].mask.terms[1].text, "0x10");
	assert_null(f->stmts[1].cond);
	ast_file_destroy(&f);
	diag_fini(&d);
}

static void test_string_escapes(void **state)
{
	struct diag d;
	struct ast_file *f;

	(void)state;
	diag_init(&d);
	f = parse(&d, "set X=\"a \\\"q\\\" \\\\ b\\n\"");
	assert_non_null(f);
	assert_string_equal(f->stmts[0].words[3].text, "a \"q\" \\ b\n");
	ast_file_destroy(&f);
	diag_fini(&d);
}

/* Each bad input fails at the given place, and never crashes. */
static void test_errors(void **state)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} cases[] = {
	    {"a \"unterminated\n", 1, 3, "unterminated string"},
	    {"a \"bad \\q\"", 1, 8, "unknown escape"},
	    {"a $x", 1, 3, "variable"},
	    {"a { b", 1, 6, "syntax error"},
	    {"a }", 1, 3, "syntax error"},
	    {"a \x01", 1, 3, "unexpected byte 0x01"},
	    {"a if x ==", 1, 10, "syntax error"},
	    {"a\n\n  b @ { c } }", 3, 13, "syntax error"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct diag d;
		struct ast_file *f;

		diag_init(&d);
		f = parse(&d, cases[i].text);
		assert_null(f);
		assert_true(d.errors > 0);
		assert_int_equal(d.v[0].loc.line, cases[i].line);
		assert_int_equal(d.v[0].loc.col, cases[i].col);
		assert_non_null(strstr(d.v[0].msg, cases[i].msg));
		diag_fini(&d);
	}
}

static void test_depth_limit(void **state)
{
	char text[256] = "";
	struct diag d;
	int i;

	(void)state;
	for (i = 0; i < AST_MAX_DEPTH + 1; i++)
		strcat(text, "a {");
	diag_init(&d);
	assert_null(parse(&d, text));
	assert_non_null(strstr(d.v[0].msg, "nested"));
	diag_fini(&d);
}

static char *format(const char *text)
{
	struct diag d;
	struct ast_file *f;
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	assert_non_null(m);
	diag_init(&d);
	f = parse(&d, text);
	assert_non_null(f);
	assert_int_equal(ast_format(f, m), 0);
	fclose(m);
	ast_file_destroy(&f);
	diag_fini(&d);
	return out;
}

static void test_fmt_layout_and_idempotence(void **state)
{
	const char *src = "# head\npolicy   \"p\"{ # open\n"
			  "fs{ro /usr;rw /tmp}\n\n\n"
			  "  # about syscalls\n"
			  "syscalls default errno(EPERM) { allow socket if "
			  "domain in {1,2}&&type==1 }\n"
			  "env { set  A = \"x y\" }\n}\n# tail\n";
	const char *want = "# head\npolicy \"p\" {  # open\n"
			   "  fs {\n    ro /usr\n    rw /tmp\n  }\n\n"
			   "  # about syscalls\n"
			   "  syscalls default errno(EPERM) {\n"
			   "    allow socket if domain in {1, 2} && type == 1\n"
			   "  }\n"
			   "  env {\n    set A=\"x y\"\n  }\n}\n# tail\n";
	char *once = format(src), *twice;

	(void)state;
	assert_string_equal(once, want);
	twice = format(once);
	assert_string_equal(twice, once);
	free(once);
	free(twice);
}

static void test_closest(void **state)
{
	static const char *const c[] = {"openat", "open", "close"};

	(void)state;
	assert_string_equal(diag_closest("opnat", c, 3), "openat");
	assert_string_equal(diag_closest("clos", c, 3), "close");
	assert_null(diag_closest("zzzzzz", c, 3));
}

static char *printed(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	diag_print(d, m);
	assert_int_equal(fclose(m), 0);
	return text;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* A group (an entry and its notes) printed before is not printed again,
 * even from another copy of the same file; a group that differs in any
 * entry is, and so is a note about another entry. */
static void test_print_once(void **state)
{
	static const char text[] = "policy \"p\" {\n  allow x\n}\n";
	const struct src_file *a, *b;
	struct loc la, lb, la3;
	struct diag d;
	char *out;

	(void)state;
	diag_init(&d);
	a = diag_add_source(&d, "t.pol", text, sizeof(text) - 1);
	b = diag_add_source(&d, "t.pol", text, sizeof(text) - 1);
	la = (struct loc){a, 2, 3};
	lb = (struct loc){b, 2, 3};
	la3 = (struct loc){a, 3, 1};
	diag_warning(&d, la, "w");
	diag_note(&d, la3, "n");
	diag_warning(&d, lb, "w"); /* the same, from the second copy */
	diag_note(&d, la3, "n");
	diag_warning(&d, lb, "w"); /* another note: another group */
	diag_note(&d, la3, "m");
	diag_remark(&d, la, "r"); /* a note of its own starts a group */
	diag_note(&d, la3, "n");
	diag_remark(&d, lb, "r");
	diag_note(&d, la3, "n");
	diag_error(&d, la, "w"); /* another level */
	out = printed(&d);
	assert_int_equal(count(out, "t.pol:2:3: warning: w\n"), 2);
	assert_int_equal(count(out, "t.pol:3:1: note: n\n"), 2);
	assert_int_equal(count(out, "t.pol:3:1: note: m\n"), 1);
	assert_int_equal(count(out, "t.pol:2:3: note: r\n"), 1);
	assert_int_equal(count(out, "t.pol:2:3: error: w\n"), 1);
	assert_int_equal(d.warnings, 3);
	free(out);
	diag_fini(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_words_and_locations),
	    cmocka_unit_test(test_condition),
	    cmocka_unit_test(test_string_escapes),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_depth_limit),
	    cmocka_unit_test(test_fmt_layout_and_idempotence),
	    cmocka_unit_test(test_closest),
	    cmocka_unit_test(test_print_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
