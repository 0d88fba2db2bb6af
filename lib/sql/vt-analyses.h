/* SPDX-License-Identifier: MIT */
/* vt-analyses.h: the models' and analyses' tables, one file each (docs/sql.md). */
#ifndef SQL_VT_ANALYSES_H
#define SQL_VT_ANALYSES_H

#include <errno.h>

#include "vt-engine.h"

extern const struct vt_table vt_syscalls;      /* vt-syscalls.c */
extern const struct vt_table vt_irqs;          /* vt-irqs.c */
extern const struct vt_table vt_disk_requests; /* vt-disk.c */
extern const struct vt_table vt_sched_slices;  /* vt-sched.c */
extern const struct vt_table vt_thread_states; /* vt-states.c */
extern const struct vt_table vt_threads;       /* vt-threads.c */

#endif
