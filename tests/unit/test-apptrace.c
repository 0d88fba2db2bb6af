/* SPDX-License-Identifier: MIT */
/*
 * test-apptrace.c: a process's trace (lib/record/apptrace.h): snapshots of flight recorders
 * and rotation, with producers that write their rings as lib/ust does (rb-abi.h), one
 * event at a time, in this thread or in one of their own, and the traces read back by
 * spoor's reader and by babeltrace2.
 *
 * Every event carries its own number: how many events its thread had committed before
 * it. So a reader checks a trace exactly: in each stream, an event's number is the events
 * before it in the stream plus the events the stream reports lost before it (babeltrace2
 * and spoor count a snapshot's overwritten events as discarded ones); the last number
 * plus one is what the thread had committed by then.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "rb/rb-abi.h"
#include "record/apptrace.h"
#include "spoor/trace.h"

enum { SUBBUF = 4096, NSUB = 4, EVENT_BYTES = 12 };

static const char DESC[] = "event 0 test tick 1 1\nfield seq 0 8 0 10 0 0 0 0\n";

/* ---- a producer, as lib/ust/buffer.c writes a ring ---- */

struct producer {
	int fd;
	int tid;
	struct rb_header *h;
	char *data;
	size_t map_size;
	uint64_t seq, off, clock;
	uint64_t committed; /* events in the ring so far (rb-abi.h's counts) */
	uint64_t number;    /* events emitted, dropped ones too: the next event's payload */
	uint64_t dropped;
	bool open;
	_Atomic bool stop; /* for a producer thread */
};

static void producer_make_sealed(struct producer *p, int tid, bool overwrite, bool sealed)
{
	uint64_t hdr = rb_header_bytes(NSUB);

	memset(p, 0, sizeof(*p));
	p->tid = tid;
	p->clock = 1000000000;
	p->map_size = hdr + (uint64_t) NSUB * SUBBUF;
	p->fd = memfd_create("test-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (!CHECK(p->fd >= 0 && ftruncate(p->fd, (off_t) p->map_size) == 0))
		exit(check_done());
	if (sealed) /* as lib/ust/buffer.c */
		CHECK(fcntl(p->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0);
	p->h = mmap(NULL, p->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, p->fd,
	            0);
	if (!CHECK(p->h != MAP_FAILED))
		exit(check_done());
	p->h->magic = RB_MAGIC;
	p->h->header_size = (uint32_t) (sizeof(*p->h) + NSUB * sizeof(p->h->sb[0]));
	p->h->abi_version = RB_ABI_VERSION;
	p->h->mode = overwrite ? RB_OVERWRITE : RB_DISCARD;
	p->h->subbuf_size = SUBBUF;
	p->h->num_subbufs = NSUB;
	p->h->tid = (uint32_t) tid;
	p->h->data_offset = hdr;
	p->data = (char *) p->h + hdr;
}

static void producer_make(struct producer *p, int tid, bool overwrite)
{
	producer_make_sealed(p, tid, overwrite, true);
}

static void producer_free(struct producer *p)
{
	munmap(p->h, p->map_size);
	close(p->fd);
}

static bool packet_open(struct producer *p, const uint8_t *uuid, uint64_t ts)
{
	struct rb_header *h = p->h;
	uint64_t idx = p->seq % NSUB;

	if (h->mode == RB_DISCARD &&
	    p->seq - atomic_load_explicit(&h->consumed, memory_order_acquire) >= NSUB)
		return false;
	atomic_store_explicit(&h->sb[idx].seq, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&h->sb[idx].events_begin, p->committed, memory_order_relaxed);
	if (p->seq == 0)
		atomic_store_explicit(&h->first_ts, ts, memory_order_relaxed);
	struct rb_packet_start ps = {
	    .magic = RB_PACKET_MAGIC,
	    .stream_instance_id = (uint64_t) p->tid,
	    .timestamp_begin = ts,
	    .timestamp_end = ts,
	    .packet_size = SUBBUF * 8,
	    .packet_seq_num = p->seq,
	    .events_discarded = p->dropped,
	    .vpid = 4242,
	    .vtid = (uint32_t) p->tid,
	};
	memcpy(ps.uuid, uuid, 16);
	memcpy(p->data + idx * SUBBUF, &ps, sizeof(ps));
	p->off = sizeof(ps);
	p->open = true;
	atomic_store_explicit(&h->open_seq, p->seq, memory_order_relaxed);
	atomic_store_explicit(&h->write_pos, p->off, memory_order_relaxed);
	atomic_store_explicit(&h->last_ts, ts, memory_order_relaxed);
	atomic_store_explicit(&h->open_valid, 1, memory_order_release);
	return true;
}

static void packet_close(struct producer *p)
{
	struct rb_header *h = p->h;
	uint64_t idx = p->seq % NSUB;
	struct rb_packet_start *ps = (struct rb_packet_start *) (p->data + idx * SUBBUF);

	ps->timestamp_end = p->clock;
	ps->content_size = p->off * 8;
	ps->events_discarded = p->dropped;
	atomic_store_explicit(&h->open_valid, 0, memory_order_relaxed);
	atomic_store_explicit(&h->discarded, p->dropped, memory_order_relaxed);
	atomic_store_explicit(&h->sb[idx].content_size, p->off, memory_order_relaxed);
	atomic_store_explicit(&h->sb[idx].events_end, p->committed, memory_order_relaxed);
	atomic_store_explicit(&h->sb[idx].seq, p->seq + 1, memory_order_release);
	atomic_store_explicit(&h->produced, p->seq + 1, memory_order_release);
	p->seq++;
	p->open = false;
}

/* One event whose payload is its number; false if the ring was full (discard mode). */
static bool emit(struct producer *p, const uint8_t *uuid)
{
	uint64_t ts = p->clock + 1000;

	if (p->open && p->off + EVENT_BYTES > SUBBUF)
		packet_close(p);
	if (!p->open && !packet_open(p, uuid, ts)) {
		p->dropped++;
		atomic_store_explicit(&p->h->discarded, p->dropped, memory_order_relaxed);
		p->number++; /* its number is taken: the readers count it as lost */
		return false;
	}
	char *at = p->data + (p->seq % NSUB) * SUBBUF + p->off;
	uint32_t w = (uint32_t) (ts & ((1u << 27) - 1)) << 5; /* compact header, id 0 */
	memcpy(at, &w, 4);
	memcpy(at + 4, &p->number, 8);
	p->off += EVENT_BYTES;
	p->clock = ts;
	atomic_store_explicit(&p->h->last_ts, ts, memory_order_relaxed);
	atomic_store_explicit(&p->h->write_pos, p->off, memory_order_release);
	__atomic_store_n(&p->committed, p->committed + 1, __ATOMIC_RELAXED); /* read by the test */
	p->number++;
	return true;
}

static void emit_n(struct producer *p, const uint8_t *uuid, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		emit(p, uuid);
}

struct running {
	struct producer *p;
	const uint8_t *uuid;
};

static void *emit_until_stopped(void *arg)
{
	struct running *r = arg;
	while (!atomic_load(&r->p->stop))
		emit(r->p, r->uuid);
	return NULL;
}

/* ---- readers ---- */

/* A thread's events as a reader delivers them. The loss counts in a thread's packets are
 * cumulative, across chunks too (as LTTng's); spoor's reader, given several chunks, counts
 * each chunk's stream from where the one before ended (`base`: the losses of the thread's
 * earlier streams). Each event's number, less the events before it and the losses reported
 * up to its packet, is the same for all of a thread's events (`offset`): 0 for a whole
 * trace, a snapshot or all the chunks, the events of the chunks before for a chunk read
 * alone. */
struct thread_check {
	uint64_t tid, events, lost, last_num, offset, base;
	size_t stream;
	bool any, bad;
};

struct read_result {
	uint64_t events, lost;
	struct thread_check s[4];
	size_t ns;
	unsigned damaged;
	bool order_bad;
};

static struct thread_check *thread_of(struct read_result *r, uint64_t tid)
{
	for (size_t i = 0; i < r->ns; i++)
		if (r->s[i].tid == tid)
			return &r->s[i];
	if (r->ns == 4)
		return NULL;
	r->s[r->ns] = (struct thread_check){.tid = tid};
	return &r->s[r->ns++];
}

static struct read_result read_spoor(const char *const *paths, size_t n)
{
	struct read_result r = {0};
	struct spoor_reader *rd;
	char *msg = NULL;

	if (!CHECK(spoor_reader_open(paths, n, &rd, &msg) == 0)) {
		printf("  %s\n", msg ? msg : "");
		free(msg);
		return r;
	}
	const struct spoor_event *ev;
	int64_t last_ts = INT64_MIN;
	while (spoor_reader_next(rd, &ev) == 1) {
		struct spoor_field f, vtid;
		int64_t num, tid;
		if (!CHECK(spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "seq", &f) &&
		           spoor_field_int(&f, &num) &&
		           spoor_event_field(ev, SPOOR_SCOPE_PACKET_CONTEXT, "vtid", &vtid) &&
		           spoor_field_int(&vtid, &tid)))
			break;
		struct thread_check *s = thread_of(&r, (uint64_t) tid);
		if (!CHECK(s))
			break;
		if (s->any && spoor_event_stream(ev) != s->stream) {
			struct spoor_stream_info before;
			spoor_reader_stream_info(rd, s->stream, &before);
			s->base += before.discarded;
		}
		s->stream = spoor_event_stream(ev);
		uint64_t offset = (uint64_t) num - s->events - s->base - spoor_event_discarded(ev);
		if (!s->any)
			s->offset = offset;
		else if (offset != s->offset)
			s->bad = true;
		if (spoor_event_timestamp(ev) < last_ts)
			r.order_bad = true;
		last_ts = spoor_event_timestamp(ev);
		s->events++;
		s->last_num = (uint64_t) num;
		s->any = true;
		r.events++;
	}
	/* a thread's losses: those of all its streams, to their ends */
	for (size_t i = 0; i < spoor_reader_stream_count(rd); i++) {
		struct spoor_stream_info info;
		spoor_reader_stream_info(rd, i, &info);
		const char *tid = strrchr(info.path, '_');
		struct thread_check *s = tid ? thread_of(&r, strtoull(tid + 1, NULL, 10)) : NULL;
		if (s)
			s->lost += info.discarded;
	}
	for (size_t i = 0; i < r.ns; i++)
		r.lost += r.s[i].lost;
	r.damaged = spoor_reader_damaged(rd);
	spoor_reader_close(rd);
	return r;
}

static bool have_babeltrace2(void)
{
	return system("babeltrace2 --version >/dev/null 2>&1") == 0;
}

/* The packets babeltrace2 said were lost (gaps in packet_seq_num), at its last run. */
static uint64_t bt2_packets_lost;

/* babeltrace2 on the traces: exit status 0, nothing on stderr but its reports of losses;
 * *events: the events it prints, *lost: the events it reports discarded, *maybe: the
 * streams it says may have lost events before their first packet. */
static bool read_bt2_maybe(const char *paths, uint64_t *events, uint64_t *lost, unsigned *maybe)
{
	char cmd[8192], line[4096], errfile[] = "/tmp/test-apptrace-bt2-XXXXXX";
	int efd = mkstemp(errfile);

	*events = *lost = 0;
	*maybe = 0;
	bt2_packets_lost = 0;
	if (efd < 0)
		return false;
	close(efd);
	snprintf(cmd, sizeof(cmd), "babeltrace2 %s 2>%s", paths, errfile);
	FILE *out = popen(cmd, "r");
	if (!out)
		return false;
	while (fgets(line, sizeof(line), out))
		if (strstr(line, "test:tick"))
			++*events;
	bool ok = pclose(out) == 0;
	FILE *err = fopen(errfile, "r");
	while (err && fgets(line, sizeof(line), err)) {
		unsigned long long n;
		char what[16];
		if (sscanf(line, "WARNING: Tracer discarded %llu %15s", &n, what) == 2) {
			if (!strncmp(what, "event", 5))
				*lost += n;
			else
				bt2_packets_lost += n;
		} else if (!strncmp(line, "WARNING: Tracer may have discarded events", 41)) {
			++*maybe; /* a stream whose first packet counts losses before it */
		} else if (line[0] != '\n') {
			printf("  babeltrace2 said: %s", line);
			ok = false;
		}
	}
	if (err)
		fclose(err);
	unlink(errfile);
	return ok;
}

/* ...and no stream that may have lost events before its first packet. */
static bool read_bt2(const char *paths, uint64_t *events, uint64_t *lost)
{
	unsigned maybe;
	bool ok = read_bt2_maybe(paths, events, lost, &maybe);
	CHECK_EQ_U64(maybe, 0);
	return ok;
}

/* ---- helpers ---- */

static char root[] = "/tmp/test-apptrace-XXXXXX";

static const struct rec_clock test_clock = {.kind = 1 /* CLOCK_KIND_MONOTONIC */,
                                            .freq = 1000000000};

static struct apptrace *open_trace(const char *sub, bool overwrite, bool live)
{
	char dir[512], err[512];
	struct apptrace *a = NULL;
	struct apptrace_id id = {4242, "tester", NULL};
	struct rec_buffer_geometry g = {SUBBUF, NSUB, overwrite, live};

	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	if (!CHECK(apptrace_open(&a, dir, &id, &test_clock, &g, err, sizeof(err)) == 0)) {
		printf("  %s\n", err);
		exit(check_done());
	}
	CHECK(apptrace_events(a, DESC, strlen(DESC), err, sizeof(err)) == 0);
	return a;
}

static void add(struct apptrace *a, struct producer *p)
{
	char err[512];
	CHECK(apptrace_add_buffer(a, p->fd, p->tid, err, sizeof(err)) == 0);
}

static const char *path(const char *fmt, const char *a)
{
	static char buf[4][600];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), fmt, root, a);
	return buf[i];
}

static struct read_result read_one(const char *dir)
{
	return read_spoor(&dir, 1);
}

/* Read without damage, in time order, every thread's events numbered as they should be
 * (offset 0: from the thread's first event on). */
static void check_clean(const struct read_result *r)
{
	CHECK_EQ_U64(r->damaged, 0);
	CHECK(!r->order_bad);
	for (size_t i = 0; i < r->ns; i++) {
		CHECK(!r->s[i].bad);
		CHECK_EQ_U64(r->s[i].offset, 0);
	}
}

/* A chunk read alone: its events numbered on from the chunks before. */
static void check_chunk(const struct read_result *r, const uint64_t *before)
{
	CHECK_EQ_U64(r->damaged, 0);
	CHECK(!r->order_bad);
	for (size_t i = 0; i < r->ns; i++) {
		CHECK(!r->s[i].bad);
		CHECK_EQ_U64(r->s[i].offset, before[r->s[i].tid % 100]);
	}
}

/* ---- snapshots ---- */

static void snapshot_quiet(void)
{
	char err[512];
	uint64_t packets, overwritten;
	struct producer p1, p2;

	struct apptrace *a = open_trace("ow", true, false);
	const uint8_t *uuid = apptrace_uuid(a);
	producer_make(&p1, 101, true);
	producer_make(&p2, 102, true);
	add(a, &p1);
	add(a, &p2);
	/* thread 101 wraps its ring many times over, 102 never does */
	emit_n(&p1, uuid, 5000);
	emit_n(&p2, uuid, 700);

	struct apptrace_usage u;
	apptrace_usage(a, &u);
	CHECK_EQ_U64(u.buffers, 2);
	CHECK_EQ_U64(u.bytes_size, 2 * NSUB * SUBBUF);

	CHECK_CTX("first snapshot");
	CHECK(apptrace_snapshot(a, path("%s/%s", "snap1"), &packets, &overwritten, err,
	                        sizeof(err)) == 0);
	struct stat st;
	CHECK(stat(path("%s/%s/ust/pid/tester-4242/metadata", "snap1"), &st) == 0);
	struct read_result r = read_one(path("%s/%s", "snap1"));
	check_clean(&r);
	CHECK_EQ_U64(r.events + overwritten, 5700); /* recorded + overwritten = committed */
	CHECK_EQ_U64(r.lost, overwritten);
	CHECK(overwritten > 0);
	CHECK_EQ_U64(u.overwritten, overwritten); /* what list showed: the same count */
	CHECK_EQ_U64(r.ns, 2);
	for (size_t i = 0; i < r.ns; i++)
		CHECK_EQ_U64(r.s[i].last_num + 1, r.s[i].tid == 101 ? 5000 : 700);
	uint64_t bt_events, bt_lost;
	if (have_babeltrace2()) {
		CHECK(read_bt2(path("%s/%s", "snap1"), &bt_events, &bt_lost));
		CHECK_EQ_U64(bt_events, r.events);
		CHECK_EQ_U64(bt_lost, overwritten);
	}

	/* more events, a second snapshot: counted from the start again, and exact */
	CHECK_CTX("second snapshot");
	emit_n(&p1, uuid, 1000);
	CHECK(apptrace_snapshot(a, path("%s/%s", "snap2"), &packets, &overwritten, err,
	                        sizeof(err)) == 0);
	r = read_one(path("%s/%s", "snap2"));
	check_clean(&r);
	CHECK_EQ_U64(r.events + overwritten, 6700);
	CHECK_EQ_U64(r.lost, overwritten);
	/* a snapshot directory is never merged into */
	CHECK(apptrace_snapshot(a, path("%s/%s", "snap2"), &packets, &overwritten, err,
	                        sizeof(err)) == 0);
	CHECK(stat(path("%s/%s/ust/pid/tester-4242-1/metadata", "snap2"), &st) == 0);

	/* the session's own streams were left alone: its final drain is exact too */
	CHECK_CTX("final drain after snapshots");
	struct record_totals t = {0};
	apptrace_close(a, &t);
	r = read_one(path("%s/%s", "ow"));
	check_clean(&r);
	CHECK_EQ_U64(r.events + t.overwritten, 6700);
	CHECK_EQ_U64(t.damaged, 0);
	producer_free(&p1);
	producer_free(&p2);
}

/* A snapshot while the producer writes as fast as it can: the packets it reuses while they
 * are read are counted as overwritten; every snapshot reads cleanly and exactly. */
static void snapshot_under_load(void)
{
	char err[512], name[64];
	uint64_t packets, overwritten;
	struct producer p;
	pthread_t th;

	struct apptrace *a = open_trace("load", true, false);
	producer_make(&p, 201, true);
	add(a, &p);
	struct running run = {&p, apptrace_uuid(a)};
	emit_n(&p, run.uuid, 1); /* the ring exists once the thread has emitted */
	if (!CHECK(pthread_create(&th, NULL, emit_until_stopped, &run) == 0))
		return;
	bool bt2 = have_babeltrace2();
	for (int i = 0; i < 20; i++) {
		CHECK_CTX("snapshot %d under load", i);
		snprintf(name, sizeof(name), "load-snap%d", i);
		if (!CHECK(apptrace_snapshot(a, path("%s/%s", name), &packets, &overwritten, err,
		                             sizeof(err)) == 0))
			printf("  %s\n", err);
		struct read_result r = read_one(path("%s/%s", name));
		check_clean(&r);
		CHECK(r.events > 0);
		CHECK_EQ_U64(r.lost, overwritten);
		/* what the thread had committed by its last event taken */
		CHECK_EQ_U64(r.events + overwritten, r.s[0].last_num + 1);
		uint64_t bt_events, bt_lost;
		if (bt2 && i % 5 == 0) {
			CHECK(read_bt2(path("%s/%s", name), &bt_events, &bt_lost));
			CHECK_EQ_U64(bt_events, r.events);
			CHECK_EQ_U64(bt_lost, overwritten);
		}
	}
	atomic_store(&p.stop, true);
	pthread_join(th, NULL);
	CHECK_CTX("final drain after snapshots under load");
	struct record_totals t = {0};
	apptrace_close(a, &t);
	struct read_result r = read_one(path("%s/%s", "load"));
	check_clean(&r);
	CHECK_EQ_U64(r.events + t.overwritten, p.number);
	producer_free(&p);
}

/* ---- rotation ---- */

static void rename_chunk(const char *sub, int k)
{
	char from[600], to[600];
	snprintf(to, sizeof(to), "%s/%s/archives/chunk-%03d", root, sub, k);
	CHECK(mkdir(path("%s/%s/archives", sub), 0755) == 0 || errno == EEXIST);
	CHECK(mkdir(to, 0755) == 0);
	snprintf(from, sizeof(from), "%s/%s/ust", root, sub);
	strcat(to, "/ust");
	CHECK(rename(from, to) == 0);
}

static void rotate(struct apptrace *a, const char *sub, int k, struct record_totals *t)
{
	char err[512];
	rename_chunk(sub, k);
	if (!CHECK(apptrace_rotate(a, path("%s/%s", sub), t, err, sizeof(err)) == 0))
		printf("  %s\n", err);
}

/* Three rotations between batches, then the end: four chunks that each read alone, and
 * together hold every event once, in order. live: the packets in progress also went out
 * in slices before (spoor watch). */
static void rotation_batches(bool live)
{
	const char *sub = live ? "rot-live" : "rot";
	unsigned batches[] = {1000, 500, 700, 200};
	struct producer p1, p2;
	struct record_totals t = {0};

	CHECK_CTX("rotation%s", live ? ", live" : "");
	struct apptrace *a = open_trace(sub, false, live);
	const uint8_t *uuid = apptrace_uuid(a);
	producer_make(&p1, 301, false);
	producer_make(&p2, 302, false);
	add(a, &p1);
	add(a, &p2);
	for (int k = 0; k < 4; k++) {
		emit_n(&p1, uuid, batches[k]);
		emit_n(&p2, uuid, batches[k] / 10);
		apptrace_drain(a, false, &t);
		if (live)
			apptrace_flush_open(a, &t);
		if (k < 3)
			rotate(a, sub, k, &t);
		/* thread 302's packet, all of it in the chunk just closed, is closed with
		 * nothing more (as when a thread ends): no rest, and no packet number lost */
		if (k == 0)
			packet_close(&p2);
	}
	apptrace_close(a, &t);
	CHECK_EQ_U64(p1.dropped + p2.dropped, 0);
	const uint64_t total = 2400 + 240;

	uint64_t sum = 0, before[3] = {0};
	const char *chunks[4];
	char names[4][600];
	for (int k = 0; k < 4; k++) {
		CHECK_CTX("rotation%s, chunk %d alone", live ? ", live" : "", k);
		if (k < 3)
			snprintf(names[k], sizeof(names[k]), "%s/%s/archives/chunk-%03d", root, sub,
			         k);
		else
			snprintf(names[k], sizeof(names[k]), "%s/%s/ust", root, sub);
		chunks[k] = names[k];
		struct read_result r = read_one(names[k]);
		check_chunk(&r, before);
		CHECK_EQ_U64(r.events, batches[k] + batches[k] / 10);
		before[1] += batches[k];
		before[2] += batches[k] / 10;
		CHECK_EQ_U64(r.lost, 0);
		sum += r.events;
		uint64_t bt_events, bt_lost;
		if (have_babeltrace2()) {
			CHECK(read_bt2(names[k], &bt_events, &bt_lost));
			CHECK_EQ_U64(bt_events, r.events);
			CHECK_EQ_U64(bt_lost, 0);
			CHECK_EQ_U64(bt2_packets_lost, 0);
		}
	}
	CHECK_CTX("rotation%s, the chunks together", live ? ", live" : "");
	CHECK_EQ_U64(sum, total);
	struct read_result all = read_spoor(chunks, 4);
	check_clean(&all);
	CHECK_EQ_U64(all.events, total);
	/* the folder of chunks, as `spoor` reads it, and babeltrace2 on the same */
	all = read_one(path("%s/%s", sub));
	check_clean(&all);
	CHECK_EQ_U64(all.events, total);
	/* babeltrace2 given all the chunks merges a thread's streams into one, ordering their
	 * packets by their beginnings */
	if (have_babeltrace2()) {
		char list[2600];
		uint64_t bt_events, bt_lost;
		snprintf(list, sizeof(list), "%s %s %s %s", names[0], names[1], names[2], names[3]);
		CHECK(read_bt2(list, &bt_events, &bt_lost));
		CHECK_EQ_U64(bt_events, total);
		CHECK_EQ_U64(bt_lost, 0);
		CHECK_EQ_U64(bt2_packets_lost, 0);
	}
	producer_free(&p1);
	producer_free(&p2);
}

/* The same events in one run, without rotation: the count the chunks add up to. */
static uint64_t single_run(void)
{
	unsigned batches[] = {1000, 500, 700, 200};
	struct producer p1, p2;
	struct record_totals t = {0};

	struct apptrace *a = open_trace("single", false, false);
	producer_make(&p1, 301, false);
	producer_make(&p2, 302, false);
	add(a, &p1);
	add(a, &p2);
	for (int k = 0; k < 4; k++) {
		emit_n(&p1, apptrace_uuid(a), batches[k]);
		emit_n(&p2, apptrace_uuid(a), batches[k] / 10);
		apptrace_drain(a, false, &t);
	}
	apptrace_close(a, &t);
	struct read_result r = read_one(path("%s/%s", "single"));
	check_clean(&r);
	producer_free(&p1);
	producer_free(&p2);
	return r.events;
}

/* Rotations while a thread emits as fast as it can into a ring it fills (its drops are
 * counted): across the chunks, each event once, in order, and numbers + drops exact. */
static void rotation_under_load(void)
{
	struct producer p;
	struct record_totals t = {0};
	pthread_t th;
	const char *sub = "rot-load";

	struct apptrace *a = open_trace(sub, false, false);
	producer_make(&p, 401, false);
	add(a, &p);
	struct running run = {&p, apptrace_uuid(a)};
	emit_n(&p, run.uuid, 1);
	if (!CHECK(pthread_create(&th, NULL, emit_until_stopped, &run) == 0))
		return;
	/* each chunk: until another 20000 events are in the ring (not counting drops) */
	for (int k = 0; k < 4; k++) {
		uint64_t until = __atomic_load_n(&p.committed, __ATOMIC_RELAXED) + 20000;
		while (__atomic_load_n(&p.committed, __ATOMIC_RELAXED) < until)
			apptrace_drain(a, false, &t);
		if (k < 3)
			rotate(a, sub, k, &t);
	}
	atomic_store(&p.stop, true);
	pthread_join(th, NULL);
	apptrace_close(a, &t);

	CHECK_CTX("rotation under load");
	char names[4][600];
	const char *chunks[4];
	uint64_t sum = 0, before[2] = {0};
	for (int k = 0; k < 4; k++) {
		if (k < 3)
			snprintf(names[k], sizeof(names[k]), "%s/%s/archives/chunk-%03d", root, sub,
			         k);
		else
			snprintf(names[k], sizeof(names[k]), "%s/%s/ust", root, sub);
		chunks[k] = names[k];
		struct read_result r = read_one(names[k]);
		CHECK_CTX("rotation under load, chunk %d alone", k);
		check_chunk(&r, before);
		before[1] += r.events;
		sum += r.events;
		uint64_t bt_events, bt_lost;
		unsigned maybe;
		if (have_babeltrace2()) {
			/* a chunk's first packet carries the losses of the chunks before (as
			 * LTTng's): babeltrace2 says events may have been lost before it */
			CHECK(read_bt2_maybe(names[k], &bt_events, &bt_lost, &maybe));
			CHECK_EQ_U64(bt_events, r.events);
			CHECK_EQ_U64(bt2_packets_lost, 0);
			CHECK(k > 0 ? maybe <= 1 : maybe == 0);
		}
	}
	CHECK_CTX("rotation under load, the chunks together");
	struct read_result all = read_spoor(chunks, 4);
	check_clean(&all);
	CHECK_EQ_U64(all.events, sum);
	CHECK_EQ_U64(all.events + all.lost, p.number);
	CHECK_EQ_U64(all.lost, p.dropped);
	if (have_babeltrace2()) { /* the chunks merged: each loss reported once */
		char list[2600];
		uint64_t bt_events, bt_lost;
		snprintf(list, sizeof(list), "%s %s %s %s", names[0], names[1], names[2], names[3]);
		CHECK(read_bt2(list, &bt_events, &bt_lost));
		CHECK_EQ_U64(bt_events, sum);
		CHECK_EQ_U64(bt_lost, p.dropped);
		CHECK_EQ_U64(bt2_packets_lost, 0);
	}
	producer_free(&p);
}

/* ---- warnings, usage ---- */

struct heard {
	unsigned n;
	char last[512];
};

static void hear(void *arg, const char *text)
{
	struct heard *h = arg;
	h->n++;
	snprintf(h->last, sizeof(h->last), "%s", text);
}

/* A daemon's log gets the writer's warnings, and `list` the use of each buffer. */
static void log_and_usage(void)
{
	struct producer p;
	struct record_totals t = {0};
	struct heard heard = {0};
	struct apptrace_usage u;
	int tid;

	CHECK_CTX("warnings and usage");
	struct apptrace *a = open_trace("log", false, false);
	apptrace_set_log(a, &(struct rec_log){hear, &heard});
	producer_make(&p, 501, false);
	add(a, &p);
	emit_n(&p, apptrace_uuid(a), 3 * 333 + 10); /* three packets closed, one open */
	CHECK_EQ_U64(apptrace_buffers(a), 1);
	apptrace_buffer_usage(a, 0, &tid, &u);
	CHECK_EQ_U64(tid, 501);
	CHECK_EQ_U64(u.bytes_size, NSUB * SUBBUF);
	CHECK_EQ_U64(u.bytes_used, 3 * SUBBUF + 96 + 10 * EVENT_BYTES);
	CHECK_EQ_U64(u.discarded, 0);
	apptrace_drain(a, false, &t);
	apptrace_usage(a, &u);
	CHECK_EQ_U64(u.bytes_used, 96 + 10 * EVENT_BYTES);
	/* the ring filled (the open packet's 323 places left, three packets), one more */
	emit_n(&p, apptrace_uuid(a), 323 + 3 * 333 + 1);
	apptrace_usage(a, &u);
	CHECK_EQ_U64(u.discarded, 1);
	/* a producer that lies */
	atomic_store(&p.h->produced, 1);
	apptrace_drain(a, false, &t);
	CHECK_EQ_U64(heard.n, 1);
	CHECK(strstr(heard.last, "stream_501: produced count went backwards") != NULL);
	apptrace_close(a, &t);
	producer_free(&p);
}

/* ---- untrusted programs ---- */

/* A ring its program could shrink would kill the reader (a root daemon) with SIGBUS at its
 * next read: refused. The sealed ones cannot shrink, and are read on. */
static void shrinkable_ring(void)
{
	struct producer bad, good;
	struct record_totals t = {0};
	char err[512];

	CHECK_CTX("a ring that can shrink");
	struct apptrace *a = open_trace("shrink", false, false);
	producer_make_sealed(&bad, 701, false, false);
	producer_make(&good, 702, false);
	CHECK(apptrace_add_buffer(a, bad.fd, bad.tid, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "tester (pid 4242): ring buffer of thread 701 refused") != NULL);
	CHECK(strstr(err, "sealed") != NULL);
	add(a, &good);
	emit_n(&bad, apptrace_uuid(a), 500);
	emit_n(&good, apptrace_uuid(a), 500);
	CHECK(ftruncate(bad.fd, 0) == 0);
	CHECK(ftruncate(good.fd, 0) == -1 && errno == EPERM);
	apptrace_close(a, &t);
	struct read_result r = read_one(path("%s/%s/ust", "shrink"));
	check_clean(&r);
	CHECK_EQ_U64(r.events, 500);
	producer_free(&good);
	close(bad.fd); /* its mapping is beyond the end of the file now */
}

/* A thread id used again in one process (recycled by a long-running service, or sent twice
 * by a program) gets a stream of its own, stream_TID-1: the earlier one is kept whole. */
static void tid_used_again(void)
{
	struct producer p1, p2;
	struct record_totals t = {0};
	struct stat st;

	CHECK_CTX("a thread id used again");
	struct apptrace *a = open_trace("tid", false, false);
	producer_make(&p1, 801, false);
	add(a, &p1);
	emit_n(&p1, apptrace_uuid(a), 600);
	apptrace_drain(a, false, &t);
	producer_make(&p2, 801, false);
	add(a, &p2);
	emit_n(&p2, apptrace_uuid(a), 200);
	emit_n(&p1, apptrace_uuid(a), 100);
	apptrace_close(a, &t);
	CHECK(stat(path("%s/%s/ust/pid/tester-4242/stream_801", "tid"), &st) == 0);
	CHECK(stat(path("%s/%s/ust/pid/tester-4242/stream_801-1", "tid"), &st) == 0);
	struct read_result r = read_one(path("%s/%s/ust", "tid"));
	CHECK_EQ_U64(r.damaged, 0);
	CHECK_EQ_U64(r.events, 900);
	producer_free(&p1);
	producer_free(&p2);
}

int main(void)
{
	if (!CHECK(mkdtemp(root)))
		return check_done();
	snapshot_quiet();
	snapshot_under_load();
	rotation_batches(false);
	rotation_batches(true);
	CHECK_CTX("a single run");
	CHECK_EQ_U64(single_run(), 2640);
	rotation_under_load();
	log_and_usage();
	shrinkable_ring();
	tid_used_again();
	if (!check_failed) {
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		CHECK(system(cmd) == 0);
	} else {
		printf("traces kept in %s\n", root);
	}
	return check_done();
}
