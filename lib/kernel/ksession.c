/* SPDX-License-Identifier: MIT */
/* ksession.c: the kernel half of a recording session (see ksession.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "instance.h"
#include "kmeta.h"
#include "ksession-int.h"
#include "partitions.h"
#include "spoor/spoor.h"
#include "statedump-lttng.h"
#include "statedump.h"
#include "upaths.h"

#define BUFFER_PERCENT "25"

/* Always recorded: what keeps thread names current after the state dump (task_newtask: a
 * new thread's process, which sched_process_fork does not say). */
const char *const ksession_name_events[KSESSION_NNAME_EVENTS] = {
    "sched:sched_process_fork", "sched:sched_process_exec", "sched:sched_process_exit",
    "task:task_rename", "task:task_newtask"};

static int build_events(struct ksession *k, const struct kernel_opts *o, char *err, size_t errlen)
{
	const char *root = kinstance_root(k->inst);
	/* -k libc... makes uprobes; the other patterns name tracefs events */
	const char **tracefs = calloc(o->nevents + 1, sizeof(*tracefs));
	struct kevent_list all = {0}; /* tracefs listed once for every pattern below */
	size_t nt = 0, nlibc = 0;
	if (!tracefs)
		return -ENOMEM;
	if (kevents_all(root, &all)) {
		free(tracefs);
		kevents_free(&all);
		snprintf(err, errlen, "cannot list the kernel's events under %s/events", root);
		return -ENOENT;
	}
	for (size_t i = 0; i < o->nevents; i++)
		if (upaths_pattern(o->events[i]))
			nlibc++;
		else
			tracefs[nt++] = o->events[i];
	int rc = kevents_match(&all, tracefs, nt, &k->events, err, errlen);
	free(tracefs);
	if (!rc && nlibc) {
		char group[64];
		const char *inst = strrchr(kinstance_dir(k->inst), '/');
		snprintf(group, sizeof(group), "%s", inst ? inst + 1 : "spoor");
		for (char *c = group; *c; c++)
			if (*c == '-')
				*c = '_'; /* group names are identifiers */
		upaths_remove_stale(root);
		rc = upaths_create(&k->paths, root, group, o->events, o->nevents, &k->events, err,
		                   errlen);
	}
	/* the names' events: skipped quietly where a kernel lacks one */
	for (size_t i = 0; !rc && i < KSESSION_NNAME_EVENTS; i++) {
		char e2[64];
		kevents_match(&all, &ksession_name_events[i], 1, &k->events, e2, sizeof(e2));
	}
	kevents_free(&all);
	if (rc)
		return rc;
	if (o->function_tracer) {
		/* the function tracer's records have a format of their own, ftrace:function */
		if (k->events.n == k->events.cap) {
			size_t cap = k->events.cap * 2 + 1;
			struct kevent_ref *v = realloc(k->events.v, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			k->events.v = v;
			k->events.cap = cap;
		}
		k->events.v[k->events.n].system = strdup("ftrace");
		k->events.v[k->events.n].name = strdup("function");
		k->events.n++;
	}
	return 0;
}

/* A tracefs file, whole, NUL-terminated (caller frees), or NULL. */
static char *read_text(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	for (ssize_t r; buf; n += (size_t) r) {
		if (n + 1 == cap) {
			char *bigger = realloc(buf, cap *= 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r <= 0) {
			if (r < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

int ksession_load_format(struct ksession *k, const struct kevent_ref *r, char *err, size_t errlen)
{
	if (tep_find_event_by_name(k->tep, r->system, r->name))
		return 0;
	char path[1200];
	size_t len;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", kinstance_root(k->inst), r->system,
	         r->name);
	char *text = read_text(path, &len);
	int rc = text ? (int) tep_parse_event(k->tep, text, len, r->system) : -1;
	free(text);
	if (rc) {
		snprintf(err, errlen, "cannot parse the format of kernel event %s:%s (%s)",
		         r->system, r->name, path);
		return -EIO;
	}
	return 0;
}

/* libtraceevent parses the ring buffer's page header and the formats of the events in use,
 * nothing more: loading every format, kallsyms and printk_formats (as
 * tracefs_local_events does) costs a tenth of a second that recording never needs. */
static int load_formats(struct ksession *k, char *err, size_t errlen)
{
	char path[1200];
	size_t len;
	k->tep = tep_alloc();
	if (!k->tep)
		return -ENOMEM;
	tep_set_file_bigendian(k->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(k->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(k->tep, (int) sizeof(long));
	tep_set_page_size(k->tep, getpagesize());
	snprintf(path, sizeof(path), "%s/events/header_page", kinstance_root(k->inst));
	char *text = read_text(path, &len);
	int rc = text ? tep_parse_header_page(k->tep, text, len, (int) sizeof(long)) : -1;
	free(text);
	if (rc) {
		snprintf(err, errlen, "cannot parse %s", path);
		return -EIO;
	}
	for (size_t i = 0; i < k->events.n && !rc; i++)
		rc = ksession_load_format(k, &k->events.v[i], err, errlen);
	return rc;
}

/* "EVENT:EXPR" or "SYSTEM:EVENT:EXPR", for an event being recorded. */
int ksession_apply_filter(struct ksession *k, const char *spec, char *err, size_t errlen)
{
	const char *c1 = strchr(spec, ':');
	if (!c1 || c1 == spec) {
		snprintf(err, errlen, "--filter '%s': expected EVENT:EXPRESSION", spec);
		return -SPOOR_EUSAGE;
	}
	char name[300];
	const char *expr = c1 + 1;
	const char *c2 = strchr(c1 + 1, ':');
	const struct kevent_ref *r = NULL;
	if (c2 && (size_t) (c2 - spec) < sizeof(name)) {
		memcpy(name, spec, (size_t) (c2 - spec));
		name[c2 - spec] = '\0';
		if ((r = kevents_find(&k->events, name)))
			expr = c2 + 1;
	}
	if (!r && (size_t) (c1 - spec) < sizeof(name)) {
		memcpy(name, spec, (size_t) (c1 - spec));
		name[c1 - spec] = '\0';
		r = kevents_find(&k->events, name);
	}
	if (!r) {
		snprintf(err, errlen, "--filter '%s': %s is not a kernel event being recorded",
		         spec, name);
		return -SPOOR_EUSAGE;
	}
	while (*expr == ' ')
		expr++;
	return kinstance_filter(k->inst, r->system, r->name, expr, err, errlen);
}

static size_t subbuf_size(struct ksession *k)
{
	char path[900];
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", kinstance_dir(k->inst));
	FILE *f = fopen(path, "re");
	unsigned long kb = 0;
	if (f) {
		if (fscanf(f, "%lu", &kb) != 1)
			kb = 0;
		fclose(f);
	}
	return kb ? kb << 10 : (size_t) getpagesize();
}

static int open_cpus(struct ksession *k, char *err, size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		n = 1;
	if (n > KSESSION_MAX_CPUS)
		n = KSESSION_MAX_CPUS;
	k->cpus = calloc((size_t) n, sizeof(*k->cpus));
	if (!k->cpus)
		return -ENOMEM;
	size_t sub = subbuf_size(k);
	for (int cpu = 0; cpu < n; cpu++) {
		char path[900];
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", kinstance_dir(k->inst), cpu);
		if (access(path, F_OK))
			continue; /* a possible CPU that is not there */
		struct kbuffer *kb = tep_kbuffer(k->tep);
		if (!kb)
			return -ENOMEM;
		struct kcpu *c = &k->cpus[k->ncpus++];
		int rc = kcpu_open(c, kinstance_dir(k->inst), cpu, sub, kb, err, errlen);
		if (rc)
			return rc;
		if (k->classes.layout == KLAYOUT_LTTNG)
			c->fork = &k->fork;
	}
	return 0;
}

uint64_t ksession_statedump(struct ksession *k, struct kpacket *dump, uint64_t ts)
{
	static const struct sdl_roots roots = {"/proc", "/sys"};
	long n = k->classes.layout == KLAYOUT_LTTNG
	             ? statedump_lttng_write(dump, &k->classes, &k->lttng_dump, ts, &roots,
	                                     &k->fork.tgids)
	             : statedump_write(dump, &k->classes, k->dump_id, ts, "/proc");
	kpacket_flush(dump);
	return n > 0 ? (uint64_t) n : 0;
}

int ksession_close_dump(struct kpacket *dump, uint64_t end)
{
	/* lttng-modules' dump is in the CPUs' streams, which span the whole trace */
	int rc = kpacket_extend(dump, end);
	int crc = kpacket_close(dump);
	return rc ? rc : crc;
}

int ksession_new_uuid(uint8_t uuid[16])
{
	if (getrandom(uuid, 16, 0) != 16)
		return -EIO;
	uuid[6] = (uint8_t) ((uuid[6] & 0x0f) | 0x40); /* version 4, random */
	uuid[8] = (uint8_t) ((uuid[8] & 0x3f) | 0x80);
	return 0;
}

/* Tracing on, with the threads alive then in the state dump (at the start, and after a
 * pause: threads born meanwhile would have no name). */
static int start_tracing(struct ksession *k, char *err, size_t errlen)
{
	/* Stamped before tracing starts, so that every kernel event comes after the names;
	 * walked after, so that a thread born meanwhile is in the dump or in a fork event. */
	uint64_t dump_ts = rec_clock_now(&k->clock);
	/* the session's start: where every stream begins, as LTTng's (kpacket_begin_at) */
	for (int i = 0; !k->started && i < k->ncpus; i++)
		kpacket_begin_at(&k->cpus[i].pkt, dump_ts);
	k->started = true;
	int rc = kinstance_tracing_on(k->inst, true);
	if (rc) {
		snprintf(err, errlen, "cannot turn tracing on in %s", kinstance_dir(k->inst));
		return rc;
	}
	k->dumped += ksession_statedump(k, &k->dump, dump_ts);
	return 0;
}

static int setup(struct ksession *k, const struct kernel_opts *o, const struct rec_clock *clock,
                 char *err, size_t errlen)
{
	int rc;
	if ((rc = kinstance_create(&k->inst, o->name, err, errlen)))
		return rc;
	/* a new instance traces at once; nothing is recorded before it is all set */
	if ((rc = kinstance_tracing_on(k->inst, false)) ||
	    (rc = kinstance_set_clock(k->inst, rec_clock_kernel_name(clock), err, errlen)))
		return rc;
	if (o->buffer_kb && (rc = kinstance_set_buffer_kb(k->inst, o->buffer_kb, err, errlen)))
		return rc;
	/* a flight recorder: the newest events replace the oldest until a snapshot reads them
	 * (a new instance overwrites already; said here so that it does not depend on that) */
	if (o->overwrite &&
	    (rc = kinstance_write(k->inst, "options/overwrite", "1", false, err, errlen)))
		return rc;
	/* Wake the reader when a CPU's buffer is a quarter full (the kernel's default is half):
	 * more headroom while spoor is being scheduled, for a few more wake-ups. Kernels
	 * without the file wake it on every page; that is fine too. */
	kinstance_write(k->inst, "buffer_percent", BUFFER_PERCENT, false, err, errlen);
	if ((rc = build_events(k, o, err, errlen)) || (rc = load_formats(k, err, errlen)))
		return rc;
	if ((rc = kclasses_build(k->tep, &k->events, o->layout, &k->classes, err, errlen)))
		return rc;
	/* Not spoor's own system calls: left out as the records are converted (kclass_is_own),
	 * not by the instance's set_event_notrace_pid, which slows every switch and wake-up of
	 * the traced tasks down. */
	k->classes.self_pid = (int32_t) getpid();
	/* the state dump: spoor's statedump_process, or lttng-modules' lttng_statedump_* */
	int dump_id = o->layout == KLAYOUT_LTTNG
	                  ? statedump_lttng_classes(&k->classes, &k->lttng_dump)
	                  : kclasses_add_synthetic(&k->classes, STATEDUMP_EVENT, statedump_fields,
	                                           STATEDUMP_NFIELDS);
	if (dump_id < 0)
		return -ENOMEM;
	k->dump_id = (uint32_t) dump_id;
	if (ksession_new_uuid(k->uuid))
		return -EIO;
	for (size_t i = 0; i < k->events.n; i++) {
		const struct kevent_ref *r = &k->events.v[i];
		if (!strcmp(r->system, "ftrace"))
			continue;
		if ((rc = kinstance_enable(k->inst, r->system, r->name, err, errlen)))
			return rc;
	}
	for (size_t i = 0; i < o->nfilters; i++)
		if ((rc = ksession_apply_filter(k, o->filters[i], err, errlen)))
			return rc;
	for (size_t i = 0; i < o->npids; i++) {
		char v[24];
		snprintf(v, sizeof(v), "%d", (int) o->pids[i]);
		if ((rc = kinstance_write(k->inst, "set_event_pid", v, true, err, errlen)))
			return rc;
	}
	if (o->function_tracer &&
	    (rc = kinstance_function_tracer(k->inst, o->functions, o->nfunctions, o->pids, o->npids,
	                                    err, errlen)))
		return rc;
	if ((rc = open_cpus(k, err, errlen)))
		return rc;
	struct ksession_outputs out;
	if ((rc = ksession_open_outputs(k, k->dir, false, k->uuid, &out, err, errlen)))
		return rc;
	ksession_adopt_outputs(k, &out);
	return start_tracing(k, err, errlen);
}

/* A session that failed to start leaves no half-made trace behind. */
static void remove_partial_trace(struct ksession *k)
{
	if (k->dump.fd < 0)
		return; /* its files were not made (a directory that was there stays as it was) */
	for (int i = 0; i < k->ncpus; i++)
		kpacket_close(&k->cpus[i].pkt);
	kpacket_close(&k->dump);
	if (k->meta_fd >= 0)
		close(k->meta_fd);
	k->meta_fd = -1;
	ksession_remove_files(k, k->dir);
}

int ksession_start(struct ksession **out, const struct kernel_opts *o,
                   const struct rec_clock *clock, const char *outdir, char *err, size_t errlen)
{
	struct ksession *k = calloc(1, sizeof(*k));
	*out = NULL;
	if (!k)
		return -ENOMEM;
	k->dump.fd = -1;
	k->meta_fd = -1;
	k->clock = *clock;
	k->overwrite = o->overwrite;
	k->dir = ksession_kernel_dir(outdir);
	k->created = o->created ? o->created : time(NULL); /* one for every chunk */
	k->name = o->name ? strdup(o->name) : NULL;
	if (!k->dir || (o->name && !k->name)) {
		free(k->name);
		free(k->dir);
		free(k);
		return -ENOMEM;
	}
	KRIGHTS_OWN(caller);
	k->caller = caller;
	kfork_init(&k->fork, "/proc");
	int rc = setup(k, o, clock, err, errlen);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		remove_partial_trace(k);
		ksession_free(k);
		return rc;
	}
	*out = k;
	return 0;
}

/* A flight recorder is read only by a snapshot; a paused session has nothing to read. */
static bool reading(const struct ksession *k)
{
	return !k->overwrite && !k->paused && !k->stopped;
}

size_t ksession_pollfds(struct ksession *k, struct pollfd *p, size_t cap)
{
	size_t n = 0;
	for (int i = 0; reading(k) && i < k->ncpus && n < cap; i++)
		p[n++] = (struct pollfd){k->cpus[i].raw_fd, POLLIN, 0};
	return n;
}

void ksession_ready(struct ksession *k, const struct pollfd *p, size_t n)
{
	for (size_t i = 0; reading(k) && i < n && (int) i < k->ncpus; i++)
		if (p[i].revents)
			kcpu_drain(&k->cpus[i], &k->classes, false);
}

void ksession_flush(struct ksession *k)
{
	for (int i = 0; reading(k) && i < k->ncpus; i++)
		kcpu_flush(&k->cpus[i], &k->classes);
}

/* The kernel's own counters for a CPU: overrun (overwritten before spoor read them),
 * dropped events (no room, when the buffer does not overwrite), and what the ring holds
 * unread (entries, bytes). */
struct cpu_stats {
	uint64_t overrun, dropped, entries, bytes;
};

static void read_stats(struct ksession *k, int cpu, struct cpu_stats *s)
{
	char path[900], line[256];
	*s = (struct cpu_stats){0};
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", kinstance_dir(k->inst), cpu);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	unsigned long long v;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "overrun: %llu", &v) == 1)
			s->overrun = v;
		else if (sscanf(line, "dropped events: %llu", &v) == 1)
			s->dropped = v;
		else if (sscanf(line, "entries: %llu", &v) == 1)
			s->entries = v;
		else if (sscanf(line, "bytes: %llu", &v) == 1)
			s->bytes = v;
	}
	fclose(f);
}

void ksession_usage(struct ksession *k, struct kernel_usage *u)
{
	KRIGHTS_OWN(caller);
	*u = (struct kernel_usage){0};
	if (k->stopped)
		return;
	for (int i = 0; i < k->ncpus; i++) {
		struct cpu_stats s;
		char path[900];
		unsigned long kb = 0;
		read_stats(k, k->cpus[i].cpu, &s);
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/buffer_size_kb",
		         kinstance_dir(k->inst), k->cpus[i].cpu);
		FILE *f = fopen(path, "re");
		if (f) {
			if (fscanf(f, "%lu", &kb) != 1)
				kb = 0;
			fclose(f);
		}
		u->cpus++;
		u->bytes_used += s.bytes;
		u->bytes_size += (uint64_t) kb << 10;
		u->entries += s.entries;
		u->overrun += s.overrun;
		u->dropped += s.dropped;
	}
}

void ksession_end_stream(struct ksession *k, struct kcpu *c, bool counters, uint64_t end,
                         struct kernel_totals *t, uint64_t *overrun_out, uint64_t *dropped_out)
{
	uint64_t overrun = 0, dropped = 0;
	if (counters) {
		struct cpu_stats s;
		read_stats(k, c->cpu, &s);
		overrun = s.overrun;
		dropped = s.dropped;
		/* A sub-buffer only says how many events were missed before it when it has room
		 * for the count, else just that some were: the kernel's counters are the truth,
		 * and the stream's last packet carries what the marks did not. */
		if (overrun + dropped > c->missed) {
			kpacket_add_discarded(&c->pkt, overrun + dropped - c->missed);
			c->missed = overrun + dropped;
		}
	}
	if (overrun_out)
		*overrun_out = overrun;
	if (dropped_out)
		*dropped_out = dropped;
	if (end)
		kpacket_extend(&c->pkt, end); /* an error stays in the stream: close returns it */
	int rc = kpacket_close(&c->pkt);
	if (rc && !t->write_error)
		t->write_error = rc;
	t->events += c->pkt.events_written;
	/* a packet lost to a write error is not in the trace */
	t->unwritten += c->pkt.events - c->pkt.events_written;
	t->bytes += c->pkt.bytes;
	t->packets += c->pkt.packets;
}

void ksession_stop(struct ksession *k, struct kernel_totals *t)
{
	KRIGHTS_OWN(caller);
	*t = (struct kernel_totals){0};
	if (k->stopped)
		return;
	*t = k->done;
	k->stopped = true;
	kinstance_tracing_on(k->inst, false);
	for (int i = 0; i < k->ncpus; i++)
		kcpu_drain(&k->cpus[i], &k->classes, true);
	/* the session's stop: where every stream ends, as LTTng's (after every event read) */
	uint64_t end = rec_clock_now(&k->clock);
	for (int i = 0; i < k->ncpus; i++)
		end = k->cpus[i].pkt.last_ts > end ? k->cpus[i].pkt.last_ts : end;
	for (int i = 0; i < k->ncpus; i++) {
		struct kcpu *c = &k->cpus[i];
		uint64_t overrun, dropped;
		ksession_end_stream(k, c, true, end, t, &overrun, &dropped);
		kcpu_close(c);
		t->overrun += overrun;
		t->dropped += dropped;
		t->unwritten += c->unwritten;
		t->lost += c->missed;
		if (c->cpu < KERNEL_TOTALS_CPUS)
			t->lost_by_cpu[c->cpu] = c->missed;
		t->malformed += c->malformed;
		t->unknown += c->unknown;
	}
	t->cpus = (unsigned) k->ncpus;
	t->statedump = k->dumped;
	int rc = ksession_close_dump(&k->dump, end);
	t->bytes += k->dump.bytes;
	if (rc && !t->write_error)
		t->write_error = rc;
	if (k->meta_fd >= 0)
		close(k->meta_fd);
	k->meta_fd = -1;
	kinstance_destroy(k->inst);
	k->inst = NULL;
	upaths_remove(k->paths); /* nothing has them enabled any more */
	k->paths = NULL;
}

int ksession_pause(struct ksession *k)
{
	KRIGHTS_OWN(caller);
	if (k->stopped)
		return -EINVAL;
	if (k->paused)
		return 0;
	int rc = kinstance_tracing_on(k->inst, false);
	if (rc)
		return rc;
	k->paused = true;
	/* a flight recorder keeps its events in the ring for the next snapshot */
	for (int i = 0; !k->overwrite && i < k->ncpus; i++)
		kcpu_drain(&k->cpus[i], &k->classes, true);
	return 0;
}

int ksession_resume(struct ksession *k)
{
	KRIGHTS_OWN(caller);
	char err[256];
	if (k->stopped)
		return -EINVAL;
	if (!k->paused)
		return 0;
	int rc = start_tracing(k, err, sizeof(err));
	if (!rc)
		k->paused = false;
	return rc;
}

void ksession_free(struct ksession *k)
{
	if (!k)
		return;
	KRIGHTS_OWN(caller);
	for (int i = 0; i < k->ncpus; i++)
		kcpu_close(&k->cpus[i]);
	free(k->cpus);
	if (k->dump.fd >= 0)
		kpacket_close(&k->dump);
	kinstance_destroy(k->inst);
	upaths_remove(k->paths);
	if (k->meta_fd >= 0)
		close(k->meta_fd);
	kclasses_free(&k->classes);
	kevents_free(&k->events);
	kfork_free(&k->fork);
	if (k->tep)
		tep_free(k->tep);
	free(k->dir);
	free(k->name);
	free(k);
}
