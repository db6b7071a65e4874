// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for polexec's own artifact decoder: bytes in as a
 * .polbin, through artifact_decode() (stub/artifact.c): polbin_parse, then
 * META, SECCOMP, ENV, LANDLOCK, LIMITS, NET and NFT
 * (nfnl_validate, stub/net/nfnl.c). It links the stub's sources, built with
 * clang and glibc instead of musl, except stub/lib/util.c and stub/polexec.c.
 *
 * polexec refuses through die(), which prints and _exits 125. This file
 * brings its own die(), die_with_error() and die_oom() that longjmp back
 * here instead, so one process tries every input. The decoder allocates
 * with xcalloc (stub/lib/names.c) and never frees what a refusal leaves
 * behind (the process exits); so that the fuzzer neither leaks nor grows,
 * the build wraps calloc and free (-Wl,--wrap=calloc,--wrap=free, see
 * tests/fuzz/fuzz.mk) and every block the decoder allocated for an input
 * and still holds is freed once that input is done. Leak detection stays
 * on: it then only sees what escaped the tracking.
 *
 * Each input is tried twice, as fuzz_polbin does: as it is, and with its
 * size field and SHA-256 digest made right (an attacker recomputes a
 * digest; random bytes never carry one).
 *
 * Checks beyond the sanitizers', aborting when they fail:
 *   - a refusal comes with a reason, and the reason holds no control
 *     character: polexec prints it to the user's terminal and the run
 *     record. POLC_FUZZ_CONTROL=ignore skips this check;
 *   - what the decoder accepted keeps the promises artifact.c states for
 *     each phase (the "After it: ..." comments), which the rest of polexec
 *     relies on without checking again;
 *   - the decoder never accepts what polbin_parse() refuses.
 *
 * POLC_FUZZ_VERBOSE=1 prints each try's outcome (the refusal, or
 * "accepted"), to see how far an input gets.
 */
#include "artifact.h"
#include "lib/util.h"
#include "sha256.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* --- the die() family, returning here ---------------------------------- */

static jmp_buf back;
static int armed;
static char refusal[1200];

static void bug(const char *what)
{
	fprintf(stderr, "fuzz_stub: %s\n", what);
	abort();
}

static void check_clean(const char *what, const char *s)
{
	const char *skip = getenv("POLC_FUZZ_CONTROL");

	if (skip && !strcmp(skip, "ignore"))
		return;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			fprintf(stderr, "fuzz_stub: %s holds byte 0x%02x: %s\n",
				what, (unsigned char)*s, refusal);
			abort();
		}
}

static _Noreturn void refused(void)
{
	if (!armed)
		bug("die() outside artifact_decode()");
	if (!refusal[0])
		bug("a refusal without a reason");
	check_clean("a refusal", refusal);
	if (getenv("POLC_FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz_stub: refused: %s\n", refusal);
	armed = 0;
	longjmp(back, 1);
}

_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(refusal, sizeof(refusal), fmt, ap);
	va_end(ap);
	refused();
}

_Noreturn void die_with_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(refusal, sizeof(refusal), fmt, ap);
	va_end(ap);
	refused();
}

_Noreturn void die_oom(void)
{
	snprintf(refusal, sizeof(refusal), "out of memory");
	refused();
}

/* net.c asks after a child's failure; there is no child here. */
const char *die_child_failure(void)
{
	return NULL;
}

/* supervise.c's child notes why it failed; there is no child here. */
void die_child_note(const char *msg, int said)
{
	(void)msg;
	(void)said;
}

_Noreturn void die_child_said(void)
{
	snprintf(refusal, sizeof(refusal), "a child failed");
	refused();
}

void die_set_hook(void (*hook)(const char *msg))
{
	(void)hook;
}

/* init.c moves the failure place to a shared page; nothing dies here. */
void die_share(struct die_area *shared)
{
	(void)shared;
}

/* --- what the decoder allocates ----------------------------------------- */

void *__real_calloc(size_t n, size_t size);
void __real_free(void *p);
void *__wrap_calloc(size_t n, size_t size);
void __wrap_free(void *p);

static void **held;
static size_t nheld, capheld;
static int tracking;

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (p && tracking) {
		if (nheld == capheld) {
			size_t cap = capheld ? 2 * capheld : 1024;
			void **nh = __real_calloc(cap, sizeof(*nh));

			if (!nh)
				bug("out of memory tracking allocations");
			if (nheld)
				memcpy(nh, held, nheld * sizeof(*nh));
			__real_free(held);
			held = nh;
			capheld = cap;
		}
		held[nheld++] = p;
	}
	return p;
}

void __wrap_free(void *p)
{
	size_t i;

	if (p && tracking)
		for (i = nheld; i-- > 0;)
			if (held[i] == p) {
				held[i] = held[--nheld];
				break;
			}
	__real_free(p);
}

static void release_all(void)
{
	while (nheld)
		__real_free(held[--nheld]);
}

/* --- what an accepted artifact promises ---------------------------------- */

static void check_string(const char *what, const char *s, size_t max)
{
	if (!s)
		bug(what);
	if (strlen(s) > max)
		bug(what);
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			bug(what);
}

static void check_env(const struct policy *p)
{
	uint32_t i, j;

	if (p->nenv > POLEXEC_MAX_ENV || (p->nenv && !p->env_present))
		bug("env: count");
	for (i = 0; i < p->nenv; i++) {
		const struct env_entry *e = &p->env[i];

		if (!e->name || !valid_identifier(e->name, strlen(e->name)))
			bug("env: name");
		for (j = 0; j < i; j++)
			if (!strcmp(p->env[j].name, e->name))
				bug("env: duplicate name");
		switch (e->kind) {
		case ENV_PASS:
			if (e->value || e->dest)
				bug("env: pass with a value");
			break;
		case ENV_SET:
			if (!e->value || e->dest ||
			    strlen(e->value) > POLEXEC_MAX_STR)
				bug("env: set");
			break;
		case ENV_SECRET:
			if (!e->value || !e->dest || !e->value[0] ||
			    !e->dest[0])
				bug("env: secret");
			break;
		default:
			bug("env: kind");
		}
	}
}

static void check_landlock(const struct ll_spec *l)
{
	uint32_t i, ports[3] = {0, 0, 0};

	if (!l->present)
		return;
	if (l->abi_min < 1 || l->abi_min > POLBIN_LL_MAX_ABI ||
	    l->mode > POLBIN_LL_REQUIRE)
		bug("landlock: requirement");
	if ((l->handled_fs & ~POLBIN_LL_FS_ALL) ||
	    (l->handled_net & ~POLBIN_LL_NET_ALL) ||
	    (l->scoped & ~POLBIN_LL_SCOPE_ALL) ||
	    !(l->handled_fs | l->handled_net | l->scoped))
		bug("landlock: handled");
	if (l->nfs > POLEXEC_MAX_LL_FS || l->nports > 2 * POLEXEC_MAX_LL_PORTS)
		bug("landlock: counts");
	for (i = 0; i < l->nfs; i++) {
		const struct ll_rule *r = &l->fs[i];

		if (r->access & ~l->handled_fs)
			bug("landlock: rule rights");
		if (r->fd != -1)
			bug("landlock: a rule fd before any was opened");
		check_string("landlock: path", r->path, POLBIN_LL_MAX_PATH);
		if (!r->path[0] || (r->path[0] != '/' && r->path[0] != '~' &&
				    r->path[0] != '$'))
			bug("landlock: path start");
		if (strstr(r->path, "//") || strstr(r->path, "/../") ||
		    strstr(r->path, "/./"))
			bug("landlock: path not normalized");
		if (i && strcmp(l->fs[i - 1].path, r->path) >= 0)
			bug("landlock: paths not sorted");
	}
	for (i = 0; i < l->nports; i++) {
		const struct ll_range *r = &l->ports[i];

		if ((r->access != POLBIN_LL_NET_BIND &&
		     r->access != POLBIN_LL_NET_CONNECT) ||
		    !(r->access & l->handled_net) || r->lo > r->hi)
			bug("landlock: port range");
		if (i && (l->ports[i - 1].access > r->access ||
			  (l->ports[i - 1].access == r->access &&
			   l->ports[i - 1].hi >= r->lo)))
			bug("landlock: port ranges not sorted");
		ports[r->access] += (uint32_t)r->hi - r->lo + 1;
		if (ports[r->access] > POLEXEC_MAX_LL_PORTS)
			bug("landlock: too many ports");
	}
}

static void check_net(const struct policy *p)
{
	const struct net_spec *n = &p->net;
	uint32_t i;

	if (!n->present)
		return;
	if (n->mode != POLBIN_NET_NONE && n->mode != POLBIN_NET_FILTERED)
		bug("net: mode");
	if (n->nloopback > POLBIN_NET_MAX_LOOPBACK ||
	    n->nruntime > POLBIN_NET_MAX_RUNTIME)
		bug("net: counts");
	for (i = 0; i < n->nloopback; i++)
		if (!n->loopback[i][0] ||
		    n->loopback[i][0] > n->loopback[i][1] ||
		    (i && n->loopback[i][0] <= n->loopback[i - 1][1]))
			bug("net: loopback ports");
	for (i = 0; i < n->nruntime; i++) {
		const struct net_rt *r = &n->rt[i];

		check_string("net: runtime name", r->name, 253 + 4096);
		if ((r->proto != 6 && r->proto != 17) || r->lo > r->hi)
			bug("net: runtime entry");
	}
	if (n->mode == POLBIN_NET_FILTERED) {
		if (!n->nft || !n->nft_len || !n->nft_msgs || n->nft < p->buf ||
		    n->nft_len > p->len ||
		    (size_t)(n->nft - p->buf) > p->len - n->nft_len)
			bug("net: nft messages outside the artifact");
	} else if (n->nft || n->nft_len || n->nruntime) {
		bug("net: nft or runtime entries in mode none");
	}
}

static void check_view(const struct policy *p)
{
	const struct view_spec *v = &p->view;
	uint32_t i, binds = 0;

	if (!v->present) {
		if (p->nnoexec || p->noexec)
			bug("view: NOEXEC without VIEW");
		return;
	}
	if (v->flags &
		~(uint32_t)(POLBIN_VIEW_F_ROOT | POLBIN_VIEW_F_BEST_EFFORT |
			    POLBIN_VIEW_F_USER) ||
	    v->n > POLBIN_VIEW_MAX ||
	    !(v->flags & POLBIN_VIEW_F_ROOT) != !p->nnoexec ||
	    p->nnoexec > POLBIN_SECCOMP_MAX_INSNS)
		bug("view: header");
	for (i = 0; i < v->n; i++) {
		const struct view_entry *e = &v->e[i];

		check_string("view: path", e->path, POLBIN_LL_MAX_PATH);
		if (e->kind == POLBIN_VIEW_BIND) {
			if (e->rule != binds++ || e->rule >= p->ll.nfs ||
			    e->path != p->ll.fs[e->rule].path)
				bug("view: bind");
		} else if (e->kind < POLBIN_VIEW_TMPFS ||
			   e->kind > POLBIN_VIEW_LINK || e->path[0] != '/' ||
			   !e->path[1] ||
			   e->access & ~(uint64_t)POLBIN_LL_FS_ALL) {
			bug("view: entry");
		}
		if (i && strcmp(v->e[i - 1].path, e->path) >= 0)
			bug("view: order");
	}
	if (v->flags & POLBIN_VIEW_F_ROOT && binds != p->ll.nfs)
		bug("view: a rule without its bind");
}

static void check_accepted(const struct policy *p)
{
	int i;

	check_string("meta: name", p->name, POLEXEC_MAX_META);
	check_string("meta: source", p->source_sha256, POLEXEC_MAX_META);
	check_string("meta: ir", p->ir_sha256, POLEXEC_MAX_META);
	check_string("meta: compiler", p->compiler, POLEXEC_MAX_META);
	if (strlen(p->artifact_sha256) != 64)
		bug("artifact digest");
	if (p->nfilter > POLBIN_SECCOMP_MAX_INSNS ||
	    (p->nfilter != 0) != (p->filter != NULL))
		bug("seccomp: instructions");
	check_env(p);
	check_landlock(&p->ll);
	check_view(p);
	check_net(p);
	if (p->limits.present) {
		if (p->limits.set >> POLBIN_LIM_COUNT)
			bug("limits: set");
		for (i = 0; i < POLBIN_LIM_COUNT; i++)
			if (!(p->limits.set >> i & 1) && p->limits.value[i])
				bug("limits: value without its bit");
	}
}

/* --- one input ----------------------------------------------------------- */

static struct policy policy;

static void one(uint8_t *buf, size_t len)
{
	static const uint32_t all[] = {
	    POLBIN_SEC_META,
	    POLBIN_SEC_SECCOMP,
	    POLBIN_SEC_ENV,
	    POLBIN_SEC_LANDLOCK,
	    POLBIN_SEC_LIMITS,
	    POLBIN_SEC_NET,
	    POLBIN_SEC_NFT,
	    POLBIN_SEC_IR,
	    POLBIN_SEC_VIEW,
	    POLBIN_SEC_NOEXEC,
	    0,
	};
	struct polbin pb;
	char err[256];

	refusal[0] = '\0';
	tracking = 1;
	armed = 1;
	if (setjmp(back) == 0) {
		artifact_decode("fuzz.polbin", &policy, buf, len);
		armed = 0;
		tracking = 0;
		if (polbin_parse(buf, len, all, &pb, err, sizeof(err)) < 0)
			bug("artifact_decode accepted what polbin_parse "
			    "refused");
		check_accepted(&policy);
		if (getenv("POLC_FUZZ_VERBOSE"))
			fprintf(stderr, "fuzz_stub: accepted\n");
	}
	armed = 0;
	tracking = 0;
	release_all();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t i;

	if (size > POLBIN_MAX_SIZE)
		return 0;
	/* Exactly size bytes, so ASan sees a read past the end. */
	buf = malloc(size ? size : 1);
	if (!buf)
		bug("out of memory");
	memcpy(buf, data, size);
	one(buf, size);
	if (size >= POLBIN_HEADER_SIZE) {
		/* The same bytes with a true size field and digest. */
		memcpy(buf, data, size);
		for (i = 0; i < 8; i++)
			buf[24 + i] = (uint8_t)((uint64_t)size >> (8 * i));
		sha256(buf + POLBIN_HEADER_SIZE, size - POLBIN_HEADER_SIZE,
		       buf + 32);
		one(buf, size);
	}
	free(buf);
	return 0;
}
