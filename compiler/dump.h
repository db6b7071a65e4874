/* SPDX-License-Identifier: MIT */
/* `polc dump`: an artifact's sections in human form. */
#ifndef POLC_DUMP_H
#define POLC_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 0, or -1 with the reason in err (the artifact is refused). */
int dump_artifact(const uint8_t *buf, size_t len, FILE *out, char *err,
		  size_t errlen);

#endif
