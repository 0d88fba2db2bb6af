/* SPDX-License-Identifier: MIT */
/* cv-int.h: what the files of spoor convert share (kconvert.c: the trace and its classes;
 * cvstream.c: a stream's events written again). */
#ifndef CONVERT_CV_INT_H
#define CONVERT_CV_INT_H

#include <stdbool.h>

#include "ctf/trace.h"
#include "kconvert.h"
#include "kernel/kclass.h"
#include "kernel/kcpu.h"
#include "kernel/kfork.h"
#include "kernel/statedump-lttng.h"

/* The most fields a class may have (more: refused) */
#define CV_MAX_FIELDS 512

/* An output packet's room: each input packet is written as one output packet, which may
 * be larger in the LTTng layout (kcpu.h's packets, the recorder's, are 256 KiB at most) */
#define CV_PACKET_CAP (16u * KCPU_PACKET_CAP)

/* An output field taken from the event context's common_pid (LTTng's block events' tid) */
#define CV_FROM_TID UINT32_MAX

/* An input class and what it becomes. */
struct cv_class {
	struct spoor_field_desc *in; /* its fields (cvfields.h) */
	uint32_t nin;
	struct spoor_enum_entry *entries;
	struct spoor_field_desc *out; /* the LTTng layout's */
	uint32_t nout;
	uint32_t *from; /* per output field: its input field, or CV_FROM_TID */
	int16_t *delta; /* per output field: added to an integer's value */
	uint8_t *rwbs;  /* per output field: the kernel's rwbs text as LTTng's flags (uint32) */
	int8_t *path;   /* per output field: the path (0, 1) written for it as a string, or -1 */
	char *name;     /* the LTTng layout's */
	uint32_t id;    /* its id in the output */
	int dump[4];    /* spoor's statedump_process: its tid, pid, ppid, name fields */
	bool is_dump;
	/* sched_process_fork, written as LTTng's (kfork.h): its parent_comm, parent_pid,
	 * child_comm, child_pid fields; task_newtask: its pid and clone_flags */
	int fork[4];
	bool is_fork, is_newtask;
	/* -k libc (kpaths.h): a libc_* event's function, whose paths wait for the system
	 * call, or a path-taking system call's entry (-1 else); its paths so far */
	int8_t path_fn, path_call, npaths;
};

struct cv {
	struct ctf_trace *in;
	const struct ctf_stream_class *sc;
	struct spoor_field_desc *ctx; /* the event context: integers */
	uint32_t nctx;
	struct spoor_enum_entry *ctx_entries;
	size_t ctx_bytes;
	size_t tid_at; /* where common_pid is in it: out.context[0], tid, when out.ncontext */
	struct cv_class **by_id; /* by input id; NULL: not declared */
	size_t nids;
	struct kclasses out; /* the output's classes, for kpacket and ksynth (out.libc: -k libc) */
	struct sdl_ids dump;
	uint8_t uuid[16];
	char partitions[4100]; /* the input's .partitions ("": none) */
	struct kfork fork;     /* the threads' processes, as the streams say in time order */
	/* the trace's first timestamp_begin and last timestamp_end: every stream spans them */
	uint64_t begin, end;
};

/* Every stream of the input written again in out_dir, under its file's name. The streams
 * are converted together, event by event in time order (a heap of their next events), so
 * that a fork on one CPU finds in c->fork the task_newtask of its parent made on another.
 * 0, or < 0 with err set. */
int cv_streams(struct cv *c, const char *out_dir, struct kconvert_totals *t, char *err,
               size_t errlen);

#endif
