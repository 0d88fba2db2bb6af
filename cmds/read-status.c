/* SPDX-License-Identifier: MIT */
/* read-status.c: the exit status of the commands that read traces (docs/cli.md, "Exit
 * codes"), one rule for all of them. */
#include "command.h"
#include "spoor/trace.h"

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
