/* SPDX-License-Identifier: MIT */
/*
 * watch-live.h: a Lua script's handlers on a trace being written, for spoor watch: on its
 * own recording of a command (cmd-watch.c), or on a session of the session daemon
 * (watch-session.c, --session). The same reader, engine and script either way, fed by
 * watch_pump up to a watermark: the moment of the last flush, less --late.
 */
#ifndef CMDS_WATCH_LIVE_H
#define CMDS_WATCH_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/engine.h"
#include "command.h"
#include "reader/reader.h"
#include "script/script.h"

struct watch {
	int64_t until;      /* the watermark of the last flush */
	int64_t late;       /* --late, ns */
	int64_t read_until; /* the one the reader has */
	struct spoor_reader *r;
	struct an_engine *e;
	struct script *s;
	bool failed; /* a handler failed: reported, the recording goes on */
	int rc;      /* a reader or engine error */
	char err[1200];
};

/* Hand the script what has been written, up to `until`, for at most a slice of time (all:
 * to the end). RECORD_LIVE_STOP (record.h): the script called spoor.stop();
 * RECORD_LIVE_MORE: events are waiting; 0: it has them all. */
int watch_pump(struct watch *w, int64_t until, bool all);

/* The end of a watch: the script's finish(), and the warning about late events. Whether a
 * handler failed, now or before. */
bool watch_finish(struct watch *w);

/* spoor.snapshot(NAME) in s: asks the session daemon at socket (NULL: spoor session's
 * choice) to snapshot session NAME. 0, or cmd's error status. */
int watch_allow_snapshots(const struct command *cmd, struct script *s, const char *socket);

/* spoor watch --session NAME: the daemon's session NAME (at watch_allow_snapshots' socket),
 * live, every period, until it stops, the script stops it, or Ctrl-C detaches and leaves
 * it running. w->s is open; w->r and w->e are made here. The exit status. */
int watch_session(const struct command *cmd, struct watch *w, const char *name, uint64_t period);

#endif
