/* SPDX-License-Identifier: MIT */
/* vt-disk.c: the disk_requests table: each completed block request with a latency that
 * `spoor disk` counts (docs/sql.md). */
#include "analysis/disk.h"
#include "vt-analyses.h"

enum {
	C_DEV,
	C_DISK,
	C_SECTOR,
	C_BYTES,
	C_OP,
	C_TID,
	C_PID,
	C_COMM,
	C_TS,
	C_DUR,
	C_INSERT_TS,
	C_COUNT
};

static const struct vt_col cols[] = {
    [C_DEV] = {"dev", VT_INT},
    [C_DISK] = {"disk", VT_TEXT},
    [C_SECTOR] = {"sector", VT_INT},
    [C_BYTES] = {"bytes", VT_INT},
    [C_OP] = {"op", VT_TEXT},
    [C_TID] = {"tid", VT_INT},
    [C_PID] = {"pid", VT_INT},
    [C_COMM] = {"comm", VT_TEXT},
    [C_TS] = {"ts", VT_INT},
    [C_DUR] = {"dur", VT_INT},
    [C_INSERT_TS] = {"insert_ts", VT_INT},
};

static void on_request(void *data, const struct disk_request *q)
{
	static const char *const ops[] = {
	    [DISK_READ] = "read", [DISK_WRITE] = "write", [DISK_OTHER] = "other"};
	struct vt_cursor *c = data;
	struct vt_row *r = vt_row_new(c);
	vt_row_int(r, C_DEV, q->dev);
	vt_row_text(r, C_DISK, q->disk);
	vt_row_int(r, C_SECTOR, (int64_t) q->sector);
	vt_row_int(r, C_BYTES, (int64_t) q->bytes);
	vt_row_text(r, C_OP, ops[q->op]);
	vt_row_task(c, r, C_TID, C_PID, C_COMM, q->tid);
	vt_row_int(r, C_TS, q->ts);
	vt_row_int(r, C_DUR, q->dur);
	if (q->insert_ts >= 0)
		vt_row_int(r, C_INSERT_TS, q->insert_ts);
	vt_row_push(c);
}

static int start(struct vt_cursor *c, void **src)
{
	struct disk_analysis *a = disk_analysis_new(vt_engine(c));
	if (!a)
		return -ENOMEM;
	disk_analysis_on_request(a, on_request, c);
	*src = a;
	return 0;
}

static int64_t open_since(void *src)
{
	return disk_analysis_open_since(src);
}

static void free_src(void *src)
{
	disk_analysis_free(src);
}

const struct vt_table vt_disk_requests = {
    .name = "disk_requests",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = C_TS,
    .tid_col = C_TID,
    .cpu_col = -1,
    .start = start,
    .open_since = open_since,
    .free = free_src,
};
