// SPDX-License-Identifier: MIT
/*
 * Concrete classic-BPF interpreter for seccomp filters. The accepted
 * instruction set and the checks are the kernel's (net/core/filter.c
 * bpf_check_classic, kernel/seccomp.c seccomp_check_filter), so a program
 * this file accepts is one the kernel would load, and its result here is
 * the kernel's.
 */
#include "bpf_interp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void _fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void _fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The opcodes seccomp accepts; everything else is refused at load. */
static int _opcode_ok(uint16_t code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K:
	case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K:
	case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return 1;
	}
	return 0;
}

static int _is_cond(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

/* Per-instruction checks that need no data flow; shared by check and run. */
static int _insn_ok(const struct sock_filter *prog, size_t n, size_t pc,
		    char *err, size_t errlen)
{
	const struct sock_filter *f = &prog[pc];
	size_t left = n - pc - 1; /* instructions after this one */

	if (!_opcode_ok(f->code)) {
		_fail(err, errlen, "insn %zu: opcode 0x%02x not allowed", pc,
		      f->code);
		return -1;
	}
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		if (f->k >= sizeof(struct seccomp_data) || (f->k & 3)) {
			_fail(err, errlen,
			      "insn %zu: load at %u outside seccomp_data", pc,
			      f->k);
			return -1;
		}
		break;
	case BPF_ALU | BPF_DIV | BPF_K:
		if (f->k == 0) {
			_fail(err, errlen, "insn %zu: division by zero", pc);
			return -1;
		}
		break;
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_K:
		if (f->k >= 32) {
			_fail(err, errlen, "insn %zu: shift by %u", pc, f->k);
			return -1;
		}
		break;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		if (f->k >= BPF_MEMWORDS) {
			_fail(err, errlen, "insn %zu: scratch word %u", pc,
			      f->k);
			return -1;
		}
		break;
	case BPF_JMP | BPF_JA:
		if (f->k >= left) {
			_fail(err, errlen, "insn %zu: jump out of range", pc);
			return -1;
		}
		break;
	}
	if (_is_cond(f->code) && (f->jt >= left || f->jf >= left)) {
		_fail(err, errlen, "insn %zu: jump out of range", pc);
		return -1;
	}
	return 0;
}

/* The kernel's check_load_and_stores: no scratch word read before write. */
static int _check_mem(const struct sock_filter *prog, size_t n, char *err,
		      size_t errlen)
{
	uint16_t masks[BPF_INTERP_MAX_INSNS];
	uint16_t valid = 0;

	memset(masks, 0xff, n * sizeof(masks[0]));
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];

		valid &= masks[pc];
		if (f->code == BPF_ST || f->code == BPF_STX) {
			valid |= (uint16_t)(1u << f->k);
		} else if (f->code == (BPF_LD | BPF_MEM) ||
			   f->code == (BPF_LDX | BPF_MEM)) {
			if (!(valid & (1u << f->k))) {
				_fail(err, errlen,
				      "insn %zu: scratch word %u read before "
				      "it is written",
				      pc, f->k);
				return -1;
			}
		} else if (f->code == (BPF_JMP | BPF_JA)) {
			masks[pc + 1 + f->k] &= valid;
			valid = 0xffff;
		} else if (_is_cond(f->code)) {
			masks[pc + 1 + f->jt] &= valid;
			masks[pc + 1 + f->jf] &= valid;
			valid = 0xffff;
		}
	}
	return 0;
}

int bpf_check(const struct sock_filter *prog, size_t n, char *err,
	      size_t errlen)
{
	if (n == 0 || n > BPF_INTERP_MAX_INSNS) {
		_fail(err, errlen, "program length %zu not in 1..%d", n,
		      BPF_INTERP_MAX_INSNS);
		return -1;
	}
	for (size_t pc = 0; pc < n; pc++)
		if (_insn_ok(prog, n, pc, err, errlen))
			return -1;
	if (BPF_CLASS(prog[n - 1].code) != BPF_RET) {
		_fail(err, errlen, "last instruction is not a return");
		return -1;
	}
	return _check_mem(prog, n, err, errlen);
}

static int _alu(uint16_t code, uint32_t *a, uint32_t operand)
{
	switch (BPF_OP(code)) {
	case BPF_ADD:
		*a += operand;
		break;
	case BPF_SUB:
		*a -= operand;
		break;
	case BPF_MUL:
		*a *= operand;
		break;
	case BPF_DIV:
		/* Checked by the caller: a zero divisor ends the filter. */
		*a /= operand;
		break;
	case BPF_AND:
		*a &= operand;
		break;
	case BPF_OR:
		*a |= operand;
		break;
	case BPF_XOR:
		*a ^= operand;
		break;
	case BPF_LSH:
		if (operand >= 32)
			return -1;
		*a <<= operand;
		break;
	case BPF_RSH:
		if (operand >= 32)
			return -1;
		*a >>= operand;
		break;
	case BPF_NEG:
		*a = -*a;
		break;
	default:
		return -1;
	}
	return 0;
}

static int _cond(uint16_t code, uint32_t a, uint32_t operand)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ:
		return a == operand;
	case BPF_JGT:
		return a > operand;
	case BPF_JGE:
		return a >= operand;
	default: /* BPF_JSET */
		return (a & operand) != 0;
	}
}

int bpf_run(const struct sock_filter *prog, size_t n,
	    const struct seccomp_data *d, struct bpf_run_result *res, char *err,
	    size_t errlen)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = {0};
	uint16_t memvalid = 0;
	unsigned char raw[sizeof(*d)];

	memcpy(raw, d, sizeof(raw));
	memset(res, 0, sizeof(*res));
	if (n == 0 || n > BPF_INTERP_MAX_INSNS) {
		_fail(err, errlen, "program length %zu not in 1..%d", n,
		      BPF_INTERP_MAX_INSNS);
		return -1;
	}
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;

		if (_insn_ok(prog, n, pc, err, errlen))
			return -1;
		res->executed++;
		switch (BPF_CLASS(f->code)) {
		case BPF_RET:
			res->ret = BPF_RVAL(f->code) == BPF_A ? a : f->k;
			return 0;
		case BPF_LD:
		case BPF_LDX: {
			uint32_t v;

			if (BPF_MODE(f->code) == BPF_ABS) {
				memcpy(&v, raw + f->k, sizeof(v));
				res->loaded |= (uint16_t)(1u << (f->k / 4));
			} else if (BPF_MODE(f->code) == BPF_LEN) {
				v = sizeof(*d);
			} else if (BPF_MODE(f->code) == BPF_IMM) {
				v = f->k;
			} else { /* BPF_MEM */
				if (!(memvalid & (1u << f->k))) {
					_fail(err, errlen,
					      "insn %zu: scratch word %u "
					      "read before it is written",
					      pc, f->k);
					return -1;
				}
				v = mem[f->k];
			}
			if (BPF_CLASS(f->code) == BPF_LD)
				a = v;
			else
				x = v;
			break;
		}
		case BPF_ST:
		case BPF_STX:
			mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			memvalid |= (uint16_t)(1u << f->k);
			break;
		case BPF_ALU:
			if (BPF_OP(f->code) == BPF_DIV && src == 0) {
				/* The kernel ends the filter with 0. */
				res->ret = 0;
				return 0;
			}
			if (_alu(f->code, &a, src)) {
				_fail(err, errlen, "insn %zu: shift by %u", pc,
				      src);
				return -1;
			}
			break;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA)
				pc += f->k;
			else
				pc += _cond(f->code, a, src) ? f->jt : f->jf;
			break;
		}
	}
	_fail(err, errlen, "ran past the end without a return");
	return -1;
}
