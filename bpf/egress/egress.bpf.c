/* SPDX-License-Identifier: MIT */
/*
 * The cgroup eBPF egress backend's programs (docs/EGRESS.md, "The cgroup
 * backend"): restricted C for clang -target bpf, compiled when polc is
 * built. polc reads the object with libbpf and puts the instructions in
 * the EBPF section (artifact/sections.h); polexec loads them with raw
 * bpf() calls and attaches each, with BPF_F_ALLOW_MULTI, to the cgroup it
 * made for the box.
 *
 * The decisions come from one LPM map, "rules", which polc derives from
 * the net IR (and polexec adds the pinned addresses of names and
 * ${VAR}s to): see allowed(). What is refused goes into "blocked", the
 * evidence polexec puts in the run record.
 *
 * Everything is inlined and there is no global data: the only
 * relocations are the two maps' BPF_LD_IMM64.
 */
#include <linux/bpf.h>
#include <linux/in.h>
#include <linux/socket.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "sections.h"

#define SOCK_STREAM 1
#define SOCK_DGRAM  2
#define ETH_P_IP    0x0800
#define ETH_P_IPV6  0x86dd

struct rule_key {
	__u32 prefixlen;
	__u8 kind, proto, zero[2];
	__u8 addr[16];
};

/* bit p of byte p / 8: port p */
struct rule_ports {
	__u8 bits[POLBIN_EBPF_MAP_VAL_LEN];
};

struct blocked_key {
	__u8 family, proto;
	__u16 port;
	__u8 addr[16];
};

_Static_assert(sizeof(struct rule_key) == POLBIN_EBPF_KEY_LEN, "key");
_Static_assert(sizeof(struct rule_ports) * 8 == 65536, "value");
_Static_assert(sizeof(struct blocked_key) == POLBIN_EBPF_BLOCKED_KEY, "bk");

/* max_entries here are placeholders: polexec sizes each map itself. */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct rule_key);
	__type(value, struct rule_ports);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct blocked_key);
	__type(value, __u64);
	__uint(max_entries, POLBIN_EBPF_BLOCKED_SIZE);
} blocked SEC(".maps");

/*
 * A destination, as the rules key it: the key itself (prefixlen, proto
 * and address set once; the kind set for each lookup), the port, and
 * whether it is IPv6 (0 or 1: a kind's IPv6 twin is its IPv4 one + 1).
 * IPv4 in the first 4 bytes of the address, the rest zero.
 */
struct dest {
	struct rule_key k;
	__u32 v6;
	__u32 port; /* host order */
};

/* No loop: the verifier checks this once (port / 8 < 8192). */
static __always_inline int ports_hold(const struct rule_ports *v, __u32 port)
{
	return v && (v->bits[(port & 0xffff) >> 3] >> (port & 7) & 1);
}

static __always_inline int lookup(struct dest *d, __u8 kind)
{
	d->k.kind = kind;
	return ports_hold(bpf_map_lookup_elem(&rules, &d->k), d->port);
}

static __always_inline __u32 word(const struct dest *d, int i)
{
	return ((const __u32 *)d->k.addr)[i];
}

/* 127.0.0.0/8 and 0.0.0.0 (which connects to 127.0.0.1), ::1 and ::. */
static __always_inline int loopback(const struct dest *d)
{
	__u32 a0 = word(d, 0);

	if (!d->v6)
		return (a0 & 0xff) == 127 || a0 == 0;
	return (a0 | word(d, 1) | word(d, 2)) == 0 &&
	       (word(d, 3) == 0 || word(d, 3) == bpf_htonl(1));
}

/*
 * d->k.proto is TCP or UDP (the callers refuse any other before).
 * Two lookups at most: a loopback address is judged by the LOOP rule
 * alone; any other by the DENY rules, then the ALLOW ones (which hold
 * the pinned addresses of names and ${VAR}s too: polexec adds each to
 * the ports of the static rule that covers it).
 */
static __always_inline int allowed(struct dest *d)
{
	if (loopback(d))
		return lookup(d, POLBIN_EBPF_K_LOOP);
	if (lookup(d, POLBIN_EBPF_K_DENY4 + d->v6))
		return 0;
	return lookup(d, POLBIN_EBPF_K_ALLOW4 + d->v6);
}

/* The evidence: what the box tried and was refused (the first time of
 * each; a full map takes no more, and polexec then says the list may be
 * short). The blocked key is made in place, over the rules key's kind,
 * proto and zero bytes, followed by the address: no copy on the stack. */
static __always_inline void record(struct dest *d)
{
	__u8 *b = (__u8 *)&d->k + 4;
	__u64 one = 1;

	_Static_assert(__builtin_offsetof(struct rule_key, addr) == 8, "addr");
	b[0] = (__u8)(4 + 2 * d->v6);
	/* b[1] is the proto already */
	*(__u16 *)(b + 2) = (__u16)d->port;
	bpf_map_update_elem(&blocked, b, &one, BPF_NOEXIST);
}

static __always_inline int judge(struct dest *d)
{
	if (allowed(d))
		return 1;
	record(d);
	return 0;
}

/* A TCP or UDP socket: the only ones the rules judge (and the only ones
 * sock_create lets the box make). */
static __always_inline int tcp_udp(__u32 type, __u32 protocol)
{
	__u64 tp = (__u64)type << 32 | protocol; /* one word: fewer branches */

	return tp == ((__u64)SOCK_STREAM << 32 | IPPROTO_TCP) ||
	       tp == ((__u64)SOCK_DGRAM << 32 | IPPROTO_UDP);
}

static __always_inline void dest_init(struct dest *d, __u8 proto, __u32 v6)
{
	d->k.prefixlen = 32 + (v6 ? 128 : 32);
	d->k.kind = 0;
	d->k.proto = proto;
	d->k.zero[0] = d->k.zero[1] = 0;
	d->v6 = v6;
}

static __always_inline int addr4(struct bpf_sock_addr *ctx)
{
	struct dest d;
	__u32 *a = (__u32 *)d.k.addr;

	if (!tcp_udp(ctx->type, ctx->protocol))
		return 0;
	dest_init(&d, (__u8)ctx->protocol, 0);
	d.port = bpf_ntohs((__u16)ctx->user_port);
	a[0] = ctx->user_ip4;
	a[1] = a[2] = a[3] = 0;
	return judge(&d);
}

/* An IPv4-mapped address (::ffff:a.b.c.d) sends IPv4: judged as one. */
static __always_inline int addr6(struct bpf_sock_addr *ctx)
{
	struct dest d;
	__u32 *a = (__u32 *)d.k.addr;
	__u32 a0 = ctx->user_ip6[0], a1 = ctx->user_ip6[1];
	__u32 a2 = ctx->user_ip6[2], a3 = ctx->user_ip6[3];
	int mapped = a0 == 0 && a1 == 0 && a2 == bpf_htonl(0xffff);

	if (!tcp_udp(ctx->type, ctx->protocol))
		return 0;
	dest_init(&d, (__u8)ctx->protocol, !mapped);
	d.port = bpf_ntohs((__u16)ctx->user_port);
	if (mapped) {
		a[0] = a3;
		a[1] = a[2] = a[3] = 0;
	} else {
		a[0] = a0;
		a[1] = a1;
		a[2] = a2;
		a[3] = a3;
	}
	return judge(&d);
}

/* Only TCP and UDP sockets; raw, ping (ICMP), SCTP, MPTCP, UDP-Lite and
 * the rest are refused (EPERM). */
SEC("cgroup/sock_create")
int sock_create(struct bpf_sock *sk)
{
	return tcp_udp(sk->type, sk->protocol);
}

/* connect(), and sendto/sendmsg with MSG_FASTOPEN and TCP_FASTOPEN_CONNECT,
 * which go through the same pre-connect hook. */
SEC("cgroup/connect4")
int connect4(struct bpf_sock_addr *ctx)
{
	return addr4(ctx);
}

SEC("cgroup/connect6")
int connect6(struct bpf_sock_addr *ctx)
{
	return addr6(ctx);
}

/* Unconnected UDP: each datagram's destination. */
SEC("cgroup/sendmsg4")
int sendmsg4(struct bpf_sock_addr *ctx)
{
	return addr4(ctx);
}

SEC("cgroup/sendmsg6")
int sendmsg6(struct bpf_sock_addr *ctx)
{
	return addr6(ctx);
}

/* The box serves nobody: a bind to a port of its choosing is refused, the
 * kernel's choice (port 0) taken. What listens on an automatic port (a
 * listen() without bind) is unreachable through the ingress program. */
SEC("cgroup/bind4")
int bind4(struct bpf_sock_addr *ctx)
{
	return ctx->user_port == 0;
}

SEC("cgroup/bind6")
int bind6(struct bpf_sock_addr *ctx)
{
	return ctx->user_port == 0;
}

/*
 * A packet of a box's socket, its far end (destination on egress, source
 * on ingress) into d; 0 when it is not one the rules can judge: not TCP
 * or UDP, an IPv4 header with options (source routing sends to the first
 * hop, not to the address connect judged), an IPv6 extension header, a
 * fragment after the first.
 */
static __always_inline int packet(struct __sk_buff *skb, int egress,
				  struct dest *d)
{
	__u32 *a = (__u32 *)d->k.addr;
	__u8 proto;

	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		__u32 h[6]; /* the header without options, then the ports */

		if (bpf_skb_load_bytes(skb, 0, h, sizeof(h)))
			return 0;
		/* version 4, 5 words (no options); no fragment offset */
		if ((h[0] & 0xff) != 0x45 || (h[1] & bpf_htonl(0x1fff)) != 0)
			return 0;
		proto = (__u8)(h[2] >> 8);
		if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
			return 0;
		dest_init(d, proto, 0);
		a[0] = h[egress ? 4 : 3];
		a[1] = a[2] = a[3] = 0;
		d->port = bpf_ntohs((__u16)(h[5] >> (egress ? 16 : 0)));
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		__u32 h[11]; /* the fixed header, then the ports */

		if (bpf_skb_load_bytes(skb, 0, h, sizeof(h)))
			return 0;
		proto = (__u8)(h[1] >> 16);
		if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
			return 0;
		dest_init(d, proto, 1);
		a[0] = h[egress ? 6 : 2];
		a[1] = h[egress ? 7 : 3];
		a[2] = h[egress ? 8 : 4];
		a[3] = h[egress ? 9 : 5];
		d->port = bpf_ntohs((__u16)(h[10] >> (egress ? 16 : 0)));
	} else {
		return 0;
	}
	return 1;
}

/* The catch-all: every packet a box's socket sends, judged again. */
SEC("cgroup_skb/egress")
int egress(struct __sk_buff *skb)
{
	struct dest d;

	if (!packet(skb, 1, &d))
		return 0;
	return judge(&d);
}

/* Only what comes from an allowed destination reaches the box's sockets. */
SEC("cgroup_skb/ingress")
int ingress(struct __sk_buff *skb)
{
	struct dest d;

	return packet(skb, 0, &d) && allowed(&d);
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
