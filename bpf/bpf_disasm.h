/* SPDX-License-Identifier: MIT */
/*
 * Classic-BPF disassembler for seccomp filters, in the spirit of
 * libseccomp's scmp_bpf_disasm: one line per instruction with the raw
 * fields, a mnemonic, absolute jump targets, and seccomp_data fields and
 * return actions named.
 *
 *   0003: 0x35 0x06 0x00 0x40000000   jge  0x40000000 true:0010 false:0004
 *   0009: 0x20 0x00 0x00 0x00000010   ld   $data[16]          ; args[0].lo
 *   0015: 0x06 0x00 0x00 0x00050001   ret  ERRNO(1)
 */
#ifndef POLC_BPF_DISASM_H
#define POLC_BPF_DISASM_H

#include <stddef.h>
#include <stdio.h>
#include <linux/filter.h>

/* Instruction `pc` of `prog` as one line (no newline) in buf; returns buf. */
const char *bpf_disasm_insn(const struct sock_filter *prog, size_t n, size_t pc,
			    char *buf, size_t len);

/* The return value of a RET as text: "ALLOW", "ERRNO(1)", ... */
const char *bpf_disasm_ret(unsigned int ret, char *buf, size_t len);

/* The whole program with a header line. Returns 0, or -1 on write error. */
int bpf_disasm(const struct sock_filter *prog, size_t n, FILE *out);

#endif
