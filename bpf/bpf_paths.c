// SPDX-License-Identifier: MIT
/*
 * The solver-free path explorer of bpf_paths.h. The semantics of each
 * instruction are those of bpf_interp.c (the reference); the fragment is
 * small enough that they are spelled out here directly.
 */
#include "bpf_paths.h"

#include <linux/seccomp.h>

/* The accumulator: the constant c, or (word & mask) when sym. */
struct acc {
	int sym;
	uint32_t c;
	uint8_t word;
	uint32_t mask;
};

struct walk {
	const struct sock_filter *prog;
	size_t n;
	const struct bpf_paths_in *in;
	struct ws_set *s;
	size_t max_paths, paths;
	bpf_paths_leaf_fn leaf;
	void *user;
};

static struct acc _const(uint32_t c)
{
	return (struct acc){0, c, 0, 0};
}

static int _walk(struct walk *w, size_t pc, struct acc a);

/* The literals a jump's two outcomes add, for a symbolic accumulator. */
static void _lits(const struct acc *a, const struct sock_filter *f,
		  struct ws_lit *yes, struct ws_lit *no)
{
	static const uint8_t op[][2] = {
	    [BPF_JEQ >> 4] = {WS_EQ, WS_NE},
	    [BPF_JGT >> 4] = {WS_GT, WS_LE},
	    [BPF_JGE >> 4] = {WS_GE, WS_LT},
	};

	if (BPF_OP(f->code) == BPF_JSET) {
		/* Some bit of k set in (W & M): (W & (M & k)) != 0. */
		*yes = (struct ws_lit){a->word, WS_NE, a->mask & f->k, 0};
		*no = (struct ws_lit){a->word, WS_EQ, a->mask & f->k, 0};
		return;
	}
	*yes = (struct ws_lit){a->word, op[BPF_OP(f->code) >> 4][0], a->mask,
			       f->k};
	*no = (struct ws_lit){a->word, op[BPF_OP(f->code) >> 4][1], a->mask,
			      f->k};
}

/* Follow each outcome of a jump on a symbolic accumulator if feasible. */
static int _fork(struct walk *w, size_t pc, struct acc a)
{
	const struct sock_filter *f = &w->prog[pc];
	struct ws_lit lit[2];
	size_t to[2] = {pc + 1 + f->jt, pc + 1 + f->jf};

	_lits(&a, f, &lit[0], &lit[1]);
	for (int i = 0; i < 2; i++) {
		size_t mark = ws_set_mark(w->s);
		int r = ws_set_add(w->s, &lit[i]);

		if (r == WS_UNSAT)
			continue;
		if (r != WS_SAT)
			return r;
		r = _walk(w, to[i], a);
		ws_set_undo(w->s, mark);
		if (r)
			return r;
	}
	return 0;
}

static int _cond(const struct sock_filter *f, uint32_t a)
{
	switch (BPF_OP(f->code)) {
	case BPF_JEQ:
		return a == f->k;
	case BPF_JGT:
		return a > f->k;
	case BPF_JGE:
		return a >= f->k;
	default:
		return (a & f->k) != 0;
	}
}

static int _leaf(struct walk *w, uint32_t ret)
{
	if (++w->paths > w->max_paths)
		return BPF_PATHS_LIMIT;
	return w->leaf(w->s, ret, w->user);
}

static int _walk(struct walk *w, size_t pc, struct acc a)
{
	for (; pc < w->n; pc++) {
		const struct sock_filter *f = &w->prog[pc];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k % 4 || f->k >= sizeof(struct seccomp_data))
				return BPF_PATHS_OUTSIDE;
			if (f->k == 0 && w->in->nr_fixed)
				a = _const(w->in->nr);
			else if (f->k == 4 && w->in->arch_fixed)
				a = _const(w->in->arch);
			else
				a = (struct acc){1, 0, (uint8_t)(f->k / 4),
						 ~0u};
			break;
		case BPF_LD | BPF_IMM:
			a = _const(f->k);
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = _const(sizeof(struct seccomp_data));
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			if (!a.sym)
				a.c &= f->k;
			else if (!(a.mask &= f->k))
				a = _const(0); /* no bit of the word left */
			break;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			if (a.sym)
				return _fork(w, pc, a);
			pc += _cond(f, a.c) ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return _leaf(w, f->k);
		case BPF_RET | BPF_A:
			if (a.sym)
				return BPF_PATHS_OUTSIDE;
			return _leaf(w, a.c);
		default:
			return BPF_PATHS_OUTSIDE;
		}
	}
	/* bpf_check() makes this unreachable: the last insn is a RET. */
	return BPF_PATHS_OUTSIDE;
}

int bpf_paths_explore(const struct sock_filter *prog, size_t n,
		      const struct bpf_paths_in *in, struct ws_set *s,
		      size_t max_paths, bpf_paths_leaf_fn leaf, void *user)
{
	struct walk w = {prog, n, in, s, max_paths, 0, leaf, user};

	/* The kernel starts with A = 0. */
	return _walk(&w, 0, _const(0));
}
