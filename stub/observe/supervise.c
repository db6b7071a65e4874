/* SPDX-License-Identifier: MIT */
/*
 * The seccomp supervisor (docs/OBSERVE.md). The compiled program decides;
 * polexec reports. polc emits beside the decision program a NOTIFY program
 * equal to it except where it returns SECCOMP_RET_USER_NOTIF (denials by
 * errno or kill_process, observed destructive calls), proven so at build
 * time. The box child installs that program with a listener and hands the
 * listener to the parent, which answers each notification by running the
 * DECISION program (sbpf.c) on the notification's seccomp_data:
 *
 *   errno(E)       the call fails with E, as SECCOMP_RET_ERRNO would do
 *   kill_process   SIGKILL to the calling thread's process (through a
 *                  pidfd, checked against the notification), never
 *                  continued; the process dies of SIGKILL, not SIGSYS
 *   allow          (an observed call) continued: the kernel runs it
 *   anything else  fails with ENOSYS: never continued
 *
 * trap and kill_thread are never notified: a notification cannot raise
 * SIGSYS in the caller or end one thread, so the kernel keeps them.
 *
 * Fail closed: if the parent dies or its listener closes, the kernel
 * fails every notified call with ENOSYS; if the parent stops answering,
 * the call waits (until the wall limit ends the box). A notified call is
 * never allowed without the decision program saying allow.
 *
 * The hand-over. With CLONE_VFORK the parent would sleep until the
 * child's execve, and the child's own last call (execve, under a policy
 * that denies it, or in learn mode) would wait for an answer nobody
 * gives. So an observed run clones the child without CLONE_VFORK (still
 * CLONE_VM: it shares our memory until execve, exactly as before) and the
 * parent waits for its execve here, answering as it goes. In the child,
 * the first thread starts a second one, then installs the filter (the
 * second thread stays without it), and the second thread sends the
 * listener over a socket pair (SCM_RIGHTS): that sendmsg is never
 * filtered, whatever the policy denies. The second thread then ends and
 * the first one execs. The parent sees the listener, then the end of the
 * socket (close-on-exec) at execve.
 * Between its seccomp() and its execve the first thread makes no syscall:
 * until the listener is handed over nobody could answer one, and the
 * policy may notify every call it could make (futex included). So it
 * waits on a page fault instead: it reads a page registered with a
 * userfaultfd (the gate), and the kernel holds it in the fault, asleep,
 * and wakes the second thread, asleep in read() on the userfaultfd. The
 * second thread hands the listener over and closes the userfaultfd,
 * which lets the fault through, and ends. Where there is no userfaultfd
 * to have (a kernel without it, a container's seccomp profile,
 * vm.unprivileged_userfaultfd before Linux 5.11), the two threads spin on
 * shared flags instead, each holding a core while it waits. Either way
 * the thread that execs is the process's first, as without observation:
 * a kill_thread action on its execve ends the process with SIGSYS.
 * While the child shares our memory, errno included, this side makes raw
 * syscalls that leave errno alone (obs_sys()) and writes nothing to
 * stderr.
 */
#include "observe.h"
#include "box/view.h"
#include "lib/kernel.h"
#include "sbpf.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE 1
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef __NR_userfaultfd
#define __NR_userfaultfd 323
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#define RET_ACTION(r) ((r)&0xffff0000u)

struct obs_state obs;

static struct {
	int sv[2];	/* parent's end, child's end */
	int listener;	/* parent: -1 until handed over */
	unsigned prog;	/* OBS_PROG_NOTIFY or OBS_PROG_LEARN */
	int stall;	/* test hook: receive, never answer */
	int nogate;	/* test hook: the threads spin (no userfaultfd) */
	int twothreads; /* test hook: a second thread sends the listener */
	uint64_t seen;	/* notifications received */
	char note[240]; /* the child's reason to install no listener */
	/* the notify broker (net/broker.c): its program, and what answers
	 * the broker calls the decision program allows */
	const struct sock_filter *bprog;
	unsigned short nbprog;
	int (*bhandle)(const struct seccomp_notif *n, int listener);
} S; /* zero-initialized, no file space: supervise_plan() sets -1s */

long obs_sys(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

void supervise_plan(const struct policy *p, const struct vars *vars,
		    struct ll_run *ll, int learn, int explain)
{
	unsigned action = SECCOMP_RET_USER_NOTIF;

	S.sv[0] = S.sv[1] = S.listener = -1;
	obs.p = p;
	obs.o = p->obs;
	obs.explain = explain;
	obs.start_ns = monotonic_ns();
	/* Landlock's own log, where this machine lets us read it; learn
	 * mode installs no Landlock at all. */
	if (!learn)
		ll->restrict_flags = llaudit_plan(ll->abi, ll->ruleset_fd >= 0);
#ifdef POLEXEC_TEST_HOOKS
	/* tests/observe only (never in the installed polexec): a
	 * supervisor that receives and never answers, or none at all; a
	 * hand-over by a second thread, with or without the gate. */
	S.stall = vars_caller("POLEXEC_TEST_STALL", 18) != NULL;
	S.nogate = vars_caller("POLEXEC_TEST_NO_GATE", 20) != NULL;
	S.twothreads = S.nogate || vars_caller("POLEXEC_TEST_TWO_THREADS", 24);
	if (vars_caller("POLEXEC_TEST_NO_OBSERVE", 23)) {
		obs_note("test hook: no supervisor");
		return;
	}
#endif
	if (learn && !p->obs)
		die("learn: %s", p->nfilter
				     ? "the artifact has no observe section "
				       "(build it again with this polc)"
				     : "the policy has no seccomp layer");
	if (!p->nfilter) {
		obs_note("the policy has no seccomp layer");
		return;
	}
	if (!p->obs) {
		obs_note("the artifact has no observe section (an older polc "
			 "built it): denials are enforced, not recorded");
		return;
	}
	if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0) {
		if (learn)
			die_with_error("learn: this kernel has no seccomp user "
				       "notification");
		obs_note("this kernel has no seccomp user notification (%s): "
			 "denials are enforced, not recorded",
			 strerror(errno));
		return;
	}
	obs.mode = learn ? 2 : 1;
	S.prog = learn ? OBS_PROG_LEARN : OBS_PROG_NOTIFY;
	/* Bound like the policy's other paths: an unbound variable is a
	 * refusal naming it. */
	if (p->obs->workspace) {
		int home = p->obs->workspace[0] == '~';

		obs.workspace = vars_bind(
		    vars, home ? vars_caller("HOME", 4) ?: "" : "",
		    p->obs->workspace + home, "", "observe workspace");
	}
}

void supervise_broker(const struct sock_filter *prog, unsigned short n,
		      int (*handle)(const struct seccomp_notif *, int))
{
	S.bprog = prog;
	S.nbprog = n;
	S.bhandle = handle;
}

const char *supervise_broker_unavailable(void)
{
	if (obs.mode == 1)
		return NULL;
	if (obs.mode == 2)
		return "--learn continues every call it observes";
	return "no seccomp supervisor here (the record's observation says "
	       "why)";
}

int supervise_learning(void)
{
	return obs.mode == 2;
}

int supervise_before_clone(void)
{
	if (S.bprog && obs.mode != 1)
		die("net: the notify broker needs the seccomp supervisor");
	if (!obs.mode)
		return 0;
	if (obs_sys(__NR_socketpair, AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
		    (long)S.sv, 0, 0) < 0) {
		if (obs.mode == 2)
			die_with_error("learn: socketpair");
		obs_note("socketpair failed: denials are enforced, not "
			 "recorded");
		obs.mode = 0;
		return 0;
	}
	/* The hand-over says who sent it: the command's process, as our
	 * pid namespace numbers it (its Landlock domain's; llaudit.c). */
	setsockopt(S.sv[0], SOL_SOCKET, SO_PASSCRED, &(int){1}, sizeof(int));
	return 1;
}

/* One byte and room for one descriptor: the hand-over's message. */
struct handoff {
	struct msghdr msg;
	struct iovec iov;
	char one;
	union {
		char buf[CMSG_SPACE(sizeof(int)) +
			 CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
};

static void handoff_init(struct handoff *h)
{
	memset(h, 0, sizeof(*h));
	h->one = 1;
	h->iov.iov_base = &h->one;
	h->iov.iov_len = 1;
	h->msg.msg_iov = &h->iov;
	h->msg.msg_iovlen = 1;
	h->msg.msg_control = h->u.buf;
	h->msg.msg_controllen = sizeof(h->u.buf);
}

/* --- in the child ------------------------------------------------------ */

int supervise_child_fd(void)
{
	return obs.mode ? S.sv[1] : -1;
}

/* Shared by the two threads of the child. */
static struct {
	volatile char *gate;   /* the page the first one waits on; NULL: spin */
	int uffd;	       /* the gate's userfaultfd */
	volatile int listener; /* -2 until installed; -1 failed */
	volatile int sent;     /* 1 handed over; -1 failed */
} X;

static char thread_stack[16 << 10] __attribute__((aligned(16)));

/*
 * The gate (see the head comment): a page of its own, registered with a
 * userfaultfd for missing pages, so the first read of it faults. Sets
 * X.gate and X.uffd (close-on-exec), or leaves X.gate NULL when this
 * kernel or its caller gives no userfaultfd: then the threads spin.
 */
static void gate_open(void)
{
	struct uffdio_api api = {.api = UFFD_API};
	struct uffdio_register reg = {.mode = UFFDIO_REGISTER_MODE_MISSING};
	long fd = syscall(__NR_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	void *page;

	if (fd < 0 && errno == EINVAL) /* before 5.11 */
		fd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (fd < 0)
		return;
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (uintptr_t)page;
	reg.range.len = 4096;
	if (page == MAP_FAILED || ioctl((int)fd, UFFDIO_API, &api) < 0 ||
	    ioctl((int)fd, UFFDIO_REGISTER, &reg) < 0) {
		close((int)fd);
		return;
	}
	X.uffd = (int)fd;
	X.gate = page;
}

/* The hand-over's message: the listener fd, one byte. */
static void handoff_listener(struct handoff *h, int fd)
{
	struct cmsghdr *cm;

	handoff_init(h);
	h->msg.msg_controllen = CMSG_SPACE(sizeof(int));
	cm = CMSG_FIRSTHDR(&h->msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
}

static long handoff_send(struct handoff *h)
{
	return obs_sys(__NR_sendmsg, S.sv[1], (long)&h->msg, MSG_NOSIGNAL, 0, 0,
		       0);
}

/*
 * Does prog return ALLOW, without a notification, for handoff_send(h)
 * from this thread? A program is a function of seccomp_data alone: the
 * number, the arch, the instruction pointer and the six arguments, all
 * known here but the instruction pointer, so a program that reads that
 * is not judged (0), nor one with an instruction sbpf.c does not run.
 */
static int allows_send(const struct sock_filter *prog, unsigned n,
		       const struct handoff *h)
{
	struct seccomp_data d = {
	    .nr = __NR_sendmsg,
	    .arch = POLEXEC_AUDIT_ARCH,
	    .args = {(uint64_t)S.sv[1], (uintptr_t)&h->msg, MSG_NOSIGNAL},
	};
	unsigned i;

	if (sbpf_check(prog, n, &i) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (prog[i].code == (BPF_LD | BPF_W | BPF_ABS) &&
		    prog[i].k >=
			offsetof(struct seccomp_data, instruction_pointer) &&
		    prog[i].k < offsetof(struct seccomp_data, args))
			return 0;
	return sbpf_run(prog, n, &d) == SECCOMP_RET_ALLOW;
}

/*
 * The second thread, never filtered: it waits until the first one has
 * installed the filter (asleep in read() on the gate's userfaultfd, or
 * yielding without one), sends the listener, lets the first one through
 * and ends, so the first one's execve has no other thread to wait for.
 * Raw syscalls only: it shares errno with the first thread.
 */
static int thread_main(void *arg)
{
	struct handoff h;
	struct uffd_msg m;

	(void)arg;
	if (X.gate)
		while (obs_sys(__NR_read, X.uffd, (long)&m, sizeof(m), 0, 0,
			       0) == -EINTR)
			;
	while (X.listener == -2)
		obs_sys(__NR_sched_yield, 0, 0, 0, 0, 0, 0);
	if (X.listener < 0) /* the first thread goes on without it */
		obs_sys(__NR_exit, 0, 0, 0, 0, 0, 0);
	handoff_listener(&h, X.listener);
	if (handoff_send(&h) != 1) {
		/* Nobody holds the listener: the filtered thread must never
		 * run on. This thread is not filtered: it ends them both. */
		X.sent = -1;
		die_child_note("child: sendmsg(the seccomp listener) failed; "
			       "the command was not run",
			       0);
		obs_sys(__NR_exit_group, POLEXEC_EXIT_REFUSED, 0, 0, 0, 0, 0);
	}
	X.sent = 1;
	if (X.gate) /* the last reference: the kernel opens the gate */
		obs_sys(__NR_close, X.uffd, 0, 0, 0, 0, 0);
	obs_sys(__NR_exit, 0, 0, 0, 0, 0, 0); /* this thread only */
	return 0;
}

/*
 * The thread that installs the filter execs. Between installing and
 * execve it makes no syscall the programs on it could notify: until the
 * listener is handed over, nobody could answer one. When the programs
 * allow its own sendmsg of the listener outright (most policies allow
 * sendmsg), it sends the listener itself; otherwise a second thread,
 * started before the filter, sends it while this one waits at the gate
 * (or, without one, in a loop of its own).
 */
int supervise_child_exec(const struct policy *p, const char *path,
			 char *const argv[], char *const envp[],
			 void (*fail)(int code, const char *cmd,
				      const char *why))
{
	struct sock_fprog fp;
	struct handoff h;
	int alone;
	long fd;

	if (!obs.mode) {
		if (S.bprog) /* the broker's calls would go unanswered */
			die("child: net: the notify broker has no supervisor");
		return 0;
	}
	fp.len = p->obs->nprog[S.prog];
	fp.filter = (struct sock_filter *)(uintptr_t)p->obs->prog[S.prog];
	if (S.bprog) { /* the broker's program, in NOTIFY's place */
		fp.len = S.nbprog;
		fp.filter = (struct sock_filter *)(uintptr_t)S.bprog;
	}
	/* As the exec'ing thread of before had it: the command dies with
	 * its parent. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		die_with_error("child: prctl(PR_SET_PDEATHSIG)");
	handoff_listener(&h, -1);
	alone = !S.twothreads && allows_send(fp.filter, fp.len, &h) &&
		(!p->nnoexec || allows_send(p->noexec, p->nnoexec, &h));
	X.listener = -2;
	if (!alone && !S.nogate)
		gate_open();
	if (!alone && clone(thread_main, thread_stack + sizeof(thread_stack),
			    CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				CLONE_THREAD | CLONE_SYSVSEM,
			    NULL) < 0) {
		if (obs.mode == 2 || S.bprog)
			die_with_error("child: clone(thread)");
		snprintf(S.note, sizeof(S.note),
			 "clone(thread): %s: denials are enforced, not "
			 "recorded",
			 strerror(errno));
		if (X.gate)
			close(X.uffd);
		return 0;
	}
	/* From here this thread makes raw syscalls only: the other one
	 * shares errno with it, and with the parent. */
	fd = obs_sys(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&fp, 0, 0, 0);
	if (fd < 0) {
		snprintf(
		    S.note, sizeof(S.note),
		    "seccomp(SECCOMP_FILTER_FLAG_NEW_LISTENER): error %ld: "
		    "denials are enforced, not recorded",
		    -fd);
		X.listener = -1;
		if (obs.mode == 2 || S.bprog)
			die("child: %s", S.note);
		/* the decision program, installed by the caller; the other
		 * thread ends, or the execve ends it */
		return 0;
	}
	X.listener = (int)fd;
	if (alone) {
		int l = (int)fd;

		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&h.msg)), &l, sizeof(int));
		if (handoff_send(&h) != 1) {
			/* Nobody holds the listener, and a syscall to end
			 * with could wait for an answer: a trap ends it. */
			die_child_note("child: sendmsg(the seccomp listener) "
				       "failed; the command was not run",
				       0);
			__builtin_trap();
		}
	} else {
		if (X.gate) /* a fault, not a syscall: asleep until let
			     * through */
			(void)*X.gate;
		while (X.sent == 0)
			__builtin_ia32_pause();
		while (X.sent < 0) /* the other thread ends the process */
			__builtin_ia32_pause();
	}
	fd = obs_sys(__NR_execve, (long)path, (long)argv, (long)envp, 0, 0, 0);
	fail(fd == -ENOENT ? POLEXEC_EXIT_NOTFOUND : POLEXEC_EXIT_NOEXEC,
	     argv[0], strerror((int)-fd));
	return 0;
}

/* --- in the parent: answering ------------------------------------------- */

static void respond(uint64_t id, int error, unsigned flags)
{
	struct seccomp_notif_resp r = {id, 0, error, flags};

	/* ENOENT: the caller is gone (killed, or a signal interrupted it). */
	obs_sys(__NR_ioctl, S.listener, (long)SECCOMP_IOCTL_NOTIF_SEND,
		(long)&r, 0, 0, 0);
}

/*
 * kill_process: the calling thread's whole process dies, through a pidfd
 * opened on the thread and checked against the notification (its id still
 * valid means the thread is still the one waiting on it). When that fails
 * the call fails with ENOSYS: it is never continued.
 */
static void kill_caller(const struct seccomp_notif *n)
{
	long fd = obs_sys(__NR_pidfd_open, n->pid, PIDFD_THREAD, 0, 0, 0, 0);
	long r = -1;

	if (fd == -EINVAL)
		fd = obs_sys(__NR_pidfd_open, n->pid, 0, 0, 0, 0, 0);
	if (fd >= 0) {
		if (obs_sys(__NR_ioctl, S.listener,
			    (long)SECCOMP_IOCTL_NOTIF_ID_VALID, (long)&n->id, 0,
			    0, 0) == 0)
			r = obs_sys(__NR_pidfd_send_signal, fd, SIGKILL, 0, 0,
				    0, 0);
		obs_sys(__NR_close, fd, 0, 0, 0, 0, 0);
	}
	if (r != 0)
		respond(n->id, -ENOSYS, 0);
}

/* Learn mode enforces the egress companions and the bad-arch action:
 * what keeps the network layer's promise and no rule could allow. */
static int learnable(uint32_t code)
{
	const struct obs_rule *r = obs_rule_of(obs.o, code);

	return code != 1 && !(r && r->flags & POLBIN_OBS_RULE_COMPANION);
}

/* Would NOTIFY notify this allowed call: is it a destructive one? */
static int destructive(const struct seccomp_notif *n)
{
	return obs.o->flags & POLBIN_OBS_F_DESTRUCTIVE &&
	       RET_ACTION(sbpf_run(obs.o->prog[OBS_PROG_NOTIFY],
				   obs.o->nprog[OBS_PROG_NOTIFY], &n->data)) ==
		   SECCOMP_RET_USER_NOTIF;
}

static void answer(void)
{
	const struct policy *p = obs.p;
	struct seccomp_notif n;
	uint32_t ret, act, code;

	memset(&n, 0, sizeof(n));
	if (obs_sys(__NR_ioctl, S.listener, (long)SECCOMP_IOCTL_NOTIF_RECV,
		    (long)&n, 0, 0, 0) < 0)
		return;
	S.seen++;
	if (S.stall)
		return;
	ret = sbpf_run(p->filter, p->nfilter, &n.data);
	code = sbpf_run(obs.o->prog[OBS_PROG_EXPLAIN],
			obs.o->nprog[OBS_PROG_EXPLAIN], &n.data);
	act = RET_ACTION(ret);
	/* What the decision allows on a broker call, the broker makes
	 * itself: never continued. */
	if (S.bhandle && (act == SECCOMP_RET_ALLOW || act == SECCOMP_RET_LOG) &&
	    S.bhandle(&n, S.listener))
		return;
	if (obs.mode == 2 && learnable(code)) {
		if (act != SECCOMP_RET_ALLOW && act != SECCOMP_RET_LOG)
			obs_seccomp(&n, ret, code, 1);
		else if (destructive(&n))
			obs_side_of(&n);
		if (obs.o->flags & POLBIN_OBS_F_LEARN_PATHS)
			obs_learn_fs(&n);
		respond(n.id, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
		return;
	}
	switch (act) {
	case SECCOMP_RET_ERRNO:
		obs_seccomp(&n, ret, code, 0);
		respond(n.id, -(int)(ret & SECCOMP_RET_DATA), 0);
		return;
	case SECCOMP_RET_KILL_PROCESS:
		obs_seccomp(&n, ret, code, 0);
		kill_caller(&n);
		return;
	case SECCOMP_RET_ALLOW:
		if (destructive(&n))
			obs_side_of(&n);
		respond(n.id, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
		return;
	default:
		respond(n.id, -ENOSYS, 0);
	}
}

/* The listener handed over on the socket, or the end of it (execve or
 * exit); returns 1 at the end. */
static int take_listener(void)
{
	struct handoff h;
	struct cmsghdr *cm;
	long r;

	handoff_init(&h);
	r = obs_sys(__NR_recvmsg, S.sv[0], (long)&h.msg,
		    MSG_CMSG_CLOEXEC | MSG_DONTWAIT, 0, 0, 0);
	if (r == -EINTR || r == -EAGAIN)
		return 0;
	if (r <= 0)
		return 1;
	for (cm = CMSG_FIRSTHDR(&h.msg); cm; cm = CMSG_NXTHDR(&h.msg, cm)) {
		struct ucred cr;

		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_CREDENTIALS ||
		    cm->cmsg_len != CMSG_LEN(sizeof(cr)))
			continue;
		memcpy(&cr, CMSG_DATA(cm), sizeof(cr));
		llaudit_box(cr.pid);
	}
	cm = CMSG_FIRSTHDR(&h.msg);
	while (cm && cm->cmsg_type != SCM_RIGHTS)
		cm = CMSG_NXTHDR(&h.msg, cm);
	if (S.listener < 0 && cm && cm->cmsg_level == SOL_SOCKET &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int))) {
		memcpy(&S.listener, CMSG_DATA(cm), sizeof(int));
		obs.notified = 1;
		/* The caller and we switch on one CPU: a round trip halves
		 * (6.6 and later; without it the answers are the same). */
		obs_sys(__NR_ioctl, S.listener,
			(long)SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0, 0, 0);
	}
	return 0;
}

void supervise_window(pid_t pid)
{
	/* With a pid namespace the command is not our child: its pid comes
	 * with the hand-over, or the log is not ours to read (llaudit.c). */
	llaudit_box(view_root() ? 0 : pid);
	if (S.sv[0] < 0)
		return;
	obs.defer_explain = 1;
	/* Our copy of the child's end: closed, but S.sv[1] is left as it
	 * is, since the child reads it from the memory we share. */
	obs_sys(__NR_close, S.sv[1], 0, 0, 0, 0, 0);
	for (;;) {
		struct pollfd fds[2] = {{S.sv[0], POLLIN, 0},
					{S.listener, POLLIN, 0}};
		long r = obs_sys(__NR_poll, (long)fds, S.listener >= 0 ? 2 : 1,
				 -1, 0, 0, 0);

		if (r < 0)
			continue; /* EINTR; nothing else fails on two fds */
		if (fds[1].revents & POLLIN)
			answer();
		if (fds[0].revents && take_listener())
			break;
	}
	obs_sys(__NR_close, S.sv[0], 0, 0, 0, 0, 0);
	S.sv[0] = S.sv[1] = -1;
	obs.defer_explain =
	    obs.explain == 2; /* --explain=end: all at the end */
	if (S.listener < 0)
		obs_note("%s", S.note[0] ? S.note
					 : "the box child handed no listener "
					   "over");
	if (!obs.defer_explain)
		obs_flush_explain();
}

/* --- the wait loop ------------------------------------------------------ */

int observe_pollfds(struct pollfd *fds)
{
	int n = 0;

	if (S.listener >= 0) {
		if (fds)
			fds[n] = (struct pollfd){S.listener, POLLIN, 0};
		n++;
	}
	return n + llaudit_pollfd(fds ? fds + n : NULL);
}

void observe_handle(const struct pollfd *fds, int n)
{
	int i = 0;

	if (S.listener >= 0 && n > 0) {
		if (fds[0].revents & POLLIN)
			answer();
		else if (fds[0].revents & (POLLHUP | POLLERR)) {
			/* No filtered task is left. */
			close(S.listener);
			S.listener = -1;
		}
		i = 1;
	}
	if (i < n && fds[i].revents)
		llaudit_read();
}

void supervise_finish(void)
{
	/* What still runs in the box gets ENOSYS from now on. */
	if (S.listener >= 0)
		close(S.listener);
	S.listener = -1;
	llaudit_finish();
}

/* Is notification id still waiting (its thread the same)? */
int supervise_valid(uint64_t id)
{
	return obs_sys(__NR_ioctl, S.listener,
		       (long)SECCOMP_IOCTL_NOTIF_ID_VALID, (long)&id, 0, 0,
		       0) == 0;
}

uint64_t supervise_seen(void)
{
	return S.seen;
}
