/* SPDX-License-Identifier: MIT */
/*
 * The semantic pass driver: the file structure (`policy` or `fragment`),
 * `use` through the search path, the top-level settings, and the hand-off
 * to the section passes. Everything is order-independent: the sections
 * collect rules with their locations, and the finishing step checks and
 * merges them, so moving a statement never changes the result.
 */
#include "sema_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sema_grow(struct sema *s, void **v, size_t *cap, size_t n, size_t size)
{
	void *nv;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	nv = realloc(*v, ncap * size);
	if (!nv) {
		s->oom = 1;
		return -1;
	}
	*v = nv;
	*cap = ncap;
	return 0;
}

void sema_dup(struct sema *s, struct loc here, struct loc first,
	      const char *what, const char *name)
{
	diag_error(s->d, here, "duplicate %s '%s'", what, name);
	diag_note(s->d, first, "first given here");
}

int sema_once(struct sema *s, struct once *o, struct loc here, const char *what)
{
	if (o->set) {
		diag_error(s->d, here, "%s given twice", what);
		diag_note(s->d, o->loc, "first given here");
		return -1;
	}
	o->set = 1;
	o->loc = here;
	return 0;
}

void sema_unknown(struct sema *s, const struct ast_word *w, const char *what,
		  const char *const *cands, size_t n)
{
	const char *near = diag_closest(w->text, cands, n);

	if (near)
		diag_error(s->d, w->loc, "unknown %s '%s'; did you mean '%s'?",
			   what, w->text, near);
	else
		diag_error(s->d, w->loc, "unknown %s '%s'", what, w->text);
}

static const char *const top_keys[] = {
    "use", "landlock", "fs", "net", "syscalls", "limits", "env",
};

static void body(struct sema *s, const struct ast_stmt *v, size_t n);

/* `use std/base`: a fragment name is a relative path without `..`. */
static int fragment_name_ok(const char *n)
{
	const char *p;

	if (!*n || *n == '/' || strlen(n) > 200)
		return 0;
	for (p = n; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= '0' && *p <= '9') &&
		    *p != '_' && *p != '-' && *p != '/' && *p != '.')
			return 0;
	return !strstr(n, "..") && !strstr(n, "//") && n[strlen(n) - 1] != '/';
}

static void load_file(struct sema *s, const char *path, struct loc from,
		      int is_main);

static void use(struct sema *s, const struct ast_stmt *st)
{
	const struct ast_word *w;
	char path[PATH_MAX];
	size_t i;

	if (st->nwords != 2 || st->words[1].kind != AST_WORD || st->cond ||
	    st->has_block) {
		diag_error(s->d, st->loc,
			   "expected 'use NAME', e.g. 'use std/base'");
		return;
	}
	w = &st->words[1];
	if (!fragment_name_ok(w->text)) {
		diag_error(
		    s->d, w->loc,
		    "bad fragment name '%s' (lower-case letters, digits, "
		    "'_', '-', '/'; no '..')",
		    w->text);
		return;
	}
	for (i = 0; i < s->opts->nsearch; i++) {
		int n = snprintf(path, sizeof(path), "%s/%s.pol",
				 s->opts->search[i], w->text);

		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		if (access(path, R_OK) == 0) {
			load_file(s, path, w->loc, 0);
			return;
		}
	}
	diag_error(s->d, w->loc,
		   "fragment '%s' not found in the search path (-I, POLC_PATH, "
		   "the standard library)",
		   w->text);
}

/* landlock [abi >= N] require|best_effort */
static void landlock(struct sema *s, const struct ast_stmt *st)
{
	static const char *const modes[] = {"best_effort", "require"};
	const struct ast_word *w = st->words;
	size_t n = st->nwords, i = 1;
	long long abi = 1;

	if (st->cond || st->has_block)
		goto syntax;
	if (n == 5 && !strcmp(w[1].text, "abi") && w[2].kind == AST_OP &&
	    !strcmp(w[2].text, ">=")) {
		if (sema_number(s, &w[3], &abi))
			return;
		if (abi < 1 || abi > 64) {
			diag_error(s->d, w[3].loc,
				   "Landlock ABI %lld out of range 1..64", abi);
			return;
		}
		i = 4;
	}
	if (i + 1 != n || w[i].kind != AST_WORD)
		goto syntax;
	if (strcmp(w[i].text, "best_effort") && strcmp(w[i].text, "require")) {
		sema_unknown(s, &w[i], "landlock mode", modes, 2);
		return;
	}
	if (sema_once(s, &s->landlock, st->loc, "landlock requirement"))
		return;
	s->p->landlock.present = 1;
	s->p->landlock.abi_min = (uint32_t)abi;
	s->p->landlock.mode =
	    !strcmp(w[i].text, "require") ? IR_LL_REQUIRE : IR_LL_BEST_EFFORT;
	return;
syntax:
	diag_error(s->d, st->loc,
		   "expected 'landlock [abi >= N] require|best_effort'");
}

static void body(struct sema *s, const struct ast_stmt *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ast_stmt *st = &v[i];
		const struct ast_word *k = &st->words[0];

		if (k->kind != AST_WORD) {
			diag_error(s->d, k->loc, "expected a section name");
			continue;
		}
		if (!strcmp(k->text, "use"))
			use(s, st);
		else if (!strcmp(k->text, "landlock"))
			landlock(s, st);
		else if (!strcmp(k->text, "fs"))
			sema_fs(s, st);
		else if (!strcmp(k->text, "net"))
			sema_net(s, st);
		else if (!strcmp(k->text, "syscalls"))
			sema_syscalls(s, st);
		else if (!strcmp(k->text, "limits"))
			sema_limits(s, st);
		else if (!strcmp(k->text, "env"))
			sema_env(s, st);
		else
			sema_unknown(s, k, "section", top_keys,
				     sizeof(top_keys) / sizeof(*top_keys));
	}
}

/* The file must hold exactly one `policy "name" { }` (or a fragment). */
static void file_top(struct sema *s, const struct ast_file *f, int is_main,
		     struct loc from)
{
	const char *want = is_main ? "policy" : "fragment";
	const struct ast_stmt *st;
	struct loc start = {f->src, 1, 1};
	int outer;

	if (f->nstmts == 0) {
		diag_error(s->d, start,
			   "empty file: expected '%s \"name\" { ... }'", want);
		return;
	}
	if (f->nstmts > 1) {
		diag_error(s->d, f->stmts[1].loc,
			   "only one %s per file; this statement is outside it",
			   want);
		return;
	}
	st = &f->stmts[0];
	if (st->words[0].kind != AST_WORD || strcmp(st->words[0].text, want) ||
	    st->nwords != 2 || st->words[1].kind != AST_STRING ||
	    !st->has_block || st->cond) {
		if (st->words[0].kind == AST_WORD &&
		    !strcmp(st->words[0].text, is_main ? "fragment" : "policy"))
			diag_error(s->d, st->loc,
				   is_main ? "a fragment cannot be compiled on "
					     "its own; 'use' it from a policy"
					   : "a used file must be a fragment, "
					     "not a policy");
		else
			diag_error(s->d, st->loc,
				   "expected '%s \"name\" { ... }'", want);
		if (!is_main && from.file)
			diag_note(s->d, from, "used here");
		return;
	}
	if (!*st->words[1].text || strlen(st->words[1].text) > 128 ||
	    ir_has_control(st->words[1].text)) {
		diag_error(s->d, st->words[1].loc,
			   "a %s name is 1 to 128 characters, none a control "
			   "character",
			   want);
		return;
	}
	if (is_main) {
		s->p->name = strdup(st->words[1].text);
		if (!s->p->name)
			s->oom = 1;
	}
	outer = s->in_fragment;
	s->in_fragment = !is_main;
	body(s, st->children, st->nchildren);
	s->in_fragment = outer;
}

static void parse_and_walk(struct sema *s, const struct src_file *src,
			   int is_main, struct loc from)
{
	struct ast_file *f;

	if (!src)
		return;
	if (ast_parse(s->d, src, &f))
		return;
	file_top(s, f, is_main, from);
	ast_file_destroy(&f);
}

static void load_file(struct sema *s, const char *path, struct loc from,
		      int is_main)
{
	char *real = realpath(path, NULL);
	size_t i;

	if (!real) {
		diag_error(s->d, from, "cannot resolve %s", path);
		return;
	}
	/* A fragment used twice (a diamond) is merged once. */
	for (i = 0; i < s->nused; i++) {
		if (!strcmp(s->used[i], real)) {
			free(real);
			return;
		}
	}
	/* The main file is depth 1: eight nested uses below it are fine. */
	if (s->use_depth > SEMA_MAX_USE_DEPTH) {
		diag_error(s->d, from, "'use' nested deeper than %d",
			   SEMA_MAX_USE_DEPTH);
		free(real);
		return;
	}
	if (sema_grow(s, (void **)&s->used, &s->capused, s->nused,
		      sizeof(char *))) {
		free(real);
		return;
	}
	s->used[s->nused++] = real;
	s->use_depth++;
	parse_and_walk(s, diag_load_file(s->d, path, from), is_main, from);
	s->use_depth--;
}

/* Every lint before any move: the lints read what the moves take away. */
static int sema_finish_fs_net_env(struct sema *s)
{
	struct ir_policy *p = s->p;
	size_t i;

	sema_lint_fs(s);
	sema_lint_net(s);
	if (s->oom)
		return -1;

	if (sema_finish_fs(s) || sema_finish_net(s))
		return -1;
	if (s->nenv) {
		p->env.entries = calloc(s->nenv, sizeof(*p->env.entries));
		if (!p->env.entries)
			return -1;
		for (i = 0; i < s->nenv; i++)
			p->env.entries[i] = s->env[i].e;
		p->env.nentries = (uint32_t)s->nenv;
		s->nenv = 0;
	}
	return 0;
}

static int finish(struct sema *s, struct ir_policy **out)
{
	if (!s->oom && s->d->errors == 0 &&
	    (sema_finish_syscalls(s) || sema_finish_fs_net_env(s)))
		s->oom = 1;
	if (s->oom) {
		struct loc none = {0};

		diag_error(s->d, none, "out of memory");
	}
	if (s->d->errors == 0 && ir_canonicalize(s->p) != IR_OK) {
		struct loc none = {0};

		diag_error(s->d, none, "out of memory");
	}
	/* What was not moved into the IR (on errors) is freed here. */
	while (s->nfs)
		free(s->fs[--s->nfs].rule.path);
	while (s->nnet)
		free(s->net[--s->nnet].e.name);
	while (s->nenv) {
		struct ir_env_entry *e = &s->env[--s->nenv].e;

		free(e->name);
		free(e->value);
		free(e->dest);
	}
	free(s->rules);
	free(s->fs);
	free(s->net);
	free(s->env);
	free(s->loopback.v);
	free(s->connect.v);
	free(s->bind.v);
	while (s->nused)
		free(s->used[--s->nused]);
	free(s->used);
	if (s->d->errors) {
		ir_policy_destroy(&s->p);
		return -1;
	}
	*out = s->p;
	return 0;
}

static int start(struct sema *s, struct diag *d, const struct sema_opts *o,
		 struct ir_policy **out)
{
	static const struct sema_opts none;

	memset(s, 0, sizeof(*s));
	*out = NULL;
	s->d = d;
	s->opts = o ? o : &none;
	s->p = ir_policy_create();
	if (!s->p) {
		struct loc l = {0};

		diag_error(d, l, "out of memory");
		return -1;
	}
	return 0;
}

int sema_compile(struct diag *d, const char *path, const struct sema_opts *o,
		 struct ir_policy **out)
{
	struct loc none = {0};
	struct sema s;

	if (start(&s, d, o, out))
		return -1;
	load_file(&s, path, none, 1);
	return finish(&s, out);
}

int sema_compile_text(struct diag *d, const char *name, const char *text,
		      size_t len, const struct sema_opts *o,
		      struct ir_policy **out)
{
	struct sema s;

	if (start(&s, d, o, out))
		return -1;
	parse_and_walk(&s, diag_add_source(d, name, text, len), 1,
		       (struct loc){0});
	return finish(&s, out);
}
