/* SPDX-License-Identifier: MIT */
/* The limits and env sections. */
#include "sema_int.h"
#include "sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum unit { U_SIZE, U_COUNT, U_TIME };

static const struct {
	const char *name;
	enum ir_limit lim;
	enum unit unit;
} limit_keys[] = {
    {"memory", IR_LIM_MEMORY, U_SIZE},	{"pids", IR_LIM_PIDS, U_COUNT},
    {"nofile", IR_LIM_NOFILE, U_COUNT}, {"cpu", IR_LIM_CPU, U_TIME},
    {"wall", IR_LIM_WALL, U_TIME},	{"fsize", IR_LIM_FSIZE, U_SIZE},
    {"core", IR_LIM_CORE, U_SIZE},	{"grace", IR_LIM_GRACE, U_TIME},
};

#define NLIMITS (sizeof(limit_keys) / sizeof(*limit_keys))

static void limit_pair(struct sema *s, const struct ast_word *k,
		       const struct ast_word *v)
{
	const char *cands[NLIMITS];
	uint64_t x = 0;
	long long n;
	size_t i;

	for (i = 0; i < NLIMITS; i++) {
		cands[i] = limit_keys[i].name;
		if (k->kind == AST_WORD && !strcmp(k->text, cands[i]))
			break;
	}
	if (i == NLIMITS) {
		sema_unknown(s, k, "limit", cands, NLIMITS);
		return;
	}
	switch (limit_keys[i].unit) {
	case U_SIZE:
		if (sema_size(s, v, &x))
			return;
		break;
	case U_TIME:
		if (sema_duration(s, v, &x))
			return;
		break;
	case U_COUNT:
		if (sema_number(s, v, &n))
			return;
		if (n < 1 || n > (1ll << 31)) {
			diag_error(s->d, v->loc, "%s must be 1..2^31", k->text);
			return;
		}
		x = (uint64_t)n;
		break;
	}
	if ((limit_keys[i].unit == U_SIZE && x > POLBIN_LIMITS_MAX_BYTES) ||
	    (limit_keys[i].unit == U_TIME && x > POLBIN_LIMITS_MAX_MS)) {
		diag_error(s->d, v->loc, "%s is too large (at most %s)",
			   k->text,
			   limit_keys[i].unit == U_SIZE
			       ? "1048576TiB"
			       : "1099511627776ms, about 34 years");
		return;
	}
	if (x == 0 && limit_keys[i].lim != IR_LIM_CORE) {
		diag_error(s->d, v->loc,
			   "%s 0 would stop everything; omit the limit to "
			   "leave it unset",
			   k->text);
		return;
	}
	if (sema_once(s, &s->limit[limit_keys[i].lim], k->loc, k->text, x))
		return;
	s->p->limits.set |= 1u << limit_keys[i].lim;
	s->p->limits.value[limit_keys[i].lim] = x;
}

/*
 * limits [require|best_effort] { NAME VALUE ... }
 *
 * The mode says what polexec does with a limit it cannot enforce at full
 * strength (memory or pids without a cgroup): best_effort (the default)
 * degrades with a warning, require refuses. A stated mode is a setting
 * given once across all files.
 */
void sema_limits(struct sema *s, const struct ast_stmt *st)
{
	static const char *const modes[] = {"best_effort", "require"};
	size_t i, j;

	if (st->nwords > 2 || !st->has_block || st->cond) {
		diag_error(s->d, st->loc,
			   "expected 'limits [require|best_effort] { ... }'");
		return;
	}
	if (st->nwords == 2) {
		const struct ast_word *m = &st->words[1];

		if (m->kind != AST_WORD || (strcmp(m->text, "best_effort") &&
					    strcmp(m->text, "require"))) {
			sema_unknown(s, m, "limits mode", modes, 2);
			return;
		}
		uint8_t mode = !strcmp(m->text, "require")
				   ? IR_LIMITS_REQUIRE
				   : IR_LIMITS_BEST_EFFORT;

		int rc =
		    sema_once(s, &s->limits_mode, m->loc, "limits mode", mode);

		if (rc < 0)
			return;
		if (rc == SEMA_TAKE)
			s->p->limits.mode = mode;
	}
	s->p->limits.present = 1;
	for (i = 0; i < st->nchildren; i++) {
		const struct ast_stmt *c = &st->children[i];

		if (c->cond || c->has_block || c->nwords % 2) {
			diag_error(s->d, c->loc,
				   "expected 'NAME VALUE' pairs, as in "
				   "'memory 2GiB'");
			continue;
		}
		for (j = 0; j < c->nwords; j += 2)
			limit_pair(s, &c->words[j], &c->words[j + 1]);
	}
}

static int secret_dest_conflict(struct sema *s, const struct ast_word *name,
				const struct loc here, const char *dest);

/* A variable is a key of composition (sema_compose.c); `where` is the
 * place of a secret's DEST. */
static int env_add(struct sema *s, const struct ast_word *w, uint8_t kind,
		   const char *value, const char *dest, struct loc where)
{
	struct ir_env_entry *e;
	struct compose c;
	size_t i;
	int v;

	if (!sema_identifier(w->text)) {
		diag_error(s->d, w->loc, "'%s' is not a variable name",
			   w->text);
		return -1;
	}
	sema_compose_begin(&c, w->loc);
	for (i = 0; i < s->nenv; i++) {
		const struct env_src *o = &s->env[i];

		if (!strcmp(o->e.name, w->text))
			sema_compose_with(
			    s, &c, o->loc,
			    o->e.kind == kind &&
				!strcmp(o->e.value ? o->e.value : "",
					value ? value : "") &&
				!strcmp(o->e.dest ? o->e.dest : "",
					dest ? dest : ""));
	}
	v = sema_compose_end(s, &c, w->text, "entry");
	if (v == SEMA_DUP || v == SEMA_CONFLICT) {
		diag_error(s->d, w->loc, "duplicate variable '%s'", w->text);
		sema_other(s, w->loc, c.at, "first given here");
	}
	if (v != SEMA_TAKE && v != SEMA_SAME)
		return -1;
	if (v == SEMA_TAKE && kind == IR_ENV_SECRET &&
	    secret_dest_conflict(s, w, where, dest))
		return -1;
	if (v == SEMA_TAKE && s->nenv >= IR_MAX_ENV) {
		diag_error(s->d, w->loc, "more than %d variables", IR_MAX_ENV);
		return -1;
	}
	if (sema_grow(s, (void **)&s->env, &s->capenv, s->nenv,
		      sizeof(*s->env)))
		return -1;
	e = &s->env[s->nenv].e;
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->name = strdup(w->text);
	e->value = value ? strdup(value) : NULL;
	e->dest = dest ? strdup(dest) : NULL;
	if (!e->name || (value && !e->value) || (dest && !e->dest)) {
		free(e->name);
		free(e->value);
		free(e->dest);
		s->oom = 1;
		return -1;
	}
	s->env[s->nenv].restated = v == SEMA_SAME;
	s->env[s->nenv++].loc = w->loc;
	return 0;
}

static int env_path(struct sema *s, const struct ast_word *w)
{
	if (w->kind != AST_WORD && w->kind != AST_STRING) {
		diag_error(s->d, w->loc, "expected a path");
		return -1;
	}
	if (sema_check_vars(s, w, w->text))
		return -1;
	if (ir_has_control(w->text) || strlen(w->text) >= IR_MAX_STR) {
		diag_error(s->d, w->loc,
			   "bad path: control character or too long");
		return -1;
	}
	if (w->text[0] != '/' && w->text[0] != '$' && w->text[0] != '~') {
		diag_error(s->d, w->loc,
			   "path '%s' must be absolute, or start with ~ or "
			   "${VAR}",
			   w->text);
		return -1;
	}
	return 0;
}

/*
 * Two secrets may not land on one file, nor one inside the other's file:
 * polexec would have to make a file and a folder of one path. Returns -1
 * after reporting both places.
 */
static int secret_dest_conflict(struct sema *s, const struct ast_word *name,
				const struct loc here, const char *dest)
{
	size_t i, n = strlen(dest);

	for (i = 0; i < s->nenv; i++) {
		const struct env_src *o = &s->env[i];
		size_t m;

		if (o->restated || o->e.kind != IR_ENV_SECRET || !o->e.dest ||
		    !strcmp(o->e.name, name->text))
			continue;
		m = strlen(o->e.dest);
		if (!strcmp(o->e.dest, dest)) {
			diag_error(s->d, here,
				   "secrets '%s' and '%s' go to the same file "
				   "'%s'",
				   name->text, o->e.name, dest);
			diag_note(s->d, o->loc, "'%s' given here", o->e.name);
			return -1;
		}
		if ((m < n && !strncmp(o->e.dest, dest, m) && dest[m] == '/') ||
		    (n < m && !strncmp(dest, o->e.dest, n) &&
		     o->e.dest[n] == '/')) {
			diag_error(s->d, here,
				   "secret '%s' at '%s' and secret '%s' at "
				   "'%s': one file would be the other's folder",
				   name->text, dest, o->e.name, o->e.dest);
			diag_note(s->d, o->loc, "'%s' given here", o->e.name);
			return -1;
		}
	}
	return 0;
}

/*
 * secret NAME from file PATH [to DEST]
 *
 * DEST (default /run/secrets/NAME) is where the box finds the content: an
 * absolute path in normal form, inside a folder other than / (polexec
 * mounts a private tmpfs on that folder, see docs/LANGUAGE.md).
 */
static void secret(struct sema *s, const struct ast_stmt *st)
{
	const struct ast_word *w = st->words;
	char dest[160];
	struct loc where;
	const char *d;

	if ((st->nwords != 5 && st->nwords != 7) || strcmp(w[2].text, "from") ||
	    strcmp(w[3].text, "file") ||
	    (st->nwords == 7 && strcmp(w[5].text, "to"))) {
		diag_error(s->d, st->loc,
			   "expected 'secret NAME from file PATH [to PATH]'");
		return;
	}
	if (env_path(s, &w[4]))
		return;
	if (st->nwords == 7) {
		if (env_path(s, &w[6]))
			return;
		if (w[6].text[0] != '/' || !ir_is_path(w[6].text)) {
			diag_error(s->d, w[6].loc,
				   "a secret's place in the box is an absolute "
				   "path in normal form (no '..', '.', '//' or "
				   "trailing '/')");
			return;
		}
		if (strrchr(w[6].text, '/') == w[6].text) {
			diag_error(s->d, w[6].loc,
				   "a secret's place in the box needs a folder "
				   "other than '/', as in /run/secrets/NAME");
			return;
		}
		d = w[6].text;
		where = w[6].loc;
	} else {
		snprintf(dest, sizeof(dest), "/run/secrets/%s", w[1].text);
		d = dest;
		where = w[1].loc;
	}
	env_add(s, &w[1], IR_ENV_SECRET, w[4].text, d, where);
}

void sema_env(struct sema *s, const struct ast_stmt *st)
{
	static const char *const keys[] = {"pass", "set", "secret"};
	size_t i, j;

	if (st->nwords != 1 || !st->has_block || st->cond) {
		diag_error(s->d, st->loc, "expected 'env { ... }'");
		return;
	}
	s->p->env.present = 1;
	for (i = 0; i < st->nchildren; i++) {
		const struct ast_stmt *c = &st->children[i];
		const struct ast_word *w = c->words;

		if (c->cond || c->has_block) {
			diag_error(s->d, c->loc,
				   "env entries take no "
				   "condition or block");
		} else if (!strcmp(w[0].text, "pass")) {
			if (c->nwords < 2)
				diag_error(s->d, c->loc,
					   "expected 'pass NAME...'");
			for (j = 1; j < c->nwords; j++)
				env_add(s, &w[j], IR_ENV_PASS, NULL, NULL,
					w[j].loc);
		} else if (!strcmp(w[0].text, "set")) {
			if (c->nwords != 4 || w[2].kind != AST_OP ||
			    strcmp(w[2].text, "=") ||
			    (w[3].kind != AST_WORD &&
			     w[3].kind != AST_STRING)) {
				diag_error(s->d, c->loc,
					   "expected 'set NAME=VALUE'");
				continue;
			}
			if (sema_check_vars(s, &w[3], w[3].text))
				continue;
			if (strlen(w[3].text) >= IR_MAX_STR) {
				diag_error(s->d, w[3].loc,
					   "value longer than %d bytes",
					   IR_MAX_STR - 1);
				continue;
			}
			env_add(s, &w[1], IR_ENV_SET, w[3].text, NULL,
				w[1].loc);
		} else if (!strcmp(w[0].text, "secret")) {
			secret(s, c);
		} else {
			sema_unknown(s, &w[0], "env entry", keys, 3);
		}
	}
}
