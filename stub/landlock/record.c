/* SPDX-License-Identifier: MIT */
/*
 * The Landlock layer's part of the run record (docs/OUTPUT.md): what was
 * installed, the rules as bound, what was dropped or skipped and why.
 */
#include "landlock.h"
#include "lib/util.h"

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

void landlock_record(struct text *o, const struct ll_spec *l,
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

/* ll_net_names' order: bit 0 bind_tcp, bit 1 connect_tcp */
#define LL_NET_BIND_TCP	   1u
#define LL_NET_CONNECT_TCP 2u

int landlock_tcp_contained(const struct ll_run *run)
{
	return (run->net & LL_NET_CONNECT_TCP) != 0;
}

void landlock_record_tcp(struct text *o, const struct ll_spec *l,
			 const struct ll_run *run)
{
	static const struct {
		const char *key;
		uint32_t bit;
	} dirs[] = {{"tcp_connect", LL_NET_CONNECT_TCP},
		    {"tcp_bind", LL_NET_BIND_TCP}};
	uint32_t i, k, n;

	text_add(o, ",\"mode\":\"host\",\"egress\":\"tcp ports by landlock\"");
	for (k = 0; k < 2; k++) {
		text_add(o, ",\"%s\":", dirs[k].key);
		if (!(run->net & dirs[k].bit)) {
			text_add(o, "\"any\"");
			continue;
		}
		text_add(o, "[");
		for (i = 0, n = 0; i < l->nports; i++)
			if (l->ports[i].access == dirs[k].bit)
				text_add(o, n++ ? ",\"%u-%u\"" : "\"%u-%u\"",
					 l->ports[i].lo, l->ports[i].hi);
		text_add(o, "]");
	}
}
