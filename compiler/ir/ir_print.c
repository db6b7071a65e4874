/* SPDX-License-Identifier: MIT */
/*
 * The IR printed in the policy language itself, so what `polc dump` shows
 * can be read as a policy: every fragment merged, every set expanded, every
 * constant a number. It is what the artifact enforces, not what was written.
 */
#include "ir.h"
#include "tables/tables.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

static const struct {
	uint32_t bit;
	const char *name;
} rights[] = {
    {IR_FS_EXECUTE, "execute"},		  {IR_FS_WRITE_FILE, "write_file"},
    {IR_FS_READ_FILE, "read_file"},	  {IR_FS_READ_DIR, "read_dir"},
    {IR_FS_REMOVE_DIR, "remove_dir"},	  {IR_FS_REMOVE_FILE, "remove_file"},
    {IR_FS_MAKE_CHAR, "make_char"},	  {IR_FS_MAKE_DIR, "make_dir"},
    {IR_FS_MAKE_REG, "make_reg"},	  {IR_FS_MAKE_SOCK, "make_sock"},
    {IR_FS_MAKE_FIFO, "make_fifo"},	  {IR_FS_MAKE_BLOCK, "make_block"},
    {IR_FS_MAKE_SYM, "make_sym"},	  {IR_FS_REFER, "refer"},
    {IR_FS_TRUNCATE, "truncate"},	  {IR_FS_IOCTL_DEV, "ioctl_dev"},
    {IR_FS_CONNECT_UNIX, "connect_unix"},
};

/* Quotes a path when it holds anything a bare word could not. */
static void put_word(FILE *out, const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!strchr(
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_./:~-[]+@%*${}",
			*p))
			break;
	if (!*p && *s) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fputc('?', out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* A value in the largest unit that states it exactly. */
static void print_scaled(FILE *out, uint64_t v, const char *const *units,
			 const uint64_t *scale, int n)
{
	int i;

	for (i = n - 1; i > 0; i--)
		if (v && v % scale[i] == 0)
			break;
	fprintf(out, "%" PRIu64 "%s", v / scale[i], units[i]);
}

static void print_fs(const struct ir_policy *p, FILE *out)
{
	uint32_t i, j;

	fputs(p->fs.mode == IR_VIEW_BEST_EFFORT ? "  fs best_effort {\n"
						: "  fs {\n",
	      out);
	for (i = 0; i < p->fs.nrules; i++) {
		const struct ir_fs_rule *r = &p->fs.rules[i];
		const char *sep = "";

		const char *group = ir_fs_group_name(r->rights);

		if (r->kind != IR_FS_GRANT) {
			fprintf(out, "    %s ", ir_fs_kind_name(r->kind));
			put_word(out, r->path);
			if (r->kind == IR_FS_TMPFS) {
				static const char *const u[] = {"B", "KiB",
								"MiB", "GiB"};
				static const uint64_t sc[] = {
				    1, 1ull << 10, 1ull << 20, 1ull << 30};

				fputc(' ', out);
				print_scaled(out, r->size, u, sc, 4);
				if (r->rights & IR_FS_EXECUTE)
					fputs(" exec", out);
			}
			fputc('\n', out);
			continue;
		}
		if (r->rights == IR_FS_CONNECT_UNIX) {
			fputs("    socket ", out);
		} else if (group) {
			fprintf(out, "    %s ", group);
		} else {
			fputs("    allow ", out);
			for (j = 0; j < sizeof(rights) / sizeof(*rights); j++) {
				if (r->rights & rights[j].bit) {
					fprintf(out, "%s%s", sep,
						rights[j].name);
					sep = " ";
				}
			}
			fputs(" on ", out);
		}
		if (r->flags & IR_FS_OPTIONAL)
			fputs("optional ", out);
		if (r->flags & IR_FS_FOLLOW)
			fputs("follow ", out);
		put_word(out, r->path);
		fputc('\n', out);
	}
	if (p->fs.observe & IR_OBSERVE_DESTRUCTIVE) {
		fputs("    observe destructive workspace ", out);
		put_word(out, p->fs.workspace);
		fputc('\n', out);
	}
	if (p->fs.observe & IR_OBSERVE_ARGV_REDACTED)
		fputs("    observe argv redacted\n", out);
	fputs("  }\n", out);
}

static void print_ports(FILE *out, const struct ir_port_range *r)
{
	if (r->lo == 0 && r->hi == 65535)
		fputc('*', out);
	else if (r->lo == r->hi)
		fprintf(out, "%u", r->lo);
	else
		fprintf(out, "%u-%u", r->lo, r->hi);
}

static void print_ranges(FILE *out, const char *key, uint32_t n,
			 const struct ir_port_range *r)
{
	uint32_t i;

	if (!n)
		return;
	fprintf(out, "    %s", key);
	for (i = 0; i < n; i++) {
		fputc(' ', out);
		print_ports(out, &r[i]);
	}
	fputc('\n', out);
}

void ir_print_net_entry(FILE *out, const struct ir_net_entry *e)
{
	char buf[INET6_ADDRSTRLEN];

	if (e->kind == IR_ADDR_V4 || e->kind == IR_ADDR_V6) {
		inet_ntop(e->kind == IR_ADDR_V4 ? AF_INET : AF_INET6, e->addr,
			  buf, sizeof(buf));
		if (e->kind == IR_ADDR_V6)
			fprintf(out, "[%s", buf);
		else
			fputs(buf, out);
		if (e->prefix != (e->kind == IR_ADDR_V4 ? 32 : 128))
			fprintf(out, "/%u", e->prefix);
		if (e->kind == IR_ADDR_V6)
			fputc(']', out);
	} else {
		fputs(e->name ? e->name : "?", out);
	}
	fputc(':', out);
	print_ports(out, &(struct ir_port_range){e->port_lo, e->port_hi});
	fputs(e->proto == IR_PROTO_UDP ? " udp" : " tcp", out);
}

static void print_net(const struct ir_policy *p, FILE *out)
{
	static const char *const modes[] = {"none", "filtered", "host"};
	uint32_t i;

	static const char *const backends[] = {
	    "", " backend cgroup", " backend namespace", " backend broker",
	    " backend cgroup namespace"};

	fprintf(out, "  net %s%s {\n",
		p->net.mode <= 2 ? modes[p->net.mode] : "?",
		p->net.backend <= 4 ? backends[p->net.backend] : " ?");
	for (i = 0; i < p->net.nentries; i++) {
		fputs(p->net.entries[i].verdict == IR_NET_ALLOW ? "    allow "
								: "    deny ",
		      out);
		ir_print_net_entry(out, &p->net.entries[i]);
		fputc('\n', out);
	}
	print_ranges(out, "loopback", p->net.nloopback, p->net.loopback);
	print_ranges(out, "connect", p->net.nconnect, p->net.connect);
	print_ranges(out, "bind", p->net.nbind, p->net.bind);
	fputs("  }\n", out);
}

void ir_print_atom(FILE *out, const char *syscall, const struct ir_atom *a)
{
	const char *name = syscall_args_name(syscall, a->arg);
	uint64_t full = a->width == 32 ? 0xffffffffull : ~0ull;
	const struct syscall_args *sa = syscall_args_find(syscall);

	/* Positional names for syscalls the argument table does not know. */
	if (!sa || a->arg >= sa->nargs)
		name = NULL;
	if (name)
		fputs(name, out);
	else
		fprintf(out, "arg%u", a->arg);
	/* Only the upper half: ARG.hi, as the policy wrote it. */
	if (a->width == 64 && !(uint32_t)a->mask && !(uint32_t)a->value) {
		fputs(".hi", out);
		if (a->mask != 0xffffffff00000000ull)
			fprintf(out, " & 0x%" PRIx64, a->mask >> 32);
		fprintf(out, " %s 0x%" PRIx64, ir_op_str(a->op),
			a->value >> 32);
		return;
	}
	if (a->mask != full)
		fprintf(out, " & 0x%" PRIx64, a->mask);
	fprintf(out, " %s 0x%" PRIx64, ir_op_str(a->op), a->value);
}

/*
 * How a syscall is shown: its name; a number (kept by a polc whose table
 * did not name it) by the name this polc's table gives it, if any.
 */
static const char *shown_name(const struct ir_syscall *sc)
{
	const char *name = NULL;

	if (syscall_is_number(sc->name))
		name =
		    syscall_name(SYSCALL_ARCH_X86_64, syscall_ir_nr(sc->name));
	return name ? name : sc->name;
}

static int unconditional(const struct ir_syscall *sc)
{
	return sc->nrules == 1 && sc->rules[0].natoms == 0;
}

/* Unconditional rules grouped by action (least restrictive first), eight
 * names a line; then every conditional rule on a line of its own. */
static void print_syscalls(const struct ir_policy *p, FILE *out)
{
	const struct ir_action *cur;
	char buf[32];
	uint32_t i, j, k;
	int kind, col;

	fprintf(out, "  syscalls default %s {\n",
		ir_action_str(&p->sys.def, buf, sizeof(buf)));
	fprintf(out, "    badarch %s\n",
		ir_action_str(&p->sys.badarch, buf, sizeof(buf)));
	for (kind = IR_ACT_ALLOW; kind >= IR_ACT_KILL_PROCESS; kind--) {
		/* errno actions: one group per value, smallest first. */
		for (cur = NULL;;) {
			const struct ir_action *next = NULL;

			for (i = 0; i < p->sys.ncalls; i++) {
				const struct ir_action *a =
				    &p->sys.calls[i].rules[0].action;

				if (unconditional(&p->sys.calls[i]) &&
				    a->kind == kind &&
				    (!cur || a->errnum > cur->errnum) &&
				    (!next || a->errnum < next->errnum))
					next = a;
			}
			if (!next)
				break;
			cur = next;
			col = 0;
			for (i = 0; i < p->sys.ncalls; i++) {
				const struct ir_syscall *sc = &p->sys.calls[i];

				if (!unconditional(sc) ||
				    ir_action_cmp(&sc->rules[0].action, cur))
					continue;
				if (col == 0)
					fprintf(out, "    %s",
						ir_action_str(cur, buf,
							      sizeof(buf)));
				fprintf(out, " %s", shown_name(sc));
				if (++col == 8) {
					fputc('\n', out);
					col = 0;
				}
			}
			if (col)
				fputc('\n', out);
		}
	}
	for (i = 0; i < p->sys.ncalls; i++) {
		const struct ir_syscall *sc = &p->sys.calls[i];

		if (unconditional(sc))
			continue;
		for (j = 0; j < sc->nrules; j++) {
			const struct ir_rule *r = &sc->rules[j];

			fprintf(out, "    %s %s",
				ir_action_str(&r->action, buf, sizeof(buf)),
				shown_name(sc));
			for (k = 0; k < r->natoms; k++) {
				fputs(k ? " && " : " if ", out);
				ir_print_atom(out, shown_name(sc),
					      &r->atoms[k]);
			}
			fputc('\n', out);
		}
	}
	fputs("  }\n", out);
}

/*
 * Every limit in force, the defaults included (the IR has them written
 * out). Without a limits block they follow as a comment: the text stays a
 * policy that compiles to the same IR.
 */
static void print_limits(const struct ir_policy *p, FILE *out)
{
	static const char *const sizes[] = {"", "KiB", "MiB", "GiB", "TiB"};
	static const uint64_t size_scale[] = {1, 1ull << 10, 1ull << 20,
					      1ull << 30, 1ull << 40};
	static const char *const times[] = {"ms", "s", "m", "h"};
	static const uint64_t time_scale[] = {1, 1000, 60000, 3600000};
	const char *indent = p->limits.present ? "    " : " ";
	int i;

	if (p->limits.present)
		fprintf(out, "  limits %s {\n",
			p->limits.mode == IR_LIMITS_REQUIRE ? "require"
							    : "best_effort");
	else
		fputs("  # no limits block; in force:", out);
	for (i = 0; i < IR_LIM_COUNT; i++) {
		uint64_t v = p->limits.value[i];

		if (!(p->limits.set & (1u << i)))
			continue;
		fprintf(out, "%s%s ", indent, ir_limit_name((enum ir_limit)i));
		if (i == IR_LIM_MEMORY || i == IR_LIM_FSIZE || i == IR_LIM_CORE)
			print_scaled(out, v, sizes, size_scale, 5);
		else if (i == IR_LIM_CPU || i == IR_LIM_WALL ||
			 i == IR_LIM_GRACE)
			print_scaled(out, v, times, time_scale, 4);
		else
			fprintf(out, "%" PRIu64, v);
		if (p->limits.present)
			fputc('\n', out);
	}
	fputs(p->limits.present ? "  }\n" : "\n", out);
}

static void print_env(const struct ir_policy *p, FILE *out)
{
	uint32_t i;

	fputs("  env {\n", out);
	for (i = 0; i < p->env.nentries; i++) {
		const struct ir_env_entry *e = &p->env.entries[i];

		switch (e->kind) {
		case IR_ENV_PASS:
			fprintf(out, "    pass %s\n", e->name);
			break;
		case IR_ENV_SET:
			fprintf(out, "    set %s=", e->name);
			put_word(out, e->value ? e->value : "");
			fputc('\n', out);
			break;
		case IR_ENV_SECRET:
			/* Only the name and where the box finds it: the
			 * secret never passes through polc, and its source
			 * file stays out of what dump shows. */
			fprintf(out, "    secret %s to ", e->name);
			put_word(out, e->dest ? e->dest : "");
			fputc('\n', out);
			break;
		}
	}
	fputs("  }\n", out);
}

static void put_quoted(FILE *out, const char *s)
{
	const char *p;

	fputc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fputc('?', out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

int ir_print(const struct ir_policy *p, FILE *out)
{
	static const char *const ll[] = {"best_effort", "require"};

	fputs("policy ", out);
	put_quoted(out, p->name ? p->name : "");
	fputs(" {\n", out);
	if (p->landlock.present)
		fprintf(out, "  landlock abi >= %u %s\n", p->landlock.abi_min,
			ll[p->landlock.mode & 1]);
	if (p->user.present)
		fprintf(out, "  user %u:%u\n", p->user.uid, p->user.gid);
	if (p->fs.present)
		print_fs(p, out);
	if (p->net.present)
		print_net(p, out);
	if (p->sys.present)
		print_syscalls(p, out);
	print_limits(p, out);
	if (p->env.present)
		print_env(p, out);
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}
