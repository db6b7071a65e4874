/* SPDX-License-Identifier: MIT */
/* The mount API's system call numbers (Linux 5.2 to 5.12), where libc's
 * headers lack them: the view (view.c) and its trial (trial.c). */
#ifndef POLC_STUB_MOUNTAPI_H
#define POLC_STUB_MOUNTAPI_H

#include <sys/syscall.h>

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

#endif
