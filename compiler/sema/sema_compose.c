/* SPDX-License-Identifier: MIT */
/*
 * Composition: what happens when several files speak about one key (a
 * syscall, a path, a variable, a setting). Defined here once, for every
 * section (docs/LANGUAGE.md, "Composition: the using file decides"):
 *
 *   - within one file, a key said twice is an error (a slip);
 *   - a file decides over the fragments it uses, directly or not: where
 *     it speaks about a key, what they say about that key does not apply
 *     (a note in the policy names both places);
 *   - files neither of which uses the other may say the same thing (it
 *     merges); if they disagree it is an error naming both, and the
 *     policy settles it by saying it itself.
 *
 * It depends on the `use` graph only, never on the order of statements or
 * of `use` lines. The walk (sema.c) visits a file before every file it
 * uses, so a statement that decides always comes first: a later one is
 * dropped against it, never the other way round.
 */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

static long file_index(const struct sema *s, const struct src_file *f)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		if (s->files[i].src == f)
			return (long)i;
	return -1;
}

int sema_above(const struct sema *s, size_t i, size_t j)
{
	size_t n = s->nfiles;

	return i != j && s->reach && s->reach[i * n + j] &&
	       !s->reach[j * n + i];
}

int sema_decides(const struct sema *s, const struct src_file *a,
		 const struct src_file *b)
{
	long i = file_index(s, a), j = file_index(s, b);

	return i >= 0 && j >= 0 && sema_above(s, (size_t)i, (size_t)j);
}

const struct src_file *sema_main(const struct sema *s)
{
	return s->nfiles ? s->files[0].src : NULL;
}

void sema_compose_begin(struct compose *c, struct loc here)
{
	c->here = here;
	c->at = here;
	c->verdict = SEMA_TAKE;
}

/* Which verdict outweighs which, when several kept statements disagree
 * about the new one: dropped, then said twice, then a conflict. */
static int weight(int verdict)
{
	static const int w[] = {
	    [SEMA_TAKE] = 0, [SEMA_SAME] = 1, [SEMA_CONFLICT] = 2,
	    [SEMA_DUP] = 3,  [SEMA_DROP] = 4,
	};

	return w[verdict];
}

void sema_compose_with(const struct sema *s, struct compose *c, struct loc kept,
		       int same)
{
	int v;

	if (kept.file == c->here.file)
		v = SEMA_DUP;
	else if (sema_decides(s, kept.file, c->here.file))
		v = same ? SEMA_SAME : SEMA_DROP;
	else
		v = same ? SEMA_SAME : SEMA_CONFLICT;
	if (weight(v) > weight(c->verdict)) {
		c->verdict = v;
		c->at = kept;
	}
}

int sema_compose_end(struct sema *s, const struct compose *c, const char *key,
		     const char *thing)
{
	if (c->verdict == SEMA_DROP && c->at.file == sema_main(s))
		sema_replaced(s, c->at, c->here, key, thing);
	return c->verdict;
}

void sema_replaced(struct sema *s, struct loc by, struct loc at,
		   const char *key, const char *thing)
{
	struct replaced *r;

	if (sema_grow(s, (void **)&s->replaced, &s->capreplaced, s->nreplaced,
		      sizeof(*s->replaced)))
		return;
	r = &s->replaced[s->nreplaced];
	r->key = strdup(key);
	if (!r->key) {
		s->oom = 1;
		return;
	}
	r->by = by;
	r->at = at;
	r->thing = thing;
	s->nreplaced++;
}

int sema_loc_cmp(struct loc a, struct loc b)
{
	if (a.file != b.file)
		return !a.file || !b.file	   ? !a.file - !b.file
		       : a.file->seq < b.file->seq ? -1
						   : 1;
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return (a.col > b.col) - (a.col < b.col);
}

static int replaced_cmp(const void *pa, const void *pb)
{
	const struct replaced *a = pa, *b = pb;
	int c = sema_loc_cmp(a->by, b->by);

	return c ? c : sema_loc_cmp(a->at, b->at);
}

void sema_report_replaced(struct sema *s)
{
	size_t i;

	if (s->nreplaced)
		qsort(s->replaced, s->nreplaced, sizeof(*s->replaced),
		      replaced_cmp);
	for (i = 0; i < s->nreplaced; i++) {
		const struct replaced *r = &s->replaced[i];
		int first = !i || sema_loc_cmp(r[-1].by, r->by) ||
			    strcmp(r[-1].key, r->key);

		if (first)
			diag_remark(s->d, r->by,
				    "'%s' is decided by this file, not by the "
				    "fragments it uses",
				    r->key);
		if (first || sema_loc_cmp(r[-1].at, r->at))
			diag_note(s->d, r->at, "this %s no longer applies",
				  r->thing);
	}
	while (s->nreplaced)
		free(s->replaced[--s->nreplaced].key);
}

void sema_other(struct sema *s, struct loc here, struct loc other,
		const char *what)
{
	if (here.file == other.file)
		diag_note(s->d, other, "%s", what);
	else
		diag_note(s->d, other,
			  "%s; neither file uses the other, so the policy "
			  "settles it by saying it itself",
			  what);
}

int sema_once(struct sema *s, struct once *o, struct loc here, const char *what,
	      uint64_t val)
{
	struct compose c;
	size_t i;
	int v;

	sema_compose_begin(&c, here);
	for (i = 0; i < s->nclaims; i++)
		if (s->claims[i].o == o)
			sema_compose_with(s, &c, s->claims[i].loc,
					  s->claims[i].val == val);
	v = sema_compose_end(
	    s, &c, what,
	    o == &s->net_mode ? "net statement, with its rules," : "setting");
	if (v == SEMA_DUP || v == SEMA_CONFLICT) {
		diag_error(s->d, here, "%s given twice", what);
		sema_other(s, here, c.at, "first given here");
		return -1;
	}
	if (v == SEMA_DROP)
		return SEMA_DROP;
	/* Kept, so that a statement it decides over is dropped against it. */
	if (sema_grow(s, (void **)&s->claims, &s->capclaims, s->nclaims,
		      sizeof(*s->claims)))
		return -1;
	s->claims[s->nclaims++] = (struct claim){o, here, val};
	if (v == SEMA_TAKE) {
		o->set = 1;
		o->loc = here;
	}
	return v;
}
