/* SPDX-License-Identifier: MIT */
/*
 * The layers a run record reports, and the tier each one got: decided by
 * landlock_prepare() and decide_layers(), written by record.c.
 */
#ifndef POLC_STUB_LAYERS_H
#define POLC_STUB_LAYERS_H

enum tier {
	TIER_OFF = 0,
	TIER_ENFORCED,
	TIER_DEGRADED,
};

enum layer {
	LAYER_SECCOMP = 0,
	LAYER_LANDLOCK,
	LAYER_VIEW,
	LAYER_NET,
	LAYER_LIMITS,
	LAYER_ENV,
	LAYER_COUNT
};

struct layer_state {
	enum tier tier;
	const char *reason; /* TIER_DEGRADED only */
};

static inline const char *layer_name(enum layer l)
{
	static const char *const names[LAYER_COUNT] = {
	    [LAYER_SECCOMP] = "seccomp", [LAYER_LANDLOCK] = "landlock",
	    [LAYER_VIEW] = "view",	 [LAYER_NET] = "net",
	    [LAYER_LIMITS] = "limits",	 [LAYER_ENV] = "env",
	};

	return names[l];
}

#endif
