// SPDX-License-Identifier: MIT
/*
 * polc suggest --policy POLICY.pol RECORD... (docs/OBSERVE.md): the policy
 * again, whole, with the narrowest rule that would have allowed each
 * denial the run records name, each after a comment naming the denial.
 * It prints; it never applies anything. The user reviews the result with
 * `polc check --boundary POLICY.pol NEW.pol`, which lists exactly what it
 * widens.
 *
 *   seccomp  a syscall the default denied: `allow NAME`, with a condition
 *            on the arguments the policy's own rules for it test, or else
 *            on its selector (socket's family, prctl's option, fcntl's
 *            cmd), equal to what the record saw; a denial by an explicit
 *            rule, a companion or the bad-arch action is not widened, and
 *            a comment says so
 *   fs       the path itself for a file's rights; three files or more in
 *            one folder: the folder; paths written back with the policy's
 *            variables; a path the policy already names: a comment (one
 *            file cannot grant a path twice)
 *   net      a blocked destination as its host name where the address was
 *            a pinned name's, else the address, with its port
 *
 * The text is the policy file's own, with the new rules inserted before
 * the closing brace of the blocks they belong in; the semantic pass reads
 * the result before it is printed, so a suggestion that would not compile
 * is an error, never a broken policy. The syntax tree is read here (an
 * exception to "only sema reads ast.h") only to find where blocks end;
 * what to add comes from the IR and the records.
 */
#include "ast.h"
#include "backend/backend.h"
#include "cli.h"
#include "diag.h"
#include "ir/ir.h"
#include "polbin.h"
#include "sema/sema.h"
#include "suggest_int.h"
#include "support/support.h"
#include "tables/tables.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_RIGHTS                                                            \
	(IR_FS_EXECUTE | IR_FS_WRITE_FILE | IR_FS_READ_FILE | IR_FS_TRUNCATE | \
	 IR_FS_IOCTL_DEV)
#define WRITE_RIGHTS (IR_FS_RW & ~IR_FS_RO)
#define MAX_WHY	     5 /* denials named above one rule */

struct buf {
	FILE *f;
	char *s;
	size_t len;
};

static int buf_open(struct buf *b)
{
	b->s = NULL;
	b->len = 0;
	b->f = open_memstream(&b->s, &b->len);
	return b->f ? 0 : -1;
}

static int buf_close(struct buf *b)
{
	int rc = fclose(b->f);

	b->f = NULL;
	return rc;
}

/* ---- syscalls ----------------------------------------------------------- */

static int is_companion(const char *name, const struct ir_rule *r)
{
	for (size_t k = 0; k < ncompanions; k++)
		if (!strcmp(companions[k].name, name) &&
		    !ir_rule_cmp(&companions[k].rule, r))
			return 1;
	return 0;
}

/* The arguments a suggestion for `name` conditions on (bit i: arg i). */
static unsigned cond_args(const struct ir_policy *p, const char *name)
{
	const struct ir_syscall *sc = ir_find_syscall(&p->sys, name);
	unsigned bits = 0, table;

	for (uint32_t r = 0; sc && r < sc->nrules; r++)
		if (!is_companion(name, &sc->rules[r]))
			for (uint32_t a = 0; a < sc->rules[r].natoms; a++)
				bits |= 1u << sc->rules[r].atoms[a].arg;
	if (bits)
		return bits;
	for (unsigned a = 0; a < 6; a++)
		if (observe_arg_format(name, a, &table) == POLBIN_OBS_ARG_ENUM)
			return 1u << a;
	return 0;
}

/* An argument's value as a policy writes it: its name, or hex. */
static void value_text(FILE *f, const char *name, unsigned a, uint64_t v)
{
	const char *c = observe_value_name(name, a, v);

	if (c)
		fputs(c, f);
	else
		fprintf(f, "0x%llx", (unsigned long long)v);
}

/* An argument's value at the width the kernel reads it. */
static uint64_t arg_value(const char *name, unsigned a, uint64_t v)
{
	const struct syscall_args *sa = syscall_args_find(name);

	return sa && a < sa->nargs && sa->args[a].width == 32 ? (uint32_t)v : v;
}

static const char *arg_name(const char *name, unsigned a, char *buf, size_t len)
{
	const struct syscall_args *sa = syscall_args_find(name);

	if (sa && a < sa->nargs)
		return sa->args[a].name;
	snprintf(buf, len, "arg%u", a);
	return buf;
}

/* The rules for one syscall's default denials, each after its comments. */
static void suggest_syscall(const struct ir_policy *p, const char *name,
			    const struct sug_input *in, FILE *f, int *added)
{
	unsigned bits = cond_args(p, name), a, nbits = 0, nwhy = 0;
	uint64_t seen[64];
	size_t nseen = 0, i, j;
	char an[16];

	for (i = 0; i < in->n; i++) {
		const struct sug_denial *d = &in->d[i];

		if (d->layer != SUG_SECCOMP || strcmp(d->syscall, name) ||
		    strcmp(d->by, "default"))
			continue;
		if (nwhy++ < MAX_WHY)
			fprintf(f,
				"    # polc suggest: %s, %u time%s, denied "
				"by %s%s\n",
				d->call, d->count, d->count == 1 ? "" : "s",
				d->rule, d->learned ? " (learn mode)" : "");
	}
	if (nwhy > MAX_WHY)
		fprintf(f, "    # polc suggest: and %u more\n", nwhy - MAX_WHY);
	for (a = 0; a < 6; a++)
		nbits += bits >> a & 1;
	if (!bits) {
		fprintf(f, "    allow %s\n", name);
		++*added;
		return;
	}
	/* The distinct argument vectors, on the arguments conditioned. */
	for (i = 0; i < in->n && nseen < 64 / 6; i++) {
		const struct sug_denial *d = &in->d[i];
		uint64_t v[6] = {0};
		int dup = 0;

		if (d->layer != SUG_SECCOMP || strcmp(d->syscall, name) ||
		    strcmp(d->by, "default"))
			continue;
		for (a = 0; a < 6; a++)
			if (bits >> a & 1)
				v[a] = arg_value(name, a, d->args[a]);
		for (j = 0; j < nseen && !dup; j++)
			dup = !memcmp(&seen[6 * j], v, sizeof(v));
		if (!dup)
			memcpy(&seen[6 * nseen++], v, sizeof(v));
	}
	if (nbits == 1) {
		for (a = 0; !(bits >> a & 1); a++)
			;
		fprintf(f, "    allow %s if %s %s", name,
			arg_name(name, a, an, sizeof(an)),
			nseen > 1 ? "in {" : "== ");
		for (j = 0; j < nseen; j++) {
			fputs(j ? ", " : "", f);
			value_text(f, name, a, seen[6 * j + a]);
		}
		fputs(nseen > 1 ? "}\n" : "\n", f);
		++*added;
		return;
	}
	for (j = 0; j < nseen; j++) {
		const char *sep = " if ";

		fprintf(f, "    allow %s", name);
		for (a = 0; a < 6; a++) {
			if (!(bits >> a & 1))
				continue;
			fprintf(f, "%s%s == ", sep,
				arg_name(name, a, an, sizeof(an)));
			value_text(f, name, a, seen[6 * j + a]);
			sep = " && ";
		}
		fputc('\n', f);
		++*added;
	}
}

/*
 * The record's "by" and "rule" are the box's word, and the record may come
 * from another policy: each seccomp denial is judged again by this
 * policy's own resolution (ir_explain_syscall) on the recorded arguments,
 * and "by" becomes "default", "rule" (the rule's text), "companion",
 * "allowed" (the policy allows the call now) or "unknown" (a name polc's
 * table lacks). Only "badarch" is kept as recorded: the arguments do not
 * say the arch, and it is never widened.
 */
static void rejudge(const struct ir_policy *p, struct sug_input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		struct sug_denial *d = &in->d[i];
		const struct ir_syscall *sc;
		struct ir_action a;
		char *text = NULL;
		size_t len = 0;
		FILE *f;
		int nr, r;

		if (d->layer != SUG_SECCOMP || !strcmp(d->by, "badarch"))
			continue;
		nr = syscall_ir_nr(d->syscall);
		if (nr < 0) {
			snprintf(d->by, sizeof(d->by), "unknown");
			continue;
		}
		sc = ir_syscall_for_nr(&p->sys, nr);
		a = ir_eval_syscall(&p->sys, sc, d->args);
		if (!p->sys.present || a.kind == IR_ACT_ALLOW ||
		    a.kind == IR_ACT_LOG) {
			snprintf(d->by, sizeof(d->by), "allowed");
			continue;
		}
		r = ir_explain_syscall(sc, d->args);
		if (r < 0) {
			char act[32];

			snprintf(d->by, sizeof(d->by), "default");
			snprintf(d->rule, sizeof(d->rule), "default %s",
				 ir_action_str(&p->sys.def, act, sizeof(act)));
			continue;
		}
		f = open_memstream(&text, &len);
		if (!f)
			continue;
		snprintf(d->by, sizeof(d->by), "%s",
			 observe_rule_text(f, sc, &sc->rules[r]) ? "companion"
								 : "rule");
		if (!fclose(f))
			snprintf(d->rule, sizeof(d->rule), "%s", text);
		free(text);
	}
}

/* What an explicit rule, a companion or the bad-arch action denied. */
static void not_widened(const struct sug_denial *d, FILE *notes)
{
	if (!strcmp(d->by, "allowed"))
		fprintf(notes,
			"# polc suggest: %s was denied when recorded; this "
			"policy allows it\n",
			d->call);
	else if (!strcmp(d->by, "unknown"))
		fprintf(notes,
			"# polc suggest: %s: a syscall polc's table does not "
			"name: not added\n",
			d->call);
	else if (!strcmp(d->by, "companion"))
		fprintf(notes,
			"# polc suggest: %s was refused by the egress "
			"companion `%s`: not widened (docs/LANGUAGE.md)\n",
			d->call, d->rule);
	else if (!strcmp(d->by, "badarch"))
		fprintf(notes,
			"# polc suggest: %s: a foreign arch's call, refused by "
			"`%s`: not widened\n",
			d->call, d->rule);
	else
		fprintf(notes,
			"# polc suggest: %s was denied by the policy's own "
			"rule `%s`: not widened; change that rule yourself if "
			"you mean to\n",
			d->call, d->rule);
}

static int suggest_syscalls(const struct ir_policy *p,
			    const struct sug_input *in, FILE *f, FILE *notes)
{
	int added = 0;

	for (size_t i = 0; i < in->n; i++) {
		const struct sug_denial *d = &in->d[i];
		int first = 1;

		if (d->layer != SUG_SECCOMP)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = in->d[j].layer != SUG_SECCOMP ||
				strcmp(in->d[j].syscall, d->syscall) ||
				strcmp(in->d[j].by, d->by) ||
				(strcmp(d->by, "default") &&
				 strcmp(in->d[j].call, d->call));
		if (!first)
			continue;
		if (strcmp(d->by, "default"))
			not_widened(d, notes);
		else
			suggest_syscall(p, d->syscall, in, f, &added);
	}
	return added;
}

/* ---- fs ------------------------------------------------------------------ */

struct fsug {
	char path[PATH_MAX];
	uint32_t rights;
	int n;	  /* denials behind it */
	int from; /* a file rule folded into its folder's: -1 none */
	char why[MAX_WHY][PATH_MAX + 64];
	int nwhy;
};

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static void parent_of(const char *path, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", path);
	slash = strrchr(out, '/');
	if (slash == out)
		out[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* The rights the policy's rules grant on path, as Landlock adds them up
 * (a rule on the path or a folder above it); a rule written with a
 * variable counts where the record says it was bound. */
static uint32_t policy_grants(const struct ir_policy *p,
			      const struct sug_input *in, const char *path)
{
	uint32_t g = 0;

	for (uint32_t r = 0; r < p->fs.nrules; r++) {
		const char *at = p->fs.rules[r].path;

		for (size_t m = 0; m < in->nmaps && at[0] != '/'; m++)
			if (!strcmp(in->maps[m].path, at))
				at = in->maps[m].bound;
		if (at[0] == '/' && under(path, at))
			g |= p->fs.rules[r].rights;
	}
	return g;
}

/* What the `dev` statement makes (docs/VIEW.md): the box's own. */
static int box_dev(const char *path)
{
	static const char *const names[] = {
	    "/dev/null",    "/dev/zero",   "/dev/full",	  "/dev/random",
	    "/dev/urandom", "/dev/tty",	   "/dev/ptmx",	  "/dev/fd",
	    "/dev/stdin",   "/dev/stdout", "/dev/stderr", "/dev/pts",
	    "/dev/shm"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (under(path, names[i]))
			return 1;
	return 0;
}

static int has_kind(const struct ir_policy *p, uint8_t kind)
{
	for (uint32_t r = 0; r < p->fs.nrules; r++)
		if (p->fs.rules[r].kind == kind)
			return 1;
	return 0;
}

/* /proc/self/..., /proc/thread-self/..., /proc/PID/...: a file of one
 * process, named differently in every run. */
static int per_process(const char *path)
{
	const char *c = path + 6;

	if (strncmp(path, "/proc/", 6))
		return 0;
	if (!strncmp(c, "self", 4) || !strncmp(c, "thread-self", 11))
		return 1;
	return c[0] >= '0' && c[0] <= '9' &&
	       (c[strspn(c, "0123456789")] == '/' ||
		!c[strspn(c, "0123456789")]);
}

/* Written in quotes as it is: no quote, backslash or variable. */
static int plain_path(const char *p)
{
	return p[0] == '/' && !strpbrk(p, "\"\\$");
}

static struct fsug *fs_find(struct fsug *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return &v[i];
	return NULL;
}

static void why_add(struct fsug *s, const char *what)
{
	if (s->nwhy < MAX_WHY)
		snprintf(s->why[s->nwhy++], sizeof(s->why[0]), "%s", what);
}

static void rights_text(FILE *f, uint32_t rights)
{
	static const char *const names[16] = {
	    "execute",	  "write_file",	 "read_file", "read_dir",
	    "remove_dir", "remove_file", "make_char", "make_dir",
	    "make_reg",	  "make_sock",	 "make_fifo", "make_block",
	    "make_sym",	  "refer",	 "truncate",  "ioctl_dev",
	};
	const char *sep = "";

	for (unsigned i = 0; i < 16; i++)
		if (rights >> i & 1) {
			fprintf(f, "%s%s", sep, names[i]);
			sep = " ";
		}
}

/* The path as the policy would write it: a bound variable's prefix as the
 * variable (the longest that fits). */
static void as_written(const struct ir_policy *p, const struct sug_input *in,
		       const char *path, char *out, size_t len)
{
	const struct sug_map *best = NULL;

	for (size_t i = 0; i < in->nmaps; i++) {
		int ours = 0;

		/* The record's variables: only those the policy writes. */
		for (uint32_t r = 0; r < p->fs.nrules && !ours; r++)
			ours = !strcmp(p->fs.rules[r].path, in->maps[i].path);
		if (ours && under(path, in->maps[i].bound) &&
		    (!best || strlen(in->maps[i].bound) > strlen(best->bound)))
			best = &in->maps[i];
	}
	if (best)
		snprintf(out, len, "%s%s", best->path,
			 path + strlen(best->bound));
	else
		snprintf(out, len, "%s", path);
}

/* The lints of sema_fs.c that make a write grant an error. */
static int dangerous(const char *path, uint32_t rights)
{
	return rights & WRITE_RIGHTS &&
	       (!strcmp(path, "/") || path[0] == '~' ||
		!strcmp(path, "/root") || !strcmp(path, "/home") ||
		(!strncmp(path, "/home/", 6) && !strchr(path + 6, '/')));
}

static int suggest_fs(const struct ir_policy *p, const struct sug_input *in,
		      FILE *f, FILE *notes)
{
	struct fsug *v = calloc(in->n + 1, sizeof(*v));
	char devwhy[MAX_WHY][PATH_MAX];
	size_t n = 0, i, j;
	int added = 0, ndev = 0;

	if (!v)
		return -1;
	for (i = 0; i < in->n; i++) {
		const struct sug_denial *d = &in->d[i];
		char real[PATH_MAX], what[PATH_MAX + 64];
		struct fsug *s;

		if (d->layer != SUG_LANDLOCK || !d->rights)
			continue;
		/* Rules are opened without following symlinks: the path as
		 * this machine resolves it. A path that does not exist has
		 * nothing to grant (the call fails with ENOENT either way); a
		 * path the suggestion cannot write plainly is not written. */
		if (box_dev(d->path)) {
			if (has_kind(p, IR_FS_DEV))
				fprintf(notes,
					"# polc suggest: %s: the policy's "
					"`dev` makes it already\n",
					d->path);
			else if (ndev++ < MAX_WHY)
				snprintf(devwhy[ndev - 1], sizeof(devwhy[0]),
					 "%s", d->path);
			continue;
		}
		if (per_process(d->path)) {
			fprintf(notes,
				"# polc suggest: %s is one process's own file "
				"(a rule on /proc would grant every "
				"process's): not added\n",
				d->path);
			continue;
		}
		if (!realpath(d->path, real)) {
			fprintf(notes,
				"# polc suggest: %s does not exist here: not "
				"added\n",
				d->path);
			continue;
		}
		if (!plain_path(real)) {
			fputs("# polc suggest: a path with characters a "
			      "suggestion does not write (quote, backslash, "
			      "$): not added\n",
			      notes);
			continue;
		}
		if (!(d->rights & ~policy_grants(p, in, real))) {
			fprintf(notes,
				"# polc suggest: %s%s%s: this policy grants "
				"it\n",
				d->path, strcmp(real, d->path) ? " is " : "",
				strcmp(real, d->path) ? real : "");
			continue;
		}
		s = fs_find(v, n, real);
		if (!s) {
			s = &v[n++];
			snprintf(s->path, sizeof(s->path), "%s", real);
			s->from = -1;
		}
		s->rights |= d->rights & ~policy_grants(p, in, real);
		s->n++;
		snprintf(what, sizeof(what), "%s%s", d->path,
			 d->learned ? " (learn mode)" : "");
		why_add(s, what);
	}
	/* Three files or more with only file rights in one folder: the
	 * folder, the tightest that holds them. */
	for (i = 0; i < n; i++) {
		char dir[PATH_MAX];
		size_t same = 0;
		struct fsug *s;

		if (v[i].from >= 0 || v[i].rights & ~FILE_RIGHTS)
			continue;
		parent_of(v[i].path, dir, sizeof(dir));
		for (j = 0; j < n; j++) {
			char d2[PATH_MAX];

			parent_of(v[j].path, d2, sizeof(d2));
			same += v[j].from < 0 &&
				!(v[j].rights & ~FILE_RIGHTS) &&
				!strcmp(d2, dir) && strcmp(v[j].path, dir);
		}
		if (same < 3 || !strcmp(dir, "/"))
			continue;
		s = fs_find(v, n, dir);
		if (!s) {
			s = &v[n++];
			snprintf(s->path, sizeof(s->path), "%s", dir);
			s->from = -1;
		}
		for (j = 0; j < n; j++) {
			char d2[PATH_MAX];

			parent_of(v[j].path, d2, sizeof(d2));
			if (&v[j] == s || v[j].from >= 0 ||
			    v[j].rights & ~FILE_RIGHTS || strcmp(d2, dir))
				continue;
			s->rights |= v[j].rights;
			s->n += v[j].n;
			for (int w = 0; w < v[j].nwhy; w++)
				why_add(s, v[j].why[w]);
			v[j].from = (int)(s - v);
		}
	}
	for (i = 0; i < n; i++) {
		char path[PATH_MAX + 64];
		const char *group;
		int known = 0, covered = 0;

		if (v[i].from >= 0)
			continue;
		/* A folder suggested with these rights covers this one. */
		for (j = 0; j < n && !covered; j++)
			covered = j != i && v[j].from < 0 &&
				  under(v[i].path, v[j].path) &&
				  strcmp(v[i].path, v[j].path) &&
				  (v[i].rights & ~v[j].rights) == 0;
		if (covered)
			continue;
		as_written(p, in, v[i].path, path, sizeof(path));
		for (uint32_t r = 0; r < p->fs.nrules; r++)
			known |= !strcmp(p->fs.rules[r].path, path);
		fputs("    # polc suggest: ", f);
		rights_text(f, v[i].rights);
		if (v[i].nwhy == 1)
			fprintf(f, " denied on %s\n", v[i].why[0]);
		else
			fputs(" denied on:\n", f);
		for (int w = 0; w < v[i].nwhy && v[i].nwhy > 1; w++)
			fprintf(f, "    #   %s\n", v[i].why[w]);
		if (v[i].n > v[i].nwhy)
			fprintf(f, "    # polc suggest: and %d more\n",
				v[i].n - v[i].nwhy);
		if (known || dangerous(path, v[i].rights)) {
			fprintf(notes, "# polc suggest: %s ", path);
			rights_text(notes, v[i].rights);
			fprintf(notes, " %s\n",
				known ? "needed: the policy names this path "
					"already; add the rights to its rule"
				      : "needed: write access there takes "
					"`unsafe`; not added");
			fprintf(f, "    # (see the note at the top)\n");
			continue;
		}
		group = ir_fs_group_name(v[i].rights);
		if (group) {
			fprintf(f, "    %s \"%s\"\n", group, path);
		} else {
			fputs("    allow ", f);
			rights_text(f, v[i].rights);
			fprintf(f, " on \"%s\"\n", path);
		}
		added++;
	}
	/* The box's own /dev: a host device bound alone would be nodev. */
	if (ndev) {
		fputs("    # polc suggest: a minimal /dev of the box's own, "
		      "for:\n",
		      f);
		for (int w = 0; w < ndev && w < MAX_WHY; w++)
			fprintf(f, "    #   %s\n", devwhy[w]);
		if (ndev > MAX_WHY)
			fprintf(f, "    # polc suggest: and %d more\n",
				ndev - MAX_WHY);
		fputs("    dev\n", f);
		added++;
	}
	free(v);
	return added;
}

/* ---- net ------------------------------------------------------------------
 */

/* A destination as the record writes it, ADDR:PORT/PROTO with ADDR an
 * IPv4 address or a bracketed IPv6 one, and a host name of letters,
 * digits, dots and dashes: the only forms written into a suggestion. */
static int plain_dest(const struct sug_denial *d, char *addr, size_t alen,
		      unsigned *port)
{
	const char *colon = strrchr(d->dest, ':'),
		   *slash = strrchr(d->dest, '/');
	unsigned char bin[16];
	char *end;
	unsigned long v;
	size_t n;

	if (!colon || !slash || colon > slash ||
	    (strcmp(slash, "/tcp") && strcmp(slash, "/udp")))
		return 0;
	n = (size_t)(colon - d->dest);
	if (n + 1 > alen)
		return 0;
	memcpy(addr, d->dest, n);
	addr[n] = '\0';
	v = strtoul(colon + 1, &end, 10);
	if (end != slash || colon[1] < '1' || colon[1] > '9' || v > 65535)
		return 0;
	*port = (unsigned)v;
	if (n > 2 && addr[0] == '[' && addr[n - 1] == ']') {
		addr[n - 1] = '\0';
		if (inet_pton(AF_INET6, addr + 1, bin) != 1)
			return 0;
		addr[n - 1] = ']';
	} else if (inet_pton(AF_INET, addr, bin) != 1) {
		return 0;
	}
	n = strlen(d->host);
	return n < 254 &&
	       strspn(d->host, "abcdefghijklmnopqrstuvwxyz"
			       "0123456789.-") == n &&
	       d->host[0] != '-' && d->host[0] != '.';
}

/* An explicit `deny` of the policy that covers addr:port/proto. */
static const struct ir_net_entry *net_denied(const struct ir_policy *p,
					     const char *addr, unsigned port,
					     unsigned proto)
{
	unsigned char bin[16];
	int v6 = addr[0] == '[', len = v6 ? 16 : 4;
	char a[128];

	snprintf(a, sizeof(a), "%s", addr + v6);
	if (v6)
		a[strlen(a) - 1] = '\0';
	if (inet_pton(v6 ? AF_INET6 : AF_INET, a, bin) != 1)
		return NULL;
	for (uint32_t i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];
		int bits = e->prefix, k;

		if (e->verdict != IR_NET_DENY || e->proto != proto ||
		    e->kind != (v6 ? IR_ADDR_V6 : IR_ADDR_V4) ||
		    port < e->port_lo || port > e->port_hi)
			continue;
		for (k = 0; k < len && bits > 0; k++, bits -= 8) {
			unsigned m =
			    bits >= 8 ? 0xff : (0xff00u >> bits) & 0xff;

			if ((bin[k] & m) != e->addr[k])
				break;
		}
		if (k == len || bits <= 0)
			return e;
	}
	return NULL;
}

static int suggest_net(const struct ir_policy *p, const struct sug_input *in,
		       FILE *f, FILE *notes)
{
	int added = 0;

	for (size_t i = 0; i < in->n; i++) {
		const struct sug_denial *d = &in->d[i];
		char addr[128];
		unsigned port;
		int first = 1;

		if (d->layer != SUG_NET)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = in->d[j].layer != SUG_NET ||
				strcmp(in->d[j].dest, d->dest) ||
				strcmp(in->d[j].host, d->host) ||
				strcmp(in->d[j].action, d->action);
		if (!first)
			continue;
		if (!plain_dest(d, addr, sizeof(addr), &port)) {
			fputs("# polc suggest: a destination not written as "
			      "ADDRESS:PORT/tcp|udp: not added\n",
			      notes);
			continue;
		}
		if (!strcmp(d->action, "refused")) {
			if (p->net.mode == IR_NET_HOST ||
			    !strstr(d->dest, "/tcp"))
				continue;
			fprintf(f,
				"    # polc suggest: %s, the host's loopback, "
				"was refused\n    loopback %u\n",
				d->dest, port);
			added++;
			continue;
		}
		if (net_denied(p, addr, port,
			       strstr(d->dest, "/udp") ? IR_PROTO_UDP
						       : IR_PROTO_TCP)) {
			fprintf(notes,
				"# polc suggest: %s was blocked by the "
				"policy's own `deny`: not widened\n",
				d->dest);
			continue;
		}
		if (p->net.mode != IR_NET_FILTERED) {
			fprintf(notes,
				"# polc suggest: %s was blocked, and only `net "
				"filtered` allows destinations: not added\n",
				d->dest);
			continue;
		}
		fprintf(f,
			"    # polc suggest: %s%s%s was blocked\n    allow "
			"%s:%u%s\n",
			d->dest, d->host[0] ? ", " : "", d->host,
			d->host[0] ? d->host : addr, port,
			strstr(d->dest, "/udp") ? " udp" : "");
		added++;
	}
	return added;
}

/* ---- the text ---------------------------------------------------------- */

/* Byte offset of a location in src. */
static size_t offset_of(const struct src_file *src, struct loc l)
{
	size_t off = 0;
	int line = 1;

	while (off < src->len && line < l.line)
		line += src->text[off++] == '\n';
	return off + (size_t)(l.col > 0 ? l.col - 1 : 0);
}

struct insert {
	size_t at;
	const char *text;
	size_t len;
	int newline; /* the brace shares its line: break it first */
};

static int ins_cmp(const void *x, const void *y)
{
	const struct insert *a = x, *b = y;

	return (a->at > b->at) - (a->at < b->at);
}

/* Where the block `key` of the policy ends, as an insertion point. */
static int block_end(const struct src_file *src, const struct ast_stmt *pol,
		     const char *key, struct insert *ins)
{
	for (size_t i = 0; i < pol->nchildren; i++) {
		const struct ast_stmt *st = &pol->children[i];
		size_t at, ls;

		if (!st->nwords || strcmp(st->words[0].text, key) ||
		    !st->has_block)
			continue;
		at = offset_of(src, st->block_end);
		for (ls = at; ls > 0 && src->text[ls - 1] != '\n'; ls--)
			;
		ins->newline = 0;
		for (size_t k = ls; k < at; k++)
			ins->newline |=
			    src->text[k] != ' ' && src->text[k] != '\t';
		ins->at = ins->newline ? at : ls;
		return 0;
	}
	return -1;
}

static int assemble(const char *path, const struct src_file *src,
		    const char *sys, const char *fs, const char *net,
		    const char *head, struct buf *out)
{
	struct ast_file *ast = NULL;
	struct insert ins[4];
	const char *text[3] = {sys, fs, net};
	static const char *const keys[3] = {"syscalls", "fs", "net"};
	const struct ast_stmt *pol = NULL;
	struct diag d;
	size_t n = 0, pos = 0;
	int rc = -1;

	diag_init(&d);
	if (ast_parse(&d, src, &ast))
		goto out;
	for (size_t i = 0; i < ast->nstmts && !pol; i++)
		if (ast->stmts[i].nwords &&
		    !strcmp(ast->stmts[i].words[0].text, "policy"))
			pol = &ast->stmts[i];
	if (!pol) {
		fprintf(stderr, "polc: suggest: %s: no policy statement\n",
			path);
		goto out;
	}
	ins[n++] =
	    (struct insert){offset_of(src, pol->loc), head, strlen(head), 0};
	for (int k = 0; k < 3; k++) {
		if (!text[k][0])
			continue;
		if (block_end(src, pol, keys[k], &ins[n])) {
			fprintf(stderr,
				"polc: suggest: %s has no %s block to add "
				"to; the suggestions are:\n%s",
				path, keys[k], text[k]);
			goto out;
		}
		ins[n].text = text[k];
		ins[n].len = strlen(text[k]);
		n++;
	}
	/* The header goes before the policy line's first character. */
	while (ins[0].at > 0 && src->text[ins[0].at - 1] != '\n')
		ins[0].at--;
	qsort(ins, n, sizeof(ins[0]), ins_cmp);
	for (size_t i = 0; i < n; i++) {
		fwrite(src->text + pos, 1, ins[i].at - pos, out->f);
		if (ins[i].newline)
			fputc('\n', out->f);
		fwrite(ins[i].text, 1, ins[i].len, out->f);
		pos = ins[i].at;
	}
	fwrite(src->text + pos, 1, src->len - pos, out->f);
	rc = 0;
out:
	diag_print(&d, stderr);
	diag_fini(&d);
	ast_file_destroy(&ast);
	return rc;
}

/* ---- the command ----------------------------------------------------------
 */

int suggest_policy(const struct suggest_opts *o)
{
	struct sema_opts so = {o->search, o->nsearch};
	struct sug_input in = {0};
	struct ir_policy *p = NULL, *check = NULL;
	struct buf sys = {0}, fs = {0}, net = {0}, notes = {0}, head = {0},
		   out = {0};
	const struct src_file *src;
	struct diag d;
	int rc = 2, added = 0;
	char err[300];

	diag_init(&d);
	in.d = calloc(SUG_MAX_DENIALS, sizeof(*in.d));
	in.maps = calloc(SUG_MAX_MAPS, sizeof(*in.maps));
	if (!in.d || !in.maps || buf_open(&sys) || buf_open(&fs) ||
	    buf_open(&net) || buf_open(&notes) || buf_open(&head) ||
	    buf_open(&out)) {
		fputs("polc: suggest: out of memory\n", stderr);
		goto done;
	}
	if (sema_compile(&d, o->policy, &so, &p))
		goto done;
	for (size_t i = 0; i < o->nrecords; i++) {
		uint8_t *buf = NULL;
		size_t len = 0;
		int r;

		if (readfile_all(o->records[i], &buf, &len, 64u << 20)) {
			fprintf(stderr, "polc: suggest: %s: %s\n",
				o->records[i], readfile_strerror(errno));
			goto done;
		}
		r = record_read(buf, len, &in, err, sizeof(err));
		free(buf);
		if (r) {
			fprintf(stderr, "polc: suggest: %s: %s\n",
				o->records[i], err);
			goto done;
		}
	}
	rejudge(p, &in);
	added += suggest_syscalls(p, &in, sys.f, notes.f);
	added += suggest_fs(p, &in, fs.f, notes.f);
	added += suggest_net(p, &in, net.f, notes.f);
	if (buf_close(&sys) || buf_close(&fs) || buf_close(&net) ||
	    buf_close(&notes))
		goto done;
	fprintf(head.f,
		"# polc suggest: %d rule%s added from %zu run record%s, each "
		"after a comment\n# naming the denial it is for. Nothing was "
		"applied: review what it widens with\n#   polc check "
		"--boundary %s NEW.pol\n%s",
		added, added == 1 ? "" : "s", o->nrecords,
		o->nrecords == 1 ? "" : "s", o->policy, notes.s);
	if (buf_close(&head))
		goto done;
	src = d.files; /* the policy's own file was loaded first */
	while (src && src->seq != 0)
		src = src->next;
	if (!src || assemble(o->policy, src, sys.s, fs.s, net.s, head.s, &out))
		goto done;
	if (buf_close(&out))
		goto done;
	/* What is printed must compile. */
	diag_fini(&d);
	diag_init(&d);
	if (sema_compile_text(&d, o->policy, out.s, out.len, &so, &check)) {
		fputs("polc: suggest: the suggestion does not compile "
		      "(please report it):\n",
		      stderr);
		rc = 3;
		goto done;
	}
	if (o->output
		? output_write(o->output, out.s, out.len, err, sizeof(err))
		: output_write_fd(1, out.s, out.len, err, sizeof(err))) {
		fprintf(stderr, "polc: suggest: %s: %s\n",
			o->output ? o->output : "standard output", err);
		goto done;
	}
	rc = 0;
done:
	diag_print(&d, stderr);
	diag_fini(&d);
	ir_policy_destroy(&p);
	ir_policy_destroy(&check);
	if (sys.f)
		fclose(sys.f);
	if (fs.f)
		fclose(fs.f);
	if (net.f)
		fclose(net.f);
	if (notes.f)
		fclose(notes.f);
	if (head.f)
		fclose(head.f);
	if (out.f)
		fclose(out.f);
	free(sys.s);
	free(fs.s);
	free(net.s);
	free(notes.s);
	free(head.s);
	free(out.s);
	free(in.d);
	free(in.maps);
	return rc;
}
