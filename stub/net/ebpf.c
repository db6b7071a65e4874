/* SPDX-License-Identifier: MIT */
/*
 * The cgroup eBPF egress backend (the EBPF section, artifact/sections.h;
 * docs/EGRESS.md, "The cgroup backend"), with raw bpf() calls: no libbpf
 * in polexec.
 *
 *   maps      "rules" (LPM trie): the section's rules, then one ALLOW
 *             rule per pinned address of a runtime entry (the ranges of
 *             every entry pinned to it, and of the static rule covering
 *             it, merged); "blocked" (hash): the evidence.
 *             Both frozen once filled: no syscall changes them again (the
 *             programs still add to "blocked").
 *   programs  the section's nine, each BPF_LD_IMM64 of a map number made
 *             the map's fd, loaded, attached to the box's own cgroup with
 *             BPF_F_ALLOW_MULTI (a flags=0 program can be detached by any
 *             process, without capabilities or the program's fd), then
 *             their fds closed: the cgroup holds them, and removing it
 *             (cgroup.c, also its keeper after a SIGKILL) detaches them.
 *             Four of them by a helper process at the same time as we do
 *             the other five (load_all: the verifier is most of the cost,
 *             and runs on the calling CPU).
 *
 * The box child joins that cgroup before anything else (child.c), so
 * every socket it makes is judged; and it gets a cgroup namespace rooted
 * there, so it cannot move itself out.
 */
#include "ebpf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/capability.h>

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

#define RULE_LEN (POLBIN_EBPF_KEY_LEN + POLBIN_EBPF_VAL_LEN)

static struct {
	int blocked; /* the evidence map's fd, or -1 */
} E = {-1};

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* The initial user namespace's inode number (PROC_USER_INIT_INO). */
#define USERNS_INIT_INO 0xEFFFFFFDu

/* Capabilities count for bpf() only in the initial user namespace: root
 * of a namespace of its own (unshare -Ur) has them all, there. */
int ebpf_capable(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	struct stat st;

	if (stat("/proc/self/ns/user", &st) != 0 ||
	    st.st_ino != USERNS_INIT_INO)
		return 0;
	if (syscall(SYS_capget, &hdr, d) != 0)
		return 0;
	return (d[CAP_BPF / 32].effective >> (CAP_BPF % 32) & 1) &&
	       (d[0].effective >> CAP_NET_ADMIN & 1);
}

/* Why the install failed: "STEP: strerror", for the refusal or the
 * record's backend_fallback. */
static char why[512];

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	n = strlen(why);
	snprintf(why + n, sizeof(why) - n, ": %s", strerror(saved));
	errno = saved;
	return -1;
}

const char *ebpf_why(void)
{
	return why;
}

static int map_create(uint32_t type, uint32_t key, uint32_t val, uint32_t max,
		      uint32_t flags, const char *name)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key;
	a.value_size = val;
	a.max_entries = max;
	a.map_flags = flags;
	strncpy(a.map_name, name, sizeof(a.map_name) - 1);
	fd = (int)sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0)
		return fail("create the map %s", name);
	return fd;
}

static int map_op(int cmd, int fd, const void *key, const void *val,
		  uint64_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)val;
	a.flags = flags;
	return (int)sys_bpf(cmd, &a);
}

static uint16_t rd16(const uint8_t *d)
{
	return (uint16_t)(d[0] | d[1] << 8);
}

/* The map's value: the ports lo..hi set in the bitmap. */
static void bits_set(uint8_t *bm, uint32_t lo, uint32_t hi)
{
	for (; lo <= hi; lo++)
		bm[lo >> 3] |= (uint8_t)(1u << (lo & 7));
}

static int fill_rules(int fd, const struct net_ebpf *s,
		      const struct ebpf_pin *pins, uint32_t npins)
{
	static uint8_t bm[POLBIN_EBPF_MAP_VAL_LEN];
	uint8_t key[POLBIN_EBPF_KEY_LEN];
	uint32_t i, j, n;

	for (i = 0; i < s->nrules; i++) {
		const uint8_t *k = s->rules + (size_t)i * RULE_LEN;
		const uint8_t *v = k + POLBIN_EBPF_KEY_LEN;

		memset(bm, 0, sizeof(bm));
		n = rd16(v);
		for (j = 0; j < n && j < POLBIN_EBPF_MAX_RANGES; j++)
			bits_set(bm, rd16(v + 4 + 4 * j), rd16(v + 6 + 4 * j));
		if (map_op(BPF_MAP_UPDATE_ELEM, fd, k, bm, BPF_NOEXIST) < 0)
			return fail("rule %u", i);
	}
	/*
	 * A pinned address: an ALLOW rule of its own (the programs make one
	 * lookup for both), holding its entries' ports and those of the rule
	 * that held it before: the lookup of the whole address is the
	 * longest match, the static rule covering it or the pin made before.
	 */
	for (i = 0; i < npins; i++) {
		const struct ebpf_pin *p = &pins[i];

		memset(key, 0, sizeof(key));
		key[0] = (uint8_t)(32 + (p->v6 ? 128 : 32));
		key[4] = p->v6 ? POLBIN_EBPF_K_ALLOW6 : POLBIN_EBPF_K_ALLOW4;
		key[5] = p->proto;
		memcpy(key + 8, p->a, p->v6 ? 16 : 4);
		if (map_op(BPF_MAP_LOOKUP_ELEM, fd, key, bm, 0) < 0) {
			if (errno != ENOENT)
				return fail("look up a pinned address");
			memset(bm, 0, sizeof(bm));
		}
		bits_set(bm, p->lo, p->hi);
		if (map_op(BPF_MAP_UPDATE_ELEM, fd, key, bm, BPF_ANY) < 0)
			return fail("add a pinned address");
	}
	return 0;
}

static int freeze(int fd, const char *name)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	if (sys_bpf(BPF_MAP_FREEZE, &a) < 0)
		return fail("freeze the map %s", name);
	return 0;
}

static const struct {
	uint32_t type, attach;
	const char *name;
} hooks[POLBIN_EBPF_NPROG] = {
    [POLBIN_EBPF_SOCK_CREATE] = {BPF_PROG_TYPE_CGROUP_SOCK,
				 BPF_CGROUP_INET_SOCK_CREATE, "sock_create"},
    [POLBIN_EBPF_CONNECT4] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_INET4_CONNECT, "connect4"},
    [POLBIN_EBPF_CONNECT6] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_INET6_CONNECT, "connect6"},
    [POLBIN_EBPF_SENDMSG4] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_UDP4_SENDMSG, "sendmsg4"},
    [POLBIN_EBPF_SENDMSG6] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_UDP6_SENDMSG, "sendmsg6"},
    [POLBIN_EBPF_BIND4] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			   BPF_CGROUP_INET4_BIND, "bind4"},
    [POLBIN_EBPF_BIND6] = {BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			   BPF_CGROUP_INET6_BIND, "bind6"},
    [POLBIN_EBPF_EGRESS] = {BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS,
			    "egress"},
    [POLBIN_EBPF_INGRESS] = {BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS,
			     "ingress"},
};

/* Why a program did not load or attach: for the refusal. */
struct failure {
	uint32_t hook;
	int err;
	char step[8];  /* "load" or "attach" */
	char why[240]; /* the verifier's last line, for a load */
	uint32_t sent; /* the helper's: hooks whose fds come with it */
};

/* The verifier's words, for a refusal: large enough that a kernel
 * without the rotating log (before 6.4) keeps the last line of a
 * program of ours; a rotating one keeps the tail whatever the size. */
static char vlog[256 << 10];

/* The programs this process attached (fd, or -1; the helper's, sent to
 * us, for an undo), until the install's outcome: detached again when it
 * falls back (undo). */
static int attached[POLBIN_EBPF_NPROG] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};

/* BPF_PROG_LOAD, again while the verifier says EAGAIN (a signal arrived
 * while it worked: the load helper's SIGCHLD, a tracer's stop), at most
 * 5 times as libbpf does. */
static int prog_load(union bpf_attr *a)
{
	int fd, i;

	for (i = 0; i < 5; i++) {
		fd = (int)sys_bpf(BPF_PROG_LOAD, a);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd;
}

/* Loads hook h (its maps' fds in place) and attaches it to the cgroup at
 * cgfd with BPF_F_ALLOW_MULTI; 0, or -1 with *f filled. Never dies: the
 * helper process of ebpf_install runs it too. */
static int load_attach(const struct net_ebpf *s, uint32_t h,
		       const int maps[POLBIN_EBPF_NMAPS], int cgfd,
		       struct failure *f)
{
	struct bpf_insn *in = calloc(s->ninsn[h], sizeof(*in));
	union bpf_attr a;
	uint32_t i;
	int fd, err;

	memset(f, 0, sizeof(*f));
	f->hook = h;
	if (!in) {
		f->err = ENOMEM;
		memcpy(f->step, "load", 5);
		return -1;
	}
	memcpy(in, s->prog[h], s->ninsn[h] * sizeof(*in));
	/* artifact.c checked every map load: its number is below NMAPS */
	for (i = 0; i < s->ninsn[h]; i++)
		if (in[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    in[i].src_reg == BPF_PSEUDO_MAP_FD)
			in[i].imm = maps[in[i].imm];
	memset(&a, 0, sizeof(a));
	a.prog_type = hooks[h].type;
	a.expected_attach_type = hooks[h].attach;
	a.insns = (uint64_t)(uintptr_t)in;
	a.insn_cnt = s->ninsn[h];
	a.license = (uint64_t)(uintptr_t) "Dual MIT/GPL";
	memcpy(a.prog_name, hooks[h].name, strlen(hooks[h].name));
	fd = prog_load(&a);
	if (fd < 0) {
		size_t n;
		char *last;

		/* once more, for the verifier's reason; the refusal keeps
		 * the first load's errno (the log's own, ENOSPC when it
		 * was cut, says nothing of the program) */
		err = errno;
		vlog[0] = '\0';
		a.log_buf = (uint64_t)(uintptr_t)vlog;
		a.log_size = sizeof(vlog);
		a.log_level = 1;
		fd = prog_load(&a);
		if (fd >= 0) { /* loaded this time: keep it */
			a.log_buf = 0;
			goto loaded;
		}
		f->err = err;
		n = strnlen(vlog, sizeof(vlog) - 1);
		vlog[n] = '\0';
		while (n && vlog[n - 1] == '\n')
			vlog[--n] = '\0';
		last = strrchr(vlog, '\n');
		memcpy(f->step, "load", 5);
		strncpy(f->why, last ? last + 1 : vlog, sizeof(f->why) - 1);
		free(in);
		return -1;
	}
loaded:
	free(in);
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgfd;
	a.attach_bpf_fd = (uint32_t)fd;
	a.attach_type = hooks[h].attach;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (sys_bpf(BPF_PROG_ATTACH, &a) < 0) {
		f->err = errno;
		memcpy(f->step, "attach", 7);
		close(fd);
		return -1;
	}
	attached[h] = fd;
	return 0;
}

/* What attached[] holds: kept (the fds closed, the cgroup holds the
 * programs), or detached (undo). 0; -1 when a detach
 * failed. */
static int settle(int undo, int cgfd)
{
	union bpf_attr a;
	uint32_t h;
	int rc = 0;

	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		if (attached[h] < 0)
			continue;
		if (undo) {
			memset(&a, 0, sizeof(a));
			a.target_fd = (uint32_t)cgfd;
			a.attach_bpf_fd = (uint32_t)attached[h];
			a.attach_type = hooks[h].attach;
			if (sys_bpf(BPF_PROG_DETACH, &a) < 0 && !rc)
				rc = fail("detach %s", hooks[h].name);
		}
		close(attached[h]);
		attached[h] = -1;
	}
	return rc;
}

/* After an undo: no program of ours is left on the box's cgroup, as the
 * kernel says (BPF_PROG_QUERY of each hook). 0, or -1. */
static int none_attached(int cgfd)
{
	union bpf_attr a;
	uint32_t h;

	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		memset(&a, 0, sizeof(a));
		a.query.target_fd = (uint32_t)cgfd;
		a.query.attach_type = hooks[h].attach;
		if (sys_bpf(BPF_PROG_QUERY, &a) < 0)
			return fail("query %s after the undo", hooks[h].name);
		if (a.query.prog_cnt) {
			errno = EBUSY;
			return fail("%s still attached after the undo",
				    hooks[h].name);
		}
	}
	return 0;
}

/* The failure in words, into why[]. */
static int failed_at(const struct failure *f)
{
	errno = f->err;
	if (f->step[0] == 'h')
		return fail("the helper process loading programs died");
	if (f->step[0] == 'a')
		return fail(
		    "attach %s to the box's cgroup",
		    hooks[f->hook < POLBIN_EBPF_NPROG ? f->hook : 0].name);
	return fail("load %s%s%s%s",
		    hooks[f->hook < POLBIN_EBPF_NPROG ? f->hook : 0].name,
		    f->why[0] ? " (" : "", f->why, f->why[0] ? ")" : "");
}

/*
 * The verifier is most of the cost of a start under this backend (1.5 of
 * 2.3 ms here), and it runs on the calling CPU: so a helper process
 * (fork: its own copy of our memory, the maps' and the cgroup's fds)
 * loads and attaches these hooks while we do the others, about half the
 * verifier's work each. What it could not do it says through a socket,
 * with the fds of the programs it attached (SCM_RIGHTS), so that we can
 * detach them again, and exits (its exit overlaps our loads: waiting
 * for a verdict cost 0.4 ms a start). A half attached is no box: on a
 * failure either the refusal removes the cgroup with everything on it,
 * or the undo detaches every program (install, below).
 */
#define HELPER_HOOKS                                                           \
	(1u << POLBIN_EBPF_CONNECT6 | 1u << POLBIN_EBPF_SENDMSG6 |             \
	 1u << POLBIN_EBPF_INGRESS | 1u << POLBIN_EBPF_SENDMSG4)

/* The helper's word to us: its record; then, in a second datagram, the
 * fds of the programs it attached (SCM_RIGHTS, in hook order), which we
 * take only for an undo (after our own are detached and closed: room
 * for them under a tight RLIMIT_NOFILE). */
static void helper_send(int sk, const struct failure *f)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * POLBIN_EBPF_NPROG)];
	} c;
	struct iovec iov = {(void *)(uintptr_t)f, sizeof(*f)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	uint32_t h, n = 0;
	int fds[POLBIN_EBPF_NPROG];

	if (sendmsg(sk, &m, MSG_NOSIGNAL) != (ssize_t)sizeof(*f))
		_exit(1);
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		if (attached[h] >= 0)
			fds[n++] = attached[h];
	if (!n)
		_exit(0);
	memset(&c, 0, sizeof(c));
	iov.iov_len = 1;
	m.msg_control = c.b;
	m.msg_controllen = CMSG_SPACE(sizeof(int) * n);
	c.h.cmsg_level = SOL_SOCKET;
	c.h.cmsg_type = SCM_RIGHTS;
	c.h.cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(&c.h), fds, sizeof(int) * n);
	_exit(sendmsg(sk, &m, MSG_NOSIGNAL) == 1 ? 0 : 1);
}

/* The helper's record: 1, or 0 when it died before sending it. */
static int helper_record(int sk, struct failure *f)
{
	ssize_t r;

	while ((r = recv(sk, f, sizeof(*f), 0)) < 0 && errno == EINTR)
		;
	return r == (ssize_t)sizeof(*f);
}

/* For an undo: the fds of the programs the helper attached (the hooks in
 * sent), into attached[]. 0; -1 when they did not all come. */
static int helper_fds(int sk, uint32_t sent)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * POLBIN_EBPF_NPROG)];
	} c;
	char byte;
	struct iovec iov = {&byte, 1};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = c.b,
			   .msg_controllen = sizeof(c.b)};
	struct cmsghdr *cm;
	uint32_t h, i = 0, n = 0;
	ssize_t r;
	int fds[POLBIN_EBPF_NPROG];

	if (!sent)
		return 0;
	while ((r = recvmsg(sk, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT)) < 0 &&
	       errno == EINTR)
		;
	if (r != 1 || (m.msg_flags & MSG_CTRUNC))
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
		n = (uint32_t)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		memcpy(fds, CMSG_DATA(cm), sizeof(int) * n);
	}
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		if (sent >> h & 1) {
			if (i >= n)
				return -1;
			attached[h] = fds[i++];
		}
	return i == n ? 0 : -1;
}

/* The rules filled, both maps frozen: no syscall changes them again. */
static int fill_freeze(const struct net_ebpf *s,
		       const int maps[POLBIN_EBPF_NMAPS],
		       const struct ebpf_pin *pins, uint32_t npins)
{
	if (fill_rules(maps[POLBIN_EBPF_MAP_RULES], s, pins, npins) < 0 ||
	    freeze(maps[POLBIN_EBPF_MAP_RULES], "rules") < 0 ||
	    freeze(maps[POLBIN_EBPF_MAP_BLOCKED], "blocked") < 0)
		return -1;
	return 0;
}

/* The helper is started before the rules are filled: the programs need
 * the maps' fds, not their contents, and nothing is in the box's cgroup
 * before the install returns (the box is cloned after it; every failure
 * undoes or refuses), so its loads overlap our fill. */
static int load_all(const struct net_ebpf *s, const int maps[POLBIN_EBPF_NMAPS],
		    const struct ebpf_pin *pins, uint32_t npins, int cgfd)
{
	struct failure f, hf;
	int sk[2] = {-1, -1}, failed = 0, lost = 0, said = 0;
	uint32_t h, mine = ~0u;
	pid_t pid = -1;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sk) == 0 &&
	    (pid = fork()) == 0) {
		/* the helper: one record, err 0 when all went well, with
		 * the fds of what it attached */
		close(sk[0]);
		memset(&f, 0, sizeof(f));
		for (h = 0; h < POLBIN_EBPF_NPROG; h++)
			if ((HELPER_HOOKS >> h & 1) &&
			    load_attach(s, h, maps, cgfd, &f) < 0)
				break;
		for (h = 0; h < POLBIN_EBPF_NPROG; h++)
			if (attached[h] >= 0)
				f.sent |= 1u << h;
		helper_send(sk[1], &f);
	}
	if (pid > 0)
		mine = ~HELPER_HOOKS;
	if (sk[1] >= 0)
		close(sk[1]);
	if (fill_freeze(s, maps, pins, npins) < 0)
		failed = said = 1; /* why[] says which step */
	/* no helper (no socket, no fork): all of them here */
	for (h = 0; h < POLBIN_EBPF_NPROG && !failed; h++)
		if ((mine >> h & 1) && load_attach(s, h, maps, cgfd, &f) < 0)
			failed = 1;
	if (pid > 0) {
		/* its record, or nothing when it died before sending it */
		int got = helper_record(sk[0], &hf);

		/* its exit: both datagrams are queued (MSG_DONTWAIT below) */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (!got) {
			lost = 1; /* what it attached has no fd here */
			if (!failed) {
				memset(&f, 0, sizeof(f));
				f.err = ECHILD;
				memcpy(f.step, "helper", 7);
			}
			failed = 1;
		} else if (!failed && hf.err != 0) {
			f = hf;
			failed = 1;
		}
	}
	if (!failed) {
		if (sk[0] >= 0)
			close(sk[0]); /* the helper's fds, unread, with it */
		return settle(0, cgfd);
	}
	if (!said)
		failed_at(&f);
	/* the first failure names the refusal; the undo is checked by the
	 * kernel's word, and one that cannot be done is -2: ours first,
	 * then the helper's (their fds taken now, in the room ours left) */
	if (settle(1, cgfd) < 0)
		lost = 1;
	if (pid > 0 && !lost &&
	    (helper_fds(sk[0], hf.sent) < 0 || settle(1, cgfd) < 0))
		lost = 1;
	if (sk[0] >= 0)
		close(sk[0]);
	if (lost || none_attached(cgfd) < 0)
		return -2;
	return -1;
}

int ebpf_install(const struct net_ebpf *s, const struct ebpf_pin *pins,
		 uint32_t npins, int cgfd)
{
	int maps[POLBIN_EBPF_NMAPS] = {-1, -1};
	int rc = -1;

	maps[POLBIN_EBPF_MAP_RULES] = map_create(
	    BPF_MAP_TYPE_LPM_TRIE, POLBIN_EBPF_KEY_LEN, POLBIN_EBPF_MAP_VAL_LEN,
	    s->nrules + npins ? s->nrules + npins : 1, BPF_F_NO_PREALLOC,
	    "polc_rules");
	if (maps[POLBIN_EBPF_MAP_RULES] < 0)
		goto out;
	maps[POLBIN_EBPF_MAP_BLOCKED] =
	    map_create(BPF_MAP_TYPE_HASH, POLBIN_EBPF_BLOCKED_KEY, 8,
		       POLBIN_EBPF_BLOCKED_SIZE, 0, "polc_blocked");
	if (maps[POLBIN_EBPF_MAP_BLOCKED] < 0)
		goto out;
	rc = load_all(s, maps, pins, npins, cgfd);
out:
	if (maps[POLBIN_EBPF_MAP_RULES] >= 0)
		close(maps[POLBIN_EBPF_MAP_RULES]);
	if (rc == 0)
		E.blocked = maps[POLBIN_EBPF_MAP_BLOCKED];
	else if (maps[POLBIN_EBPF_MAP_BLOCKED] >= 0)
		close(maps[POLBIN_EBPF_MAP_BLOCKED]);
	return rc;
}

int ebpf_each_blocked(void (*fn)(int v6, const uint8_t *addr, uint8_t proto,
				 uint16_t port, void *arg),
		      void *arg)
{
	uint8_t key[POLBIN_EBPF_BLOCKED_KEY], next[POLBIN_EBPF_BLOCKED_KEY];
	int n = 0, first = 1;

	if (E.blocked < 0) {
		errno = EBADF;
		return -1;
	}
	while (map_op(BPF_MAP_GET_NEXT_KEY, E.blocked, first ? NULL : key, next,
		      0) == 0) {
		first = 0;
		memcpy(key, next, sizeof(key));
		fn(key[0] == 6, key + 4, key[1], rd16(key + 2), arg);
		n++;
	}
	if (errno != ENOENT)
		return -1;
	return n;
}
