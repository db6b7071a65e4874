// SPDX-License-Identifier: MIT
/*
 * The classic-BPF model on its own: the interpreter (results, counts, and
 * every kind of invalid program refused), the disassembler's text, the
 * builder's labels and long jumps, and the symbolic evaluator checked
 * against the interpreter on random programs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>

#include "bpf_builder.h"
#include "bpf_disasm.h"
#include "bpf_interp.h"
#include "bpf_symbolic.h"

#define N(a)	   (sizeof(a) / sizeof((a)[0]))
#define RET_ALLOW  0x7fff0000u
#define RET_ERRNO1 0x00050001u

static struct seccomp_data data(int nr, uint64_t a0)
{
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};

	d.args[0] = a0;
	return d;
}

static uint32_t run(const struct sock_filter *p, size_t n,
		    struct seccomp_data d, size_t *executed)
{
	struct bpf_run_result r;
	char err[128];

	if (bpf_run(p, n, &d, &r, err, sizeof(err)))
		fail_msg("bpf_run: %s", err);
	if (executed)
		*executed = r.executed;
	return r.ret;
}

/* ---- Interpreter ------------------------------------------------------- */

static void test_interp_basic(void **state)
{
	/* allow nr 3 if args[0].hi == 1, else errno(1) */
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 20),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, RET_ALLOW),
	    BPF_STMT(BPF_RET | BPF_K, RET_ERRNO1),
	};
	struct seccomp_data d = data(3, 0x100000000ull);
	struct bpf_run_result r;
	size_t ex;

	(void)state;
	assert_int_equal(bpf_check(p, N(p), NULL, 0), 0);
	assert_int_equal(bpf_run(p, N(p), &d, &r, NULL, 0), 0);
	assert_int_equal(r.ret, RET_ALLOW);
	assert_int_equal(r.executed, 5);
	/* words 0 (nr) and 5 (args[0].hi) were read */
	assert_int_equal(r.loaded, (1u << 0) | (1u << 5));
	assert_int_equal(run(p, N(p), data(3, 1), &ex), RET_ERRNO1);
	assert_int_equal(ex, 5);
	assert_int_equal(run(p, N(p), data(4, 0x100000000ull), &ex),
			 RET_ERRNO1);
	assert_int_equal(ex, 3);
}

static void test_interp_alu_mem(void **state)
{
	/* A = ((nr + 5) * 3) ^ 1, stored, X = 7; ret A / X via TXA/TAX etc. */
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 5),
	    BPF_STMT(BPF_ALU | BPF_MUL | BPF_K, 3),
	    BPF_STMT(BPF_ALU | BPF_XOR | BPF_K, 1),
	    BPF_STMT(BPF_ST, 2),
	    BPF_STMT(BPF_LDX | BPF_IMM, 7),
	    BPF_STMT(BPF_LD | BPF_MEM, 2),
	    BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
	    BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 4),
	    BPF_STMT(BPF_MISC | BPF_TAX, 0),
	    BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x40, 0, 1),
	    BPF_STMT(BPF_MISC | BPF_TXA, 0),
	    BPF_STMT(BPF_RET | BPF_A, 0),
	};

	(void)state;
	assert_int_equal(bpf_check(p, N(p), NULL, 0), 0);
	/* nr 2: ((7 * 3) ^ 1) = 20; 20 / 7 = 2; << 4 = 32; len 64 has 0x40 */
	assert_int_equal(run(p, N(p), data(2, 0), NULL), 32);
}

static void test_interp_div_by_zero_x_returns_zero(void **state)
{
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LDX | BPF_IMM, 0),
	    BPF_STMT(BPF_LD | BPF_IMM, 9),
	    BPF_STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
	    BPF_STMT(BPF_RET | BPF_K, RET_ALLOW),
	};

	(void)state;
	/* The kernel ends the filter with 0, SECCOMP_RET_KILL_THREAD. */
	assert_int_equal(run(p, N(p), data(0, 0), NULL), 0);
}

struct bad_case {
	const char *what;
	struct sock_filter insn[4];
	size_t n;
	const char *msg;
};

static void test_interp_rejects_invalid(void **state)
{
	static const struct bad_case cases[] = {
	    {"cond jump past the end",
	     {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     3,
	     "out of range"},
	    {"ja past the end",
	     {BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "out of range"},
	    {"load past seccomp_data",
	     {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 64),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "outside seccomp_data"},
	    {"unaligned load",
	     {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 18),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "outside seccomp_data"},
	    {"byte load (not allowed in seccomp)",
	     {BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "opcode"},
	    {"unknown opcode",
	     {BPF_STMT(0xff, 0), BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "opcode"},
	    {"mod (not allowed in seccomp)",
	     {BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 3),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "opcode"},
	    {"missing return",
	     {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0)},
	     1,
	     "not a return"},
	    {"scratch read before write",
	     {BPF_STMT(BPF_LD | BPF_MEM, 3), BPF_STMT(BPF_RET | BPF_A, 0)},
	     2,
	     "before"},
	    {"division by constant zero",
	     {BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
	      BPF_STMT(BPF_RET | BPF_K, 0)},
	     2,
	     "division"},
	    {"empty program", {{0}}, 0, "length"},
	};

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		const struct bad_case *c = &cases[i];
		char err[128] = "";

		if (bpf_check(c->insn, c->n, err, sizeof(err)) != -1)
			fail_msg("bpf_check accepted: %s", c->what);
		if (!strstr(err, c->msg))
			fail_msg("%s: message \"%s\" lacks \"%s\"", c->what,
				 err, c->msg);
	}
}

static void test_interp_run_checks_as_it_goes(void **state)
{
	/* The bad load is only reached for nr 1: bpf_run must refuse it
	 * there, and run the good path fine. */
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 100),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_filter fall[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	};
	struct seccomp_data d = data(1, 0);
	struct bpf_run_result r;
	char err[128];

	(void)state;
	assert_int_equal(run(p, N(p), data(0, 0), NULL), RET_ALLOW);
	assert_int_equal(bpf_run(p, N(p), &d, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "outside seccomp_data"));
	assert_int_equal(bpf_run(fall, N(fall), &d, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "without a return"));
	assert_int_equal(
	    bpf_check(NULL, BPF_INTERP_MAX_INSNS + 1, err, sizeof(err)), -1);
}

/* ---- Disassembler ------------------------------------------------------ */

static void test_disasm_lines(void **state)
{
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 28),
	    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 2, 9, 0),
	    BPF_STMT(BPF_RET | BPF_K, RET_ERRNO1),
	    BPF_STMT(BPF_RET | BPF_K, 0x80000000u),
	};
	char buf[160];

	(void)state;
	assert_string_equal(bpf_disasm_insn(p, N(p), 0, buf, sizeof(buf)),
			    "0000: 0x20 0x00 0x00 0x00000004   "
			    "ld   $data[4]           ; arch");
	assert_string_equal(bpf_disasm_insn(p, N(p), 1, buf, sizeof(buf)),
			    "0001: 0x15 0x00 0x03 0xc000003e   "
			    "jeq  0xc000003e true:0002 false:0005");
	assert_non_null(strstr(bpf_disasm_insn(p, N(p), 2, buf, sizeof(buf)),
			       "; args[1].hi"));
	assert_non_null(strstr(bpf_disasm_insn(p, N(p), 3, buf, sizeof(buf)),
			       "and  #0xff"));
	assert_non_null(strstr(bpf_disasm_insn(p, N(p), 4, buf, sizeof(buf)),
			       "jset 0x2 true:0014(out of range) false:0005"));
	assert_non_null(strstr(bpf_disasm_insn(p, N(p), 5, buf, sizeof(buf)),
			       "ret  ERRNO(1)"));
	assert_non_null(strstr(bpf_disasm_insn(p, N(p), 6, buf, sizeof(buf)),
			       "ret  KILL_PROCESS"));
	assert_string_equal(bpf_disasm_ret(0x7ffc0000u, buf, sizeof(buf)),
			    "LOG");
	assert_string_equal(bpf_disasm_ret(0x7fff0000u, buf, sizeof(buf)),
			    "ALLOW");
	assert_string_equal(bpf_disasm_ret(0x00030000u, buf, sizeof(buf)),
			    "TRAP(0)");
	assert_string_equal(bpf_disasm_ret(0, buf, sizeof(buf)), "KILL_THREAD");
}

/* ---- Builder ----------------------------------------------------------- */

/*
 * nr == 7 -> far_target (past `pad` filler instructions), else near.
 * far_is_ret picks whether the far target is a RET (copied as the
 * trampoline) or a load (reached through a JA trampoline).
 */
static void build_far(size_t pad, int far_is_ret, struct sock_filter **p,
		      size_t *n)
{
	struct bpf_builder *b;
	bpf_label far, near;
	char err[128];

	assert_int_equal(bpf_builder_create(&b), 0);
	far = bpf_label_new(b);
	near = bpf_label_new(b);
	bpf_emit_stmt(b, BPF_LD | BPF_W | BPF_ABS, 0);
	bpf_emit_jump(b, BPF_JMP | BPF_JEQ | BPF_K, 7, far, near);
	bpf_label_bind(b, near);
	for (size_t i = 0; i < pad; i++)
		bpf_emit_stmt(b, BPF_ALU | BPF_ADD | BPF_K, 0);
	bpf_emit_stmt(b, BPF_RET | BPF_K, RET_ERRNO1);
	bpf_label_bind(b, far);
	if (!far_is_ret)
		bpf_emit_stmt(b, BPF_LD | BPF_W | BPF_ABS, 16);
	bpf_emit_stmt(b, BPF_RET | BPF_K, RET_ALLOW);
	if (bpf_builder_finish(b, p, n, err, sizeof(err)))
		fail_msg("finish: %s", err);
	bpf_builder_destroy(&b);
	assert_null(b);
}

static void test_builder_long_jumps(void **state)
{
	struct sock_filter *p;
	size_t n, ex;

	(void)state;
	for (int is_ret = 0; is_ret < 2; is_ret++) {
		/* 300 instructions between the jump and its target. */
		build_far(300, is_ret, &p, &n);
		assert_int_equal(bpf_check(p, n, NULL, 0), 0);
		/* One trampoline right after the jump. */
		assert_int_equal(n, 2 + 1 + 300 + 1 + (is_ret ? 1 : 2));
		if (is_ret)
			assert_int_equal(p[2].code, BPF_RET | BPF_K);
		else
			assert_int_equal(p[2].code, BPF_JMP | BPF_JA);
		assert_int_equal(run(p, n, data(7, 0), &ex), RET_ALLOW);
		/* A RET copy costs nothing; a JA one instruction. */
		assert_int_equal(ex, is_ret ? 3 : 5);
		assert_int_equal(run(p, n, data(8, 0), &ex), RET_ERRNO1);
		assert_int_equal(ex, 2 + 300 + 1);
		free(p);
	}
	/* Exactly 255 away needs no trampoline; 256 does. */
	build_far(254, 0, &p, &n);
	assert_int_equal(n, 2 + 254 + 1 + 2);
	assert_int_equal(p[1].jt, 255);
	free(p);
	build_far(255, 0, &p, &n);
	assert_int_equal(n, 2 + 1 + 255 + 1 + 2);
	assert_int_equal(run(p, n, data(7, 0), NULL), RET_ALLOW);
	free(p);
}

static void test_builder_many_far_jumps(void **state)
{
	/* 600 jumps to a shared RET at the end: every trampoline pushes the
	 * others further, which the fixpoint must absorb. */
	struct bpf_builder *b;
	struct sock_filter *p;
	bpf_label deny, allow;
	size_t n;
	char err[128];

	(void)state;
	assert_int_equal(bpf_builder_create(&b), 0);
	deny = bpf_label_new(b);
	allow = bpf_label_new(b);
	bpf_emit_stmt(b, BPF_LD | BPF_W | BPF_ABS, 0);
	for (uint32_t i = 0; i < 600; i++)
		bpf_emit_jump(b, BPF_JMP | BPF_JEQ | BPF_K, i * 2, allow,
			      BPF_LABEL_NEXT);
	bpf_emit_ja(b, deny);
	bpf_label_bind(b, allow);
	bpf_emit_stmt(b, BPF_LD | BPF_W | BPF_ABS, 16);
	bpf_emit_stmt(b, BPF_RET | BPF_K, RET_ALLOW);
	bpf_label_bind(b, deny);
	bpf_emit_stmt(b, BPF_RET | BPF_K, RET_ERRNO1);
	assert_int_equal(bpf_builder_finish(b, &p, &n, err, sizeof(err)), 0);
	bpf_builder_destroy(&b);
	assert_int_equal(bpf_check(p, n, NULL, 0), 0);
	for (int nr = 0; nr < 1300; nr++)
		assert_int_equal(run(p, n, data(nr, 0), NULL),
				 nr < 1200 && nr % 2 == 0 ? RET_ALLOW
							  : RET_ERRNO1);
	free(p);
}

static void test_builder_errors(void **state)
{
	struct bpf_builder *b;
	struct sock_filter *p;
	bpf_label l;
	size_t n;
	char err[128];

	(void)state;
	/* unbound label */
	assert_int_equal(bpf_builder_create(&b), 0);
	l = bpf_label_new(b);
	bpf_emit_ja(b, l);
	bpf_emit_stmt(b, BPF_RET | BPF_K, 0);
	assert_int_equal(bpf_builder_finish(b, &p, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unbound"));
	assert_null(p);
	bpf_builder_destroy(&b);
	/* backward jump */
	assert_int_equal(bpf_builder_create(&b), 0);
	l = bpf_label_new(b);
	bpf_label_bind(b, l);
	bpf_emit_stmt(b, BPF_LD | BPF_W | BPF_ABS, 0);
	bpf_emit_jump(b, BPF_JMP | BPF_JEQ | BPF_K, 0, l, BPF_LABEL_NEXT);
	bpf_emit_stmt(b, BPF_RET | BPF_K, 0);
	assert_int_equal(bpf_builder_finish(b, &p, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "backwards"));
	bpf_builder_destroy(&b);
	/* label bound twice, and a jump emitted as a statement */
	assert_int_equal(bpf_builder_create(&b), 0);
	l = bpf_label_new(b);
	assert_int_equal(bpf_label_bind(b, l), 0);
	assert_int_equal(bpf_label_bind(b, l), -1);
	bpf_builder_destroy(&b);
	assert_int_equal(bpf_builder_create(&b), 0);
	assert_int_equal(bpf_emit_stmt(b, BPF_JMP | BPF_JA, 0), -1);
	assert_int_equal(bpf_builder_finish(b, &p, &n, err, sizeof(err)), -1);
	bpf_builder_destroy(&b);
}

/* ---- Symbolic evaluator ------------------------------------------------ */

struct sym_probe {
	const struct sock_filter *prog;
	size_t n, paths, mismatches;
	int read_args;
};

/* Each path: a model of its condition must run to the same result. */
static int probe_leaf(struct bpf_sym *s, const struct bpf_sym_path *path,
		      void *user)
{
	struct sym_probe *pr = user;
	struct seccomp_data w;
	struct bpf_run_result r;
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast other;

	pr->paths++;
	if (path->loaded & BPF_LOADED_ARGS)
		pr->read_args = 1;
	assert_int_equal(bpf_sym_check(s, Z3_mk_true(c), &w), BPF_SYM_SAT);
	assert_int_equal(bpf_run(pr->prog, pr->n, &w, &r, NULL, 0), 0);
	if (path->ret_is_const) {
		if (r.ret != path->ret)
			pr->mismatches++;
	} else {
		/* RET A: the term must be able to equal the concrete value */
		other = Z3_mk_eq(c, path->ret_term, bpf_sym_u32(s, r.ret));
		if (bpf_sym_check(s, other, NULL) != BPF_SYM_SAT)
			pr->mismatches++;
	}
	assert_int_equal(r.executed, path->executed);
	return 0;
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/* A random valid program: loads, ALU, forward jumps, returns. */
static size_t random_prog(uint64_t *seed, struct sock_filter *p, size_t max)
{
	static const uint16_t alu[] = {BPF_ADD, BPF_SUB, BPF_AND, BPF_OR,
				       BPF_XOR, BPF_RSH, BPF_MUL};
	static const uint16_t xalu[] = {BPF_ADD, BPF_SUB, BPF_DIV, BPF_AND};
	static const uint16_t jmp[] = {BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET};
	size_t n = 8 + rnd(seed) % (max - 8);

	for (size_t i = 0; i + 1 < n; i++) {
		size_t left = n - i - 1;
		uint32_t k = rnd(seed) % 4 ? rnd(seed) % 64 : rnd(seed);

		switch (rnd(seed) % 6) {
		case 0:
		case 1:
			p[i] = (struct sock_filter)BPF_STMT(
			    BPF_LD | BPF_W | BPF_ABS, 4 * (rnd(seed) % 16));
			break;
		case 2:
			p[i] = (struct sock_filter)BPF_STMT(
			    BPF_ALU | alu[rnd(seed) % N(alu)] | BPF_K, k % 32);
			/* X operands, division included: a zero divisor
			 * ends the filter with 0 in both models. */
			if (rnd(seed) % 3 == 0)
				p[i] = (struct sock_filter)BPF_STMT(
				    BPF_ALU | xalu[rnd(seed) % N(xalu)] | BPF_X,
				    0);
			break;
		case 3:
			p[i] =
			    (struct sock_filter)BPF_STMT(BPF_MISC | BPF_TAX, 0);
			break;
		default:
			p[i] = (struct sock_filter)BPF_JUMP(
			    BPF_JMP | jmp[rnd(seed) % N(jmp)] |
				(rnd(seed) % 3 ? BPF_K : BPF_X),
			    k, rnd(seed) % left, rnd(seed) % left);
			break;
		}
		if (rnd(seed) % 16 == 0)
			p[i] = (struct sock_filter)BPF_STMT(
			    BPF_RET | (rnd(seed) % 2 ? BPF_K : BPF_A), k);
	}
	p[n - 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_A, 0);
	return n;
}

static void test_symbolic_matches_interpreter(void **state)
{
	struct bpf_sym *s;
	struct sock_filter p[40];
	uint64_t seed = 0x5eed;
	size_t total = 0, with_args = 0;
	char err[128];

	(void)state;
	assert_int_equal(bpf_sym_create(&s, 10000, err, sizeof(err)), 0);
	for (int i = 0; i < 200; i++) {
		struct sym_probe pr = {p, random_prog(&seed, p, N(p)), 0, 0, 0};

		assert_int_equal(bpf_check(p, pr.n, err, sizeof(err)), 0);
		if (bpf_sym_explore(s, p, pr.n, bpf_sym_nr(s), bpf_sym_arch(s),
				    NULL, probe_leaf, &pr, err, sizeof(err)))
			fail_msg("explore: %s", err);
		assert_true(pr.paths >= 1);
		assert_int_equal(pr.mismatches, 0);
		total += pr.paths;
		with_args += pr.read_args;
	}
	print_message("%zu paths, %zu programs read arguments\n", total,
		      with_args);
	/* The random programs do branch on arguments. */
	assert_true(total > 400);
	assert_true(with_args > 50);
	bpf_sym_destroy(&s);
	assert_null(s);
}

/* The merged result term, pinned to concrete inputs, is the
 * interpreter's result and nothing else. */
static void test_symbolic_merged_matches_interpreter(void **state)
{
	static const uint64_t vals[] = {0,	    1,		 5,    40,
					0xffffffff, 0x100000000, ~0ull};
	struct bpf_sym *s;
	struct sock_filter p[40];
	uint64_t seed = 0xfeed;
	char err[128];

	(void)state;
	assert_int_equal(bpf_sym_create(&s, 10000, err, sizeof(err)), 0);
	Z3_context z = bpf_sym_ctx(s);

	for (int i = 0; i < 200; i++) {
		size_t n = random_prog(&seed, p, N(p));
		Z3_ast result;
		uint16_t loaded;

		if (bpf_sym_result(s, p, n, bpf_sym_nr(s), bpf_sym_arch(s),
				   &result, &loaded, err, sizeof(err)))
			fail_msg("bpf_sym_result: %s", err);
		for (int k = 0; k < 4; k++) {
			struct seccomp_data d = {
			    .nr = (int)(rnd(&seed) % 64),
			    .arch = rnd(&seed) % 2 ? AUDIT_ARCH_X86_64 : 7,
			    .instruction_pointer = vals[rnd(&seed) % 7]};
			struct bpf_run_result r;
			Z3_ast pin[10];

			for (int a = 0; a < 6; a++)
				d.args[a] = vals[rnd(&seed) % N(vals)];
			assert_int_equal(bpf_run(p, n, &d, &r, NULL, 0), 0);
			pin[0] = Z3_mk_eq(z, bpf_sym_nr(s),
					  bpf_sym_u32(s, (uint32_t)d.nr));
			pin[1] = Z3_mk_eq(z, bpf_sym_arch(s),
					  bpf_sym_u32(s, d.arch));
			pin[2] =
			    Z3_mk_eq(z, bpf_sym_ip(s),
				     bpf_sym_u64(s, d.instruction_pointer));
			for (int a = 0; a < 6; a++)
				pin[3 + a] =
				    Z3_mk_eq(z, bpf_sym_arg(s, a),
					     bpf_sym_u64(s, d.args[a]));
			pin[9] = Z3_mk_not(
			    z, Z3_mk_eq(z, result, bpf_sym_u32(s, r.ret)));
			assert_int_equal(
			    bpf_sym_check(s, Z3_mk_and(z, 10, pin), NULL),
			    BPF_SYM_UNSAT);
		}
	}
	bpf_sym_destroy(&s);
}

struct count {
	size_t paths;
	uint32_t rets[8];
};

static int count_leaf(struct bpf_sym *s, const struct bpf_sym_path *path,
		      void *user)
{
	struct count *c = user;

	(void)s;
	assert_true(path->ret_is_const);
	c->rets[c->paths++ % 8] = path->ret;
	return 0;
}

static void test_symbolic_prunes_and_fixes_inputs(void **state)
{
	/* nr == 3 && args[0].lo > 10 && args[0].lo < 5: the last branch
	 * cannot be taken; with nr a numeral the nr test costs no path. */
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 5),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16),
	    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 10, 0, 3),
	    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 5, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, 1),
	    BPF_STMT(BPF_RET | BPF_K, 2),
	    BPF_STMT(BPF_RET | BPF_K, 3),
	};
	struct bpf_sym *s;
	struct count c = {0};
	struct seccomp_data w;
	char err[128];

	(void)state;
	assert_int_equal(bpf_sym_create(&s, 10000, err, sizeof(err)), 0);
	assert_int_equal(bpf_sym_explore(s, p, N(p), bpf_sym_u32(s, 3),
					 bpf_sym_u32(s, AUDIT_ARCH_X86_64),
					 NULL, count_leaf, &c, err,
					 sizeof(err)),
			 0);
	/* > 10 then >= 5 always: ret 2; <= 10: ret 3. ret 1 unreachable. */
	assert_int_equal(c.paths, 2);
	assert_int_equal(c.rets[0], 2);
	assert_int_equal(c.rets[1], 3);
	/* nr fixed to 4: one path, no solver choice. */
	c.paths = 0;
	assert_int_equal(bpf_sym_explore(s, p, N(p), bpf_sym_u32(s, 4),
					 bpf_sym_u32(s, AUDIT_ARCH_X86_64),
					 NULL, count_leaf, &c, err,
					 sizeof(err)),
			 0);
	assert_int_equal(c.paths, 1);
	assert_int_equal(c.rets[0], 3);
	/* A witness for "args[0] in 11..": check outside a leaf sees no path
	 * condition, so the arg constraint alone decides. */
	Z3_context z = bpf_sym_ctx(s);
	Z3_ast lo = Z3_mk_extract(z, 31, 0, bpf_sym_arg(s, 0));

	assert_int_equal(
	    bpf_sym_check(s, Z3_mk_bvugt(z, lo, bpf_sym_u32(s, 10)), &w),
	    BPF_SYM_SAT);
	assert_true((uint32_t)w.args[0] > 10);
	/* An invalid program is refused before exploring. */
	p[7].code = BPF_LD | BPF_W | BPF_ABS;
	assert_int_equal(bpf_sym_explore(s, p, N(p), bpf_sym_nr(s),
					 bpf_sym_arch(s), NULL, count_leaf, &c,
					 err, sizeof(err)),
			 -1);
	bpf_sym_destroy(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_interp_basic),
	    cmocka_unit_test(test_interp_alu_mem),
	    cmocka_unit_test(test_interp_div_by_zero_x_returns_zero),
	    cmocka_unit_test(test_interp_rejects_invalid),
	    cmocka_unit_test(test_interp_run_checks_as_it_goes),
	    cmocka_unit_test(test_disasm_lines),
	    cmocka_unit_test(test_builder_long_jumps),
	    cmocka_unit_test(test_builder_many_far_jumps),
	    cmocka_unit_test(test_builder_errors),
	    cmocka_unit_test(test_symbolic_matches_interpreter),
	    cmocka_unit_test(test_symbolic_merged_matches_interpreter),
	    cmocka_unit_test(test_symbolic_prunes_and_fixes_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
