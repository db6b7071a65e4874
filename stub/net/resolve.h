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
 * 0, or -1 with why set to a sentence (static, until the next call). A
 * name that reads as an IP address (polbin_inet_aton) is refused, never
 * looked up.
 */
int resolve_host(const char *name, resolve_add_fn *add, void *arg,
		 const char **why);

/* What resolve_answer finds a message to be, besides its rcode. */
enum {
	RESOLVE_NOT_OURS = -1,	/* not an answer to that question */
	RESOLVE_MALFORMED = -2, /* every length and name is not in order */
	RESOLVE_TRUNCATED = -3, /* TC: more than the UDP answer holds */
};

/*
 * One DNS answer m (len bytes), hostile input, to the question q (qlen
 * bytes after the header, as resolve.c encodes it: name, type A or AAAA,
 * class IN) with id: its rcode 1..15, or 0 and, through add, the records
 * of the asked type owned by the question's name or the end of its CNAME
 * chain in the answer section (given only once all of it is well
 * formed), or RESOLVE_*. For the fuzzer too.
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
