/* SPDX-License-Identifier: MIT */
/*
 * The stub's classic-BPF interpreter (sbpf.c): the decision program and
 * the explain program run on the seccomp_data of a notification, so that
 * the supervisor answers with exactly the action the compiled program
 * gives. Only the instructions polc's generator emits.
 */
#ifndef POLC_STUB_SBPF_H
#define POLC_STUB_SBPF_H

#include <linux/filter.h>
#include <linux/seccomp.h>

/*
 * 0 when prog[0..n) is made of word loads of seccomp_data (aligned, in
 * bounds), `and #k`, `jeq/jgt/jge/jset #k`, `ja`, `ret #k`, every jump
 * lands inside the program and the last instruction is a ret; else -1
 * with the index of the first bad instruction in *bad.
 */
int sbpf_check(const struct sock_filter *prog, unsigned n, unsigned *bad);
/* What prog returns for d. prog must have passed sbpf_check(). */
unsigned sbpf_run(const struct sock_filter *prog, unsigned n,
		  const struct seccomp_data *d);

#endif
