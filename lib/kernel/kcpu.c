/* SPDX-License-Identifier: MIT */
/* kcpu.c: one CPU's trace_pipe_raw into one CTF stream (see kcpu.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "kcpu.h"

#define PIPE_WANT (1u << 20)

int kcpu_open(struct kcpu *c, const char *inst_dir, int cpu, size_t subbuf, struct kbuffer *kb,
              char *err, size_t errlen)
{
	char path[900];
	int rc;
	*c = (struct kcpu){.cpu = cpu,
	                   .raw_fd = -1,
	                   .pipe_fd = {-1, -1},
	                   .subbuf = subbuf,
	                   .kb = kb,
	                   .pkt = {.fd = -1}};
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", inst_dir, cpu);
	c->raw_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->raw_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (pipe2(c->pipe_fd, O_CLOEXEC | O_NONBLOCK) == 0) {
		int got = fcntl(c->pipe_fd[1], F_SETPIPE_SZ, PIPE_WANT);
		if (got < 0)
			got = fcntl(c->pipe_fd[1], F_GETPIPE_SZ);
		c->pipe_cap = got > 0 ? (size_t) got : 0;
	}
	if (c->pipe_cap < subbuf) {
		c->no_splice = true;
		c->pipe_cap = subbuf;
	}
	c->pipe_cap -= c->pipe_cap % subbuf;
	c->pages = malloc(c->pipe_cap);
	if (!c->pages) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* A libc_* event's paths wait; a path-taking call's entry takes them (kpaths.h). */
static const struct kpath_slot *pass_paths(struct kcpu *c, const struct kclasses *cs,
                                           const struct kclass *k, const uint8_t *rec, size_t size)
{
	int32_t tid;
	if (!cs->pid_off || size < cs->pid_off + 4u)
		return NULL;
	memcpy(&tid, rec + cs->pid_off, 4);
	if (!c->paths) {
		if (!(c->paths = malloc(sizeof(*c->paths))))
			return NULL;
		c->paths->fn = -1;
	}
	if (k->path_call >= 0)
		return kpaths_take(c->paths, k->path_call, tid);
	const char *s[2];
	size_t len[2];
	kclass_strings(k, rec, size, s, len);
	kpaths_capture(c->paths, k->path_fn, tid, s, len);
	return NULL;
}

/* The LTTng layout's fork hooks (kfork.h): task_newtask noted, then converted as usual;
 * sched_process_fork written here. True when the record is written (or lost) here. */
static bool pass_fork(struct kcpu *c, const struct kclasses *cs, const struct kclass *k,
                      const uint8_t *rec, size_t size, uint64_t ts)
{
	int32_t running = 0;
	if (cs->pid_off && size >= cs->pid_off + 4u)
		memcpy(&running, rec + cs->pid_off, 4);
	if (k->hook & KHOOK_NEWTASK) {
		int32_t tid;
		uint64_t flags;
		if (kclass_newtask(k, rec, size, &tid, &flags))
			kfork_newtask(&c->newtask, c->fork, running, tid, flags);
		return false;
	}
	struct kfork_task parent, child;
	if (!kclass_fork_tasks(k, rec, size, &parent, &child))
		c->malformed++;
	else if (kfork_emit(&c->pkt, cs, k->desc.id, ts, running, &c->newtask, c->fork, &parent,
	                    &child))
		c->pkt.werr ? c->unwritten++ : c->malformed++;
	else
		c->records++;
	return true;
}

void kcpu_subbuffer(struct kcpu *c, const struct kclasses *cs, void *page)
{
	unsigned long long ts;

	if (kbuffer_load_subbuffer(c->kb, page) < 0) {
		c->malformed++;
		return;
	}
	int missed = kbuffer_missed_events(c->kb);
	if (missed) {
		/* -1: some were lost, the kernel did not count them: at least one */
		uint64_t n = missed > 0 ? (uint64_t) missed : 1;
		if (missed < 0)
			c->missed_unknown++;
		c->missed += n;
		kpacket_add_discarded(&c->pkt, n);
	}
	for (void *rec = kbuffer_read_event(c->kb, &ts); rec;
	     rec = kbuffer_next_event(c->kb, &ts)) {
		if (c->pkt.werr) {
			c->unwritten++; /* the stream's file ended at a write error */
			continue;
		}
		int size = kbuffer_event_size(c->kb);
		const struct kclass *k = size > 0 ? kclass_of(cs, rec, (size_t) size) : NULL;
		if (!k) {
			c->unknown++;
			continue;
		}
		if (kclass_is_own(cs, k, rec, (size_t) size)) {
			c->own++;
			continue;
		}
		const struct kpath_slot *paths = NULL;
		if (__builtin_expect(k->hook, 0)) {
			if ((k->hook & (KHOOK_NEWTASK | KHOOK_FORK)) &&
			    pass_fork(c, cs, k, rec, (size_t) size, ts))
				continue;
			if (k->hook & KHOOK_PATHS)
				paths = pass_paths(c, cs, k, rec, (size_t) size);
		}
		size_t room = (size_t) size + k->extra;
		uint8_t *body = kpacket_begin_event(&c->pkt, k->desc.id, ts, room);
		if (!body) {
			if (c->pkt.werr)
				c->unwritten++;
			else
				c->malformed++; /* larger than a packet */
			continue;
		}
		long n = kclass_convert(k, rec, (size_t) size, body, room, paths);
		if (n < 0) {
			c->malformed++;
			continue;
		}
		kpacket_end_event(&c->pkt, (size_t) n);
		c->records++;
	}
}

static int read_full(int fd, uint8_t *b, size_t n)
{
	while (n) {
		ssize_t r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t) r;
	}
	return 0;
}

/* Full sub-buffers, many at a time. False when splice is not usable here. */
static bool drain_spliced(struct kcpu *c, const struct kclasses *cs)
{
	for (;;) {
		ssize_t n = splice(c->raw_fd, NULL, c->pipe_fd[1], NULL, c->pipe_cap,
		                   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			c->no_splice = true;
			return false;
		}
		if (n <= 0)
			return true;
		if (read_full(c->pipe_fd[0], c->pages, (size_t) n)) {
			c->no_splice = true;
			return false;
		}
		for (size_t off = 0; off + c->subbuf <= (size_t) n; off += c->subbuf)
			kcpu_subbuffer(c, cs, c->pages + off);
	}
}

/* A sub-buffer at a time, partial ones too; `once`: one read only. */
static void drain_read(struct kcpu *c, const struct kclasses *cs, bool once)
{
	for (bool more = true; more; more = !once) {
		ssize_t n = read(c->raw_fd, c->pages, c->subbuf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		if ((size_t) n < c->subbuf)
			memset(c->pages + n, 0, c->subbuf - (size_t) n);
		kcpu_subbuffer(c, cs, c->pages);
	}
}

void kcpu_drain(struct kcpu *c, const struct kclasses *cs, bool final)
{
	int werr = c->pkt.werr;
	if (c->no_splice || !drain_spliced(c, cs) || final)
		drain_read(c, cs, false);
	kpacket_flush(&c->pkt);
	if (c->pkt.werr && !werr)
		fprintf(stderr,
		        "spoor record: error: %s: %s; this stream ends at its last whole packet\n",
		        c->pkt.path, strerror(-c->pkt.werr));
}

void kcpu_flush(struct kcpu *c, const struct kclasses *cs)
{
	if (!c->no_splice)
		drain_spliced(c, cs);
	/* One read, not until the buffer is empty: while tracing is on, a reader tracing its
	 * own read(2) calls would find a new partial page after each. */
	drain_read(c, cs, true);
	kpacket_flush(&c->pkt);
}

int kcpu_close(struct kcpu *c)
{
	int rc = kpacket_close(&c->pkt);
	if (c->raw_fd >= 0)
		close(c->raw_fd);
	for (int i = 0; i < 2; i++)
		if (c->pipe_fd[i] >= 0)
			close(c->pipe_fd[i]);
	if (c->kb)
		kbuffer_free(c->kb);
	free(c->pages);
	free(c->paths);
	c->paths = NULL;
	c->kb = NULL;
	c->pages = NULL;
	c->raw_fd = c->pipe_fd[0] = c->pipe_fd[1] = -1;
	return rc;
}
