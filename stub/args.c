/* SPDX-License-Identifier: MIT */
/* The command line: options, ARTIFACT, `--`, the command. */
#include "args.h"
#include "lib/util.h"
#include "net/net.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: polexec [--record FILE] [--var NAME=VALUE]... "
    "[--require-enforced] [--quiet] [--explain[=end]] [--started-by NAME] "
    "[--learn]\n"
    "               [--net-backend cgroup|namespace|broker] ARTIFACT -- "
    "CMD "
    "[ARGS...]\n"
    "       polexec --doctor ARTIFACT | --help | --version\n"
    "\n"
    "Runs CMD under the policy compiled into ARTIFACT (a .polbin from "
    "polc build).\n"
    "  --record FILE        write the run record (JSON) to FILE\n"
    "  --var NAME=VALUE     bind ${NAME} in the policy (else polexec's "
    "environment)\n"
    "  --require-enforced   refuse if any layer would be degraded\n"
    "  --quiet              no warning on stderr (a degraded layer is\n"
    "                       still in the record, and refusals are said)\n"
    "  --explain[=end]      one line on stderr per distinct denial, when\n"
    "                       first seen (=end: all after the command ended;\n"
    "                       the record has them either way)\n"
    "  --started-by NAME    the program that started polexec, for the "
    "record\n"
    "  --learn              PROFILE A TRUSTED WORKLOAD, NEVER HOSTILE CODE:\n"
    "                       calls and file accesses the policy would deny\n"
    "                       are allowed and recorded (polc suggest); the\n"
    "                       network stays enforced; no layer is certified\n"
    "  --net-backend B      egress by the box's own network namespace\n"
    "                       (namespace), its cgroup programs (cgroup:\n"
    "                       CAP_BPF and CAP_NET_ADMIN) or polexec's\n"
    "                       seccomp supervisor (broker: no privilege,\n"
    "                       TCP only); by default the first of these\n"
    "                       that can be had (the other two share the\n"
    "                       host's loopback)\n"
    "  --doctor ARTIFACT    what ARTIFACT needs, found or missing here; "
    "exit 1\n"
    "                       unless all of it is (the kernel's features: "
    "polc doctor)\n"
    "Exit: the command's status; 128+N if killed by signal N; 126 not "
    "executable;\n"
    "127 not found; 125 polexec refused or failed (the command did not "
    "run).\n";

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

void parse_args(char **argv, struct args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; argv[i]; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			exit(out(STDOUT_FILENO, "%s", usage) == 0
				 ? 0
				 : POLEXEC_EXIT_REFUSED);
		} else if (strcmp(arg, "--version") == 0) {
			exit(out(STDOUT_FILENO, "polexec %s\n", POLC_VERSION) ==
				     0
				 ? 0
				 : POLEXEC_EXIT_REFUSED);
		} else if (strcmp(arg, "--doctor") == 0) {
			a->doctor = 1;
			a->artifact = argv[i + 1]; /* ARTIFACT or NULL */
			return;
		} else if (is_opt(arg, "--record")) {
			if (a->record)
				die("args: --record given twice");
			a->record = opt_value(argv, &i, "--record");
		} else if (is_opt(arg, "--var")) {
			vars_add(&a->vars, opt_value(argv, &i, "--var"));
		} else if (strcmp(arg, "--require-enforced") == 0) {
			a->require_enforced = 1;
		} else if (strcmp(arg, "--quiet") == 0) {
			warnings_off();
		} else if (strcmp(arg, "--explain") == 0) {
			a->explain = 1;
		} else if (strcmp(arg, "--explain=end") == 0) {
			a->explain = 2;
		} else if (is_opt(arg, "--started-by")) {
			a->started_by = opt_value(argv, &i, "--started-by");
			if (!a->started_by[0] || strlen(a->started_by) > 32 ||
			    a->started_by[strspn(a->started_by,
						 "abcdefghijklmnopqrstuvwxyz"
						 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						 "0123456789._-")])
				die("args: --started-by takes a program's name "
				    "(letters, digits, . _ -; 32 at most)");
		} else if (strcmp(arg, "--learn") == 0) {
			a->learn = 1;
		} else if (is_opt(arg, "--net-backend")) {
			const char *v = opt_value(argv, &i, "--net-backend");

			if (!strcmp(v, "cgroup"))
				a->net_backend = NET_BACKEND_CGROUP;
			else if (!strcmp(v, "namespace"))
				a->net_backend = NET_BACKEND_NAMESPACE;
			else if (!strcmp(v, "broker"))
				a->net_backend = NET_BACKEND_BROKER;
			else
				die("args: --net-backend takes cgroup, "
				    "namespace or broker, not %.32s",
				    v);
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
