/* SPDX-License-Identifier: MIT */
/*
 * Classic-BPF program builder with symbolic labels.
 *
 * Code is emitted in order; jumps name labels instead of offsets, and every
 * label must be bound after the jumps that use it (classic BPF only jumps
 * forward). bpf_builder_finish() lays the program out: a conditional jump
 * has 8-bit offsets, so a branch whose target is more than 255 instructions
 * away gets a trampoline placed right after the jump. The trampoline is a
 * copy of the target when the target is a RET (same size as a JA and one
 * instruction fewer executed), otherwise a JA with a 32-bit offset.
 *
 * Errors are sticky: once an emit fails (allocation, bad label), later calls
 * do nothing and bpf_builder_finish() reports the first error.
 */
#ifndef POLC_BPF_BUILDER_H
#define POLC_BPF_BUILDER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

/* A label; BPF_LABEL_NEXT means "the next instruction emitted". */
typedef uint32_t bpf_label;
#define BPF_LABEL_NEXT UINT32_MAX

struct bpf_builder;

int bpf_builder_create(struct bpf_builder **out);
void bpf_builder_destroy(struct bpf_builder **b);

/* A fresh, unbound label (never fails; errors surface at finish). */
bpf_label bpf_label_new(struct bpf_builder *b);

/* Bind `l` to the next instruction emitted. Returns 0 or -1. */
int bpf_label_bind(struct bpf_builder *b, bpf_label l);

/* Any non-jump instruction: loads, ALU, RET, MISC, ST. Returns 0 or -1. */
int bpf_emit_stmt(struct bpf_builder *b, uint16_t code, uint32_t k);

/*
 * A conditional jump `code` (BPF_JMP | BPF_JEQ/JGT/JGE/JSET | BPF_K/BPF_X)
 * comparing with k: to `jt` when true, to `jf` when false.
 */
int bpf_emit_jump(struct bpf_builder *b, uint16_t code, uint32_t k,
		  bpf_label jt, bpf_label jf);

/* An unconditional jump (BPF_JMP | BPF_JA) to `l`. */
int bpf_emit_ja(struct bpf_builder *b, bpf_label l);

/* Instructions emitted so far, before layout (trampolines not counted). */
size_t bpf_builder_count(const struct bpf_builder *b);

/*
 * Resolve labels and long jumps. On success *prog (caller frees) holds *n
 * instructions and 0 is returned; on failure -1 with a message in err.
 */
int bpf_builder_finish(struct bpf_builder *b, struct sock_filter **prog,
		       size_t *n, char *err, size_t errlen);

#endif
