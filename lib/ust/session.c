/* SPDX-License-Identifier: MIT */
/*
 * session.c: the traced program's link to its session: connect (SPOOR_SESSION), register
 * event descriptors, hand over each thread's ring buffer, and start over in a forked child.
 *
 * Nothing here runs on the emit path except through buffer.c's slow path (a thread's first
 * event). It never calls exit() and never blocks the program for long: if the session is
 * gone, tracing is simply off.
 */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "proto.h"
#include "ust.h"

struct ust_state ust;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct spoor_event_desc **events; /* registered, by id */
static size_t nevents, cap_events;

static int send_msg(const void *msg, size_t len, int fd_to_pass)
{
	struct iovec iov = {(void *) msg, len};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};

	if (fd_to_pass >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd_to_pass, sizeof(int));
	}
	ssize_t n;
	do
		n = sendmsg(ust.sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t) len ? 0 : -1;
}

static bool matches(const struct spoor_event_desc *d)
{
	char full[256];

	if (!ust.patterns[0])
		return true;
	snprintf(full, sizeof(full), "%s:%s", d->provider, d->name);
	for (const char *p = ust.patterns; *p && p < ust.patterns + sizeof(ust.patterns);
	     p += strlen(p) + 1)
		if (!fnmatch(p, full, 0))
			return true;
	return false;
}

static void describe(FILE *out, const struct spoor_event_desc *d)
{
	fprintf(out, "event %u %s %s %u %u\n", d->id, d->provider, d->name, d->max_align,
	        d->nfields);
	for (uint32_t f = 0; f < d->nfields; f++) {
		const struct spoor_field_desc *fd = &d->fields[f];
		fprintf(out, "field %s %u %u %u %u %u %u %u %u\n", fd->name, fd->kind, fd->size,
		        fd->is_signed, fd->base, fd->big_endian, fd->text, fd->length,
		        fd->nentries);
		for (uint32_t e = 0; e < fd->nentries; e++) {
			const struct spoor_enum_entry *en = &fd->entries[e];
			fprintf(out, "enum %lld %lld ", (long long) en->lo, (long long) en->hi);
			for (const char *l = en->label ? en->label : ""; *l; l++)
				fputc(*l == '\n' ? ' ' : *l, out);
			fputc('\n', out);
		}
	}
}

/* Describe events [from, nevents) to the session. Called with the lock held. */
static int send_events(size_t from)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return -1;
	struct proto_head h = {PROTO_MAGIC, PROTO_VERSION, MSG_EVENTS, 0};
	fwrite(&h, sizeof(h), 1, out);
	for (size_t i = from; i < nevents; i++)
		if (events[i])
			describe(out, events[i]);
	if (fclose(out) || !text) {
		free(text);
		return -1;
	}
	int rc = 0;
	if (len > sizeof(h)) {
		((struct proto_head *) text)->length = (uint32_t) len;
		rc = len > PROTO_MAX_MSG ? -1 : send_msg(text, len, -1);
	}
	free(text);
	return rc;
}

static void set_enabled(size_t from)
{
	for (size_t i = from; i < nevents; i++)
		if (events[i])
			__atomic_store_n(
			    &events[i]->enabled,
			    (events[i]->enabled & ~SPOOR_ENABLED_RECORD) |
			        (ust.connected && matches(events[i]) ? SPOOR_ENABLED_RECORD : 0),
			    __ATOMIC_RELAXED);
}

/* Connect to SPOOR_SESSION and say hello. Lock held. */
static void connect_session(void)
{
	const char *path = getenv("SPOOR_SESSION");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	ust.connected = false;
	if (!path || !*path || strlen(path) >= sizeof(sa.sun_path))
		return;
	strcpy(sa.sun_path, path);
	ust.sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (ust.sock < 0)
		return;
	if (connect(ust.sock, (struct sockaddr *) &sa, sizeof(sa)) < 0)
		goto fail;
	struct proto_hello hello = {{PROTO_MAGIC, PROTO_VERSION, MSG_HELLO, sizeof(hello)},
	                            getpid(),
	                            getppid(),
	                            getuid(),
	                            ""};
	prctl(PR_GET_NAME, hello.procname);
	if (send_msg(&hello, sizeof(hello), -1))
		goto fail;
	struct proto_hello_reply reply;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {&reply, sizeof(reply)};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = ctl.buf,
	                    .msg_controllen = sizeof(ctl.buf)};
	ssize_t n;
	do
		n = recvmsg(ust.sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	if (n != sizeof(reply) || reply.h.magic != PROTO_MAGIC || reply.h.type != MSG_HELLO_REPLY ||
	    !c || c->cmsg_type != SCM_RIGHTS)
		goto fail;
	memcpy(&ust.efd, CMSG_DATA(c), sizeof(int));
	ust.clock_kind = reply.clock_kind;
	ust.mode = reply.mode;
	ust.num_subbufs = reply.num_subbufs;
	ust.subbuf_size = reply.subbuf_size;
	memcpy(ust.uuid, reply.uuid, 16);
	memcpy(ust.patterns, reply.patterns, sizeof(ust.patterns));
	ust.patterns[sizeof(ust.patterns) - 1] = '\0';
	ust.pid = getpid();
	ust.connected = true;
	if (send_events(0))
		goto fail;
	set_enabled(0);
	return;
fail:
	close(ust.sock);
	ust.sock = -1;
	ust.connected = false;
	set_enabled(0);
}

int ust_send_buffer(int memfd, int tid, uint64_t size)
{
	struct proto_buffer b = {{PROTO_MAGIC, PROTO_VERSION, MSG_BUFFER, sizeof(b)}, tid, 0, size};
	pthread_mutex_lock(&lock);
	int rc = ust.connected ? send_msg(&b, sizeof(b), memfd) : -1;
	pthread_mutex_unlock(&lock);
	return rc;
}

void spoor_register_events(struct spoor_event_desc *const *evs, size_t n)
{
	pthread_mutex_lock(&lock);
	size_t from = nevents;
	for (size_t i = 0; i < n; i++) {
		bool known = false;
		for (size_t k = 0; k < nevents && !known; k++)
			known = events[k] == evs[i];
		if (known)
			continue;
		if (nevents == cap_events) {
			size_t cap = cap_events ? 2 * cap_events : 64;
			struct spoor_event_desc **bigger = realloc(events, cap * sizeof(*bigger));
			if (!bigger)
				break;
			events = bigger;
			cap_events = cap;
		}
		evs[i]->id = (uint32_t) nevents;
		events[nevents++] = evs[i];
	}
	if (ust.connected && send_events(from))
		ust.connected = false;
	set_enabled(from);
	pthread_mutex_unlock(&lock);
}

void spoor_unregister_events(struct spoor_event_desc *const *evs, size_t n)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nevents; k++)
			if (events[k] == evs[i]) {
				__atomic_and_fetch(&evs[i]->enabled, ~SPOOR_ENABLED_RECORD,
				                   __ATOMIC_RELAXED);
				events[k] = NULL; /* ids are never reused */
			}
	pthread_mutex_unlock(&lock);
}

static void after_fork_in_child(void)
{
	/* The child is a new process with its own trace: new connection, new buffers (the
	 * generation bump makes every thread-local buffer pointer stale). */
	pthread_mutex_init(&lock, NULL);
	if (ust.sock >= 0)
		close(ust.sock);
	if (ust.efd >= 0)
		close(ust.efd);
	ust.sock = ust.efd = -1;
	__atomic_add_fetch(&ust.generation, 1, __ATOMIC_RELAXED);
	connect_session();
}

__attribute__((constructor)) static void ust_init(void)
{
	ust.sock = ust.efd = -1;
	ust.generation = 1;
	pthread_atfork(NULL, NULL, after_fork_in_child);
	pthread_mutex_lock(&lock);
	connect_session();
	pthread_mutex_unlock(&lock);
}
