/* SPDX-License-Identifier: MIT */
/*
 * The NFT section's table in nft syntax. Each line here is the source of one
 * object or rule of nft.c, in the same order, so that nft
 * emits the same expressions for it.
 */
#include "backend.h"
#include "sections.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

static const char *proto_name(uint8_t p)
{
	return p == IR_PROTO_UDP ? "udp" : "tcp";
}

static void put_addr(FILE *out, const uint8_t *a, int family)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(family == 4 ? AF_INET : AF_INET6, a, buf, sizeof(buf));
	fputs(buf, out);
}

static void put_ports(FILE *out, uint16_t lo, uint16_t hi)
{
	if (lo == hi)
		fprintf(out, "%u", lo);
	else
		fprintf(out, "%u-%u", lo, hi);
}

static int put_interval_set(FILE *out, const struct ir_policy *p,
			    const char *name, int verdict, int family,
			    char *err, size_t errlen)
{
	struct nft_elem *v;
	size_t n, i, a = family == 4 ? 4 : 16;

	if (nft_elements(p, verdict, family, &v, &n, err, errlen))
		return -1;
	fprintf(out,
		"\tset %s {\n\t\ttype ipv%d_addr . inet_proto . inet_service\n"
		"\t\tflags interval\n",
		name, family);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n\t\t\t     " : "\t\telements = { ", out);
		put_addr(out, v[i].lo, family);
		if (memcmp(v[i].lo, v[i].hi, a)) {
			fputc('-', out);
			put_addr(out, v[i].hi, family);
		}
		fprintf(out, " . %s . ", proto_name(v[i].proto));
		put_ports(out, v[i].plo, v[i].phi);
	}
	if (n)
		fputs(" }\n", out);
	fputs("\t}\n\n", out);
	free(v);
	return 0;
}

static void put_clean(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s >= 0x20 && *s < 0x7f ? *s : '?', out);
}

int nft_print(const struct ir_policy *p, FILE *out, char *err, size_t errlen)
{
	static const char *const nd[] = {
	    "nd-router-solicit", "nd-neighbor-solicit", "nd-neighbor-advert"};
	size_t i, nrt = nft_runtime_count(p);
	int f, j;

	if (!p->net.present || p->net.mode != IR_NET_FILTERED) {
		snprintf(err, errlen, "nft: not net filtered");
		return -1;
	}
	fprintf(out, "table inet %s {\n", POLBIN_NFT_TABLE);
	if (put_interval_set(out, p, "allow4", IR_NET_ALLOW, 4, err, errlen) ||
	    put_interval_set(out, p, "allow6", IR_NET_ALLOW, 6, err, errlen) ||
	    put_interval_set(out, p, "deny4", IR_NET_DENY, 4, err, errlen) ||
	    put_interval_set(out, p, "deny6", IR_NET_DENY, 6, err, errlen))
		return -1;
	for (f = 4; f <= 6; f += 2)
		fprintf(out,
			"\tset blocked%d {\n"
			"\t\ttype ipv%d_addr . inet_proto . inet_service\n"
			"\t\tsize %d\n\t\tflags dynamic\n\t}\n\n",
			f, f, POLBIN_NFT_BLOCKED_SIZE);
	for (f = 4; f <= 6; f += 2)
		fprintf(out,
			"\tset refused%d {\n\t\ttype inet_service\n"
			"\t\tsize %d\n\t\tflags dynamic\n\t}\n\n",
			f, POLBIN_NFT_BLOCKED_SIZE);
	for (i = 0; i < nrt; i++) {
		const struct ir_net_entry *x = nft_runtime_entry(p, i);

		fprintf(out, "\t# rt4_%zu/rt6_%zu: ", i, i);
		put_clean(out, x->name ? x->name : "?");
		fprintf(out, " (%s ", proto_name(x->proto));
		put_ports(out, x->port_lo, x->port_hi);
		fputs("), filled by polexec at start\n", out);
		for (f = 4; f <= 6; f += 2)
			fprintf(
			    out,
			    "\tset rt%d_%zu {\n\t\ttype ipv%d_addr\n\t}\n\n", f,
			    i, f);
	}
	fputs("\tchain output {\n"
	      "\t\ttype filter hook output priority 0; policy drop;\n"
	      "\t\tmeta oif 1 meta nfproto ipv4 ip saddr 127.0.0.0/8 "
	      "tcp flags & (rst | ack) == "
	      "rst | ack tcp sequence 0 add @refused4 { tcp sport }\n"
	      "\t\tmeta oif 1 meta nfproto ipv6 ip6 saddr ::1 "
	      "tcp flags & (rst | ack) == "
	      "rst | ack tcp sequence 0 add @refused6 { tcp sport }\n"
	      "\t\tmeta oif 1 accept\n"
	      "\t\tmeta l4proto tcp ct state established,related accept\n",
	      out);
	for (j = 0; j < 3; j++)
		fprintf(out, "\t\ticmpv6 type %s accept\n", nd[j]);
	fputs("\t\tip daddr . meta l4proto . th dport @deny4 goto blocked\n"
	      "\t\tip6 daddr . meta l4proto . th dport @deny6 goto blocked\n"
	      "\t\tip daddr . meta l4proto . th dport @allow4 accept\n"
	      "\t\tip6 daddr . meta l4proto . th dport @allow6 accept\n",
	      out);
	for (i = 0; i < nrt; i++) {
		const struct ir_net_entry *x = nft_runtime_entry(p, i);

		for (f = 4; f <= 6; f += 2) {
			fprintf(out, "\t\t%s daddr @rt%d_%zu meta l4proto %s",
				f == 4 ? "ip" : "ip6", f, i,
				proto_name(x->proto));
			if (!(x->port_lo == 0 && x->port_hi == 65535)) {
				fputs(" th dport ", out);
				put_ports(out, x->port_lo, x->port_hi);
			}
			fputs(" accept\n", out);
		}
	}
	fputs("\t\tgoto blocked\n\t}\n\n\tchain blocked {\n", out);
	for (f = 4; f <= 6; f += 2)
		for (j = 0; j < 2; j++)
			fprintf(out,
				"\t\tmeta l4proto %s add @blocked%d { %s daddr "
				". meta l4proto . th dport }\n",
				j ? "udp" : "tcp", f, f == 4 ? "ip" : "ip6");
	fputs("\t\tmeta l4proto tcp reject with tcp reset\n"
	      "\t\tmeta l4proto udp reject with icmpx admin-prohibited\n"
	      "\t\tdrop\n\t}\n\n"
	      "\tchain input {\n"
	      "\t\ttype filter hook input priority 0; policy accept;\n"
	      "\t\tmeta iif 1 accept\n"
	      "\t\tmeta l4proto udp ct state established accept\n"
	      "\t\tmeta l4proto udp drop\n\t}\n}\n",
	      out);
	return ferror(out) ? -1 : 0;
}
