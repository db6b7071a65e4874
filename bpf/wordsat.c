// SPDX-License-Identifier: MIT
/*
 * The word procedure of wordsat.h.
 *
 * One word: literals with the same (mask, k) compare the same masked value
 * with the same constant, so they are merged into a group whose allowed
 * final orders (below, equal, above) are the intersection of what each op
 * allows. Choosing the bits of w from the top, a group stays "equal so
 * far" until the first bit where (w & mask) and k differ, which decides
 * the unsigned order for good: the group is then either satisfied forever
 * or the branch is dead. So the state of the search at a bit is just the
 * set of groups still equal, and a state that failed once fails again:
 * failed (bit, set) pairs are memoized. A group whose mask has no bit left
 * is settled at once (its masked value is 0 from there on), and a state
 * with no group left is satisfiable with the remaining bits 0.
 */
#include "wordsat.h"

#include <stdlib.h>
#include <string.h>

/* Final orders of (w & mask) against k. */
#define O_LT 1u
#define O_EQ 2u
#define O_GT 4u

static const uint8_t allowed[6] = {
    [WS_EQ] = O_EQ,	   [WS_NE] = O_LT | O_GT, [WS_LT] = O_LT,
    [WS_LE] = O_LT | O_EQ, [WS_GT] = O_GT,	  [WS_GE] = O_GT | O_EQ,
};

enum ws_op ws_not(enum ws_op op)
{
	static const uint8_t neg[6] = {
	    [WS_EQ] = WS_NE, [WS_NE] = WS_EQ, [WS_LT] = WS_GE,
	    [WS_LE] = WS_GT, [WS_GT] = WS_LE, [WS_GE] = WS_LT,
	};

	return (enum ws_op)neg[op % 6];
}

int ws_holds(const struct ws_cons *c, uint32_t w)
{
	uint32_t x = w & c->mask;

	switch (c->op) {
	case WS_EQ:
		return x == c->k;
	case WS_NE:
		return x != c->k;
	case WS_LT:
		return x < c->k;
	case WS_LE:
		return x <= c->k;
	case WS_GT:
		return x > c->k;
	default:
		return x >= c->k;
	}
}

/* ---- One word ---------------------------------------------------------- */

struct grp {
	uint32_t m, k;
	uint8_t ok; /* O_* the group may end in */
};

/* Scratch for one decision, reused across decisions by a ws_set. */
struct solver {
	struct grp *g;
	size_t ng, gcap;
	size_t nw;	 /* 64-bit words per state (set of groups) */
	uint64_t *slot;	 /* one state per level of the search */
	size_t slotcap;	 /* in uint64_t */
	uint64_t *memo;	 /* entries of 1 + nw words; word 0 = bit + 1 */
	size_t mwords;	 /* allocated, in uint64_t */
	size_t mcap, mn; /* entries (a power of two), entries used */
	size_t nodes, max_nodes;
};

static void _solver_free(struct solver *sv)
{
	free(sv->g);
	free(sv->slot);
	free(sv->memo);
	memset(sv, 0, sizeof(*sv));
}

static uint64_t _hash(int bit, const uint64_t *st, size_t nw)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)(bit + 1);

	for (size_t i = 0; i < nw; i++) {
		h ^= st[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

static int _memo_has(const struct solver *sv, int bit, const uint64_t *st)
{
	size_t esz = 1 + sv->nw, i;

	if (!sv->mn)
		return 0;
	i = (size_t)_hash(bit, st, sv->nw) & (sv->mcap - 1);
	for (;; i = (i + 1) & (sv->mcap - 1)) {
		const uint64_t *e = &sv->memo[i * esz];

		if (!e[0])
			return 0;
		if (e[0] == (uint64_t)(bit + 1) &&
		    !memcmp(e + 1, st, sv->nw * sizeof(*st)))
			return 1;
	}
}

static void _memo_put(uint64_t *memo, size_t mcap, size_t nw, int bit,
		      const uint64_t *st)
{
	size_t esz = 1 + nw;
	size_t i = (size_t)_hash(bit, st, nw) & (mcap - 1);

	while (memo[i * esz])
		i = (i + 1) & (mcap - 1);
	memo[i * esz] = (uint64_t)(bit + 1);
	memcpy(&memo[i * esz + 1], st, nw * sizeof(*st));
}

/* Record a failed state; the table is kept at most half full. */
static int _memo_add(struct solver *sv, int bit, const uint64_t *st)
{
	size_t esz = 1 + sv->nw;

	if (2 * (sv->mn + 1) > sv->mcap) {
		size_t ncap = sv->mcap ? 2 * sv->mcap : 64;
		uint64_t *nm = calloc(ncap * esz, sizeof(*nm));

		if (!nm)
			return WS_ENOMEM;
		for (size_t i = 0; i < sv->mcap; i++)
			if (sv->memo[i * esz])
				_memo_put(nm, ncap, sv->nw,
					  (int)sv->memo[i * esz] - 1,
					  &sv->memo[i * esz + 1]);
		free(sv->memo);
		sv->memo = nm;
		sv->mcap = ncap;
		sv->mwords = ncap * esz;
	}
	_memo_put(sv->memo, sv->mcap, sv->nw, bit, st);
	sv->mn++;
	return 0;
}

/*
 * The memo is per decision: its states index this call's groups, and the
 * entry size changes with their number. A large table left by a hard
 * decision is freed rather than cleared for every small one after it.
 */
static void _memo_reset(struct solver *sv)
{
	size_t esz = 1 + sv->nw;

	if (sv->mwords > 4096) {
		free(sv->memo);
		sv->memo = NULL;
		sv->mwords = 0;
	} else if (sv->mn) {
		memset(sv->memo, 0, sv->mwords * sizeof(*sv->memo));
	}
	sv->mn = 0;
	sv->mcap = 0;
	if (sv->mwords >= esz)
		for (sv->mcap = 1; 2 * sv->mcap * esz <= sv->mwords;)
			sv->mcap *= 2;
}

static int _empty(const uint64_t *st, size_t nw)
{
	for (size_t i = 0; i < nw; i++)
		if (st[i])
			return 0;
	return 1;
}

/*
 * Settle the groups of st whose mask has no bit left under `low`: from
 * there on their masked value is 0, compared with the rest of k. Returns 0
 * when one ends in an order it may not.
 */
static int _settle(const struct solver *sv, uint64_t *st, uint32_t low)
{
	for (size_t wi = 0; wi < sv->nw; wi++) {
		for (uint64_t bb = st[wi]; bb; bb &= bb - 1) {
			size_t i = wi * 64 + (size_t)__builtin_ctzll(bb);
			const struct grp *g = &sv->g[i];

			if (g->m & low)
				continue;
			if (!(g->ok & ((g->k & low) ? O_LT : O_EQ)))
				return 0;
			st[wi] &= ~(1ull << (i % 64));
		}
	}
	return 1;
}

/*
 * next = cur after choosing bit `bit` of w to be b: the groups whose
 * masked value first differs from k there are decided. Returns 0 when one
 * is decided the way it may not be.
 */
static int _step(const struct solver *sv, const uint64_t *cur, uint64_t *next,
		 int bit, uint32_t b)
{
	memcpy(next, cur, sv->nw * sizeof(*cur));
	for (size_t wi = 0; wi < sv->nw; wi++) {
		for (uint64_t bb = cur[wi]; bb; bb &= bb - 1) {
			size_t i = wi * 64 + (size_t)__builtin_ctzll(bb);
			const struct grp *g = &sv->g[i];
			uint32_t vb = b & (g->m >> bit), kb = (g->k >> bit) & 1;

			if (vb == kb)
				continue;
			if (!(g->ok & (vb < kb ? O_LT : O_GT)))
				return 0;
			next[wi] &= ~(1ull << (i % 64));
		}
	}
	return 1;
}

/*
 * The search at `bit` (the next bit of w to choose, -1 when all are
 * chosen), the state in sv->slot at `level`, the chosen high bits in w.
 */
static int _dfs(struct solver *sv, int bit, size_t level, uint32_t w,
		uint32_t *out)
{
	uint64_t *cur = &sv->slot[level * sv->nw];
	uint64_t *next = cur + sv->nw;
	uint32_t low = bit < 0 ? 0 : bit == 31 ? ~0u : (2u << bit) - 1;
	int unknown = 0;

	if (!_settle(sv, cur, low))
		return WS_UNSAT;
	if (_empty(cur, sv->nw)) {
		*out = w;
		return WS_SAT;
	}
	/* bit >= 0 here: at -1 every group has settled. */
	if (_memo_has(sv, bit, cur))
		return WS_UNSAT;
	if (++sv->nodes > sv->max_nodes)
		return WS_UNKNOWN;
	for (uint32_t b = 0; b < 2; b++) {
		int r;

		if (!_step(sv, cur, next, bit, b))
			continue;
		r = _dfs(sv, bit - 1, level + 1, w | b << bit, out);
		if (r == WS_SAT || r == WS_ENOMEM)
			return r;
		if (r == WS_UNKNOWN)
			unknown = 1;
	}
	if (unknown)
		return WS_UNKNOWN;
	return _memo_add(sv, bit, cur) ? WS_ENOMEM : WS_UNSAT;
}

static int _solve(struct solver *sv, const struct ws_cons *c, size_t n,
		  unsigned int bits, size_t max_nodes, uint32_t *witness)
{
	uint32_t width = bits >= 32 ? ~0u : (1u << bits) - 1, w = 0;
	size_t need;
	int r;

	sv->nodes = 0;
	if (bits < 1 || bits > 32)
		return WS_UNKNOWN;
	/* A plain equality fixes w: check the others at it, no search. */
	for (size_t i = 0; i < n; i++) {
		if (c[i].op != WS_EQ || (c[i].mask & width) != width)
			continue;
		w = c[i].k;
		for (size_t j = 0; j < n && w <= width; j++)
			if (!ws_holds(&c[j], w))
				return WS_UNSAT;
		if (w > width)
			return WS_UNSAT;
		if (witness)
			*witness = w;
		return WS_SAT;
	}
	if (n > sv->gcap) {
		struct grp *ng = realloc(sv->g, n * sizeof(*ng));

		if (!ng)
			return WS_ENOMEM;
		sv->g = ng;
		sv->gcap = n;
	}
	sv->ng = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t m = c[i].mask & width;
		uint8_t ok = allowed[c[i].op % 6];
		size_t j;

		/* A k above every value w & m can take: settled below. */
		if (c[i].k & ~width) {
			if (!(ok & O_LT))
				return WS_UNSAT;
			continue;
		}
		for (j = 0; j < sv->ng; j++)
			if (sv->g[j].m == m && sv->g[j].k == c[i].k)
				break;
		if (j == sv->ng)
			sv->g[sv->ng++] =
			    (struct grp){m, c[i].k, O_LT | O_EQ | O_GT};
		sv->g[j].ok &= ok;
		if (!sv->g[j].ok)
			return WS_UNSAT;
	}
	/* So does a full-mask group that can only end equal (<= and >=). */
	for (size_t j = 0; j < sv->ng; j++) {
		if (sv->g[j].m != width || sv->g[j].ok != O_EQ)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!ws_holds(&c[i], sv->g[j].k))
				return WS_UNSAT;
		if (witness)
			*witness = sv->g[j].k;
		return WS_SAT;
	}
	sv->nw = sv->ng ? (sv->ng + 63) / 64 : 1;
	need = (size_t)(bits + 2) * sv->nw;
	if (need > sv->slotcap) {
		uint64_t *ns = realloc(sv->slot, need * sizeof(*ns));

		if (!ns)
			return WS_ENOMEM;
		sv->slot = ns;
		sv->slotcap = need;
	}
	_memo_reset(sv);
	sv->max_nodes = max_nodes < WS_MAX_NODES ? max_nodes : WS_MAX_NODES;
	memset(sv->slot, 0, sv->nw * sizeof(*sv->slot));
	for (size_t j = 0; j < sv->ng; j++)
		if (sv->g[j].ok != (O_LT | O_EQ | O_GT))
			sv->slot[j / 64] |= 1ull << (j % 64);
	r = _dfs(sv, (int)bits - 1, 0, 0, &w);
	if (r == WS_SAT && witness)
		*witness = w;
	return r;
}

int ws_word_sat(const struct ws_cons *c, size_t n, unsigned int bits,
		uint32_t *witness)
{
	struct solver sv = {0};
	int r = _solve(&sv, c, n, bits, WS_MAX_NODES, witness);

	_solver_free(&sv);
	return r;
}

/* ---- Sets of literals -------------------------------------------------- */

struct entry {
	struct ws_lit lit;
	uint32_t prev; /* the word's witness before this literal */
};

struct ws_set {
	struct entry *e;
	size_t n, cap;
	uint32_t wit[WS_WORDS];
	struct ws_cons *tmp;
	size_t tcap;
	size_t nodes_left; /* for all decisions from now on */
	struct solver sv;
};

int ws_set_create(struct ws_set **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return WS_ENOMEM;
	(*out)->nodes_left = SIZE_MAX;
	return 0;
}

void ws_set_limit(struct ws_set *s, size_t nodes)
{
	s->nodes_left = nodes;
}

void ws_set_destroy(struct ws_set **s)
{
	if (!s || !*s)
		return;
	free((*s)->e);
	free((*s)->tmp);
	_solver_free(&(*s)->sv);
	free(*s);
	*s = NULL;
}

size_t ws_set_mark(const struct ws_set *s)
{
	return s->n;
}

void ws_set_undo(struct ws_set *s, size_t mark)
{
	while (s->n > mark) {
		s->n--;
		s->wit[s->e[s->n].lit.word] = s->e[s->n].prev;
	}
}

int ws_set_add(struct ws_set *s, const struct ws_lit *l)
{
	struct ws_cons c = {l->mask, l->k, l->op};
	uint32_t w = 0;
	size_t nc = 0;
	int r;

	if (l->word >= WS_WORDS || l->op > WS_GE)
		return WS_UNKNOWN;
	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 64;
		struct entry *ne = realloc(s->e, ncap * sizeof(*ne));

		if (!ne)
			return WS_ENOMEM;
		s->e = ne;
		s->cap = ncap;
	}
	/* Most literals hold on the witness the word already has. */
	if (ws_holds(&c, s->wit[l->word])) {
		s->e[s->n++] = (struct entry){*l, s->wit[l->word]};
		return WS_SAT;
	}
	if (s->n + 1 > s->tcap) {
		size_t ncap = s->cap + 1;
		struct ws_cons *nt = realloc(s->tmp, ncap * sizeof(*nt));

		if (!nt)
			return WS_ENOMEM;
		s->tmp = nt;
		s->tcap = ncap;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].lit.word == l->word)
			s->tmp[nc++] = (struct ws_cons){
			    s->e[i].lit.mask, s->e[i].lit.k, s->e[i].lit.op};
	s->tmp[nc++] = c;
	r = _solve(&s->sv, s->tmp, nc, 32, s->nodes_left, &w);
	s->nodes_left -=
	    s->sv.nodes < s->nodes_left ? s->sv.nodes : s->nodes_left;
	if (r != WS_SAT)
		return r;
	s->e[s->n++] = (struct entry){*l, s->wit[l->word]};
	s->wit[l->word] = w;
	return WS_SAT;
}

void ws_set_witness(const struct ws_set *s, uint32_t out[WS_WORDS])
{
	memcpy(out, s->wit, sizeof(s->wit));
}

static int _search(struct ws_set *s, const struct ws_clause *cl, size_t n,
		   size_t *budget, uint32_t witness[WS_WORDS])
{
	int unknown = 0;

	if (!n) {
		ws_set_witness(s, witness);
		return WS_SAT;
	}
	for (size_t d = 0; d < cl->n; d++) {
		size_t mark = ws_set_mark(s);
		int r = WS_SAT;

		if (!*budget)
			return WS_UNKNOWN;
		--*budget;
		for (size_t i = 0; i < cl->d[d].n && r == WS_SAT; i++)
			r = ws_set_add(s, &cl->d[d].lit[i]);
		if (r == WS_SAT)
			r = _search(s, cl + 1, n - 1, budget, witness);
		ws_set_undo(s, mark);
		if (r == WS_SAT || r == WS_ENOMEM)
			return r;
		if (r == WS_UNKNOWN)
			unknown = 1;
	}
	return unknown ? WS_UNKNOWN : WS_UNSAT;
}

int ws_set_search(struct ws_set *s, const struct ws_clause *cl, size_t n,
		  size_t *budget, uint32_t witness[WS_WORDS])
{
	return _search(s, cl, n, budget, witness);
}
