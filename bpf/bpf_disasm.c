// SPDX-License-Identifier: MIT
/*
 * Disassembler for seccomp classic-BPF programs; see bpf_disasm.h. Jump
 * targets are printed as absolute instruction numbers so a reader never
 * has to add offsets, and targets outside the program are marked rather
 * than trusted: `polc dump` prints hostile artifacts too.
 */
#include "bpf_disasm.h"

#include <linux/seccomp.h>

static const char *_alu_name(unsigned int op)
{
	switch (op) {
	case BPF_ADD:
		return "add";
	case BPF_SUB:
		return "sub";
	case BPF_MUL:
		return "mul";
	case BPF_DIV:
		return "div";
	case BPF_MOD:
		return "mod";
	case BPF_AND:
		return "and";
	case BPF_OR:
		return "or";
	case BPF_XOR:
		return "xor";
	case BPF_LSH:
		return "lsh";
	case BPF_RSH:
		return "rsh";
	case BPF_NEG:
		return "neg";
	}
	return NULL;
}

static const char *_jmp_name(unsigned int op)
{
	switch (op) {
	case BPF_JEQ:
		return "jeq";
	case BPF_JGT:
		return "jgt";
	case BPF_JGE:
		return "jge";
	case BPF_JSET:
		return "jset";
	}
	return NULL;
}

/* Name of the seccomp_data word at offset k, or NULL. */
static const char *_field(unsigned int k, char *buf, size_t len)
{
	if (k >= sizeof(struct seccomp_data) || (k & 3))
		return NULL;
	if (k == 0)
		return "nr";
	if (k == 4)
		return "arch";
	if (k < 16)
		return k == 8 ? "ip.lo" : "ip.hi";
	snprintf(buf, len, "args[%u].%s", (k - 16) / 8, (k & 4) ? "hi" : "lo");
	return buf;
}

const char *bpf_disasm_ret(unsigned int ret, char *buf, size_t len)
{
	unsigned int data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
		snprintf(buf, len, "KILL_PROCESS");
		break;
	case SECCOMP_RET_KILL_THREAD:
		snprintf(buf, len, "KILL_THREAD");
		break;
	case SECCOMP_RET_TRAP:
		snprintf(buf, len, "TRAP(%u)", data);
		break;
	case SECCOMP_RET_ERRNO:
		snprintf(buf, len, "ERRNO(%u)", data);
		break;
	case SECCOMP_RET_USER_NOTIF:
		snprintf(buf, len, "NOTIFY");
		break;
	case SECCOMP_RET_TRACE:
		snprintf(buf, len, "TRACE(%u)", data);
		break;
	case SECCOMP_RET_LOG:
		snprintf(buf, len, "LOG");
		break;
	case SECCOMP_RET_ALLOW:
		snprintf(buf, len, "ALLOW");
		break;
	default:
		snprintf(buf, len, "0x%08x", ret);
		break;
	}
	return buf;
}

/* Absolute target of a jump offset, marked when outside the program. */
static const char *_target(size_t n, size_t pc, unsigned int off, char *buf,
			   size_t len)
{
	size_t t = pc + 1 + off;

	snprintf(buf, len, t < n ? "%04zu" : "%04zu(out of range)", t);
	return buf;
}

static void _operands(const struct sock_filter *f, size_t n, size_t pc,
		      char *buf, size_t len)
{
	unsigned int cls = BPF_CLASS(f->code), mode = BPF_MODE(f->code);
	const char *reg = cls == BPF_LDX ? "ldx" : "ld";
	char t1[32], t2[32], fb[32];
	const char *name;

	switch (cls) {
	case BPF_LD:
	case BPF_LDX:
		if (mode == BPF_ABS && BPF_SIZE(f->code) == BPF_W) {
			name = _field(f->k, fb, sizeof(fb));
			snprintf(buf, len, "%-4s $data[%u]%*s; %s", reg, f->k,
				 f->k < 10 ? 11 : 10, "",
				 name ? name : "outside seccomp_data");
		} else if (mode == BPF_LEN) {
			snprintf(buf, len, "%-4s #len", reg);
		} else if (mode == BPF_IMM) {
			snprintf(buf, len, "%-4s #0x%x", reg, f->k);
		} else if (mode == BPF_MEM) {
			snprintf(buf, len, "%-4s M[%u]", reg, f->k);
		} else {
			snprintf(buf, len, "??? (load mode 0x%02x)", mode);
		}
		return;
	case BPF_ST:
	case BPF_STX:
		snprintf(buf, len, "%-4s M[%u]", cls == BPF_ST ? "st" : "stx",
			 f->k);
		return;
	case BPF_ALU:
		name = _alu_name(BPF_OP(f->code));
		if (!name)
			snprintf(buf, len, "???");
		else if (BPF_OP(f->code) == BPF_NEG)
			snprintf(buf, len, "neg");
		else if (BPF_SRC(f->code) == BPF_X)
			snprintf(buf, len, "%-4s x", name);
		else
			snprintf(buf, len, "%-4s #0x%x", name, f->k);
		return;
	case BPF_JMP:
		if (BPF_OP(f->code) == BPF_JA) {
			snprintf(buf, len, "ja   %s",
				 _target(n, pc, f->k, t1, sizeof(t1)));
			return;
		}
		name = _jmp_name(BPF_OP(f->code));
		if (!name) {
			snprintf(buf, len, "???");
			return;
		}
		_target(n, pc, f->jt, t1, sizeof(t1));
		_target(n, pc, f->jf, t2, sizeof(t2));
		if (BPF_SRC(f->code) == BPF_X)
			snprintf(buf, len, "%-4s x true:%s false:%s", name, t1,
				 t2);
		else
			snprintf(buf, len, "%-4s 0x%x true:%s false:%s", name,
				 f->k, t1, t2);
		return;
	case BPF_RET:
		if (BPF_RVAL(f->code) == BPF_A)
			snprintf(buf, len, "ret  a");
		else
			snprintf(buf, len, "ret  %s",
				 bpf_disasm_ret(f->k, fb, sizeof(fb)));
		return;
	default: /* BPF_MISC */
		if (BPF_MISCOP(f->code) == BPF_TAX)
			snprintf(buf, len, "tax");
		else
			snprintf(buf, len, "txa");
		return;
	}
}

const char *bpf_disasm_insn(const struct sock_filter *prog, size_t n, size_t pc,
			    char *buf, size_t len)
{
	const struct sock_filter *f = &prog[pc];
	char ops[96];

	_operands(f, n, pc, ops, sizeof(ops));
	snprintf(buf, len, "%04zu: 0x%02x 0x%02x 0x%02x 0x%08x   %s", pc,
		 f->code, f->jt, f->jf, f->k, ops);
	return buf;
}

int bpf_disasm(const struct sock_filter *prog, size_t n, FILE *out)
{
	char line[160];

	if (fprintf(out, " line  OP   JT   JF   K\n"
			 "=================================\n") < 0)
		return -1;
	for (size_t pc = 0; pc < n; pc++)
		if (fprintf(out, "%s\n",
			    bpf_disasm_insn(prog, n, pc, line, sizeof(line))) <
		    0)
			return -1;
	return 0;
}
