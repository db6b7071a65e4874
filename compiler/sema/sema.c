/* SPDX-License-Identifier: MIT */
/*
 * The semantic pass driver: the file structure (`policy` or `fragment`),
 * `use` through the search path, the top-level settings, and the hand-off
 * to the section passes. Everything is order-independent: the sections
 * collect rules with their locations, and the finishing step checks and
 * merges them, so moving a statement never changes the result.
 *
 * Two phases. First every file is loaded, following `use` from the
 * policy down, which gives the graph of who uses whom. Then the files'
 * statements are walked, each file before every file it uses, so that
 * composition (sema_compose.c) meets a file's statement about a key
 * before those of the fragments it decides over.
 */
#include "sema_int.h"

#include <grp.h>
#include <limits.h>
#include <pwd.h>
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
    "use", "landlock", "fs", "net", "syscalls", "limits", "env", "user",
};

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
		      size_t parent);

static void use(struct sema *s, const struct ast_stmt *st, size_t parent)
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
			load_file(s, path, w->loc, parent);
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
	uint8_t mode;

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
	mode =
	    !strcmp(w[i].text, "require") ? IR_LL_REQUIRE : IR_LL_BEST_EFFORT;
	if (sema_once(s, &s->landlock, st->loc, "landlock requirement",
		      (uint64_t)abi << 8 | mode))
		return;
	s->p->landlock.present = 1;
	s->p->landlock.abi_min = (uint32_t)abi;
	s->p->landlock.mode = mode;
	return;
syntax:
	diag_error(s->d, st->loc,
		   "expected 'landlock [abi >= N] require|best_effort'");
}

/* A uid or gid: a decimal number below 2^32 - 1, or -1. */
static long long id_number(const char *t, size_t n)
{
	long long v = 0;
	size_t i;

	if (n == 0 || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (t[i] < '0' || t[i] > '9')
			return -1;
		v = v * 10 + (t[i] - '0');
	}
	return v < 4294967295ll ? v : -1;
}

/*
 * user UID[:GID] | NAME[:GROUP]. Names are resolved here, on the build
 * machine (docs/VIEW.md): the artifact carries numbers, and the prover
 * compares numbers. A UID alone takes GID = UID; a NAME alone its
 * primary group.
 */
static void user(struct sema *s, const struct ast_stmt *st)
{
	const struct ast_word *w = &st->words[1];
	const char *colon;
	long long uid, gid = -1;
	size_t ulen;

	if (st->nwords != 2 || w->kind != AST_WORD || st->cond ||
	    st->has_block) {
		diag_error(s->d, st->loc,
			   "expected 'user UID[:GID]' or 'user NAME[:GROUP]'");
		return;
	}
	colon = strchr(w->text, ':');
	ulen = colon ? (size_t)(colon - w->text) : strlen(w->text);
	uid = id_number(w->text, ulen);
	if (uid < 0) {
		char name[64];
		struct passwd *pw;

		if (ulen == 0 || ulen >= sizeof(name)) {
			diag_error(s->d, w->loc, "bad user '%s'", w->text);
			return;
		}
		memcpy(name, w->text, ulen);
		name[ulen] = '\0';
		pw = getpwnam(name);
		if (!pw) {
			diag_error(s->d, w->loc,
				   "no user '%s' on this machine (polc "
				   "resolves names when it builds; give the "
				   "number instead)",
				   name);
			return;
		}
		uid = pw->pw_uid;
		gid = pw->pw_gid;
	} else if (!colon) {
		gid = uid;
	}
	if (colon) {
		gid = id_number(colon + 1, strlen(colon + 1));
		if (gid < 0) {
			struct group *gr =
			    colon[1] ? getgrnam(colon + 1) : NULL;

			if (!gr) {
				diag_error(s->d, w->loc,
					   "no group '%s' on this machine "
					   "(give the number instead)",
					   colon + 1);
				return;
			}
			gid = gr->gr_gid;
		}
	}
	if (uid >= 4294967295ll || gid < 0 || gid >= 4294967295ll) {
		diag_error(s->d, w->loc, "user '%s' out of range", w->text);
		return;
	}
	if (sema_once(s, &s->user, st->loc, "user",
		      (uint64_t)uid << 32 | (uint64_t)gid) != SEMA_TAKE)
		return;
	s->p->user.present = 1;
	s->p->user.uid = (uint32_t)uid;
	s->p->user.gid = (uint32_t)gid;
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
			continue; /* followed when the files were loaded */
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
		else if (!strcmp(k->text, "user"))
			user(s, st);
		else
			sema_unknown(s, k, "section", top_keys,
				     sizeof(top_keys) / sizeof(*top_keys));
	}
}

/*
 * The file must hold exactly one `policy "name" { }` (or a fragment).
 * Returns its statements, or NULL (with *n 0) after reporting.
 */
static const struct ast_stmt *file_top(struct sema *s, const struct ast_file *f,
				       int is_main, struct loc from, size_t *n)
{
	const char *want = is_main ? "policy" : "fragment";
	const struct ast_stmt *st;
	struct loc start = {f->src, 1, 1};

	*n = 0;
	if (f->nstmts == 0) {
		diag_error(s->d, start,
			   "empty file: expected '%s \"name\" { ... }'", want);
		return NULL;
	}
	if (f->nstmts > 1) {
		diag_error(s->d, f->stmts[1].loc,
			   "only one %s per file; this statement is outside it",
			   want);
		return NULL;
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
		return NULL;
	}
	if (!*st->words[1].text || strlen(st->words[1].text) > 128 ||
	    ir_has_control(st->words[1].text)) {
		diag_error(s->d, st->words[1].loc,
			   "a %s name is 1 to 128 characters, none a control "
			   "character",
			   want);
		return NULL;
	}
	if (is_main) {
		s->p->name = strdup(st->words[1].text);
		if (!s->p->name)
			s->oom = 1;
	}
	*n = st->nchildren;
	return st->children;
}

static int add_edge(struct sema *s, size_t from, size_t to)
{
	if (sema_grow(s, (void **)&s->edges, &s->capedges, s->nedges,
		      sizeof(*s->edges)))
		return -1;
	s->edges[s->nedges++] = (struct sema_edge){from, to};
	return 0;
}

/*
 * Parses files[i] (from src) and loads the fragments its `use`
 * statements name, depth first.
 */
static void load_src(struct sema *s, size_t i, const struct src_file *src,
		     struct loc from)
{
	const struct ast_stmt *body;
	struct ast_file *f;
	size_t n, k;

	s->files[i].src = src;
	if (src && !ast_parse(s->d, src, &f)) {
		s->files[i].ast = f;
		body = file_top(s, f, i == 0, from, &n);
		s->files[i].body = body;
		s->files[i].nbody = n;
		for (k = 0; k < n; k++)
			if (body[k].words[0].kind == AST_WORD &&
			    !strcmp(body[k].words[0].text, "use"))
				use(s, &body[k], i);
	}
}

/* Adds a file to s->files; its index, or -1 (OOM noted). */
static long new_file(struct sema *s, char *real)
{
	if (sema_grow(s, (void **)&s->files, &s->capfiles, s->nfiles,
		      sizeof(*s->files)))
		return -1;
	memset(&s->files[s->nfiles], 0, sizeof(*s->files));
	s->files[s->nfiles].real = real;
	return (long)s->nfiles++;
}

/* `parent` is the using file's index; ignored for the policy itself. */
static void load_file(struct sema *s, const char *path, struct loc from,
		      size_t parent)
{
	char *real = realpath(path, NULL);
	size_t i;
	long k;

	if (!real) {
		diag_error(s->d, from, "cannot resolve %s", path);
		return;
	}
	/* A fragment used twice (a diamond) is merged once. */
	for (i = 0; i < s->nfiles; i++) {
		if (s->files[i].real && !strcmp(s->files[i].real, real)) {
			free(real);
			if (i == 0)
				diag_error(s->d, from,
					   "a used file must be a fragment, "
					   "not a policy");
			else
				add_edge(s, parent, i);
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
	k = new_file(s, real);
	if (k < 0) {
		free(real);
		return;
	}
	if (k > 0 && add_edge(s, parent, (size_t)k))
		return;
	s->use_depth++;
	load_src(s, (size_t)k, diag_load_file(s->d, path, from), from);
	s->use_depth--;
}

static int edge_cmp(const void *pa, const void *pb)
{
	const struct sema_edge *a = pa, *b = pb;

	return (a->from > b->from) - (a->from < b->from);
}

/* reach[i * n + j]: files[i] uses files[j], directly or through others. */
static int compute_reach(struct sema *s)
{
	size_t n = s->nfiles, i, e, *stack, *first;
	unsigned char *r;

	if (!n)
		return 0;
	r = calloc(n, n);
	stack = malloc(n * sizeof(*stack));
	first = calloc(n + 1, sizeof(*first));
	if (!r || !stack || !first) {
		free(r);
		free(stack);
		free(first);
		s->oom = 1;
		return -1;
	}
	/* The edges of files[f] are edges[first[f] .. first[f + 1]). */
	if (s->nedges)
		qsort(s->edges, s->nedges, sizeof(*s->edges), edge_cmp);
	for (e = 0; e < s->nedges; e++)
		first[s->edges[e].from + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	for (i = 0; i < n; i++) {
		size_t top = 0;

		stack[top++] = i;
		while (top) {
			size_t f = stack[--top];

			for (e = first[f]; e < first[f + 1]; e++) {
				size_t t = s->edges[e].to;

				if (r[i * n + t])
					continue;
				r[i * n + t] = 1;
				stack[top++] = t;
			}
		}
	}
	free(stack);
	free(first);
	s->reach = r;
	return 0;
}

/*
 * Walks every file's statements: each file before every file it uses
 * (sema_compose.c relies on it), otherwise in the order they were loaded,
 * so that of two fragments the one used first is met first.
 */
static void walk(struct sema *s)
{
	size_t n = s->nfiles, i, j, k, *nabove;
	unsigned char *done;

	if (!n || compute_reach(s))
		return;
	nabove = calloc(n, sizeof(*nabove));
	done = calloc(n, 1);
	if (!nabove || !done) {
		s->oom = 1;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			nabove[j] += (size_t)sema_above(s, i, j);
	for (k = 0; k < n; k++) {
		/* One exists: sema_above() is a strict partial order. */
		for (i = 0; i < n && (done[i] || nabove[i]); i++)
			;
		if (i == n)
			break;
		done[i] = 1;
		for (j = 0; j < n; j++)
			nabove[j] -= (size_t)sema_above(s, i, j);
		s->in_fragment = i != 0; /* files[0] is the policy */
		body(s, s->files[i].body, s->files[i].nbody);
	}
	s->in_fragment = 0;
out:
	free(nabove);
	free(done);
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
		for (i = 0; i < s->nenv; i++) {
			struct ir_env_entry *e = &s->env[i].e;

			if (!s->env[i].restated) {
				p->env.entries[p->env.nentries++] = *e;
				continue;
			}
			free(e->name);
			free(e->value);
			free(e->dest);
		}
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
	if (s->d->errors == 0)
		sema_report_replaced(s);
	while (s->nreplaced)
		free(s->replaced[--s->nreplaced].key);
	free(s->replaced);
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
	while (s->nfiles) {
		struct sema_file *f = &s->files[--s->nfiles];

		free(f->real);
		if (f->ast)
			ast_file_destroy(&f->ast);
	}
	free(s->files);
	free(s->edges);
	free(s->reach);
	free(s->claims);
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
	load_file(&s, path, none, 0);
	walk(&s);
	return finish(&s, out);
}

int sema_compile_text(struct diag *d, const char *name, const char *text,
		      size_t len, const struct sema_opts *o,
		      struct ir_policy **out)
{
	struct sema s;

	if (start(&s, d, o, out))
		return -1;
	if (new_file(&s, NULL) == 0)
		load_src(&s, 0, diag_add_source(d, name, text, len),
			 (struct loc){0});
	walk(&s);
	return finish(&s, out);
}
