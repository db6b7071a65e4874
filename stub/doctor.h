/* SPDX-License-Identifier: MIT */
/* polexec --doctor [ARTIFACT] (doctor.c). */
#ifndef POLC_STUB_DOCTOR_H
#define POLC_STUB_DOCTOR_H

/* Prints the probes; with an artifact, checks what it needs: the exit
 * code, 0 or 1 (125 when the artifact is defective). */
int doctor(const char *artifact);

#endif
