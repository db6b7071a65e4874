/* SPDX-License-Identifier: MIT */
/*
 * The artifact, decoded (artifact.c) into a struct policy (lib/policy.h).
 */
#ifndef POLC_STUB_ARTIFACT_H
#define POLC_STUB_ARTIFACT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/policy.h"

/* Reads and validates `path`; dies with the reason on any defect. */
void artifact_load(const char *path, struct policy *p);
/*
 * The same checks over buf[0..len) (artifact_load after reading the file;
 * the fuzz harness tests/fuzz/fuzz_stub.c). p->buf becomes buf; `path`
 * names the artifact in refusals.
 */
void artifact_decode(const char *path, struct policy *p, uint8_t *buf,
		     size_t len);
/* Reads `path` whole into p->buf, as artifact_load does first. */
void artifact_read(const char *path, struct policy *p);
/* Does this polexec enforce sections of this type? */
int artifact_implements(uint32_t type);

#endif
