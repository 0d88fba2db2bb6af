/* SPDX-License-Identifier: MIT */
/* losses.c: what the tracers lost, one warning per stream (see losses.h). */
#include <inttypes.h>
#include <stdio.h>

#include "losses.h"
#include "util/lossadvice.h"
#include "util/outbuf.h"

/* A time as dump prints it, as a string (buf: OUTBUF_TIME_MAX + 1 bytes). */
static void time_text(char *buf, int64_t ns)
{
	buf[outbuf_fmt_time(buf, ns)] = '\0';
}

void cmd_warn_stream_losses(const struct command *cmd, const struct spoor_stream_info *si,
                            uint64_t events)
{
	char what[160], when[96] = "", advice[200] = "";
	if (si->overwritten)
		snprintf(what, sizeof(what),
		         "%" PRIu64 " events lost (%" PRIu64 " overwritten, %" PRIu64
		         " discarded) with %" PRIu64 " packets",
		         si->discarded, si->overwritten, si->discarded - si->overwritten,
		         si->packets_lost);
	else if (si->packets_lost)
		snprintf(what, sizeof(what),
		         "%" PRIu64 " events discarded, %" PRIu64 " packets lost", si->discarded,
		         si->packets_lost);
	else
		snprintf(what, sizeof(what), "%" PRIu64 " events discarded", si->discarded);
	if (si->lost_end_ns > si->lost_begin_ns || si->lost_begin_ns) {
		char b[OUTBUF_TIME_MAX + 1], e[OUTBUF_TIME_MAX + 1];
		time_text(b, si->lost_begin_ns);
		time_text(e, si->lost_end_ns);
		snprintf(when, sizeof(when), " between %s and %s", b, e);
	}
	/* Without event counts, the rate: what the stream wrote per second, over the time it
	 * lost nothing when it lost whole packets (a flight recorder: the losses come first,
	 * then what was kept), else over its whole span (losses and kept packets
	 * interleave). */
	int64_t span = si->end_ns - si->begin_ns, window = si->lost_end_ns - si->lost_begin_ns;
	int64_t kept = si->packets_lost && span > window && window > 0 ? span - window : span;
	struct loss_seen l = {.lost = si->discarded, .window_ns = (uint64_t) window};
	if (events)
		l.bytes_per_event = (double) si->bytes / (double) events;
	else if (kept > 0 && window > 0)
		l.bytes_per_s = (double) si->bytes * 1e9 / (double) kept;
	loss_advice_text(advice, sizeof(advice), &l);
	fprintf(stderr, "spoor %s: warning: %s: %s%s%s%s\n", cmd->name, si->path, what, when,
	        advice[0] ? "; " : "", advice);
}

uint64_t cmd_warn_losses(const struct command *cmd, const struct spoor_reader *r,
                         const uint64_t *events_by_stream)
{
	struct spoor_stream_info si;
	uint64_t all = 0;

	for (size_t s = 0; s < spoor_reader_stream_count(r); s++) {
		spoor_reader_stream_info(r, s, &si);
		if (!si.discarded && !si.packets_lost)
			continue;
		all += si.discarded;
		cmd_warn_stream_losses(cmd, &si, events_by_stream ? events_by_stream[s] : 0);
	}
	return all;
}
