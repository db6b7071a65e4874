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
 *   {"schema_version":1, "polexec":"0.1.0",
 *    "policy":{"name", "source_sha256", "ir_sha256", "compiler",
 *              "artifact_sha256"},
 *    "layers":{"seccomp":{"tier":"enforced"}, "landlock":{"tier":"off"},
 *              "view":{"tier", "user":"caller"|{"uid","gid"},
 *                      "root":"own"|"host", and for a run with its own
 *                      root "entries", "pid_namespace", "memfd_noexec"}
 *                      (view.c, init.c),
 *              "net":{...}, "limits":{...}, "env":{...}},
 *      landlock, when on and the command ran, adds what was installed:
 *              "abi":7, "requires":{"abi":1,"mode":"require"},
 *              "handled":{"fs":[...],"net":[...],"scoped":[...]},
 *              "dropped":{"fs":[...],"net":[...],"scoped":[...]},
 *              "rules":[{"path":"${WS}","bound":"/w","rights":[...]} |
 *                       {"path":...,"bound":...,"skipped":"why"}],
 *              "ports":[{"access":"connect_tcp","lo":443,"hi":443}],
 *              "port_rules":N, "warnings":["..."]
 *    "limits":{"mode", NAME:{"max","tier","status","on_exceed","hit"}...}
 *              (limits.c, a run only),
 *    "secrets":["NAME",...] (secrets.c),
 *    "mode":"enforce" | "learn", "observation":{...}, "denials":[...],
 *    "denials_dropped":N, "side_effects":[...] (observe destructive),
 *    "side_effects_dropped":N (denials.c, docs/OBSERVE.md),
 *    "outcome":"exited" | "signaled" | "refused",
 *    "exit_status":N | null, "signal":N | null, "signal_name":"SIGSYS",
 *    "exit_code":N, "reason":"..." (refused only), "duration_ms":N.NNN}
 */
#include "record.h"
#include "limits.h"
#include "net.h"
#include "observe.h"
#include "secrets.h"
#include "util.h"
#include "view.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_SCHEMA_VERSION 1

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

/* A JSON array of the names of bits. */
static void put_bits(struct text *o, uint64_t bits, const char *const *names,
		     unsigned n)
{
	const char *sep = "";
	unsigned i;

	text_add(o, "[");
	for (i = 0; i < n; i++) {
		if (bits & (1ull << i)) {
			text_add(o, "%s", sep);
			text_json(o, names[i]);
			sep = ",";
		}
	}
	text_add(o, "]");
}

static void put_ll_sets(struct text *o, const char *key, uint64_t fs,
			uint64_t net, uint64_t scoped)
{
	text_add(o, ",\"%s\":{\"fs\":", key);
	put_bits(o, fs, ll_fs_names, 17);
	text_add(o, ",\"net\":");
	put_bits(o, net, ll_net_names, 2);
	text_add(o, ",\"scoped\":");
	put_bits(o, scoped, ll_scope_names, 2);
	text_add(o, "}");
}

/* What the Landlock layer installed: the rules as bound, what was not. */
static void put_landlock(struct text *o, const struct ll_spec *l,
			 const struct ll_run *run)
{
	uint32_t i;

	text_add(o, ",\"abi\":%d,\"requires\":{\"abi\":%u,\"mode\":\"%s\"}",
		 run->abi, l->abi_min,
		 l->mode == POLBIN_LL_REQUIRE ? "require" : "best_effort");
	put_ll_sets(o, "handled", run->fs, run->net, run->scoped);
	put_ll_sets(o, "dropped", run->dropped_fs, run->dropped_net,
		    run->dropped_scoped);
	text_add(o, ",\n \"rules\":[");
	for (i = 0; i < l->nfs; i++) {
		const struct ll_rule *r = &l->fs[i];

		text_add(o, "%s{\"path\":", i ? ",\n  " : "");
		text_json(o, r->path);
		text_add(o, ",\"bound\":");
		text_json(o, r->bound);
		if (r->skipped) {
			text_add(o, ",\"skipped\":");
			text_json(o, r->skipped);
		} else {
			text_add(o, ",\"rights\":");
			put_bits(o, r->installed, ll_fs_names, 17);
		}
		text_add(o, "}");
	}
	text_add(o, "],\n \"ports\":[");
	for (i = 0; i < l->nports; i++) {
		const struct ll_range *p = &l->ports[i];

		text_add(
		    o, "%s{\"access\":\"%s\",\"lo\":%u,\"hi\":%u%s}",
		    i ? "," : "", ll_net_names[p->access - 1], p->lo, p->hi,
		    p->access & run->net ? "" : ",\"skipped\":\"dropped\"");
	}
	text_add(o, "],\"port_rules\":%u,\"warnings\":[", run->nports);
	for (i = 0; i < run->nwarn; i++) {
		text_add(o, "%s", i ? "," : "");
		text_json(o, run->warn[i]);
	}
	text_add(o, "]");
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
		/* learn mode certifies nothing (observe.h) */
		if (s.tier != TIER_OFF && supervise_learning()) {
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
		if (l == LAYER_NET)
			net_record(o, refused);
		if (l == LAYER_VIEW)
			view_record(o, refused);
		if (l == LAYER_LANDLOCK && s.tier != TIER_OFF && r->ll &&
		    r->policy)
			put_landlock(o, &r->policy->ll, r->ll);
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

static void put_common(struct text *o, const struct record *r, int refused)
{
	text_add(
	    o, "{\"schema_version\":%d,\n\"polexec\":", RECORD_SCHEMA_VERSION);
	text_json(o, POLC_VERSION);
	text_add(o, ",\n\"command\":");
	text_json(o, r->command);
	text_add(o, ",\n");
	put_policy(o, r->policy);
	put_layers(o, r, refused);
	observe_record(o, refused); /* mode, denials, side effects */
	if (!refused) {
		limits_record(o);  /* the limits' tiers and hits */
		secrets_record(o); /* the secrets' names */
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
