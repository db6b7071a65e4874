/* SPDX-License-Identifier: MIT */
/*
 * A concrete classic-BPF interpreter over struct seccomp_data, with the
 * kernel's seccomp rules for what a filter may contain.
 *
 * bpf_check() is the static check the kernel does when a filter is loaded
 * (bpf_check_classic + seccomp_check_filter): length, known opcodes, jump
 * targets inside the program, loads only of aligned words inside
 * seccomp_data, scratch memory written before it is read, a RET last.
 * bpf_run() re-checks each instruction as it executes it, so it is safe on
 * a program that never went through bpf_check().
 */
#ifndef POLC_BPF_INTERP_H
#define POLC_BPF_INTERP_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The kernel's limit on a classic-BPF program (BPF_MAXINSNS). */
#define BPF_INTERP_MAX_INSNS 4096

/* Offsets of the seccomp_data words a filter can load. */
#define BPF_OFF_NR	  0u
#define BPF_OFF_ARCH	  4u
#define BPF_OFF_IP_LO	  8u
#define BPF_OFF_IP_HI	  12u
#define BPF_OFF_ARG(i)	  (16u + 8u * (unsigned)(i))
#define BPF_OFF_ARG_LO(i) BPF_OFF_ARG(i)
#define BPF_OFF_ARG_HI(i) (BPF_OFF_ARG(i) + 4u)

struct bpf_run_result {
	uint32_t ret;	 /* the filter's return value */
	size_t executed; /* instructions executed, the RET included */
	uint16_t loaded; /* bit w: word w (offset 4*w) of seccomp_data read */
};

/* Bits of bpf_run_result.loaded covering the six arguments. */
#define BPF_LOADED_ARGS 0xfff0u
#define BPF_LOADED_IP	0x000cu

int bpf_check(const struct sock_filter *prog, size_t n, char *err,
	      size_t errlen);

/* Returns 0 with *res filled, or -1 with err (invalid program). */
int bpf_run(const struct sock_filter *prog, size_t n,
	    const struct seccomp_data *d, struct bpf_run_result *res, char *err,
	    size_t errlen);

#endif
