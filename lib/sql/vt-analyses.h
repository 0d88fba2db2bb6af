/* SPDX-License-Identifier: MIT */
/* vt-analyses.h: the models' and analyses' tables, one file each (docs/sql.md). */
#ifndef SQL_VT_ANALYSES_H
#define SQL_VT_ANALYSES_H

#include <errno.h>

#include "vt-engine.h"

extern const struct vt_table vt_syscalls; /* vt-syscalls.c */

#endif
