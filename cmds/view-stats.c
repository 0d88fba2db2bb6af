/* SPDX-License-Identifier: MIT */
/*
 * view-stats.c: spoor view's range statistics (view-stats.h): each analysis in a pass of
 * its own, as its command runs it (one pass for the three would save time, but the
 * analyses' requests of the engine, e.g. sched's tasks from every event, would then change
 * each other's figures), printed by the command's own code (analysis-cli.h: an_report).
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis-cli.h"
#include "spoor/trace.h"
#include "view-stats.h"
#include "view/api.h"

static const struct an_report *const reports[] = {&an_report_sched, &an_report_irq,
                                                  &an_report_syscalls};
const char *const view_stats_names[] = {"sched", "irq", "syscalls"};
const size_t view_stats_count = sizeof(reports) / sizeof(reports[0]);

static void quiet(void *data, const char *message)
{
	/* damage: the view's banner says it; the server must not fill the terminal */
}

/* Whether the pass met one of the kinds the report needs (an_cli_run's test). */
static bool saw_any(const struct an_engine *e, const struct an_report *rep)
{
	for (size_t i = 0; i < rep->nneed; i++)
		if (an_trace_saw(e, rep->need[i]))
			return true;
	return false;
}

static bool has_any(const struct an_engine *e, const struct an_report *rep)
{
	for (size_t i = 0; i < rep->nneed; i++)
		if (an_trace_has(e, rep->need[i]))
			return true;
	return false;
}

int view_stats(void *data, size_t which, const struct an_filter *f, bool (*gone)(void *ctx),
               void *ctx, FILE *out)
{
	const struct view_stats_traces *t = data;
	const struct an_report *rep = reports[which];
	struct spoor_reader *r = NULL;
	struct an_engine *e = NULL;
	void *a = NULL;
	char *err = NULL, text[800];
	int rc = spoor_reader_open(t->paths, t->npaths, &r, &err);
	if (rc) {
		fprintf(out, "spoor %s: %s\n", rep->name, err ? err : spoor_strerror(rc));
		free(err);
		return 0;
	}
	spoor_reader_set_warn(r, quiet, NULL);
	if ((rc = an_engine_new(r, f, &e)))
		goto out;
	if (!has_any(e, rep)) {
		an_none_of_text(e, rep->need, rep->nneed, text, sizeof(text));
		fprintf(out, "spoor %s: %s\n", rep->name, text);
		goto out;
	}
	if (!(a = rep->attach(e))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = view_run_engine(e, gone, ctx)) == -ECANCELED) {
		goto out;
	} else if (rc < 0) {
		fprintf(out, "spoor %s: %s\n", rep->name, spoor_strerror(rc));
		rc = 0;
	} else if (!saw_any(e, rep)) {
		an_none_of_text(e, rep->need, rep->nneed, text, sizeof(text));
		fprintf(out, "spoor %s: %s\n", rep->name, text);
	} else {
		rc = rep->print(a, e, out);
	}
out:
	if (a)
		rep->free(a);
	an_engine_free(e);
	spoor_reader_close(r);
	return rc;
}
