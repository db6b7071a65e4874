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

/* An address, as the rules key it: IPv4 in a[0..3]. */
struct dest {
	int v6;
	__u8 proto;
	__u16 port; /* host order */
	__u32 a[4]; /* network order */
};

/* No loop: the verifier checks this once (port / 8 < 8192). */
static __always_inline int ports_hold(const struct rule_ports *v, __u16 port)
{
	return v && (v->bits[port >> 3] >> (port & 7) & 1);
}

static __always_inline int rule_holds(const struct dest *d, __u8 kind)
{
	struct rule_key k;
	__u32 *a = (__u32 *)k.addr;

	__builtin_memset(&k, 0, sizeof(k));
	k.prefixlen = 32 + (d->v6 ? 128 : 32);
	k.kind = kind;
	k.proto = d->proto;
	a[0] = d->a[0];
	a[1] = d->a[1];
	a[2] = d->a[2];
	a[3] = d->a[3];
	return ports_hold(bpf_map_lookup_elem(&rules, &k), d->port);
}

/* 127.0.0.0/8 and 0.0.0.0 (which connects to 127.0.0.1), ::1 and ::. */
static __always_inline int loopback(const struct dest *d)
{
	if (!d->v6)
		return (bpf_ntohl(d->a[0]) >> 24) == 127 || d->a[0] == 0;
	return d->a[0] == 0 && d->a[1] == 0 && d->a[2] == 0 &&
	       (d->a[3] == 0 || d->a[3] == bpf_htonl(1));
}

static __always_inline int allowed(const struct dest *d)
{
	if (d->proto != IPPROTO_TCP && d->proto != IPPROTO_UDP)
		return 0;
	if (loopback(d))
		return rule_holds(d, POLBIN_EBPF_K_LOOP);
	if (rule_holds(d, d->v6 ? POLBIN_EBPF_K_DENY6 : POLBIN_EBPF_K_DENY4))
		return 0;
	return rule_holds(d, d->v6 ? POLBIN_EBPF_K_ALLOW6
				   : POLBIN_EBPF_K_ALLOW4) ||
	       rule_holds(d, d->v6 ? POLBIN_EBPF_K_RT6 : POLBIN_EBPF_K_RT4);
}

/* The evidence: what the box tried and was refused. A full map takes no
 * more (polexec then says the list may be short). */
static __always_inline void record(const struct dest *d)
{
	struct blocked_key k;
	__u32 *a = (__u32 *)k.addr;
	__u64 one = 1, *n;

	__builtin_memset(&k, 0, sizeof(k));
	k.family = d->v6 ? 6 : 4;
	k.proto = d->proto;
	k.port = d->port;
	a[0] = d->a[0];
	a[1] = d->a[1];
	a[2] = d->a[2];
	a[3] = d->a[3];
	n = bpf_map_lookup_elem(&blocked, &k);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&blocked, &k, &one, BPF_NOEXIST);
}

static __always_inline int judge(const struct dest *d)
{
	if (allowed(d))
		return 1;
	record(d);
	return 0;
}

/* The socket's protocol, as the rules know it. */
static __always_inline __u8 sock_proto(__u32 type, __u32 protocol)
{
	if (type == SOCK_STREAM && protocol == IPPROTO_TCP)
		return IPPROTO_TCP;
	if (type == SOCK_DGRAM && protocol == IPPROTO_UDP)
		return IPPROTO_UDP;
	return 0;
}

static __always_inline int addr4(struct bpf_sock_addr *ctx)
{
	struct dest d = {0};

	d.proto = sock_proto(ctx->type, ctx->protocol);
	d.port = bpf_ntohs((__u16)ctx->user_port);
	d.a[0] = ctx->user_ip4;
	return judge(&d);
}

/* An IPv4-mapped address (::ffff:a.b.c.d) sends IPv4: judged as one. */
static __always_inline int addr6(struct bpf_sock_addr *ctx)
{
	struct dest d = {0};

	d.proto = sock_proto(ctx->type, ctx->protocol);
	d.port = bpf_ntohs((__u16)ctx->user_port);
	d.a[0] = ctx->user_ip6[0];
	d.a[1] = ctx->user_ip6[1];
	d.a[2] = ctx->user_ip6[2];
	d.a[3] = ctx->user_ip6[3];
	if (d.a[0] == 0 && d.a[1] == 0 && d.a[2] == bpf_htonl(0xffff)) {
		d.a[0] = d.a[3];
		d.a[2] = d.a[3] = 0;
	} else {
		d.v6 = 1;
	}
	return judge(&d);
}

/* Only TCP and UDP sockets; raw, ping (ICMP), SCTP, MPTCP, UDP-Lite and
 * the rest are refused (EPERM). */
SEC("cgroup/sock_create")
int sock_create(struct bpf_sock *sk)
{
	return sock_proto(sk->type, sk->protocol) != 0;
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
	__u16 ports[2];
	__u32 off;

	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		__u8 h[20];

		if (bpf_skb_load_bytes(skb, 0, h, sizeof(h)))
			return 0;
		if (h[0] != 0x45 || ((h[6] & 0x1f) | h[7]) != 0)
			return 0;
		d->proto = h[9];
		__builtin_memcpy(&d->a[0], h + (egress ? 16 : 12), 4);
		off = 20;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		__u8 h[40];

		if (bpf_skb_load_bytes(skb, 0, h, sizeof(h)))
			return 0;
		d->v6 = 1;
		d->proto = h[6];
		__builtin_memcpy(d->a, h + (egress ? 24 : 8), 16);
		off = 40;
	} else {
		return 0;
	}
	if (d->proto != IPPROTO_TCP && d->proto != IPPROTO_UDP)
		return 0;
	if (bpf_skb_load_bytes(skb, off, ports, sizeof(ports)))
		return 0;
	d->port = bpf_ntohs(ports[egress ? 1 : 0]);
	return 1;
}

/* The catch-all: every packet a box's socket sends, judged again. */
SEC("cgroup_skb/egress")
int egress(struct __sk_buff *skb)
{
	struct dest d = {0};

	if (!packet(skb, 1, &d))
		return 0;
	return judge(&d);
}

/* Only what comes from an allowed destination reaches the box's sockets. */
SEC("cgroup_skb/ingress")
int ingress(struct __sk_buff *skb)
{
	struct dest d = {0};

	return packet(skb, 0, &d) && allowed(&d);
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
