/* SPDX-License-Identifier: MIT */
/*
 * The BROKER program (artifact/sections.h): the notify program of the
 * egress backend without privilege, the connect broker on seccomp user
 * notification (docs/EGRESS.md, "The notify broker"). polexec installs it
 * in place of the OBSERVE section's NOTIFY program, with the listener,
 * only where the broker enforces the net layer (stub/net/broker.c).
 *
 * It is the NOTIFY program of q, where q is the policy's syscalls with one
 * rule more on each call below, whose action is kill_process: the most
 * restrictive action, so that where the rule holds the decision of q is
 * kill_process whatever the policy's is, and NOTIFY notifies it. The
 * program is therefore, proven by the same translation validation as
 * NOTIFY (seccomp_validate_variant against q):
 *
 *   USER_NOTIF       where a broker rule holds;
 *   NOTIFY's value   everywhere else (the policy's decision, notified
 *                    where NOTIFY notifies it).
 *
 * polexec answers every notification by running the policy's DECISION
 * program first (its denials stay denials, recorded as before); only a
 * call it allows reaches the broker. The broker rules:
 *
 *   connect          always: the supervisor reads the address, decides on
 *                    its copy and connects its own duplicate of the box's
 *                    socket (pidfd_getfd); never continued
 *   sendto           with an address (arg 4 not NULL) or MSG_FASTOPEN
 *   sendmsg,         with MSG_FASTOPEN (the address is inside the msghdr,
 *   sendmmsg         which no filter reads; the inet sockets the box may
 *                    make are TCP, which ignores it without MSG_FASTOPEN);
 *                    always where the policy lists a UDP destination (a
 *                    UDP socket sends to the msghdr's address, connected
 *                    or not): the supervisor sends each from its copy
 *   listen           always: only an AF_UNIX socket, or an inet one bound
 *                    to a loopback address, may listen
 *   socket           AF_INET/AF_INET6 of any type but SOCK_STREAM, or
 *                    SOCK_STREAM with a protocol but 0 and IPPROTO_TCP;
 *                    any family but AF_UNIX, AF_INET, AF_INET6 and
 *                    AF_NETLINK (the companions keep NETLINK_ROUTE only):
 *                    refused by the supervisor (EACCES), so no UDP, raw,
 *                    ping, SCTP or MPTCP socket. Where the policy lists a
 *                    UDP destination, SOCK_DGRAM with protocol 0 or
 *                    IPPROTO_UDP is let through (no ping, no UDP-Lite)
 *   setsockopt       IP_OPTIONS, IPV6_RTHDR, IPV6_2292RTHDR and
 *                    IPV6_2292PKTOPTIONS: source routing would send to the
 *                    first hop, not to the decided address (EPERM)
 *   io_uring_setup   always (EPERM): its connect is not seen by seccomp
 */
#include "backend.h"
#include "support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_ACTION	    IR_ACT_KILL_PROCESS
#define MSG_FASTOPEN_BIT    0x20000000u
#define SOCK_TYPE_MASK_BITS 0xfu

int broker_on(const struct ir_policy *p)
{
	return p->sys.present && ebpf_wanted(p) &&
	       (p->net.mode == IR_NET_FILTERED || p->net.nloopback) &&
	       p->net.backend != IR_NET_BACKEND_CGROUP &&
	       p->net.backend != IR_NET_BACKEND_CGROUP_NAMESPACE;
}

struct overlay {
	const char *name; /* sorted, as the IR's calls are */
	unsigned nrules;
	struct ir_rule rules[8];
};

static void atom(struct ir_rule *r, unsigned arg, unsigned width, uint64_t mask,
		 unsigned op, uint64_t value)
{
	struct ir_atom *a = &r->atoms[r->natoms++];

	a->arg = (uint8_t)arg;
	a->width = (uint8_t)width;
	a->op = (uint8_t)op;
	a->mask = mask;
	a->value = value;
}

#define ALL32 0xffffffffull
#define ALL64 0xffffffffffffffffull

/* Does the policy list a UDP destination (an address, a name or a
 * variable)? Then the box may make UDP sockets, and every sendmsg and
 * sendmmsg is the broker's. */
static int has_udp(const struct ir_policy *p)
{
	for (uint32_t i = 0; i < p->net.nentries; i++)
		if (p->net.entries[i].verdict == IR_NET_ALLOW &&
		    p->net.entries[i].proto == IR_PROTO_UDP)
			return 1;
	return 0;
}

static void overlay_rules(const struct ir_policy *p, struct overlay *o,
			  size_t *n)
{
	static const unsigned inet[2] = {2, 10};
	int udp = has_udp(p);
	struct ir_rule *r;
	size_t k = 0;
	int i;

	memset(o, 0, 8 * sizeof(*o));
	/* always: one rule without a condition */
	o[k].name = "connect";
	o[k++].nrules = 1;
	o[k].name = "io_uring_setup";
	o[k++].nrules = 1;
	o[k].name = "listen";
	o[k++].nrules = 1;
	/* with UDP: always (one rule without a condition) */
	o[k].name = "sendmmsg";
	if (udp)
		o[k].nrules = 1;
	else
		atom(&o[k].rules[o[k].nrules++], 3, 32, MSG_FASTOPEN_BIT,
		     IR_OP_NE, 0);
	k++;
	o[k].name = "sendmsg";
	if (udp)
		o[k].nrules = 1;
	else
		atom(&o[k].rules[o[k].nrules++], 2, 32, MSG_FASTOPEN_BIT,
		     IR_OP_NE, 0);
	k++;
	o[k].name = "sendto";
	atom(&o[k].rules[o[k].nrules++], 4, 64, ALL64, IR_OP_NE, 0);
	atom(&o[k].rules[o[k].nrules++], 3, 32, MSG_FASTOPEN_BIT, IR_OP_NE, 0);
	k++;
	o[k].name = "setsockopt";
	r = &o[k].rules[o[k].nrules++];
	atom(r, 1, 32, ALL32, IR_OP_EQ, 0); /* IPPROTO_IP */
	atom(r, 2, 32, ALL32, IR_OP_EQ, 4); /* IP_OPTIONS */
	for (i = 0; i < 3; i++) {
		static const unsigned v6[3] = {5, 6, 57};

		r = &o[k].rules[o[k].nrules++];
		atom(r, 1, 32, ALL32, IR_OP_EQ, 41); /* IPPROTO_IPV6 */
		atom(r, 2, 32, ALL32, IR_OP_EQ, v6[i]);
	}
	k++;
	o[k].name = "socket";
	for (i = 0; i < 2; i++) {
		r = &o[k].rules[o[k].nrules++];
		atom(r, 0, 32, ALL32, IR_OP_EQ, inet[i]);
		atom(r, 1, 32, SOCK_TYPE_MASK_BITS, IR_OP_NE, 1);
		if (udp) /* SOCK_DGRAM too */
			atom(r, 1, 32, SOCK_TYPE_MASK_BITS, IR_OP_NE, 2);
		r = &o[k].rules[o[k].nrules++];
		atom(r, 0, 32, ALL32, IR_OP_EQ, inet[i]);
		atom(r, 1, 32, SOCK_TYPE_MASK_BITS, IR_OP_EQ, 1);
		atom(r, 2, 32, ALL32, IR_OP_NE, 0);
		atom(r, 2, 32, ALL32, IR_OP_NE, 6);
		if (!udp)
			continue;
		/* SOCK_DGRAM: UDP only (no ping, no UDP-Lite) */
		r = &o[k].rules[o[k].nrules++];
		atom(r, 0, 32, ALL32, IR_OP_EQ, inet[i]);
		atom(r, 1, 32, SOCK_TYPE_MASK_BITS, IR_OP_EQ, 2);
		atom(r, 2, 32, ALL32, IR_OP_NE, 0);
		atom(r, 2, 32, ALL32, IR_OP_NE, 17);
	}
	r = &o[k].rules[o[k].nrules++];
	atom(r, 0, 32, ALL32, IR_OP_NE, 1);
	atom(r, 0, 32, ALL32, IR_OP_NE, 2);
	atom(r, 0, 32, ALL32, IR_OP_NE, 10);
	atom(r, 0, 32, ALL32, IR_OP_NE, 16);
	k++;
	for (size_t j = 0; j < k; j++)
		for (unsigned m = 0; m < o[j].nrules; m++)
			o[j].rules[m].action =
			    (struct ir_action){NOTE_ACTION, 0};
	*n = k;
}

/*
 * q: p's syscalls, each broker call's rules followed by its broker rules
 * (a call p does not name gets the broker rules alone, so that where none
 * holds the default decides, as in p). Every rule of p stays, in order.
 */
static int merge(const struct ir_policy *p, struct ir_policy *q,
		 struct ir_syscall **calls_out, char *err, size_t errlen)
{
	struct overlay o[8];
	struct ir_syscall *calls;
	size_t no, n = 0, i = 0, j = 0;

	overlay_rules(p, o, &no);
	calls = calloc(p->sys.ncalls + no, sizeof(*calls));
	if (!calls) {
		snprintf(err, errlen, "broker: out of memory");
		return 2;
	}
	while (i < p->sys.ncalls || j < no) {
		int c = i == p->sys.ncalls ? 1
			: j == no	   ? -1
				  : strcmp(p->sys.calls[i].name, o[j].name);
		struct ir_syscall *sc = &calls[n++];

		if (c < 0) {
			*sc = p->sys.calls[i++];
			continue;
		}
		snprintf(sc->name, sizeof(sc->name), "%s", o[j].name);
		sc->nrules =
		    o[j].nrules + (c == 0 ? p->sys.calls[i].nrules : 0);
		sc->rules =
		    calloc(sc->nrules ? sc->nrules : 1, sizeof(*sc->rules));
		if (!sc->rules) {
			snprintf(err, errlen, "broker: out of memory");
			*calls_out = calls;
			q->sys.ncalls = (uint32_t)n - 1;
			return 2;
		}
		if (c == 0) {
			memcpy(sc->rules, p->sys.calls[i].rules,
			       p->sys.calls[i].nrules * sizeof(*sc->rules));
			memcpy(sc->rules + p->sys.calls[i].nrules, o[j].rules,
			       o[j].nrules * sizeof(*sc->rules));
			i++;
		} else {
			memcpy(sc->rules, o[j].rules,
			       o[j].nrules * sizeof(*sc->rules));
		}
		sc->name[sizeof(sc->name) - 1] = '\0';
		sc->nrules = sc->nrules; /* rules[] owned: freed by free_q */
		j++;
	}
	*q = *p;
	q->sys.ncalls = (uint32_t)n;
	q->sys.calls = calls;
	*calls_out = calls;
	return 0;
}

/* The rules merge() allocated: those of the broker's calls. */
static void free_q(const struct ir_policy *p, struct ir_syscall *calls,
		   uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		int own = 1;

		for (uint32_t i = 0; i < p->sys.ncalls && own; i++)
			if (calls[k].rules == p->sys.calls[i].rules)
				own = 0;
		if (own)
			free(calls[k].rules);
	}
	free(calls);
}

int broker_build(const struct ir_policy *p, struct sock_filter **prog,
		 size_t *n, char *err, size_t errlen)
{
	struct ir_syscall *calls = NULL;
	struct ir_policy q;
	char why[512];
	int rc, v;

	*prog = NULL;
	*n = 0;
	if (!broker_on(p))
		return 0;
	memset(&q, 0, sizeof(q));
	if ((rc = merge(p, &q, &calls, err, errlen))) {
		if (calls)
			free_q(p, calls, q.sys.ncalls);
		return rc;
	}
	rc = 0;
	if (seccomp_generate_variant(&q, SECCOMP_NOTIFY, prog, n, why,
				     sizeof(why))) {
		snprintf(err, errlen, "broker: %s", why);
		rc = 2;
	} else if ((v = seccomp_validate_variant(&q, SECCOMP_NOTIFY, *prog, *n,
						 0, NULL, why, sizeof(why)))) {
		snprintf(err, errlen, "broker: translation validation %s: %s",
			 v == 1 ? "found a mismatch" : "could not finish", why);
		free(*prog);
		*prog = NULL;
		*n = 0;
		rc = 3;
	}
	free_q(p, calls, q.sys.ncalls);
	return rc;
}
