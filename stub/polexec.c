/* SPDX-License-Identifier: MIT */
/*
 * polexec ARTIFACT -- CMD ARGS...
 *
 * polexec decodes a .polbin, validates it as hostile input, installs what
 * it describes and execs the command. It makes no policy decision:
 * everything it enforces was decided by polc. Linear, one phase after
 * another, like the kernel's Landlock sandboxer. main() below calls them
 * in this order; a phase is a file of stub/ named for it, or the entry of
 * a layer's room:
 *
 *   run.c                signals_default  no signal the caller ignored stays
 *                                         ignored (pasta, the box's wait)
 *   box/init.c           init_args        where pid 1 wipes polexec's
 *                                         command line once the box runs
 *   args.c               parse_args       what the caller asked for
 *   lib/protect.c        protect_self     polexec's own memory out of the
 *                                         box's reach
 *   record.c             record_open      the run record's file
 *                                         (lib/outfile.c), before anything
 *                                         runs; each room hands it a writer
 *   artifact.c           artifact_load    the artifact, validated as
 *                                         hostile input
 *   landlock/landlock.c  landlock_prepare the kernel's Landlock ABI against
 *                                         the policy's; the rule paths
 *                                         opened, the ruleset built
 *   observe/supervise.c  supervise_plan   whether the box's denials are
 *                                         observed (seccomp user
 *                                         notification, Landlock's audit
 *                                         log) and in which mode (--learn)
 *   decide.c             decide_layers    what will be enforced, and
 *                                         refusal of what cannot be
 *                                         (box/view.c: the box's own root
 *                                         and user, planned, its steps
 *                                         tried first by box/trial.c, the
 *                                         rung taken; net/net.c, or
 *                                         net/fallback.c's rung;
 *                                         limits/limits.c: each limit's
 *                                         tier, the box's cgroups created)
 *   env.c                env_build        the environment, variables bound
 *   secrets.c            secrets_prepare  secrets' sources opened, checked
 *   net/net.c            net_prepare      names resolved and pinned, the
 *                                         egress batch built
 *                        net_start        the box's network namespace pair,
 *                                         its nft table and pasta
 *   run.c                run              clone; the child narrows and
 *                                         execs (child.c; with a view, pid
 *                                         1 builds it: box/init.c,
 *                                         box/view.c); the parent forwards
 *                                         signals and waits (limits/: the
 *                                         wall clock) and answers
 *                                         notifications (observe/)
 *   observe/supervise.c  supervise_finish the listener closed
 *   net/net.c            net_finish       the blocked destinations read,
 *                                         pasta gone
 *   box/view.c           view_finish      the degraded view's private /tmp
 *                                         folder removed
 *   observe/denials.c    obs_explain_end  --explain=end: the denials, after
 *                                         the command ended
 *   record.c             record_finish    the record written; the exit code
 *
 * Everything up to the clone is a refusal with exit 125 when it fails: the
 * command never runs half-enforced. `polexec --doctor` is doctor.c.
 *
 * The rooms below the phases, and what each may include besides itself
 * (tests/rooms checks it; docs/ARCHITECTURE.md):
 *
 *   box/       the box: namespaces, pid 1, its own view     landlock lib
 *   landlock/  the ruleset, its part of the record          lib
 *   limits/    limits' tiers, the wait loop, cgroups        observe box lib
 *   net/       egress: table, pasta, relay, resolver        observe box lib
 *   observe/   supervisor, decision interpreter, denials,   box landlock lib
 *              paths, Landlock's audit log
 *   lib/       policy types and names, die(), text, vars,   -
 *              output files, self-protection, raw syscalls
 *   ../abi/    kernel facts shared with polc (every room may include it)
 *
 * Exit codes: the command's own status, 128+N when it was killed by signal
 * N, 126 when it could not be executed, 127 when it was not found, and 125
 * for polexec's own errors (the command never ran).
 */
#include "args.h"
#include "artifact.h"
#include "box/init.h"
#include "box/view.h"
#include "decide.h"
#include "doctor.h"
#include "env.h"
#include "landlock/landlock.h"
#include "limits/limits.h"
#include "net/net.h"
#include "observe/observe.h"
#include "lib/protect.h"
#include "record.h"
#include "run.h"
#include "secrets.h"
#include "lib/util.h"

extern char **environ;

static struct record record = {.fd = -1};
static struct policy policy;
static struct ll_run ll;

/* The record's parts, handed over by each room (record.h): the record
 * reaches into no layer. */
static void put_landlock(struct text *t, enum tier tier, int refused)
{
	if (tier != TIER_OFF && !refused)
		landlock_record(t, &policy.ll, &ll);
}

static void put_view(struct text *t, enum tier tier, int refused)
{
	(void)tier;
	view_record(t, refused);
}

static void put_net(struct text *t, enum tier tier, int refused)
{
	(void)tier;
	/* net host's TCP ports (Landlock): what holds, not "not contained" */
	if (!policy.net.present && !refused &&
	    record.layers[LAYER_LANDLOCK].tier != TIER_OFF &&
	    landlock_tcp_contained(&ll))
		landlock_record_tcp(t, &policy.ll, &ll);
	else
		net_record(t, refused);
}

static const struct record_parts parts = {
    .layer = {[LAYER_LANDLOCK] = put_landlock,
	      [LAYER_VIEW] = put_view,
	      [LAYER_NET] = put_net},
    .observed = observe_record,
    .limits = limits_record,
    .secrets = secrets_record,
};

/* Every refusal in the parent: nothing left behind, the record says why. */
static void refusal_hook(const char *msg)
{
	limits_abort(); /* no cgroup left behind */
	net_abort();	/* no pasta left behind */
	view_finish();	/* no folder left behind */
	record_refused(&record, msg);
}

int main(int argc, char **argv)
{
	static struct args a;
	char **envp;
	int status;

	(void)argc;
	record.start_ns = monotonic_ns();
	signals_default(); /* run.c: before any helper, pasta, the box */
	init_args(argv, environ);
	parse_args(argv, &a);
	net_backend_arg(a.net_backend); /* doctor tries the one asked for */
	if (a.doctor)
		return doctor(a.artifact);
	protect_self();
	net_backend_arg(a.net_backend);
	record.command = a.argv[0];
	record.argv = a.argv;
	record.started_by = a.started_by;
	if (a.record)
		record_open(&record, a.record);
	die_set_hook(refusal_hook);
	record.policy = &policy;
	record.parts = parts;
	artifact_load(a.artifact, &policy);
	landlock_prepare(&policy, &a.vars, &ll, &record.layers[LAYER_LANDLOCK]);
	if (a.learn && a.require_enforced)
		die("args: --learn enforces no syscall or file rule, and "
		    "--require-enforced refuses that");
	/* before the layers: learn mode has no view (view.c) */
	supervise_plan(&policy, &a.vars, &ll, a.learn, a.explain);
	record.learn = supervise_learning();
	decide_layers(&policy, record.layers, a.require_enforced);
	envp = env_build(&policy, &a.vars);
	secrets_prepare(&policy, &a.vars);
	net_prepare(&policy, &a.vars);
	net_start();
	status = run(&policy, &ll, envp, a.argv);
	supervise_finish();
	net_finish();
	view_finish();
	if (a.explain == 2)
		obs_explain_end();
	die_set_hook(NULL); /* the command ran: no refusal record from here */
	return record_finish(&record, status);
}
