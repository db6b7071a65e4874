/* SPDX-License-Identifier: MIT */
/*
 * The run record: one JSON object saying what was enforced and how the
 * command ended. It is opened before anything runs (so a bad path is a
 * refusal, not a lost record) and written once, after the command exits or
 * when polexec refuses. Strings are JSON-escaped; control characters are
 * removed, since some of them came from the artifact.
 *
 *   {"schema_version":1, "polexec":"0.1.0",
 *    "policy":{"name", "source_sha256", "ir_sha256", "compiler",
 *              "artifact_sha256"},
 *    "layers":{"seccomp":{"tier":"enforced"}, "landlock":{"tier":"off"},
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
 *              (limits_record.c, a run only),
 *    "secrets":["NAME",...] (secrets.c),
 *    "outcome":"exited" | "signaled" | "refused",
 *    "exit_status":N | null, "signal":N | null, "signal_name":"SIGSYS",
 *    "exit_code":N, "reason":"..." (refused only), "duration_ms":N.NNN}
 */
#include "polexec.h"
#include "sections.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RECORD_SCHEMA_VERSION 1
/* Up to 1024 Landlock rules with bound paths of up to 4 KiB each. */
#define RECORD_MAX (16u << 20)

struct out {
	char *s;
	size_t len, cap;
	int overflow;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->s ? o->s + o->len : NULL, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= o->cap - o->len &&
	    o->len + (size_t)n < RECORD_MAX) {
		/* grow, then format again into the room now there */
		size_t cap = (o->len + (size_t)n + 1) * 2;
		char *s = realloc(o->s, cap < RECORD_MAX ? cap : RECORD_MAX);

		if (!s) {
			o->overflow = 1;
			return;
		}
		o->s = s;
		o->cap = cap < RECORD_MAX ? cap : RECORD_MAX;
		va_start(ap, fmt);
		n = vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
	}
	if (n < 0 || (size_t)n >= o->cap - o->len)
		o->overflow = 1;
	else
		o->len += (size_t)n;
}

/* A JSON string: quotes and backslashes escaped, control chars dropped. */
/* A JSON string: control characters dropped, and bytes that are not
 * well-formed UTF-8 (or C1 controls) replaced, so the record always
 * parses whatever the artifact or the caller handed us. */
static void put_str(struct out *o, const char *s)
{
	char *clean = s ? xstrndup(s, strlen(s)) : NULL;
	const char *p;

	if (clean)
		strip_controls(clean);
	put(o, "\"");
	for (p = clean; p && *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
	free(clean);
}

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		die_with_error("clock: clock_gettime(CLOCK_MONOTONIC)");
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *layer_name(enum layer l)
{
	static const char *const names[LAYER_COUNT] = {
	    [LAYER_SECCOMP] = "seccomp", [LAYER_LANDLOCK] = "landlock",
	    [LAYER_NET] = "net",	 [LAYER_LIMITS] = "limits",
	    [LAYER_ENV] = "env",
	};

	return names[l];
}

void record_open(struct record *r, const char *path)
{
	/* O_NOFOLLOW: a planted symlink cannot redirect the record. */
	r->fd = open(
	    path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (r->fd < 0)
		die_with_error("record: open %s", path);
}

static void put_policy(struct out *o, const struct policy *p)
{
	put(o, "\"policy\":{\"name\":");
	put_str(o, p ? p->name : NULL);
	put(o, ",\"source_sha256\":");
	put_str(o, p ? p->source_sha256 : NULL);
	put(o, ",\"ir_sha256\":");
	put_str(o, p ? p->ir_sha256 : NULL);
	put(o, ",\"compiler\":");
	put_str(o, p ? p->compiler : NULL);
	put(o, ",\"artifact_sha256\":");
	put_str(o, p ? p->artifact_sha256 : NULL);
	put(o, "},\n");
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
static void put_bits(struct out *o, uint64_t bits, const char *const *names,
		     unsigned n)
{
	const char *sep = "";
	unsigned i;

	put(o, "[");
	for (i = 0; i < n; i++) {
		if (bits & (1ull << i)) {
			put(o, "%s", sep);
			put_str(o, names[i]);
			sep = ",";
		}
	}
	put(o, "]");
}

static void put_ll_sets(struct out *o, const char *key, uint64_t fs,
			uint64_t net, uint64_t scoped)
{
	put(o, ",\"%s\":{\"fs\":", key);
	put_bits(o, fs, ll_fs_names, 16);
	put(o, ",\"net\":");
	put_bits(o, net, ll_net_names, 2);
	put(o, ",\"scoped\":");
	put_bits(o, scoped, ll_scope_names, 2);
	put(o, "}");
}

/* What the Landlock layer installed: the rules as bound, what was not. */
static void put_landlock(struct out *o, const struct ll_spec *l,
			 const struct ll_run *run)
{
	uint32_t i;

	put(o, ",\"abi\":%d,\"requires\":{\"abi\":%u,\"mode\":\"%s\"}",
	    run->abi, l->abi_min,
	    l->mode == POLBIN_LL_REQUIRE ? "require" : "best_effort");
	put_ll_sets(o, "handled", run->fs, run->net, run->scoped);
	put_ll_sets(o, "dropped", run->dropped_fs, run->dropped_net,
		    run->dropped_scoped);
	put(o, ",\n \"rules\":[");
	for (i = 0; i < l->nfs; i++) {
		const struct ll_rule *r = &l->fs[i];

		put(o, "%s{\"path\":", i ? ",\n  " : "");
		put_str(o, r->path);
		put(o, ",\"bound\":");
		put_str(o, r->bound);
		if (r->skipped) {
			put(o, ",\"skipped\":");
			put_str(o, r->skipped);
		} else {
			put(o, ",\"rights\":");
			put_bits(o, r->installed, ll_fs_names, 16);
		}
		put(o, "}");
	}
	put(o, "],\n \"ports\":[");
	for (i = 0; i < l->nports; i++) {
		const struct ll_range *p = &l->ports[i];

		put(o, "%s{\"access\":\"%s\",\"lo\":%u,\"hi\":%u%s}",
		    i ? "," : "", ll_net_names[p->access - 1], p->lo, p->hi,
		    p->access & run->net ? "" : ",\"skipped\":\"dropped\"");
	}
	put(o, "],\"port_rules\":%u,\"warnings\":[", run->nports);
	for (i = 0; i < run->nwarn; i++) {
		put(o, "%s", i ? "," : "");
		put_str(o, run->warn[i]);
	}
	put(o, "]");
}

/* A refused run enforced nothing: every layer is then "off". */
static void put_layers(struct out *o, const struct record *r, int refused)
{
	int l;

	put(o, "\"layers\":{");
	for (l = 0; l < LAYER_COUNT; l++) {
		struct layer_state s = r->layers[l];

		if (refused)
			s.tier = TIER_OFF;
		put(o, "%s\"%s\":{\"tier\":", l ? "," : "",
		    layer_name((enum layer)l));
		if (s.tier == TIER_ENFORCED) {
			put(o, "\"enforced\"");
		} else if (s.tier == TIER_DEGRADED) {
			/* "degraded(reason)", as the brief spells it */
			char t[300];

			snprintf(t, sizeof(t), "degraded(%s)",
				 s.reason ? s.reason : "");
			put_str(o, t);
		} else {
			put(o, "\"off\"");
		}
		if (l == LAYER_NET)
			put(o, "%s", net_record(refused));
		if (l == LAYER_LANDLOCK && s.tier != TIER_OFF && r->ll &&
		    r->policy)
			put_landlock(o, &r->policy->ll, r->ll);
		put(o, "}");
	}
	put(o, "},\n");
}

static int write_out(struct record *r, struct out *o)
{
	size_t done = 0;

	if (o->overflow) {
		errno = EOVERFLOW;
		return -1;
	}
	while (done < o->len) {
		ssize_t n = write(r->fd, o->s + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	if (close(r->fd) < 0)
		return -1;
	r->fd = -1;
	return 0;
}

/* The limits' tiers and hits (limits_record.c), secrets' names (secrets.c). */
static void put_extra(struct out *o, int refused)
{
	char buf[4096];

	if (limits_record(buf, sizeof(buf), refused))
		put(o, "%s", buf);
	if (secrets_record(buf, sizeof(buf), refused))
		put(o, "%s", buf);
}

static void put_common(struct out *o, const struct record *r, int refused)
{
	put(o, "{\"schema_version\":%d,\n\"polexec\":", RECORD_SCHEMA_VERSION);
	put_str(o, POLC_VERSION);
	put(o, ",\n\"command\":");
	put_str(o, r->command);
	put(o, ",\n");
	put_policy(o, r->policy);
	put_layers(o, r, refused);
	put_extra(o, refused);
}

static void put_duration(struct out *o, const struct record *r)
{
	uint64_t ns = monotonic_ns() - r->start_ns;

	put(o, "\"duration_ms\":%llu.%03llu}\n",
	    (unsigned long long)(ns / 1000000),
	    (unsigned long long)(ns / 1000 % 1000));
}

int record_finish(struct record *r, int status, int exit_code)
{
	static struct out o;

	if (r->fd < 0)
		return 0;
	o.len = 0;
	put_common(&o, r, 0);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		put(&o,
		    "\"outcome\":\"signaled\",\"exit_status\":null,"
		    "\"signal\":%d,\"signal_name\":",
		    sig);
		put_str(&o, signal_name(sig));
	} else {
		put(&o,
		    "\"outcome\":\"exited\",\"exit_status\":%d,"
		    "\"signal\":null,\"signal_name\":null",
		    WEXITSTATUS(status));
	}
	put(&o, ",\"exit_code\":%d,\n", exit_code);
	put_duration(&o, r);
	return write_out(r, &o);
}

void record_refused(struct record *r, const char *reason)
{
	static struct out o;

	if (r->fd < 0)
		return;
	o.len = 0;
	put_common(&o, r, 1);
	put(&o,
	    "\"outcome\":\"refused\",\"exit_status\":null,\"signal\":null,"
	    "\"signal_name\":null,\"exit_code\":%d,\"reason\":",
	    POLEXEC_EXIT_REFUSED);
	put_str(&o, reason);
	put(&o, ",\n");
	put_duration(&o, r);
	if (write_out(r, &o) < 0) {
		/* We are already refusing; say so, the exit code stands. */
		char line[] = "polexec: record: could not write the record\n";

		if (write(STDERR_FILENO, line, sizeof(line) - 1) < 0)
			errno = 0;
	}
}
