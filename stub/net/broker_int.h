/* SPDX-License-Identifier: MIT */
/*
 * Between the notify broker's two files (broker.c: the decision, connect,
 * the workers; broker_send.c: sendto, sendmsg and sendmmsg from copies).
 * Not for the rest of polexec: broker.h is.
 */
#ifndef POLC_STUB_NET_BROKER_INT_H
#define POLC_STUB_NET_BROKER_INT_H

#include "observe/observe.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#ifndef SO_DOMAIN
#define SO_DOMAIN 39
#endif
#ifndef SO_PROTOCOL
#define SO_PROTOCOL 38
#endif

#define BROKER_MAX_DATA 65536 /* bytes of one send copied */
#define BROKER_MAX_CTL	1024  /* bytes of one control copied */
#define BROKER_MAX_FDS	64    /* SCM_RIGHTS descriptors of one send */

/* One call, copied: made by the supervisor at once, or on a worker
 * thread (which answers for itself). */
struct job {
	volatile int tid; /* 0: free (the kernel clears it at the exit) */
	int listener, fd, nr, flags, unix_path, dirfd;
	uint64_t id;
	uint32_t alen;
	size_t len;
	uint32_t uid, gid, ngroups;
	uint32_t groups[32];
	uint8_t addr[128];
	uint8_t *data; /* BROKER_MAX_DATA, then the stack */
	/* a send: */
	pid_t pid;	      /* the box's thread */
	size_t sent;	      /* a stream's bytes the supervisor sent already */
	uint32_t done;	      /* sendmmsg: the messages sent before this one */
	uint64_t mlen_at;     /* sendmmsg: the box's msg_len of it, else 0 */
	size_t ctllen, total; /* total: the iovecs' length, before the bound */
	int nfds, fds[BROKER_MAX_FDS]; /* SCM_RIGHTS duplicates, ours */
	uint8_t ctl[BROKER_MAX_CTL];
};

void brk_respond(int listener, uint64_t id, long r, uint32_t flags);
int brk_valid(int listener, uint64_t id);
int brk_read(pid_t pid, uint64_t remote, void *buf, size_t len);
int brk_take_fd(pid_t tid, int fd);
int brk_sockopt(int fd, int opt);
/* An inet address for a socket of protocol proto: 1 allowed, 0 refused
 * (recorded), -errno malformed. */
int brk_judge(const uint8_t *sa, uint32_t len, uint8_t proto);
struct job *brk_job_get(void);
int brk_job_start(struct job *j);
/* An AF_UNIX address: 0 (a path: j->unix_path, a worker resolves it as
 * the box), or -errno refused. */
int brk_unix_dest(const struct seccomp_notif *n, int listener, struct job *j,
		  uint8_t *sa, uint32_t alen);
int brk_unsound(void);

/* broker_send.c: a notified sendto, sendmsg or sendmmsg, answered here
 * or by a worker. */
void brk_on_send(const struct seccomp_notif *n, int listener);
/* j's send from its copy, from byte j->sent on, with flags more: the
 * kernel's answer; brk_result: what the call returns then (the bytes sent
 * in all; sendmmsg: the count, its msg_len written into the box). Raw
 * system calls only (a worker runs them). */
long brk_send(struct job *j, int more);
long brk_result(struct job *j, long r);
/* j's SCM_RIGHTS duplicates closed. */
void brk_send_release(struct job *j);

#endif
