/* SPDX-License-Identifier: MIT */
/*
 * list.c: `spoor session list [NAME]`: the sessions a client may see (its own; root: all),
 * one line each, or one session in full: its state, events, the programs attached with
 * their buffers' use and losses, and what was written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dstate.h"
#include "list.h"
#include "kernel/ksession.h"
#include "record/apptrace.h"

static const char *state_name(const struct dsession *s)
{
	static const char *const names[] = {"created", "started", "stopped", "failed"};
	return names[s->state];
}

/* 256k, 4m: a size as the options take it */
static void print_size(FILE *out, uint64_t v)
{
	static const char units[] = "kmg";
	int u = -1;
	while (u < 2 && v >= 1024 && !(v % 1024)) {
		v /= 1024;
		u++;
	}
	fprintf(out, "%" PRIu64 "%s", v, u < 0 ? "" : (char[]){units[u], '\0'});
}

static void print_patterns(FILE *out, const char *const *v, size_t n, const char *nul_list,
                           size_t len)
{
	bool any = false;
	for (size_t i = 0; i < n; i++, any = true)
		fprintf(out, "%s%s", any ? ", " : "", v[i]);
	for (size_t at = 0; nul_list && at < len; at += strlen(nul_list + at) + 1, any = true)
		fprintf(out, "%s%s", any ? ", " : "", nul_list + at);
	if (!any)
		fprintf(out, "none");
	fputc('\n', out);
}

/* One buffer's use and losses. */
static void print_use(FILE *out, const struct apptrace_usage *u, bool overwrite)
{
	fprintf(out, "%" PRIu64 " of %" PRIu64 " bytes in use, %" PRIu64 " events discarded",
	        u->bytes_used, u->bytes_size, u->discarded);
	if (overwrite)
		fprintf(out, ", %" PRIu64 " overwritten", u->overwritten);
	fputc('\n', out);
}

static unsigned programs_of(const struct daemon *d, const struct dsession *s)
{
	unsigned n = 0;
	struct app *a;
	size_t it = 0;
	while (slot_next(d, s, &a, &it))
		n++;
	return n;
}

static void print_one(const struct daemon *d, const struct dsession *s, FILE *out)
{
	fprintf(out, "session %s: %s, %s, buffers ", s->name, state_name(s),
	        s->overwrite ? "overwrite (flight recorder)" : "discard");
	print_size(out, s->subbuf_size * s->num_subbufs);
	fprintf(out, " per thread (%u sub-buffers), owner uid %u\n", s->num_subbufs,
	        (unsigned) s->owner);
	if (s->state == SESSION_FAILED)
		fprintf(out, "  error: %s\n", s->error);
	fprintf(out, "  trace: %s\n", s->outdir);
	if (s->rotate_bytes || s->rotate_ns) {
		fprintf(out, "  rotation: every ");
		if (s->rotate_bytes)
			print_size(out, s->rotate_bytes);
		else
			fprintf(out, "%" PRIu64 " ms", s->rotate_ns / 1000000);
		fprintf(out, ", %u chunk(s) closed\n", s->chunks);
	} else if (s->chunks) {
		fprintf(out, "  rotation: %u chunk(s) closed\n", s->chunks);
	}
	if (s->snapshots)
		fprintf(out, "  snapshots: %u\n", s->snapshots);
	fprintf(out, "  user-space events: ");
	print_patterns(out, NULL, 0, s->patterns, s->patterns_len);
	fprintf(out, "  kernel events: ");
	print_patterns(out, (const char *const *) s->kevents, s->nkevents, NULL, 0);
	if (s->nkfilters) {
		fprintf(out, "  kernel filters: ");
		print_patterns(out, (const char *const *) s->kfilters, s->nkfilters, NULL, 0);
	}
	/* create's kernel settings, said once there are kernel events or they were given */
	if (s->nkevents || s->kernel || s->klayout != KLAYOUT_SPOOR || s->kbuffer_kb) {
		fprintf(out, "  kernel trace: layout %s, ring per CPU ", klayout_name(s->klayout));
		if (s->kbuffer_kb)
			print_size(out, (uint64_t) s->kbuffer_kb << 10);
		else
			fprintf(out, "the kernel's default");
		fputc('\n', out);
	}
	fprintf(out, "  programs: %u\n", programs_of(d, s));
	struct app *a;
	size_t it = 0;
	for (const struct app_slot *sl; (sl = slot_next(d, s, &a, &it));) {
		fprintf(out, "    %s (pid %d, uid %u): ", a->procname, a->pid, (unsigned) a->uid);
		if (!sl->t) {
			fprintf(out, "%s\n",
			        sl->failed ? "its trace could not be made" : "no buffer yet");
			continue;
		}
		struct apptrace_usage u;
		apptrace_usage(sl->t, &u);
		fprintf(out, "%u buffer(s)\n", u.buffers);
		for (size_t b = 0; b < apptrace_buffers(sl->t); b++) {
			int tid = 0;
			apptrace_buffer_usage(sl->t, b, &tid, &u);
			fprintf(out, "      thread %d: ", tid);
			print_use(out, &u, s->overwrite);
		}
	}
	for (size_t i = 0; i < s->nended; i++) {
		struct apptrace_usage u;
		apptrace_usage(s->ended[i].t, &u);
		fprintf(out, "    %s (pid %d, ended): %u buffer(s) kept for the snapshots\n",
		        s->ended[i].procname, s->ended[i].pid, u.buffers);
	}
	if (s->kernel) {
		struct kernel_usage k;
		ksession_usage(s->kernel, &k);
		fprintf(out,
		        "  kernel: %u CPU(s), %" PRIu64 " of %" PRIu64 " bytes unread, %" PRIu64
		        " events overwritten, %" PRIu64 " dropped\n",
		        k.cpus, k.bytes_used, k.bytes_size, k.overrun, k.dropped);
	}
	const struct record_totals *t = &s->totals;
	fprintf(out,
	        "  written: %" PRIu64 " packets, %" PRIu64 " bytes; buffers closed: %" PRIu64
	        " events discarded, %" PRIu64 " overwritten\n",
	        t->packets, t->bytes, t->discarded, t->overwritten);
}

int list_sessions(const struct daemon *d, const struct daemon_creds *cr, const char *name,
                  FILE *out, FILE *err, int *status)
{
	unsigned shown = 0;
	for (const struct dsession *s = d->sessions; s; s = s->next) {
		if (s->owner != cr->uid && cr->uid != 0)
			continue;
		if (name && strcmp(s->name, name))
			continue;
		if (name) {
			print_one(d, s, out);
		} else {
			if (!shown)
				fprintf(out, "%-20s %-8s %-9s %8s  %s\n", "SESSION", "STATE",
				        "MODE", "PROGRAMS", "TRACE");
			fprintf(out, "%-20s %-8s %-9s %8u  %s\n", s->name, state_name(s),
			        s->overwrite ? "overwrite" : "discard", programs_of(d, s),
			        s->outdir);
		}
		shown++;
	}
	if (name && !shown) {
		fprintf(err, "no session '%s' (spoor session list shows yours)\n", name);
		return *status = 1;
	}
	if (!shown)
		fprintf(out, "no sessions\n");
	return *status = 0;
}

void list_summary(const struct dsession *s, FILE *out)
{
	const struct record_totals *t = &s->totals;
	fprintf(out,
	        "session %s destroyed: %u process(es), %" PRIu64 " packets, %" PRIu64
	        " bytes, %" PRIu64 " events discarded",
	        s->name, t->processes, t->packets, t->bytes, t->discarded);
	if (s->overwrite)
		fprintf(out, ", %" PRIu64 " overwritten", t->overwritten);
	fputc('\n', out);
	if (t->kernel)
		fprintf(out,
		        "session %s: kernel: %" PRIu64 " events on %u CPU(s), %" PRIu64
		        " lost, %" PRIu64 " bytes\n",
		        s->name, t->k.events, t->k.cpus, t->k.lost, t->k.bytes);
	fprintf(out, "session %s: trace in %s\n", s->name, s->outdir);
}
