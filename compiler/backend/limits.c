/* SPDX-License-Identifier: MIT */
/*
 * LIMITS section: u32 flags, u32 set, u64 value[8], little-endian (see
 * artifact/sections.h). The IR's limit order is the section's order.
 */
#include "backend.h"
#include "support/support.h"
#include "sections.h"

#include <inttypes.h>
#include <stdlib.h>

#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(IR_LIM_COUNT, POLBIN_LIM_COUNT) &&
		   SAME(IR_LIM_MEMORY, POLBIN_LIM_MEMORY) &&
		   SAME(IR_LIM_PIDS, POLBIN_LIM_PIDS) &&
		   SAME(IR_LIM_NOFILE, POLBIN_LIM_NOFILE) &&
		   SAME(IR_LIM_CPU, POLBIN_LIM_CPU) &&
		   SAME(IR_LIM_WALL, POLBIN_LIM_WALL) &&
		   SAME(IR_LIM_FSIZE, POLBIN_LIM_FSIZE) &&
		   SAME(IR_LIM_CORE, POLBIN_LIM_CORE) &&
		   SAME(IR_LIM_GRACE, POLBIN_LIM_GRACE),
	       "the IR's and the section's limit numbering differ");
_Static_assert(POLBIN_LIMITS_LEN == 8 + 8 * POLBIN_LIM_COUNT,
	       "LIMITS section size");

static void put32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The largest value polexec accepts for limit i. */
static uint64_t bound(int i)
{
	switch (i) {
	case IR_LIM_MEMORY:
	case IR_LIM_FSIZE:
	case IR_LIM_CORE:
		return POLBIN_LIMITS_MAX_BYTES;
	case IR_LIM_PIDS:
	case IR_LIM_NOFILE:
		return POLBIN_LIMITS_MAX_COUNT;
	default:
		return POLBIN_LIMITS_MAX_MS;
	}
}

/*
 * The IR carries every limit in force, the defaults written out
 * (ir_canonicalize()): the section is the IR's set and values, so polexec
 * applies exactly what the prover judged. Refused: what a canonical IR
 * cannot hold (a limit without its block but the defaults, core or grace
 * not written out, values out of polexec's bounds).
 */
int limits_section_build(const struct ir_policy *p, uint8_t **out, size_t *len,
			 char *err, size_t errlen)
{
	const uint32_t defaults = 1u << IR_LIM_CORE | 1u << IR_LIM_GRACE;
	const struct ir_limits *l = &p->limits;
	uint32_t flags = 0;
	uint8_t *buf;
	int i;

	*out = NULL;
	*len = 0;
	if (l->set >> IR_LIM_COUNT)
		return errbuf_fail(err, errlen,
				   "limits: unknown limit bits 0x%x", l->set);
	if (l->mode > IR_LIMITS_REQUIRE)
		return errbuf_fail(err, errlen, "limits: unknown mode %u",
				   l->mode);
	if ((l->set & defaults) != defaults)
		return errbuf_fail(err, errlen,
				   "limits: core or grace not written out (IR "
				   "not canonical)");
	if (!l->present && (l->mode || l->set != defaults))
		return errbuf_fail(err, errlen,
				   "limits: values without a limits block (IR "
				   "not canonical)");
	for (i = 0; i < IR_LIM_COUNT; i++) {
		const char *name = ir_limit_name((enum ir_limit)i);
		uint64_t v = l->value[i];

		if (!(l->set >> i & 1)) {
			if (v)
				return errbuf_fail(err, errlen,
						   "limits: %s is unset but "
						   "has a value",
						   name);
			continue;
		}
		if (v == 0 && i != IR_LIM_CORE)
			return errbuf_fail(err, errlen, "limits: %s is 0",
					   name);
		if (v > bound(i))
			return errbuf_fail(err, errlen,
					   "limits: %s %" PRIu64
					   " is above %" PRIu64,
					   name, v, bound(i));
	}
	if (l->present)
		flags |= POLBIN_LIMITS_F_STATED;
	if (l->mode == IR_LIMITS_REQUIRE)
		flags |= POLBIN_LIMITS_F_REQUIRE;
	buf = calloc(1, POLBIN_LIMITS_LEN);
	if (!buf)
		return errbuf_fail(err, errlen, "limits: out of memory");
	put32(buf, flags);
	put32(buf + 4, l->set);
	for (i = 0; i < IR_LIM_COUNT; i++)
		put64(buf + 8 + 8 * i, l->value[i]);
	*out = buf;
	*len = POLBIN_LIMITS_LEN;
	return 0;
}
