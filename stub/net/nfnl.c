/* SPDX-License-Identifier: MIT */
/*
 * Raw nfnetlink for the egress table, so that polexec links no libnftnl:
 * polc wrote the table's messages (the NFT section, artifact/sections.h);
 * this file checks their framing, wraps them in one batch with the
 * runtime sets' elements, sends it and reads every ack, and after the box
 * has exited dumps the evidence sets.
 *
 * The kernel validates every attribute itself; what we check is what we
 * rely on: that each message lies inside the section, is an nf_tables
 * message of a kind the contract names, and carries the flags it says.
 */
#include "nfnl.h"
#include "lib/policy.h"
#include "lib/util.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>

#define NFT_TYPE(msg) ((NFNL_SUBSYS_NFTABLES << 8) | (msg))

static const char *msg_name(uint16_t type)
{
	static const char *const names[NFT_MSG_MAX] = {
	    [NFT_MSG_NEWTABLE] = "NEWTABLE",
	    [NFT_MSG_NEWCHAIN] = "NEWCHAIN",
	    [NFT_MSG_NEWSET] = "NEWSET",
	    [NFT_MSG_NEWSETELEM] = "NEWSETELEM",
	    [NFT_MSG_NEWRULE] = "NEWRULE",
	};
	unsigned t = type & 0xff;

	return t < NFT_MSG_MAX && names[t] ? names[t] : "?";
}

int nfnl_validate(const uint8_t *b, size_t len, uint32_t *nmsgs, char *why,
		  size_t whylen)
{
	size_t off = 0;
	uint32_t n = 0;

	while (off < len) {
		struct nlmsghdr h;
		uint16_t want;

		if (len - off < NLMSG_HDRLEN + sizeof(struct nfgenmsg)) {
			snprintf(why, whylen, "message %u truncated", n);
			return -1;
		}
		memcpy(&h, b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(struct nfgenmsg) ||
		    h.nlmsg_len > len - off ||
		    NLMSG_ALIGN(h.nlmsg_len) > len - off) {
			snprintf(why, whylen, "message %u: length %u", n,
				 h.nlmsg_len);
			return -1;
		}
		if (h.nlmsg_type >> 8 != NFNL_SUBSYS_NFTABLES ||
		    !strcmp(msg_name(h.nlmsg_type), "?")) {
			snprintf(why, whylen, "message %u: type 0x%x", n,
				 h.nlmsg_type);
			return -1;
		}
		want = NLM_F_REQUEST | NLM_F_CREATE;
		if ((h.nlmsg_type & 0xff) == NFT_MSG_NEWRULE)
			want |= NLM_F_APPEND;
		if (h.nlmsg_flags != want || h.nlmsg_seq || h.nlmsg_pid) {
			snprintf(why, whylen,
				 "message %u (%s): flags 0x%x, seq %u, pid %u",
				 n, msg_name(h.nlmsg_type), h.nlmsg_flags,
				 h.nlmsg_seq, h.nlmsg_pid);
			return -1;
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
		if (++n > POLEXEC_MAX_NFT_MSGS) {
			snprintf(why, whylen, "more than %d messages",
				 POLEXEC_MAX_NFT_MSGS);
			return -1;
		}
	}
	if (n == 0) {
		snprintf(why, whylen, "no message");
		return -1;
	}
	*nmsgs = n;
	return 0;
}

static void *grow(struct nfnl_batch *b, size_t n)
{
	void *p;

	n = NLMSG_ALIGN(n);
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *nb;

		while (cap - b->len < n)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb)
			die_oom();
		b->buf = nb;
		b->cap = cap;
	}
	p = b->buf + b->len;
	memset(p, 0, n);
	b->len += n;
	return p;
}

/* A message header and its nfgenmsg; attributes follow with put_attr. */
static size_t put_msg(struct nfnl_batch *b, uint16_t type, uint16_t flags,
		      uint8_t family, uint16_t res_id)
{
	size_t at = b->len;
	struct nlmsghdr *h = grow(b, NLMSG_HDRLEN + sizeof(struct nfgenmsg));
	struct nfgenmsg *g = (struct nfgenmsg *)((uint8_t *)h + NLMSG_HDRLEN);

	h->nlmsg_len = NLMSG_HDRLEN + sizeof(struct nfgenmsg);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = ++b->seq;
	g->nfgen_family = family;
	g->version = NFNETLINK_V0;
	g->res_id = htobe16(res_id);
	return at;
}

static void msg_grew(struct nfnl_batch *b, size_t msg)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(b->buf + msg);

	h->nlmsg_len = (uint32_t)(b->len - msg);
}

/* Returns the attribute's offset, for nesting (end it with attr_end). */
static size_t put_attr(struct nfnl_batch *b, uint16_t type, const void *data,
		       size_t len)
{
	size_t at = b->len;
	struct nlattr *a = grow(b, NLA_HDRLEN + len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	return at;
}

static void attr_end(struct nfnl_batch *b, size_t at)
{
	struct nlattr *a = (struct nlattr *)(b->buf + at);

	a->nla_len = (uint16_t)(b->len - at);
}

void nfnl_batch_begin(struct nfnl_batch *b)
{
	memset(b, 0, sizeof(*b));
	put_msg(b, NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, AF_UNSPEC,
		NFNL_SUBSYS_NFTABLES);
	b->first_seq = b->seq;
}

void nfnl_batch_add_static(struct nfnl_batch *b, const uint8_t *msgs,
			   size_t len)
{
	size_t off = 0;

	while (off < len) {
		struct nlmsghdr h;
		uint8_t *d;

		memcpy(&h, msgs + off, sizeof(h));
		d = grow(b, h.nlmsg_len);
		memcpy(d, msgs + off, h.nlmsg_len);
		h.nlmsg_flags |= NLM_F_ACK;
		h.nlmsg_seq = ++b->seq;
		memcpy(d, &h, sizeof(h));
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
}

/*
 * One NEWSETELEM for a runtime set: n keys of keylen bytes each. A key
 * that is already in the set (one address from two names) is accepted:
 * without NLM_F_EXCL the kernel takes an identical element as a no-op.
 */
void nfnl_batch_add_elems(struct nfnl_batch *b, const char *set,
			  const uint8_t *keys, size_t keylen, uint32_t n)
{
	size_t msg, list, elem, key;
	uint32_t i;

	if (n == 0)
		return;
	msg =
	    put_msg(b, NFT_TYPE(NFT_MSG_NEWSETELEM),
		    NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK, NFPROTO_INET, 0);
	put_attr(b, NFTA_SET_ELEM_LIST_TABLE, POLBIN_NFT_TABLE,
		 sizeof(POLBIN_NFT_TABLE));
	put_attr(b, NFTA_SET_ELEM_LIST_SET, set, strlen(set) + 1);
	list = put_attr(b, NFTA_SET_ELEM_LIST_ELEMENTS | NLA_F_NESTED, NULL, 0);
	for (i = 0; i < n; i++) {
		elem = put_attr(b, NFTA_LIST_ELEM | NLA_F_NESTED, NULL, 0);
		key = put_attr(b, NFTA_SET_ELEM_KEY | NLA_F_NESTED, NULL, 0);
		put_attr(b, NFTA_DATA_VALUE, keys + i * keylen, keylen);
		attr_end(b, key);
		attr_end(b, elem);
	}
	attr_end(b, list);
	msg_grew(b, msg);
}

void nfnl_batch_end(struct nfnl_batch *b)
{
	b->last_seq = b->seq;
	put_msg(b, NFNL_MSG_BATCH_END, NLM_F_REQUEST, AF_UNSPEC,
		NFNL_SUBSYS_NFTABLES);
}

/* The type of the message with sequence number seq, for error messages. */
static const char *seq_name(const struct nfnl_batch *b, uint32_t seq)
{
	size_t off = 0;

	while (off < b->len) {
		const struct nlmsghdr *h =
		    (const struct nlmsghdr *)(b->buf + off);

		if (h->nlmsg_seq == seq)
			return msg_name(h->nlmsg_type);
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
	return "?";
}

/* The kernel's answers on a socket, read into buf. */
struct answers {
	uint8_t *buf;
	size_t size, len, off;
};

/*
 * The next message of the kernel's answers, checked to lie inside what
 * recv() returned; NULL with errno when reading fails (EBADMSG: a
 * message that does not fit, EPIPE: the socket has nothing more).
 */
static const struct nlmsghdr *next_answer(int fd, struct answers *a)
{
	const struct nlmsghdr *h;

	while (a->len - a->off < NLMSG_HDRLEN) {
		ssize_t n = recv(fd, a->buf, a->size, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n == 0 ? EPIPE : errno;
			return NULL;
		}
		a->len = (size_t)n;
		a->off = 0;
	}
	h = (const struct nlmsghdr *)(const void *)(a->buf + a->off);
	if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > a->len - a->off) {
		errno = EBADMSG;
		return NULL;
	}
	a->off += NLMSG_ALIGN(h->nlmsg_len);
	if (a->off > a->len)
		a->off = a->len;
	return h;
}

/*
 * In the helper (no allocation): sends the batch and reads one ack per
 * message that asked for one. Any error ends the helper with a message
 * naming the message the kernel refused.
 */
void nfnl_batch_send(int fd, const struct nfnl_batch *b)
{
	static uint8_t buf[16384] __attribute__((aligned(4)));
	struct answers a = {buf, sizeof(buf), 0, 0};
	uint32_t acked = 0, want = b->last_seq - b->first_seq;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};

	if (sendto(fd, b->buf, b->len, 0, (struct sockaddr *)&sa, sizeof(sa)) !=
	    (ssize_t)b->len)
		die_with_error("net: nft: send the table (%zu bytes)", b->len);
	while (acked < want) {
		const struct nlmsghdr *h = next_answer(fd, &a);
		const struct nlmsgerr *e;

		if (!h && errno == EBADMSG)
			die("net: nft: malformed answer");
		if (!h)
			die_with_error("net: nft: read the kernel's answer");
		if (h->nlmsg_type != NLMSG_ERROR)
			continue;
		if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
			die("net: nft: short ack");
		e = (const struct nlmsgerr *)NLMSG_DATA(h);
		if (e->error) {
			errno = -e->error;
			die_with_error("net: nft: the kernel refused message "
				       "%u (%s) of the table",
				       h->nlmsg_seq - b->first_seq,
				       seq_name(b, h->nlmsg_seq));
		}
		acked++;
	}
}

/* Attribute walk with bounds checks; returns the payload of `type`. */
static const uint8_t *find_attr(const uint8_t *p, size_t len, uint16_t type,
				size_t *plen)
{
	size_t off = 0;

	while (len - off >= NLA_HDRLEN) {
		struct nlattr a;

		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len - off)
			return NULL;
		if ((a.nla_type & NLA_TYPE_MASK) == type) {
			*plen = a.nla_len - NLA_HDRLEN;
			return p + off + NLA_HDRLEN;
		}
		off += NLA_ALIGN(a.nla_len);
		if (off > len)
			return NULL;
	}
	return NULL;
}

/* Each element's key in one NEWSETELEM answer goes to fn. */
static int dump_elems(const uint8_t *p, size_t len, size_t keylen,
		      void (*fn)(const uint8_t *key, void *arg), void *arg)
{
	size_t llen, off = 0;
	const uint8_t *list =
	    find_attr(p, len, NFTA_SET_ELEM_LIST_ELEMENTS, &llen);

	if (!list)
		return 0;
	while (llen - off >= NLA_HDRLEN) {
		struct nlattr a;
		const uint8_t *key, *val;
		size_t klen, vlen;

		memcpy(&a, list + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > llen - off)
			return -1;
		key = find_attr(list + off + NLA_HDRLEN, a.nla_len - NLA_HDRLEN,
				NFTA_SET_ELEM_KEY, &klen);
		val = key ? find_attr(key, klen, NFTA_DATA_VALUE, &vlen) : NULL;
		if (!val || vlen != keylen)
			return -1;
		fn(val, arg);
		off += NLA_ALIGN(a.nla_len);
		if (off > llen)
			break;
	}
	return 0;
}

int nfnl_dump_set(int fd, const char *set, size_t keylen,
		  void (*fn)(const uint8_t *key, void *arg), void *arg)
{
	static uint8_t buf[65536] __attribute__((aligned(4)));
	struct answers a = {buf, sizeof(buf), 0, 0};
	struct nfnl_batch q;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	uint32_t seq;

	memset(&q, 0, sizeof(q));
	q.seq = 0x706f6c00; /* distinct from the batch's numbers */
	put_msg(&q, NFT_TYPE(NFT_MSG_GETSETELEM), NLM_F_REQUEST | NLM_F_DUMP,
		NFPROTO_INET, 0);
	put_attr(&q, NFTA_SET_ELEM_LIST_TABLE, POLBIN_NFT_TABLE,
		 sizeof(POLBIN_NFT_TABLE));
	put_attr(&q, NFTA_SET_ELEM_LIST_SET, set, strlen(set) + 1);
	msg_grew(&q, 0);
	seq = q.seq;
	if (sendto(fd, q.buf, q.len, 0, (struct sockaddr *)&sa, sizeof(sa)) !=
	    (ssize_t)q.len) {
		free(q.buf);
		return -1;
	}
	free(q.buf);
	for (;;) {
		const struct nlmsghdr *h = next_answer(fd, &a);
		const size_t hl = NLMSG_HDRLEN + sizeof(struct nfgenmsg);

		if (!h)
			return -1;
		if (h->nlmsg_seq != seq)
			continue; /* a late ack of the batch: not ours */
		if (h->nlmsg_type == NLMSG_DONE)
			return 0;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e =
			    (const struct nlmsgerr *)NLMSG_DATA(h);

			if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
				return -1;
			errno = -e->error;
			return e->error == 0 ? 0 : -1;
		}
		if (h->nlmsg_len >= hl &&
		    dump_elems((const uint8_t *)h + hl, h->nlmsg_len - hl,
			       keylen, fn, arg) < 0)
			return -1;
	}
}
