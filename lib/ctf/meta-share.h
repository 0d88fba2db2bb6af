/* SPDX-License-Identifier: MIT */
/*
 * meta-share.h: traces whose metadata text is the same but for the values that may differ
 * between them (ctf_var: the trace's UUID, the clocks' offsets and UUIDs, the environment),
 * as copies of one trace, a rotated session's chunks or LTTng's per-UID and per-PID
 * traces, share one parsed model: its types, its metadata text and the plans its event
 * classes compile to once.
 */
#ifndef CTF_META_SHARE_H
#define CTF_META_SHARE_H

#include <stddef.h>

#include "types.h"

/* m (zeroed) for a trace whose metadata is text, when text is like's (a model of
 * tsdl_parse_lazy, or one shared) but for like's vars: m gets, in its own arena, its own
 * values, clocks, env, stream classes and event classes, the classes copies whose scopes
 * and plans are the model's (ctf_event_class.shared); its types, text and names are
 * like's, whose arena must outlive m. 0 when shared, 1 when the text is not like's (m left
 * zeroed), -ENOMEM. */
int ctf_meta_share(struct ctf_meta *m, const struct ctf_meta *like, const char *text, size_t len);

#endif
