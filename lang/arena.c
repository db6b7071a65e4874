/* SPDX-License-Identifier: MIT */
#include "parse_ctx.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

#define ARENA_BLOCK (64u * 1024u)

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	size_t need =
	    (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (need < n) {
		a->oom = 1;
		return NULL;
	}
	if (!b || b->cap - b->used < need) {
		size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b) {
			a->oom = 1;
			return NULL;
		}
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += need;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

void *vec_push(struct arena *a, struct vec *v, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4;
		void *nv;

		if (cap > SIZE_MAX / size) {
			a->oom = 1;
			return NULL;
		}
		nv = arena_alloc(a, cap * size);
		if (!nv)
			return NULL;
		if (v->n)
			memcpy(nv, v->v, v->n * size);
		v->v = nv;
		v->cap = cap;
	}
	return (char *)v->v + size * v->n++;
}

struct loc parse_loc(const struct parse_ctx *c, int line, int col)
{
	struct loc l = {c->src, line, col};

	return l;
}
