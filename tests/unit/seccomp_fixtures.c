// SPDX-License-Identifier: MIT
/*
 * Hand-built IR policies and libseccomp's filter for them.
 *
 * Translating the IR into libseccomp faithfully. Two meanings differ:
 *   - Rule resolution: ours takes the most restrictive action among the
 *     rules that hold; libseccomp's choice among overlapping rules with
 *     different actions is its own (and it refuses rules whose action is
 *     the default one).
 *   - Width: an IR atom of width 32 ignores the argument's upper half;
 *     libseccomp 2.5 compares all 64 bits (only its masked equality can
 *     ignore bits).
 * So each atom becomes a disjunction of masked equalities ("cubes"), which
 * express every width and comparison exactly: x < v holds iff, for some
 * bit b set in v, x agrees with v above b and has b clear; a negated atom
 * is the complementary comparison (== / !=, < / >=, <= / >). Then, for
 * each assignment of true/false to a syscall's distinct atoms, the action
 * is the IR's (the strictest rule whose atoms are all true, else the
 * default) and the region is the product of the atoms' cubes. These
 * regions are disjoint, so libseccomp has no choice to make, and regions
 * of the default action need no rule at all (libseccomp refuses them).
 * The result means exactly ir_eval_syscall(); the suites check that too.
 */
#include "seccomp_fixtures.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct ir_policy *fx_policy(struct ir_action def, struct ir_action badarch)
{
	struct ir_policy *p = ir_policy_create();

	if (!p)
		return NULL;
	p->sys.present = 1;
	p->sys.def = def;
	p->sys.badarch = badarch;
	return p;
}

static struct ir_syscall *_syscall(struct ir_policy *p, const char *name)
{
	struct ir_syscalls *s = &p->sys;
	struct ir_syscall *n;

	for (uint32_t i = 0; i < s->ncalls; i++)
		if (!strcmp(s->calls[i].name, name))
			return &s->calls[i];
	n = realloc(s->calls, (s->ncalls + 1) * sizeof(*n));
	if (!n)
		return NULL;
	s->calls = n;
	n = &s->calls[s->ncalls++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	return n;
}

int fx_rule(struct ir_policy *p, const char *name, struct ir_action act,
	    uint32_t natoms, const struct ir_atom *atoms)
{
	struct ir_syscall *sc = _syscall(p, name);
	struct ir_rule *r;

	if (!sc || natoms > IR_MAX_ATOMS)
		return -1;
	r = realloc(sc->rules, (sc->nrules + 1) * sizeof(*r));
	if (!r)
		return -1;
	sc->rules = r;
	r = &sc->rules[sc->nrules++];
	memset(r, 0, sizeof(*r));
	r->action = act;
	r->natoms = natoms;
	if (natoms)
		memcpy(r->atoms, atoms, natoms * sizeof(*atoms));
	return 0;
}

static int _name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ir_syscall *)a)->name,
		      ((const struct ir_syscall *)b)->name);
}

void fx_finish(struct ir_policy *p)
{
	qsort(p->sys.calls, p->sys.ncalls, sizeof(*p->sys.calls), _name_cmp);
}

/* ---- A Docker-like profile -------------------------------------------- */

/* The unconditional allow list of Docker's default profile (all arches). */
/* clang-format off */
static const char *const docker_allow[] = {
	"accept", "accept4", "access", "adjtimex", "alarm", "arch_prctl",
	"bind", "brk", "cachestat", "capget", "capset", "chdir", "chmod",
	"chown", "chown32", "clock_adjtime", "clock_adjtime64", "clock_getres",
	"clock_getres_time64", "clock_gettime", "clock_gettime64",
	"clock_nanosleep", "clock_nanosleep_time64", "close", "close_range",
	"connect", "copy_file_range", "creat", "dup", "dup2", "dup3",
	"epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old",
	"eventfd", "eventfd2", "execve", "execveat", "exit", "exit_group",
	"faccessat", "faccessat2", "fadvise64", "fadvise64_64", "fallocate",
	"fanotify_mark", "fchdir", "fchmod", "fchmodat", "fchmodat2", "fchown",
	"fchown32", "fchownat", "fcntl", "fcntl64", "fdatasync", "fgetxattr",
	"flistxattr", "flock", "fork", "fremovexattr", "fsetxattr", "fstat",
	"fstat64", "fstatat64", "fstatfs", "fstatfs64", "fsync", "ftruncate",
	"ftruncate64", "futex", "futex_requeue", "futex_time64", "futex_wait",
	"futex_waitv", "futex_wake", "futimesat", "getcpu", "getcwd",
	"getdents", "getdents64", "getegid", "getegid32", "geteuid",
	"geteuid32", "getgid", "getgid32", "getgroups", "getgroups32",
	"getitimer", "getpeername", "getpgid", "getpgrp", "getpid", "getppid",
	"getpriority", "getrandom", "getresgid", "getresgid32", "getresuid",
	"getresuid32", "getrlimit", "get_robust_list", "getrusage", "getsid",
	"getsockname", "getsockopt", "get_thread_area", "gettid",
	"gettimeofday", "getuid", "getuid32", "getxattr", "inotify_add_watch",
	"inotify_init", "inotify_init1", "inotify_rm_watch", "io_cancel",
	"ioctl", "io_destroy", "io_getevents", "io_pgetevents",
	"io_pgetevents_time64", "ioprio_get", "ioprio_set", "io_setup",
	"io_submit", "ipc", "kcmp", "kill", "landlock_add_rule",
	"landlock_create_ruleset", "landlock_restrict_self", "lchown",
	"lchown32", "lgetxattr", "link", "linkat", "listen", "listxattr",
	"llistxattr", "_llseek", "lremovexattr", "lseek", "lsetxattr", "lstat",
	"lstat64", "madvise", "map_shadow_stack", "membarrier", "memfd_create",
	"memfd_secret", "mincore", "mkdir", "mkdirat", "mknod", "mknodat",
	"mlock", "mlock2", "mlockall", "mmap", "mmap2", "modify_ldt",
	"mprotect", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	"mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64",
	"mq_unlink", "mremap", "msgctl", "msgget", "msgrcv", "msgsnd", "msync",
	"munlock", "munlockall", "munmap", "name_to_handle_at", "nanosleep",
	"newfstatat", "_newselect", "open", "openat", "openat2", "pause",
	"pidfd_getfd", "pidfd_open", "pidfd_send_signal", "pipe", "pipe2",
	"pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll",
	"ppoll_time64", "prctl", "pread64", "preadv", "preadv2", "prlimit64",
	"process_mrelease", "process_vm_readv", "process_vm_writev",
	"pselect6", "pselect6_time64", "ptrace", "pwrite64", "pwritev",
	"pwritev2", "read", "readahead", "readlink", "readlinkat", "readv",
	"recv", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg",
	"remap_file_pages", "removexattr", "rename", "renameat", "renameat2",
	"restart_syscall", "rmdir", "rseq", "rt_sigaction", "rt_sigpending",
	"rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend",
	"rt_sigtimedwait", "rt_sigtimedwait_time64", "rt_tgsigqueueinfo",
	"sched_getaffinity", "sched_getattr", "sched_getparam",
	"sched_get_priority_max", "sched_get_priority_min",
	"sched_getscheduler", "sched_rr_get_interval",
	"sched_rr_get_interval_time64", "sched_setaffinity", "sched_setattr",
	"sched_setparam", "sched_setscheduler", "sched_yield", "seccomp",
	"select", "semctl", "semget", "semop", "semtimedop",
	"semtimedop_time64", "send", "sendfile", "sendfile64", "sendmmsg",
	"sendmsg", "sendto", "setfsgid", "setfsgid32", "setfsuid",
	"setfsuid32", "setgid", "setgid32", "setgroups", "setgroups32",
	"setitimer", "setpgid", "setpriority", "setregid", "setregid32",
	"setresgid", "setresgid32", "setresuid", "setresuid32", "setreuid",
	"setreuid32", "setrlimit", "set_robust_list", "setsid", "setsockopt",
	"set_thread_area", "set_tid_address", "setuid", "setuid32", "setxattr",
	"shmat", "shmctl", "shmdt", "shmget", "shutdown", "sigaltstack",
	"signalfd", "signalfd4", "sigprocmask", "sigreturn", "socketcall",
	"socketpair", "splice", "stat", "stat64", "statfs", "statfs64",
	"statx", "symlink", "symlinkat", "sync", "sync_file_range", "syncfs",
	"sysinfo", "tee", "tgkill", "time", "timer_create", "timer_delete",
	"timer_getoverrun", "timer_gettime", "timer_gettime64",
	"timer_settime", "timer_settime64", "timerfd_create",
	"timerfd_gettime", "timerfd_gettime64", "timerfd_settime",
	"timerfd_settime64", "times", "tkill", "truncate", "truncate64",
	"ugetrlimit", "umask", "uname", "unlink", "unlinkat", "utime",
	"utimensat", "utimensat_time64", "utimes", "vfork", "vmsplice",
	"wait4", "waitid", "waitpid", "write", "writev",
	/* NUMA memory policy: Docker grants these with CAP_SYS_NICE; here
	 * they round the table to the profile's 400-odd names. */
	"get_mempolicy", "mbind", "set_mempolicy", "set_mempolicy_home_node",
	/* arm, s390x, ppc, mips extras of the same profile */
	"arm_fadvise64_64", "arm_sync_file_range", "sync_file_range2",
	"breakpoint", "cacheflush", "set_tls", "s390_pci_mmio_read",
	"s390_pci_mmio_write", "s390_runtime_instr", "riscv_flush_icache",
	"sigaction", "signal", "sigpending", "sigsuspend", "ssetmask",
	"sgetmask", "oldfstat", "oldlstat", "oldstat", "olduname", "readdir",
	"nice", "stime", "socket_old", "spu_create", "spu_run", "subpage_prot",
	"switch_endian", "sys_debug_setcontext", "swapcontext", "rtas",
	"pciconfig_iobase", "pciconfig_read", "pciconfig_write", "multiplexer",
};
/* clang-format on */

/* personality values Docker allows: PER_LINUX, UNAME26, ... */
static const uint64_t docker_personality[] = {0x0, 0x8, 0x20000, 0x20008,
					      0xffffffff};
/* CLONE_NEWNS | CLONE_NEWUTS | ... | CLONE_NEWCGROUP, as Docker masks. */
#define DOCKER_NAMESPACE_FLAGS 0x7E020000u
#define DOCKER_AF_VSOCK	       40u

struct ir_policy *fx_docker_policy(size_t *ntable, size_t *nx86)
{
	struct ir_policy *p =
	    fx_policy(fx_errno(EPERM), fx_act(IR_ACT_KILL_PROCESS));
	size_t n = sizeof(docker_allow) / sizeof(docker_allow[0]), x86 = 0;
	struct ir_atom a;
	int rc = 0;

	if (!p)
		return NULL;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = docker_allow[i];

		if (seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name) <
		    0)
			continue;
		x86++;
		rc = fx_rule(p, name, fx_act(IR_ACT_ALLOW), 0, NULL);
	}
	for (size_t i = 0; i < 5 && !rc; i++) {
		a = fx_atom(0, 32, IR_OP_EQ, 0, docker_personality[i]);
		rc = fx_rule(p, "personality", fx_act(IR_ACT_ALLOW), 1, &a);
	}
	/* clone's flags: the kernel keeps only their low 32 bits. */
	a = fx_atom(0, 32, IR_OP_EQ, DOCKER_NAMESPACE_FLAGS, 0);
	rc = rc ? rc : fx_rule(p, "clone", fx_act(IR_ACT_ALLOW), 1, &a);
	a = fx_atom(0, 32, IR_OP_NE, 0, DOCKER_AF_VSOCK);
	rc = rc ? rc : fx_rule(p, "socket", fx_act(IR_ACT_ALLOW), 1, &a);
	rc = rc ? rc : fx_rule(p, "clone3", fx_errno(ENOSYS), 0, NULL);
	if (rc) {
		ir_policy_destroy(&p);
		return NULL;
	}
	fx_finish(p);
	if (ntable)
		*ntable = n + 4;
	if (nx86)
		*nx86 = x86 + 4;
	return p;
}

/* ---- IR to libseccomp -------------------------------------------------- */

#define CUBES_MAX 2048 /* cubes in one region before it counts as big */

/* A conjunction of masked equalities: (arg[i] & m[i]) == d[i]. */
struct cube {
	uint64_t m[6], d[6];
};

struct dnf {
	struct cube *c;
	size_t n, cap;
	int overflow;
};

static void _dnf_free(struct dnf *f)
{
	free(f->c);
	*f = (struct dnf){0};
}

/* c1 implies c2: every constraint of c2 is one of c1's. */
static int _implies(const struct cube *c1, const struct cube *c2)
{
	for (int i = 0; i < 6; i++)
		if ((c2->m[i] & ~c1->m[i]) ||
		    ((c1->d[i] ^ c2->d[i]) & c2->m[i]))
			return 0;
	return 1;
}

/* Add c unless a cube already there covers it. */
static void _dnf_add(struct dnf *f, const struct cube *c)
{
	for (size_t i = 0; i < f->n; i++)
		if (_implies(c, &f->c[i]))
			return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct cube *nc =
		    cap > CUBES_MAX ? NULL : realloc(f->c, cap * sizeof(*nc));

		if (!nc) {
			f->overflow = 1;
			return;
		}
		f->c = nc;
		f->cap = cap;
	}
	f->c[f->n++] = *c;
}

static void _dnf_true(struct dnf *f)
{
	struct cube t = {0};

	_dnf_add(f, &t);
}

/* One masked equality on one argument. */
static void _dnf_eq(struct dnf *f, int arg, uint64_t m, uint64_t d)
{
	struct cube c = {0};

	c.m[arg] = m;
	c.d[arg] = d & m;
	_dnf_add(f, &c);
}

/* The atom as a disjunction of masked equalities (see the top comment). */
static void _atom_dnf(const struct ir_atom *a, struct dnf *f)
{
	uint64_t w = a->width == 32 ? 0xffffffffu : UINT64_MAX;
	uint64_t m = a->mask & w, v = a->value & w;
	int op = a->op, lt = op == IR_OP_LT || op == IR_OP_LE;
	int gt = op == IR_OP_GT || op == IR_OP_GE;
	int eq = op == IR_OP_EQ || op == IR_OP_LE || op == IR_OP_GE;

	if (op == IR_OP_NE) {
		if (v & ~m) {
			_dnf_true(f);
			return;
		}
		for (int b = 0; b < 64; b++)
			if (m >> b & 1)
				_dnf_eq(f, a->arg, 1ull << b, ~v);
		return;
	}
	if (eq && !(v & ~m))
		_dnf_eq(f, a->arg, m, v);
	for (int b = 0; b < 64; b++) {
		uint64_t bit = 1ull << b;
		uint64_t above = b == 63 ? 0 : ~((2ull << b) - 1);

		if (v & ~m & above)
			continue; /* x & m cannot agree with v above b */
		if (lt && (v & bit))
			_dnf_eq(f, a->arg, (m & above) | (m & bit), v & above);
		if (gt && !(v & bit) && (m & bit))
			_dnf_eq(f, a->arg, (m & above) | bit,
				(v & above) | bit);
	}
}

/* *f = *f AND g, cube by cube. */
static void _dnf_and(struct dnf *f, const struct dnf *g)
{
	struct dnf out = {0};

	for (size_t i = 0; i < f->n && !out.overflow; i++) {
		for (size_t j = 0; j < g->n && !out.overflow; j++) {
			struct cube c;
			int empty = 0;

			for (int k = 0; k < 6; k++) {
				const struct cube *x = &f->c[i], *y = &g->c[j];

				if ((x->d[k] ^ y->d[k]) & x->m[k] & y->m[k])
					empty = 1;
				c.m[k] = x->m[k] | y->m[k];
				c.d[k] = x->d[k] | y->d[k];
			}
			if (!empty)
				_dnf_add(&out, &c);
		}
	}
	out.overflow |= f->overflow || g->overflow;
	_dnf_free(f);
	*f = out;
}

static uint32_t _scmp_action(const struct ir_action *a)
{
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		return SCMP_ACT_KILL_PROCESS;
	case IR_ACT_KILL_THREAD:
		return SCMP_ACT_KILL_THREAD;
	case IR_ACT_TRAP:
		return SCMP_ACT_TRAP;
	case IR_ACT_ERRNO:
		return SCMP_ACT_ERRNO(a->errnum);
	case IR_ACT_LOG:
		return SCMP_ACT_LOG;
	default:
		return SCMP_ACT_ALLOW;
	}
}

#define ATOMS_MAX 12 /* distinct atoms per syscall */

/* The atom with its comparison reversed: the cubes of "not a". */
static struct ir_atom _negate(const struct ir_atom *a)
{
	static const uint8_t neg[] = {
	    [IR_OP_EQ] = IR_OP_NE, [IR_OP_NE] = IR_OP_EQ, [IR_OP_LT] = IR_OP_GE,
	    [IR_OP_GE] = IR_OP_LT, [IR_OP_LE] = IR_OP_GT, [IR_OP_GT] = IR_OP_LE,
	};
	struct ir_atom n = *a;

	n.op = neg[a->op];
	return n;
}

/* Index of atom a in atoms[], added if new; -1 when full. */
static int _atom_index(struct ir_atom *atoms, int *n, const struct ir_atom *a)
{
	for (int i = 0; i < *n; i++)
		if (!ir_atom_cmp(&atoms[i], a))
			return i;
	if (*n == ATOMS_MAX)
		return -1;
	atoms[*n] = *a;
	return (*n)++;
}

/*
 * One leaf of the split: the atoms in `set` have the truth values in
 * `val`, and every truth of the other atoms gives `act`. Its region is the
 * conjunction of those atoms (negated where false) as cubes; `big` when
 * that passes CUBES_MAX.
 */
struct region {
	uint32_t set, val;
	struct ir_action act;
	struct dnf cubes;
	int done, big;
};

/* One syscall's rules over their distinct atoms, and the leaves. */
struct trans {
	const struct ir_syscalls *s;
	const struct ir_syscall *sc;
	struct ir_atom atoms[ATOMS_MAX];
	int natoms;
	int (*idx)[IR_MAX_ATOMS];
	struct region *r;
	size_t n, cap;
};

/* The IR's action when exactly the atoms in `truth` hold. */
static struct ir_action _resolve(const struct trans *t, uint32_t truth)
{
	const struct ir_action *best = NULL;

	for (uint32_t r = 0; r < t->sc->nrules; r++) {
		const struct ir_rule *rule = &t->sc->rules[r];
		int holds = 1;

		for (uint32_t i = 0; i < rule->natoms && holds; i++)
			holds = (int)(truth >> t->idx[r][i]) & 1;
		if (holds && (!best || ir_action_cmp(&rule->action, best) < 0))
			best = &rule->action;
	}
	return best ? *best : t->s->def;
}

/*
 * Under the truths `val` of the atoms in `set`: the first other atom whose
 * truth changes the action for some truth of the rest, or -1 when none
 * does. Then the action is the same everywhere below (any two truths are
 * joined by single flips), and *act is it.
 */
static int _split_atom(const struct trans *t, uint32_t set, uint32_t val,
		       struct ir_action *act)
{
	uint32_t freebits = ((1u << t->natoms) - 1) & ~set;

	*act = _resolve(t, val);
	for (int i = 0; i < t->natoms; i++) {
		uint32_t bit = 1u << i, rest = freebits & ~bit, sub = 0;

		if (!(freebits & bit))
			continue;
		do {
			struct ir_action a0 = _resolve(t, val | sub);
			struct ir_action a1 = _resolve(t, val | sub | bit);

			if (ir_action_cmp(&a0, &a1))
				return i;
			sub = (sub - rest) & rest;
		} while (sub);
	}
	return -1;
}

/* Split on the atoms that matter, depth first; leaves go to t->r. */
static int _split(struct trans *t, uint32_t set, uint32_t val)
{
	struct ir_action act;
	int i = _split_atom(t, set, val, &act);

	if (i >= 0)
		return _split(t, set | 1u << i, val | 1u << i) ||
		       _split(t, set | 1u << i, val);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct region *nr = realloc(t->r, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		t->r = nr;
		t->cap = cap;
	}
	t->r[t->n++] = (struct region){set, val, act, {0}, 0, 0};
	return 0;
}

/* The leaf's cubes, the atoms with the fewest cubes first. */
static void _region(const struct trans *t, struct region *r)
{
	struct dnf parts[ATOMS_MAX];
	int n = 0;

	if (r->done)
		return;
	r->done = 1;
	for (int i = 0; i < t->natoms; i++) {
		struct ir_atom a;

		if (!(r->set >> i & 1))
			continue;
		a = r->val >> i & 1 ? t->atoms[i] : _negate(&t->atoms[i]);
		parts[n] = (struct dnf){0};
		_atom_dnf(&a, &parts[n++]);
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && parts[j].n < parts[j - 1].n; j--) {
			struct dnf x = parts[j];

			parts[j] = parts[j - 1];
			parts[j - 1] = x;
		}
	_dnf_true(&r->cubes);
	for (int i = 0; i < n && r->cubes.n && !r->cubes.overflow; i++)
		_dnf_and(&r->cubes, &parts[i]);
	r->big = r->cubes.overflow;
	for (int i = 0; i < n; i++)
		_dnf_free(&parts[i]);
}

static void _trans_free(struct trans *t)
{
	for (size_t i = 0; i < t->n; i++)
		_dnf_free(&t->r[i].cubes);
	free(t->r);
	free(t->idx);
}

static int _translate(struct trans *t, const struct ir_syscalls *s,
		      const struct ir_syscall *sc)
{
	int rc = 0;

	*t = (struct trans){.s = s, .sc = sc};
	t->idx = calloc(sc->nrules + 1, sizeof(*t->idx));
	if (!t->idx)
		return -ENOMEM;
	for (uint32_t r = 0; r < sc->nrules && !rc; r++)
		for (uint32_t i = 0; i < sc->rules[r].natoms && !rc; i++)
			if ((t->idx[r][i] =
				 _atom_index(t->atoms, &t->natoms,
					     &sc->rules[r].atoms[i])) < 0)
				rc = -E2BIG;
	return rc ? rc : _split(t, 0, 0);
}

/*
 * The filter's default for one syscall's own filter: the action of the
 * regions too big to spell out (they must agree), else the action with
 * the most cubes, so the fewest are spelled out.
 */
static int _choose_default(struct trans *t, struct ir_action *def)
{
	const struct region *big = NULL;
	size_t most = 0;

	*def = t->s->def;
	for (size_t i = 0; i < t->n; i++) {
		struct region *r = &t->r[i];
		size_t cubes = 0;

		_region(t, r);
		if (r->big) {
			if (big && ir_action_cmp(&big->act, &r->act))
				return -E2BIG;
			big = r;
			*def = r->act;
		}
		if (big)
			continue;
		for (size_t j = 0; j < t->n; j++)
			if (!ir_action_cmp(&t->r[j].act, &r->act) &&
			    t->r[j].done && !t->r[j].big)
				cubes += t->r[j].cubes.n;
		if (cubes > most) {
			most = cubes;
			*def = r->act;
		}
	}
	return 0;
}

static int _add_cube(scmp_filter_ctx ctx, uint32_t act, int nr,
		     const struct cube *c)
{
	struct scmp_arg_cmp cmp[6];
	unsigned int n = 0;

	for (unsigned int k = 0; k < 6; k++)
		if (c->m[k])
			cmp[n++] = (struct scmp_arg_cmp){k, SCMP_CMP_MASKED_EQ,
							 c->m[k], c->d[k]};
	int rc = seccomp_rule_add_exact_array(ctx, act, nr, n, cmp);

	return rc == -EEXIST ? 0 : rc;
}

/* Every region whose action is not the filter's default, as cubes. These
 * regions are disjoint, so libseccomp has no choice to make. */
static int _emit(scmp_filter_ctx ctx, struct trans *t,
		 const struct ir_action *def, int nr)
{
	int rc = 0;

	for (size_t i = 0; i < t->n && !rc; i++) {
		struct region *r = &t->r[i];

		if (!ir_action_cmp(&r->act, def))
			continue;
		_region(t, r);
		if (r->big)
			return -E2BIG;
		for (size_t c = 0; !rc && c < r->cubes.n; c++)
			rc = _add_cube(ctx, _scmp_action(&r->act), nr,
				       &r->cubes.c[c]);
	}
	return rc;
}

/* The faithful translation of one syscall into a filter whose default is
 * the policy's (see the top comment). */
static int _faithful(scmp_filter_ctx ctx, const struct ir_syscalls *s,
		     const struct ir_syscall *sc, int nr)
{
	struct trans t;
	int rc = _translate(&t, s, sc);

	rc = rc ? rc : _emit(ctx, &t, &s->def, nr);
	_trans_free(&t);
	return rc;
}

static const enum scmp_compare scmp_ops[] = {
    [IR_OP_EQ] = SCMP_CMP_EQ, [IR_OP_NE] = SCMP_CMP_NE,
    [IR_OP_LT] = SCMP_CMP_LT, [IR_OP_LE] = SCMP_CMP_LE,
    [IR_OP_GT] = SCMP_CMP_GT, [IR_OP_GE] = SCMP_CMP_GE,
};

/* One libseccomp rule per IR rule, 64-bit comparisons, as profiles do. */
static int _native(scmp_filter_ctx ctx, const struct ir_syscalls *s,
		   const struct ir_syscall *sc, int nr)
{
	for (uint32_t r = 0; r < sc->nrules; r++) {
		const struct ir_rule *rule = &sc->rules[r];
		struct scmp_arg_cmp cmp[IR_MAX_ATOMS];
		int rc;

		if (!ir_action_cmp(&rule->action, &s->def))
			continue;
		for (uint32_t i = 0; i < rule->natoms; i++) {
			const struct ir_atom *a = &rule->atoms[i];
			int masked = a->mask != (a->width == 32 ? 0xffffffffu
								: UINT64_MAX);

			cmp[i] = (struct scmp_arg_cmp){a->arg, scmp_ops[a->op],
						       a->value, 0};
			if (masked && a->op == IR_OP_EQ)
				cmp[i] = (struct scmp_arg_cmp){
				    a->arg, SCMP_CMP_MASKED_EQ, a->mask,
				    a->value};
		}
		rc = seccomp_rule_add_exact_array(
		    ctx, _scmp_action(&rule->action), nr, rule->natoms, cmp);
		if (rc && rc != -EEXIST)
			return rc;
	}
	return 0;
}

static int _export(scmp_filter_ctx ctx, struct sock_filter **prog, size_t *n,
		   char *err, size_t errlen)
{
	int fd = memfd_create("libseccomp-bpf", MFD_CLOEXEC), rc;
	off_t len;

	if (fd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return -1;
	}
	rc = seccomp_export_bpf(ctx, fd);
	len = lseek(fd, 0, SEEK_END);
	if (rc || len <= 0 || len % sizeof(**prog)) {
		snprintf(err, errlen, "seccomp_export_bpf: %d", rc);
		close(fd);
		return -1;
	}
	*prog = malloc((size_t)len);
	if (!*prog || pread(fd, *prog, (size_t)len, 0) != len) {
		snprintf(err, errlen, "reading the exported filter failed");
		free(*prog);
		*prog = NULL;
		close(fd);
		return -1;
	}
	*n = (size_t)len / sizeof(**prog);
	close(fd);
	return 0;
}

int fx_depends_on_args(const struct ir_syscall *sc)
{
	for (uint32_t r = 0; r < sc->nrules; r++)
		if (sc->rules[r].natoms)
			return 1;
	return 0;
}

/* A context for x86_64 with the default and the bad-arch action. */
static scmp_filter_ctx _ctx(const struct ir_action *def,
			    const struct ir_action *badarch, char *err,
			    size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(_scmp_action(def));
	int rc = 0;

	if (!ctx) {
		snprintf(err, errlen, "seccomp_init failed");
		return NULL;
	}
	if (seccomp_arch_native() != SCMP_ARCH_X86_64) {
		rc = seccomp_arch_add(ctx, SCMP_ARCH_X86_64);
		rc = rc ? rc : seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	}
	rc = rc ? rc
		: seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
				   _scmp_action(badarch));
	rc = rc ? rc : seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (rc) {
		snprintf(err, errlen, "libseccomp setup: %s", strerror(-rc));
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

static int _nr(const struct ir_syscall *sc, char *err, size_t errlen)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, sc->name);

	if (nr < 0)
		snprintf(err, errlen, "%s: not an x86_64 syscall", sc->name);
	return nr;
}

int fx_libseccomp_filter(const struct ir_policy *p, int mode,
			 struct sock_filter **prog, size_t *n, char *err,
			 size_t errlen)
{
	const struct ir_syscalls *s = &p->sys;
	scmp_filter_ctx ctx;
	int rc = 0;

	*prog = NULL;
	*n = 0;
	if (!(ctx = _ctx(&s->def, &s->badarch, err, errlen)))
		return -1;
	for (uint32_t i = 0; i < s->ncalls && !rc; i++) {
		const struct ir_syscall *sc = &s->calls[i];
		int nr = _nr(sc, err, errlen);

		if (nr < 0) {
			seccomp_release(ctx);
			return -1;
		}
		if (mode == FX_CONSTANT && fx_depends_on_args(sc))
			continue;
		rc = mode == FX_NATIVE ? _native(ctx, s, sc, nr)
				       : _faithful(ctx, s, sc, nr);
		if (rc)
			snprintf(err, errlen, "libseccomp rule for %s: %s",
				 sc->name, strerror(-rc));
	}
	if (!rc)
		rc = _export(ctx, prog, n, err, errlen);
	seccomp_release(ctx);
	return rc ? -1 : 0;
}

int fx_libseccomp_syscall_filter(const struct ir_policy *p,
				 const struct ir_syscall *sc,
				 struct sock_filter **prog, size_t *n,
				 char *err, size_t errlen)
{
	struct ir_action def;
	scmp_filter_ctx ctx = NULL;
	struct trans t;
	int nr = _nr(sc, err, errlen), rc;

	*prog = NULL;
	*n = 0;
	if (nr < 0)
		return -1;
	rc = _translate(&t, &p->sys, sc);
	rc = rc ? rc : _choose_default(&t, &def);
	if (!rc && !(ctx = _ctx(&def, &p->sys.badarch, err, errlen))) {
		_trans_free(&t);
		return -1;
	}
	rc = rc ? rc : _emit(ctx, &t, &def, nr);
	if (rc)
		snprintf(err, errlen, "libseccomp rules for %s: %s", sc->name,
			 strerror(-rc));
	else
		rc = _export(ctx, prog, n, err, errlen);
	_trans_free(&t);
	if (ctx)
		seccomp_release(ctx);
	return rc ? -1 : 0;
}
