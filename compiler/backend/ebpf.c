/* SPDX-License-Identifier: MIT */
/*
 * The cgroup eBPF egress backend (artifact/sections.h, "EBPF";
 * docs/EGRESS.md, "The cgroup backend").
 *
 * The programs are fixed: bpf/egress/egress.bpf.c, compiled by clang at
 * polc's build and linked into polc as bytes (polc_egress_obj). libbpf
 * reads that object here: its programs (instructions, type, attach type)
 * and its BTF-defined maps, checked against the shapes the section
 * promises; libelf its relocations, which must all be the two maps'
 * BPF_LD_IMM64 and become the map's number in the section.
 *
 * The data is the policy's: one LPM rule per disjoint prefix of the
 * static allow and deny entries (the decomposition the nft sets use,
 * nft_elements(), with each address interval cut into prefixes), and the
 * host loopback ports. ebpf_validate() proves the rules equal to the IR
 * by its own model of an LPM lookup, at every point where either side can
 * change.
 */
#include "backend.h"
#include "ebpf_int.h"
#include "polbin.h"
#include "sections.h"

#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned char polc_egress_obj[];
extern unsigned int polc_egress_obj_len;

struct prog {
	uint32_t n;
	struct bpf_insn *insn;
};

static const struct {
	const char *name;
	enum bpf_prog_type type;
	enum bpf_attach_type attach;
} hooks[POLBIN_EBPF_NPROG] = {
    [POLBIN_EBPF_SOCK_CREATE] = {"sock_create", BPF_PROG_TYPE_CGROUP_SOCK,
				 BPF_CGROUP_INET_SOCK_CREATE},
    [POLBIN_EBPF_CONNECT4] = {"connect4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_INET4_CONNECT},
    [POLBIN_EBPF_CONNECT6] = {"connect6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_INET6_CONNECT},
    [POLBIN_EBPF_SENDMSG4] = {"sendmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_UDP4_SENDMSG},
    [POLBIN_EBPF_SENDMSG6] = {"sendmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			      BPF_CGROUP_UDP6_SENDMSG},
    [POLBIN_EBPF_BIND4] = {"bind4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			   BPF_CGROUP_INET4_BIND},
    [POLBIN_EBPF_BIND6] = {"bind6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			   BPF_CGROUP_INET6_BIND},
    [POLBIN_EBPF_EGRESS] = {"egress", BPF_PROG_TYPE_CGROUP_SKB,
			    BPF_CGROUP_INET_EGRESS},
    [POLBIN_EBPF_INGRESS] = {"ingress", BPF_PROG_TYPE_CGROUP_SKB,
			     BPF_CGROUP_INET_INGRESS},
};

const char *ebpf_hook_name(uint32_t hook)
{
	return hook < POLBIN_EBPF_NPROG ? hooks[hook].name : "?";
}

/* ---- the object ---------------------------------------------------------- */

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

/* The map a relocation's symbol names, or -1. */
static int map_number(const char *name)
{
	if (!strcmp(name, "rules"))
		return POLBIN_EBPF_MAP_RULES;
	if (!strcmp(name, "blocked"))
		return POLBIN_EBPF_MAP_BLOCKED;
	return -1;
}

/*
 * The relocations of the section named sec (.rel<sec>) applied to insn:
 * each must be a map's BPF_LD_IMM64, which gets src_reg
 * BPF_PSEUDO_MAP_FD and the map's number as imm.
 */
static int relocate(Elf *elf, const char *sec, struct prog *pr, char *err,
		    size_t errlen)
{
	size_t shstrndx, k;
	Elf_Scn *scn = NULL, *symscn;
	GElf_Shdr sh, symsh;
	char want[256];
	int found = 0;

	snprintf(want, sizeof(want), ".rel%s", sec);
	if (elf_getshdrstrndx(elf, &shstrndx))
		goto bad;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *rel, *sym;

		if (!gelf_getshdr(scn, &sh))
			goto bad;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, want))
			continue;
		if (sh.sh_type != SHT_REL || found++)
			goto bad;
		symscn = elf_getscn(elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh) ||
		    !(rel = elf_getdata(scn, NULL)) ||
		    !(sym = elf_getdata(symscn, NULL)))
			goto bad;
		for (k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Rel r;
			GElf_Sym s;
			const char *sn;
			size_t i;
			int m;

			if (!gelf_getrel(rel, (int)k, &r) ||
			    !gelf_getsym(sym, (int)GELF_R_SYM(r.r_info), &s))
				goto bad;
			sn = elf_strptr(elf, symsh.sh_link, s.st_name);
			i = r.r_offset / sizeof(struct bpf_insn);
			m = sn ? map_number(sn) : -1;
			if (m < 0 || r.r_offset % sizeof(struct bpf_insn) ||
			    i + 1 >= pr->n ||
			    pr->insn[i].code != (BPF_LD | BPF_DW | BPF_IMM) ||
			    pr->insn[i].src_reg != 0) {
				snprintf(err, errlen,
					 "ebpf: %s: relocation %zu is not a "
					 "map's 64-bit load",
					 sec, k);
				return -1;
			}
			pr->insn[i].src_reg = BPF_PSEUDO_MAP_FD;
			pr->insn[i].imm = m;
			pr->insn[i + 1].imm = 0;
		}
	}
	return 0;
bad:
	snprintf(err, errlen, "ebpf: %s: unreadable relocations", sec);
	return -1;
}

static int map_shape(struct bpf_object *o, const char *name,
		     enum bpf_map_type type, uint32_t key, uint32_t val,
		     uint32_t flags)
{
	const struct bpf_map *m = bpf_object__find_map_by_name(o, name);

	return m && bpf_map__type(m) == type && bpf_map__key_size(m) == key &&
	       bpf_map__value_size(m) == val && bpf_map__map_flags(m) == flags;
}

static struct prog progs[POLBIN_EBPF_NPROG];
static int progs_read;

static int read_object(char *err, size_t errlen)
{
	struct bpf_object *o;
	struct bpf_program *bp;
	Elf *elf = NULL;
	uint32_t h;
	int rc = -1;

	if (progs_read)
		return 0;
	libbpf_set_print(quiet);
	o = bpf_object__open_mem(polc_egress_obj, polc_egress_obj_len, NULL);
	if (!o) {
		snprintf(err, errlen,
			 "ebpf: libbpf cannot read the programs' "
			 "object");
		return -1;
	}
	if (!map_shape(o, "rules", BPF_MAP_TYPE_LPM_TRIE, POLBIN_EBPF_KEY_LEN,
		       POLBIN_EBPF_MAP_VAL_LEN, BPF_F_NO_PREALLOC) ||
	    !map_shape(o, "blocked", BPF_MAP_TYPE_HASH, POLBIN_EBPF_BLOCKED_KEY,
		       8, 0)) {
		snprintf(err, errlen,
			 "ebpf: the object's maps are not the "
			 "section's");
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)polc_egress_obj, polc_egress_obj_len);
	if (!elf) {
		snprintf(err, errlen, "ebpf: libelf cannot read the object");
		goto out;
	}
	bpf_object__for_each_program(bp, o)
	{
		const struct bpf_insn *in = bpf_program__insns(bp);
		size_t n = bpf_program__insn_cnt(bp), i;

		for (h = 0; h < POLBIN_EBPF_NPROG; h++)
			if (hooks[h].attach ==
				bpf_program__expected_attach_type(bp) &&
			    hooks[h].type == bpf_program__type(bp))
				break;
		if (h == POLBIN_EBPF_NPROG || progs[h].insn || !n ||
		    n > POLBIN_EBPF_MAX_INSNS) {
			snprintf(err, errlen,
				 "ebpf: program %s: unknown hook, "
				 "twice, or too long",
				 bpf_program__name(bp));
			goto out;
		}
		progs[h].insn = malloc(n * sizeof(*in));
		if (!progs[h].insn) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		memcpy(progs[h].insn, in, n * sizeof(*in));
		progs[h].n = (uint32_t)n;
		if (relocate(elf, bpf_program__section_name(bp), &progs[h], err,
			     errlen))
			goto out;
		/* everything inlined: no call of a function of ours */
		for (i = 0; i < n; i++)
			if (in[i].code == (BPF_JMP | BPF_CALL) &&
			    in[i].src_reg) {
				snprintf(err, errlen,
					 "ebpf: %s calls a function: "
					 "everything must be inlined",
					 hooks[h].name);
				goto out;
			}
	}
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		if (!progs[h].insn) {
			snprintf(err, errlen, "ebpf: no %s program",
				 hooks[h].name);
			goto out;
		}
	progs_read = 1;
	rc = 0;
out:
	if (rc)
		for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
			free(progs[h].insn);
			progs[h].insn = NULL;
		}
	if (elf)
		elf_end(elf);
	bpf_object__close(o);
	return rc;
}

/*
 * polc doctor: whether the kernel takes the programs from this process,
 * loaded by libbpf (the rules map of one entry) and closed at once;
 * nothing is attached. 0 and what loaded; 1 and why not.
 */
int ebpf_probe(char *d, size_t len)
{
	struct bpf_object *o;
	int rc;

	libbpf_set_print(quiet);
	o = bpf_object__open_mem(polc_egress_obj, polc_egress_obj_len, NULL);
	if (!o) {
		snprintf(d, len, "libbpf cannot read the programs' object");
		return 1;
	}
	rc = bpf_object__load(o);
	if (rc)
		snprintf(d, len,
			 "the cgroup egress programs do not load here (%s): "
			 "polexec keeps the network namespace (`backend "
			 "cgroup namespace` falls back to it, `backend "
			 "cgroup` is refused); CAP_BPF and CAP_NET_ADMIN "
			 "(root) load them",
			 strerror(rc < 0 ? -rc : rc));
	else
		snprintf(d, len,
			 "the nine cgroup egress programs load: polexec "
			 "enforces net filtered with them (no namespace, no "
			 "pasta) where the policy (`backend cgroup`, `backend "
			 "cgroup namespace`) or --net-backend asks");
	bpf_object__close(o);
	return rc != 0;
}

/* ---- the rules ----------------------------------------------------------- */

struct rules {
	uint8_t *v; /* RULE_LEN each */
	size_t n, cap;
};

static int rule_add(struct rules *r, uint8_t kind, uint8_t proto, int family,
		    u128 addr, unsigned plen, const struct ir_port_range *pr,
		    size_t npr)
{
	uint8_t *d;
	size_t i;

	if (r->n >= POLBIN_EBPF_MAX_RULES)
		return 1;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 32;
		void *v = realloc(r->v, cap * RULE_LEN);

		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	d = r->v + r->n++ * RULE_LEN;
	memset(d, 0, RULE_LEN);
	polbin_put_le32(d, 32 + plen);
	d[4] = kind;
	d[5] = proto;
	addr_put(d + 8, addr, family);
	polbin_put_le32(d + POLBIN_EBPF_KEY_LEN, (uint32_t)npr);
	for (i = 0; i < npr; i++) {
		polbin_put_le16(d + POLBIN_EBPF_KEY_LEN + 4 + 4 * i, pr[i].lo);
		polbin_put_le16(d + POLBIN_EBPF_KEY_LEN + 6 + 4 * i, pr[i].hi);
	}
	return 0;
}

/* lo..hi as the fewest prefixes, each one rule. */
static int interval_rules(struct rules *r, uint8_t kind, uint8_t proto,
			  int family, u128 lo, u128 hi,
			  const struct ir_port_range *pr, size_t npr)
{
	unsigned bits = family == 4 ? 32 : 128;
	int rc;

	if (lo == 0 && hi == addr_max(family))
		return rule_add(r, kind, proto, family, 0, 0, pr, npr);
	for (;;) {
		unsigned k = 0;
		u128 size;

		while (k + 1 < bits && !(lo & (((u128)1 << (k + 1)) - 1)) &&
		       lo + (((u128)1 << (k + 1)) - 1) <= hi)
			k++;
		size = (u128)1 << k;
		if ((rc = rule_add(r, kind, proto, family, lo, bits - k, pr,
				   npr)))
			return rc;
		if (lo + (size - 1) >= hi)
			return 0;
		lo += size;
	}
}

/*
 * The static rules of one verdict and family: nft_elements() gives the
 * disjoint boxes, consecutive ones of one interval and protocol being
 * its port ranges. 0; 1 (err) when the cgroup backend cannot hold them;
 * -1 out of memory.
 */
static int verdict_rules(const struct ir_policy *p, int verdict, int family,
			 struct rules *r, char *err, size_t errlen)
{
	struct ir_port_range pr[POLBIN_EBPF_MAX_RANGES];
	struct nft_elem *e = NULL;
	size_t n = 0, i = 0, j, k;
	uint8_t kind =
	    verdict == IR_NET_ALLOW
		? (family == 4 ? POLBIN_EBPF_K_ALLOW4 : POLBIN_EBPF_K_ALLOW6)
		: (family == 4 ? POLBIN_EBPF_K_DENY4 : POLBIN_EBPF_K_DENY6);
	int rc = 0;

	if (nft_elements(p, verdict, family, &e, &n, err, errlen))
		return 1;
	while (i < n && !rc) {
		for (j = i; j < n && e[j].proto == e[i].proto &&
			    !memcmp(e[j].lo, e[i].lo, 16) &&
			    !memcmp(e[j].hi, e[i].hi, 16);
		     j++)
			;
		if (j - i > POLBIN_EBPF_MAX_RANGES) {
			snprintf(err, errlen,
				 "the cgroup backend takes at most %d port "
				 "ranges per address",
				 POLBIN_EBPF_MAX_RANGES);
			rc = 1;
			break;
		}
		for (k = i; k < j; k++)
			pr[k - i] = (struct ir_port_range){e[k].plo, e[k].phi};
		rc = interval_rules(r, kind, e[i].proto, family,
				    addr_get(e[i].lo, family),
				    addr_get(e[i].hi, family), pr, j - i);
		if (rc > 0)
			snprintf(err, errlen,
				 "the cgroup backend takes at most %u rules",
				 POLBIN_EBPF_MAX_RULES);
		i = j;
	}
	free(e);
	return rc;
}

int ebpf_wanted(const struct ir_policy *p)
{
	if (!p->net.present || p->net.mode == IR_NET_HOST ||
	    p->net.backend == IR_NET_BACKEND_NAMESPACE)
		return 0;
	/* a plain `net none` is a namespace of its own and nothing else */
	return p->net.backend == IR_NET_BACKEND_CGROUP ||
	       p->net.backend == IR_NET_BACKEND_CGROUP_NAMESPACE ||
	       p->net.mode == IR_NET_FILTERED || p->net.nloopback;
}

static int all_rules(const struct ir_policy *p, struct rules *r, char *err,
		     size_t errlen)
{
	struct ir_port_range lb[POLBIN_EBPF_MAX_RANGES];
	int v, f, rc;
	size_t n;

	for (v = 0; v < 2; v++)
		for (f = 4; f <= 6; f += 2)
			if (p->net.mode == IR_NET_FILTERED &&
			    (rc = verdict_rules(p,
						v ? IR_NET_ALLOW : IR_NET_DENY,
						f, r, err, errlen)))
				return rc;
	if (p->net.nloopback) {
		if (p->net.nloopback > POLBIN_EBPF_MAX_RANGES) {
			snprintf(err, errlen,
				 "the cgroup backend takes at most %d "
				 "loopback port ranges",
				 POLBIN_EBPF_MAX_RANGES);
			return 1;
		}
		memcpy(lb, p->net.loopback, p->net.nloopback * sizeof(*lb));
		n = ir_port_ranges_merge(lb, p->net.nloopback);
		if ((rc = rule_add(r, POLBIN_EBPF_K_LOOP, IR_PROTO_TCP, 4, 0, 0,
				   lb, n)))
			return rc;
	}
	if (r->n)
		qsort(r->v, r->n, RULE_LEN, key_cmp);
	return 0;
}

/* The header's flags: the backend forced, or first of the list. */
static uint32_t ebpf_flags(const struct ir_policy *p)
{
	return p->net.backend == IR_NET_BACKEND_CGROUP ? POLBIN_EBPF_F_FORCED
	       : p->net.backend == IR_NET_BACKEND_CGROUP_NAMESPACE
		   ? POLBIN_EBPF_F_FALLBACK
		   : 0;
}

int ebpf_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
		       char *err, size_t errlen)
{
	struct rules r = {0};
	size_t size = HDR_LEN, off;
	uint32_t h;
	uint8_t *d;
	int rc;

	*out = NULL;
	*len = 0;
	if (!ebpf_wanted(p))
		return 0;
	if (read_object(err, errlen))
		return -1;
	rc = all_rules(p, &r, err, errlen);
	if (rc) {
		free(r.v);
		if (rc < 0)
			snprintf(err, errlen, "out of memory");
		return rc;
	}
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		size += 8 + (size_t)progs[h].n * sizeof(struct bpf_insn);
	size += r.n * RULE_LEN;
	d = calloc(1, size);
	if (!d) {
		free(r.v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	polbin_put_le32(d, POLBIN_EBPF_VERSION);
	polbin_put_le32(d + 4, ebpf_flags(p));
	polbin_put_le32(d + 8, POLBIN_EBPF_NPROG);
	polbin_put_le32(d + 12, (uint32_t)r.n);
	off = HDR_LEN;
	for (h = 0; h < POLBIN_EBPF_NPROG; h++) {
		polbin_put_le32(d + off, h);
		polbin_put_le32(d + off + 4, progs[h].n);
		/* x86_64, little-endian: struct bpf_insn as the kernel reads
		 * it */
		memcpy(d + off + 8, progs[h].insn,
		       progs[h].n * sizeof(struct bpf_insn));
		off += 8 + progs[h].n * sizeof(struct bpf_insn);
	}
	if (r.n)
		memcpy(d + off, r.v, r.n * RULE_LEN);
	free(r.v);
	*out = d;
	*len = size;
	return 0;
}

/* ---- validation -----------------------------------------------------------
 */

/* Port ranges merged, as a canonical list. */
struct plist {
	size_t n;
	struct ir_port_range r[POLBIN_EBPF_MAX_RANGES + IR_MAX_NET];
};

/* What the LPM map answers for (kind, proto, address a): the longest
 * prefix holding a, its ranges; an empty list when none does. */
static void map_ports(const struct ebpf_decoded *dc, uint8_t kind,
		      uint8_t proto, int family, u128 a, struct plist *out)
{
	unsigned bits = family == 4 ? 32 : 128;
	int best = -1;
	uint32_t i, bestlen = 0, j;

	out->n = 0;
	for (i = 0; i < dc->nrules; i++) {
		const uint8_t *k = dc->rules + (size_t)i * RULE_LEN;
		uint32_t plen = rd32(k) - 32;
		u128 net = addr_get(k + 8, family);
		u128 mask = plen == 0 ? 0 : ~(u128)0 << (bits - plen);

		if (family == 4)
			mask &= 0xffffffffu;
		if (k[4] != kind || k[5] != proto || (a & mask) != net)
			continue;
		if (best < 0 || plen > bestlen) {
			best = (int)i;
			bestlen = plen;
		}
	}
	if (best < 0)
		return;
	{
		const uint8_t *v =
		    dc->rules + (size_t)best * RULE_LEN + POLBIN_EBPF_KEY_LEN;

		for (j = 0; j < rd32(v); j++)
			out->r[out->n++] = (struct ir_port_range){
			    rd16(v + 4 + 4 * j), rd16(v + 6 + 4 * j)};
	}
	out->n = ir_port_ranges_merge(out->r, out->n);
}

/* What the IR says for (verdict, proto, address a): the ports of every
 * static entry holding it. */
static void ir_ports(const struct ir_policy *p, int verdict, uint8_t proto,
		     int family, u128 a, struct plist *out)
{
	unsigned bits = family == 4 ? 32 : 128;
	uint32_t i;

	out->n = 0;
	for (i = 0; i < p->net.nentries; i++) {
		const struct ir_net_entry *e = &p->net.entries[i];
		u128 mask;

		if (e->verdict != verdict || e->proto != proto ||
		    e->kind != (family == 4 ? IR_ADDR_V4 : IR_ADDR_V6))
			continue;
		mask = e->prefix == 0 ? 0 : ~(u128)0 << (bits - e->prefix);
		if (family == 4)
			mask &= 0xffffffffu;
		if ((a & mask) == (addr_get(e->addr, family) & mask))
			out->r[out->n++] =
			    (struct ir_port_range){e->port_lo, e->port_hi};
	}
	out->n = ir_port_ranges_merge(out->r, out->n);
}

struct points {
	u128 *v;
	size_t n, cap;
};

static int point(struct points *pt, u128 a)
{
	if (pt->n == pt->cap) {
		size_t cap = pt->cap ? 2 * pt->cap : 64;
		void *v = realloc(pt->v, cap * sizeof(*pt->v));

		if (!v)
			return -1;
		pt->v = v;
		pt->cap = cap;
	}
	pt->v[pt->n++] = a;
	return 0;
}

/* A prefix's first address and one past its last (when not the end). */
static int prefix_points(struct points *pt, u128 net, unsigned plen,
			 unsigned bits, u128 max)
{
	u128 host = plen == 0 ? max : (((u128)1 << (bits - plen)) - 1);

	if (point(pt, net & ~host))
		return -1;
	if ((net | host) < max && point(pt, (net | host) + 1))
		return -1;
	return 0;
}

static int check_verdict(const struct ir_policy *p,
			 const struct ebpf_decoded *dc, int verdict, int family,
			 uint8_t proto, char *err, size_t errlen)
{
	uint8_t kind =
	    verdict == IR_NET_ALLOW
		? (family == 4 ? POLBIN_EBPF_K_ALLOW4 : POLBIN_EBPF_K_ALLOW6)
		: (family == 4 ? POLBIN_EBPF_K_DENY4 : POLBIN_EBPF_K_DENY6);
	unsigned bits = family == 4 ? 32 : 128;
	u128 max = addr_max(family);
	struct points pt = {0};
	struct plist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t i;
	uint32_t k;
	int rc = -1;

	if (!a || !b || point(&pt, 0))
		goto oom;
	for (k = 0; k < p->net.nentries; k++) {
		const struct ir_net_entry *e = &p->net.entries[k];

		if (e->verdict == verdict && e->proto == proto &&
		    e->kind == (family == 4 ? IR_ADDR_V4 : IR_ADDR_V6) &&
		    prefix_points(&pt, addr_get(e->addr, family), e->prefix,
				  bits, max))
			goto oom;
	}
	for (k = 0; k < dc->nrules; k++) {
		const uint8_t *key = dc->rules + (size_t)k * RULE_LEN;

		if (key[4] == kind && key[5] == proto &&
		    prefix_points(&pt, addr_get(key + 8, family),
				  rd32(key) - 32, bits, max))
			goto oom;
	}
	qsort(pt.v, pt.n, sizeof(*pt.v), u128_cmp);
	for (i = 0; i < pt.n; i++) {
		if (i && pt.v[i] == pt.v[i - 1])
			continue;
		ir_ports(p, verdict, proto, family, pt.v[i], a);
		map_ports(dc, kind, proto, family, pt.v[i], b);
		if (a->n != b->n || memcmp(a->r, b->r, a->n * sizeof(*a->r))) {
			uint8_t x[16];
			char s[INET6_ADDRSTRLEN];

			addr_put(x, pt.v[i], family);
			inet_ntop(family == 4 ? AF_INET : AF_INET6, x, s,
				  sizeof(s));
			snprintf(err, errlen,
				 "ebpf: the %s rules differ from the IR at "
				 "%s %s (%zu port ranges against %zu)",
				 verdict == IR_NET_ALLOW ? "allow" : "deny", s,
				 proto == IR_PROTO_TCP ? "tcp" : "udp", b->n,
				 a->n);
			rc = 1;
			goto out;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(pt.v);
	free(a);
	free(b);
	return rc;
}

int ebpf_validate(const struct ir_policy *p, const uint8_t *s, size_t len,
		  char *err, size_t errlen)
{
	static const uint8_t protos[] = {IR_PROTO_TCP, IR_PROTO_UDP};
	struct ebpf_decoded dc;
	struct plist *a;
	uint32_t h, i, nloop = 0;
	int v, f, j, rc;

	if (ebpf_decode(s, len, &dc, err, errlen))
		return 1;
	if (read_object(err, errlen))
		return -1;
	if (dc.flags != ebpf_flags(p)) {
		snprintf(err, errlen,
			 "ebpf: the forced and fallback flags are not the "
			 "IR's");
		return 1;
	}
	for (h = 0; h < POLBIN_EBPF_NPROG; h++)
		if (dc.ninsn[h] != progs[h].n ||
		    memcmp(dc.prog[h], progs[h].insn,
			   progs[h].n * sizeof(struct bpf_insn))) {
			snprintf(err, errlen,
				 "ebpf: program %s is not this polc's",
				 hooks[h].name);
			return 1;
		}
	for (v = 0; v < 2; v++)
		for (f = 4; f <= 6; f += 2)
			for (j = 0; j < 2; j++)
				if ((rc = check_verdict(
					 p, &dc, v ? IR_NET_ALLOW : IR_NET_DENY,
					 f, protos[j], err, errlen)))
					return rc;
	/* The loopback ports: one rule, exactly the IR's ports. */
	a = malloc(sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < dc.nrules; i++)
		nloop +=
		    dc.rules[(size_t)i * RULE_LEN + 4] == POLBIN_EBPF_K_LOOP;
	a->n = p->net.nloopback;
	memcpy(a->r, p->net.loopback, a->n * sizeof(*a->r));
	a->n = ir_port_ranges_merge(a->r, a->n);
	if (nloop != (a->n != 0)) {
		snprintf(err, errlen, "ebpf: %u loopback rules for %zu ranges",
			 nloop, a->n);
		free(a);
		return 1;
	}
	if (nloop) {
		struct plist *b = malloc(sizeof(*b));

		if (!b) {
			free(a);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		map_ports(&dc, POLBIN_EBPF_K_LOOP, IR_PROTO_TCP, 4, 0x7f000001,
			  b);
		rc = a->n != b->n || memcmp(a->r, b->r, a->n * sizeof(*a->r));
		free(b);
		if (rc) {
			free(a);
			snprintf(err, errlen,
				 "ebpf: the loopback ports differ "
				 "from the IR's");
			return 1;
		}
	}
	free(a);
	return 0;
}
