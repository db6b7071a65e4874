/* SPDX-License-Identifier: MIT */
/* Secrets as files on a private tmpfs in the box (secrets.c). */
#ifndef POLC_STUB_SECRETS_H
#define POLC_STUB_SECRETS_H

#include "artifact.h"
#include "landlock/landlock.h"
#include "lib/util.h"
#include "lib/vars.h"

#define POLEXEC_MAX_SECRET  (1 << 20) /* one secret's source file */
#define POLEXEC_MAX_SECRETS (4 << 20) /* all secrets together */

/* Parent: binds, checks and opens each secret's source; plans mounts. */
void secrets_prepare(const struct policy *p, const struct vars *vars);
/* polexec --doctor's: would the run refuse the folder that holds a
 * secret at dest (a path naming no variable)? NULL, or why, in buf. */
const char *secrets_folder_why(const char *dest, char *buf, size_t len);
/* Child, in its mount namespace: the tmpfs and the secret files. */
void secrets_child(void);
/* In the child, after secrets_child(): the box may read its secrets
 * whatever the Landlock rules say of the folder they are in. */
void secrets_child_allow(const struct ll_run *ll);
/* The record's "secrets" member (names only), for a run. */
void secrets_record(struct text *t);
/* The tmpfs mount points from the i-th on, NULL past the last: the
 * box's view makes them in its root (view.c). */
const char *secrets_mount_point(uint32_t i);

#endif
