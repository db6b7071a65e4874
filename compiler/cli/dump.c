/* SPDX-License-Identifier: MIT */
/*
 * `polc dump`: every section of an artifact, for humans. The artifact is
 * read with the same hostile-input reader polexec uses; sections polc does
 * not understand are listed, never skipped silently.
 */
#include "cli.h"
#include "bpf_disasm.h"
#include "ir/ir.h"
#include "tables/tables.h"
#include "backend/backend.h"
#include "polbin.h"
#include "sections.h"
#include "sha256.h"

#include <linux/audit.h>
#include <inttypes.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_clean(FILE *out, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fputc(p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '?', out);
}

static int dump_meta(const struct polbin_section *s, FILE *out)
{
	static const char *const keys[] = {
	    [POLBIN_META_NAME] = "policy",
	    [POLBIN_META_SOURCE_SHA256] = "source sha256",
	    [POLBIN_META_COMPILER] = "compiler",
	    [POLBIN_META_IR_SHA256] = "ir sha256",
	    [POLBIN_META_RECORD_ARGV] = "record argv",
	};
	size_t off = 0;

	while (off < s->len) {
		uint16_t key, len;

		if (s->len - off < 4)
			return -1;
		key = polbin_le16(s->data + off);
		len = polbin_le16(s->data + off + 2);
		off += 4;
		if (len > s->len - off)
			return -1;
		fprintf(out, "  %s: ",
			key < sizeof(keys) / sizeof(*keys) && keys[key]
			    ? keys[key]
			    : "unknown key");
		put_clean(out, s->data + off, len);
		fputc('\n', out);
		off += len;
	}
	return 0;
}

static int dump_ir(const struct polbin_section *s, FILE *out, char *err,
		   size_t errlen)
{
	struct ir_policy *p;
	uint8_t d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];

	if (ir_deserialize(s->data, s->len, &p, err, errlen) != IR_OK)
		return -1;
	sha256(s->data, s->len, d);
	sha256_hex(d, hex);
	fprintf(out, "  canonical IR, %u bytes, sha256 %s\n", s->len, hex);
	ir_print(p, out);
	ir_policy_destroy(&p);
	return 0;
}

static int dump_env(const struct polbin_section *s, FILE *out)
{
	static const char *const kinds[] = {"pass", "set", "secret"};
	uint32_t n, i;
	size_t off = 4;

	if (s->len < 4)
		return -1;
	n = polbin_le32(s->data);
	for (i = 0; i < n; i++) {
		uint16_t nl, vl, dl;
		uint8_t kind;

		if (s->len - off < 8)
			return -1;
		kind = s->data[off];
		nl = polbin_le16(s->data + off + 2);
		vl = polbin_le16(s->data + off + 4);
		dl = polbin_le16(s->data + off + 6);
		off += 8;
		if ((size_t)nl + vl + dl > s->len - off || kind > 2)
			return -1;
		fprintf(out, "  %s ", kinds[kind]);
		put_clean(out, s->data + off, nl);
		if (kind == POLBIN_ENV_SET) {
			fputc('=', out);
			put_clean(out, s->data + off + nl, vl);
		} else if (kind == POLBIN_ENV_SECRET) {
			/* The name and the place in the box only: where
			 * polexec reads the secret from stays out of dumps. */
			fputs(" to ", out);
			put_clean(out, s->data + off + nl + vl, dl);
		}
		fputc('\n', out);
		off += (size_t)nl + vl + dl;
	}
	return off == s->len ? 0 : -1;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)polbin_le32(p) | (uint64_t)polbin_le32(p + 4) << 32;
}

/* The LIMITS section (artifact/sections.h), checked as polexec checks it. */
static int dump_limits(const struct polbin_section *s, FILE *out)
{
	static const struct {
		const char *name, *unit, *what;
	} lim[POLBIN_LIM_COUNT] = {
	    [POLBIN_LIM_MEMORY] = {"memory", "bytes", "the whole box"},
	    [POLBIN_LIM_PIDS] = {"pids", "", "processes and threads"},
	    [POLBIN_LIM_NOFILE] = {"nofile", "", "open files, each process"},
	    [POLBIN_LIM_CPU] = {"cpu", "ms", "CPU time, each process"},
	    [POLBIN_LIM_WALL] = {"wall", "ms", "then SIGTERM"},
	    [POLBIN_LIM_FSIZE] = {"fsize", "bytes", "largest file written"},
	    [POLBIN_LIM_CORE] = {"core", "bytes", "core dump size"},
	    [POLBIN_LIM_GRACE] = {"grace", "ms", "SIGTERM to SIGKILL"},
	};
	uint32_t flags, set;
	int i;

	if (s->len != POLBIN_LIMITS_LEN)
		return -1;
	flags = polbin_le32(s->data);
	set = polbin_le32(s->data + 4);
	if (flags &
		~(uint32_t)(POLBIN_LIMITS_F_STATED | POLBIN_LIMITS_F_REQUIRE) ||
	    set >> POLBIN_LIM_COUNT)
		return -1;
	fprintf(out, "  %s, %s\n",
		flags & POLBIN_LIMITS_F_STATED ? "stated by the policy"
					       : "no limits block",
		flags & POLBIN_LIMITS_F_REQUIRE
		    ? "require: refuse what cannot be enforced fully"
		    : "best_effort: degrade with a warning");
	for (i = 0; i < POLBIN_LIM_COUNT; i++) {
		uint64_t v = le64(s->data + 8 + 8 * i);

		if (!(set >> i & 1)) {
			if (v)
				return -1;
			continue;
		}
		fprintf(out, "  %-7s %" PRIu64 "%s%s  (%s%s)\n", lim[i].name, v,
			*lim[i].unit ? " " : "", lim[i].unit, lim[i].what,
			i == POLBIN_LIM_CORE && v == 0 ? "; off" : "");
	}
	return 0;
}

/*
 * Which instructions run with the syscall number in the accumulator: a
 * forward pass (jumps only go forward; a target out of the program, which
 * a hostile artifact may hold, is not followed). 1 where it is nr on every
 * path.
 */
static void nr_in_acc(const struct sock_filter *prog, size_t n, uint8_t *nr)
{
	enum { UNREACHED, NR, OTHER };

	memset(nr, UNREACHED, n);
	nr[0] = OTHER;
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];
		uint8_t out = nr[pc];
		size_t t[2];
		int nt = 0;

		if (out == UNREACHED)
			continue;
		if (BPF_CLASS(f->code) == BPF_JMP) {
			if (BPF_OP(f->code) == BPF_JA)
				t[nt++] = pc + 1 + f->k;
			else {
				t[nt++] = pc + 1 + f->jt;
				t[nt++] = pc + 1 + f->jf;
			}
		} else if (BPF_CLASS(f->code) == BPF_RET) {
			continue;
		} else {
			out = f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == 0
				  ? NR
				  : OTHER;
			t[nt++] = pc + 1;
		}
		for (int i = 0; i < nt; i++) {
			if (t[i] >= n || t[i] <= pc)
				continue;
			nr[t[i]] = nr[t[i]] == UNREACHED || nr[t[i]] == out
				       ? out
				       : OTHER;
		}
	}
	for (size_t pc = 0; pc < n; pc++)
		nr[pc] = nr[pc] == NR;
}

/* The disassembly, with the x86_64 name of each number the dispatch
 * compares the syscall number with. */
static int dump_seccomp(const struct polbin_section *s, FILE *out)
{
	struct sock_filter prog[POLBIN_SECCOMP_MAX_INSNS];
	uint8_t nr[POLBIN_SECCOMP_MAX_INSNS];
	size_t n = s->len / sizeof(struct sock_filter);
	char line[160];

	if (s->len % sizeof(struct sock_filter) || n == 0 ||
	    n > POLBIN_SECCOMP_MAX_INSNS)
		return -1;
	memcpy(prog, s->data, s->len);
	nr_in_acc(prog, n, nr);
	if (fprintf(out, " line  OP   JT   JF   K\n"
			 "=================================\n") < 0)
		return -1;
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];
		const char *name = NULL, *op = NULL;

		switch (BPF_CLASS(f->code) == BPF_JMP ? BPF_OP(f->code) : 0) {
		case BPF_JEQ:
			op = "==";
			break;
		case BPF_JGE:
			op = ">=";
			break;
		case BPF_JGT:
			op = ">";
			break;
		}
		if (nr[pc] && op && BPF_SRC(f->code) == BPF_K &&
		    f->k < SYSCALL_NR_LIMIT)
			name = syscall_name(SYSCALL_ARCH_X86_64, (int)f->k);
		if (fprintf(out, "%s",
			    bpf_disasm_insn(prog, n, pc, line, sizeof(line))) <
			0 ||
		    (name && fprintf(out, "  ; nr %s %s", op, name) < 0) ||
		    fputc('\n', out) == EOF)
			return -1;
	}
	return 0;
}

/*
 * OBSERVE: the flags, the three programs disassembled, how many names and
 * tables, and every rule text with its explain code. The records' bounds
 * are checked; what they hold is polc's own (the prover re-derives the
 * section from the IR before trusting an artifact).
 */
static int dump_observe(const struct polbin_section *s, FILE *out)
{
	static const char *const progs[] = {"", "notify", "learn", "explain"};
	unsigned nsys = 0, nconst = 0;
	size_t off = 8;
	uint32_t flags;

	if (s->len < 8)
		return -1;
	flags = polbin_le32(s->data + 4);
	fprintf(out, "  version %u, observes:%s%s\n", polbin_le32(s->data),
		flags & POLBIN_OBS_F_DESTRUCTIVE ? " destructive calls" : "",
		flags & POLBIN_OBS_F_LEARN_PATHS ? ", paths (learn)" : "");
	while (off < s->len) {
		uint16_t tag;
		uint32_t len;
		const uint8_t *d;

		if (s->len - off < 8)
			return -1;
		tag = polbin_le16(s->data + off);
		len = polbin_le32(s->data + off + 4);
		off += 8;
		if (len > s->len - off)
			return -1;
		d = s->data + off;
		off += (len + 3u) & ~3u;
		if (tag >= POLBIN_OBS_NOTIFY && tag <= POLBIN_OBS_EXPLAIN) {
			struct polbin_section prog = {POLBIN_SEC_SECCOMP, 0, d,
						      len};

			fprintf(out, "  %s program:\n", progs[tag]);
			if (dump_seccomp(&prog, out))
				return -1;
		} else if (tag == POLBIN_OBS_SYSCALL) {
			nsys++;
		} else if (tag == POLBIN_OBS_CONST) {
			nconst++;
		} else if (tag == POLBIN_OBS_RULE && len >= 10 &&
			   polbin_le16(d + 8) <= len - 10) {
			fprintf(out, "  rule %u%s: ", polbin_le32(d),
				d[4] & POLBIN_OBS_RULE_COMPANION
				    ? " (companion)"
				    : "");
			put_clean(out, d + 10, polbin_le16(d + 8));
			fputc('\n', out);
		} else if (tag == POLBIN_OBS_WORKSPACE) {
			fputs("  workspace: ", out);
			put_clean(out, d, len);
			fputc('\n', out);
		} else {
			return -1;
		}
	}
	fprintf(out, "  %u syscall names, %u constant tables\n", nsys, nconst);
	return 0;
}

/* Landlock fs rights by bit, as the kernel (and the IR) numbers them. */
static const char *const ll_fs[17] = {
    "execute",	   "write_file",   "read_file", "read_dir", "remove_dir",
    "remove_file", "make_char",	   "make_dir",	"make_reg", "make_sock",
    "make_fifo",   "make_block",   "make_sym",	"refer",    "truncate",
    "ioctl_dev",   "connect_unix",
};

static void ll_names(FILE *out, uint64_t bits, const char *const *names,
		     unsigned n)
{
	const char *sep = "";
	unsigned i;

	for (i = 0; i < n; i++) {
		if (bits & (1ull << i)) {
			fprintf(out, "%s%s", sep, names[i]);
			sep = " ";
		}
	}
	if (!*sep)
		fputs("(none)", out);
}

static void ll_fs_names(FILE *out, uint64_t bits)
{
	ll_names(out, bits, ll_fs, 17);
}

/* The LANDLOCK section (format in artifact/sections.h). */
static int dump_landlock(const struct polbin_section *s, FILE *out)
{
	static const char *const net[] = {"bind_tcp", "connect_tcp"};
	static const char *const scope[] = {"abstract_unix_socket", "signal"};
	const uint8_t *d = s->data;
	uint64_t fs, nt, sc;
	uint32_t nfs, nports, i;
	size_t off = POLBIN_LL_HEADER_SIZE;

	if (s->len < POLBIN_LL_HEADER_SIZE ||
	    polbin_le32(d) != POLBIN_LL_VERSION || polbin_le32(d + 8) > 1)
		return -1;
	fs = polbin_le64(d + 16);
	nt = polbin_le64(d + 24);
	sc = polbin_le64(d + 32);
	nfs = polbin_le32(d + 40);
	nports = polbin_le32(d + 44);
	if (fs & ~POLBIN_LL_FS_ALL || nt & ~POLBIN_LL_NET_ALL ||
	    sc & ~POLBIN_LL_SCOPE_ALL || nfs > POLBIN_LL_MAX_FS)
		return -1;
	fprintf(out, "  requires Landlock ABI >= %u, %s\n", polbin_le32(d + 4),
		polbin_le32(d + 8) ? "require (an older kernel refuses)"
				   : "best_effort (drops what the kernel "
				     "lacks)");
	fputs("  handled fs: ", out);
	ll_fs_names(out, fs);
	fputs("\n  handled net: ", out);
	ll_names(out, nt, net, 2);
	fputs("\n  scoped: ", out);
	ll_names(out, sc, scope, 2);
	fputs("\n  ABI each needs: refer 2, truncate 3, bind_tcp connect_tcp "
	      "4, ioctl_dev 5, scopes 6, connect_unix 8; the rest 1\n",
	      out);
	fprintf(out, "  path rules: %u\n", nfs);
	for (i = 0; i < nfs; i++) {
		uint64_t acc;
		uint32_t flags, plen;
		const char *g;

		if (s->len - off < 16)
			return -1;
		acc = polbin_le64(d + off);
		flags = polbin_le32(d + off + 8);
		plen = polbin_le32(d + off + 12);
		off += 16;
		if (plen > s->len - off || acc & ~fs ||
		    flags &
			~(uint32_t)(POLBIN_LL_F_FOLLOW | POLBIN_LL_F_OPTIONAL))
			return -1;
		fputs("    ", out);
		put_clean(out, d + off, plen);
		fputs(": ", out);
		ll_fs_names(out, acc);
		/* what the ruleset does not handle, the rule has too */
		if ((g = ir_fs_group_name(acc | (POLBIN_LL_FS_ALL & ~fs))))
			fprintf(out, " [%s]", g);
		if (flags & POLBIN_LL_F_OPTIONAL)
			fputs(" (optional)", out);
		if (flags & POLBIN_LL_F_FOLLOW)
			fputs(" (follow)", out);
		fputc('\n', out);
		off += plen;
	}
	fprintf(out, "  port rules: %u range(s)", nports);
	if (!nt)
		fputs(", no TCP port restricted", out);
	fputc('\n', out);
	for (i = 0; i < nports; i++) {
		uint32_t acc;
		uint16_t lo, hi;

		if (s->len - off < 8)
			return -1;
		acc = polbin_le32(d + off);
		lo = polbin_le16(d + off + 4);
		hi = polbin_le16(d + off + 6);
		off += 8;
		if ((acc != POLBIN_LL_NET_BIND &&
		     acc != POLBIN_LL_NET_CONNECT) ||
		    !(acc & nt) || lo > hi)
			return -1;
		if (lo == hi)
			fprintf(out, "    %s %u\n", net[acc - 1], lo);
		else
			fprintf(out, "    %s %u-%u\n", net[acc - 1], lo, hi);
	}
	for (i = 0; i < 2; i++)
		if (nt & (1u << i))
			fprintf(out,
				"    %s: every port not listed is denied\n",
				net[i]);
	return off == s->len ? 0 : -1;
}

static int dump_net(const struct polbin_section *s, FILE *out)
{
	const uint8_t *d = s->data;
	uint32_t mode, nlb, nrt, i;
	size_t off = POLBIN_NET_HEADER_LEN;

	if (s->len < POLBIN_NET_HEADER_LEN ||
	    polbin_le32(d) != POLBIN_NET_VERSION || polbin_le32(d + 16) ||
	    polbin_le32(d + 20))
		return -1;
	mode = polbin_le32(d + 4);
	nlb = polbin_le32(d + 8);
	nrt = polbin_le32(d + 12);
	if ((mode != POLBIN_NET_NONE && mode != POLBIN_NET_FILTERED) ||
	    nlb > POLBIN_NET_MAX_LOOPBACK || nrt > POLBIN_NET_MAX_RUNTIME ||
	    (mode == POLBIN_NET_NONE && nrt))
		return -1;
	if (mode == POLBIN_NET_NONE)
		fputs("  mode none: a network namespace of the box's own, "
		      "loopback only\n",
		      out);
	else
		fputs("  mode filtered: a network namespace of the box's own, "
		      "connected by pasta, egress filtered by the nft table "
		      "(NFT section)\n",
		      out);
	if (nlb)
		fputs("  host loopback TCP ports (polexec's relay, or the "
		      "backend's own rule):",
		      out);
	for (i = 0; i < nlb; i++, off += 4) {
		uint16_t lo, hi;

		if (s->len - off < 4)
			return -1;
		lo = polbin_le16(d + off);
		hi = polbin_le16(d + off + 2);
		if (lo == 0 || lo > hi)
			return -1;
		if (lo == hi)
			fprintf(out, " %u", lo);
		else
			fprintf(out, " %u-%u", lo, hi);
	}
	if (nlb)
		fputc('\n', out);
	for (i = 0; i < nrt; i++) {
		uint16_t plo, phi, nl;
		uint8_t kind, proto;

		if (s->len - off < 8)
			return -1;
		kind = d[off];
		proto = d[off + 1];
		plo = polbin_le16(d + off + 2);
		phi = polbin_le16(d + off + 4);
		nl = polbin_le16(d + off + 6);
		off += 8;
		if ((kind != POLBIN_NET_RT_NAME && kind != POLBIN_NET_RT_VAR) ||
		    (proto != 6 && proto != 17) || plo > phi || nl == 0 ||
		    nl > s->len - off)
			return -1;
		fprintf(out, "  runtime entry %u (sets rt4_%u, rt6_%u): %s ", i,
			i, i, kind == POLBIN_NET_RT_NAME ? "host" : "variable");
		put_clean(out, d + off, nl);
		fprintf(out, " %s ", proto == 6 ? "tcp" : "udp");
		if (plo == 0 && phi == 65535)
			fputs("any port", out);
		else if (plo == phi)
			fprintf(out, "port %u", plo);
		else
			fprintf(out, "ports %u-%u", plo, phi);
		fputs(kind == POLBIN_NET_RT_NAME
			  ? ", resolved by polexec at start\n"
			  : ", bound by polexec at start\n",
		      out);
		off += nl;
		while (off % 4) {
			if (off >= s->len || d[off])
				return -1;
			off++;
		}
	}
	return off == s->len ? 0 : -1;
}

/*
 * The NFT section: its messages counted, then the table in nft syntax as
 * printed from the artifact's IR, after checking that the IR compiles to
 * exactly these bytes (so the text is what the section loads).
 */
static int dump_nft(const struct polbin_section *s, const struct polbin *pb,
		    FILE *out)
{
	const struct polbin_section *irs = polbin_find(pb, POLBIN_SEC_IR);
	struct ir_policy *p = NULL;
	uint8_t *d = NULL;
	size_t len = 0, off = 0, nmsg = 0;
	char err[256];
	int rc = -1;

	while (off < s->len) {
		uint32_t ml;

		if (s->len - off < 16)
			return -1;
		ml = polbin_le32(s->data + off);
		if (ml < 16 || ml > s->len - off)
			return -1;
		off += (ml + 3u) & ~3u;
		nmsg++;
	}
	if (off != s->len)
		return -1;
	fprintf(out,
		"  %zu nfnetlink messages (polexec sends them in one "
		"batch)\n",
		nmsg);
	if (!irs || ir_deserialize(irs->data, irs->len, &p, err, sizeof(err)) !=
			IR_OK) {
		fputs("  (no IR section to print the table from)\n", out);
		return 0;
	}
	if (nft_section_build(p, &d, &len, err, sizeof(err)) || len != s->len ||
	    memcmp(d, s->data, len)) {
		fputs("  the section is not what the IR compiles to\n", out);
		goto out;
	}
	rc = nft_print(p, out, err, sizeof(err));
out:
	free(d);
	ir_policy_destroy(&p);
	return rc;
}

/* The path of Landlock path rule `want` (the LANDLOCK section), printed. */
static void ll_rule_path(const struct polbin *pb, uint32_t want, FILE *out)
{
	const struct polbin_section *s = polbin_find(pb, POLBIN_SEC_LANDLOCK);
	size_t off = POLBIN_LL_HEADER_SIZE;
	uint32_t i, n;

	if (!s || s->len < POLBIN_LL_HEADER_SIZE)
		goto none;
	n = polbin_le32(s->data + 40);
	for (i = 0; i < n && s->len - off >= 16; i++) {
		uint32_t plen = polbin_le32(s->data + off + 12);

		off += 16;
		if (plen > s->len - off)
			break;
		if (i == want) {
			put_clean(out, s->data + off, plen);
			return;
		}
		off += plen;
	}
none:
	fprintf(out, "(rule %u: no such Landlock path rule)", want);
}

/* The VIEW section (format in artifact/sections.h). */
static int dump_view(const struct polbin_section *s, const struct polbin *pb,
		     FILE *out)
{
	static const char *const kinds[] = {"?",   "bind", "tmpfs",
					    "dev", "proc", "link"};
	const uint8_t *d = s->data;
	uint32_t flags, n, i;
	size_t off = POLBIN_VIEW_HEADER_LEN;

	if (s->len < POLBIN_VIEW_HEADER_LEN ||
	    polbin_le32(d) != POLBIN_VIEW_VERSION || polbin_le32(d + 20))
		return -1;
	flags = polbin_le32(d + 4);
	n = polbin_le32(d + 16);
	if (flags & ~(uint32_t)(POLBIN_VIEW_F_ROOT | POLBIN_VIEW_F_BEST_EFFORT |
				POLBIN_VIEW_F_USER) ||
	    n > POLBIN_VIEW_MAX)
		return -1;
	if (flags & POLBIN_VIEW_F_USER)
		fprintf(out, "  user %u:%u\n", polbin_le32(d + 8),
			polbin_le32(d + 12));
	if (!(flags & POLBIN_VIEW_F_ROOT)) {
		fputs("  the host's tree (no fs section)\n", out);
		return n ? -1 : 0;
	}
	fprintf(out,
		"  a root of its own (an empty tmpfs), a pid namespace with "
		"polexec's init; %s\n",
		flags & POLBIN_VIEW_F_BEST_EFFORT
		    ? "best_effort: Landlock alone where it cannot be had"
		    : "require: refused where it cannot be had");
	for (i = 0; i < n; i++) {
		uint8_t kind, attrs;
		uint16_t plen;
		uint64_t size, access;

		if (s->len - off < POLBIN_VIEW_ENTRY_LEN)
			return -1;
		kind = d[off];
		attrs = d[off + 1];
		plen = polbin_le16(d + off + 2);
		size = polbin_le64(d + off + 8);
		access = polbin_le64(d + off + 16);
		if (kind < POLBIN_VIEW_BIND || kind > POLBIN_VIEW_LINK ||
		    (size_t)plen > s->len - off - POLBIN_VIEW_ENTRY_LEN)
			return -1;
		fprintf(out, "    %-5s ", kinds[kind]);
		if (kind == POLBIN_VIEW_BIND)
			ll_rule_path(pb, polbin_le32(d + off + 4), out);
		else
			put_clean(out, d + off + POLBIN_VIEW_ENTRY_LEN, plen);
		if (kind == POLBIN_VIEW_TMPFS)
			fprintf(out, " size %llu", (unsigned long long)size);
		if (kind == POLBIN_VIEW_BIND || kind == POLBIN_VIEW_TMPFS)
			fprintf(out, " nosuid%s%s%s",
				attrs & POLBIN_VIEW_A_RDONLY ? " ro" : " rw",
				attrs & POLBIN_VIEW_A_NOEXEC ? " noexec" : "",
				attrs & POLBIN_VIEW_A_NODEV ||
					kind == POLBIN_VIEW_TMPFS
				    ? " nodev"
				    : "");
		if (access) {
			fputs(", Landlock ", out);
			ll_fs_names(out, access);
		}
		if (kind == POLBIN_VIEW_LINK)
			fputs(" (the host's link, where it has one)", out);
		fputc('\n', out);
		off += POLBIN_VIEW_ENTRY_LEN + plen + (8 - plen % 8) % 8;
	}
	return off == s->len ? 0 : -1;
}

int dump_artifact(const uint8_t *buf, size_t len, FILE *out, char *err,
		  size_t errlen)
{
	char hex[2 * SHA256_LEN + 1];
	struct polbin pb;
	uint32_t i;

	if (polbin_parse(buf, len, backends_known_sections, &pb, err, errlen))
		return -1;
	sha256_hex(buf + 32, hex);
	fprintf(out, "polbin version %u, arch %s, %zu bytes, sha256 %s\n",
		pb.version, pb.arch == AUDIT_ARCH_X86_64 ? "x86_64" : "unknown",
		len, hex);
	for (i = 0; i < pb.nsections; i++) {
		const struct polbin_section *s = &pb.sections[i];
		int rc = 0;

		fprintf(out, "\n[%s] type %u%s, %u bytes\n",
			polbin_section_name(s->type), s->type,
			s->flags & POLBIN_F_CRITICAL ? ", critical" : "",
			s->len);
		switch (s->type) {
		case POLBIN_SEC_META:
			rc = dump_meta(s, out);
			break;
		case POLBIN_SEC_IR:
			if (dump_ir(s, out, err, errlen))
				return -1;
			break;
		case POLBIN_SEC_SECCOMP:
			rc = dump_seccomp(s, out);
			break;
		case POLBIN_SEC_ENV:
			rc = dump_env(s, out);
			break;
		case POLBIN_SEC_LANDLOCK:
			rc = dump_landlock(s, out);
			break;
		case POLBIN_SEC_LIMITS:
			rc = dump_limits(s, out);
			break;
		case POLBIN_SEC_NET:
			rc = dump_net(s, out);
			break;
		case POLBIN_SEC_NFT:
			rc = dump_nft(s, &pb, out);
			break;
		case POLBIN_SEC_OBSERVE:
			rc = dump_observe(s, out);
			break;
		case POLBIN_SEC_EBPF:
			fputs(
			    "  cgroup eBPF egress: the box in a cgroup of its "
			    "own, in the caller's network, these programs "
			    "attached (no namespace, no pasta)\n",
			    out);
			rc = ebpf_print(s->data, s->len, out, err, errlen) ? 1
									   : 0;
			break;
		case POLBIN_SEC_VIEW:
			rc = dump_view(s, &pb, out);
			break;
		case POLBIN_SEC_NOEXEC:
			fputs("  stacked only where vm.memfd_noexec = 2 cannot "
			      "be set in the box's pid namespace\n",
			      out);
			rc = dump_seccomp(s, out);
			break;
		case POLBIN_SEC_NONET:
			fputs("  stacked only where the box cannot have a "
			      "network namespace of its own (net none)\n",
			      out);
			rc = dump_seccomp(s, out);
			break;
		case POLBIN_SEC_BROKER:
			fputs("  installed in place of NOTIFY only where the "
			      "notify broker enforces the net layer\n",
			      out);
			rc = dump_seccomp(s, out);
			break;
		case POLBIN_SEC_UNENFORCED:
			fputs("  not enforced by this version, so polexec "
			      "refuses the artifact: ",
			      out);
			put_clean(out, s->data, s->len);
			fputc('\n', out);
			break;
		default:
			fputs("  (no printer for this section)\n", out);
		}
		if (rc) {
			snprintf(err, errlen, "section %s is malformed",
				 polbin_section_name(s->type));
			return -1;
		}
	}
	return ferror(out) ? -1 : 0;
}
