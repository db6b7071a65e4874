/* SPDX-License-Identifier: MIT */
/*
 * The run record: one JSON object saying what was enforced and how the
 * command ended. It is opened before anything runs (so a bad path is a
 * refusal, not a lost record) and written once, after the command exits or
 * when polexec refuses, by the rule of docs/OUTPUT.md (outfile.c): a
 * regular file is replaced by a rename, never truncated; a character
 * device or a FIFO is written in place; anything else is refused. Strings are
 * JSON-escaped; control characters are removed, since some of them came from
 * the artifact.
 *
 * record.c knows no layer: each room hands it a writer for its part
 * (struct record_parts, wired in polexec.c), so the record sits above the
 * layers without reaching into them, and no layer reaches back.
 *
 *   {"schema_version":1, "polexec":"0.1.0", "command":"/bin/sh",
 *    "argv":["/bin/sh","-c","..."] | "redacted" | null, "argv_cut":false,
 *    "started_by":"polexec-sh" | null (put_argv),
 *    "policy":{"name", "source_sha256", "ir_sha256", "compiler",
 *              "artifact_sha256"},
 *    "layers":{"seccomp":{"tier":"enforced"}, "landlock":{"tier":"off"},
 *              "view":{"tier", "user":"caller"|{"uid","gid"},
 *                      "root":"own"|"host", and for a run with its own
 *                      root "entries", "pid_namespace", "memfd_noexec"}
 *                      (box/view.c, box/init.c),
 *              "net":{...}, "limits":{...}, "env":{...}},
 *      landlock, when on and the command ran, adds what was installed:
 *              "abi":7, "requires":{"abi":1,"mode":"require"},
 *              "handled":{"fs":[...],"net":[...],"scoped":[...]},
 *              "dropped":{"fs":[...],"net":[...],"scoped":[...]},
 *              "rules":[{"path":"${WS}","bound":"/w","rights":[...]} |
 *                       {"path":...,"bound":...,"skipped":"why"}],
 *              "ports":[{"access":"connect_tcp","lo":443,"hi":443}],
 *              "port_rules":N, "warnings":["..."] (landlock/record.c)
 *    "limits":{"mode", NAME:{"max","tier","status","on_exceed","hit"}...}
 *              (limits/limits.c, a run only),
 *    "secrets":["NAME",...] (secrets.c),
 *    "mode":"enforce" | "learn", "observation":{...}, "denials":[...],
 *    "denials_dropped":N, "side_effects":[...] (observe destructive),
 *    "side_effects_dropped":N (observe/denials.c, docs/OBSERVE.md),
 *    "outcome":"exited" | "signaled" | "refused",
 *    "exit_status":N | null, "signal":N | null, "signal_name":"SIGSYS",
 *    "exit_code":N, "reason":"..." (refused only), "duration_ms":N.NNN}
 */
#include "record.h"
#include "limits/limits.h"
#include "net/net.h"
#include "observe/observe.h"
#include "secrets.h"
#include "lib/util.h"
#include "box/view.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_SCHEMA_VERSION 1
#define RECORD_ARG_MAX	      256 /* bytes of each argument kept */
#define RECORD_ARGS	      64  /* arguments kept */

void record_open(struct record *r, const char *path)
{
	outfile_open(&r->out, "record", path);
	r->fd = r->out.fd;
}

static void put_policy(struct text *o, const struct policy *p)
{
	text_add(o, "\"policy\":{\"name\":");
	text_json(o, p ? p->name : NULL);
	text_add(o, ",\"source_sha256\":");
	text_json(o, p ? p->source_sha256 : NULL);
	text_add(o, ",\"ir_sha256\":");
	text_json(o, p ? p->ir_sha256 : NULL);
	text_add(o, ",\"compiler\":");
	text_json(o, p ? p->compiler : NULL);
	text_add(o, ",\"artifact_sha256\":");
	text_json(o, p ? p->artifact_sha256 : NULL);
	text_add(o, "},\n");
}

/* Names for the record; numbers past this table print as "SIG?". */
static const char *signal_name(int sig)
{
	static const char *const names[] = {
	    [SIGHUP] = "SIGHUP",       [SIGINT] = "SIGINT",
	    [SIGQUIT] = "SIGQUIT",     [SIGILL] = "SIGILL",
	    [SIGTRAP] = "SIGTRAP",     [SIGABRT] = "SIGABRT",
	    [SIGBUS] = "SIGBUS",       [SIGFPE] = "SIGFPE",
	    [SIGKILL] = "SIGKILL",     [SIGUSR1] = "SIGUSR1",
	    [SIGSEGV] = "SIGSEGV",     [SIGUSR2] = "SIGUSR2",
	    [SIGPIPE] = "SIGPIPE",     [SIGALRM] = "SIGALRM",
	    [SIGTERM] = "SIGTERM",     [SIGCHLD] = "SIGCHLD",
	    [SIGCONT] = "SIGCONT",     [SIGSTOP] = "SIGSTOP",
	    [SIGTSTP] = "SIGTSTP",     [SIGTTIN] = "SIGTTIN",
	    [SIGTTOU] = "SIGTTOU",     [SIGURG] = "SIGURG",
	    [SIGXCPU] = "SIGXCPU",     [SIGXFSZ] = "SIGXFSZ",
	    [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	    [SIGWINCH] = "SIGWINCH",   [SIGIO] = "SIGIO",
	    [SIGPWR] = "SIGPWR",       [SIGSYS] = "SIGSYS",
	};

	if (sig > 0 && (size_t)sig < sizeof(names) / sizeof(names[0]) &&
	    names[sig])
		return names[sig];
	return "SIG?";
}

/* A refused run enforced nothing: every layer is then "off". */
static void put_layers(struct text *o, const struct record *r, int refused)
{
	int l;

	text_add(o, "\"layers\":{");
	for (l = 0; l < LAYER_COUNT; l++) {
		struct layer_state s = r->layers[l];

		if (refused)
			s.tier = TIER_OFF;
		text_add(o, "%s\"%s\":{\"tier\":", l ? "," : "",
			 layer_name((enum layer)l));
		/* learn mode certifies nothing (observe/observe.h) */
		if (s.tier != TIER_OFF && r->learn) {
			s.tier = TIER_DEGRADED;
			s.reason = "learn mode: what the policy denies was "
				   "allowed, nothing is certified";
		}
		if (s.tier == TIER_ENFORCED) {
			text_add(o, "\"enforced\"");
		} else if (s.tier == TIER_DEGRADED) {
			/* "degraded(reason)", as the brief spells it */
			char t[300];

			snprintf(t, sizeof(t), "degraded(%s)",
				 s.reason ? s.reason : "");
			text_json(o, t);
		} else {
			text_add(o, "\"off\"");
		}
		if (r->parts.layer[l])
			r->parts.layer[l](o, s.tier, refused);
		text_add(o, "}");
	}
	text_add(o, "},\n");
}

/* The record into its file, put in place; on failure, why, on stderr
 * (the exit code stands either way). */
static void write_out(struct record *r, struct text *o)
{
	char err[512] = "";
	size_t done = 0;

	/* A FIFO whose reader left: EPIPE, not a SIGPIPE that would take
	 * the command's exit code with it. The box has exec'd already. */
	signal(SIGPIPE, SIG_IGN);
	if (o->overflow)
		snprintf(err, sizeof(err), "%s", strerror(EOVERFLOW));
	while (!err[0] && done < o->len) {
		ssize_t n = write(r->fd, o->s + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			snprintf(err, sizeof(err), "%s", strerror(errno));
		else
			done += (size_t)n;
	}
	if (err[0]) {
		/* Nothing is put in place: what was at the path stays. */
		close(r->fd);
		if (r->out.tmp)
			unlink(r->out.tmp);
	} else {
		outfile_commit(&r->out, err, sizeof(err));
	}
	r->fd = r->out.fd = -1;
	if (err[0])
		out(STDERR_FILENO, "polexec: record: %s: %s\n", r->out.path,
		    err);
}

/*
 * The command line: "argv" each element cut at RECORD_ARG_MAX bytes, at
 * most RECORD_ARGS of them ("argv_cut" says whether anything was left
 * out), "redacted" where the policy says `observe argv redacted`, null
 * where the artifact does not say (an older polc, or no artifact read);
 * "started_by" the program that asked (polexec-sh), or null.
 */
static void put_argv(struct text *o, const struct record *r)
{
	const char *how = r->policy ? r->policy->record_argv : NULL;
	int cut = 0;
	size_t i;

	text_add(o, "\"argv\":");
	if (how && !strcmp(how, "redacted")) {
		text_add(o, "\"redacted\"");
	} else if (how && !strcmp(how, "record") && r->argv) {
		text_add(o, "[");
		for (i = 0; r->argv[i]; i++) {
			char part[RECORD_ARG_MAX + 1];
			size_t n = strlen(r->argv[i]);

			if (i == RECORD_ARGS) {
				cut = 1;
				break;
			}
			cut |= n > RECORD_ARG_MAX;
			snprintf(part, sizeof(part), "%s", r->argv[i]);
			text_add(o, "%s", i ? "," : "");
			text_json(o, part);
		}
		text_add(o, "],\"argv_cut\":%s", cut ? "true" : "false");
	} else {
		text_add(o, "null");
	}
	text_add(o, ",\"started_by\":");
	if (r->started_by)
		text_json(o, r->started_by);
	else
		text_add(o, "null");
	text_add(o, ",\n");
}

static void put_common(struct text *o, const struct record *r, int refused)
{
	text_add(
	    o, "{\"schema_version\":%d,\n\"polexec\":", RECORD_SCHEMA_VERSION);
	text_json(o, POLC_VERSION);
	text_add(o, ",\n\"command\":");
	text_json(o, r->command);
	text_add(o, ",\n");
	put_argv(o, r);
	put_policy(o, r->policy);
	put_layers(o, r, refused);
	if (r->parts.observed) /* mode, denials, side effects */
		r->parts.observed(o, refused);
	if (!refused) {
		if (r->parts.limits) /* the limits' tiers and hits */
			r->parts.limits(o);
		if (r->parts.secrets) /* the secrets' names */
			r->parts.secrets(o);
	}
}

static void put_duration(struct text *o, const struct record *r)
{
	uint64_t ns = monotonic_ns() - r->start_ns;

	text_add(o, "\"duration_ms\":%llu.%03llu}\n",
		 (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
}

int record_finish(struct record *r, int status)
{
	static struct text o;
	int code =
	    WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);

	if (r->fd < 0)
		return code;
	put_common(&o, r, 0);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		text_add(&o,
			 "\"outcome\":\"signaled\",\"exit_status\":null,"
			 "\"signal\":%d,\"signal_name\":",
			 sig);
		text_json(&o, signal_name(sig));
	} else {
		text_add(&o,
			 "\"outcome\":\"exited\",\"exit_status\":%d,"
			 "\"signal\":null,\"signal_name\":null",
			 WEXITSTATUS(status));
	}
	text_add(&o, ",\"exit_code\":%d,\n", code);
	put_duration(&o, r);
	write_out(r, &o); /* the command already ran: its status stands */
	return code;
}

void record_refused(struct record *r, const char *reason)
{
	static struct text o;

	if (r->fd < 0)
		return;
	put_common(&o, r, 1);
	text_add(&o,
		 "\"outcome\":\"refused\",\"exit_status\":null,\"signal\":null,"
		 "\"signal_name\":null,\"exit_code\":%d,\"reason\":",
		 POLEXEC_EXIT_REFUSED);
	text_json(&o, reason);
	text_add(&o, ",\n");
	put_duration(&o, r);
	write_out(r, &o); /* we are refusing already: 125 stands */
}
