// SPDX-License-Identifier: MIT
/*
 * An entry's action and conditions as our rules. libseccomp compares
 * every argument on 64 bits; polc compares an int on the 32 the kernel
 * reads. So a condition on an int argument is translated exactly, with
 * ARG.hi for the upper half of the register (docs/OCI.md, "The 64-bit
 * comparison of an int argument"), or, with --int-args kernel, as the
 * kernel reads it (the upper half taken as zero).
 */
#include "diag.h"
#include "ir/ir.h"
#include "oci_int.h"
#include "tables/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Actions ------------------------------------------------------------ */

/*
 * An action as runc reads it: 0 and *a, or -1 (reported). errnum is the
 * errnoRet given (has_errno) for ERRNO.
 */
int imp_action(struct imp *m, const char *where, const char *name,
	       int has_errno, uint64_t errnum, struct ir_action *a)
{
	int k = oci_act_find(name);

	memset(a, 0, sizeof(*a));
	switch (k) {
	case OCI_ACT_KILL:
	case OCI_ACT_KILL_THREAD:
		a->kind = IR_ACT_KILL_THREAD;
		break;
	case OCI_ACT_KILL_PROCESS:
		a->kind = IR_ACT_KILL_PROCESS;
		break;
	case OCI_ACT_TRAP:
		a->kind = IR_ACT_TRAP;
		break;
	case OCI_ACT_ALLOW:
		a->kind = IR_ACT_ALLOW;
		break;
	case OCI_ACT_LOG:
		a->kind = IR_ACT_LOG;
		break;
	case OCI_ACT_ERRNO:
		a->kind = IR_ACT_ERRNO;
		a->errnum = OCI_DEFAULT_ERRNO;
		if (!has_errno)
			break;
		if (errnum == 0 || errnum > 4095) {
			imp_err(m,
				"%s: errno %llu: polc's errno actions return "
				"1..4095 (errno 0 would make the call return 0 "
				"without running it)",
				where, (unsigned long long)errnum);
			return -1;
		}
		a->errnum = (uint16_t)errnum;
		break;
	case OCI_ACT_TRACE:
	case OCI_ACT_NOTIFY:
		imp_err(m,
			"%s: %s hands the call to a %s, which polc's actions "
			"cannot say",
			where, name,
			k == OCI_ACT_TRACE ? "tracer" : "supervisor");
		return -1;
	default: {
		const char *close =
		    diag_closest(name, oci_act_names, OCI_ACT_COUNT);

		if (close)
			imp_err(m,
				"%s: unknown action '%s'; did you mean '%s'?",
				where, name, close);
		else
			imp_err(m, "%s: unknown action '%s'", where, name);
		return -1;
	}
	}
	if (has_errno && k != OCI_ACT_ERRNO)
		imp_warn(m,
			 "%s: errnoRet %llu means nothing to %s (runc ignores "
			 "it)",
			 where, (unsigned long long)errnum, name);
	return 0;
}

/* ---- Conditions to atoms ------------------------------------------------ */

/* Alternatives of one condition: each a conjunction of at most 2 atoms. */
struct alt {
	uint32_t n;
	struct ir_atom a[2];
	int dirty; /* holds only when an int's upper half is not zero */
};

struct alts {
	struct alt v[2];
	size_t n; /* 0: the condition never holds */
};

static struct ir_atom _atom(unsigned idx, unsigned width, int op, uint64_t mask,
			    uint64_t value)
{
	return (struct ir_atom){(uint8_t)idx, (uint8_t)width, (uint8_t)op, mask,
				value};
}

static void _alt(struct alts *out, int dirty, uint32_t n, struct ir_atom a0,
		 struct ir_atom a1)
{
	out->v[out->n] = (struct alt){n, {a0, a1}, dirty};
	out->n++;
}

/* A 64-bit comparison on a 64-bit argument: one atom, or none. */
static void _cond64(const struct cond *c, struct alts *out)
{
	static const int ops[] = {
	    [OCI_OP_NE] = IR_OP_NE, [OCI_OP_LT] = IR_OP_LT,
	    [OCI_OP_LE] = IR_OP_LE, [OCI_OP_EQ] = IR_OP_EQ,
	    [OCI_OP_GE] = IR_OP_GE, [OCI_OP_GT] = IR_OP_GT,
	};
	struct ir_atom none = {0};

	out->n = 0;
	if (c->op == OCI_OP_MASKED_EQ) {
		if (c->v2 & ~c->v)
			return; /* never */
		if (c->v == 0)
			_alt(out, 0, 0, none, none); /* always */
		else
			_alt(out, 0, 1,
			     _atom(c->index, 64, IR_OP_EQ, c->v, c->v2), none);
		return;
	}
	if ((c->op == OCI_OP_LT && c->v == 0) ||
	    (c->op == OCI_OP_GT && c->v == UINT64_MAX))
		return;
	if ((c->op == OCI_OP_GE && c->v == 0) ||
	    (c->op == OCI_OP_LE && c->v == UINT64_MAX)) {
		_alt(out, 0, 0, none, none);
		return;
	}
	_alt(out, 0, 1, _atom(c->index, 64, ops[c->op], UINT64_MAX, c->v),
	     none);
}

/*
 * A 64-bit comparison on an int argument, exactly: the upper half (as
 * ARG.hi) decides unless it equals the value's, then the lower half does.
 * `dirty` marks the alternatives that hold only with the upper half not
 * zero: the kernel never sees that half, so there the rule lets a call
 * through for a reason the kernel ignores.
 */
static void _cond32(const struct cond *c, struct alts *out)
{
	uint32_t vh = (uint32_t)(c->v >> 32), vl = (uint32_t)c->v;
	struct ir_atom none = {0};
	unsigned i = c->index;
	struct ir_atom hi_eq =
	    _atom(i, 64, IR_OP_EQ, 0xffffffff00000000ull, (uint64_t)vh << 32);

	out->n = 0;
#define HI(op) _atom(i, 64, op, 0xffffffff00000000ull, (uint64_t)vh << 32)
#define LO(op) _atom(i, 32, op, 0xffffffffull, vl)
	switch (c->op) {
	case OCI_OP_EQ:
		_alt(out, vh != 0, 2, hi_eq, LO(IR_OP_EQ));
		break;
	case OCI_OP_NE:
		_alt(out, vh == 0, 1, HI(IR_OP_NE), none);
		_alt(out, vh != 0, 2, hi_eq, LO(IR_OP_NE));
		break;
	case OCI_OP_LT:
	case OCI_OP_LE:
		if (vh)
			_alt(out, 0, 1, HI(IR_OP_LT), none);
		if (c->op == OCI_OP_LE && vl == 0xffffffffu)
			_alt(out, vh != 0, 1, hi_eq, none);
		else if (c->op == OCI_OP_LE || vl)
			_alt(out, vh != 0, 2, hi_eq,
			     LO(c->op == OCI_OP_LT ? IR_OP_LT : IR_OP_LE));
		break;
	case OCI_OP_GT:
	case OCI_OP_GE:
		if (vh != 0xffffffffu)
			_alt(out, 1, 1, HI(IR_OP_GT), none);
		if (c->op == OCI_OP_GE && vl == 0)
			_alt(out, vh != 0, 1, hi_eq, none);
		else if (c->op == OCI_OP_GE || vl != 0xffffffffu)
			_alt(out, vh != 0, 2, hi_eq,
			     LO(c->op == OCI_OP_GT ? IR_OP_GT : IR_OP_GE));
		break;
	default: { /* MASKED_EQ: (x & v) == v2, word by word */
		uint32_t mh = (uint32_t)(c->v >> 32), ml = (uint32_t)c->v;
		uint32_t dh = (uint32_t)(c->v2 >> 32), dl = (uint32_t)c->v2;
		struct ir_atom a[2];
		uint32_t n = 0;

		if ((dh & ~mh) || (dl & ~ml))
			break; /* never */
		if (mh)
			a[n++] = _atom(i, 64, IR_OP_EQ, (uint64_t)mh << 32,
				       (uint64_t)dh << 32);
		if (ml)
			a[n++] = _atom(i, 32, IR_OP_EQ, ml, dl);
		_alt(out, dh != 0, n, n > 0 ? a[0] : none, n > 1 ? a[1] : none);
	}
	}
#undef HI
#undef LO
}

/* As the kernel reads an int: the upper half taken as zero. */
static void _kernel_view(struct alts *x)
{
	size_t k = 0;

	for (size_t j = 0; j < x->n; j++) {
		struct alt a = x->v[j];
		uint32_t n = 0;
		int holds = 1;

		for (uint32_t t = 0; t < a.n; t++) {
			uint64_t zero[6] = {0};

			if (a.a[t].width == 64)
				holds &= ir_atom_holds(&a.a[t], zero);
			else
				a.a[n++] = a.a[t];
		}
		a.n = n;
		a.dirty = 0;
		if (holds)
			x->v[k++] = a;
	}
	x->n = k;
}

/* ---- The rules of each syscall ------------------------------------------ */

struct call *imp_call(struct imp *m, const char *name)
{
	struct call *c;

	for (size_t i = 0; i < m->nc; i++)
		if (!strcmp(m->c[i].name, name))
			return &m->c[i];
	c = imp_grow(m, m->c, &m->capc, m->nc, sizeof(*m->c));
	if (!c)
		return NULL;
	m->c = c;
	c = &m->c[m->nc++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

static void _add_rule(struct imp *m, struct call *c, const struct rule *r)
{
	struct rule *v = imp_grow(m, c->r, &c->cap, c->n, sizeof(*c->r));

	if (!v)
		return;
	c->r = v;
	c->r[c->n] = *r;
	qsort(c->r[c->n].atoms, r->natoms, sizeof(r->atoms[0]),
	      (int (*)(const void *, const void *))ir_atom_cmp);
	c->n++;
}

/*
 * One libseccomp rule (conditions cv, ANDed) of entry ei for syscall sc:
 * the product of the conditions' alternatives. 0, or -1 (reported).
 */
int imp_product(struct imp *m, int ei, int orule, const char *sc,
		const struct cond *cv, size_t n, struct call *c)
{
	struct alts alts[ARGS_MAX];
	size_t total = 1, k;
	struct entry *e = &m->e[ei];

	for (size_t i = 0; i < n; i++) {
		unsigned width;
		char pos[8];

		snprintf(pos, sizeof(pos), "arg%u", cv[i].index);
		if (syscall_args_index(sc, pos, &width) < 0) {
			imp_err(
			    m,
			    "syscalls[%d] (%s): %s takes no argument %u; "
			    "libseccomp would compare a register the kernel "
			    "does not read",
			    ei, sc, sc, cv[i].index);
			return -1;
		}
		if (width == 64)
			_cond64(&cv[i], &alts[i]);
		else {
			_cond32(&cv[i], &alts[i]);
			if (m->o->kernel_view)
				_kernel_view(&alts[i]);
		}
		total *= alts[i].n;
	}
	if (total == 0) {
		e->never = 1;
		return 0;
	}
	for (k = 0; k < total; k++) {
		struct rule r = {.act = e->act, .entry = ei, .orule = orule};
		size_t rest = k;

		r.scmp_all = n == 0;
		for (size_t i = 0; i < n; i++) {
			const struct alt *a = &alts[i].v[rest % alts[i].n];

			rest /= alts[i].n;
			if (r.natoms + a->n > IR_MAX_ATOMS) {
				imp_err(m,
					"syscalls[%d] (%s): more than %d "
					"argument tests in one rule",
					ei, sc, IR_MAX_ATOMS);
				return -1;
			}
			for (uint32_t t = 0; t < a->n; t++)
				r.atoms[r.natoms++] = a->a[t];
			if (a->dirty && e->act.kind >= IR_ACT_LOG &&
			    ir_action_cmp(&e->act, &m->def) > 0)
				e->hole = 1;
		}
		_add_rule(m, c, &r);
	}
	return 0;
}
