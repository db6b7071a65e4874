// SPDX-License-Identifier: MIT
/*
 * The exact word procedure (bpf/wordsat.c) against brute force: random
 * conjunctions of `(w & m) op k` on 4-, 8- and 12-bit words enumerated in
 * full, 32-bit words whose masks touch a few scattered bits (enumerated
 * over those bits), and clause searches over two words. Every answer must
 * agree exactly, every witness must satisfy what it claims, and "unknown"
 * is never accepted on these small cases.
 *
 * Then the solver-free path explorer (bpf/bpf_paths.c) against the
 * interpreter on random programs of the generator's fragment: every path
 * it reports must be followed by its witness to its result, and with every
 * input pinned to a concrete value exactly one path must remain, the one
 * the interpreter takes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_interp.h"
#include "bpf_paths.h"
#include "wordsat.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int all_hold(const struct ws_cons *c, size_t n, uint32_t w)
{
	for (size_t i = 0; i < n; i++)
		if (!ws_holds(&c[i], w))
			return 0;
	return 1;
}

/* A value for a mask or a constant: biased towards the shapes policies
 * use (all ones, one bit, zero, near the constants) and the edges. */
static uint32_t pick(uint64_t *s, uint32_t width, uint32_t prev)
{
	switch (rnd(s) % 8) {
	case 0:
		return width;
	case 1:
		return 1u << (rnd(s) % 32) & width;
	case 2:
		return 0;
	case 3:
		return prev;
	case 4:
		return (prev + 1) & width;
	default:
		return (uint32_t)rnd(s) & width;
	}
}

static void random_cons(uint64_t *s, struct ws_cons *c, size_t n,
			uint32_t width)
{
	uint32_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		c[i].mask = pick(s, width, prev);
		c[i].k = pick(s, width, prev);
		/* Now and then a constant no masked value reaches. */
		if (width != ~0u && rnd(s) % 16 == 0)
			c[i].k |= width + 1;
		c[i].op = (uint8_t)(rnd(s) % 6);
		prev = c[i].k;
	}
}

static void test_ops(void **state)
{
	struct ws_cons c = {0xff, 0x10, WS_LT};

	(void)state;
	for (int op = WS_EQ; op <= WS_GE; op++) {
		c.op = (uint8_t)op;
		for (uint32_t w = 0; w < 0x40; w++) {
			struct ws_cons n = c;

			n.op = (uint8_t)ws_not((enum ws_op)op);
			assert_int_not_equal(ws_holds(&c, w), ws_holds(&n, w));
		}
	}
	/* Masked: only the mask's bits count. */
	c = (struct ws_cons){0xf0, 0x20, WS_EQ};
	assert_true(ws_holds(&c, 0x2f));
	assert_false(ws_holds(&c, 0x30));
}

/* Exhaustive on small widths: the answer and the witness. */
static void test_small_widths_brute_force(void **state)
{
	static const unsigned int widths[] = {4, 8, 12};
	uint64_t seed = 0x243f6a8885a308d3ull;
	size_t sat = 0, unsat = 0;

	(void)state;
	for (size_t wi = 0; wi < N(widths); wi++) {
		unsigned int bits = widths[wi];
		uint32_t width = (1u << bits) - 1;
		int cases = bits == 12 ? 1500 : 4000;

		for (int t = 0; t < cases; t++) {
			struct ws_cons c[10];
			size_t n = 1 + rnd(&seed) % (t % 2 ? 4 : N(c));
			uint32_t w = 0xdeadbeef;
			int want = 0, got;

			random_cons(&seed, c, n, width);
			for (uint32_t x = 0; x <= width && !want; x++)
				want = all_hold(c, n, x);
			got = ws_word_sat(c, n, bits, &w);
			if (got != want)
				fail_msg("width %u case %d: got %d, brute "
					 "force %d",
					 bits, t, got, want);
			if (got == WS_SAT) {
				assert_true(w <= width);
				assert_true(all_hold(c, n, w));
				sat++;
			} else {
				unsat++;
			}
		}
	}
	/* Both answers must be well represented, or the test proves little. */
	print_message("small widths: %zu sat, %zu unsat\n", sat, unsat);
	assert_true(sat > 2000 && unsat > 2000);
}

/*
 * 32 bits, masks within a few scattered positions (always some high
 * ones), constants anywhere: w & m only depends on those positions, so
 * enumerating them is complete.
 */
static void test_32bit_scattered_bits(void **state)
{
	uint64_t seed = 0x13198a2e03707344ull;
	size_t sat = 0, unsat = 0;

	(void)state;
	for (int t = 0; t < 3000; t++) {
		uint32_t pos[10], support = 0, w = 0;
		size_t npos = 4 + rnd(&seed) % 7, n = 1 + rnd(&seed) % 8;
		struct ws_cons c[8];
		int want = 0, got;

		for (size_t i = 0; i < npos; i++) {
			/* Half the positions in the top byte, half anywhere. */
			pos[i] = i % 2 ? 24 + (uint32_t)(rnd(&seed) % 8)
				       : (uint32_t)(rnd(&seed) % 32);
			support |= 1u << pos[i];
		}
		random_cons(&seed, c, n, ~0u);
		for (size_t i = 0; i < n; i++) {
			c[i].mask &= support;
			if (rnd(&seed) % 3 == 0)
				c[i].mask = support;
			/* Constants near the reachable values, often. */
			if (rnd(&seed) % 2)
				c[i].k = ((uint32_t)rnd(&seed) & support) +
					 (uint32_t)(rnd(&seed) % 3) - 1;
		}
		for (uint32_t sub = 0; sub < (1u << npos) && !want; sub++) {
			uint32_t x = 0;

			for (size_t i = 0; i < npos; i++)
				if (sub >> i & 1)
					x |= 1u << pos[i];
			want = all_hold(c, n, x);
		}
		got = ws_word_sat(c, n, 32, &w);
		if (got != want)
			fail_msg("case %d: got %d, brute force %d", t, got,
				 want);
		if (got == WS_SAT) {
			assert_true(all_hold(c, n, w));
			sat++;
		} else {
			unsat++;
		}
	}
	print_message("32-bit: %zu sat, %zu unsat\n", sat, unsat);
	assert_true(sat > 500 && unsat > 500);
}

/* Many point exclusions and a range: the shape of "ioctl in {...}" fails. */
static void test_many_exclusions(void **state)
{
	struct ws_cons c[202];
	uint32_t w;
	size_t n = 0;

	(void)state;
	c[n++] = (struct ws_cons){~0u, 100, WS_GE};
	c[n++] = (struct ws_cons){~0u, 299, WS_LE};
	for (uint32_t v = 100; v < 300; v++)
		if (v != 257)
			c[n++] = (struct ws_cons){~0u, v, WS_NE};
	assert_int_equal(ws_word_sat(c, n, 32, &w), WS_SAT);
	assert_int_equal(w, 257);
	c[n++] = (struct ws_cons){~0u, 257, WS_NE};
	assert_int_equal(ws_word_sat(c, n, 32, &w), WS_UNSAT);
	/* An equality fixes the word. */
	c[0] = (struct ws_cons){~0u, 0x12345678, WS_EQ};
	assert_int_equal(ws_word_sat(c, 1, 32, &w), WS_SAT);
	assert_int_equal(w, 0x12345678);
}

/* Literal sets: additions, refusals, undo, and the witness. */
static void test_set_add_undo(void **state)
{
	struct ws_set *s;
	uint32_t wit[WS_WORDS];
	struct ws_lit ge = {WS_W_ARG_LO(0), WS_GE, ~0u, 10};
	struct ws_lit lt = {WS_W_ARG_LO(0), WS_LT, ~0u, 12};
	struct ws_lit ne = {WS_W_ARG_LO(0), WS_NE, ~0u, 10};
	struct ws_lit ne11 = {WS_W_ARG_LO(0), WS_NE, ~0u, 11};
	struct ws_lit hi = {WS_W_ARG_HI(0), WS_EQ, 0xff, 7};
	size_t mark;

	(void)state;
	assert_int_equal(ws_set_create(&s), 0);
	assert_int_equal(ws_set_add(s, &ge), WS_SAT);
	assert_int_equal(ws_set_add(s, &lt), WS_SAT);
	mark = ws_set_mark(s);
	assert_int_equal(ws_set_add(s, &ne), WS_SAT);
	ws_set_witness(s, wit);
	assert_int_equal(wit[WS_W_ARG_LO(0)], 11);
	assert_int_equal(ws_set_add(s, &ne11), WS_UNSAT);
	assert_int_equal(ws_set_add(s, &hi), WS_SAT);
	ws_set_witness(s, wit);
	assert_int_equal(wit[WS_W_ARG_HI(0)] & 0xff, 7);
	assert_int_equal(wit[WS_W_NR], 0);
	ws_set_undo(s, mark);
	/* Without the exclusion of 10, 11 may be excluded. */
	assert_int_equal(ws_set_add(s, &ne11), WS_SAT);
	ws_set_witness(s, wit);
	assert_int_equal(wit[WS_W_ARG_LO(0)], 10);
	assert_int_equal(wit[WS_W_ARG_HI(0)], 0);
	ws_set_destroy(&s);
	assert_null(s);
}

/* A node budget that runs out makes additions unknown, never a verdict. */
static void test_set_node_limit(void **state)
{
	struct ws_lit gt = {WS_W_ARG_LO(3), WS_GT, 0xff, 5};
	struct ws_lit lt = {WS_W_ARG_LO(3), WS_LT, 0xff, 9};
	struct ws_set *s;

	(void)state;
	assert_int_equal(ws_set_create(&s), 0);
	ws_set_limit(s, 0);
	/* 0 does not satisfy it: a search is needed, and not allowed. */
	assert_int_equal(ws_set_add(s, &gt), WS_UNKNOWN);
	assert_int_equal(ws_set_mark(s), 0);
	/* The witness 0 satisfies this one: no search, no budget. */
	assert_int_equal(ws_set_add(s, &lt), WS_SAT);
	ws_set_limit(s, 1000);
	assert_int_equal(ws_set_add(s, &gt), WS_SAT);
	ws_set_destroy(&s);
}

/* A random literal on word 0 or 1 with masks in the low 6 bits. */
static struct ws_lit random_lit(uint64_t *s)
{
	struct ws_lit l;

	l.word = (uint8_t)(rnd(s) % 2);
	l.op = (uint8_t)(rnd(s) % 6);
	l.mask = rnd(s) % 4 ? 0x3f : (uint32_t)rnd(s) & 0x3f;
	l.k = (uint32_t)(rnd(s) % 0x42);
	return l;
}

static int lit_holds(const struct ws_lit *l, const uint32_t w[2])
{
	struct ws_cons c = {l->mask, l->k, l->op};

	return ws_holds(&c, w[l->word]);
}

static int clauses_hold(const struct ws_clause *cl, size_t n,
			const uint32_t w[2])
{
	for (size_t i = 0; i < n; i++) {
		int any = 0;

		for (size_t d = 0; d < cl[i].n && !any; d++) {
			int all = 1;

			for (size_t j = 0; j < cl[i].d[d].n; j++)
				all &= lit_holds(&cl[i].d[d].lit[j], w);
			any = all;
		}
		if (!any)
			return 0;
	}
	return 1;
}

/* Clause searches over two words against enumeration of both. */
static void test_search_brute_force(void **state)
{
	uint64_t seed = 0xa4093822299f31d0ull;
	struct ws_set *s;
	size_t sat = 0, unsat = 0;

	(void)state;
	assert_int_equal(ws_set_create(&s), 0);
	for (int t = 0; t < 2000; t++) {
		struct ws_conj conj[6][3];
		struct ws_clause cl[6];
		struct ws_lit base = random_lit(&seed);
		size_t ncl = 1 + rnd(&seed) % 6, budget = 1u << 20;
		uint32_t wit[WS_WORDS];
		int want = 0, got, r;

		for (size_t i = 0; i < ncl; i++) {
			cl[i].n = rnd(&seed) % 4; /* 0: an empty clause */
			cl[i].d = conj[i];
			for (size_t d = 0; d < cl[i].n; d++) {
				conj[i][d].n = (uint8_t)(1 + rnd(&seed) % 2);
				for (size_t j = 0; j < conj[i][d].n; j++)
					conj[i][d].lit[j] = random_lit(&seed);
			}
		}
		r = ws_set_add(s, &base);
		if (r != WS_SAT) {
			/* Refused: then no value satisfies it alone. */
			assert_int_equal(r, WS_UNSAT);
			assert_int_equal(ws_set_mark(s), 0);
			for (uint32_t x = 0; x < 64; x++) {
				uint32_t w[2] = {x, x};

				assert_false(lit_holds(&base, w));
			}
			continue;
		}
		for (uint32_t x = 0; x < 64 * 64 && !want; x++) {
			uint32_t w[2] = {x % 64, x / 64};

			want = lit_holds(&base, w) && clauses_hold(cl, ncl, w);
		}
		got = ws_set_search(s, cl, ncl, &budget, wit);
		if (got != want)
			fail_msg("case %d: got %d, brute force %d", t, got,
				 want);
		if (got == WS_SAT) {
			assert_true(lit_holds(&base, wit));
			assert_true(clauses_hold(cl, ncl, wit));
			sat++;
		} else {
			unsat++;
		}
		/* The search leaves the set as it found it. */
		assert_int_equal(ws_set_mark(s), 1);
		ws_set_undo(s, 0);
	}
	ws_set_destroy(&s);
	print_message("search: %zu sat, %zu unsat\n", sat, unsat);
	assert_true(sat > 300 && unsat > 300);
}

/* A budget too small to finish is "unknown", never a verdict. */
static void test_search_budget(void **state)
{
	struct ws_set *s;
	struct ws_conj d[24][2];
	struct ws_clause cl[25];
	struct ws_conj none = {1, {{WS_W_ARG_LO(2), WS_EQ, ~0u, 1}}};
	struct ws_lit no = {WS_W_ARG_LO(2), WS_EQ, ~0u, 0};
	uint32_t wit[WS_WORDS];
	size_t budget = 1000;

	(void)state;
	assert_int_equal(ws_set_create(&s), 0);
	assert_int_equal(ws_set_add(s, &no), WS_SAT);
	/* 2^24 ways through the first 24 clauses, then a dead end. */
	for (int i = 0; i < 24; i++) {
		d[i][0] =
		    (struct ws_conj){1, {{WS_W_ARG_LO(0), WS_NE, 1u << i, 0}}};
		d[i][1] =
		    (struct ws_conj){1, {{WS_W_ARG_LO(1), WS_NE, 1u << i, 0}}};
		cl[i] = (struct ws_clause){2, d[i]};
	}
	cl[24] = (struct ws_clause){1, &none};
	assert_int_equal(ws_set_search(s, cl, 25, &budget, wit), WS_UNKNOWN);
	assert_int_equal(budget, 0);
	budget = 1000;
	assert_int_equal(ws_set_search(s, cl, 24, &budget, wit), WS_SAT);
	ws_set_destroy(&s);
}

/* ---- The path explorer --------------------------------------------------- */

#define PROG_MAX   64
#define LEAVES_MAX 4096

struct leaves {
	size_t n;
	uint32_t ret[LEAVES_MAX];
	uint32_t w[LEAVES_MAX][WS_WORDS];
};

static int collect(struct ws_set *path, uint32_t ret, void *user)
{
	struct leaves *l = user;

	assert_true(l->n < LEAVES_MAX);
	l->ret[l->n] = ret;
	ws_set_witness(path, l->w[l->n]);
	l->n++;
	return 0;
}

static const uint32_t kpool[] = {
    0, 1, 2, 0x10, 0x28, 0xff, 0x80000000u, 0xc000003eu, 0xffffffffu};
static const uint32_t offs[] = {0, 4, 16, 20, 24, 8};

/* A random valid program of the fragment: loads, `and`, jumps, rets. */
static size_t random_prog(uint64_t *s, struct sock_filter *p)
{
	static const uint16_t jops[] = {BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET};
	size_t n = 12 + rnd(s) % (PROG_MAX - 16), body = n - 4;

	for (size_t i = 0; i < body; i++) {
		size_t room = body - i; /* targets up to the first ret */
		uint32_t k = kpool[rnd(s) % N(kpool)];

		/* Short jumps, or most paths skip most of the program. */
		size_t hop = room < 4 ? room : 4;

		switch (i ? rnd(s) % 6 : 0) {
		case 0:
			p[i] = (struct sock_filter)BPF_STMT(
			    BPF_LD | BPF_W | BPF_ABS, offs[rnd(s) % N(offs)]);
			break;
		case 1:
			p[i] = (struct sock_filter)BPF_STMT(
			    BPF_ALU | BPF_AND | BPF_K,
			    rnd(s) % 2 ? k : (uint32_t)rnd(s));
			break;
		default:
			p[i] = (struct sock_filter)BPF_JUMP(
			    BPF_JMP | jops[rnd(s) % N(jops)] | BPF_K,
			    rnd(s) % 3 ? k : k + 1, (uint8_t)(rnd(s) % hop),
			    (uint8_t)(rnd(s) % 8 ? rnd(s) % hop
						 : rnd(s) % (room + 3)));
			break;
		}
	}
	for (size_t i = body; i < n; i++)
		p[i] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						    0x7fff0000u + (uint32_t)i);
	return n;
}

static void to_data(const uint32_t w[WS_WORDS], struct seccomp_data *d)
{
	memset(d, 0, sizeof(*d));
	d->nr = (int)w[WS_W_NR];
	d->arch = w[WS_W_ARCH];
	d->instruction_pointer = (uint64_t)w[WS_W_IP_HI] << 32 | w[2];
	for (int i = 0; i < 6; i++)
		d->args[i] =
		    (uint64_t)w[WS_W_ARG_HI(i)] << 32 | w[WS_W_ARG_LO(i)];
}

static uint32_t run(const struct sock_filter *p, size_t n,
		    const struct seccomp_data *d)
{
	struct bpf_run_result r;
	char err[128];

	if (bpf_run(p, n, d, &r, err, sizeof(err)))
		fail_msg("bpf_run: %s", err);
	return r.ret;
}

static void test_paths_against_interpreter(void **state)
{
	static struct leaves l;
	uint64_t seed = 0x082efa98ec4e6c89ull;
	struct sock_filter p[PROG_MAX];
	struct bpf_paths_in free_in = {0};
	struct ws_set *s;
	size_t progs = 0, paths = 0;
	char err[128];

	(void)state;
	assert_int_equal(ws_set_create(&s), 0);
	for (int t = 0; t < 600; t++) {
		size_t n = random_prog(&seed, p);
		int r;

		if (bpf_check(p, n, err, sizeof(err)))
			continue;
		progs++;
		/* Every input free: each path's witness takes that path. */
		l.n = 0;
		r = bpf_paths_explore(p, n, &free_in, s, LEAVES_MAX, collect,
				      &l);
		assert_int_equal(r, 0);
		assert_int_equal(ws_set_mark(s), 0);
		assert_true(l.n >= 1);
		for (size_t i = 0; i < l.n; i++) {
			struct seccomp_data d;

			to_data(l.w[i], &d);
			assert_int_equal(run(p, n, &d), l.ret[i]);
		}
		paths += l.n;
		/* Every input pinned (nr and arch half the time as fixed
		 * inputs): one path, the interpreter's. */
		for (int v = 0; v < 8; v++) {
			uint32_t w[WS_WORDS];
			struct bpf_paths_in in = {0};
			struct seccomp_data d;

			for (int i = 0; i < WS_WORDS; i++)
				w[i] = kpool[rnd(&seed) % N(kpool)] +
				       (uint32_t)(rnd(&seed) % 3) - 1;
			to_data(w, &d);
			if (v % 2) {
				in = (struct bpf_paths_in){1, 1, w[0], w[1]};
			}
			for (int i = v % 2 ? 2 : 0; i < WS_WORDS; i++) {
				struct ws_lit pin = {(uint8_t)i, WS_EQ, ~0u,
						     w[i]};

				assert_int_equal(ws_set_add(s, &pin), WS_SAT);
			}
			l.n = 0;
			r = bpf_paths_explore(p, n, &in, s, LEAVES_MAX, collect,
					      &l);
			assert_int_equal(r, 0);
			assert_int_equal(l.n, 1);
			assert_int_equal(l.ret[0], run(p, n, &d));
			ws_set_undo(s, 0);
		}
	}
	ws_set_destroy(&s);
	print_message("paths: %zu programs, %zu paths\n", progs, paths);
	assert_true(progs > 300 && paths > 3 * progs);
}

/* Instructions outside the fragment are refused, not guessed at. */
static void test_paths_outside_fragment(void **state)
{
	struct sock_filter p[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16),
	    BPF_STMT(BPF_MISC | BPF_TAX, 0),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_filter q[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16),
	    BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct bpf_paths_in in = {0};
	struct leaves *l = calloc(1, sizeof(*l));
	struct ws_set *s;

	(void)state;
	assert_non_null(l);
	assert_int_equal(ws_set_create(&s), 0);
	assert_int_equal(bpf_paths_explore(p, N(p), &in, s, 16, collect, l),
			 BPF_PATHS_OUTSIDE);
	assert_int_equal(bpf_paths_explore(q, N(q), &in, s, 16, collect, l),
			 BPF_PATHS_OUTSIDE);
	/* `ret a` of a constant is in. */
	q[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4);
	in = (struct bpf_paths_in){1, 1, 0, 7};
	assert_int_equal(bpf_paths_explore(q, N(q), &in, s, 16, collect, l), 0);
	assert_int_equal(l->n, 1);
	assert_int_equal(l->ret[0], 7);
	ws_set_destroy(&s);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ops),
	    cmocka_unit_test(test_small_widths_brute_force),
	    cmocka_unit_test(test_32bit_scattered_bits),
	    cmocka_unit_test(test_many_exclusions),
	    cmocka_unit_test(test_set_add_undo),
	    cmocka_unit_test(test_set_node_limit),
	    cmocka_unit_test(test_search_brute_force),
	    cmocka_unit_test(test_search_budget),
	    cmocka_unit_test(test_paths_against_interpreter),
	    cmocka_unit_test(test_paths_outside_fragment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
