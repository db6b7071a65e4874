/* SPDX-License-Identifier: MIT */
/*
 * What every part of polexec uses: its exit codes, the die() family
 * (util.c, after bubblewrap's: polexec has nothing to recover, only to
 * refuse), and small helpers (names.c): checked allocation, the checks of
 * names read from an artifact, text made safe to print, a growing text
 * buffer, lines out. util.c stands apart so that the fuzz harness, which
 * brings its own die(), links everything else (tests/fuzz/fuzz_stub.c).
 */
#ifndef POLC_STUB_UTIL_H
#define POLC_STUB_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The command's own status, 128+N when killed by signal N, or: */
#define POLEXEC_EXIT_REFUSED  125 /* polexec refused: the command never ran */
#define POLEXEC_EXIT_NOEXEC   126
#define POLEXEC_EXIT_NOTFOUND 127

#define POLEXEC_MAX_STR 4096 /* one name, value or path of an artifact */

/* --- util.c ---------------------------------------------------------- */

/* Prints "polexec: MSG" and exits 125 through _exit. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As die(), with ": strerror(errno)" appended; errno is saved first. */
_Noreturn void die_with_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
_Noreturn void die_oom(void);
/*
 * hook (or NULL) runs with the message when die() is called by this
 * process, not by the child: the parent's refusal record.
 */
void die_set_hook(void (*hook)(const char *msg));
/* Where a dying child says why: the parent's memory, or a shared page. */
struct die_area {
	volatile int failed;
	char msg[1024];
};
void die_share(struct die_area *shared);
/* In the parent, after clone() returned: why the child died before
 * execve, or NULL when it did not. */
const char *die_child_failure(void);
/* In the child: why it fails, for die_child_failure(), without a syscall
 * (a child whose every syscall may wait for an answer; supervise.c);
 * said: it printed the message itself. */
void die_child_note(const char *msg, int said);
/* As die() with die_child_failure()'s message: the refusal is recorded,
 * and the message printed unless the child printed it already. */
_Noreturn void die_child_said(void);

/* --- names.c --------------------------------------------------------- */

void *xcalloc(size_t n, size_t size);
char *xstrndup(const char *s, size_t n);
/* [A-Za-z_][A-Za-z0-9_]*, at most POLEXEC_MAX_STR bytes. */
int valid_identifier(const char *s, size_t len);
/* Replaces control characters (C0, DEL, C1) and bytes that are not
 * well-formed UTF-8 with '?', in place (the string may get shorter). */
void strip_controls(char *s);

/* Text that grows up to TEXT_MAX; past it, overflow is set and it stops. */
#define TEXT_MAX (16u << 20)
struct text {
	char *s;
	size_t len, cap;
	int overflow;
};
void text_add(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* s as a JSON string, controls and bytes that are not UTF-8 replaced. */
void text_json(struct text *t, const char *s);

/* fmt as one write to fd (at most 4 KiB); 0, or -1 when it failed. */
int out(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "polexec: warning: FMT" and a newline on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* From here warning() writes nothing (polexec --quiet): the run record
 * keeps each layer's tier and reason; die() still says why. */
void warnings_off(void);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t monotonic_ns(void);
/* fn(name, arg) for each entry of the folder fd, until its end or past
 * max bytes of entries: 0 when every entry was given, -1 when the folder
 * could not be read or was cut at max. */
int each_dirent(int fd, size_t max, void (*fn)(const char *name, void *arg),
		void *arg);

#endif
