/* SPDX-License-Identifier: MIT */
/*
 * kconvert.h: `spoor convert --layout=lttng`: a kernel trace spoor recorded (env
 * tracer_name "spoor", domain "kernel") rewritten as `spoor record -k --layout=lttng`
 * would have written it (docs/kernel.md): lttng-modules 2.13's event and field names
 * (lib/vocab/lttng-kernel.h), its values where they differ (priorities), its env, and the
 * state dump's statedump_process events as lttng_statedump_* events. Every event is
 * written again with its timestamp, each input packet as one packet (its bounds, its
 * losses, its place in the sequence: a loss stays between the same events and times).
 */
#ifndef CONVERT_KCONVERT_H
#define CONVERT_KCONVERT_H

#include <stddef.h>
#include <stdint.h>

struct kconvert_totals {
	uint64_t streams, events; /* written */
	uint64_t threads;         /* the state dumps' process_state events */
	uint64_t discarded;       /* events the tracer lost, as the streams count them */
};

/* IN: a kernel trace directory, or a recording's directory holding one in kernel/ (then
 * OUT gets it in OUT/kernel). OUT must not exist or be an empty directory. 0, or -errno /
 * -SPOOR_E* with err set; a failed conversion leaves OUT as it was. */
int kconvert_lttng(const char *in, const char *out, struct kconvert_totals *t, char *err,
                   size_t errlen);

#endif
