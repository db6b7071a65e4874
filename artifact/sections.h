/* SPDX-License-Identifier: MIT */
/*
 * Payload formats of the compiled sections that polexec decodes. polc writes
 * them (compiler/backend_*.c); polexec reads them (stub/). All integers are
 * little-endian; strings are length-prefixed, not NUL-terminated, and must
 * not contain NUL bytes.
 *
 * META (POLBIN_SEC_META, not critical): records { u16 key, u16 len, bytes }
 *   until the end of the section.
 *
 * SECCOMP (POLBIN_SEC_SECCOMP, critical): struct sock_filter[len / 8] for
 *   AUDIT_ARCH_X86_64, 1..POLBIN_SECCOMP_MAX_INSNS instructions, exactly as
 *   the kernel loads it (also what `polc build --emit-bpf` writes).
 *
 * ENV (POLBIN_SEC_ENV, critical): u32 count, then count entries
 *   { u8 kind, u8 zero, u16 name_len, u16 value_len, u16 dest_len,
 *     name, value, dest }
 *   kind is POLBIN_ENV_*; value and dest hold `${VAR}` references that
 *   polexec binds at run time. A secret's value is the source file's path.
 */
#ifndef POLC_SECTIONS_H
#define POLC_SECTIONS_H

enum polbin_meta_key {
	POLBIN_META_NAME = 1,	       /* policy name */
	POLBIN_META_SOURCE_SHA256 = 2, /* hex digest of the main source file */
	POLBIN_META_COMPILER = 3,      /* "polc 0.1.0" */
	POLBIN_META_IR_SHA256 = 4,     /* hex digest of the IR section */
};

#define POLBIN_SECCOMP_MAX_INSNS 4096

enum polbin_env_kind {
	POLBIN_ENV_PASS = 0,
	POLBIN_ENV_SET = 1,
	POLBIN_ENV_SECRET = 2,
};

#endif
