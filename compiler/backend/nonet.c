/* SPDX-License-Identifier: MIT */
/*
 * The NONET program (artifact/sections.h): `net none`'s second rung, for
 * a host where the box cannot have a network namespace of its own (a
 * container whose seccomp profile refuses unshare, a user who may not
 * make a user namespace). polexec stacks it before the policy's filter
 * only there (stub/net/fallback.c, docs/CONTAINERS.md):
 *
 *   socket         EACCES for every family but AF_UNIX (the int argument
 *                  on its low 32 bits, as the kernel reads it), so no
 *                  INET, INET6, NETLINK, PACKET or VSOCK socket is made;
 *   io_uring_setup EPERM: IORING_OP_SOCKET makes sockets no filter sees;
 *   another arch   killed (i386's int 0x80 has socketcall).
 *
 * Sockets the box inherits are closed by polexec before it runs (only 0,
 * 1 and 2 stay); AF_UNIX sockets stay, so a host's unix socket reachable
 * on the host's tree is still reachable: the tier is degraded, and the
 * record says so. Compiled from an IR of its own and translation
 * validated like the policy's (seccomp.c).
 */
#include "backend.h"
#include "support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EACCES_NUM  13
#define EPERM_NUM   1
#define AF_UNIX_NUM 1

int nonet_on(const struct ir_policy *p)
{
	return p->net.present && p->net.mode == IR_NET_NONE &&
	       p->net.nloopback == 0;
}

int nonet_build(const struct ir_policy *p, struct sock_filter **prog, size_t *n,
		char *err, size_t errlen)
{
	struct ir_rule rules[2];
	struct ir_syscall calls[2];
	struct ir_policy q;

	*prog = NULL;
	*n = 0;
	if (!nonet_on(p))
		return 0;
	memset(&q, 0, sizeof(q));
	memset(rules, 0, sizeof(rules));
	memset(calls, 0, sizeof(calls));
	rules[0].action = (struct ir_action){IR_ACT_ERRNO, EACCES_NUM};
	rules[0].natoms = 1;
	rules[0].atoms[0].arg = 0;
	rules[0].atoms[0].width = 32;
	rules[0].atoms[0].op = IR_OP_NE;
	rules[0].atoms[0].mask = 0xffffffffu;
	rules[0].atoms[0].value = AF_UNIX_NUM;
	rules[1].action = (struct ir_action){IR_ACT_ERRNO, EPERM_NUM};
	/* sorted by name, as the IR's are */
	snprintf(calls[0].name, sizeof(calls[0].name), "io_uring_setup");
	calls[0].nrules = 1;
	calls[0].rules = &rules[1];
	snprintf(calls[1].name, sizeof(calls[1].name), "socket");
	calls[1].nrules = 1;
	calls[1].rules = &rules[0];
	q.sys.present = 1;
	q.sys.def = (struct ir_action){IR_ACT_ALLOW, 0};
	q.sys.badarch = (struct ir_action){IR_ACT_KILL_PROCESS, 0};
	q.sys.ncalls = 2;
	q.sys.calls = calls;
	return seccomp_build_checked(&q, "nonet", prog, n, err, errlen);
}
