/* SPDX-License-Identifier: MIT */
/*
 * The run record (record.c): opened before anything runs, written once,
 * after the command ends or when polexec refuses. It reads every layer's
 * state, so it sits above them all.
 */
#ifndef POLC_STUB_RECORD_H
#define POLC_STUB_RECORD_H

#include <stdint.h>

#include "artifact.h"
#include "landlock.h"
#include "layers.h"
#include "outfile.h"

struct record {
	int fd;		    /* -1: no record requested */
	struct outfile out; /* the file, by docs/OUTPUT.md's rule */
	const struct policy *policy;
	const struct ll_run *ll; /* NULL until landlock_prepare() ran */
	const char *command;
	struct layer_state layers[LAYER_COUNT];
	uint64_t start_ns; /* CLOCK_MONOTONIC */
};

/* Opens FILE for the record before anything runs, so failures come early:
 * a temporary file beside it (renamed into place when the record is
 * written), or a character device or FIFO as it is (outfile.h). */
void record_open(struct record *r, const char *path);
/* Writes the record for a command that ran (status is waitpid()'s) and
 * returns polexec's exit code: the command's. */
int record_finish(struct record *r, int status);
/* Writes a record for a refusal; used by die() through die_hook. */
void record_refused(struct record *r, const char *reason);

#endif
