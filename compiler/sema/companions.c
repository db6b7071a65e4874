/* SPDX-License-Identifier: MIT */
/* The egress companion rules (sema.h). */
#include "sema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define W32 0xffffffffull
#define DENY                                                                   \
	{                                                                      \
		IR_ACT_ERRNO, EACCES                                           \
	}
/* socket's family, type and protocol are ints: width 32. */
#define FAMILY(v)                                                              \
	{                                                                      \
		0, 32, IR_OP_EQ, W32, (v)                                      \
	}
#define RAW                                                                    \
	{                                                                      \
		1, 32, IR_OP_EQ, 0xf, 3                                        \
	} /* type & SOCK_TYPE_MASK */
#define NOT_FAMILY(v)                                                          \
	{                                                                      \
		0, 32, IR_OP_NE, W32, (v)                                      \
	}
#define PROTO_NOT_ROUTE                                                        \
	{                                                                      \
		2, 32, IR_OP_NE, W32, 0                                        \
	}

const struct companion companions[] = {
    {"socket",
     "errno(EACCES) socket if family == AF_PACKET",
     {DENY, 1, {FAMILY(17)}},
     0},
    {"socket",
     "errno(EACCES) socket if family == AF_INET && type & 0xf == SOCK_RAW",
     {DENY, 2, {FAMILY(2), RAW}},
     0},
    {"socket",
     "errno(EACCES) socket if family == AF_INET6 && type & 0xf == SOCK_RAW",
     {DENY, 2, {FAMILY(10), RAW}},
     0},
    {"socket",
     "errno(EACCES) socket if family == AF_NETLINK && protocol != "
     "NETLINK_ROUTE",
     {DENY, 2, {FAMILY(16), PROTO_NOT_ROUTE}},
     0},
    /*
     * Under net none and net filtered, the families a box's network
     * namespace confines, and nothing else: AF_VSOCK (which reaches the
     * host or VM through no network namespace at all), AF_PACKET and
     * every other family are refused, whatever the policy's own socket
     * rule says. NETLINK_ROUTE alone of netlink, by the rule above.
     */
    {"socket",
     "errno(EACCES) socket if family != AF_UNIX && family != AF_INET && "
     "family != AF_INET6 && family != AF_NETLINK",
     {DENY, 4, {NOT_FAMILY(1), NOT_FAMILY(2), NOT_FAMILY(10), NOT_FAMILY(16)}},
     1},
    {"io_uring_setup", "errno(EACCES) io_uring_setup", {DENY, 0, {{0}}}, 0},
    {"io_uring_enter", "errno(EACCES) io_uring_enter", {DENY, 0, {{0}}}, 0},
    {"io_uring_register",
     "errno(EACCES) io_uring_register",
     {DENY, 0, {{0}}},
     0},
    /*
     * A seccomp listener of the box's own: the kernel hands a
     * SECCOMP_RET_USER_NOTIF to the newest filter that returns it, so a
     * box with a listener could answer polexec's notified denials itself
     * once polexec's listener is gone (docs/OBSERVE.md). seccomp's flags
     * are an unsigned int: width 32.
     */
    {"seccomp",
     "errno(EACCES) seccomp if flags & SECCOMP_FILTER_FLAG_NEW_LISTENER != 0",
     {DENY, 1, {{1, 32, IR_OP_NE, 0x8, 0}}},
     0},
};
const size_t ncompanions = sizeof(companions) / sizeof(companions[0]);

int companion_applies(const struct companion *c, const struct ir_policy *p)
{
	return !c->own_net ||
	       (p->net.present &&
		(p->net.mode == IR_NET_NONE || p->net.mode == IR_NET_FILTERED));
}

static struct ir_syscall *find(struct ir_syscalls *s, const char *name)
{
	for (uint32_t i = 0; i < s->ncalls; i++)
		if (!strcmp(s->calls[i].name, name))
			return &s->calls[i];
	return NULL;
}

int companions_add(struct ir_policy *p)
{
	struct ir_syscalls *s = &p->sys;
	uint32_t newcalls = 0, i;
	size_t k;

	/* First the limits and the new names, so failure changes nothing. */
	for (k = 0; k < ncompanions; k++) {
		struct ir_syscall *sc = find(s, companions[k].name);
		uint32_t same = 0;

		if (!companion_applies(&companions[k], p))
			continue;
		for (i = 0; i < k; i++)
			same += companion_applies(&companions[i], p) &&
				!strcmp(companions[i].name, companions[k].name);
		if (!sc && !same)
			newcalls++;
		if (sc && sc->nrules + same + 1 > IR_MAX_RULES)
			return IR_EINVAL;
	}
	if (s->ncalls + newcalls > IR_MAX_SYSCALLS)
		return IR_EINVAL;
	if (newcalls) {
		struct ir_syscall *nc =
		    realloc(s->calls, (s->ncalls + newcalls) * sizeof(*nc));

		if (!nc)
			return IR_ENOMEM;
		s->calls = nc;
	}
	for (k = 0; k < ncompanions; k++) {
		struct ir_syscall *sc = find(s, companions[k].name);
		struct ir_rule *r;

		if (!companion_applies(&companions[k], p))
			continue;
		if (!sc) {
			sc = &s->calls[s->ncalls++];
			memset(sc, 0, sizeof(*sc));
			strcpy(sc->name, companions[k].name);
		}
		r = realloc(sc->rules, (sc->nrules + 1) * sizeof(*r));
		if (!r)
			return IR_ENOMEM;
		sc->rules = r;
		sc->rules[sc->nrules++] = companions[k].rule;
	}
	if (!s->present) {
		/* A layer of its own: everything else runs as it would with
		 * no filter; foreign arches get the language's badarch
		 * default, else i386's socketcall would step around it. */
		s->present = 1;
		s->def = (struct ir_action){IR_COMPANION_ACTION, 0};
		s->badarch = (struct ir_action){IR_DEFAULT_BADARCH, 0};
	}
	return IR_OK;
}
