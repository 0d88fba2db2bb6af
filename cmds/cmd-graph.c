/* SPDX-License-Identifier: MIT */
/*
 * cmd-graph.c: `spoor graph TRACE...`: the function calls of a trace (entries and exits,
 * lttng_ust_cyg_profile's and spoor record --calls's) in ftrace's function_graph layout,
 * or, with --profile, ftrace's function profile. Two passes: the first counts, per thread,
 * the calls already open when the trace (or --begin) starts, so that the second prints
 * everything at its true depth.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/callprofile.h"
#include "analysis/calls.h"
#include "analysis/loadmap.h"
#include "command.h"
#include "ctf/stream.h"
#include "format/graph.h"
#include "graph-profile.h"
#include "losses.h"
#include "model/tasks.h"
#include "reader/reader.h"

enum {
	OPT_TID,
	OPT_BEGIN,
	OPT_END,
	OPT_DEPTH,
	OPT_CPU,
	OPT_PROFILE,
	OPT_SORT,
	OPT_JSON,
	OPT_SYMBOLS,
	OPT_DEBUG_DIR,
	OPT_HELP
};

static const struct cmd_option graph_options[] = {
    [OPT_TID] = {"tid", 't', "TID", "only the calls and events of thread TID"},
    [OPT_BEGIN] = {"begin", 0, "TIME",
                   "start at TIME (ns, or seconds.fraction, since the epoch); calls open "
                   "then end with `} /* name */`"},
    [OPT_END] = {"end", 0, "TIME", "stop after TIME"},
    [OPT_DEPTH] = {"depth", 'D', "N", "show calls up to N deep (1: the outermost only)"},
    [OPT_CPU] = {"cpu", 0, NULL, "add ftrace's CPU column"},
    [OPT_PROFILE] = {"profile", 'p', NULL,
                     "ftrace's function profile instead: per function hits, total, "
                     "average, s^2 and self time"},
    [OPT_SORT] = {"sort", 's', "KEY",
                  "the profile's order: total (default), hits, avg, self "
                  "or name"},
    [OPT_JSON] = {"json", 'j', NULL, "the profile as JSON"},
    [OPT_SYMBOLS] = {"symbols", 0, "FILE",
                     "nm's output of the program, for traces without a load map (absolute "
                     "addresses)"},
    [OPT_DEBUG_DIR] = {"debug-dir", 0, "DIR",
                       "where separate debug files are (DIR/.build-id/xx/rest.debug; "
                       "default /usr/lib/debug)"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

struct graph_args {
	int64_t tid;
	bool has_tid, has_begin, has_end, cpu, profile, json;
	int64_t begin, end;
	uint32_t depth;
	enum callprofile_sort sort;
	const char *symbols, *debug_dir;
};

static int parse_args(const struct command *cmd, int argc, char **argv, struct graph_args *a,
                      int *first)
{
	static const char *const sorts[] = {[CP_TOTAL] = "total",
	                                    [CP_HITS] = "hits",
	                                    [CP_AVG] = "avg",
	                                    [CP_SELF] = "self",
	                                    [CP_NAME] = "name"};
	const char *arg;
	char *end;
	int row;

	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, first)) != -1) {
		switch (row) {
		case OPT_TID:
			a->tid = strtoll(arg, &end, 10);
			if (*end || end == arg || a->tid < 0)
				return cmd_usage_error(cmd, "invalid thread id '%s'", arg);
			a->has_tid = true;
			break;
		case OPT_BEGIN:
		case OPT_END:
			if (cmd_parse_time(arg, row == OPT_BEGIN ? &a->begin : &a->end))
				return cmd_usage_error(cmd, "invalid time '%s'", arg);
			*(row == OPT_BEGIN ? &a->has_begin : &a->has_end) = true;
			break;
		case OPT_DEPTH: {
			long long d = strtoll(arg, &end, 10);
			if (*end || end == arg || d < 1 || d > CALLS_MAX_DEPTH)
				return cmd_usage_error(cmd, "invalid depth '%s' (1 to %d)", arg,
				                       CALLS_MAX_DEPTH);
			a->depth = (uint32_t) d;
			break;
		}
		case OPT_CPU: a->cpu = true; break;
		case OPT_PROFILE: a->profile = true; break;
		case OPT_SORT: {
			size_t i = 0;
			while (i < sizeof(sorts) / sizeof(sorts[0]) && strcmp(sorts[i], arg))
				i++;
			if (i == sizeof(sorts) / sizeof(sorts[0]))
				return cmd_usage_error(
				    cmd, "unknown sort key '%s' (total, hits, avg, self or name)",
				    arg);
			a->sort = (enum callprofile_sort) i;
			break;
		}
		case OPT_JSON: a->json = true; break;
		case OPT_SYMBOLS: a->symbols = arg; break;
		case OPT_DEBUG_DIR: a->debug_dir = arg; break;
		case OPT_HELP: cmd_help(cmd, stdout); exit(0);
		default: return 2;
		}
	}
	if (*first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	if (a->has_begin && a->has_end && a->end < a->begin)
		return cmd_usage_error(cmd, "--end is before --begin");
	if ((a->json || a->sort != CP_TOTAL) && !a->profile)
		return cmd_usage_error(cmd, "--json and --sort are the profile's (--profile)");
	return 0;
}

static int open_reader(const struct command *cmd, const struct graph_args *a, char **paths,
                       size_t n, struct spoor_reader **r)
{
	return cmd_open_traces(cmd, paths, n, a->has_begin ? a->begin : INT64_MIN,
	                       a->has_end ? a->end : INT64_MAX, r);
}

/* The event's thread (kept for a packet's events when the packet context holds it). */
struct tid_memo {
	const void *stream;
	uint64_t packet;
	int64_t tid;
};

/* The event's thread, when it is one --tid keeps (per_packet: tasks_tid_per_packet). */
static bool thread_of(struct tasks *t, struct tid_memo *m, const struct graph_args *a,
                      const struct spoor_event *ev, bool per_packet, int64_t *tid)
{
	if (per_packet && m->stream == ev->s && m->packet == ev->s->packets) {
		*tid = m->tid;
	} else {
		if (!tasks_tid(t, ev, tid))
			*tid = -1;
		if (per_packet)
			*m = (struct tid_memo){ev->s, ev->s->packets, *tid};
	}
	return !a->has_tid || *tid == a->tid;
}

/* The first pass: the calls open at the start, per thread, into c; and the load map as it
 * stood at --begin, into lm (its events before it: a state dump comes at the start). Only
 * the calls' and the load map's classes are read. */
static int prepass(const struct command *cmd, const struct graph_args *a, char **paths, size_t n,
                   struct calls *c, struct loadmap *lm)
{
	struct spoor_reader *r;
	struct graph_args whole = *a;
	whole.has_begin = false;
	int rc = open_reader(cmd, &whole, paths, n, &r);
	if (rc)
		return rc;
	spoor_reader_set_warn(r, NULL, NULL);
	struct calls *pre = calls_new(r, NULL, NULL);
	struct tasks *t = tasks_new(r, false);
	size_t nc = spoor_reader_event_class_count(r);
	bool *pass = calloc(nc + 1, 1);
	rc = -ENOMEM;
	if (!pre || !t || !pass)
		goto out;
	for (size_t i = 0; i < nc; i++)
		pass[i] = !calls_reads(pre, i) && !loadmap_reads(lm, i);
	reader_pass_over(r, pass, nc, INT64_MIN, a->has_end ? a->end : INT64_MAX);
	const struct spoor_event *ev;
	struct tid_memo memo = {0};
	int64_t tid;
	while ((rc = spoor_reader_next(r, &ev)) > 0) {
		size_t ci = reader_event_class_index(ev);
		bool before = a->has_begin && spoor_event_timestamp(ev) < a->begin;
		if (before && loadmap_reads(lm, ci) && (rc = loadmap_update(lm, ev)) < 0)
			break;
		if (!before && calls_reads(pre, ci) &&
		    thread_of(t, &memo, a, ev, tasks_tid_per_packet(t, ci), &tid) &&
		    (rc = calls_event(pre, ev, tid, loadmap_process(lm, ev))) < 0)
			break;
	}
	if (rc >= 0)
		rc = calls_seed(c, pre);
out:
	free(pass);
	tasks_free(t);
	calls_free(pre);
	spoor_reader_close(r);
	return rc;
}

static void warn_line(void *data, const char *msg)
{
	fprintf(stderr, "spoor %s: warning: %s\n", ((const struct command *) data)->name, msg);
}

static const char *name_of(void *lm, uint64_t proc, uint64_t addr, int64_t ts)
{
	return loadmap_name(lm, proc, addr, ts);
}

/* What the second pass does with a class's events, decided at its first; R_PER_PACKET
 * added: its thread is the packet context's. */
enum role { R_UNKNOWN, R_LOADMAP, R_CALL, R_CALL_OWN_TID, R_OTHER, R_PER_PACKET = 8 };

static uint8_t role_of(struct tasks *tk, struct loadmap *lm, struct calls *c, size_t ci)
{
	uint8_t packet = tasks_tid_per_packet(tk, ci) ? R_PER_PACKET : 0;
	if (loadmap_reads(lm, ci))
		return R_LOADMAP;
	if (calls_reads(c, ci)) /* a user-space event naming its thread: the model reads none */
		return packet |
		       (tasks_class_has_tid(tk, ci) && !tasks_reads(tk, ci) ? R_CALL_OWN_TID
		                                                            : R_CALL);
	return packet | R_OTHER;
}

/* A stream's losses as of its last event the graph showed, and that event's thread. */
struct shown_losses {
	uint64_t discarded, packets_lost;
	int64_t tid; /* -1: none shown */
};

/* Where the event's stream lost events since its last event shown: ftrace's `[LOST n
 * EVENTS]` line before this one. */
static void show_losses(struct graph *g, struct shown_losses *sl, uint64_t discarded,
                        uint64_t packets_lost, int64_t cpu)
{
	if (discarded == sl->discarded && packets_lost == sl->packets_lost)
		return;
	/* a count that went back wrapped: a number not known, as for whole packets lost */
	uint64_t n = discarded > sl->discarded ? discarded - sl->discarded : GRAPH_LOST_UNKNOWN;
	sl->discarded = discarded;
	sl->packets_lost = packets_lost;
	graph_lost(g, cpu, n);
}

/* Losses after a stream's last event shown (in its last packets), at the end, as its
 * thread's: not known to lie before --end, when given. */
static void show_end_losses(const struct graph_args *a, struct spoor_reader *r, struct graph *g,
                            struct shown_losses *losses)
{
	struct spoor_stream_info si;
	for (size_t s = 0; !a->has_end && s < spoor_reader_stream_count(r); s++) {
		if (losses[s].tid < 0)
			continue;
		spoor_reader_stream_info(r, s, &si);
		if (si.discarded == losses[s].discarded &&
		    si.packets_lost == losses[s].packets_lost)
			continue;
		graph_thread(g, losses[s].tid, NULL, 0, si.cpu);
		show_losses(g, &losses[s], si.discarded, si.packets_lost, si.cpu);
	}
}

/* The second pass: every event, in time order. */
static int run_pass(const struct graph_args *a, struct spoor_reader *r, struct tasks *tk,
                    struct loadmap *lm, struct calls *c, struct graph *g, uint64_t *seen)
{
	const struct spoor_event *ev;
	struct tid_memo memo = {0};
	int64_t tid, last = -2;
	size_t nclasses = spoor_reader_event_class_count(r);
	uint8_t *roles = calloc(nclasses + 1, 1);
	size_t nstreams = spoor_reader_stream_count(r);
	struct shown_losses *losses = calloc(nstreams + 1, sizeof(*losses));
	for (size_t i = 0; losses && i < nstreams; i++)
		losses[i].tid = -1;
	int rc = -ENOMEM;
	while (roles && losses && (rc = spoor_reader_next(r, &ev)) > 0) {
		size_t ci = reader_event_class_index(ev);
		size_t stream = reader_event_stream(ev);
		/* losses before the first event read count from the stream's start, unless
		 * --begin skipped its first packets */
		if (!seen[stream]++ && a->has_begin)
			losses[stream] =
			    (struct shown_losses){ev->s->discarded, ev->s->packets_lost, -1};
		uint8_t role = ci < nclasses ? roles[ci] : R_OTHER;
		if (!role)
			role = roles[ci] = role_of(tk, lm, c, ci);
		bool per_packet = role & R_PER_PACKET;
		role &= ~R_PER_PACKET;
		if (role != R_CALL_OWN_TID)
			tasks_update(tk, ev);
		if (role == R_LOADMAP) {
			if ((rc = loadmap_update(lm, ev)) < 0)
				break;
			continue;
		}
		if (!thread_of(tk, &memo, a, ev, per_packet, &tid))
			continue;
		bool call = role != R_OTHER;
		if (!call && (!g || !graph_knows(g, tid)))
			continue;
		if (g && (tid != last || a->cpu)) {
			size_t len = 0;
			const char *comm = tasks_comm(tk, ev, tid, &len);
			graph_thread(g, tid, comm, len, reader_event_cpu(ev));
			last = tid;
		}
		if (g) {
			losses[stream].tid = tid;
			show_losses(g, &losses[stream], ev->s->discarded, ev->s->packets_lost,
			            reader_event_cpu(ev));
		}
		if (!call)
			graph_comment(g, ev);
		else if ((rc = calls_event(c, ev, tid, loadmap_process(lm, ev))) < 0)
			break;
		if (g && (rc = graph_error(g)))
			break;
	}
	if (rc == 0)
		rc = calls_finish(c);
	if (rc == 0 && g)
		show_end_losses(a, r, g, losses);
	free(roles);
	free(losses);
	return rc;
}

static int run_graph(const struct command *cmd, int argc, char **argv)
{
	struct graph_args a = {0};
	struct spoor_reader *r = NULL;
	struct tasks *tk = NULL;
	struct loadmap *lm = NULL;
	struct calls *c = NULL;
	struct graph *g = NULL;
	struct callprofile *prof = NULL;
	uint64_t *seen = NULL;
	int first, rc = parse_args(cmd, argc, argv, &a, &first);
	if (rc)
		return rc;
	char **paths = argv + first;
	size_t npaths = (size_t) (argc - first);
	if ((rc = open_reader(cmd, &a, paths, npaths, &r)))
		return rc;
	tk = tasks_new(r, true);
	lm = loadmap_new(r, a.debug_dir);
	seen = calloc(spoor_reader_stream_count(r) + 1, sizeof(*seen));
	if (!tk || !lm || !seen) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	loadmap_set_warn(lm, warn_line, (void *) cmd);
	char err[4200];
	if (a.symbols && loadmap_add_nm(lm, a.symbols, err, sizeof(err))) {
		rc = cmd_error(cmd, "%s", err);
		goto out;
	}
	tasks_read_dump_ahead(tk);
	struct graph_opts go = {a.cpu, a.depth, name_of, lm};
	struct calls_ops ops = {graph_enter, graph_leave, false};
	if (a.profile) {
		ops = (struct calls_ops){NULL, callprofile_leave, false};
		prof = callprofile_new(lm);
	} else {
		g = graph_new(STDOUT_FILENO, &go);
	}
	c = calls_new(r, &ops, a.profile ? (void *) prof : (void *) g);
	if (!c || (a.profile ? !prof : !g)) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	if ((rc = prepass(cmd, &a, paths, npaths, c, lm))) {
		rc = rc == -ENOMEM ? cmd_error(cmd, "out of memory") : 1;
		goto out;
	}
	rc = run_pass(&a, r, tk, lm, c, g, seen);
	int frc = g ? graph_free(g) : 0;
	g = NULL;
	if (rc >= 0 && prof && !(rc = callprofile_error(prof)))
		rc = graph_profile_print(prof, a.sort, a.json);
	if (rc < 0 || frc < 0) {
		rc = cmd_error(cmd, "%s", spoor_strerror(rc < 0 ? rc : frc));
		goto out;
	}
	if (!calls_events(c))
		fprintf(
		    stderr,
		    "spoor graph: warning: no function entries or exits in %s: record a program "
		    "with spoor record --calls (built with -finstrument-functions or -pg), or "
		    "LTTng-UST's liblttng-ust-cyg-profile\n",
		    a.has_tid || a.has_begin || a.has_end ? "the part read" : "the trace");
	cmd_note_range(cmd, paths, npaths, a.has_begin ? a.begin : INT64_MIN,
	               a.has_end ? a.end : INT64_MAX);
	cmd_warn_losses(cmd, r, seen);
	rc = cmd_read_status(cmd, r, 0, "the calls before the damage were printed");
out:
	graph_free(g);
	calls_free(c);
	callprofile_free(prof);
	loadmap_free(lm);
	tasks_free(tk);
	free(seen);
	spoor_reader_close(r);
	return rc;
}

const struct command cmd_graph = {
    .name = "graph",
    .summary = "print a trace's function calls as ftrace's function_graph, or their profile",
    .description =
        "Prints the function entries and exits of a trace (spoor record --calls, or "
        "LTTng-UST's liblttng-ust-cyg-profile) as ftrace's function_graph tracer does: one "
        "line per call, `func() {` ... `}` around the calls it makes, `func();` for a call "
        "that makes none, its duration with ftrace's marks (+ over 10 us, ! over 100 us), "
        "the thread's other events as comments. Names come from the load map the trace "
        "holds and the programs' and libraries' symbols (.symtab, .dynsym, debug files by "
        "build-id); a stripped or missing file leaves addresses. With --profile, ftrace's "
        "function profile: per function the calls, their total, average and s^2, and the "
        "time spent in the function itself.",
    .usage = "[options] TRACE...",
    .options = graph_options,
    .run = run_graph,
    .options_anywhere = true,
};
