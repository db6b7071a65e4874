/* SPDX-License-Identifier: MIT */
/*
 * A classic-BPF interpreter for the fragment polc emits (sbpf.h). Checked
 * once at load: then every load is in bounds, every jump goes forward and
 * lands inside the program, and the program ends in a ret, so a run takes
 * at most n steps and cannot fall off the end.
 */
#include "sbpf.h"

#include <stddef.h>
#include <string.h>

int sbpf_check(const struct sock_filter *prog, unsigned n, unsigned *bad)
{
	unsigned pc;

	for (pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];
		unsigned left = n - pc - 1;

		*bad = pc;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k % 4 || f->k > sizeof(struct seccomp_data) - 4)
				return -1;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
		case BPF_RET | BPF_K:
			break;
		case BPF_JMP | BPF_JA:
			if (f->k >= left)
				return -1;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			if (f->jt >= left || f->jf >= left)
				return -1;
			break;
		default:
			return -1;
		}
	}
	if (n == 0 || prog[n - 1].code != (BPF_RET | BPF_K)) {
		*bad = n ? n - 1 : 0;
		return -1;
	}
	return 0;
}

unsigned sbpf_run(const struct sock_filter *prog, unsigned n,
		  const struct seccomp_data *d)
{
	unsigned pc = 0, a = 0, word;

	while (pc < n) {
		const struct sock_filter *f = &prog[pc++];
		int t;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&word, (const char *)d + f->k, 4);
			a = word;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			continue;
		case BPF_RET | BPF_K:
			return f->k;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_K:
			t = a == f->k;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			t = a > f->k;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			t = a >= f->k;
			break;
		default: /* BPF_JSET, the last one sbpf_check() admits */
			t = (a & f->k) != 0;
			break;
		}
		pc += t ? f->jt : f->jf;
	}
	/* Not reached for a checked program; deny if it were. */
	return SECCOMP_RET_KILL_PROCESS;
}
