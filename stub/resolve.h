/* SPDX-License-Identifier: MIT */
/*
 * Host names to addresses, once at start (resolve.c): the hosts file,
 * then the name servers of resolv.conf, A and AAAA over UDP.
 */
#ifndef POLC_STUB_RESOLVE_H
#define POLC_STUB_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

/* Called for each address: family AF_INET (4 bytes) or AF_INET6 (16). */
typedef void resolve_add_fn(void *arg, int family, const uint8_t *addr);

/*
 * The addresses of name (a host name, polbin_is_hostname), through add.
 * 0, or -1 with why set to a sentence (static text).
 */
int resolve_host(const char *name, resolve_add_fn *add, void *arg,
		 const char **why);

/*
 * One DNS answer, hostile input: 0..15 its rcode when it answers the
 * question q (qlen bytes, as resolve.c encodes it) with id, each A or
 * AAAA record of its answer section to add; -1 when it is malformed, not
 * an answer to that question, or truncated. For the fuzzer too.
 */
int resolve_answer(const uint8_t *m, size_t len, uint16_t id, const uint8_t *q,
		   size_t qlen, resolve_add_fn *add, void *arg);

/* The options of resolv.conf that resolve_host follows. */
struct resolv_conf {
	uint8_t ns[3][16]; /* IPv4-mapped, or IPv6 */
	unsigned nns, ndots, timeout, attempts;
	char search[256]; /* domains, space-separated */
};

/* resolv.conf's text (len bytes) into c, with musl's defaults and limits
 * (name server 127.0.0.1, ndots 1, timeout 5 s, attempts 2). */
void resolve_conf(const char *text, size_t len, struct resolv_conf *c);

/* The addresses a hosts file's text (len bytes) gives name; how many. */
unsigned resolve_hosts(const char *text, size_t len, const char *name,
		       resolve_add_fn *add, void *arg);

#endif
