/* SPDX-License-Identifier: MIT */
/*
 * Payload formats of the compiled sections that polexec decodes. polc writes
 * them (compiler/backend/); polexec reads them (stub/). All integers are
 * little-endian; strings are length-prefixed, not NUL-terminated, and must
 * not contain NUL bytes.
 *
 * META (POLBIN_SEC_META, not critical): records { u16 key, u16 len, bytes }
 *   until the end of the section.
 *
 * SECCOMP (POLBIN_SEC_SECCOMP, critical): struct sock_filter[len / 8] for
 *   AUDIT_ARCH_X86_64, 1..POLBIN_SECCOMP_MAX_INSNS instructions, exactly as
 *   the kernel loads it (also what `polc build --emit-bpf` writes).
 *
 * LIMITS (POLBIN_SEC_LIMITS, critical): exactly POLBIN_LIMITS_LEN (72)
 *   bytes, in every artifact (a policy without a limits block still gets
 *   core dumps off):
 *     u32 flags     POLBIN_LIMITS_F_*; any other bit is refused
 *     u32 set       bit i: limit i (enum polbin_limit) is enforced; bits
 *                   from POLBIN_LIM_COUNT up are refused
 *     u64 value[8]  limit i's value; 0 when bit i is clear
 *   Units: memory, fsize, core in bytes; pids, nofile a count; cpu, wall,
 *   grace in milliseconds. polc writes its defaults out, so polexec
 *   applies exactly what the section says: core is always set (0, core
 *   dumps off, unless the policy gives core), grace is always set
 *   (POLBIN_LIMITS_GRACE_MS unless the policy gives grace). polexec
 *   refuses a set value of 0 (except core), sizes above
 *   POLBIN_LIMITS_MAX_BYTES, counts above POLBIN_LIMITS_MAX_COUNT and
 *   durations above POLBIN_LIMITS_MAX_MS.
 *
 * ENV (POLBIN_SEC_ENV, critical): u32 count, then count entries
 *   { u8 kind, u8 zero, u16 name_len, u16 value_len, u16 dest_len,
 *     name, value, dest }
 *   kind is POLBIN_ENV_*; value and dest hold `${VAR}` references that
 *   polexec binds at run time. A secret's value is the source file's path
 *   (polexec reads it; `polc dump` and the run record never show it), its
 *   dest the absolute path where the box finds the content.
 *
 * LANDLOCK (POLBIN_SEC_LANDLOCK, critical): the ruleset polexec builds, a
 *   pure function of the IR (compiler/backend/landlock.c). Bit values are
 *   the kernel's own (LANDLOCK_ACCESS_FS_*, LANDLOCK_ACCESS_NET_*,
 *   LANDLOCK_SCOPE_*; abi/landlock_compat.h). A 48-byte header:
 *     u32 version        POLBIN_LL_VERSION
 *     u32 abi_min        1..POLBIN_LL_MAX_ABI: the oldest ABI the policy
 *                        accepts (under require, an older kernel refuses)
 *     u32 mode           POLBIN_LL_BEST_EFFORT or POLBIN_LL_REQUIRE
 *     u32 reserved       0
 *     u64 handled_fs     within POLBIN_LL_FS_ALL
 *     u64 handled_net    within POLBIN_LL_NET_ALL
 *     u64 scoped         within POLBIN_LL_SCOPE_ALL
 *     u32 nfs            0..POLBIN_LL_MAX_FS path rules
 *     u32 nports         0..POLBIN_LL_MAX_PORTS port ranges
 *   then nfs path rules, sorted by path bytes, paths unique:
 *     { u64 access, u32 flags, u32 path_len, path[path_len] }
 *     access: within handled_fs (0 only for a grant of rights the
 *     ruleset does not handle: a socket the view shows, docs/VIEW.md);
 *     flags: POLBIN_LL_F_*;
 *     path: 1..4095 bytes, "/", "~" or "${NAME}" followed by "/NAME"
 *     components, none empty, "." or "..", no byte < 0x20 or 0x7f
 *   then nports port ranges, sorted by (access, lo), not overlapping:
 *     { u32 access, u16 lo, u16 hi }
 *     access: exactly one bit of handled_net; lo <= hi; the ports of one
 *     access sum to at most POLBIN_LL_MAX_PORTS (one kernel rule each)
 *   and nothing after them. A handled net access with no range denies
 *   every port; an access that is not handled leaves every port open.
 *
 * VIEW (POLBIN_SEC_VIEW, critical): the box's own view and identity
 *   (docs/VIEW.md), in every artifact whose policy has an fs section or a
 *   user statement. A pure function of the IR (compiler/backend/view.c):
 *     u32 version   POLBIN_VIEW_VERSION
 *     u32 flags     POLBIN_VIEW_F_*; any other bit is refused
 *     u32 uid, gid  F_USER: who the box runs as; else 0. Below 2^32 - 1
 *     u32 n         entries, at most POLBIN_VIEW_MAX; 0 without F_ROOT
 *     u32 reserved  0
 *   then n entries, 8-byte aligned, sorted by their path bytes, unique:
 *     { u8 kind, u8 attrs, u16 path_len, u32 rule, u64 size, u64 access,
 *       path[path_len], zero padding to a multiple of 8 }
 *   kind POLBIN_VIEW_BIND: the Landlock path rule number `rule`, bound at
 *     its own path (its path is the rule's: path_len 0). Each Landlock
 *     path rule has exactly one BIND, in rule order. attrs: what the
 *     mount is made (POLBIN_VIEW_A_*, from the rule's own rights); polexec
 *     keeps only the restrictions the bind mount it lands in also has,
 *     so a nested grant never takes away what an enclosing one gives.
 *     size, access 0.
 *   kind TMPFS, DEV, PROC: the box's own mount at path (literal,
 *     absolute, not /); access: the Landlock rights polexec adds on its
 *     root (within POLBIN_LL_FS_ALL); TMPFS: size 1..2^40 bytes, attrs
 *     NOEXEC or 0; DEV, PROC: size 0, attrs 0. rule 0.
 *   kind LINK: path (/bin /sbin /lib /lib32 /lib64 /libx32); where the
 *     host has a symbolic link there, the box's root gets one with the
 *     same target. Everything else 0.
 *   BIND paths may hold ~ or ${VAR} (the rule's); polexec sorts by the
 *   bound paths again before it mounts, parents first.
 *
 * NOEXEC (POLBIN_SEC_NOEXEC, critical): a second seccomp program, format
 *   as SECCOMP, present with VIEW's F_ROOT. polexec stacks it in front of
 *   the policy's filter only where it could not set vm.memfd_noexec = 2
 *   in the box's pid namespace: it refuses execveat with AT_EMPTY_PATH
 *   and memfd_create without MFD_NOEXEC_SEAL (EACCES), and allows the
 *   rest, so the box's filter only gets stricter.
 *
 * NONET (POLBIN_SEC_NONET, not critical): a seccomp program, format as
 *   SECCOMP, present with `net none` without loopback ports
 *   (compiler/backend/nonet.c). polexec stacks it in front of the
 *   policy's filter only where the box cannot have a network namespace of
 *   its own: socket() of every family but AF_UNIX answers EACCES,
 *   io_uring_setup EPERM, another arch is killed; the rest is allowed. A
 *   polexec that does not know it refuses such a box, as before.
 *
 * BROKER (POLBIN_SEC_BROKER, critical when the policy says `backend
 *   broker`, else not): a seccomp program, format as SECCOMP, present
 *   with `net filtered` or `net none` with loopback ports, a seccomp layer
 *   and an EBPF section (whose rules the broker decides by), unless the
 *   policy forces another backend (compiler/backend/broker.c). polexec
 *   installs it in place of the OBSERVE section's NOTIFY program, with
 *   the listener, only where the notify broker enforces the net layer
 *   (stub/net/broker.c, docs/EGRESS.md): NOTIFY of the policy's syscalls
 *   with connect, listen, io_uring_setup, sendto with an address or
 *   MSG_FASTOPEN, sendmsg and sendmmsg with MSG_FASTOPEN, socket of any
 *   inet type but TCP (or of a family but unix, inet, inet6, netlink) and
 *   the source-routing socket options notified.
 */
#ifndef POLC_SECTIONS_H
#define POLC_SECTIONS_H

/*
 * OBSERVE (POLBIN_SEC_OBSERVE, not critical): what polexec needs to name
 * the box's denials and destructive calls in the run record
 * (docs/OBSERVE.md). A polexec without it installs the decision program
 * and records no denial; enforcement is the same. All of it is a pure
 * function of the IR (compiler/backend/observe.c), and the three programs
 * are proven at build time, like the decision program, against the
 * specification of compiler/backend/seccomp_observe.c.
 *
 *   u32 version  POLBIN_OBS_VERSION
 *   u32 flags    POLBIN_OBS_F_*; any other bit is refused
 *   records { u16 tag, u16 zero, u32 len, payload[len], zero padding to a
 *             multiple of 4 }, tags in increasing order, until the end:
 *   NOTIFY (1), LEARN (2), EXPLAIN (3), exactly once each:
 *             struct sock_filter[len / 8], 1..POLBIN_SECCOMP_MAX_INSNS,
 *             only the instructions the code generator emits (ld word of
 *             seccomp_data, and #k, jeq/jgt/jge/jset #k, ja, ret #k)
 *   SYSCALL (4), one per x86_64 number named, numbers increasing:
 *             { u16 nr, u8 nargs (0..6, or POLBIN_OBS_NARGS_UNKNOWN),
 *               u8 name_len (1..40), u8 fmt[6], name }: fmt[i] is
 *             POLBIN_OBS_ARG_* | table << 4
 *   CONST (5), one per table, tables increasing (1..15):
 *             { u8 table, u8 kind (POLBIN_OBS_CONST_*), u16 count,
 *               u32 low_mask, then count x { u64 value, u8 len (1..63),
 *               name } }; kind FLAGS lists names by popcount, largest
 *             first; ENUM_LOW names the value of (x & low_mask) and the
 *             flags of the rest
 *   RULE (6), codes increasing: { u32 code, u8 flags (POLBIN_OBS_RULE_*),
 *             u8 action kind, u16 errno, u16 text_len, text }: the
 *             policy text of the rule the explain program's code names
 *             (code 0 the default, 1 the bad-arch action)
 *   WORKSPACE (7), at most once: the `observe` workspace path, as the
 *             policy wrote it (${VAR}, ~ or absolute)
 */
#define POLBIN_OBS_VERSION	  1
#define POLBIN_OBS_F_DESTRUCTIVE  0x1u /* fs observe destructive */
#define POLBIN_OBS_F_LEARN_PATHS  0x2u /* LEARN notifies path calls */
#define POLBIN_OBS_F_ALL	  0x3u
#define POLBIN_OBS_NARGS_UNKNOWN  7
#define POLBIN_OBS_MAX_NR	  1024 /* syscall numbers below it named */
#define POLBIN_OBS_RULE_COMPANION 0x1u /* an egress companion */

enum polbin_obs_tag {
	POLBIN_OBS_NOTIFY = 1,
	POLBIN_OBS_LEARN = 2,
	POLBIN_OBS_EXPLAIN = 3,
	POLBIN_OBS_SYSCALL = 4,
	POLBIN_OBS_CONST = 5,
	POLBIN_OBS_RULE = 6,
	POLBIN_OBS_WORKSPACE = 7,
};

/* How an argument is shown in the record. */
enum polbin_obs_arg {
	POLBIN_OBS_ARG_NONE = 0,
	POLBIN_OBS_ARG_INT = 1,	  /* signed decimal; part of a denial's key */
	POLBIN_OBS_ARG_HEX = 2,	  /* 0x...; not part of the key */
	POLBIN_OBS_ARG_FD = 3,	  /* a file descriptor */
	POLBIN_OBS_ARG_DIRFD = 4, /* a file descriptor, or AT_FDCWD */
	POLBIN_OBS_ARG_PATH = 5,  /* a path the box passed */
	POLBIN_OBS_ARG_SIZE = 6,  /* a length: decimal, not part of the key */
	POLBIN_OBS_ARG_ENUM = 7,  /* a name of the table; in the key */
	POLBIN_OBS_ARG_FLAGS = 8, /* names of the table joined by |; key */
	POLBIN_OBS_ARG_MODE = 9,  /* octal; in the key */
	POLBIN_OBS_ARG_KINDS = 10
};

/* The constant table of errno names, which the actions are shown with. */
#define POLBIN_OBS_TABLE_ERRNO 11

enum polbin_obs_const_kind {
	POLBIN_OBS_CONST_ENUM = 0,
	POLBIN_OBS_CONST_FLAGS = 1,
	POLBIN_OBS_CONST_ENUM_LOW = 2,
};

#define POLBIN_VIEW_VERSION    1
#define POLBIN_VIEW_HEADER_LEN 24
#define POLBIN_VIEW_ENTRY_LEN  24 /* without the path */
#define POLBIN_VIEW_MAX	       (1024 + 16)
#define POLBIN_VIEW_MAX_TMPFS  (1ull << 40)

enum polbin_view_flag {
	POLBIN_VIEW_F_ROOT = 1u << 0,	     /* mount and pid namespaces */
	POLBIN_VIEW_F_BEST_EFFORT = 1u << 1, /* may run without them */
	POLBIN_VIEW_F_USER = 1u << 2,	     /* uid, gid are the box's */
};

enum polbin_view_kind {
	POLBIN_VIEW_BIND = 1,
	POLBIN_VIEW_TMPFS = 2,
	POLBIN_VIEW_DEV = 3,
	POLBIN_VIEW_PROC = 4,
	POLBIN_VIEW_LINK = 5,
};

enum polbin_view_attr {
	POLBIN_VIEW_A_RDONLY = 1u << 0,
	POLBIN_VIEW_A_NOEXEC = 1u << 1,
	POLBIN_VIEW_A_NODEV = 1u << 2,
};

enum polbin_meta_key {
	POLBIN_META_NAME = 1,	       /* policy name */
	POLBIN_META_SOURCE_SHA256 = 2, /* hex digest of the main source file */
	POLBIN_META_COMPILER = 3,      /* "polc 0.1.0" */
	POLBIN_META_IR_SHA256 = 4,     /* hex digest of the IR section */
	/* "record" or "redacted" (fs `observe argv redacted`): whether the
	 * run record names the command line; absent (an older polc): it
	 * names none */
	POLBIN_META_RECORD_ARGV = 5,
};

#define POLBIN_SECCOMP_MAX_INSNS 4096

/*
 * NET (POLBIN_SEC_NET, critical), little-endian, version 2. The box gets a
 * network namespace of its own whatever the mode, and a user namespace when
 * the caller is not root or when pasta runs (pasta joins the pair):
 *
 *   u32 version     POLBIN_NET_VERSION
 *   u32 mode        POLBIN_NET_NONE: loopback only; POLBIN_NET_FILTERED:
 *                   pasta connects the namespace (--config-net) and the nft
 *                   table below filters what leaves it
 *   u32 nloopback   host loopback TCP port ranges, at most
 *                   POLBIN_NET_MAX_LOOPBACK
 *   u32 nruntime    runtime allow entries (names, ${VAR}), at most
 *                   POLBIN_NET_MAX_RUNTIME
 *   u32 reserved    0
 *   u32 reserved    0
 *   loopback[nloopback]  { u16 lo, u16 hi }: 1 <= lo <= hi, sorted,
 *                   disjoint and not adjacent. In either mode polexec
 *                   relays these ports from the box's 127.0.0.1 / ::1 to
 *                   the host's (stub/net/relay.c); in mode NONE the box still
 *                   has no route.
 *   runtime[nruntime] { u8 kind, u8 proto, u16 port_lo, u16 port_hi,
 *                   u16 name_len, name[name_len], zero padding to a
 *                   multiple of 4 }: kind POLBIN_NET_RT_NAME (a host name,
 *                   resolved once by polexec at start) or POLBIN_NET_RT_VAR
 *                   (`${NAME}`, bound at start to one IP address or a host
 *                   name); proto 6 (tcp) or 17 (udp); port_lo <= port_hi.
 *                   Entry i's addresses go into the sets rt4_<i> and rt6_<i>
 *                   (hash sets, type ipv4_addr / ipv6_addr, no interval
 *                   flag: one element per address), which the table
 *                   declares empty; its rules are in the table too.
 *   nothing after.
 *
 * NFT (POLBIN_SEC_NFT, critical), present iff the NET mode is FILTERED, at
 * most POLBIN_NET_MAX_NFT bytes: nfnetlink messages of subsystem
 *                   NFNL_SUBSYS_NFTABLES (NEWTABLE, NEWCHAIN, NEWSET,
 * NEWSETELEM, NEWRULE), each NLMSG_ALIGNed, nlmsg_seq 0, nlmsg_pid 0, flags
 *                   NLM_F_REQUEST | NLM_F_CREATE (| NLM_F_APPEND for rules),
 *                   without batch begin/end: polexec wraps them in one batch
 *                   with its own sequence numbers, NLM_F_ACK on each, and
 *                   appends the NEWSETELEM messages of the runtime sets.
 *
 * The table, family inet, named POLBIN_NFT_TABLE ("polc"):
 *   sets  allow4, allow6, deny4, deny6: type ADDR . inet_proto .
 *         inet_service, flags interval (concatenated ranges, key and key
 *         end), disjoint elements; key layout: addr (4 or 16 bytes),
 *         proto (1 byte + 3 zero), port (2 bytes big-endian + 2 zero),
 *         12 or 24 bytes.
 *         rt4_<i>, rt6_<i>: type ipv4_addr / ipv6_addr, no flags (a hash
 *         set; one element per address, the key the address alone).
 *         blocked4, blocked6: same key layout as allow4/6, flags dynamic,
 *         size POLBIN_NFT_BLOCKED_SIZE: the evidence set, filled by the
 *         kernel, read by polexec after the box exits.
 *         refused4, refused6: type inet_service, flags dynamic, size
 *         POLBIN_NFT_BLOCKED_SIZE: the box's loopback ports that refused
 *         a connect (evidence, read likewise).
 *   chain output: hook output, priority 0, policy drop:
 *         oif 1, ip saddr 127.0.0.0/8 (ip6 saddr ::1), tcp flags rst,ack,
 *         tcp sequence 0: add tcp sport to @refused4/@refused6 (no
 *         verdict); oif 1 (lo) accept; l4proto tcp, ct state
 *         established,related accept (TCP alone: UDP is judged by the
 *         sets every time);
 *         icmpv6 neighbour/router solicitation and neighbour advert accept
 *         (to pasta, which answers them itself); ADDR . l4proto . th dport
 *         @deny4/@deny6 goto blocked; @allow4/@allow6 accept; for each
 *         runtime entry i: daddr @rt4_<i> / @rt6_<i>, l4proto, dport range,
 *         accept; goto blocked.
 *   chain blocked: tcp or udp: add daddr . l4proto . th dport to
 *         @blocked4/@blocked6; tcp: reject with a reset; udp: reject with
 *         icmpx admin-prohibited (so the box fails at once instead of
 *         retrying a dropped SYN); anything else: drop.
 *   chain input: hook input, priority 0, policy accept: iif 1 (lo)
 *         accept; l4proto udp, ct state established accept; l4proto udp
 *         drop (UDP enters only as the reply of a flow the box opened).
 */
#define POLBIN_NET_VERSION	2
#define POLBIN_NET_HEADER_LEN	24
#define POLBIN_NET_MAX_LOOPBACK 64
/* Not the format's limit but polexec's: the ports of all loopback ranges
 * together that its relay listens on; polc warns above it. */
#define POLBIN_NET_RELAY_MAX_PORTS 256
#define POLBIN_NET_MAX_RUNTIME	   256
#define POLBIN_NET_MAX_NFT	   (4u << 20)
#define POLBIN_NFT_TABLE	   "polc"
#define POLBIN_NFT_BLOCKED_SIZE	   1024
#define POLBIN_NFT_KEY4_LEN	   12
#define POLBIN_NFT_KEY6_LEN	   24

enum polbin_net_mode {
	POLBIN_NET_NONE = 0,
	POLBIN_NET_FILTERED = 1,
};

enum polbin_net_rt_kind {
	POLBIN_NET_RT_NAME = 1,
	POLBIN_NET_RT_VAR = 2,
};

/*
 * EBPF (POLBIN_SEC_EBPF): the cgroup eBPF egress backend for the NET
 * section's net IR (docs/EGRESS.md, "The cgroup backend"), present with a
 * NET section; critical when the policy forces that backend (`net
 * filtered backend cgroup`: a polexec that does not know it must refuse),
 * else not (an older polexec keeps the namespace; `backend cgroup
 * namespace` allows that). Written by
 * compiler/backend/ebpf.c from the programs of bpf/egress/egress.bpf.c
 * (clang -target bpf at polc's build, read with libbpf) and the rules
 * polc derives from the IR; polexec loads it with raw bpf() calls.
 *
 *   u32 version   POLBIN_EBPF_VERSION
 *   u32 flags     POLBIN_EBPF_F_*; any other bit is refused
 *   u32 nprog     exactly POLBIN_EBPF_NPROG, one per hook, in the order of
 *                 enum polbin_ebpf_hook
 *   u32 nrules    static rules, at most POLBIN_EBPF_MAX_RULES
 *   then nprog programs { u32 hook (enum polbin_ebpf_hook), u32 ninsn
 *                 (1..POLBIN_EBPF_MAX_INSNS), struct bpf_insn[ninsn] }:
 *                 the only map references are BPF_LD_IMM64 with src_reg
 *                 BPF_PSEUDO_MAP_FD and imm the map's number
 *                 (POLBIN_EBPF_MAP_*), which polexec replaces with the fd
 *   then nrules rules { key[POLBIN_EBPF_KEY_LEN], value[POLBIN_EBPF_VAL_LEN]
 *                 } for the LPM map "rules":
 *     key   u32 prefixlen (32 + the address prefix), u8 kind
 *           (POLBIN_EBPF_K_*), u8 proto (6 or 17), u8 zero[2], u8
 *           addr[16] (network order; IPv4 in the first 4 bytes; host bits
 *           and unused bytes zero)
 *     value u32 n (1..POLBIN_EBPF_MAX_RANGES), then
 *           POLBIN_EBPF_MAX_RANGES x { u16 lo, u16 hi } (host order, the
 *           first n sorted, disjoint, not adjacent; the rest zero)
 *   Rules of one kind and protocol are disjoint prefixes (polc cuts the
 *   entries at every boundary), so the longest match is the only one.
 *   Kinds: ALLOW4/6 and DENY4/6 the policy's static entries; LOOP the
 *   host loopback ports (proto 6, prefix 0: every address of 127.0.0.0/8,
 *   0.0.0.0, ::1, ::). polexec adds an ALLOW rule of its own for each
 *   pinned address of a runtime entry (its ports, and those of the
 *   static rule covering it); RT4/6 are never used (kept reserved). A
 *   destination is allowed iff it is a loopback address and LOOP lists
 *   its port, or it is not one, no DENY rule holds it, and an ALLOW rule
 *   does.
 *   In the map, a rule's value is the bitmap of its ports
 *   (POLBIN_EBPF_MAP_VAL_LEN bytes, bit p of byte p / 8), which polexec
 *   makes from the ranges.
 *   Map "blocked" (POLBIN_EBPF_MAP_BLOCKED): a hash of
 *   POLBIN_EBPF_BLOCKED_SIZE entries, key { u8 family (4 or 6), u8 proto,
 *   u16 port (host order), u8 addr[16] }, value u64 (1): what the box
 *   tried and was refused, read by polexec after the box.
 */
#define POLBIN_EBPF_VERSION  1
#define POLBIN_EBPF_F_FORCED 0x1u /* `backend cgroup`: never the namespace */
/* `backend cgroup namespace`: these programs where they can be had and
 * installed, else the namespace (never with FORCED; not critical: a
 * polexec that does not know the section keeps the namespace, which the
 * list allows, and one that knows version 1 without this bit refuses it) */
#define POLBIN_EBPF_F_FALLBACK 0x2u
#define POLBIN_EBPF_F_ALL      0x3u
#define POLBIN_EBPF_NPROG      9
#define POLBIN_EBPF_MAX_INSNS  4096
#define POLBIN_EBPF_MAX_RULES  4096 /* 8 KiB of kernel memory each */
#define POLBIN_EBPF_MAX_RANGES 64
#define POLBIN_EBPF_KEY_LEN    24
#define POLBIN_EBPF_VAL_LEN    (4 + 4 * POLBIN_EBPF_MAX_RANGES)
/* The map's value is not the section's: a bitmap of the 65536 ports
 * (bit p of byte p / 8), which polexec fills from the ranges, so that the
 * programs test a port without a loop (a loop over ranges cost the
 * verifier 0.2 s a program here). */
#define POLBIN_EBPF_MAP_VAL_LEN	 8192
#define POLBIN_EBPF_BLOCKED_SIZE 1024
#define POLBIN_EBPF_BLOCKED_KEY	 20
#define POLBIN_EBPF_MAP_RULES	 0
#define POLBIN_EBPF_MAP_BLOCKED	 1
#define POLBIN_EBPF_NMAPS	 2

enum polbin_ebpf_kind {
	POLBIN_EBPF_K_ALLOW4 = 1,
	POLBIN_EBPF_K_ALLOW6 = 2,
	POLBIN_EBPF_K_DENY4 = 3,
	POLBIN_EBPF_K_DENY6 = 4,
	POLBIN_EBPF_K_LOOP = 5,
	POLBIN_EBPF_K_RT4 = 6,
	POLBIN_EBPF_K_RT6 = 7,
};

/* The hooks, each one program, attached in this order. */
enum polbin_ebpf_hook {
	POLBIN_EBPF_SOCK_CREATE = 0,
	POLBIN_EBPF_CONNECT4 = 1,
	POLBIN_EBPF_CONNECT6 = 2,
	POLBIN_EBPF_SENDMSG4 = 3,
	POLBIN_EBPF_SENDMSG6 = 4,
	POLBIN_EBPF_BIND4 = 5,
	POLBIN_EBPF_BIND6 = 6,
	POLBIN_EBPF_EGRESS = 7,
	POLBIN_EBPF_INGRESS = 8,
};

#define POLBIN_LL_VERSION     1
#define POLBIN_LL_HEADER_SIZE 48
#define POLBIN_LL_MAX_ABI     64
#define POLBIN_LL_MAX_FS      1024 /* = IR_MAX_FS */
#define POLBIN_LL_MAX_PORTS   1024 /* per access, after expansion */
#define POLBIN_LL_MAX_PATH    4095
#define POLBIN_LL_FS_ALL      0x1ffffull /* ABI 1..5 rights, ABI 8's */
#define POLBIN_LL_NET_ALL     0x3ull	 /* bind_tcp, connect_tcp */
#define POLBIN_LL_SCOPE_ALL   0x3ull	 /* abstract_unix_socket, signal */
#define POLBIN_LL_NET_BIND    0x1u
#define POLBIN_LL_NET_CONNECT 0x2u

enum polbin_ll_mode {
	POLBIN_LL_BEST_EFFORT = 0,
	POLBIN_LL_REQUIRE = 1,
};

enum polbin_ll_flag {
	POLBIN_LL_F_FOLLOW = 1u << 0, /* symlinks in the path may be followed */
	POLBIN_LL_F_OPTIONAL = 1u << 1, /* a missing path is skipped */
};

#define POLBIN_LIMITS_LEN 72

enum polbin_limits_flag {
	POLBIN_LIMITS_F_STATED = 1u << 0,  /* the policy has a limits block */
	POLBIN_LIMITS_F_REQUIRE = 1u << 1, /* limits require: never degrade */
};

/* Bit and value index in the LIMITS section; the IR's enum ir_limit. */
enum polbin_limit {
	POLBIN_LIM_MEMORY = 0, /* bytes, the whole box */
	POLBIN_LIM_PIDS,       /* processes and threads, the whole box */
	POLBIN_LIM_NOFILE,     /* open files, each process */
	POLBIN_LIM_CPU,	       /* ms of CPU time, each process */
	POLBIN_LIM_WALL,       /* ms from start to SIGTERM */
	POLBIN_LIM_FSIZE,      /* bytes, largest file a process may write */
	POLBIN_LIM_CORE,       /* bytes of core dump; 0: off */
	POLBIN_LIM_GRACE,      /* ms from SIGTERM (wall) to SIGKILL */
	POLBIN_LIM_COUNT
};

#define POLBIN_LIMITS_GRACE_MS	2000u
#define POLBIN_LIMITS_MAX_BYTES (1ull << 60) /* 1 EiB */
#define POLBIN_LIMITS_MAX_COUNT (1ull << 31)
#define POLBIN_LIMITS_MAX_MS	(1ull << 40) /* about 35 years */

enum polbin_env_kind {
	POLBIN_ENV_PASS = 0,
	POLBIN_ENV_SET = 1,
	POLBIN_ENV_SECRET = 2,
};

#endif
