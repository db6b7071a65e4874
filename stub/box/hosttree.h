/* SPDX-License-Identifier: MIT */
/*
 * The view's last rung (hosttree.c): the host's tree under Landlock, with
 * replacements for the box's own /dev, /tmp and /proc.
 */
#ifndef POLC_STUB_HOSTTREE_H
#define POLC_STUB_HOSTTREE_H

#include "landlock/landlock.h"
#include "lib/policy.h"
#include "lib/util.h"

/* Parent, once the view is degraded to the host's tree: the private
 * folder for `tmpfs /tmp` made. */
void hosttree_plan(const struct policy *p);
/* "TMPDIR=FOLDER" for the box's environment, or NULL. */
const char *hosttree_tmpdir_env(void);
/* Child, before Landlock: the replacements granted. */
void hosttree_child(const struct ll_run *ll);
/* Parent, when the box ended or was refused: the folder removed. */
void hosttree_finish(void);
/* The record's view members for this rung. */
void hosttree_record(struct text *t);

#endif
