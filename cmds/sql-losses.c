/* SPDX-License-Identifier: MIT */
/* sql-losses.c: `spoor sql` warns, as the other commands that read traces do, once per
 * stream that lost events: each query's readers say what they read of each stream as they
 * close; the warning, at the end, gives the most any of them saw. */
#include <stdlib.h>
#include <string.h>

#include "losses.h"
#include "sql-cli.h"

static uint64_t lost(const struct spoor_stream_info *si)
{
	return si->discarded + si->packets_lost;
}

void sql_losses_seen(void *data, const struct spoor_reader *r)
{
	struct sql_losses *l = data;
	size_t n = spoor_reader_stream_count(r);

	if (n > l->n) {
		struct spoor_stream_info *w = realloc(l->worst, n * sizeof(*w));
		if (!w)
			return; /* a warning less, not a failed query */
		memset(w + l->n, 0, (n - l->n) * sizeof(*w));
		l->worst = w;
		l->n = n;
	}
	for (size_t s = 0; s < n; s++) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, s, &si);
		if (lost(&si) <= lost(&l->worst[s]))
			continue;
		char *path = strdup(si.path); /* the reader's own string goes with it */
		if (!path)
			continue;
		free((char *) l->worst[s].path);
		si.path = path;
		l->worst[s] = si;
	}
}

void sql_losses_warn(const struct command *cmd, struct sql_losses *l)
{
	for (size_t s = 0; s < l->n; s++) {
		if (cmd && lost(&l->worst[s]))
			cmd_warn_stream_losses(cmd, &l->worst[s], 0);
		free((char *) l->worst[s].path);
	}
	free(l->worst);
	*l = (struct sql_losses){0};
}
