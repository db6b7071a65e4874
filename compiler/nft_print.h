/* SPDX-License-Identifier: MIT */
/*
 * The table of the NFT section as nft syntax (what `nft -f` accepts), from
 * the IR: `polc dump` shows it, and the test suite loads it with nft to
 * check that the kernel lists it exactly as it lists the section's
 * messages. The runtime sets are shown empty, each with a comment naming
 * the entry polexec fills it from.
 */
#ifndef POLC_NFT_PRINT_H
#define POLC_NFT_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "ir/ir.h"

/* Writes the table of a `net filtered` p. Returns 0, or -1 with a reason. */
int nft_print(const struct ir_policy *p, FILE *out, char *err, size_t errlen);

#endif
