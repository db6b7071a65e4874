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
 * a second thread installs the filter (the first thread stays without
 * it), and the first thread sends the listener over a socket pair
 * (SCM_RIGHTS): that sendmsg is never filtered, whatever the policy
 * denies. The second thread then execs, which ends the first. The parent
 * sees the listener, then the end of the socket (close-on-exec) at
 * execve.
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
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE 1
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
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
	uint64_t seen;	/* notifications received */
	char note[240]; /* the child's reason to install no listener */
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
	 * supervisor that receives and never answers, or none at all. */
	S.stall = vars_caller("POLEXEC_TEST_STALL", 18) != NULL;
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

int supervise_learning(void)
{
	return obs.mode == 2;
}

int supervise_before_clone(void)
{
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

/* What the thread that execs needs; shared memory, written before it
 * starts, read by it. */
static struct {
	const struct sock_filter *prog;
	unsigned short n;
	const char *path;
	char *const *argv, *const *envp;
	void (*fail)(int code, const char *cmd, const char *why);
	volatile int listener; /* -2 until installed; -1 failed */
	volatile int sent;     /* 1 handed over; -1 failed */
} X;

static char thread_stack[16 << 10] __attribute__((aligned(16)));

/*
 * The thread that installs the filter and execs. It makes no syscall
 * between installing and execve: until the first thread has handed the
 * listener over, nobody could answer one, so it waits for that in a loop
 * of its own. execve ends the first thread (the kernel kills the others
 * of the process), which leaves this one the box's process.
 */
static int thread_main(void *arg)
{
	struct sock_fprog fp = {X.n, (struct sock_filter *)(uintptr_t)X.prog};
	long fd;

	(void)arg;
	/* Per thread: the first one's does not carry over to this one. */
	obs_sys(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0, 0);
	fd = obs_sys(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&fp, 0, 0, 0);
	X.listener = fd < 0 ? -1 : (int)fd;
	if (fd < 0) {
		snprintf(
		    S.note, sizeof(S.note),
		    "seccomp(SECCOMP_FILTER_FLAG_NEW_LISTENER): error %ld: "
		    "denials are enforced, not recorded",
		    -fd);
		obs_sys(__NR_exit, 0, 0, 0, 0, 0, 0); /* this thread only */
	}
	while (X.sent == 0)
		__builtin_ia32_pause();
	while (X.sent < 0) /* the first thread ends the process */
		__builtin_ia32_pause();
	execve(X.path, X.argv, X.envp);
	X.fail(errno == ENOENT ? POLEXEC_EXIT_NOTFOUND : POLEXEC_EXIT_NOEXEC,
	       X.argv[0], strerror(errno));
	return 0;
}

int supervise_child_exec(const struct policy *p, const char *path,
			 char *const argv[], char *const envp[],
			 void (*fail)(int code, const char *cmd,
				      const char *why))
{
	struct handoff h;
	struct cmsghdr *cm;
	int fd;

	if (!obs.mode)
		return 0;
	X.prog = p->obs->prog[S.prog];
	X.n = p->obs->nprog[S.prog];
	X.path = path;
	X.argv = argv;
	X.envp = envp;
	X.fail = fail;
	X.listener = -2;
	if (clone(thread_main, thread_stack + sizeof(thread_stack),
		  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		      CLONE_THREAD | CLONE_SYSVSEM,
		  NULL) < 0) {
		if (obs.mode == 2)
			die_with_error("child: learn: clone(thread)");
		snprintf(S.note, sizeof(S.note),
			 "clone(thread): %s: denials are enforced, not "
			 "recorded",
			 strerror(errno));
		return 0;
	}
	/* From here this thread makes raw syscalls only: the other one
	 * shares errno with it, and with the parent. */
	while (X.listener == -2)
		obs_sys(__NR_sched_yield, 0, 0, 0, 0, 0, 0);
	if (X.listener < 0) {
		if (obs.mode == 2)
			die("child: learn: %s", S.note);
		return 0; /* the decision program, installed by the caller */
	}
	handoff_init(&h);
	h.msg.msg_controllen = CMSG_SPACE(sizeof(int));
	cm = CMSG_FIRSTHDR(&h.msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	fd = X.listener;
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (obs_sys(__NR_sendmsg, S.sv[1], (long)&h.msg, MSG_NOSIGNAL, 0, 0,
		    0) != 1) {
		/* Nobody holds the listener: the filtered thread must never
		 * run on. This thread is not filtered: it ends them both. */
		X.sent = -1;
		die_child_note("child: sendmsg(the seccomp listener) failed; "
			       "the command was not run");
		obs_sys(__NR_exit_group, POLEXEC_EXIT_REFUSED, 0, 0, 0, 0, 0);
	}
	X.sent = 1;
	for (;;) /* until the other thread's execve ends this one */
		obs_sys(__NR_pause, 0, 0, 0, 0, 0, 0);
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
