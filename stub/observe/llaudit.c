/* SPDX-License-Identifier: MIT */
/*
 * Landlock's denials, where the kernel lets polexec see them
 * (docs/OBSERVE.md). Landlock (ABI 7) writes a record to the kernel's
 * audit log for each denied access of a domain that asked for it
 * (LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON: after execve, the command's
 * own), and only while audit is enabled. Reading the log takes the audit
 * netlink socket's read group, AUDIT_NLGRP_READLOG, which needs
 * CAP_AUDIT_READ in the initial user namespace: polexec as root. A
 * non-root polexec gets nothing, and the record says so. polexec never
 * turns audit on: that is the machine's setting, and the records also go
 * to its log.
 *
 * The records of the box's domain are found by the domain's allocation
 * record, which names the process that restricted itself: the box child.
 * pids in audit records are the initial pid namespace's; polexec in
 * another one would match nothing (and says so by recording nothing).
 */
#include "observe.h"
#include "lib/kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/netlink.h>

#ifndef AUDIT_LANDLOCK_ACCESS
#define AUDIT_LANDLOCK_ACCESS 1423
#endif
#ifndef AUDIT_LANDLOCK_DOMAIN
#define AUDIT_LANDLOCK_DOMAIN 1424
#endif
#ifndef AUDIT_NLGRP_READLOG
#define AUDIT_NLGRP_READLOG 1
#endif
#define LOG_NEW_EXEC_ON (1u << 1)
#define NPENDING	32

/* Zero-initialized (no file space): fd is the socket + 1, 0 for none. */
static struct {
	int fd1;
	pid_t box;
	uint64_t domain; /* 0 until its allocation record is seen */
	const char *state;
	char why[200];
	struct {
		uint64_t domain;
		char *text;
	} pending[NPENDING];
	unsigned npending;
	int bound, asked; /* the log's socket was bound; audit was asked */
} A;

/* Is the kernel's audit on? Asked on a socket of its own, which no
 * multicast record reaches. 1, 0, or -1 with errno. */
static int audit_enabled(void)
{
	struct {
		struct nlmsghdr h;
	} req = {{NLMSG_LENGTH(0), AUDIT_GET, NLM_F_REQUEST, 1, 0}};
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	char buf[1024];
	int i, r = -1,
	       fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	if (fd < 0)
		return -1;
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		goto out;
	for (i = 0; i < 4 && r < 0; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)(void *)buf;
		const struct nlmsgerr *e = NLMSG_DATA(h);

		if (n < (ssize_t)NLMSG_HDRLEN)
			break;
		if (h->nlmsg_type == NLMSG_ERROR && e->error) {
			errno = -e->error;
			break;
		}
		if (h->nlmsg_type == AUDIT_GET &&
		    n >= (ssize_t)NLMSG_LENGTH(sizeof(struct audit_status)))
			r = ((struct audit_status *)NLMSG_DATA(h))->enabled !=
			    0;
	}
out:
	close(fd);
	return r;
}

uint32_t llaudit_plan(int abi, int ruleset)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK,
				 .nl_groups = AUDIT_NLGRP_READLOG};
	int fd;

	if (!ruleset)
		return 0;
	A.state = A.why;
	if (abi < 7) {
		snprintf(A.why, sizeof(A.why),
			 "not observable: Landlock ABI %d has no audit log "
			 "(ABI 7)",
			 abi);
		return 0;
	}
	if (geteuid() != 0) {
		snprintf(A.why, sizeof(A.why),
			 "not observable: the kernel's audit log is root's "
			 "(CAP_AUDIT_READ); polexec as non-root sees no "
			 "Landlock denial");
		return 0;
	}
	/* Whether audit is on is asked only for the record (llaudit_state):
	 * the kernel answers AUDIT_GET from a thread it makes for each
	 * request, a wait on every box's start-up. Logging asked of
	 * Landlock while audit is off logs nothing. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(A.why, sizeof(A.why),
			 "not observable: bind(AUDIT_NLGRP_READLOG): %s",
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	A.fd1 = fd + 1;
	A.bound = 1;
	A.state = "recorded from the kernel's audit log";
	return LOG_NEW_EXEC_ON;
}

void llaudit_box(pid_t pid)
{
	A.box = pid;
}

const char *llaudit_state(void)
{
	int on;

	if (A.asked || !A.bound)
		return A.state ? A.state
			       : "off: the policy has no Landlock layer";
	A.asked = 1;
	if ((on = audit_enabled()) <= 0) {
		snprintf(A.why, sizeof(A.why), "not observable: %s%s",
			 on ? "asking the kernel's audit: "
			    : "the kernel's audit is off, and polexec does not "
			      "turn it on",
			 on ? strerror(errno) : "");
		A.state = A.why;
	}
	return A.state;
}

int llaudit_pollfd(struct pollfd *fds)
{
	if (!A.fd1)
		return 0;
	if (fds)
		fds[0] = (struct pollfd){A.fd1 - 1, POLLIN, 0};
	return 1;
}

/* A number in base 10 or 16 at s, up to the first other character. */
static uint64_t num(const char *s, unsigned base)
{
	uint64_t v = 0;

	for (;; s++) {
		unsigned d =
		    *s >= '0' && *s <= '9'   ? (unsigned)(*s - '0')
		    : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
		    : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
					     : 99;

		if (d >= base)
			return v;
		v = v * base + d;
	}
}

/* The value of key= in a record: quoted, hex (audit's form for text
 * with spaces or quotes), or a bare word; into out. */
static int field(const char *rec, const char *key, char *out, size_t len)
{
	const char *p = strstr(rec, key);
	size_t n = 0;

	if (!p)
		return -1;
	p += strlen(key);
	if (*p == '"') {
		for (p++; *p && *p != '"' && n + 1 < len; p++)
			out[n++] = *p;
	} else {
		/* A bare word; audit writes a path with a space or a quote
		 * in hex, which stays hex here (the record says so). */
		for (; *p && *p != ' ' && n + 1 < len; p++)
			out[n++] = *p;
	}
	out[n] = '\0';
	return 0;
}

static void access_rec(const char *text)
{
	char blockers[256], path[4096], *b;
	uint64_t bits = 0;

	if (field(text, " blockers=", blockers, sizeof(blockers)))
		return;
	if (field(text, " path=", path + 4, sizeof(path) - 4) &&
	    field(text, " name=", path + 4, sizeof(path) - 4))
		snprintf(path + 4, sizeof(path) - 4, "(no path: %.200s)",
			 blockers);
	/* audit's hex for a path with a space or a quote: said so */
	memcpy(path, "hex:", 4);
	for (b = blockers; b; b = strchr(b, ',') ? strchr(b, ',') + 1 : NULL)
		for (unsigned i = 0; i < 16; i++) {
			size_t n = strlen(ll_fs_names[i]);

			if (!strncmp(b, "fs.", 3) &&
			    !strncmp(b + 3, ll_fs_names[i], n) &&
			    (b[3 + n] == ',' || !b[3 + n]))
				bits |= 1ull << i;
		}
	strip_controls(path);
	obs_fs(path[4] == '/' || path[4] == '(' ? path + 4 : path, bits, 0,
	       "audit");
}

static void record(int type, const char *text)
{
	char val[64];
	uint64_t domain;
	unsigned i;

	if (field(text, "domain=", val, sizeof(val)))
		return;
	domain = num(val, 16);
	if (type == AUDIT_LANDLOCK_DOMAIN) {
		if (A.domain || !strstr(text, "status=allocated") ||
		    field(text, " pid=", val, sizeof(val)) ||
		    num(val, 10) != (uint64_t)A.box)
			return;
		A.domain = domain;
		for (i = 0; i < A.npending; i++)
			if (A.pending[i].domain == domain)
				access_rec(A.pending[i].text);
		A.npending = 0;
		return;
	}
	if (A.domain == domain) {
		access_rec(text);
	} else if (!A.domain && A.npending < NPENDING) {
		A.pending[A.npending].domain = domain;
		A.pending[A.npending++].text = xstrndup(text, strlen(text));
	}
}

void llaudit_read(void)
{
	char buf[8192 + 1];
	int i;

	/* Bounded: what came since the last poll, at most 256 reads. */
	for (i = 0; A.fd1 && i < 256; i++) {
		ssize_t n = recv(A.fd1 - 1, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		struct nlmsghdr *h = (struct nlmsghdr *)(void *)buf;

		if (n < (ssize_t)NLMSG_HDRLEN)
			return;
		if (h->nlmsg_type != AUDIT_LANDLOCK_ACCESS &&
		    h->nlmsg_type != AUDIT_LANDLOCK_DOMAIN)
			continue;
		buf[h->nlmsg_len < (size_t)n ? h->nlmsg_len : (size_t)n] = '\0';
		record(h->nlmsg_type, (char *)NLMSG_DATA(h));
	}
}

void llaudit_finish(void)
{
	if (!A.fd1)
		return;
	llaudit_read();
	if (!A.box)
		A.state = "not observable: the command ran in the box's pid "
			  "namespace, and without a syscalls layer no "
			  "hand-over told polexec its pid";
	close(A.fd1 - 1);
	A.fd1 = 0;
}
