// SPDX-License-Identifier: MIT
/*
 * The kernel-feature report that was `polexec --doctor` and is now polc's
 * (tools/doctor_report.c), as a program of its own until the polc command
 * line links it as `polc doctor`; the leak suite checks its probes.
 */
#include "doctor_report.h"

int main(void)
{
	return doctor_report(stdout) == 0 ? 0 : 2;
}
