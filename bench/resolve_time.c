// SPDX-License-Identifier: MIT
//
// resolve_time RUNS NAME...: polexec's resolver (stub/net/resolve.c, built
// with musl as polexec is) timed alone, in this process's network and
// mount namespace: for each NAME, RUNS lookups one after another, then
// "NAME: median N.NNN ms, addresses K" on a line. What a host name adds
// to polexec's start-up beside an address written out (which is
// inet_pton's, microseconds), without pasta's noise around it
// (bench/net_startup.sh runs it). A failed lookup ends it, exit 1.
#include "resolve.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void count(void *arg, int family, const uint8_t *a)
{
	(void)family;
	(void)a;
	++*(unsigned *)arg;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	long runs = argc > 2 ? strtol(argv[1], NULL, 10) : 0;
	uint64_t *ns;
	int i;

	if (runs < 1 || runs > 100000) {
		fprintf(stderr, "usage: resolve_time RUNS NAME...\n");
		return 2;
	}
	ns = calloc((size_t)runs, sizeof(*ns));
	if (!ns) {
		fprintf(stderr, "resolve_time: out of memory\n");
		return 1;
	}
	for (i = 2; i < argc; i++) {
		unsigned n = 0;
		long r;

		for (r = 0; r < runs; r++) {
			const char *why = NULL;
			uint64_t t0 = now_ns();

			n = 0;
			if (resolve_host(argv[i], count, &n, &why)) {
				fprintf(stderr, "resolve_time: %s: %s\n",
					argv[i], why);
				free(ns);
				return 1;
			}
			ns[r] = now_ns() - t0;
		}
		qsort(ns, (size_t)runs, sizeof(*ns), cmp);
		printf("%s: median %.3f ms, addresses %u\n", argv[i],
		       (double)ns[runs / 2] / 1e6, n);
	}
	free(ns);
	return 0;
}
