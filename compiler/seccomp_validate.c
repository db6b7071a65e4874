// SPDX-License-Identifier: MIT
/*
 * Translation validation: the seccomp program against the IR.
 *
 * The specification, for seccomp_data (arch, nr, ip, args):
 *   arch != AUDIT_ARCH_X86_64          -> the bad-arch action
 *   nr >= 0x40000000 (x32 bit, or any
 *   number no arch has)                -> the bad-arch action
 *   otherwise                          -> ir_eval_syscall(sys, the IR
 *       syscall named by libseccomp's x86_64 name for nr or NULL, args)
 *
 * How each part is proven:
 *   - nr in 0..max x86_64 number: run the program concretely. If that run
 *     read no argument and no instruction pointer, its path, and so its
 *     result, is the same for every argument vector; if moreover the IR
 *     syscall has no argument test, ir_eval_syscall() is constant too, and
 *     one comparison proves the number. Otherwise the program is explored
 *     symbolically with nr fixed, and on every path Z3 must prove
 *     "result != IR action" unsatisfiable, the IR action being a Z3 term
 *     built from the rules (the fold below mirrors ir_eval_syscall()).
 *   - nr above the max x86_64 number up to 0x3fffffff: symbolic nr, the
 *     default action expected; concrete runs at both ends.
 *   - nr in 0x40000000..0xffffffff: symbolic nr, bad-arch expected;
 *     concrete runs at boundary points.
 *   - arch i386, arch aarch64, and any arch but x86_64: symbolic nr,
 *     bad-arch expected.
 * A syscall whose program has more than 1024 paths (rules that can each
 * fail at one of several tests multiply them) is decided by one query on
 * the program's merged result term (bpf_sym_result()) instead.
 * A witness from the solver is replayed through the interpreter and
 * ir_eval_syscall() before it is reported, so a report never rests on the
 * symbolic model alone.
 */
#include "seccomp_validate.h"

#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "bpf_interp.h"
#include "bpf_symbolic.h"

#define X32_BIT	  0x40000000u
#define NR_SCAN	  1024 /* x86_64 numbers are far below this */
#define NO_ACTION 0xffffffffu

struct validator {
	const struct ir_syscalls *sys;
	const struct sock_filter *prog;
	size_t n;
	struct bpf_sym *sym;
	Z3_ast expect; /* 32-bit term: the seccomp value the spec gives */
	struct seccomp_data witness;
	int max_nr;
	char *err;
	size_t errlen;
};

static int _fail(struct validator *v, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int _fail(struct validator *v, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->err, v->errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * The seccomp value of an action, written here a second time on purpose:
 * validation must not share the code generator's table, or a wrong entry
 * there would be "proven" right.
 */
static uint32_t _value(const struct ir_action *a)
{
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		return 0x80000000u;
	case IR_ACT_KILL_THREAD:
		return 0x00000000u;
	case IR_ACT_TRAP:
		return 0x00030000u;
	case IR_ACT_ERRNO:
		return 0x00050000u | (a->errnum & 0xffffu);
	case IR_ACT_LOG:
		return 0x7ffc0000u;
	default:
		return 0x7fff0000u;
	}
}

/* The program's result as text, in the IR's words where it has them. */
static const char *_ret_str(uint32_t ret, char *buf, size_t len)
{
	static const uint8_t kinds[] = {IR_ACT_KILL_PROCESS, IR_ACT_KILL_THREAD,
					IR_ACT_TRAP, IR_ACT_LOG, IR_ACT_ALLOW};
	struct ir_action a = {IR_ACT_ERRNO, (uint16_t)(ret & 0xffff)};

	if ((ret & 0xffff0000u) == 0x00050000u && a.errnum <= 4095)
		return ir_action_str(&a, buf, len);
	for (size_t i = 0; i < sizeof(kinds); i++) {
		a = (struct ir_action){kinds[i], 0};
		if (_value(&a) == ret)
			return ir_action_str(&a, buf, len);
	}
	snprintf(buf, len, "ret 0x%08x", ret);
	return buf;
}

/* ---- The IR as a Z3 term ---------------------------------------------- */

static Z3_ast _atom_term(struct bpf_sym *s, const struct ir_atom *a)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast x = bpf_sym_arg(s, a->arg), m, val;

	if (a->width == 32) {
		/* The kernel reads an int: only the low word exists. */
		x = Z3_mk_extract(c, 31, 0, x);
		m = bpf_sym_u32(s, (uint32_t)a->mask);
		val = bpf_sym_u32(s, (uint32_t)a->value);
	} else {
		m = bpf_sym_u64(s, a->mask);
		val = bpf_sym_u64(s, a->value);
	}
	x = Z3_mk_bvand(c, x, m);
	switch (a->op) {
	case IR_OP_EQ:
		return Z3_mk_eq(c, x, val);
	case IR_OP_NE:
		return Z3_mk_not(c, Z3_mk_eq(c, x, val));
	case IR_OP_LT:
		return Z3_mk_bvult(c, x, val);
	case IR_OP_LE:
		return Z3_mk_bvule(c, x, val);
	case IR_OP_GT:
		return Z3_mk_bvugt(c, x, val);
	default:
		return Z3_mk_bvuge(c, x, val);
	}
}

/* Restrictiveness as one number: kind, then errno (smaller is stricter). */
static uint32_t _key(const struct ir_action *a)
{
	return (uint32_t)a->kind << 16 | a->errnum;
}

/*
 * The seccomp value ir_eval_syscall() gives, as a term over the arguments:
 * best = the smallest key among the rules that hold, else the default.
 */
static Z3_ast _spec_term(struct bpf_sym *s, const struct ir_syscalls *sys,
			 const struct ir_syscall *sc)
{
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast best = bpf_sym_u32(s, NO_ACTION), out;
	uint32_t nr = sc ? sc->nrules : 0;

	for (uint32_t r = 0; r < nr; r++) {
		const struct ir_rule *rule = &sc->rules[r];
		Z3_ast key = bpf_sym_u32(s, _key(&rule->action));
		Z3_ast holds = Z3_mk_bvult(c, key, best);

		for (uint32_t i = 0; i < rule->natoms; i++) {
			Z3_ast both[2] = {holds,
					  _atom_term(s, &rule->atoms[i])};

			holds = Z3_mk_and(c, 2, both);
		}
		best = Z3_mk_ite(c, holds, key, best);
	}
	out = bpf_sym_u32(s, _value(&sys->def));
	for (uint32_t r = 0; r < nr; r++) {
		const struct ir_action *a = &sc->rules[r].action;
		Z3_ast is = Z3_mk_eq(c, best, bpf_sym_u32(s, _key(a)));

		out = Z3_mk_ite(c, is, bpf_sym_u32(s, _value(a)), out);
	}
	return out;
}

static int _has_atoms(const struct ir_syscall *sc)
{
	for (uint32_t r = 0; sc && r < sc->nrules; r++)
		if (sc->rules[r].natoms)
			return 1;
	return 0;
}

/* ---- Reporting -------------------------------------------------------- */

static void _name(const struct validator *v, uint32_t arch, uint32_t nr,
		  char *buf, size_t len)
{
	char *name = NULL;

	if (arch != AUDIT_ARCH_X86_64) {
		snprintf(buf, len, "arch 0x%08x syscall 0x%x", arch, nr);
		return;
	}
	if (nr >= X32_BIT) {
		snprintf(buf, len, "x32 syscall 0x%x", nr);
		return;
	}
	if ((int)nr <= v->max_nr)
		name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, (int)nr);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "syscall %u", nr);
	free(name);
}

/* The specification at one concrete point. */
static struct ir_action _spec(const struct validator *v,
			      const struct seccomp_data *d)
{
	const struct ir_syscall *sc = NULL;
	uint64_t args[6];
	char *name;

	if (d->arch != AUDIT_ARCH_X86_64 || (uint32_t)d->nr >= X32_BIT)
		return v->sys->badarch;
	if (d->nr <= v->max_nr) {
		name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, d->nr);
		if (name)
			sc = ir_find_syscall(v->sys, name);
		free(name);
	}
	for (int i = 0; i < 6; i++)
		args[i] = d->args[i];
	return ir_eval_syscall(v->sys, sc, args);
}

/* Compare program and spec at d; 0 equal, 1 mismatch (reported). */
static int _point(struct validator *v, const struct seccomp_data *d)
{
	struct bpf_run_result res;
	struct ir_action want = _spec(v, d);
	char what[64], got[48], exp[48], emsg[128];

	_name(v, d->arch, (uint32_t)d->nr, what, sizeof(what));
	if (bpf_run(v->prog, v->n, d, &res, emsg, sizeof(emsg)))
		return _fail(v, 1, "%s: program fails: %s", what, emsg);
	if (res.ret == _value(&want))
		return 0;
	return _fail(
	    v, 1,
	    "%s(arg0=0x%llx, arg1=0x%llx, arg2=0x%llx, arg3=0x%llx, "
	    "arg4=0x%llx, arg5=0x%llx): program %s, policy %s",
	    what, (unsigned long long)d->args[0],
	    (unsigned long long)d->args[1], (unsigned long long)d->args[2],
	    (unsigned long long)d->args[3], (unsigned long long)d->args[4],
	    (unsigned long long)d->args[5], _ret_str(res.ret, got, sizeof(got)),
	    ir_action_str(&want, exp, sizeof(exp)));
}

/* ---- Symbolic parts --------------------------------------------------- */

static int _leaf(struct bpf_sym *s, const struct bpf_sym_path *path, void *user)
{
	struct validator *v = user;
	Z3_context c = bpf_sym_ctx(s);
	Z3_ast differs = Z3_mk_not(c, Z3_mk_eq(c, path->ret_term, v->expect));

	switch (bpf_sym_check(s, differs, &v->witness)) {
	case BPF_SYM_UNSAT:
		return 0;
	case BPF_SYM_SAT:
		return 1;
	default:
		return _fail(v, -1, "solver could not decide: %s",
			     bpf_sym_reason(s));
	}
}

/*
 * Too many paths: one query on the program's merged result term instead.
 * Returns 0, 1 (witness in v->witness) or -1.
 */
static int _merged(struct validator *v, Z3_ast nr, Z3_ast arch, Z3_ast pre,
		   char *emsg, size_t len)
{
	Z3_context c = bpf_sym_ctx(v->sym);
	Z3_ast result, q[2];
	uint16_t loaded;

	if (bpf_sym_result(v->sym, v->prog, v->n, nr, arch, &result, &loaded,
			   emsg, len))
		return -1;
	q[0] = pre ? pre : Z3_mk_true(c);
	q[1] = Z3_mk_not(c, Z3_mk_eq(c, result, v->expect));
	switch (bpf_sym_check(v->sym, Z3_mk_and(c, 2, q), &v->witness)) {
	case BPF_SYM_UNSAT:
		return 0;
	case BPF_SYM_SAT:
		return 1;
	default:
		snprintf(emsg, len, "solver could not decide: %s",
			 bpf_sym_reason(v->sym));
		return -1;
	}
}

/*
 * Explore with the given nr and arch terms under `pre`, `expect` being the
 * specification's value. Returns 0, 1 (mismatch reported) or -1.
 */
static int _explore(struct validator *v, Z3_ast nr, Z3_ast arch, Z3_ast pre,
		    Z3_ast expect, const char *what)
{
	char emsg[160];
	int r;

	v->expect = expect;
	emsg[0] = 0;
	r = bpf_sym_explore(v->sym, v->prog, v->n, nr, arch, pre, _leaf, v,
			    emsg, sizeof(emsg));
	if (r == BPF_SYM_PATH_LIMIT)
		r = _merged(v, nr, arch, pre, emsg, sizeof(emsg));
	if (r < 0)
		return emsg[0] ? _fail(v, -1, "%s: %s", what, emsg) : -1;
	if (r == 0)
		return 0;
	/* Replay the witness: it must show the mismatch concretely. */
	if (_point(v, &v->witness) == 1)
		return 1;
	return _fail(v, -1, "%s: solver witness does not reproduce", what);
}

static int _number(struct validator *v, int nr)
{
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
	struct bpf_run_result res;
	const struct ir_syscall *sc = NULL;
	char *name, what[64], emsg[128];
	int r;

	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
	if (name)
		sc = ir_find_syscall(v->sys, name);
	free(name);
	_name(v, AUDIT_ARCH_X86_64, (uint32_t)nr, what, sizeof(what));
	if (bpf_run(v->prog, v->n, &d, &res, emsg, sizeof(emsg)))
		return _fail(v, 1, "%s: program fails: %s", what, emsg);
	r = _point(v, &d);
	if (r || (!(res.loaded & (BPF_LOADED_ARGS | BPF_LOADED_IP)) &&
		  !_has_atoms(sc)))
		return r;
	return _explore(v, bpf_sym_u32(v->sym, (uint32_t)nr),
			bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64), NULL,
			_spec_term(v->sym, v->sys, sc), what);
}

/* nr symbolic in lo..hi on x86_64, expecting `want`. */
static int _range(struct validator *v, uint32_t lo, uint32_t hi,
		  const struct ir_action *want, const char *what)
{
	Z3_context c = bpf_sym_ctx(v->sym);
	Z3_ast nr = bpf_sym_nr(v->sym);
	Z3_ast in[2] = {Z3_mk_bvuge(c, nr, bpf_sym_u32(v->sym, lo)),
			Z3_mk_bvule(c, nr, bpf_sym_u32(v->sym, hi))};

	return _explore(v, nr, bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64),
			Z3_mk_and(c, 2, in), bpf_sym_u32(v->sym, _value(want)),
			what);
}

/* Any nr on a foreign arch: `arch` a numeral, or the variable with pre. */
static int _foreign(struct validator *v, Z3_ast arch, Z3_ast pre,
		    const char *what)
{
	return _explore(v, bpf_sym_nr(v->sym), arch, pre,
			bpf_sym_u32(v->sym, _value(&v->sys->badarch)), what);
}

/* ---- Driver ----------------------------------------------------------- */

/* Every IR syscall must be one the per-number loop visits. */
static int _check_names(struct validator *v)
{
	for (uint32_t i = 0; i < v->sys->ncalls; i++) {
		const struct ir_syscall *sc = &v->sys->calls[i];
		int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64,
							   sc->name);
		char *back =
		    nr >= 0
			? seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr)
			: NULL;
		int ok = back && !strcmp(back, sc->name) && nr <= v->max_nr;

		free(back);
		if (!ok)
			return _fail(v, -1, "syscall %s has no x86_64 number",
				     sc->name);
		for (uint32_t r = 0; r < sc->nrules; r++)
			for (uint32_t a = 0; a < sc->rules[r].natoms; a++)
				if (sc->rules[r].atoms[a].arg > 5)
					return _fail(v, -1,
						     "%s: argument %u of 6",
						     sc->name,
						     sc->rules[r].atoms[a].arg);
	}
	return 0;
}

static int _boundaries(struct validator *v)
{
	const uint32_t nrs[] = {(uint32_t)v->max_nr + 1,
				X32_BIT - 1,
				X32_BIT,
				X32_BIT | (uint32_t)v->max_nr,
				0x7fffffffu,
				0x80000000u,
				0xbfffffffu,
				0xffffffffu};
	const uint32_t arches[] = {AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, 0};

	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		struct seccomp_data d = {.nr = (int)nrs[i],
					 .arch = AUDIT_ARCH_X86_64};

		if (_point(v, &d))
			return 1;
		for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]);
		     a++) {
			d.arch = arches[a];
			if (_point(v, &d))
				return 1;
		}
	}
	return 0;
}

static int _run(struct validator *v)
{
	Z3_context c = bpf_sym_ctx(v->sym);
	Z3_ast x86 = bpf_sym_u32(v->sym, AUDIT_ARCH_X86_64);
	int r;

	if (_check_names(v))
		return -1;
	for (int nr = 0; nr <= v->max_nr; nr++)
		if ((r = _number(v, nr)))
			return r;
	if ((r = _boundaries(v)))
		return r;
	if ((r = _range(v, (uint32_t)v->max_nr + 1, X32_BIT - 1, &v->sys->def,
			"syscall numbers above the table")))
		return r;
	if ((r = _range(v, X32_BIT, 0xffffffffu, &v->sys->badarch,
			"x32 syscall numbers")))
		return r;
	if ((r = _foreign(v, bpf_sym_u32(v->sym, AUDIT_ARCH_I386), NULL,
			  "arch i386")))
		return r;
	if ((r = _foreign(v, bpf_sym_u32(v->sym, AUDIT_ARCH_AARCH64), NULL,
			  "arch aarch64")))
		return r;
	return _foreign(v, bpf_sym_arch(v->sym),
			Z3_mk_not(c, Z3_mk_eq(c, bpf_sym_arch(v->sym), x86)),
			"any arch but x86_64");
}

int seccomp_validate(const struct ir_policy *p, const struct sock_filter *prog,
		     size_t n, char *err, size_t errlen)
{
	struct validator v = {.sys = &p->sys,
			      .prog = prog,
			      .n = n,
			      .err = err,
			      .errlen = errlen,
			      .max_nr = -1};
	char emsg[128];
	int r;

	if (bpf_check(prog, n, emsg, sizeof(emsg)))
		return _fail(&v, 1, "the program is invalid: %s", emsg);
	for (int nr = 0; nr < NR_SCAN; nr++) {
		char *name =
		    seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);

		if (name)
			v.max_nr = nr;
		free(name);
	}
	if (v.max_nr < 0)
		return _fail(&v, -1, "libseccomp knows no x86_64 syscall");
	if (bpf_sym_create(&v.sym, SECCOMP_VALIDATE_TIMEOUT_MS, err, errlen))
		return -1;
	/* Past this many paths on one number, one merged query is cheaper. */
	bpf_sym_set_max_paths(v.sym, 1024);
	r = _run(&v);
	bpf_sym_destroy(&v.sym);
	return r;
}
