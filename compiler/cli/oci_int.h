/* SPDX-License-Identifier: MIT */
/*
 * What polc import oci (oci_import.c) and polc export oci (oci_export.c)
 * share: the profile format's names for actions, comparisons and
 * architectures (oci.c), as runc and libseccomp read them. docs/OCI.md is
 * the contract of both commands.
 */
#ifndef POLC_OCI_INT_H
#define POLC_OCI_INT_H

#include <jansson.h>
#include <stddef.h>

#include "cli.h"
#include <stdint.h>

#include "ir/ir.h"

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

#endif /* POLC_OCI_INT_H */
