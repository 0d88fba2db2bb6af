/* SPDX-License-Identifier: MIT */
/* losses.h: the warnings of the commands that read traces about what the tracers lost. */
#ifndef CMDS_LOSSES_H
#define CMDS_LOSSES_H

#include "command.h"
#include "spoor/trace.h"

/* One warning (stderr) per stream that lost events or packets so far: how many, when, and
 * the buffer that would have kept them, from the events read of each stream
 * (events_by_stream, by stream index) when given, else from the bytes it wrote per second.
 * Losses are not damage: the exit status is not changed. Returns the events lost in all. */
uint64_t cmd_warn_losses(const struct command *cmd, const struct spoor_reader *r,
                         const uint64_t *events_by_stream);
/* The warning of one stream, from its info (events: those read of it, or 0). */
void cmd_warn_stream_losses(const struct command *cmd, const struct spoor_stream_info *si,
                            uint64_t events);

#endif
