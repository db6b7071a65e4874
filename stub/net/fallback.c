/* SPDX-License-Identifier: MIT */
/*
 * `net none` without a network namespace (docs/CONTAINERS.md, the net
 * ladder). The first rung is the box's own network namespace (boxns.c):
 * loopback only. Where the box cannot have one (a container whose seccomp
 * profile refuses unshare, a user who may not make a user namespace, the
 * reason named in the record), the second rung stacks, in the command's
 * process:
 *
 *   Landlock    (ABI 4) a ruleset handling TCP bind and connect with no
 *               port rule: every TCP bind and connect refused; (ABI 6)
 *               abstract unix sockets scoped, so the host's (which a
 *               namespace of its own would not show) are out of reach;
 *   seccomp     the NONET program polc compiled (compiler/backend/
 *               nonet.c): socket() of every family but AF_UNIX EACCES,
 *               io_uring_setup EPERM.
 *
 * Pathname unix sockets on the host's tree stay as the fs layer leaves
 * them, so the tier is degraded, never enforced, and the record's net
 * says "rung":"seccomp+landlock" (or "seccomp" below ABI 4).
 */
#include "fallback.h"
#include "lib/kernel.h"

#include <errno.h>
#include <unistd.h>

static struct {
	int on;
	int abi; /* the kernel's Landlock ABI, 0: none */
} F;

int net_fallback_wanted(const struct policy *p)
{
	return p->nnonet > 0;
}

void net_fallback_plan(void)
{
	int abi = sys_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);

	F.on = 1;
	F.abi = abi > 0 ? abi : 0;
}

int net_fallback_on(void)
{
	return F.on;
}

const char *net_fallback_rung(void)
{
	return F.abi >= 4 ? "seccomp+landlock" : "seccomp";
}

/* After it: no TCP bind or connect, no abstract unix socket outside. */
static void landlock_tcp(void)
{
	struct polc_landlock_ruleset_attr attr = {
	    .handled_access_net =
		LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP,
	    .scoped = F.abi >= 6 ? LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0,
	};
	int fd;

	if (F.abi < 4)
		return;
	fd = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);
	if (fd < 0)
		die_with_error("child: net: landlock_create_ruleset(tcp)");
	if (sys_landlock_restrict_self(fd, 0) < 0)
		die_with_error("child: net: landlock_restrict_self(tcp)");
	close(fd);
}

void net_fallback_child(const struct policy *p)
{
	struct sock_fprog prog = {.len = p->nnonet, .filter = p->nonet};

	if (!F.on)
		return;
	landlock_tcp();
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		die_with_error("child: net: seccomp(SET_MODE_FILTER, nonet)");
}
