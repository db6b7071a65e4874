// SPDX-License-Identifier: MIT
/*
 * The syscalls layer as rules libseccomp (and so runc) decides exactly as
 * ir_eval_syscall() does: what `polc export oci` writes (docs/OCI.md).
 *
 * Two things keep libseccomp from reading our rules as they are. It
 * compares every argument on 64 bits, where an int argument is compared on
 * the 32 the kernel reads; and it has no precedence among overlapping rules
 * of one syscall (the strictest wins, for us). So a syscall's rules become
 * disjoint regions, each a conjunction of masked equalities, one per
 * argument, which libseccomp states as SCMP_CMP_MASKED_EQ (or SCMP_CMP_EQ
 * for a full 64-bit mask): an int's test becomes a mask within its low 32
 * bits, which leaves the upper half free, as the kernel does.
 *
 * The regions come from splitting the argument space on the atoms that
 * decide: at a region, each rule holds everywhere, nowhere, or is open;
 * while an open rule stricter than every rule that holds could still win,
 * one of its open atoms splits the region into the parts where it holds
 * and where it fails, each a few cubes (a comparison of (x & m) with v,
 * walked bit by bit from the top, is less, equal or greater on disjoint
 * prefixes). Regions whose action is the default are not written; pairs
 * that differ in one bit are merged.
 */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Regions of one syscall before the export gives up on it. */
#define OCI_MAX_REGIONS 4096

struct cube {
	uint64_t m[6], d[6]; /* (arg & m) == d for each argument */
};

struct out {
	struct seccomp_oci_rule *v;
	size_t n, cap;
	size_t start; /* this syscall's first region */
	int oom, full;
};

/* What an atom is on a cube: 1 holds everywhere, 0 nowhere, -1 open. */
static int _atom_on(const struct ir_atom *a, const struct cube *c)
{
	uint64_t w = a->width == 32 ? 0xffffffffull : UINT64_MAX;
	uint64_t m = a->mask & w, v = a->value & w;
	uint64_t fixed = m & c->m[a->arg], open = m & ~c->m[a->arg];
	uint64_t lo = c->d[a->arg] & fixed, hi = lo | open;
	int eq_can = !(v & ~m) && (v & fixed) == lo;
	int eq_all = eq_can && !open;

	switch (a->op) {
	case IR_OP_EQ:
		return eq_all ? 1 : eq_can ? -1 : 0;
	case IR_OP_NE:
		return eq_all ? 0 : eq_can ? -1 : 1;
	case IR_OP_LT:
		return hi < v ? 1 : lo >= v ? 0 : -1;
	case IR_OP_LE:
		return hi <= v ? 1 : lo > v ? 0 : -1;
	case IR_OP_GT:
		return lo > v ? 1 : hi <= v ? 0 : -1;
	default: /* GE */
		return lo >= v ? 1 : hi < v ? 0 : -1;
	}
}

static int _rule_on(const struct ir_rule *r, const struct cube *c)
{
	int all = 1;

	for (uint32_t i = 0; i < r->natoms; i++) {
		int s = _atom_on(&r->atoms[i], c);

		if (s == 0)
			return 0;
		if (s < 0)
			all = 0;
	}
	return all ? 1 : -1;
}

static void _emit(struct out *o, const char *name, const struct cube *c,
		  const struct ir_action *act)
{
	struct seccomp_oci_rule *r;

	if (o->n - o->start >= OCI_MAX_REGIONS) {
		o->full = 1;
		return;
	}
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		struct seccomp_oci_rule *nv = realloc(o->v, cap * sizeof(*nv));

		if (!nv) {
			o->oom = 1;
			return;
		}
		o->v = nv;
		o->cap = cap;
	}
	r = &o->v[o->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->syscall, sizeof(r->syscall), "%s", name);
	r->action = *act;
	for (unsigned k = 0; k < 6; k++) {
		r->mask[k] = c->m[k];
		r->value[k] = c->d[k];
	}
}

/* c narrowed to bit pattern (mask, data) on arg k, if they agree. */
static int _narrow(const struct cube *c, unsigned k, uint64_t mask,
		   uint64_t data, struct cube *out)
{
	if ((c->d[k] ^ data) & c->m[k] & mask)
		return 0;
	*out = *c;
	out->m[k] |= mask;
	out->d[k] = (out->d[k] & ~mask) | (data & mask);
	return 1;
}

static void _split(struct out *o, const struct ir_syscalls *s,
		   const struct ir_syscall *sc, const struct cube *c);

/*
 * The parts of c where atom a holds (want 1) or fails (want 0), each a
 * cube, refined in turn: (x & m) against v from the top bit down, equal on
 * a prefix, then less or greater at the first bit that differs.
 */
static void _split_on(struct out *o, const struct ir_syscalls *s,
		      const struct ir_syscall *sc, const struct cube *c,
		      const struct ir_atom *a)
{
	uint64_t w = a->width == 32 ? 0xffffffffull : UINT64_MAX;
	uint64_t m = a->mask & w, v = a->value & w, pm = 0, pd = 0;
	struct cube part;

	/* On each part the atom is decided; _split() goes on from there. */
	for (int b = a->width == 32 ? 31 : 63; b >= 0; b--) {
		uint64_t bit = 1ull << b;

		if (!(m & bit)) {
			if (v & bit) {
				/* (x & m) has 0 here, v has 1: less. */
				if (_narrow(c, a->arg, pm, pd, &part))
					_split(o, s, sc, &part);
				return;
			}
			continue;
		}
		/* The branch where x differs from v at this bit. */
		if (_narrow(c, a->arg, pm | bit, pd | (~v & bit), &part))
			_split(o, s, sc, &part);
		pm |= bit;
		pd |= v & bit;
	}
	/* Equal on every bit. */
	if (_narrow(c, a->arg, pm, pd, &part))
		_split(o, s, sc, &part);
}

static void _split(struct out *o, const struct ir_syscalls *s,
		   const struct ir_syscall *sc, const struct cube *c)
{
	const struct ir_action *best = NULL;
	const struct ir_rule *open = NULL;

	if (o->oom || o->full)
		return;
	for (uint32_t i = 0; i < sc->nrules; i++) {
		const struct ir_rule *r = &sc->rules[i];
		int st = _rule_on(r, c);

		if (st == 1 && (!best || ir_action_cmp(&r->action, best) < 0))
			best = &r->action;
		if (st < 0 &&
		    (!open || ir_action_cmp(&r->action, &open->action) < 0))
			open = r;
	}
	/* An open rule matters only if it is stricter than what holds. */
	if (open && (!best || ir_action_cmp(&open->action, best) < 0)) {
		for (uint32_t i = 0; i < open->natoms; i++)
			if (_atom_on(&open->atoms[i], c) < 0) {
				_split_on(o, s, sc, c, &open->atoms[i]);
				return;
			}
	}
	_emit(o, sc->name, c, best ? best : &s->def);
}

/* Two regions of one action that differ in one bit become one. */
static int _mergeable(const struct seccomp_oci_rule *a,
		      const struct seccomp_oci_rule *b, unsigned *karg,
		      uint64_t *kbit)
{
	int diff = -1;

	if (ir_action_cmp(&a->action, &b->action))
		return 0;
	for (unsigned k = 0; k < 6; k++) {
		uint64_t x = a->value[k] ^ b->value[k];

		if (a->mask[k] != b->mask[k])
			return 0;
		if (!x)
			continue;
		if (diff >= 0 || (x & (x - 1)))
			return 0;
		diff = (int)k;
		*kbit = x;
	}
	if (diff < 0)
		return 0;
	*karg = (unsigned)diff;
	return 1;
}

static void _merge(struct out *o)
{
	int again = 1;

	while (again) {
		again = 0;
		for (size_t i = o->start; i < o->n; i++)
			for (size_t j = i + 1; j < o->n; j++) {
				unsigned k;
				uint64_t bit;

				if (!_mergeable(&o->v[i], &o->v[j], &k, &bit))
					continue;
				o->v[i].mask[k] &= ~bit;
				o->v[i].value[k] &= ~bit;
				o->v[j] = o->v[--o->n];
				again = 1;
				j--;
			}
	}
}

int seccomp_oci_rules(const struct ir_syscalls *s,
		      struct seccomp_oci_rules *out, char *err, size_t errlen)
{
	struct out o = {0};

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < s->ncalls; i++) {
		const struct ir_syscall *sc = &s->calls[i];
		struct cube all = {{0}, {0}};
		size_t k = o.n;

		o.start = o.n;
		_split(&o, s, sc, &all);
		if (o.full) {
			snprintf(err, errlen,
				 "%s: more than %d disjoint argument regions; "
				 "the profile would be too large",
				 sc->name, OCI_MAX_REGIONS);
			free(o.v);
			return -1;
		}
		_merge(&o);
		/* Regions with the default action are what no rule says. */
		for (size_t j = o.start; j < o.n; j++)
			if (ir_action_cmp(&o.v[j].action, &s->def))
				o.v[k++] = o.v[j];
		o.n = k;
	}
	if (o.oom) {
		snprintf(err, errlen, "out of memory");
		free(o.v);
		return -1;
	}
	out->v = o.v;
	out->n = o.n;
	return 0;
}

void seccomp_oci_rules_free(struct seccomp_oci_rules *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
