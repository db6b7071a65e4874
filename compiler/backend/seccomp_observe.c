// SPDX-License-Identifier: MIT
/*
 * What the observation programs observe (docs/OBSERVE.md): the part of
 * their specification that is not the policy's decision. The code
 * generator (seccomp.c) builds the programs from it and the translation
 * validator (seccomp_validate.c) proves them against it, as both do with
 * ir_eval_syscall(): one definition, read by both.
 *
 *   NOTIFY   USER_NOTIF where the decision is errno or kill_process, or
 *            allow on a destructive call of a policy with `observe
 *            destructive`; the decision everywhere else. A rule's
 *            errno(ENOSYS) is not a denial and is not notified: it says
 *            the call does not exist here, and libc falls back to an
 *            older one (`errno(ENOSYS) clone3` makes glibc use clone,
 *            whose flags a filter can read); the default's is.
 *   LEARN    USER_NOTIF where the decision is anything but allow and log,
 *            or allow on a destructive call (as NOTIFY) or on a call whose
 *            path the fs rules decide (policies with an fs section); the
 *            decision everywhere else.
 *   EXPLAIN  the code of the rule that decides, or of the default or the
 *            bad-arch action; never loaded into the kernel.
 */
#include "backend.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* x86_64's O_TRUNC (01000), tested on the low word of open's flags. */
#define OBS_O_TRUNC 0x200u

/*
 * destructive: 0 no, 1 always, 2 when flags (argument `arg`) have O_TRUNC.
 * path: a call whose path argument the Landlock rules decide; learn mode
 * observes them all (Landlock is off in learn mode). Sorted by name.
 */
static const struct obs_call {
	const char *name;
	unsigned char destructive, arg, path;
} obs_calls[] = {
    {"creat", 1, 0, 1},	    {"execve", 0, 0, 1},   {"execveat", 0, 0, 1},
    {"ftruncate", 1, 0, 0}, {"link", 0, 0, 1},	   {"linkat", 0, 0, 1},
    {"mkdir", 0, 0, 1},	    {"mkdirat", 0, 0, 1},  {"mknod", 0, 0, 1},
    {"mknodat", 0, 0, 1},   {"open", 2, 1, 1},	   {"openat", 2, 2, 1},
    {"openat2", 1, 0, 1},   {"rename", 1, 0, 1},   {"renameat", 1, 0, 1},
    {"renameat2", 1, 0, 1}, {"rmdir", 1, 0, 1},	   {"symlink", 0, 0, 1},
    {"symlinkat", 0, 0, 1}, {"truncate", 1, 0, 1}, {"unlink", 1, 0, 1},
    {"unlinkat", 1, 0, 1},
};
#define NOBS (sizeof(obs_calls) / sizeof(obs_calls[0]))

const char *seccomp_observed_at(enum seccomp_variant v, unsigned i)
{
	if ((v != SECCOMP_NOTIFY && v != SECCOMP_LEARN) || i >= NOBS)
		return NULL;
	return obs_calls[i].name;
}

int seccomp_observed(const struct ir_policy *p, enum seccomp_variant v,
		     const char *name, unsigned *arg, uint32_t *mask)
{
	int destructive = (p->fs.observe & IR_OBSERVE_DESTRUCTIVE) != 0;
	const struct obs_call *c = NULL;

	for (size_t i = 0; i < NOBS && !c; i++)
		if (!strcmp(obs_calls[i].name, name))
			c = &obs_calls[i];
	if (!c || (v != SECCOMP_NOTIFY && v != SECCOMP_LEARN))
		return SECCOMP_OBSERVE_NO;
	if (v == SECCOMP_LEARN && p->fs.present && c->path)
		return SECCOMP_OBSERVE_ALWAYS;
	if (!destructive || !c->destructive)
		return SECCOMP_OBSERVE_NO;
	if (c->destructive == 1)
		return SECCOMP_OBSERVE_ALWAYS;
	if (arg)
		*arg = c->arg;
	if (mask)
		*mask = OBS_O_TRUNC;
	return SECCOMP_OBSERVE_IF_SET;
}

int seccomp_variant_notifies(enum seccomp_variant v, const struct ir_action *a,
			     uint32_t code)
{
	switch (v) {
	case SECCOMP_NOTIFY:
		if (a->kind == IR_ACT_ERRNO && a->errnum == ENOSYS &&
		    code >= SECCOMP_EXPLAIN_RULE0)
			return 0;
		return a->kind == IR_ACT_ERRNO ||
		       a->kind == IR_ACT_KILL_PROCESS;
	case SECCOMP_LEARN:
		return a->kind != IR_ACT_ALLOW && a->kind != IR_ACT_LOG;
	default:
		return 0;
	}
}

uint32_t seccomp_explain_code(const struct ir_syscalls *s,
			      const struct ir_syscall *sc, uint32_t rule)
{
	uint32_t code = SECCOMP_EXPLAIN_RULE0;

	for (const struct ir_syscall *c = s->calls; c < sc; c++)
		code += c->nrules;
	return code + rule;
}
