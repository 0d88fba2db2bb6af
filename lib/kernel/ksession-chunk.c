/* SPDX-License-Identifier: MIT */
/*
 * ksession-chunk.c: a kernel session's trace finished and continued in a new directory
 * (rotation), and a flight recorder's rings written out as a trace of their own
 * (snapshot). Both begin a trace elsewhere while the instance keeps tracing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "instance.h"
#include "kmeta.h"
#include "ksession-int.h"
#include "partitions.h"

/* DIR for a new trace: made, or there already and empty (never mixed with another). */
static int make_dir(const char *dir, bool fresh, char *err, size_t errlen)
{
	if (!mkdir(dir, 0755))
		return 0;
	int e = errno;
	if (e == EEXIST) {
		DIR *d = opendir(dir);
		bool empty = d != NULL;
		for (struct dirent *de; d && (de = readdir(d));)
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = false;
		if (d)
			closedir(d);
		if (empty || (!fresh && d))
			return 0;
		if (d)
			e = ENOTEMPTY;
		else
			e = errno;
	}
	snprintf(err, errlen,
	         e == ENOTEMPTY ? "%s is not empty: a new kernel trace needs a directory of its own"
	                        : "%s: %s",
	         dir, strerror(e));
	return e == ENOTEMPTY ? -EEXIST : -e;
}

static void unlink_in(const char *dir, const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

void ksession_remove_files(struct ksession *k, const char *dir)
{
	char name[32];
	krights_caller(&k->caller);
	for (int i = 0; i < k->ncpus; i++) {
		snprintf(name, sizeof(name), "cpu%d", k->cpus[i].cpu);
		unlink_in(dir, name);
	}
	unlink_in(dir, "statedump");
	unlink_in(dir, "metadata");
	unlink_in(dir, PARTITIONS_FILE);
	rmdir(dir);
	krights_own();
}

/* Close and remove what ksession_open_outputs made. */
static void discard_outputs(struct ksession *k, struct ksession_outputs *o, const char *dir)
{
	for (int i = 0; o->cpu && i < k->ncpus; i++)
		kpacket_close(&o->cpu[i]);
	free(o->cpu);
	o->cpu = NULL;
	kpacket_close(&o->dump);
	if (o->meta_fd >= 0)
		close(o->meta_fd);
	o->meta_fd = -1;
	ksession_remove_files(k, dir);
}

static int open_stream(struct kpacket *p, const char *dir, const char *name, const uint8_t *uuid,
                       uint64_t id, uint32_t cpu, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int rc = kpacket_open(p, path, uuid, id, cpu, KCPU_PACKET_CAP);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

static int make_outputs(struct ksession *k, const char *dir, bool fresh, const uint8_t uuid[16],
                        struct ksession_outputs *o, char *err, size_t errlen)
{
	*o = (struct ksession_outputs){.meta_fd = -1, .dump.fd = -1};
	int rc = make_dir(dir, fresh, err, errlen);
	if (rc)
		return rc;
	o->cpu = calloc((size_t) k->ncpus + 1, sizeof(*o->cpu));
	if (!o->cpu) {
		rmdir(dir);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < k->ncpus; i++)
		o->cpu[i].fd = -1;
	struct kmeta_origin origin = {k->name, k->created};
	rc = kmeta_write(dir, &origin, &k->classes, uuid, &k->clock, &o->meta_fd, err, errlen);
	if (!rc)
		partitions_write(dir); /* device names for spoor disk */
	for (int i = 0; !rc && i < k->ncpus; i++) {
		char name[32];
		int cpu = k->cpus[i].cpu;
		snprintf(name, sizeof(name), "cpu%d", cpu);
		rc = open_stream(&o->cpu[i], dir, name, uuid, (uint64_t) cpu, (uint32_t) cpu, err,
		                 errlen);
		o->cpu[i].step = ksession_ns_ticks(k);
	}
	if (!rc)
		rc = open_stream(&o->dump, dir, "statedump", uuid, KSESSION_MAX_CPUS, 0, err,
		                 errlen);
	o->dump.step = ksession_ns_ticks(k);
	o->dump.grow = true; /* a dump is one packet (kpacket_begin_event) */
	return rc;
}

int ksession_open_outputs(struct ksession *k, const char *dir, bool fresh, const uint8_t uuid[16],
                          struct ksession_outputs *o, char *err, size_t errlen)
{
	krights_caller(&k->caller);
	int rc = make_outputs(k, dir, fresh, uuid, o, err, errlen);
	krights_own();
	if (rc && o->cpu)
		discard_outputs(k, o, dir);
	return rc;
}

void ksession_adopt_outputs(struct ksession *k, struct ksession_outputs *o)
{
	for (int i = 0; i < k->ncpus; i++)
		k->cpus[i].pkt = o->cpu[i];
	free(o->cpu);
	o->cpu = NULL;
	k->dump = o->dump;
	k->meta_fd = o->meta_fd;
}

char *ksession_kernel_dir(const char *outdir)
{
	size_t n = strlen(outdir) + 8;
	char *dir = malloc(n);
	if (dir)
		snprintf(dir, n, "%s/kernel", outdir);
	return dir;
}

static void keep_error(struct kernel_totals *t, int rc)
{
	if (rc && !t->write_error)
		t->write_error = rc;
}

int ksession_rotate(struct ksession *k, const char *newoutdir, char *err, size_t errlen)
{
	KRIGHTS_OWN(caller);
	k->caller = caller;
	if (k->stopped || k->overwrite) {
		snprintf(err, errlen,
		         k->stopped ? "kernel tracing of this session has ended"
		                    : "a flight recorder (overwrite) session does not rotate: its "
		                      "rings are written out by snapshots");
		return k->stopped ? -EINVAL : -ENOTSUP;
	}
	char *dir = ksession_kernel_dir(newoutdir);
	struct ksession_outputs o;
	if (!dir) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int rc = ksession_open_outputs(k, dir, true, k->uuid, &o, err, errlen);
	if (rc) {
		free(dir);
		return rc;
	}
	/* what is read from here on belongs to the new trace: nothing twice, nothing lost */
	uint64_t dump_ts = rec_clock_now(&k->clock);
	for (int i = 0; i < k->ncpus; i++) {
		struct kcpu *c = &k->cpus[i];
		if (!k->paused)
			kcpu_flush(c, &k->classes);
		ksession_end_stream(k, c, true, 0, &k->done, NULL, NULL);
		/* one stream across chunks, as LTTng's rotation: readers that merge the chunks
		 * of one trace uuid see its packets and losses continue */
		o.cpu[i].seq = c->pkt.seq;
		o.cpu[i].prev_begin = c->pkt.prev_begin;
		o.cpu[i].discarded = o.cpu[i].discarded_written = c->pkt.discarded;
		/* and its first packet begins where the last one ended: babeltrace2 orders the
		 * merged chunks' packets by their begin alone, so two equal begins (a packet of
		 * one time cut by a loss) could swap */
		kpacket_begin_at(&o.cpu[i], c->pkt.last_ts);
	}
	/* The dump's stream, too, goes on where it ended, with its packet numbers: up to a
	 * nanosecond before the new chunk's dump, whose packet then begins before the empty
	 * one that follows it (babeltrace2 orders the chunks' packets by their begin in ns:
	 * two of one begin could swap). */
	uint64_t cut = dump_ts - ksession_ns_ticks(k);
	keep_error(&k->done, ksession_close_dump(&k->dump, cut));
	o.dump.seq = k->dump.seq;
	o.dump.prev_begin = k->dump.prev_begin;
	k->done.bytes += k->dump.bytes;
	if (close(k->meta_fd))
		keep_error(&k->done, -errno);
	kpacket_begin_at(&o.dump, cut);
	ksession_adopt_outputs(k, &o);
	free(k->dir);
	k->dir = dir;
	/* names for the new trace read alone (stamped before its first events were read) */
	k->dumped += ksession_statedump(k, &k->dump, dump_ts);
	return 0;
}

/* Where the kernel has a snapshot buffer: read it whole (tracing does not write there). */
static void read_snapshot_buffer(struct ksession *k, struct kcpu *c)
{
	char path[900];
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/snapshot_raw", kinstance_dir(k->inst),
	         c->cpu);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	int live = c->raw_fd;
	c->raw_fd = fd;
	kcpu_drain(c, &k->classes, true);
	c->raw_fd = live;
	close(fd);
}

int ksession_snapshot(struct ksession *k, const char *snapdir, struct kernel_totals *t, char *err,
                      size_t errlen)
{
	KRIGHTS_OWN(caller);
	k->caller = caller;
	*t = (struct kernel_totals){0};
	if (k->stopped || !k->overwrite) {
		snprintf(err, errlen,
		         k->stopped ? "kernel tracing of this session has ended"
		                    : "only a flight recorder (overwrite) session has snapshots: "
		                      "this one writes its events as they come");
		return -EINVAL;
	}
	char *dir = ksession_kernel_dir(snapdir);
	struct ksession_outputs o;
	if (!dir) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* A trace of its own: readers that merge the chunks of one uuid (babeltrace2) would
	 * take its streams, which begin their counts again, for the session's. */
	uint8_t uuid[16];
	int rc = ksession_new_uuid(uuid);
	if (rc)
		snprintf(err, errlen, "cannot make a trace uuid for the snapshot");
	else
		rc = ksession_open_outputs(k, dir, true, uuid, &o, err, errlen);
	/* the kernel's snapshot: the ring swapped with a spare one, in one step for all CPUs */
	bool swap = kinstance_has(k->inst, "snapshot");
	if (!rc && swap && (rc = kinstance_write(k->inst, "snapshot", "1", false, err, errlen)))
		discard_outputs(k, &o, dir);
	free(dir);
	if (rc)
		return rc;
	/* Every CPU read into its stream first, then every stream ended at the snapshot's time,
	 * together, as LTTng's: after the swap every event the snapshot buffer holds is older;
	 * a ring read while tracing goes on may hold later ones, and the last of them is then
	 * that time (each stream ending at its own, babeltrace 1's and lttng-analyses' range,
	 * where all the streams are, left out a CPU's last events). */
	uint64_t first = UINT64_MAX, last = rec_clock_now(&k->clock);
	uint64_t missed[KSESSION_MAX_CPUS]; /* each CPU's count before the read */
	for (int i = 0; i < k->ncpus; i++) {
		struct kcpu *c = &k->cpus[i];
		struct kpacket live = c->pkt;
		uint64_t malformed = c->malformed, unknown = c->unknown, unwritten = c->unwritten;
		missed[i] = c->missed;
		c->pkt = o.cpu[i];
		if (swap)
			read_snapshot_buffer(k, c);
		else if (k->paused)
			kcpu_drain(c, &k->classes, true);
		else
			kcpu_flush(c, &k->classes);
		if (c->pkt.events_written && c->pkt.first_ts < first)
			first = c->pkt.first_ts;
		last = c->pkt.last_ts > last ? c->pkt.last_ts : last;
		t->malformed += c->malformed - malformed;
		t->unknown += c->unknown - unknown;
		t->unwritten += c->unwritten - unwritten;
		o.cpu[i] = c->pkt;
		c->pkt = live;
	}
	for (int i = 0; i < k->ncpus; i++) {
		struct kcpu *c = &k->cpus[i];
		struct kpacket live = c->pkt;
		uint64_t overrun, dropped, before = missed[i];
		c->pkt = o.cpu[i];
		/* the stats count the live ring: a snapshot buffer's losses are its marks only */
		ksession_end_stream(k, c, !swap, last, t, &overrun, &dropped);
		uint64_t lost = c->missed - before;
		if (swap)
			c->missed = before; /* the live ring's counters stay the reference */
		t->lost += lost;
		if (c->cpu < KERNEL_TOTALS_CPUS)
			t->lost_by_cpu[c->cpu] = lost;
		t->overrun += overrun;
		t->dropped += dropped;
		c->pkt = live;
	}
	free(o.cpu);
	t->cpus = (unsigned) k->ncpus;
	/* The threads alive now, stamped before the snapshot's first event so that analyses
	 * name its threads from the start (those that ended before are named only by the
	 * fork, exec or rename events the snapshot holds). */
	uint64_t dump_ts = first != UINT64_MAX && first ? first - 1 : rec_clock_now(&k->clock);
	t->statedump = ksession_statedump(k, &o.dump, dump_ts);
	keep_error(t, ksession_close_dump(&o.dump, last));
	t->bytes += o.dump.bytes;
	if (close(o.meta_fd))
		keep_error(t, -errno);
	if (t->write_error)
		snprintf(err, errlen, "snapshot in %s/kernel: %s", snapdir,
		         strerror(-t->write_error));
	return t->write_error;
}
