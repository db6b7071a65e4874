/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics, collected with their locations and printed afterwards as
 *
 *   file:line:col: error: message
 *       the source line
 *       ^
 *
 * Nothing in the front end or the semantic pass prints where it finds a
 * problem; it records it here, so every tool reports the same way.
 */
#ifndef POLC_DIAG_H
#define POLC_DIAG_H

#include <stddef.h>
#include <stdio.h>

/* A source file, kept in memory so diagnostics can quote its lines. */
struct src_file {
	char *path;
	char *text; /* NUL-terminated; len excludes the NUL */
	size_t len;
	unsigned seq; /* load order: 0 for the first file */
	struct src_file *next;
};

struct loc {
	const struct src_file *file;
	int line; /* 1-based; 0: no location */
	int col;  /* 1-based, in bytes */
};

enum diag_level {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,   /* about the entry before it */
	DIAG_REMARK, /* a note of its own, printed as "note" */
};

struct diag_entry {
	enum diag_level level;
	struct loc loc;
	char *msg;
};

/*
 * Errors past max_errors are counted, not kept: a pathological policy must
 * not turn into millions of lines. The default is generous, so that fixing
 * a long policy (or an imported profile) takes one pass; `--max-errors N`
 * sets it, 0 keeping every error.
 */
#define DIAG_MAX_ERRORS 1000

struct diag {
	struct diag_entry *v;
	size_t n, cap;
	int errors;
	int warnings;
	int max_errors; /* errors kept; 0: all (diag_init: DIAG_MAX_ERRORS) */
	int dropped;	/* errors counted but not kept */
	int dropping;	/* the last error was dropped: drop its notes too */
	int oom;
	unsigned nfiles;
	struct src_file *files; /* owned */
};

void diag_init(struct diag *d);
void diag_fini(struct diag *d);

/*
 * Reads a file into a src_file owned by d. Returns NULL and records an error
 * (at `from`, which may be a zero location) when it cannot. Files over 1 MiB
 * and files holding NUL bytes are refused.
 */
const struct src_file *diag_load_file(struct diag *d, const char *path,
				      struct loc from);
/* Adds in-memory text as a source (for tests and fuzzing). */
const struct src_file *diag_add_source(struct diag *d, const char *path,
				       const char *text, size_t len);

void diag_report(struct diag *d, enum diag_level level, struct loc loc,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define diag_error(d, loc, ...)	  diag_report(d, DIAG_ERROR, loc, __VA_ARGS__)
#define diag_warning(d, loc, ...) diag_report(d, DIAG_WARNING, loc, __VA_ARGS__)
#define diag_note(d, loc, ...)	  diag_report(d, DIAG_NOTE, loc, __VA_ARGS__)
#define diag_remark(d, loc, ...)  diag_report(d, DIAG_REMARK, loc, __VA_ARGS__)

/* Prints every entry in order. Control characters in quoted text are shown
 * as '?' so a hostile policy cannot drive the reader's terminal. An entry
 * with its notes that repeats one printed before (the same level, place
 * and text throughout, as when `polc check` compiles one fragment for
 * each side) is printed once. */
void diag_print(const struct diag *d, FILE *out);

/* The closest of `candidates` to `word` within a small edit distance, for
 * "did you mean"; NULL when nothing is close. */
const char *diag_closest(const char *word, const char *const *candidates,
			 size_t n);

#endif
