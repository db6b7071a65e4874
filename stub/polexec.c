/* SPDX-License-Identifier: MIT */
/*
 * polexec ARTIFACT -- CMD ARGS...
 *
 * polexec decodes a .polbin, validates it as hostile input, installs what
 * it describes and execs the command. It makes no policy decision:
 * everything it enforces was decided by polc. Linear, one phase after
 * another, like the kernel's Landlock sandboxer; each phase is a file
 * named for it, and main() below calls them in this order:
 *
 *   args.c      parse_args       what the caller asked for
 *   protect.c   protect_self     polexec's own memory out of the box's reach
 *   record.c    record_open      the run record's file (outfile.c: a temporary
 *                                file beside it, or a device in place),
 *                                before anything runs
 *   artifact.c  artifact_load    the artifact, validated as hostile input
 *   landlock.c  landlock_prepare the kernel's Landlock ABI against the
 *                                policy's; the rule paths opened, the
 *                                ruleset built
 *   decide.c    decide_layers    what will be enforced, and refusal of
 *                                what cannot be (view.c: the box's own
 *                                root and user, planned; limits.c: each
 *                                limit's tier, the box's cgroups created)
 *   env.c       env_build        the box's environment, variables bound
 *   secrets.c   secrets_prepare  secrets' sources opened and checked
 *   net.c       net_prepare      names resolved and pinned, the egress
 *                                batch built
 *   supervise.c supervise_plan   whether the box's denials are observed
 *                                (seccomp user notification, Landlock's
 *                                audit log) and in which mode (--learn)
 *               net_start        the box's network namespace pair, its nft
 *                                table and pasta, when the policy needs them
 *   run.c       run              clone; the child narrows and execs
 *                                (child.c; with a view, pid 1 builds it,
 *                                init.c and view.c); the parent forwards
 *                                signals and waits (limits.c: the wall
 *                                clock), and answers notifications
 *                                (supervise.c)
 *   supervise.c supervise_finish the listener closed
 *   net.c       net_finish       the blocked destinations read, pasta gone
 *   record.c    record_finish    the record written; the exit code
 *
 * Everything up to the clone is a refusal with exit 125 when it fails: the
 * command never runs half-enforced. `polexec --doctor` is doctor.c.
 *
 * Below the phases are the helpers they use, and nothing above: the
 * layers' mechanisms (boxns.c namespaces, cgroup.c, pasta.c, nfnl.c),
 * variables (vars.c), the artifact's types (artifact.h), and util.h (the
 * die() family, names, text), kernel.h, landlock_compat.h, libc.c.
 *
 * Exit codes: the command's own status, 128+N when it was killed by signal
 * N, 126 when it could not be executed, 127 when it was not found, and 125
 * for polexec's own errors (the command never ran).
 */
#include "args.h"
#include "artifact.h"
#include "decide.h"
#include "doctor.h"
#include "env.h"
#include "landlock.h"
#include "limits.h"
#include "net.h"
#include "observe.h"
#include "protect.h"
#include "record.h"
#include "run.h"
#include "secrets.h"
#include "util.h"

static struct record record = {.fd = -1};

/* Every refusal in the parent: nothing left behind, the record says why. */
static void refusal_hook(const char *msg)
{
	limits_abort(); /* no cgroup left behind */
	net_abort();	/* no pasta left behind */
	record_refused(&record, msg);
}

int main(int argc, char **argv)
{
	static struct policy policy;
	static struct ll_run ll;
	static struct args a;
	char **envp;
	int status;

	(void)argc;
	record.start_ns = monotonic_ns();
	signals_default(); /* run.c: before any helper, pasta, the box */
	parse_args(argv, &a);
	if (a.doctor)
		return doctor(a.artifact);
	protect_self();
	record.command = a.argv[0];
	if (a.record)
		record_open(&record, a.record);
	die_set_hook(refusal_hook);
	record.policy = &policy;
	artifact_load(a.artifact, &policy);
	landlock_prepare(&policy, &a.vars, &ll, &record.layers[LAYER_LANDLOCK]);
	record.ll = &ll;
	if (a.learn && a.require_enforced)
		die("args: --learn enforces no syscall or file rule, and "
		    "--require-enforced refuses that");
	/* before the layers: learn mode has no view (view.c) */
	supervise_plan(&policy, &a.vars, &ll, a.learn, a.explain);
	decide_layers(&policy, record.layers, a.require_enforced);
	envp = env_build(&policy, &a.vars);
	secrets_prepare(&policy, &a.vars);
	net_prepare(&policy, &a.vars);
	net_start();
	status = run(&policy, &ll, envp, a.argv);
	supervise_finish();
	net_finish();
	die_set_hook(NULL); /* the command ran: no refusal record from here */
	return record_finish(&record, status);
}
