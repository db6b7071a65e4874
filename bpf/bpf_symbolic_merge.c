// SPDX-License-Identifier: MIT
/*
 * The merged symbolic evaluator: one pass over the program in order
 * (classic BPF only jumps forward, so every predecessor of an instruction
 * comes before it), carrying to each instruction the disjunction of the
 * guards that reach it and the merged machine state, a register that
 * differs between incoming paths becoming ite(guard, new, old). The
 * result is ite(guard of RET 1, value 1, ite(guard of RET 2, ...)): the
 * guards of the RETs are exclusive and cover every input.
 *
 * It exists for programs with too many paths for bpf_sym_explore(): a
 * chain of rules that can each fail at one of several tests has a number
 * of paths exponential in the rules, but a size linear in them.
 */
#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "bpf_symbolic_int.h"
#include "bpf_interp.h"

#include <stdlib.h>
#include <string.h>

struct node {
	Z3_ast guard; /* NULL: not reached (yet) */
	struct st st;
};

struct merge {
	struct bpf_sym *s;
	struct node *nodes;
	Z3_ast result;
};

static Z3_ast _and(struct bpf_sym *s, Z3_ast a, Z3_ast b)
{
	Z3_ast both[2] = {a, b};

	return Z3_mk_and(s->ctx, 2, both);
}

static struct val _merge_val(struct bpf_sym *s, Z3_ast g, struct val nv,
			     struct val old)
{
	if (nv.k && old.k && nv.c == old.c)
		return old;
	if (!nv.k && !old.k && Z3_is_eq_ast(s->ctx, nv.t, old.t))
		return old;
	return (struct val){
	    0, 0, Z3_mk_ite(s->ctx, g, bsym_term(s, nv), bsym_term(s, old))};
}

/* Flow (g, st) into instruction t. */
static void _flow(struct merge *m, size_t t, Z3_ast g, const struct st *st)
{
	struct bpf_sym *s = m->s;
	struct node *d = &m->nodes[t];
	Z3_ast both[2];

	if (!d->guard) {
		d->guard = g;
		d->st = *st;
		return;
	}
	d->st.a = _merge_val(s, g, st->a, d->st.a);
	d->st.x = _merge_val(s, g, st->x, d->st.x);
	for (int i = 0; i < BPF_MEMWORDS; i++)
		d->st.mem[i] = _merge_val(s, g, st->mem[i], d->st.mem[i]);
	d->st.loaded |= st->loaded;
	both[0] = d->guard;
	both[1] = g;
	d->guard = Z3_mk_or(s->ctx, 2, both);
}

static void _ret(struct merge *m, Z3_ast g, struct val v)
{
	Z3_ast t = bsym_term(m->s, v);

	m->result = m->result ? Z3_mk_ite(m->s->ctx, g, t, m->result) : t;
}

/* An ALU instruction; returns 0, or -1 when an input may shift >= 32. */
static int _alu(struct merge *m, size_t pc, Z3_ast *g, struct st *st,
		struct val src)
{
	struct bpf_sym *s = m->s;
	unsigned int op = BPF_OP(m->s->prog[pc].code);
	Z3_ast zero;

	if ((op == BPF_LSH || op == BPF_RSH) && !src.k) {
		Z3_ast big = Z3_mk_bvuge(s->ctx, src.t, bpf_sym_u32(s, 32));

		if (bsym_check(s, _and(s, *g, big)) != BPF_SYM_UNSAT)
			return bsym_fail(s, "insn %zu: shift may exceed 31",
					 pc);
	}
	if (op == BPF_DIV && !src.k) {
		/* A zero divisor ends the filter with 0. */
		zero = Z3_mk_eq(s->ctx, src.t, bpf_sym_u32(s, 0));
		_ret(m, _and(s, *g, zero), bsym_const(0));
		*g = _and(s, *g, Z3_mk_not(s->ctx, zero));
	}
	if (st->a.k && src.k)
		st->a = bsym_const(bsym_alu_const(op, st->a.c, src.c));
	else
		st->a = (struct val){0, 0,
				     bsym_alu_term(s, op, bsym_term(s, st->a),
						   bsym_term(s, src))};
	return 0;
}

/* Instruction pc with the merged state that reaches it. */
static int _step(struct merge *m, size_t pc)
{
	struct bpf_sym *s = m->s;
	const struct sock_filter *f = &s->prog[pc];
	struct node *nd = &m->nodes[pc];
	struct st st = nd->st;
	Z3_ast g = nd->guard, cond = NULL;
	struct val src = BPF_SRC(f->code) == BPF_X ? st.x : bsym_const(f->k);
	int c;

	switch (BPF_CLASS(f->code)) {
	case BPF_RET:
		_ret(m, g,
		     BPF_RVAL(f->code) == BPF_A ? st.a : bsym_const(f->k));
		return 0;
	case BPF_LD:
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		bsym_load_store(s, &st, f);
		break;
	case BPF_ALU:
		if (BPF_OP(f->code) == BPF_DIV && src.k && !src.c) {
			_ret(m, g, bsym_const(0));
			return 0;
		}
		if (_alu(m, pc, &g, &st, src))
			return -1;
		break;
	case BPF_MISC:
		if (BPF_MISCOP(f->code) == BPF_TAX)
			st.x = st.a;
		else
			st.a = st.x;
		break;
	case BPF_JMP:
		if (BPF_OP(f->code) == BPF_JA) {
			_flow(m, pc + 1 + f->k, g, &st);
			return 0;
		}
		c = bsym_cond(s, BPF_OP(f->code), st.a, src, &cond);
		if (c >= 0) {
			_flow(m, pc + 1 + (c ? f->jt : f->jf), g, &st);
			return 0;
		}
		_flow(m, pc + 1 + f->jt, _and(s, g, cond), &st);
		_flow(m, pc + 1 + f->jf, _and(s, g, Z3_mk_not(s->ctx, cond)),
		      &st);
		return 0;
	}
	/* bpf_check(): the last instruction is a RET, so pc + 1 < n. */
	_flow(m, pc + 1, g, &st);
	return 0;
}

int bpf_sym_result(struct bpf_sym *s, const struct sock_filter *prog, size_t n,
		   Z3_ast nr, Z3_ast arch, Z3_ast *ret, uint16_t *loaded,
		   char *err, size_t errlen)
{
	struct merge m = {.s = s};
	struct st init = {0};
	int rc = 0;

	s->err = err;
	s->errlen = errlen;
	*ret = NULL;
	*loaded = 0;
	if (bpf_check(prog, n, err, errlen))
		return -1;
	m.nodes = calloc(n, sizeof(*m.nodes));
	if (!m.nodes)
		return bsym_fail(s, "out of memory");
	s->prog = prog;
	s->n = n;
	s->cur_nr = nr;
	s->cur_arch = arch;
	init.a = init.x = bsym_const(0);
	for (int i = 0; i < BPF_MEMWORDS; i++)
		init.mem[i] = bsym_const(0);
	_flow(&m, 0, Z3_mk_true(s->ctx), &init);
	for (size_t pc = 0; pc < n && !rc; pc++) {
		if (!m.nodes[pc].guard)
			continue;
		*loaded |= m.nodes[pc].st.loaded;
		rc = _step(&m, pc);
	}
	free(m.nodes);
	if (!rc && Z3_get_error_code(s->ctx) != Z3_OK)
		rc = bsym_fail(
		    s, "Z3: %s",
		    Z3_get_error_msg(s->ctx, Z3_get_error_code(s->ctx)));
	if (!rc)
		*ret = m.result;
	return rc;
}
