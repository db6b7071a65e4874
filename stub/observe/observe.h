/* SPDX-License-Identifier: MIT */
/*
 * Observation (docs/OBSERVE.md): the box's denials and destructive calls
 * in the run record. The compiled programs decide; polexec reports.
 *
 *   obs_decode.c  the OBSERVE section, decoded as hostile input
 *   supervise.c   the seccomp listener: the child installs the notify
 *                 program and hands the listener over; the parent answers
 *                 each notification with the decision program's action
 *   denials.c     the bounded tables of denials and side effects, their
 *                 words, the record's fields and --explain's lines
 *   obs_paths.c   paths read from the box: resolved, kept or hashed, and
 *                 in learn mode judged against the policy's fs rules
 *   llaudit.c     Landlock's denials from the kernel's audit log (root)
 */
#ifndef POLC_STUB_OBSERVE_H
#define POLC_STUB_OBSERVE_H

#include <poll.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include "lib/policy.h"
#include "landlock/landlock.h"
#include "lib/util.h"
#include "lib/vars.h"

#define OBS_MAX_NR	 POLBIN_OBS_MAX_NR /* syscall numbers named */
#define OBS_MAX_CONSTS	 256		   /* names in one constant table */
#define OBS_MAX_RULES	 65536
#define OBS_MAX_TABLES	 16
#define OBS_MAX_DENIALS	 1024 /* distinct denials kept */
#define OBS_MAX_SIDE	 1024 /* side effects kept */
#define OBS_MAX_POLLFDS	 2    /* what the wait loop polls for us */
#define OBS_PROG_NOTIFY	 0
#define OBS_PROG_LEARN	 1
#define OBS_PROG_EXPLAIN 2

/* --- the OBSERVE section, decoded (obs_decode.c) ---------------------- */

struct obs_call {
	char name[41];
	uint8_t nargs; /* 0..6, or POLBIN_OBS_NARGS_UNKNOWN */
	uint8_t fmt[6];
};

struct obs_const {
	uint64_t value;
	char *name;
};

struct obs_table {
	uint8_t kind; /* POLBIN_OBS_CONST_*; n == 0: no such table */
	uint32_t low_mask;
	uint32_t n;
	struct obs_const *c;
};

struct obs_rule {
	uint32_t code;
	uint8_t flags, kind;
	uint16_t errnum;
	char *text; /* controls removed */
};

struct obs_spec {
	int present;
	uint32_t flags;
	struct sock_filter *prog[3];
	unsigned short nprog[3];
	struct obs_call *call[OBS_MAX_NR];
	struct obs_table table[OBS_MAX_TABLES];
	uint32_t nrules;
	struct obs_rule *rules; /* codes increasing */
	char *workspace;	/* as the policy wrote it, or NULL */
};

/* Decodes the OBSERVE section into p->obs, or leaves it absent; dies on
 * a malformed one (the artifact is refused). */
void observe_decode(const char *path, struct policy *p);
/* The rule of code `code`, or NULL. */
const struct obs_rule *obs_rule_of(const struct obs_spec *o, uint32_t code);

/* --- the supervisor (supervise.c) -------------------------------------- */

/*
 * Parent, before the clone: whether denials are observed and how (the
 * OBSERVE section, the kernel's user notification, --learn, --explain).
 * Never refuses a run the policy allows: without observation the decision
 * program is installed and the record says why nothing was observed.
 */
void supervise_plan(const struct policy *p, const struct vars *vars,
		    struct ll_run *ll, int learn, int explain);
/*
 * The notify broker (net/broker.c): the box installs prog in place of
 * NOTIFY, and each notification the decision program allows (or logs) is
 * offered to handle() first, which answers it and returns 1 when it is a
 * broker call. Set after supervise_plan().
 */
void supervise_broker(const struct sock_filter *prog, unsigned short n,
		      int (*handle)(const struct seccomp_notif *n,
				    int listener));
/* NULL when the supervisor can carry the broker, else why not. */
const char *supervise_broker_unavailable(void);
/* --learn: the hook for the layers learn mode leaves out (Landlock; the
 * box's view must show the whole tree). */
int supervise_learning(void);
/* Parent, right before the clone: 1 when the child is cloned without
 * CLONE_VFORK and supervise_window() follows it. */
int supervise_before_clone(void);
/* Child: the descriptor close_stray_fds() keeps (the hand-over
 * socket, close-on-exec), or -1. */
int supervise_child_fd(void);
/*
 * Child, last: when denials are observed, installs the notify (or learn)
 * program, hands the listener over (itself, or from a second thread that
 * has no filter) and execs argv, calling fail() if execve fails; it never
 * returns then. 0 when it installed nothing: the caller installs the
 * decision program and execs as before.
 */
int supervise_child_exec(const struct policy *p, const char *path,
			 char *const argv[], char *const envp[],
			 void (*fail)(int code, const char *cmd,
				      const char *why));
/* Parent, after the clone of pid: answers until the child has exec'd or
 * died. */
void supervise_window(pid_t pid);
/* Is notification id still valid (its thread still waiting on it)? */
int supervise_valid(uint64_t id);
/* The wait loop (limits.c): the descriptors to poll, and what came. */
int observe_pollfds(struct pollfd *fds);
void observe_handle(const struct pollfd *fds, int n);
/* Parent, after the box ended: listener and audit socket closed. */
void supervise_finish(void);
/* Notifications received so far. */
uint64_t supervise_seen(void);

/* --- Landlock's audit records (llaudit.c) -------------------------------- */

/* Parent, before Landlock restricts the child: whether the kernel's audit
 * log can be read here (root, audit on), the flags for
 * landlock_restrict_self(), and what the record says otherwise. */
uint32_t llaudit_plan(int abi, int ruleset);
/* The box child's pid, whose Landlock domain the records name. */
void llaudit_box(pid_t pid);
/* The audit socket for the wait loop (fds may be NULL): 0 or 1. */
int llaudit_pollfd(struct pollfd *fds);
/* Reads what the audit socket holds, records the box's denials. */
void llaudit_read(void);
/* The box ended: the last records read, the socket closed. */
void llaudit_finish(void);
/* The record's word for Landlock's denials. */
const char *llaudit_state(void);

/* --- what was seen (denials.c) ------------------------------------------ */

enum obs_layer {
	OBS_LAYER_SECCOMP = 0,
	OBS_LAYER_LANDLOCK,
	OBS_LAYER_NET,
};

/* One seccomp denial (or, in learn mode, a call the policy would deny). */
void obs_seccomp(const struct seccomp_notif *n, uint32_t ret, uint32_t code,
		 int learned);
/* Calls the policy's fs rules would deny (learn mode), or the kernel's
 * audit log reported (enforce): path, the rights it lacks. */
void obs_fs(const char *path, uint64_t rights, int learned, const char *src);
/* A destination the net layer refused. */
void obs_net(const char *dest, const char *host, const char *what);
/* A destructive call under `observe destructive`: its paths read,
 * resolved, kept or hashed, and recorded. */
void obs_side_of(const struct seccomp_notif *n);
/* Why observation is off or partial, for the record ("" or a reason). */
void obs_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The record's members: mode, observation, denials, side effects. */
void observe_record(struct text *t, int refused);
/* --explain lines held back while the child shared our memory. */
void obs_flush_explain(void);
/* --explain=end: every line held back, after the command ended and the
 * net layer's refusals were read. */
void obs_explain_end(void);

/* The state the three share. */
struct obs_state {
	int mode;	   /* 0 off, 1 enforce (notify), 2 learn */
	int notified;	   /* the listener was handed over */
	int explain;	   /* 1 --explain, 2 --explain=end */
	int defer_explain; /* in the window: no stderr writes yet */
	const struct policy *p;
	const struct obs_spec *o;
	uint64_t start_ns;
	char *workspace; /* bound, absolute, or NULL (hash every path) */
};
extern struct obs_state obs;

/* --- paths (obs_paths.c) ------------------------------------------------ */

/*
 * Argument i of notification n as a path: read from the box's memory and
 * made absolute (relative to its cwd, or to its dirfd argument dirfd_arg
 * >= 0), lexically normalized, into out. fd_arg >= 0: the path of that
 * descriptor instead. 0, or -1 when it could not be read.
 */
int obs_path(const struct seccomp_notif *n, int arg, int dirfd_arg, int fd_arg,
	     char *out, size_t len);
/* The path for the record: "./rest" inside the workspace, else
 * "sha256:HEX". out holds at least 72 bytes. */
void obs_shown(const char *abs, char *out, size_t len);
/* Learn mode: the fs accesses of notification n that the policy's rules
 * would deny, recorded. */
void obs_learn_fs(const struct seccomp_notif *n);
/* A raw syscall: -errno on failure, errno untouched (the child may share
 * our memory, errno included, while we answer). */
long obs_sys(long nr, long a, long b, long c, long d, long e, long f);

#endif
