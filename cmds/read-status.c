/* SPDX-License-Identifier: MIT */
/* read-status.c: the commands that read traces: opening them, and their exit status
 * (docs/cli.md, "Exit codes"), one rule for all of them. */
#include <stdlib.h>

#include "command.h"
#include "spoor/trace.h"

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
