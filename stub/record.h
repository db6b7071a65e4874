/* SPDX-License-Identifier: MIT */
/*
 * The run record (record.c): opened before anything runs, written once,
 * after the command ends or when polexec refuses. Each layer's tier comes
 * from decide_layers(); what a layer adds is written by the writer it
 * hands over in struct record_parts (polexec.c wires them): the record
 * includes no layer, and no layer includes the record.
 */
#ifndef POLC_STUB_RECORD_H
#define POLC_STUB_RECORD_H

#include <stdint.h>

#include "lib/layers.h"
#include "lib/outfile.h"
#include "lib/policy.h"
#include "lib/util.h"

/* The writers of the record's parts; any may be NULL. */
struct record_parts {
	/* A layer's members after its "tier", given the tier as written. */
	void (*layer[LAYER_COUNT])(struct text *t, enum tier tier, int refused);
	void (*observed)(struct text *t, int refused); /* mode, denials */
	void (*limits)(struct text *t);		       /* a run only */
	void (*secrets)(struct text *t);	       /* a run only */
};

struct record {
	int fd;		    /* -1: no record requested */
	struct outfile out; /* the file, by docs/OUTPUT.md's rule */
	const struct policy *policy;
	const char *command;
	char **argv;		/* the command line, NULL-terminated */
	const char *started_by; /* --started-by (the shim), or NULL */
	struct layer_state layers[LAYER_COUNT];
	struct record_parts parts;
	int learn;	   /* --learn: no layer is certified */
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
