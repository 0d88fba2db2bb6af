/* SPDX-License-Identifier: MIT */
/*
 * partitions.h: the machine's block devices as /proc/partitions lists them when recording
 * starts, kept in the kernel trace directory as `.partitions`, so that `spoor disk` names
 * the devices of the block events (their dev is only major:minor) after the fact and on
 * another machine. The dot matters: spoor's reader and babeltrace2 take every other
 * regular file beside `metadata` for a stream and would reject this one as damaged.
 */
#ifndef KERNEL_PARTITIONS_H
#define KERNEL_PARTITIONS_H

#define PARTITIONS_FILE ".partitions"

/* Copy /proc/partitions to DIR/.partitions. 0, or -errno (nothing is left half-written). */
int partitions_write(const char *kernel_trace_dir);

#endif
