/* SPDX-License-Identifier: MIT */
/* What will be enforced, and the refusal of what cannot be (decide.c). */
#ifndef POLC_STUB_DECIDE_H
#define POLC_STUB_DECIDE_H

#include "artifact.h"
#include "lib/layers.h"

void decide_layers(const struct policy *p, struct layer_state *layers,
		   int require_enforced);

#endif
