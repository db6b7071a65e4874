/* SPDX-License-Identifier: MIT */
/* The IR as policy text (polc dump, the prover's witnesses). */
#ifndef POLC_IR_PRINT_H
#define POLC_IR_PRINT_H

#include "ir.h"

#include <stdio.h>

int ir_print(const struct ir_policy *p, FILE *out);
void ir_print_atom(FILE *out, const char *syscall, const struct ir_atom *a);
void ir_print_net_entry(FILE *out, const struct ir_net_entry *e);

#endif
