// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for polexec's resolver (stub/resolve.c): what it reads
 * that others wrote. The first byte picks the reader, the rest is its
 * input:
 *
 *   0  a DNS answer to the question "dns.test" A, id 0x1234 (a name
 *      server's, or anyone's who sends to polexec's port)
 *   1  resolv.conf
 *   2  a hosts file, asked for "dns.test"
 *
 * Beyond "no crash, no leak, no UB" it aborts when what comes out breaks
 * what net.c relies on: an answer gives at most one address per 12 bytes
 * of it (a record's least) and its rcode is -1..15; resolv.conf gives
 * 1..3 servers, ndots <= 15, timeout 1..60, attempts 1..10 and a search
 * list that ends within its buffer; a hosts file gives at most one
 * address per line.
 */
#include "resolve.h"

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
	switch (data[0] % 3) {
	case 0:
		rc = resolve_answer((const uint8_t *)text, size - 1, 0x1234, q,
				    sizeof(q) - 1, add, NULL);
		check(rc >= -1 && rc <= 15, "rcode out of range");
		check(added <= (size - 1) / 12, "more addresses than records");
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
	default:
		for (i = 0; i + 1 < size; i++)
			lines += text[i] == '\n';
		resolve_hosts(text, size - 1, "dns.test", add, NULL);
		check(added <= lines, "more addresses than lines");
	}
	free(text);
	return 0;
}
