/* SPDX-License-Identifier: MIT */
/*
 * `polc doctor`: the kernel features this machine offers polexec, one
 * probe per line (doctor_report.c). It needs no artifact, no privilege and
 * no box, so it lives in polc; `polexec --doctor ARTIFACT` keeps the
 * checks polexec itself refuses by.
 */
#ifndef POLC_TOOLS_DOCTOR_REPORT_H
#define POLC_TOOLS_DOCTOR_REPORT_H

#include <stdio.h>

/* Prints the report to out; 0, or -1 when writing failed. */
int doctor_report(FILE *out);

#endif
