// SPDX-License-Identifier: MIT
/*
 * Path-by-path symbolic execution of seccomp classic BPF; see
 * bpf_symbolic.h. The instruction semantics mirror bpf_interp.c, which is
 * the reference: the unit tests compare both on concrete inputs.
 *
 * The context is a plain (not reference-counted) Z3 context: every term
 * lives until bpf_sym_destroy(), which keeps the exploration free of
 * reference bookkeeping. A validation run makes a few thousand terms.
 */
#include "z3_lazy.h" /* before anything that includes <z3.h> */
#include "bpf_symbolic.h"
#include "bpf_symbolic_int.h"
#include "bpf_interp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_PATHS (1u << 16)

int bsym_fail(struct bpf_sym *s, const char *fmt, ...)
{
	va_list ap;

	if (s->err && s->errlen) {
		va_start(ap, fmt);
		vsnprintf(s->err, s->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int bpf_sym_create(struct bpf_sym **out, unsigned int timeout_ms, char *err,
		   size_t errlen)
{
	struct bpf_sym *s = calloc(1, sizeof(*s));
	Z3_config cfg;
	Z3_params params;
	char name[8];

	*out = NULL;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (z3_lazy_load(err, errlen)) {
		free(s);
		return -1;
	}
	cfg = Z3_mk_config();
	if (!cfg) {
		free(s);
		snprintf(err, errlen, "cannot create a Z3 configuration");
		return -1;
	}
	Z3_set_param_value(cfg, "model", "true");
	s->ctx = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	if (!s->ctx) {
		free(s);
		snprintf(err, errlen, "cannot create a Z3 context");
		return -1;
	}
	/* No handler: Z3 records errors and we read them, it never exits. */
	Z3_set_error_handler(s->ctx, NULL);
	s->bv32 = Z3_mk_bv_sort(s->ctx, 32);
	s->bv64 = Z3_mk_bv_sort(s->ctx, 64);
	for (unsigned int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "arg%u", i);
		s->args[i] = Z3_mk_const(
		    s->ctx, Z3_mk_string_symbol(s->ctx, name), s->bv64);
	}
	s->ip = Z3_mk_const(s->ctx, Z3_mk_string_symbol(s->ctx, "ip"), s->bv64);
	s->nr = Z3_mk_const(s->ctx, Z3_mk_string_symbol(s->ctx, "nr"), s->bv32);
	s->arch =
	    Z3_mk_const(s->ctx, Z3_mk_string_symbol(s->ctx, "arch"), s->bv32);
	s->solver = Z3_mk_solver(s->ctx);
	Z3_solver_inc_ref(s->ctx, s->solver);
	params = Z3_mk_params(s->ctx);
	Z3_params_inc_ref(s->ctx, params);
	Z3_params_set_uint(s->ctx, params,
			   Z3_mk_string_symbol(s->ctx, "timeout"), timeout_ms);
	Z3_solver_set_params(s->ctx, s->solver, params);
	Z3_params_dec_ref(s->ctx, params);
	s->max_paths = DEFAULT_MAX_PATHS;
	s->cur_nr = s->nr;
	s->cur_arch = s->arch;
	if (Z3_get_error_code(s->ctx) != Z3_OK) {
		snprintf(err, errlen, "Z3 setup failed: %s",
			 Z3_get_error_msg(s->ctx, Z3_get_error_code(s->ctx)));
		bpf_sym_destroy(&s);
		return -1;
	}
	*out = s;
	return 0;
}

void bpf_sym_destroy(struct bpf_sym **s)
{
	if (!s || !*s)
		return;
	if ((*s)->solver)
		Z3_solver_dec_ref((*s)->ctx, (*s)->solver);
	Z3_del_context((*s)->ctx);
	free(*s);
	*s = NULL;
}

Z3_context bpf_sym_ctx(struct bpf_sym *s)
{
	return s->ctx;
}

Z3_ast bpf_sym_arg(struct bpf_sym *s, unsigned int i)
{
	return i < 6 ? s->args[i] : NULL;
}

Z3_ast bpf_sym_ip(struct bpf_sym *s)
{
	return s->ip;
}

Z3_ast bpf_sym_nr(struct bpf_sym *s)
{
	return s->nr;
}

Z3_ast bpf_sym_arch(struct bpf_sym *s)
{
	return s->arch;
}

Z3_ast bpf_sym_u32(struct bpf_sym *s, uint32_t v)
{
	return Z3_mk_unsigned_int(s->ctx, v, s->bv32);
}

Z3_ast bpf_sym_u64(struct bpf_sym *s, uint64_t v)
{
	return Z3_mk_unsigned_int64(s->ctx, v, s->bv64);
}

void bpf_sym_set_max_paths(struct bpf_sym *s, size_t max)
{
	s->max_paths = max;
}

const char *bpf_sym_reason(struct bpf_sym *s)
{
	return s->reason;
}

Z3_ast bsym_term(struct bpf_sym *s, struct val v)
{
	return v.k ? bpf_sym_u32(s, v.c) : v.t;
}

struct val bsym_const(uint32_t c)
{
	return (struct val){1, c, NULL};
}

/* A 32-bit input term as a value: concrete when it is a numeral. */
static struct val _input(struct bpf_sym *s, Z3_ast t)
{
	unsigned int u;

	if (Z3_is_numeral_ast(s->ctx, t) && Z3_get_numeral_uint(s->ctx, t, &u))
		return bsym_const(u);
	return (struct val){0, 0, t};
}

/* One load or store instruction (bpf_check() vetted its operands). */
void bsym_load_store(struct bpf_sym *s, struct st *st,
		     const struct sock_filter *f)
{
	struct val v;

	if (BPF_CLASS(f->code) == BPF_ST || BPF_CLASS(f->code) == BPF_STX) {
		st->mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? st->a : st->x;
		return;
	}
	if (BPF_MODE(f->code) == BPF_ABS) {
		v = bsym_load(s, f->k);
		st->loaded |= (uint16_t)(1u << (f->k / 4));
	} else if (BPF_MODE(f->code) == BPF_LEN) {
		v = bsym_const(sizeof(struct seccomp_data));
	} else if (BPF_MODE(f->code) == BPF_IMM) {
		v = bsym_const(f->k);
	} else {
		v = st->mem[f->k];
	}
	if (BPF_CLASS(f->code) == BPF_LD)
		st->a = v;
	else
		st->x = v;
}

struct val bsym_load(struct bpf_sym *s, uint32_t off)
{
	Z3_ast wide;

	if (off == BPF_OFF_NR)
		return _input(s, s->cur_nr);
	if (off == BPF_OFF_ARCH)
		return _input(s, s->cur_arch);
	/* bpf_check() guaranteed an aligned word inside seccomp_data. */
	wide = off < BPF_OFF_ARG(0) ? s->ip : s->args[(off - 16) / 8];
	if (off & 4)
		return (struct val){0, 0, Z3_mk_extract(s->ctx, 63, 32, wide)};
	return (struct val){0, 0, Z3_mk_extract(s->ctx, 31, 0, wide)};
}

int bsym_check(struct bpf_sym *s, Z3_ast cond)
{
	Z3_lbool r;

	Z3_solver_push(s->ctx, s->solver);
	Z3_solver_assert(s->ctx, s->solver, cond);
	r = Z3_solver_check(s->ctx, s->solver);
	Z3_solver_pop(s->ctx, s->solver, 1);
	if (r == Z3_L_TRUE)
		return BPF_SYM_SAT;
	if (r == Z3_L_FALSE)
		return BPF_SYM_UNSAT;
	snprintf(s->reason, sizeof(s->reason), "%s",
		 Z3_get_error_code(s->ctx) != Z3_OK
		     ? Z3_get_error_msg(s->ctx, Z3_get_error_code(s->ctx))
		     : Z3_solver_get_reason_unknown(s->ctx, s->solver));
	return BPF_SYM_UNKNOWN;
}

static uint64_t _eval(struct bpf_sym *s, Z3_model m, Z3_ast t)
{
	Z3_ast out = NULL;
	uint64_t v = 0;

	if (Z3_model_eval(s->ctx, m, t, true, &out) && out)
		Z3_get_numeral_uint64(s->ctx, out, &v);
	return v;
}

int bpf_sym_check(struct bpf_sym *s, Z3_ast cond, struct seccomp_data *witness)
{
	Z3_lbool r;
	Z3_model m;
	int rc;

	Z3_solver_push(s->ctx, s->solver);
	Z3_solver_assert(s->ctx, s->solver, cond);
	r = Z3_solver_check(s->ctx, s->solver);
	if (r == Z3_L_TRUE && witness) {
		m = Z3_solver_get_model(s->ctx, s->solver);
		Z3_model_inc_ref(s->ctx, m);
		memset(witness, 0, sizeof(*witness));
		witness->nr = (int)(uint32_t)_eval(s, m, s->cur_nr);
		witness->arch = (uint32_t)_eval(s, m, s->cur_arch);
		witness->instruction_pointer = _eval(s, m, s->ip);
		for (unsigned int i = 0; i < 6; i++)
			witness->args[i] = _eval(s, m, s->args[i]);
		Z3_model_dec_ref(s->ctx, m);
	}
	Z3_solver_pop(s->ctx, s->solver, 1);
	if (r == Z3_L_TRUE)
		rc = BPF_SYM_SAT;
	else if (r == Z3_L_FALSE)
		rc = BPF_SYM_UNSAT;
	else {
		snprintf(s->reason, sizeof(s->reason), "%s",
			 Z3_solver_get_reason_unknown(s->ctx, s->solver));
		rc = BPF_SYM_UNKNOWN;
	}
	return rc;
}

static int _run(struct bpf_sym *s, struct st st, size_t pc);

/*
 * Follow both sides of a symbolic condition, each only when feasible. The
 * current path is feasible, so when one side is not, the other is without
 * asking the solver.
 */
static int _fork(struct bpf_sym *s, const struct st *st, Z3_ast cond,
		 size_t pc_true, size_t pc_false)
{
	Z3_ast ncond = Z3_mk_not(s->ctx, cond);
	int sat_true, sat_false, r = 0;

	sat_true = bsym_check(s, cond);
	if (sat_true == BPF_SYM_UNKNOWN)
		return bsym_fail(s, "solver: %s", s->reason);
	if (sat_true == BPF_SYM_SAT) {
		Z3_solver_push(s->ctx, s->solver);
		Z3_solver_assert(s->ctx, s->solver, cond);
		r = _run(s, *st, pc_true);
		Z3_solver_pop(s->ctx, s->solver, 1);
		if (r)
			return r;
		sat_false = bsym_check(s, ncond);
		if (sat_false == BPF_SYM_UNKNOWN)
			return bsym_fail(s, "solver: %s", s->reason);
		if (sat_false == BPF_SYM_UNSAT)
			return 0;
	}
	Z3_solver_push(s->ctx, s->solver);
	Z3_solver_assert(s->ctx, s->solver, ncond);
	r = _run(s, *st, pc_false);
	Z3_solver_pop(s->ctx, s->solver, 1);
	return r;
}

static int _leaf(struct bpf_sym *s, const struct st *st,
		 const struct sock_filter *f)
{
	struct bpf_sym_path p = {0};
	struct val v = BPF_RVAL(f->code) == BPF_A ? st->a : bsym_const(f->k);

	if (++s->paths > s->max_paths) {
		bsym_fail(s, "more than %zu paths", s->max_paths);
		return BPF_SYM_PATH_LIMIT;
	}
	p.ret_is_const = v.k;
	p.ret = v.c;
	p.ret_term = bsym_term(s, v);
	p.loaded = st->loaded;
	p.executed = st->executed;
	return s->leaf(s, &p, s->user);
}

Z3_ast bsym_alu_term(struct bpf_sym *s, unsigned int op, Z3_ast a, Z3_ast b)
{
	switch (op) {
	case BPF_ADD:
		return Z3_mk_bvadd(s->ctx, a, b);
	case BPF_SUB:
		return Z3_mk_bvsub(s->ctx, a, b);
	case BPF_MUL:
		return Z3_mk_bvmul(s->ctx, a, b);
	case BPF_DIV:
		return Z3_mk_bvudiv(s->ctx, a, b);
	case BPF_AND:
		return Z3_mk_bvand(s->ctx, a, b);
	case BPF_OR:
		return Z3_mk_bvor(s->ctx, a, b);
	case BPF_XOR:
		return Z3_mk_bvxor(s->ctx, a, b);
	case BPF_LSH:
		return Z3_mk_bvshl(s->ctx, a, b);
	case BPF_RSH:
		return Z3_mk_bvlshr(s->ctx, a, b);
	default: /* BPF_NEG */
		return Z3_mk_bvneg(s->ctx, a);
	}
}

uint32_t bsym_alu_const(unsigned int op, uint32_t a, uint32_t b)
{
	switch (op) {
	case BPF_ADD:
		return a + b;
	case BPF_SUB:
		return a - b;
	case BPF_MUL:
		return a * b;
	case BPF_DIV:
		return a / b; /* b != 0: checked by the caller */
	case BPF_AND:
		return a & b;
	case BPF_OR:
		return a | b;
	case BPF_XOR:
		return a ^ b;
	case BPF_LSH:
		return a << b; /* b < 32: checked by the caller */
	case BPF_RSH:
		return a >> b;
	default:
		return -a;
	}
}

/* Result of a comparison: 0/1 when both sides are constant, else -1 with
 * the condition in *cond. */
int bsym_cond(struct bpf_sym *s, unsigned int op, struct val a, struct val b,
	      Z3_ast *cond)
{
	Z3_ast ta, tb;

	if (a.k && b.k) {
		switch (op) {
		case BPF_JEQ:
			return a.c == b.c;
		case BPF_JGT:
			return a.c > b.c;
		case BPF_JGE:
			return a.c >= b.c;
		default:
			return (a.c & b.c) != 0;
		}
	}
	ta = bsym_term(s, a);
	tb = bsym_term(s, b);
	switch (op) {
	case BPF_JEQ:
		*cond = Z3_mk_eq(s->ctx, ta, tb);
		break;
	case BPF_JGT:
		*cond = Z3_mk_bvugt(s->ctx, ta, tb);
		break;
	case BPF_JGE:
		*cond = Z3_mk_bvuge(s->ctx, ta, tb);
		break;
	default:
		*cond = Z3_mk_not(s->ctx,
				  Z3_mk_eq(s->ctx, Z3_mk_bvand(s->ctx, ta, tb),
					   bpf_sym_u32(s, 0)));
		break;
	}
	return -1;
}

/* ALU with a symbolic divisor or shift: the cases the interpreter treats
 * specially (divide by zero ends the filter with 0, shift >= 32 is an
 * error) become explicit branches. Returns 1 when handled by a fork. */
static int _alu_guard(struct bpf_sym *s, struct st *st, unsigned int op,
		      struct val src, size_t pc, int *r)
{
	Z3_ast bad;
	int sat;

	if (src.k || (op != BPF_DIV && op != BPF_LSH && op != BPF_RSH))
		return 0;
	if (op == BPF_DIV)
		bad = Z3_mk_eq(s->ctx, src.t, bpf_sym_u32(s, 0));
	else
		bad = Z3_mk_bvuge(s->ctx, src.t, bpf_sym_u32(s, 32));
	sat = bsym_check(s, bad);
	if (sat == BPF_SYM_UNKNOWN) {
		*r = bsym_fail(s, "solver: %s", s->reason);
		return 1;
	}
	if (sat == BPF_SYM_UNSAT)
		return 0;
	if (op != BPF_DIV) {
		*r = bsym_fail(s, "insn %zu: shift amount may exceed 31", pc);
		return 1;
	}
	/* Divide by zero: a path that returns 0, and one that goes on. */
	struct sock_filter ret0 = BPF_STMT(BPF_RET | BPF_K, 0);

	Z3_solver_push(s->ctx, s->solver);
	Z3_solver_assert(s->ctx, s->solver, bad);
	*r = _leaf(s, st, &ret0);
	Z3_solver_pop(s->ctx, s->solver, 1);
	if (*r)
		return 1;
	bad = Z3_mk_not(s->ctx, bad);
	sat = bsym_check(s, bad);
	if (sat != BPF_SYM_SAT) {
		*r = sat == BPF_SYM_UNSAT
			 ? 0
			 : bsym_fail(s, "solver: %s", s->reason);
		return 1;
	}
	Z3_solver_push(s->ctx, s->solver);
	Z3_solver_assert(s->ctx, s->solver, bad);
	st->a = (struct val){0, 0,
			     bsym_alu_term(s, op, bsym_term(s, st->a), src.t)};
	*r = _run(s, *st, pc + 1);
	Z3_solver_pop(s->ctx, s->solver, 1);
	return 1;
}

static int _run(struct bpf_sym *s, struct st st, size_t pc)
{
	for (; pc < s->n; pc++) {
		const struct sock_filter *f = &s->prog[pc];
		struct val src =
		    BPF_SRC(f->code) == BPF_X ? st.x : bsym_const(f->k);
		Z3_ast cond = NULL;
		int c, r;

		st.executed++;
		switch (BPF_CLASS(f->code)) {
		case BPF_RET:
			return _leaf(s, &st, f);
		case BPF_LD:
		case BPF_LDX:
		case BPF_ST:
		case BPF_STX:
			bsym_load_store(s, &st, f);
			break;
		case BPF_ALU:
			if (_alu_guard(s, &st, BPF_OP(f->code), src, pc, &r))
				return r;
			if (BPF_OP(f->code) == BPF_DIV && src.k && !src.c) {
				struct sock_filter ret0 =
				    BPF_STMT(BPF_RET | BPF_K, 0);
				return _leaf(s, &st, &ret0);
			}
			if ((BPF_OP(f->code) == BPF_LSH ||
			     BPF_OP(f->code) == BPF_RSH) &&
			    src.k && src.c >= 32)
				return bsym_fail(s, "insn %zu: shift by %u", pc,
						 src.c);
			if (st.a.k && src.k)
				st.a = bsym_const(bsym_alu_const(
				    BPF_OP(f->code), st.a.c, src.c));
			else
				st.a = (struct val){
				    0, 0,
				    bsym_alu_term(s, BPF_OP(f->code),
						  bsym_term(s, st.a),
						  bsym_term(s, src))};
			break;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				st.x = st.a;
			else
				st.a = st.x;
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA) {
				pc += f->k;
				break;
			}
			c = bsym_cond(s, BPF_OP(f->code), st.a, src, &cond);
			if (c >= 0) {
				pc += c ? f->jt : f->jf;
				break;
			}
			return _fork(s, &st, cond, pc + 1 + f->jt,
				     pc + 1 + f->jf);
		}
	}
	/* bpf_check() makes this unreachable: the last insn is a RET. */
	return bsym_fail(s, "ran past the end without a return");
}

int bpf_sym_explore(struct bpf_sym *s, const struct sock_filter *prog, size_t n,
		    Z3_ast nr, Z3_ast arch, Z3_ast pre, bpf_sym_leaf_fn leaf,
		    void *user, char *err, size_t errlen)
{
	struct st st = {0};
	int r = 0, feasible;

	s->err = err;
	s->errlen = errlen;
	if (bpf_check(prog, n, err, errlen))
		return -1;
	s->prog = prog;
	s->n = n;
	s->cur_nr = nr;
	s->cur_arch = arch;
	s->leaf = leaf;
	s->user = user;
	s->paths = 0;
	st.a = st.x = bsym_const(0);
	for (unsigned int i = 0; i < BPF_MEMWORDS; i++)
		st.mem[i] = bsym_const(0);
	Z3_solver_push(s->ctx, s->solver);
	if (pre)
		Z3_solver_assert(s->ctx, s->solver, pre);
	feasible = bsym_check(s, Z3_mk_true(s->ctx));
	if (feasible == BPF_SYM_UNKNOWN)
		r = bsym_fail(s, "solver: %s", s->reason);
	else if (feasible == BPF_SYM_SAT)
		r = _run(s, st, 0);
	Z3_solver_pop(s->ctx, s->solver, 1);
	if (!r && Z3_get_error_code(s->ctx) != Z3_OK)
		r = bsym_fail(
		    s, "Z3: %s",
		    Z3_get_error_msg(s->ctx, Z3_get_error_code(s->ctx)));
	return r;
}
