/* SPDX-License-Identifier: MIT */
/*
 * The notify broker (docs/EGRESS.md, "The notify broker"): egress
 * contained without privilege, where polexec can make no namespace and
 * attach no program (a default Docker container, a CI container). The box
 * stays in the caller's network. polc compiled beside NOTIFY a BROKER
 * program (compiler/backend/broker.c), which the box child installs in its
 * place with the listener; the supervisor (observe/supervise.c) runs the
 * decision program on each notification and hands what it allows on a
 * broker call to broker_notified() here:
 *
 *   connect, sendto  the address is read from the box's memory with
 *                    process_vm_readv, then the notification is checked
 *                    valid (its thread still waiting: the memory read was
 *                    that thread's); the decision is on that copy, by the
 *                    EBPF section's rules (the net IR, as the cgroup
 *                    programs decide) and the pinned addresses. The
 *                    socket is taken with pidfd_getfd and its family,
 *                    type and protocol read from it; an allowed call is
 *                    made by polexec on that duplicate (the same open
 *                    file description) with the copy, and its result is
 *                    the box's. Never SECCOMP_USER_NOTIF_FLAG_CONTINUE:
 *                    the kernel would read the fd number and the address
 *                    again, after another thread of the box changed them.
 *                    A blocking socket's call runs on a worker thread,
 *                    which answers for itself, so the supervisor goes on
 *                    answering the box's other calls.
 *   sendto, sendmsg, as connect, from copies of the msghdr, address, data
 *   sendmmsg         and control (broker_send.c); sendmsg and sendmmsg
 *                    are all notified where the policy lists a UDP
 *                    destination, else with MSG_FASTOPEN
 *   listen           an AF_UNIX socket, or an inet one bound to a
 *                    loopback address, on the duplicate; else EPERM
 *   socket           what the program notified is refused: EACCES
 *   setsockopt       source routing (IP_OPTIONS, IPV6_RTHDR...): EPERM
 *   io_uring_setup   EPERM
 *
 * An inet socket must be TCP or UDP (a UDP one exists only where the
 * policy lists a UDP destination, or passed in). A unix address: an abstract
 * name is refused (the box's Landlock scope would refuse it for a socket
 * outside its domain, and polexec's own connect is outside it); a path is
 * opened by a worker thread that took the box's fs uid, gid and groups and no
 * capability, with openat2(RESOLVE_IN_ROOT) in the box's root (/proc/TID/root;
 * a relative path in its cwd), and connected as /proc/self/fd/N.
 */
#include "broker.h"
#include "broker_int.h"
#include "lib/kernel.h"
#include "lib/util.h"
#include "lib/vars.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/un.h>

#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

#define BROKER_MAX_BLOCKED 1024
#define BROKER_WORKERS	   16
#define WORKER_STACK	   (32 << 10)

struct blocked {
	uint8_t v6, proto;
	uint16_t port;
	uint8_t a[16];
};

static struct {
	int on;
	const struct net_spec *spec;
	int (*pinned)(int v6, const uint8_t *a, uint8_t proto, uint16_t port);
	struct blocked blk[BROKER_MAX_BLOCKED];
	unsigned nblk, full;
	struct job jobs[BROKER_WORKERS];
	int unsound; /* test hook: decide, then continue (never installed) */
} B;

static int broker_notified(const struct seccomp_notif *n, int listener);

/*
 * What the supervisor calls on the box, tried on ourselves: a container's
 * seccomp profile may refuse them (Docker's default allows pidfd_getfd
 * only with CAP_SYS_PTRACE), and Yama's ptrace_scope 2 or 3 refuses them
 * across processes to all but CAP_SYS_PTRACE. NULL, or why not.
 */
static const char *calls_unavailable(void)
{
	static char why[200];
	long pfd = obs_sys(__NR_pidfd_open, getpid(), 0, 0, 0, 0, 0), fd;
	char buf[1] = {0}, dst[1];
	struct iovec l = {dst, 1}, r = {buf, 1};
	int scope = 0, n;

	if (pfd < 0) {
		snprintf(why, sizeof(why), "pidfd_open: %s",
			 strerror((int)-pfd));
		return why;
	}
	fd = obs_sys(__NR_pidfd_getfd, pfd, 0, 0, 0, 0, 0);
	obs_sys(__NR_close, pfd, 0, 0, 0, 0, 0);
	if (fd < 0) {
		snprintf(why, sizeof(why),
			 "pidfd_getfd: %s (Docker's default seccomp profile "
			 "allows it only with CAP_SYS_PTRACE: --cap-add "
			 "SYS_PTRACE)",
			 strerror((int)-fd));
		return why;
	}
	obs_sys(__NR_close, fd, 0, 0, 0, 0, 0);
	if (obs_sys(__NR_process_vm_readv, getpid(), (long)&l, 1, (long)&r, 1,
		    0) != 1)
		return "process_vm_readv is refused here";
	fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char s[4] = {0};

		n = (int)read((int)fd, s, sizeof(s) - 1);
		close((int)fd);
		scope = n > 0 ? s[0] - '0' : 0;
	}
	if (scope >= 2 && geteuid() != 0)
		return "Yama's ptrace_scope is 2 or more: only CAP_SYS_PTRACE "
		       "may take the box's sockets";
	return NULL;
}

const char *broker_unavailable(const struct policy *p)
{
	if (!p->nbroker)
		return "the artifact has no BROKER program (a policy without a "
		       "syscalls layer, one that says another backend, or an "
		       "older polc)";
	if (!p->net.ebpf.present)
		return "the artifact has no EBPF section, whose rules the "
		       "broker decides by";
	return supervise_broker_unavailable() ?: calls_unavailable();
}

const char *broker_unavailable_here(const struct policy *p)
{
	unsigned action = SECCOMP_RET_USER_NOTIF;

	if (!p->nbroker || !p->net.ebpf.present)
		return broker_unavailable(p);
	if (!p->obs)
		return "the artifact has no OBSERVE section";
	if (sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0)
		return "this kernel has no seccomp user notification";
	return calls_unavailable();
}

void broker_plan(const struct policy *p,
		 int (*pinned)(int v6, const uint8_t *a, uint8_t proto,
			       uint16_t port))
{
	B.on = 1;
	B.spec = &p->net;
	B.pinned = pinned;
#ifdef POLEXEC_TEST_HOOKS
	/* tests/broker only: the unsound design docs/EGRESS.md describes,
	 * which decides on its copy and then lets the kernel run the call,
	 * reading the box's memory and fd table again */
	B.unsound = vars_caller("POLEXEC_TEST_BROKER_CONTINUE", 28) != NULL;
#endif
	supervise_broker(p->broker, p->nbroker, broker_notified);
}

int broker_on(void)
{
	return B.on;
}

/* --- the decision ------------------------------------------------------- */

/* Does a rule of kind k, protocol proto, hold (a, port)? The section's
 * rules are checked by artifact.c; a prefix longer than the address
 * holds nothing. */
static int rule_holds(int kind, uint8_t proto, const uint8_t *a, int v6,
		      uint16_t port)
{
	const struct net_ebpf *e = &B.spec->ebpf;
	uint32_t i, k, max = v6 ? 128 : 32;

	for (i = 0; i < e->nrules; i++) {
		const uint8_t *r =
		    e->rules + i * (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN);
		const uint8_t *v = r + POLBIN_EBPF_KEY_LEN;
		uint32_t plen = polbin_le32(r), n = polbin_le32(v), bits;

		if (r[4] != kind || r[5] != proto || plen < 32 ||
		    plen - 32 > max)
			continue;
		bits = plen - 32;
		for (k = 0; k < bits; k++)
			if ((r[8 + k / 8] ^ a[k / 8]) >> (7 - k % 8) & 1)
				break;
		if (k < bits)
			continue;
		for (k = 0; k < n && k < POLBIN_EBPF_MAX_RANGES; k++)
			if (port >= polbin_le16(v + 4 + 4 * k) &&
			    port <= polbin_le16(v + 6 + 4 * k))
				return 1;
	}
	return 0;
}

static int loopback(int v6, const uint8_t *a)
{
	static const uint8_t zero[16], one[16] = {[15] = 1};

	if (!v6)
		return a[0] == 127 || !memcmp(a, zero, 4);
	return !memcmp(a, zero, 16) || !memcmp(a, one, 16);
}

/* As the cgroup programs decide (bpf/egress/egress.bpf.c, allowed()). */
static int allowed(int v6, const uint8_t *a, uint8_t proto, uint16_t port)
{
	if (loopback(v6, a))
		return rule_holds(POLBIN_EBPF_K_LOOP, proto, a, v6, port);
	if (rule_holds(v6 ? POLBIN_EBPF_K_DENY6 : POLBIN_EBPF_K_DENY4, proto, a,
		       v6, port))
		return 0;
	return rule_holds(v6 ? POLBIN_EBPF_K_ALLOW6 : POLBIN_EBPF_K_ALLOW4,
			  proto, a, v6, port) ||
	       (B.pinned && B.pinned(v6, a, proto, port));
}

static void note_blocked(int v6, const uint8_t *a, uint8_t proto, uint16_t port)
{
	struct blocked b;
	unsigned i;

	memset(&b, 0, sizeof(b));
	b.v6 = (uint8_t)v6;
	b.proto = proto;
	b.port = port;
	memcpy(b.a, a, v6 ? 16 : 4);
	for (i = 0; i < B.nblk; i++)
		if (!memcmp(&B.blk[i], &b, sizeof(b)))
			return;
	if (B.nblk == BROKER_MAX_BLOCKED) {
		B.full = 1;
		return;
	}
	B.blk[B.nblk++] = b;
}

int broker_each_blocked(void (*fn)(int v6, const uint8_t *addr, uint8_t proto,
				   uint16_t port, void *arg),
			void *arg)
{
	unsigned i;

	for (i = 0; i < B.nblk; i++)
		fn(B.blk[i].v6, B.blk[i].a, B.blk[i].proto, B.blk[i].port, arg);
	return (int)B.nblk;
}

int broker_blocked_complete(void)
{
	return !B.full;
}

/*
 * An inet address (len bytes, as the box gave it) for a socket of
 * protocol proto (TCP or UDP): 1 allowed, 0 refused (recorded),
 * -EINVAL/-EAFNOSUPPORT malformed.
 * AF_UNSPEC dissolves a connection and reaches nobody: allowed. An
 * IPv4-mapped IPv6 address sends IPv4: judged as one.
 */
int brk_judge(const uint8_t *sa, uint32_t len, uint8_t proto)
{
	uint8_t a[16];
	uint16_t port;
	int v6;

	if (len < 2)
		return -EINVAL;
	switch (sa[0] | sa[1] << 8) {
	case AF_UNSPEC:
		return 1;
	case AF_INET:
		if (len < 16)
			return -EINVAL;
		v6 = 0;
		memset(a, 0, 16);
		memcpy(a, sa + 4, 4);
		break;
	case AF_INET6:
		if (len < 24)
			return -EINVAL;
		v6 = 1;
		memcpy(a, sa + 8, 16);
		if (!memcmp(a, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
			memmove(a, a + 12, 4);
			memset(a + 4, 0, 12);
			v6 = 0;
		}
		break;
	default:
		return -EAFNOSUPPORT;
	}
	port = (uint16_t)(sa[2] << 8 | sa[3]);
	if (allowed(v6, a, proto, port))
		return 1;
	note_blocked(v6, a, proto, port);
	return 0;
}

/* --- answering ----------------------------------------------------------- */

void brk_respond(int listener, uint64_t id, long r, uint32_t flags)
{
	struct seccomp_notif_resp resp = {id, r > 0 ? r : 0,
					  r < 0 ? (int32_t)r : 0, flags};

	obs_sys(__NR_ioctl, listener, (long)SECCOMP_IOCTL_NOTIF_SEND,
		(long)&resp, 0, 0, 0);
}

int brk_valid(int listener, uint64_t id)
{
	return obs_sys(__NR_ioctl, listener, (long)SECCOMP_IOCTL_NOTIF_ID_VALID,
		       (long)&id, 0, 0, 0) == 0;
}

/* len bytes at the box's address `remote` into buf: 0, or -EFAULT. */
int brk_read(pid_t pid, uint64_t remote, void *buf, size_t len)
{
	struct iovec l = {buf, len}, r = {(void *)(uintptr_t)remote, len};

	if (!len)
		return 0;
	return obs_sys(__NR_process_vm_readv, pid, (long)&l, 1, (long)&r, 1,
		       0) == (long)len
		   ? 0
		   : -EFAULT;
}

/* The box's descriptor fd, duplicated into ours (close-on-exec), or
 * -errno. */
int brk_take_fd(pid_t tid, int fd)
{
	long pfd = obs_sys(__NR_pidfd_open, tid, PIDFD_THREAD, 0, 0, 0, 0);
	long r;

	if (pfd == -EINVAL)
		pfd = obs_sys(__NR_pidfd_open, tid, 0, 0, 0, 0, 0);
	if (pfd < 0)
		return (int)pfd;
	r = obs_sys(__NR_pidfd_getfd, pfd, fd, 0, 0, 0, 0);
	obs_sys(__NR_close, pfd, 0, 0, 0, 0, 0);
	return (int)r;
}

int brk_sockopt(int fd, int opt)
{
	int v = -1;
	socklen_t l = sizeof(v);

	if (obs_sys(__NR_getsockopt, fd, SOL_SOCKET, opt, (long)&v, (long)&l,
		    0) < 0)
		return -1;
	return v;
}

/* --- the workers -----------------------------------------------------------
 */

/* As the box: its fs ids and groups, no capability (this thread only:
 * raw system calls change the calling thread's credentials). */
static long become_box(const struct job *j)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	long r;

	memset(d, 0, sizeof(d));
	if ((r = obs_sys(__NR_setgroups, j->ngroups, (long)j->groups, 0, 0, 0,
			 0)) < 0 &&
	    r != -EPERM)
		return r;
	if ((r = obs_sys(__NR_setresgid, j->gid, j->gid, j->gid, 0, 0, 0)) <
		0 ||
	    (r = obs_sys(__NR_setresuid, j->uid, j->uid, j->uid, 0, 0, 0)) < 0)
		return r;
	return obs_sys(__NR_capset, (long)&h, (long)d, 0, 0, 0, 0);
}

/* "/proc/self/fd/N" into a sockaddr_un: the path the worker opened. */
static uint32_t proc_fd_addr(uint8_t *sa, long fd)
{
	static const char pre[] = "/proc/self/fd/";
	char num[12];
	int n = 0, i;
	uint32_t len = 2;

	memset(sa, 0, 128);
	sa[0] = AF_UNIX;
	memcpy(sa + len, pre, sizeof(pre) - 1);
	len += sizeof(pre) - 1;
	do
		num[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) > 0);
	for (i = n - 1; i >= 0; i--)
		sa[len++] = (uint8_t)num[i];
	return len + 1;
}

/* Raw system calls only, on a stack of its own; it shares our memory,
 * fd table and signal handlers (every signal blocked). */
static int worker(void *arg)
{
	struct job *j = arg;
	long r = 0, opened = -1;

	if (j->unix_path) {
		struct open_how how = {.flags = O_PATH | O_CLOEXEC,
				       .resolve = RESOLVE_IN_ROOT |
						  RESOLVE_NO_MAGICLINKS};

		r = become_box(j);
		if (r >= 0) {
			opened =
			    obs_sys(__NR_openat2, j->dirfd, (long)(j->addr + 2),
				    (long)&how, sizeof(how), 0, 0);
			r = opened < 0 ? opened : 0;
		}
		if (opened >= 0)
			j->alen = proc_fd_addr(j->addr, opened);
		if (r == -ENOENT || r == -ENOTDIR)
			r = -ENOENT;
	}
	if (r >= 0) {
		if (j->nr == __NR_connect)
			r = obs_sys(__NR_connect, j->fd, (long)j->addr, j->alen,
				    0, 0, 0);
		else
			r = brk_send(j, 0);
	}
	if (j->nr != __NR_connect)
		r = brk_result(j, r);
	brk_respond(j->listener, j->id, r, 0);
	brk_send_release(j);
	if (opened >= 0)
		obs_sys(__NR_close, opened, 0, 0, 0, 0, 0);
	if (j->dirfd >= 0)
		obs_sys(__NR_close, j->dirfd, 0, 0, 0, 0, 0);
	obs_sys(__NR_close, j->fd, 0, 0, 0, 0, 0);
	obs_sys(__NR_exit, 0, 0, 0, 0, 0, 0); /* this thread only */
	return 0;
}

struct job *brk_job_get(void)
{
	int i;

	for (i = 0; i < BROKER_WORKERS; i++) {
		struct job *j = &B.jobs[i];

		if (j->tid)
			continue;
		if (!j->data) {
			void *m = mmap(NULL, BROKER_MAX_DATA + WORKER_STACK,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED)
				return NULL;
			j->data = m;
		}
		j->dirfd = -1;
		j->unix_path = 0;
		j->nfds = 0;
		j->sent = 0;
		j->done = 0;
		j->mlen_at = 0;
		j->ctllen = 0;
		return j;
	}
	return NULL;
}

/* Starts j; -errno when it cannot (then the caller answers). */
int brk_job_start(struct job *j)
{
	sigset_t all, old;
	long r;

	sigfillset(&all);
	j->tid = -1;
	sigprocmask(SIG_SETMASK, &all, &old);
	r = clone(worker, j->data + BROKER_MAX_DATA + WORKER_STACK,
		  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		      CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID |
		      CLONE_CHILD_SETTID,
		  j, NULL, NULL, &j->tid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (r < 0) {
		j->tid = 0;
		return -EAGAIN;
	}
	return 0;
}

/* --- the calls ---------------------------------------------------------------
 */

/* A decimal number at *p, which moves past it (and the blanks before it);
 * -1 when there is none. */
static long num(char **p)
{
	long v = -1;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		v = (v < 0 ? 0 : v * 10) + (**p - '0');
	return v;
}

/* The box thread's fs ids and groups, from /proc/TID/status. */
static int box_creds(pid_t tid, struct job *j)
{
	char path[32], buf[2048], *l;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	j->ngroups = 0;
	for (l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *p = l + 4;
		long v = 0;
		int k;

		if (!strncmp(l, "Uid:", 4) || !strncmp(l, "Gid:", 4)) {
			for (k = 0; k < 4; k++) /* real effective saved fs */
				v = num(&p);
			if (v < 0)
				return -1;
			if (l[0] == 'U')
				j->uid = (uint32_t)v;
			else
				j->gid = (uint32_t)v;
		} else if (!strncmp(l, "Groups:", 7)) {
			p = l + 7;
			while ((v = num(&p)) >= 0) {
				if (j->ngroups == 32)
					return -1;
				j->groups[j->ngroups++] = (uint32_t)v;
			}
		}
	}
	return 0;
}

/* An AF_UNIX address (alen bytes at sa) for j: an abstract name refused
 * (recorded); a path made ready for a worker, which resolves it as the
 * box (j->unix_path, j->dirfd). 0, or -errno. */
int brk_unix_dest(const struct seccomp_notif *n, int listener, struct job *j,
		  uint8_t *sa, uint32_t alen)
{
	char root[40];

	if (alen <= 2 || sa[0] != AF_UNIX)
		return 0;
	if (sa[2] == '\0') {
		obs_net("unix:@abstract", NULL, "refused");
		return -EPERM;
	}
	if (box_creds((pid_t)n->pid, j) < 0)
		return -EACCES;
	sa[alen < 128 ? alen : 127] = '\0';
	snprintf(root, sizeof(root), "/proc/%d/%s", (int)n->pid,
		 sa[2] == '/' ? "root" : "cwd");
	j->dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (j->dirfd < 0 || !brk_valid(listener, n->id)) {
		if (j->dirfd >= 0)
			close(j->dirfd);
		j->dirfd = -1;
		return -EACCES;
	}
	j->unix_path = 1;
	return 0;
}

int brk_unsound(void)
{
	return B.unsound;
}

/*
 * connect(fd, addr, alen): the address copied, decided, the connect made
 * on our duplicate. Returns nothing: the call is answered here or by a
 * worker. (sendto, sendmsg, sendmmsg: broker_send.c.)
 */
static void on_connect(const struct seccomp_notif *n, int listener)
{
	const __u64 *a = n->data.args;
	int fd = (int)a[0], s, dom, type, proto;
	uint32_t alen = (uint32_t)a[2];
	uint8_t sa[128];
	struct job *j;
	long r;

	if (alen > sizeof(sa) || (int32_t)alen < 0)
		return brk_respond(listener, n->id, -EINVAL, 0);
	if (!a[1])
		alen = 0;
	memset(sa, 0, sizeof(sa));
	if (brk_read((pid_t)n->pid, a[1], sa, alen) < 0)
		return brk_respond(listener, n->id, -EFAULT, 0);
	/* The copy is the thread's that waits on n: still waiting. */
	if (!brk_valid(listener, n->id))
		return;
	s = brk_take_fd((pid_t)n->pid, fd);
	if (s < 0)
		return brk_respond(listener, n->id, s, 0);
	if (!brk_valid(listener, n->id)) /* the tid was not reused */
		goto out;
	dom = brk_sockopt(s, SO_DOMAIN);
	type = brk_sockopt(s, SO_TYPE);
	proto = brk_sockopt(s, SO_PROTOCOL);
	j = brk_job_get();
	r = dom < 0 ? -ENOTSOCK : !j ? -EAGAIN : 0;
	if (!r && (dom == AF_INET || dom == AF_INET6)) {
		/* TCP, or UDP (a socket the filter let through only where
		 * the policy lists a UDP destination, or one passed in) */
		if (!(type == SOCK_STREAM && proto == IPPROTO_TCP) &&
		    !(type == SOCK_DGRAM && proto == IPPROTO_UDP))
			r = -EACCES;
		else if (alen && (r = brk_judge(sa, alen, (uint8_t)proto)) <= 0)
			r = r ? r : -EPERM;
		else
			r = 0;
	} else if (!r && dom == AF_UNIX) {
		r = brk_unix_dest(n, listener, j, sa, alen);
	} else if (!r && dom != AF_NETLINK) { /* NETLINK_ROUTE alone */
		r = -EACCES;
	}
	if (r) {
		brk_respond(listener, n->id, r, 0);
		goto out;
	}
	if (B.unsound) {
		if (j->dirfd >= 0)
			close(j->dirfd);
		brk_respond(listener, n->id, 0,
			    SECCOMP_USER_NOTIF_FLAG_CONTINUE);
		goto out;
	}
	memcpy(j->addr, sa, sizeof(sa));
	j->alen = alen;
	j->listener = listener;
	j->id = n->id;
	j->nr = __NR_connect;
	j->fd = s;
	if (!j->unix_path &&
	    (obs_sys(__NR_fcntl, s, F_GETFL, 0, 0, 0, 0) & O_NONBLOCK)) {
		/* answered at once, as the kernel would (EINPROGRESS) */
		r = obs_sys(__NR_connect, s, (long)j->addr, alen, 0, 0, 0);
		brk_respond(listener, n->id, r, 0);
		goto out;
	}
	if ((r = brk_job_start(j)) < 0) {
		if (j->dirfd >= 0)
			close(j->dirfd);
		brk_respond(listener, n->id, r, 0);
		goto out;
	}
	return; /* the worker closes s */
out:
	close(s);
}

static int inet_ok(const __u64 *a)
{
	int fam = (int)a[0], type = (int)a[1] & 0xf, proto = (int)a[2];

	if (fam == AF_UNIX || fam == AF_NETLINK)
		return 1;
	return (fam == AF_INET || fam == AF_INET6) && type == SOCK_STREAM &&
	       (proto == 0 || proto == IPPROTO_TCP);
}

/* listen: AF_UNIX, or inet bound to a loopback address. */
static void on_listen(const struct seccomp_notif *n, int listener)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	int s = brk_take_fd((pid_t)n->pid, (int)n->data.args[0]), dom, ok = 0;
	const uint8_t *b = (const uint8_t *)&ss;

	if (s < 0)
		return brk_respond(listener, n->id, s, 0);
	if (!brk_valid(listener, n->id))
		goto out;
	dom = brk_sockopt(s, SO_DOMAIN);
	memset(&ss, 0, sizeof(ss));
	if (dom == AF_UNIX || dom == AF_NETLINK)
		ok = 1;
	else if ((dom == AF_INET || dom == AF_INET6) &&
		 getsockname(s, (struct sockaddr *)&ss, &l) == 0)
		ok = ss.ss_family == AF_INET
			 ? b[4] == 127
			 : ss.ss_family == AF_INET6 && loopback(1, b + 8) &&
			       b[23] == 1;
	if (dom < 0)
		brk_respond(listener, n->id, -ENOTSOCK, 0);
	else if (!ok)
		brk_respond(listener, n->id, -EPERM, 0);
	else
		brk_respond(
		    listener, n->id,
		    obs_sys(__NR_listen, s, (int)n->data.args[1], 0, 0, 0, 0),
		    0);
out:
	close(s);
}

/* 1 when n was a broker call, answered (or left to a worker). */
static int broker_notified(const struct seccomp_notif *n, int listener)
{
	const __u64 *a = n->data.args;

	switch (n->data.nr) {
	case __NR_connect:
		on_connect(n, listener);
		return 1;
	case __NR_sendto:
	case __NR_sendmsg:
	case __NR_sendmmsg:
		brk_on_send(n, listener);
		return 1;
	case __NR_listen:
		on_listen(n, listener);
		return 1;
	case __NR_io_uring_setup:
		brk_respond(listener, n->id, -EPERM, 0);
		return 1;
	case __NR_socket:
		if (inet_ok(a)) /* registers: the kernel reads the same */
			brk_respond(listener, n->id, 0,
				    SECCOMP_USER_NOTIF_FLAG_CONTINUE);
		else
			brk_respond(listener, n->id, -EACCES, 0);
		return 1;
	case __NR_setsockopt:
		if (((int)a[1] == IPPROTO_IP && (int)a[2] == 4) ||
		    ((int)a[1] == IPPROTO_IPV6 &&
		     ((int)a[2] == 5 || (int)a[2] == 6 || (int)a[2] == 57)))
			brk_respond(listener, n->id, -EPERM, 0);
		else
			brk_respond(listener, n->id, 0,
				    SECCOMP_USER_NOTIF_FLAG_CONTINUE);
		return 1;
	}
	return 0;
}
