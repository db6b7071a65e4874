// SPDX-License-Identifier: MIT
/*
 * Label resolution and long-jump layout for classic BPF. See bpf_builder.h.
 *
 * Layout is a fixpoint: start with no trampolines, compute every
 * instruction's final position, give a trampoline to each branch that is
 * out of reach, and repeat. Trampolines only ever get added, and adding one
 * only moves targets further away, so the loop ends after at most one round
 * per branch.
 */
#include "bpf_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNBOUND UINT32_MAX
#define JMP_MAX 255u

struct item {
	uint16_t code;
	uint32_t k;
	bpf_label jt, jf; /* cond jumps: both; BPF_JA: jt only */
};

struct bpf_builder {
	struct item *items;
	size_t nitems, cap;
	uint32_t *labels; /* label -> item index, or UNBOUND */
	size_t nlabels, lcap;
	char error[128]; /* first error, sticky */
};

static void _set_error(struct bpf_builder *b, const char *msg)
{
	if (!b->error[0])
		snprintf(b->error, sizeof(b->error), "%s", msg);
}

int bpf_builder_create(struct bpf_builder **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -1;
}

void bpf_builder_destroy(struct bpf_builder **b)
{
	if (!b || !*b)
		return;
	free((*b)->items);
	free((*b)->labels);
	free(*b);
	*b = NULL;
}

bpf_label bpf_label_new(struct bpf_builder *b)
{
	if (b->nlabels == b->lcap) {
		size_t ncap = b->lcap ? 2 * b->lcap : 64;
		uint32_t *nl = realloc(b->labels, ncap * sizeof(*nl));

		if (!nl) {
			_set_error(b, "out of memory");
			/* Label 0 is harmless: finish() fails anyway. */
			return 0;
		}
		b->labels = nl;
		b->lcap = ncap;
	}
	b->labels[b->nlabels] = UNBOUND;
	return (bpf_label)b->nlabels++;
}

int bpf_label_bind(struct bpf_builder *b, bpf_label l)
{
	if (l >= b->nlabels || b->labels[l] != UNBOUND) {
		_set_error(b, "label bound twice or unknown");
		return -1;
	}
	b->labels[l] = (uint32_t)b->nitems;
	return 0;
}

static int _push(struct bpf_builder *b, uint16_t code, uint32_t k, bpf_label jt,
		 bpf_label jf)
{
	if (b->error[0])
		return -1;
	if (b->nitems == b->cap) {
		size_t ncap = b->cap ? 2 * b->cap : 256;
		struct item *ni = realloc(b->items, ncap * sizeof(*ni));

		if (!ni) {
			_set_error(b, "out of memory");
			return -1;
		}
		b->items = ni;
		b->cap = ncap;
	}
	b->items[b->nitems++] = (struct item){code, k, jt, jf};
	return 0;
}

int bpf_emit_stmt(struct bpf_builder *b, uint16_t code, uint32_t k)
{
	if (BPF_CLASS(code) == BPF_JMP) {
		_set_error(b, "jump emitted as a statement");
		return -1;
	}
	return _push(b, code, k, 0, 0);
}

int bpf_emit_jump(struct bpf_builder *b, uint16_t code, uint32_t k,
		  bpf_label jt, bpf_label jf)
{
	if (BPF_CLASS(code) != BPF_JMP || BPF_OP(code) == BPF_JA) {
		_set_error(b, "not a conditional jump");
		return -1;
	}
	return _push(b, code, k, jt, jf);
}

int bpf_emit_ja(struct bpf_builder *b, bpf_label l)
{
	return _push(b, BPF_JMP | BPF_JA, 0, l, 0);
}

size_t bpf_builder_count(const struct bpf_builder *b)
{
	return b->nitems;
}

static int _is_cond(const struct item *it)
{
	return BPF_CLASS(it->code) == BPF_JMP && BPF_OP(it->code) != BPF_JA;
}

static int _is_ja(const struct item *it)
{
	return it->code == (BPF_JMP | BPF_JA);
}

static int _is_ret(const struct item *it)
{
	return BPF_CLASS(it->code) == BPF_RET;
}

/* Item index that label `l` of the jump at item `i` designates, or -1. */
static long _target(const struct bpf_builder *b, size_t i, bpf_label l)
{
	if (l == BPF_LABEL_NEXT)
		return (long)i + 1;
	if (l >= b->nlabels || b->labels[l] == UNBOUND)
		return -1;
	return b->labels[l];
}

/* Resolve every label to an item index after i, or fail. */
static int _resolve(struct bpf_builder *b, size_t (*tgt)[2])
{
	for (size_t i = 0; i < b->nitems; i++) {
		const struct item *it = &b->items[i];
		int nb = _is_cond(it) ? 2 : _is_ja(it) ? 1 : 0;

		for (int br = 0; br < nb; br++) {
			long t = _target(b, i, br ? it->jf : it->jt);

			if (t < 0) {
				_set_error(b, "jump to an unbound label");
				return -1;
			}
			if ((size_t)t <= i || (size_t)t >= b->nitems) {
				_set_error(b, "jump backwards or past the end");
				return -1;
			}
			tgt[i][br] = (size_t)t;
		}
	}
	return 0;
}

/* Trampolines placed after item i: jt and jf share one if both go far to
 * the same place. */
static size_t _ntramp(const uint8_t *far, size_t (*tgt)[2], size_t i)
{
	if (far[i] == 3 && tgt[i][0] == tgt[i][1])
		return 1;
	return (size_t)((far[i] & 1) + ((far[i] >> 1) & 1));
}

static void _positions(const struct bpf_builder *b, const uint8_t *far,
		       size_t (*tgt)[2], size_t *pos)
{
	size_t p = 0;

	for (size_t i = 0; i < b->nitems; i++) {
		pos[i] = p;
		p += 1 + _ntramp(far, tgt, i);
	}
	pos[b->nitems] = p;
}

static struct sock_filter _trampoline(const struct bpf_builder *b,
				      size_t target, const size_t *pos,
				      size_t at)
{
	const struct item *t = &b->items[target];

	if (_is_ret(t))
		return (struct sock_filter)BPF_STMT(t->code, t->k);
	return (struct sock_filter)BPF_JUMP(
	    BPF_JMP | BPF_JA, (uint32_t)(pos[target] - at - 1), 0, 0);
}

static void _emit(const struct bpf_builder *b, const uint8_t *far,
		  size_t (*tgt)[2], const size_t *pos, struct sock_filter *out)
{
	for (size_t i = 0; i < b->nitems; i++) {
		const struct item *it = &b->items[i];
		size_t at = pos[i];
		struct sock_filter *f = &out[at];

		*f = (struct sock_filter)BPF_STMT(it->code, it->k);
		if (_is_ja(it)) {
			/* A jump to a RET is replaced by the RET itself. */
			if (_is_ret(&b->items[tgt[i][0]]))
				*f = _trampoline(b, tgt[i][0], pos, at);
			else
				f->k = (uint32_t)(pos[tgt[i][0]] - at - 1);
			continue;
		}
		if (!_is_cond(it))
			continue;
		size_t slot = at + 1;
		uint8_t off[2];

		for (int br = 0; br < 2; br++) {
			if (!(far[i] & (1u << br))) {
				off[br] = (uint8_t)(pos[tgt[i][br]] - at - 1);
				continue;
			}
			if (br == 1 && (far[i] & 1) && tgt[i][0] == tgt[i][1]) {
				off[1] = off[0];
				continue;
			}
			off[br] = (uint8_t)(slot - at - 1);
			out[slot] = _trampoline(b, tgt[i][br], pos, slot);
			slot++;
		}
		f->jt = off[0];
		f->jf = off[1];
	}
}

int bpf_builder_finish(struct bpf_builder *b, struct sock_filter **prog,
		       size_t *n, char *err, size_t errlen)
{
	size_t(*tgt)[2] = NULL;
	uint8_t *far = NULL;
	size_t *pos = NULL;
	int rc = -1;

	*prog = NULL;
	*n = 0;
	if (!b->error[0] && b->nitems == 0)
		_set_error(b, "empty program");
	if (b->error[0])
		goto out;
	tgt = calloc(b->nitems, sizeof(*tgt));
	far = calloc(b->nitems, 1);
	pos = calloc(b->nitems + 1, sizeof(*pos));
	if (!tgt || !far || !pos) {
		_set_error(b, "out of memory");
		goto out;
	}
	if (_resolve(b, tgt))
		goto out;
	for (int changed = 1; changed;) {
		changed = 0;
		_positions(b, far, tgt, pos);
		for (size_t i = 0; i < b->nitems; i++) {
			if (!_is_cond(&b->items[i]))
				continue;
			for (int br = 0; br < 2; br++) {
				size_t d = pos[tgt[i][br]] - pos[i] - 1;

				if (!(far[i] & (1u << br)) && d > JMP_MAX) {
					far[i] |= (uint8_t)(1u << br);
					changed = 1;
				}
			}
		}
	}
	*prog = calloc(pos[b->nitems], sizeof(**prog));
	if (!*prog) {
		_set_error(b, "out of memory");
		goto out;
	}
	_emit(b, far, tgt, pos, *prog);
	*n = pos[b->nitems];
	rc = 0;
out:
	if (rc && err)
		snprintf(err, errlen, "bpf builder: %s", b->error);
	free(tgt);
	free(far);
	free(pos);
	return rc;
}
