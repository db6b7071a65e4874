/* SPDX-License-Identifier: MIT */
/*
 * What the import (oci_import.c) and the export (oci_export.c) share: the
 * profile format's names for actions, comparisons and architectures
 * (oci_names.c), as runc and libseccomp read them. Then what the import's
 * stages share: struct imp, which each reads and adds to, and the
 * functions each offers the others. docs/OCI.md is the contract of both.
 */
#ifndef POLC_OCI_INT_H
#define POLC_OCI_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "ir/ir.h"
#include "oci.h"

/* The arch polc compiles for, in the profile's spelling and in moby's
 * (includes.arches / excludes.arches use Go's GOARCH-derived names). */
#define OCI_ARCH_X86_64	 "SCMP_ARCH_X86_64"
#define OCI_NATIVE_AMD64 "amd64"

/* runc's default errno for SCMP_ACT_ERRNO without errnoRet. */
#define OCI_DEFAULT_ERRNO 1 /* EPERM */

enum oci_act {
	OCI_ACT_KILL, /* runc: kill the thread */
	OCI_ACT_KILL_PROCESS,
	OCI_ACT_KILL_THREAD,
	OCI_ACT_TRAP,
	OCI_ACT_ERRNO,
	OCI_ACT_TRACE,
	OCI_ACT_ALLOW,
	OCI_ACT_LOG,
	OCI_ACT_NOTIFY,
	OCI_ACT_COUNT
};

/* "SCMP_ACT_KILL", ... by enum oci_act; and the reverse, -1 if unknown. */
extern const char *const oci_act_names[OCI_ACT_COUNT];
int oci_act_find(const char *name);

enum oci_op {
	OCI_OP_NE,
	OCI_OP_LT,
	OCI_OP_LE,
	OCI_OP_EQ,
	OCI_OP_GE,
	OCI_OP_GT,
	OCI_OP_MASKED_EQ,
	OCI_OP_COUNT
};

extern const char *const oci_op_names[OCI_OP_COUNT];
int oci_op_find(const char *name);

/* Every SCMP_ARCH_* name libseccomp knows, NULL-terminated. */
extern const char *const oci_arch_names[];
int oci_arch_known(const char *name);

/*
 * The action an IR action is in a profile: SCMP_ACT_ERRNO with *errnum
 * set, SCMP_ACT_KILL_PROCESS, ... (never SCMP_ACT_KILL, which runc reads
 * as kill_thread, so it is spelled out).
 */
const char *oci_act_of(const struct ir_action *a, unsigned *errnum);

/* ---- The import's stages ---------------------------------------------- */

#define ARGS_MAX 16 /* conditions in one entry */

/* One condition of an entry's args, as the profile says it. */
struct cond {
	unsigned index;
	int op; /* enum oci_op */
	uint64_t v, v2;
};

/* One of our rules, from one libseccomp rule of one entry. */
struct rule {
	struct ir_action act;
	uint32_t natoms;
	struct ir_atom atoms[IR_MAX_ATOMS];
	int entry;    /* syscalls[entry] */
	int orule;    /* libseccomp rule within the entry */
	int scmp_all; /* the libseccomp rule has no condition at all */
	int drop;     /* not written: why, and the entry it yields to */
	int other;
};

enum drop_why {
	KEEP = 0,
	DUP,	    /* the same rule again */
	UNCOND,	    /* the syscall has an unconditional rule */
	SAME_UNCOND /* an unconditional rule with the same action */
};

/* A syscall and its rules, from every entry that names it. */
struct call {
	char name[IR_SYSCALL_NAME];
	struct rule *r;
	size_t n, cap;
};

/* syscalls[i] of the profile, as read, and what became of it. */
struct entry {
	int applies;
	char *why;	 /* not applied: why */
	char *cond;	 /* its includes and excludes, as text */
	char *comment;	 /* the profile's, made printable */
	char *names;	 /* x86_64 names, space-separated */
	char *elsewhere; /* other arches' names */
	struct ir_action act;
	int is_default; /* runc skips it */
	int or_split;	/* conditions on one argument: ORed */
	int never;	/* its conditions can never hold */
	char who[80];	/* " (name name ...)": its first names, for messages */
	int hole;	/* holds only with a dirty upper half */
};

/* Output lines: a comment, a statement, a blank (dropped where fmt would
 * drop it: not before a closing brace, which fmt sets apart). */
enum line_kind { L_COMMENT, L_STMT, L_BLANK, L_CLOSE };
struct line {
	enum line_kind kind;
	char *text;
};

/* One import: its options and container, then what the stages add in
 * turn: the entries, the rules of each syscall, the output lines. */
struct imp {
	const struct oci_import_opts *o;
	struct diag *d;
	struct loc at;
	struct ir_action def;
	int def_ok;
	char *arches; /* the profile's arches for x86_64 */
	int subarches;
	const char *caps[64];
	size_t ncaps;
	unsigned kmaj, kmin;
	struct entry *e;
	size_t ne;
	struct call *c;
	size_t nc, capc;
	struct line *l;
	size_t nl, capl;
	int oom;
};

/* Diagnostics at m->at, and memory (oci_import.c): out of memory sets
 * m->oom and leaves what was there. */
void imp_err(struct imp *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void imp_warn(struct imp *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void *imp_grow(struct imp *m, void *v, size_t *cap, size_t n, size_t sz);
void imp_append(struct imp *m, char **out, const char *sep, const char *s);
char *imp_printable(struct imp *m, const char *s);

/* Reading the JSON (oci_json.c). */
const char *oci_json_kind(json_t *v);
json_t *oci_json_get(json_t *obj, const char *key);
void imp_check_keys(struct imp *m, json_t *obj, const char *where,
		    const char *const *keys, size_t n);
const char *imp_get_string(struct imp *m, json_t *obj, const char *key,
			   const char *where);
int imp_get_uint(struct imp *m, json_t *obj, const char *key, const char *where,
		 uint64_t max, uint64_t *out);
void imp_json_error(struct imp *m, const struct src_file *src,
		    const json_error_t *je);

/* The profile's top level, its entries, and where rules meet
 * (oci_profile.c). */
void imp_profile(struct imp *m, json_t *root);

/* The container, and whether an entry applies to it (oci_filter.c). */
int oci_parse_kernel(const char *s, unsigned *maj, unsigned *min);
int imp_caps(struct imp *m);
int imp_filter(struct imp *m, json_t *f, int include, const char *where,
	       char **why, char **cond);

/* One entry, read and translated (oci_entry.c). */
void imp_entry(struct imp *m, int ei, json_t *s);

/* Actions and conditions as our rules (oci_translate.c). */
int imp_action(struct imp *m, const char *where, const char *name,
	       int has_errno, uint64_t errnum, struct ir_action *a);
struct call *imp_call(struct imp *m, const char *name);
int imp_product(struct imp *m, int ei, int orule, const char *sc,
		const struct cond *cv, size_t n, struct call *c);

/* One syscall's rules as libseccomp decides them (oci_meet.c). */
void imp_rules_meet(struct imp *m, struct call *c);

/* The policy text (oci_emit.c). */
void imp_emit_policy(struct imp *m);
int imp_write_lines(struct imp *m, FILE *out);

#endif /* POLC_OCI_INT_H */
