/* SPDX-License-Identifier: MIT */
/*
 * polexec ARTIFACT -- CMD ARGS...
 *
 * Linear, one phase after another, like the kernel's Landlock sandboxer:
 *
 *   parse_args       what the caller asked for
 *   protect_self     polexec's own memory and environment out of reach
 *   record_open      the run record's file, before anything runs
 *   artifact_load    the artifact, validated as hostile input (artifact.c)
 *   landlock_prepare the kernel's Landlock ABI against the policy's; the
 *                    rule paths opened, the ruleset built (landlock.c)
 *   decide_layers    what will be enforced, and refusal of what cannot be
 *                    (limits: tiers chosen, the box's cgroups created)
 *   env_build        the box's environment, variables bound (env.c)
 *   secrets_prepare  secrets' sources opened and checked (secrets.c)
 *   net_prepare      names resolved and pinned, the egress batch built
 *   net_start        the box's network namespace pair, its nft table and
 *                    pasta, when the policy needs them (net.c)
 *   run              clone; the child narrows and execs (child.c); the
 *                    parent forwards signals, waits and returns the status
 *
 * Everything up to the clone is a refusal with exit 125 when it fails: the
 * command never runs half-enforced.
 */
#include "polexec.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct args {
	const char *artifact;
	const char *record;
	int require_enforced;
	struct vars vars;
	char **argv; /* the command, NULL-terminated */
};

static const char usage[] =
    "usage: polexec [--record FILE] [--var NAME=VALUE]... "
    "[--require-enforced] ARTIFACT -- CMD [ARGS...]\n"
    "       polexec --doctor [ARTIFACT] | --help | --version\n"
    "\n"
    "Runs CMD under the policy compiled into ARTIFACT (a .polbin from "
    "polc build).\n"
    "  --record FILE        write the run record (JSON) to FILE\n"
    "  --var NAME=VALUE     bind ${NAME} in the policy (else polexec's "
    "environment)\n"
    "  --require-enforced   refuse if any layer would be degraded\n"
    "  --doctor [ARTIFACT]  print the kernel features and tiers found; "
    "with\n"
    "                       ARTIFACT, exit 1 unless all it needs is here\n"
    "Exit: the command's status; 128+N if killed by signal N; 126 not "
    "executable;\n"
    "127 not found; 125 polexec refused or failed (the command did not "
    "run).\n";

static struct record record = {.fd = -1};

static void refusal_hook(const char *msg)
{
	limits_abort(); /* limits_run.c: no cgroup left behind */
	net_abort();	/* net.c: no pasta left behind */
	record_refused(&record, msg);
}

/* An option's value: "--opt VALUE" or "--opt=VALUE". */
static const char *opt_value(char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!argv[*i + 1])
		die("args: %s needs a value (see --help)", opt);
	return argv[++*i];
}

static int is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return strncmp(arg, opt, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/*
 * After it: a is filled, or the process has exited (--help, --version,
 * --doctor, or 125 on a usage error). Options come before ARTIFACT; `--`
 * and a command must follow it.
 */
static void parse_args(int argc, char **argv, struct args *a)
{
	int i;

	(void)argc;
	memset(a, 0, sizeof(*a));
	for (i = 1; argv[i]; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			fputs(usage, stdout);
			exit(fflush(stdout) == 0 ? 0 : POLEXEC_EXIT_REFUSED);
		} else if (strcmp(arg, "--version") == 0) {
			printf("polexec %s\n", POLC_VERSION);
			exit(fflush(stdout) == 0 ? 0 : POLEXEC_EXIT_REFUSED);
		} else if (strcmp(arg, "--doctor") == 0) {
			exit(doctor(argv[i + 1])); /* ARTIFACT or NULL */
		} else if (is_opt(arg, "--record")) {
			if (a->record)
				die("args: --record given twice");
			a->record = opt_value(argv, &i, "--record");
		} else if (is_opt(arg, "--var")) {
			vars_add(&a->vars, opt_value(argv, &i, "--var"));
		} else if (strcmp(arg, "--require-enforced") == 0) {
			a->require_enforced = 1;
		} else if (strcmp(arg, "--") == 0 || arg[0] == '-') {
			die("args: unknown option %.64s (see --help)", arg);
		} else {
			break;
		}
	}
	if (!argv[i])
		die("args: no ARTIFACT given (see --help)");
	a->artifact = argv[i++];
	if (!argv[i] || strcmp(argv[i], "--") != 0)
		die("args: expected -- after ARTIFACT (see --help)");
	i++;
	if (!argv[i] || !argv[i][0])
		die("args: no command given after -- (see --help)");
	a->argv = &argv[i];
}

/*
 * After it: each layer has its tier. This polexec enforces seccomp (when
 * the policy has a syscalls block), Landlock (its tier set by
 * landlock_prepare), the network (net.c: `net none` and `net filtered`
 * are enforced or refused, never degraded; `net host` or no net section
 * shares the host's network: off), the environment and limits (limits.c
 * picks each limit's tier and creates the box's cgroups here). With
 * --require-enforced, a degraded layer is a refusal.
 */
static void decide_layers(const struct policy *p, struct record *r,
			  int require_enforced)
{
	int l;

	r->layers[LAYER_SECCOMP].tier = p->nfilter ? TIER_ENFORCED : TIER_OFF;
	/* net.c: the box's own network namespace, and pasta with the
	 * egress table where the policy needs them; no NET section: the
	 * host's network, which is not containment (off). */
	net_plan(p, &r->layers[LAYER_NET]);
	limits_plan(p, &r->layers[LAYER_LIMITS]);
	r->layers[LAYER_ENV].tier = TIER_ENFORCED;
	if (!require_enforced)
		return;
	for (l = 0; l < LAYER_COUNT; l++)
		if (r->layers[l].tier == TIER_DEGRADED)
			die("layers: %s would be degraded (%s) and "
			    "--require-enforced was given",
			    layer_name((enum layer)l), r->layers[l].reason);
}

/* Signals the parent passes on to the box. */
static const int forwarded[] = {SIGINT,	 SIGTERM, SIGHUP,
				SIGQUIT, SIGUSR1, SIGUSR2};
#define NFORWARDED ((int)(sizeof(forwarded) / sizeof(forwarded[0])))

/* The child's pid while it may be signalled; 0 once it is being reaped. */
static volatile sig_atomic_t box_pid;

static void forward(int sig)
{
	int saved = errno;

	if (box_pid > 0)
		kill((pid_t)box_pid, sig);
	errno = saved;
}

static void forwarded_set(sigset_t *set)
{
	int i;

	if (sigemptyset(set) < 0)
		die_with_error("signals: sigemptyset");
	for (i = 0; i < NFORWARDED; i++)
		if (sigaddset(set, forwarded[i]) < 0)
			die_with_error("signals: sigaddset(%d)", forwarded[i]);
}

/*
 * After it: the forwarded signals are blocked and have our handler, so one
 * that arrives before the child's pid is known waits until it is.
 */
static void prepare_signals(sigset_t *set)
{
	struct sigaction sa;
	int i;

	forwarded_set(set);
	if (sigprocmask(SIG_BLOCK, set, NULL) < 0)
		die_with_error("signals: sigprocmask(SIG_BLOCK)");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	if (sigemptyset(&sa.sa_mask) < 0)
		die_with_error("signals: sigemptyset");
	for (i = 0; i < NFORWARDED; i++)
		if (sigaction(forwarded[i], &sa, NULL) < 0)
			die_with_error("signals: sigaction(%d)", forwarded[i]);
}

/*
 * Waits for the child to end without reaping it (WNOWAIT), stops
 * forwarding, then reaps: a forwarded signal can never reach a recycled
 * pid. Returns waitpid()'s status.
 */
static int wait_box(pid_t pid, const sigset_t *set)
{
	struct rusage ru;
	siginfo_t info;
	int status;

	/* limits_run.c: the wall clock, when the policy has one */
	limits_wait(pid);
	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) == 0)
			break;
		if (errno != EINTR)
			die_with_error("wait: waitid(%d)", (int)pid);
	}
	if (sigprocmask(SIG_BLOCK, set, NULL) < 0)
		die_with_error("wait: sigprocmask(SIG_BLOCK)");
	box_pid = 0;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die_with_error("wait: wait4(%d)", (int)pid);
	/* limits_run.c: what was hit; cgroups gone */
	limits_finish(status, &ru);
	return status;
}

struct child_args {
	const struct policy *p;
	const struct ll_run *ll;
	char **envp, **argv;
	pid_t parent;
};

static int child_main(void *arg)
{
	const struct child_args *a = arg;

	child_exec(a->p, a->ll, a->envp, a->argv, a->parent);
}

/*
 * The child runs on a stack of its own in our address space until it execs
 * (CLONE_VM | CLONE_VFORK, as posix_spawn does): no page tables are copied,
 * which is most of fork()'s cost where those copies are slow (virtualized
 * page tables). We stay suspended until its execve or _exit. The child
 * writes nothing of ours but this stack and errno (which we do not read
 * after clone() succeeds); child.c leaves only through execve or _exit.
 * Its fd table and signal handlers are its own copies (no CLONE_FILES,
 * no CLONE_SIGHAND).
 */
static char child_stack[64 << 10] __attribute__((aligned(16)));

/* After it: the command ran and ended; returns polexec's exit code. */
static int run(const struct policy *p, const struct ll_run *ll, char **envp,
	       char **argv)
{
	struct child_args ca = {p, ll, envp, argv, getpid()};
	sigset_t set;
	int status, code;
	pid_t pid;

	prepare_signals(&set);
	pid = clone(child_main, child_stack + sizeof(child_stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &ca);
	if (pid < 0)
		die_with_error("run: clone");
	boxns_after_clone();
	if (die_child_failure()) {
		/* The child refused before execve (it said why on stderr):
		 * the command never ran, and the record says so. */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		refusal_hook(die_child_failure());
		return POLEXEC_EXIT_REFUSED;
	}
	box_pid = pid;
	/* The child has exec'd (CLONE_VFORK): our copy is of no more use. */
	if (ll->ruleset_fd >= 0 && close(ll->ruleset_fd) < 0) {
		kill(pid, SIGKILL);
		die_with_error("run: close(ruleset)");
	}
	if (sigprocmask(SIG_UNBLOCK, &set, NULL) < 0) {
		kill(pid, SIGKILL);
		die_with_error("run: sigprocmask(SIG_UNBLOCK)");
	}
	status = wait_box(pid, &set);
	net_finish();	    /* net.c: the blocked destinations; pasta stopped */
	die_set_hook(NULL); /* the command ran: no refusal record from here */
	if (WIFSIGNALED(status))
		code = 128 + WTERMSIG(status);
	else
		code = WEXITSTATUS(status);
	if (record_finish(&record, status, code) < 0) {
		/* The command already ran: report, keep its status. */
		fprintf(stderr, "polexec: record: write: %s\n",
			strerror(errno));
	}
	return code;
}

/*
 * After it: polexec is not dumpable, so a box running as the same user can
 * neither ptrace it nor read its /proc/PID/environ, mem or fds. execve
 * gives the box its own, normal dumpable state.
 */
static void protect_self(void)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		die_with_error("self: prctl(PR_SET_DUMPABLE, 0)");
}

int main(int argc, char **argv)
{
	static struct policy policy;
	static struct ll_run ll;
	struct args a;
	char **envp;

	record.start_ns = monotonic_ns();
	parse_args(argc, argv, &a);
	protect_self();
	record.command = a.argv[0];
	if (a.record)
		record_open(&record, a.record);
	die_set_hook(refusal_hook);
	record.policy = &policy;
	artifact_load(a.artifact, &policy);
	landlock_prepare(&policy, &a.vars, &ll, &record.layers[LAYER_LANDLOCK]);
	record.ll = &ll;
	decide_layers(&policy, &record, a.require_enforced);
	envp = env_build(&policy, &a.vars);
	secrets_prepare(&policy, &a.vars); /* secrets.c */
	net_prepare(&policy, &a.vars);	   /* net.c: names pinned */
	net_start();			   /* net.c: namespaces, table, pasta */
	return run(&policy, &ll, envp, a.argv);
}
