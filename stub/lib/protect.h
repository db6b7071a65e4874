/* SPDX-License-Identifier: MIT */
/* polexec's own process, out of the box's reach (protect.c). */
#ifndef POLC_STUB_PROTECT_H
#define POLC_STUB_PROTECT_H

/* Not dumpable: dies when the kernel refuses. */
void protect_self(void);
/* Again after a child that shared our memory ran; warns if it fails. */
void protect_after_clone(void);

#endif
