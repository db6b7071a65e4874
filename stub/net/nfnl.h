/* SPDX-License-Identifier: MIT */
/*
 * Raw nfnetlink for the egress table (nfnl.c): one nf_tables transaction,
 * built in the parent, sent by the namespace helper; the evidence sets
 * dumped after the box ended.
 */
#ifndef POLC_STUB_NFNL_H
#define POLC_STUB_NFNL_H

#include <stddef.h>
#include <stdint.h>

struct nfnl_batch {
	uint8_t *buf;
	size_t len, cap;
	uint32_t seq, first_seq, last_seq;
};

/* The NFT section's framing (artifact/sections.h); 0 or -1 with why. */
int nfnl_validate(const uint8_t *b, size_t len, uint32_t *nmsgs, char *why,
		  size_t whylen);
void nfnl_batch_begin(struct nfnl_batch *b);
void nfnl_batch_add_static(struct nfnl_batch *b, const uint8_t *msgs,
			   size_t len);
void nfnl_batch_add_elems(struct nfnl_batch *b, const char *set,
			  const uint8_t *keys, size_t keylen, uint32_t n);
void nfnl_batch_end(struct nfnl_batch *b);
/* In the helper: sends, reads every ack; dies naming a refused message. */
void nfnl_batch_send(int fd, const struct nfnl_batch *b);
/* Each element's key of SET goes to fn; 0, or -1 with errno. */
int nfnl_dump_set(int fd, const char *set, size_t keylen,
		  void (*fn)(const uint8_t *key, void *arg), void *arg);

#endif
