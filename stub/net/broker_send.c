/* SPDX-License-Identifier: MIT */
/*
 * The notify broker's sends (docs/EGRESS.md, "The notify broker"): a
 * notified sendto with an address or MSG_FASTOPEN, and sendmsg and
 * sendmmsg (each of them where the policy lists a UDP destination: a
 * filter cannot read the address inside a msghdr, and a connected UDP
 * socket still honours it). For each message, in turn:
 *
 *   1. the msghdr, the address (at most 128 bytes, as the kernel takes),
 *      the iovecs' bytes (at most BROKER_MAX_DATA) and the control (at
 *      most BROKER_MAX_CTL) are copied from the box with
 *      process_vm_readv, and the notification checked valid after: the
 *      copies are those of the thread that waits;
 *   2. the socket is taken with pidfd_getfd (once per call, as the kernel
 *      takes it once) and its family, type and protocol read from it;
 *   3. the copy is decided: UDP to an allowed destination (the address,
 *      else the socket's peer), with a harmless control message or none;
 *      TCP without an address (it goes to the peer) or with MSG_FASTOPEN
 *      to an allowed one; AF_UNIX as connect resolves its path, its
 *      SCM_RIGHTS descriptors taken from the box, SCM_CREDENTIALS refused
 *      (the receiver of an implicit one sees polexec's pid); netlink;
 *   4. polexec sends its copy on its duplicate, first with MSG_DONTWAIT;
 *      where that would block a socket whose file is blocking, a worker
 *      thread sends the rest and answers.
 *
 * A datagram longer than BROKER_MAX_DATA is refused (EMSGSIZE); a stream
 * sends that much, a short count. sendmmsg returns the messages sent, as
 * the kernel does, with their msg_len written back into the box.
 */
#include "broker_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <netinet/in.h>

#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#define UDP_SEGMENT_OPT 103
#define MAX_IOV		1024 /* UIO_MAXIOV: the kernel's EMSGSIZE above */

/* The kernel's msghdr, mmsghdr and cmsghdr (sizes as unsigned long: a
 * C library's socklen_t fields leave the high half to padding, which the
 * kernel reads). */
struct kmsg {
	unsigned long name;
	int namelen;
	unsigned long iov, iovlen, control, controllen;
	unsigned flags;
};
struct kmmsg {
	struct kmsg hdr;
	unsigned len;
};
struct kcmsg {
	unsigned long len;
	int level, type;
};
#define CM_ALIGN(n) (((n) + sizeof(long) - 1) & ~(sizeof(long) - 1))

static struct iovec iovs[MAX_IOV];

/* Message i of the call n, copied into j (step 1): 0 or -errno. */
static int copy_msg(const struct seccomp_notif *n, struct job *j, uint32_t i)
{
	const __u64 *a = n->data.args;
	pid_t pid = (pid_t)n->pid;
	struct kmsg m;
	size_t k, got = 0;

	memset(&m, 0, sizeof(m));
	if (n->data.nr == __NR_sendto) {
		m.name = a[4];
		m.namelen = (int)a[5];
		m.control = 0;
		j->flags = (int)a[3];
		iovs[0].iov_base = (void *)(uintptr_t)a[1];
		iovs[0].iov_len = (size_t)a[2];
		m.iovlen = 1;
		if (m.name && (m.namelen < 0 || m.namelen > 128))
			return -EINVAL;
	} else {
		uint64_t at = a[1] + (uint64_t)i * sizeof(struct kmmsg);

		if (brk_read(pid, at, &m, sizeof(m)) < 0)
			return -EFAULT;
		j->flags = (int)a[n->data.nr == __NR_sendmsg ? 2 : 3];
		if (n->data.nr == __NR_sendmmsg)
			j->mlen_at = at + offsetof(struct kmmsg, len);
		if (m.name && m.namelen < 0)
			return -EINVAL;
		if (m.namelen > 128)
			m.namelen = 128; /* as the kernel cuts it */
		if (m.iovlen > MAX_IOV)
			return -EMSGSIZE;
		if (m.controllen > BROKER_MAX_CTL)
			return -ENOBUFS;
		if (brk_read(pid, m.iov, iovs, m.iovlen * sizeof(*iovs)) < 0)
			return -EFAULT;
	}
	j->alen = m.name ? (uint32_t)m.namelen : 0;
	memset(j->addr, 0, sizeof(j->addr));
	if (brk_read(pid, m.name, j->addr, j->alen) < 0)
		return -EFAULT;
	j->ctllen = m.control ? m.controllen : 0;
	if (brk_read(pid, m.control, j->ctl, j->ctllen) < 0)
		return -EFAULT;
	j->total = 0;
	for (k = 0; k < m.iovlen; k++) {
		size_t l = iovs[k].iov_len, take;

		if ((ssize_t)l < 0)
			return -EINVAL;
		j->total += l;
		take = l < BROKER_MAX_DATA - got ? l : BROKER_MAX_DATA - got;
		if (brk_read(pid, (uintptr_t)iovs[k].iov_base, j->data + got,
			     take) < 0)
			return -EFAULT;
		got += take;
	}
	j->len = got;
	return 0;
}

/* A control message polexec would not send: refused, recorded. */
static int refuse_ctl(const char *what)
{
	obs_net(what, NULL, "refused");
	return -EPERM;
}

/* j's control, for a socket of family dom and protocol proto: each
 * message allowed (UDP's harmless few; AF_UNIX's SCM_RIGHTS, whose
 * descriptors are taken from the box into ours, in the copy), or the send
 * refused. 0 or -errno. As the kernel walks it (for_each_cmsghdr). */
static int check_ctl(const struct seccomp_notif *n, struct job *j, int dom,
		     int proto)
{
	size_t p = 0;

	while (p + sizeof(struct kcmsg) <= j->ctllen) {
		struct kcmsg c;
		size_t k, nfd;

		memcpy(&c, j->ctl + p, sizeof(c));
		if (c.len < sizeof(c) || c.len > j->ctllen - p)
			return -EINVAL;
		if (proto == IPPROTO_UDP) {
			if (!((c.level == SOL_UDP &&
			       c.type == UDP_SEGMENT_OPT) ||
			      (c.level == IPPROTO_IP &&
			       (c.type == IP_TOS || c.type == IP_TTL)) ||
			      (c.level == IPPROTO_IPV6 &&
			       (c.type == IPV6_TCLASS ||
				c.type == IPV6_HOPLIMIT))))
				return refuse_ctl("udp:control-message");
		} else if (dom != AF_UNIX) {
			return refuse_ctl("control-message");
		} else if (c.level != SOL_SOCKET || c.type != SCM_RIGHTS) {
			return refuse_ctl(c.level == SOL_SOCKET &&
						  c.type == SCM_CREDENTIALS
					      ? "unix:SCM_CREDENTIALS"
					      : "unix:control-message");
		} else {
			nfd = (c.len - sizeof(c)) / sizeof(int);
			for (k = 0; k < nfd; k++) {
				uint8_t *at = j->ctl + p + sizeof(c) + k * 4;
				int fd;

				if (j->nfds == BROKER_MAX_FDS)
					return -ETOOMANYREFS;
				memcpy(&fd, at, sizeof(fd));
				fd = brk_take_fd((pid_t)n->pid, fd);
				if (fd < 0)
					return -EBADF;
				j->fds[j->nfds++] = fd;
				memcpy(at, &fd, sizeof(fd));
			}
		}
		p += CM_ALIGN(c.len);
	}
	return 0;
}

/*
 * The copy in j decided for the socket s (step 3): 0 to send, or -errno.
 * An inet address is judged as connect judges it, on the copy that is
 * sent: what the kernel reads is what was decided.
 */
static int decide(const struct seccomp_notif *n, int listener, struct job *j,
		  int s)
{
	int dom = brk_sockopt(s, SO_DOMAIN), type = brk_sockopt(s, SO_TYPE),
	    proto = brk_sockopt(s, SO_PROTOCOL), r;

	j->flags &= ~MSG_ZEROCOPY; /* our copy is reused */
	j->flags |= MSG_NOSIGNAL; /* EPIPE is the box's, not a signal of ours */
	if (dom < 0)
		return -ENOTSOCK;
	if (j->total > BROKER_MAX_DATA && type != SOCK_STREAM)
		return -EMSGSIZE; /* a datagram is not cut */
	if ((r = check_ctl(n, j, dom, proto)) < 0)
		return r;
	switch (dom) {
	case AF_INET:
	case AF_INET6:
		if (type == SOCK_STREAM && proto == IPPROTO_TCP) {
			if (!(j->flags & MSG_FASTOPEN) || !j->alen) {
				j->flags &= ~MSG_FASTOPEN;
				j->alen = 0; /* to the peer: TCP ignores it */
				return 0;
			}
			r = brk_judge(j->addr, j->alen, IPPROTO_TCP);
			return r > 0 ? 0 : r ? r : -EPERM;
		}
		if (type != SOCK_DGRAM || proto != IPPROTO_UDP)
			return -EACCES;
		j->flags &= ~MSG_FASTOPEN;
		if (j->alen >= 2 && j->addr[0] == AF_UNSPEC && !j->addr[1]) {
			if (dom == AF_INET6)
				j->alen = 0; /* IPv6: the peer, as no address */
			else
				j->addr[0] = AF_INET; /* IPv4 reads it so */
		}
		if (!j->alen) { /* the connected peer, checked again */
			struct sockaddr_storage ss;
			socklen_t l = sizeof(ss);

			if (getpeername(s, (struct sockaddr *)&ss, &l) < 0)
				return 0; /* none: the kernel's EDESTADDRREQ */
			r = brk_judge((const uint8_t *)&ss, l, IPPROTO_UDP);
		} else {
			r = brk_judge(j->addr, j->alen, IPPROTO_UDP);
		}
		return r > 0 ? 0 : r ? r : -EPERM;
	case AF_UNIX:
		return brk_unix_dest(n, listener, j, j->addr, j->alen);
	case AF_NETLINK: /* NETLINK_ROUTE alone (the companions) */
		return 0;
	}
	return -EACCES;
}

long brk_send(struct job *j, int more)
{
	struct iovec v = {j->data + j->sent, j->len - j->sent};
	struct msghdr m;

	memset(&m, 0, sizeof(m));
	m.msg_name = j->alen ? j->addr : NULL;
	m.msg_namelen = j->alen;
	m.msg_iov = &v;
	m.msg_iovlen = 1;
	if (!j->sent && j->ctllen) { /* the control goes with the first */
		m.msg_control = j->ctl;
		m.msg_controllen = j->ctllen;
	}
	return obs_sys(__NR_sendmsg, j->fd, (long)&m, j->flags | more, 0, 0, 0);
}

/* sendmmsg: the message's msg_len, as the kernel writes it. */
static void put_len(const struct job *j, long r)
{
	unsigned len = (unsigned)r;
	struct iovec l = {&len, sizeof(len)},
		     rv = {(void *)(uintptr_t)j->mlen_at, sizeof(len)};

	obs_sys(__NR_process_vm_writev, j->pid, (long)&l, 1, (long)&rv, 1, 0);
}

long brk_result(struct job *j, long r)
{
	if (j->sent) /* a stream's first part is sent: that counts */
		r = r < 0 ? (long)j->sent : (long)j->sent + r;
	if (j->nr != __NR_sendmmsg)
		return r;
	if (r < 0)
		return j->done ? (long)j->done : r;
	put_len(j, r);
	return (long)j->done + 1;
}

void brk_send_release(struct job *j)
{
	while (j->nfds > 0)
		obs_sys(__NR_close, j->fds[--j->nfds], 0, 0, 0, 0, 0);
}

/* Step 4 for one message: the kernel's answer, or *worker set when a
 * worker took it (and answers the call). */
static long send_one(struct job *j, int *worker)
{
	int blocking =
	    !(j->flags & MSG_DONTWAIT) &&
	    !(obs_sys(__NR_fcntl, j->fd, F_GETFL, 0, 0, 0, 0) & O_NONBLOCK);
	long r;

	*worker = 0;
	/* a blocking Fast Open connects first: on a worker at once */
	if (!j->unix_path && !(blocking && (j->flags & MSG_FASTOPEN))) {
		r = brk_send(j, MSG_DONTWAIT);
		if (!blocking)
			return r; /* the box does not wait: nor do we */
		if (r >= 0 && ((size_t)r == j->len ||
			       brk_sockopt(j->fd, SO_TYPE) != SOCK_STREAM))
			return r;
		if (r < 0 && r != -EAGAIN)
			return r;
		if (r > 0) /* a blocking stream's rest: on a worker */
			j->sent = (size_t)r;
	}
	if ((r = brk_job_start(j)) < 0) {
		if (j->dirfd >= 0)
			close(j->dirfd);
		j->dirfd = -1;
		return r;
	}
	*worker = 1;
	return 0;
}

void brk_on_send(const struct seccomp_notif *n, int listener)
{
	const __u64 *a = n->data.args;
	uint32_t i, vlen = 1;
	struct job *j = brk_job_get();
	int s = -1, worker = 0;
	long r = 0;

	if (!j)
		return brk_respond(listener, n->id, -EAGAIN, 0);
	if (n->data.nr == __NR_sendmmsg)
		vlen = a[2] > MAX_IOV ? MAX_IOV : (uint32_t)a[2];
	j->listener = listener;
	j->id = n->id;
	j->nr = (int)n->data.nr;
	j->pid = (pid_t)n->pid;
	for (i = 0; i < vlen; i++) {
		j->sent = 0;
		j->done = i;
		if ((r = copy_msg(n, j, i)) < 0)
			break;
		/* the copies are the waiting thread's */
		if (!brk_valid(listener, n->id))
			goto gone;
		if (s < 0) {
			if ((s = brk_take_fd((pid_t)n->pid, (int)a[0])) < 0) {
				r = s;
				break;
			}
			if (!brk_valid(listener, n->id)) /* tid not reused */
				goto gone;
			j->fd = s;
		}
		r = decide(n, listener, j, s);
		if (j->nfds && !brk_valid(listener, n->id))
			goto gone; /* the descriptors were its own */
		if (r == 0 && brk_unsound()) { /* test hook: decide, continue */
			if (j->dirfd >= 0)
				close(j->dirfd);
			brk_respond(listener, n->id, 0,
				    SECCOMP_USER_NOTIF_FLAG_CONTINUE);
			goto gone;
		}
		if (r == 0)
			r = send_one(j, &worker);
		if (worker)
			return; /* it answers, closes s and the descriptors */
		brk_send_release(j);
		if (r < 0 || n->data.nr != __NR_sendmmsg)
			break;
		put_len(j, r);
	}
	if (n->data.nr == __NR_sendmmsg)
		r = r < 0 ? (i ? (long)i : r) : (long)i;
	brk_respond(listener, n->id, r, 0);
gone:
	brk_send_release(j);
	if (s >= 0)
		close(s);
}
