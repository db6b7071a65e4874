// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for polexec's resolver (stub/net/resolve.c): what it reads
 * that others wrote. The first byte picks the reader, the rest is its
 * input:
 *
 *   0  a DNS answer to the question "dns.test" A, id 0x1234 (a name
 *      server's, or anyone's who sends to polexec's port)
 *   1  resolv.conf
 *   2  a hosts file, asked for "dns.test"
 *   3  a word that may read as an IPv4 address (polbin_inet_aton)
 *
 * Beyond "no crash, no leak, no UB" it aborts when what comes out breaks
 * what net.c relies on: an answer gives at most one address per 12 bytes
 * of it (a record's least), none unless it is well formed (rcode 0),
 * and it is an rcode 0..15 or a RESOLVE_* value; resolv.conf gives
 * 1..3 servers, ndots <= 15, timeout 1..60, attempts 1..10 and a search
 * list that ends within its buffer; a hosts file gives at most one
 * address per line; a word read as an address is one that the dotted
 * quad of that address reads as again, and has only inet_aton's
 * characters.
 */
#include "resolve.h"

#include "polbin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned added;

static void add(void *arg, int family, const uint8_t *a)
{
	(void)arg;
	(void)a;
	if (family != AF_INET && family != AF_INET6)
		abort();
	added++;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_dns: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* "dns.test" A IN, as resolve.c puts it after the header */
	static const uint8_t q[] = "\3dns\4test\0\0\1\0\1";
	struct resolv_conf c;
	uint8_t a[4], b[4];
	char quad[16];
	char *text;
	size_t lines = 1, i;
	int rc;

	if (!size)
		return 0;
	added = 0;
	text = malloc(size); /* exactly the bytes: overreads are caught */
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	switch (data[0] % 4) {
	case 0:
		rc = resolve_answer((const uint8_t *)text, size - 1, 0x1234, q,
				    sizeof(q) - 1, add, NULL);
		check(rc >= RESOLVE_TRUNCATED && rc <= 15,
		      "rcode out of range");
		check(added <= (size - 1) / 12, "more addresses than records");
		check(rc == 0 || !added, "addresses from a refused answer");
		break;
	case 1:
		resolve_conf(text, size - 1, &c);
		check(c.nns >= 1 && c.nns <= 3, "name servers");
		check(c.ndots <= 15 && c.timeout >= 1 && c.timeout <= 60 &&
			  c.attempts >= 1 && c.attempts <= 10,
		      "options out of range");
		check(memchr(c.search, 0, sizeof(c.search)) != NULL,
		      "search list not terminated");
		break;
	case 3:
		if (!polbin_inet_aton(text, size - 1, a))
			break;
		check(strspn(text, "0123456789abcdefxABCDEFX.") == size - 1,
		      "an address of other characters");
		snprintf(quad, sizeof(quad), "%u.%u.%u.%u", a[0], a[1], a[2],
			 a[3]);
		check(polbin_inet_aton(quad, strlen(quad), b) &&
			  !memcmp(a, b, 4),
		      "the dotted quad reads as another address");
		break;
	default:
		for (i = 0; i + 1 < size; i++)
			lines += text[i] == '\n';
		resolve_hosts(text, size - 1, "dns.test", add, NULL);
		check(added <= lines, "more addresses than lines");
	}
	free(text);
	return 0;
}
