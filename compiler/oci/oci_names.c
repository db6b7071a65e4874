// SPDX-License-Identifier: MIT
/* The OCI seccomp profile's vocabulary; see oci_int.h. */
#include "oci_int.h"

#include <string.h>

const char *const oci_act_names[OCI_ACT_COUNT] = {
    [OCI_ACT_KILL] = "SCMP_ACT_KILL",
    [OCI_ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
    [OCI_ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD",
    [OCI_ACT_TRAP] = "SCMP_ACT_TRAP",
    [OCI_ACT_ERRNO] = "SCMP_ACT_ERRNO",
    [OCI_ACT_TRACE] = "SCMP_ACT_TRACE",
    [OCI_ACT_ALLOW] = "SCMP_ACT_ALLOW",
    [OCI_ACT_LOG] = "SCMP_ACT_LOG",
    [OCI_ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

const char *const oci_op_names[OCI_OP_COUNT] = {
    [OCI_OP_NE] = "SCMP_CMP_NE",
    [OCI_OP_LT] = "SCMP_CMP_LT",
    [OCI_OP_LE] = "SCMP_CMP_LE",
    [OCI_OP_EQ] = "SCMP_CMP_EQ",
    [OCI_OP_GE] = "SCMP_CMP_GE",
    [OCI_OP_GT] = "SCMP_CMP_GT",
    [OCI_OP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

/* libseccomp 2.5's arch names, as the runtime spec lists them. */
const char *const oci_arch_names[] = {
    "SCMP_ARCH_X86",	  "SCMP_ARCH_X86_64",	   "SCMP_ARCH_X32",
    "SCMP_ARCH_ARM",	  "SCMP_ARCH_AARCH64",	   "SCMP_ARCH_MIPS",
    "SCMP_ARCH_MIPS64",	  "SCMP_ARCH_MIPS64N32",   "SCMP_ARCH_MIPSEL",
    "SCMP_ARCH_MIPSEL64", "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",
    "SCMP_ARCH_PPC64",	  "SCMP_ARCH_PPC64LE",	   "SCMP_ARCH_S390",
    "SCMP_ARCH_S390X",	  "SCMP_ARCH_PARISC",	   "SCMP_ARCH_PARISC64",
    "SCMP_ARCH_RISCV64",  "SCMP_ARCH_LOONGARCH64", "SCMP_ARCH_M68K",
    "SCMP_ARCH_SH",	  "SCMP_ARCH_SHEB",	   NULL,
};

static int _find(const char *const *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (v[i] && !strcmp(v[i], name))
			return i;
	return -1;
}

int oci_act_find(const char *name)
{
	return _find(oci_act_names, OCI_ACT_COUNT, name);
}

int oci_op_find(const char *name)
{
	return _find(oci_op_names, OCI_OP_COUNT, name);
}

int oci_arch_known(const char *name)
{
	int n = 0;

	while (oci_arch_names[n])
		n++;
	return _find(oci_arch_names, n, name) >= 0;
}

const char *oci_act_of(const struct ir_action *a, unsigned *errnum)
{
	*errnum = 0;
	switch (a->kind) {
	case IR_ACT_KILL_PROCESS:
		return oci_act_names[OCI_ACT_KILL_PROCESS];
	case IR_ACT_KILL_THREAD:
		return oci_act_names[OCI_ACT_KILL_THREAD];
	case IR_ACT_TRAP:
		return oci_act_names[OCI_ACT_TRAP];
	case IR_ACT_ERRNO:
		*errnum = a->errnum;
		return oci_act_names[OCI_ACT_ERRNO];
	case IR_ACT_LOG:
		return oci_act_names[OCI_ACT_LOG];
	default:
		return oci_act_names[OCI_ACT_ALLOW];
	}
}
