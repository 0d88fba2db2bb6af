/* SPDX-License-Identifier: MIT */
/* read-status.c: the commands that read traces: opening them, and their exit status
 * (docs/cli.md, "Exit codes"), one rule for all of them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "spoor/trace.h"
#include "util/outbuf.h"

int cmd_open_traces(const struct command *cmd, char *const *paths, size_t n, int64_t begin,
                    int64_t end, struct spoor_reader **r)
{
	char *err = NULL;
	int rc = spoor_reader_open((const char *const *) paths, n, r, &err);
	if (rc) {
		cmd_error(cmd, "%s", err ? err : spoor_strerror(rc));
		free(err);
		return 1;
	}
	if (begin != INT64_MIN || end != INT64_MAX)
		spoor_reader_set_range(*r, begin, end);
	return 0;
}

int cmd_damage_status(const struct command *cmd, unsigned damaged, int rc, const char *covered)
{
	if (rc || !damaged)
		return rc;
	return cmd_error(cmd,
	                 "the trace is damaged: %u stream(s) stopped early (see the warnings "
	                 "above); %s",
	                 damaged, covered);
}

int cmd_read_status(const struct command *cmd, const struct spoor_reader *r, int rc,
                    const char *covered)
{
	return cmd_damage_status(cmd, r ? spoor_reader_damaged(r) : 0, rc, covered);
}

/* t as seconds.fraction, as --begin takes it and dump prints it (buf: OUTBUF_TIME_MAX + 1). */
static const char *seconds(int64_t t, char *buf)
{
	buf[outbuf_fmt_time(buf, t)] = '\0';
	return buf;
}

static void quiet(void *data, const char *message)
{
	(void) data;
	(void) message; /* the run said its damage already */
}

/* The times the trace's packets cover: every packet stepped over by its context alone (a
 * range past all time), none decoded. false without a clock. */
static bool trace_span(char *const *paths, size_t n, int64_t *first, int64_t *last)
{
	struct spoor_reader *r;
	const struct spoor_event *ev;
	bool any = false;

	if (spoor_reader_open((const char *const *) paths, n, &r, NULL))
		return false;
	spoor_reader_set_warn(r, quiet, NULL);
	spoor_reader_set_range(r, INT64_MAX, INT64_MAX);
	while (spoor_reader_next(r, &ev) > 0)
		;
	for (size_t i = 0; i < spoor_reader_stream_count(r); i++) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, i, &si);
		if (!si.packets || (!si.begin_ns && !si.end_ns))
			continue;
		if (!any || si.begin_ns < *first)
			*first = si.begin_ns;
		if (!any || si.end_ns > *last)
			*last = si.end_ns;
		any = true;
	}
	spoor_reader_close(r);
	return any;
}

void cmd_note_range(const struct command *cmd, char *const *paths, size_t n, int64_t begin,
                    int64_t end)
{
	struct spoor_reader *r;
	const struct spoor_event *ev;
	char b[OUTBUF_TIME_MAX + 1], e[OUTBUF_TIME_MAX + 1], f[OUTBUF_TIME_MAX + 1],
	    l[OUTBUF_TIME_MAX + 1];
	int64_t first = 0, last = 0;

	if (begin == INT64_MIN && end == INT64_MAX)
		return;
	/* a reader of its own, once, after the run: nothing counted per event in the run */
	if (spoor_reader_open((const char *const *) paths, n, &r, NULL))
		return;
	spoor_reader_set_warn(r, quiet, NULL);
	spoor_reader_set_range(r, begin, end);
	int rc = spoor_reader_next(r, &ev);
	spoor_reader_close(r);
	if (rc) /* an event in the range (or an error the run said) */
		return;
	char range[80];
	if (begin == INT64_MIN)
		snprintf(range, sizeof(range), "at or before %s", seconds(end, e));
	else if (end == INT64_MAX)
		snprintf(range, sizeof(range), "at or after %s", seconds(begin, b));
	else
		snprintf(range, sizeof(range), "in [%s, %s]", seconds(begin, b), seconds(end, e));
	if (!trace_span(paths, n, &first, &last)) {
		cmd_error(cmd, "note: no event %s", range);
		return;
	}
	cmd_error(cmd,
	          "note: no event %s; the trace spans %s .. %s (in ns: %" PRId64 " .. %" PRId64 ")",
	          range, seconds(first, f), seconds(last, l), first, last);
}
