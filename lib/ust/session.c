/* SPDX-License-Identifier: MIT */
/*
 * session.c: the traced program's link to its sessions: the connections to the servers
 * (spoor record through SPOOR_SESSION, or session daemons: daemons.c), the messages they
 * send (ipc/proto.h), the slot table, which events each slot records, the event
 * descriptors sent to every server, each thread's ring handed over, and a forked child
 * starting over.
 *
 * Nothing here runs on the emit path except through buffer.c's slow path (a thread's first
 * event of a slot). It never calls exit() and never blocks the program for long: if a
 * server is gone, its sessions are simply off. Everything a server sends is untrusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ipc/msg.h"
#include "rb/rb-abi.h"
#include "session.h"

unsigned ust_slot_gen[PROTO_MAX_SLOTS] = {[0 ... PROTO_MAX_SLOTS - 1] = UST_GEN_FREE};
int ust_pid;

struct ust_conn ust_conns[UST_MAX_CONNS];

/* A session this program is part of: (connection, the server's slot number). */
struct slot {
	int conn; /* -1: free */
	uint32_t remote;
	bool active;
	struct ust_ring_cfg cfg;
	char patterns[1024];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[PROTO_MAX_SLOTS];
static unsigned next_gen = 2;
static char procname[16]; /* the program's thread name at start, not the listener's */
static struct spoor_event_desc **events; /* registered, by id */
static size_t nevents, cap_events;

void ust_lock(void)
{
	pthread_mutex_lock(&lock);
}

void ust_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

/* ---- which events each slot records ---- */

static bool matches(const struct slot *sl, const struct spoor_event_desc *d)
{
	char full[256];

	if (!sl->patterns[0])
		return true;
	snprintf(full, sizeof(full), "%s:%s", d->provider, d->name);
	for (const char *p = sl->patterns; *p && p < sl->patterns + sizeof(sl->patterns);
	     p += strlen(p) + 1)
		if (!fnmatch(p, full, 0))
			return true;
	return false;
}

/* The slot bits and SPOOR_ENABLED_RECORD of events [from, nevents), from the live slots
 * that are active and whose server has the descriptors. Lock held. */
static void set_enabled(size_t from)
{
	for (size_t i = from; i < nevents; i++) {
		if (!events[i])
			continue;
		int bits = 0;
		for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++) {
			const struct slot *sl = &slots[s];
			if (sl->conn >= 0 && sl->active &&
			    ust_conns[sl->conn].state == CONN_READY && matches(sl, events[i]))
				bits |= 1 << (UST_SLOT_SHIFT + s);
		}
		if (bits)
			bits |= SPOOR_ENABLED_RECORD;
		/* probes.c changes SPOOR_ENABLED_PROBES under its own lock */
		ust_enabled_change(events[i], (int) UST_RECORD_BITS, bits);
	}
}

/* ---- messages to a server ---- */

static int conn_send(struct ust_conn *c, const void *msg, size_t len, int fd)
{
	if (c->sock < 0)
		return -1;
	if (!ipc_send(c->sock, msg, len, fd, c->blocking ? 0 : MSG_DONTWAIT))
		return 0;
	if (errno != EAGAIN)
		return -1;
	/* a daemon behind with its messages: a moment, never long */
	struct pollfd p = {c->sock, POLLOUT, 0};
	if (poll(&p, 1, 10) != 1)
		return -1;
	return ipc_send(c->sock, msg, len, fd, MSG_DONTWAIT);
}

static void describe(FILE *out, const struct spoor_event_desc *d)
{
	fprintf(out, "event %u %s %s %u %u\n", d->id, d->provider, d->name, d->max_align,
	        d->nfields);
	for (uint32_t f = 0; f < d->nfields; f++) {
		const struct spoor_field_desc *fd = &d->fields[f];
		fprintf(out, "field %s %u %u %u %u %u %u %u %u", fd->name, fd->kind, fd->size,
		        fd->is_signed, fd->base, fd->big_endian, fd->text, fd->length,
		        fd->nentries);
		if (fd->length_size) /* only then: what an older recorder can read stays so */
			fprintf(out, " %u", fd->length_size);
		fputc('\n', out);
		for (uint32_t e = 0; e < fd->nentries; e++) {
			const struct spoor_enum_entry *en = &fd->entries[e];
			fprintf(out, "enum %lld %lld ", (long long) en->lo, (long long) en->hi);
			for (const char *l = en->label ? en->label : ""; *l; l++)
				fputc(*l == '\n' ? ' ' : *l, out);
			fputc('\n', out);
		}
	}
}

/* Describe events [from, nevents) to a server, in as many messages as it takes, each of
 * whole events and at most EVENTS_MSG bytes: a datagram must fit in the socket's send
 * buffer (about 208 KiB by default), whatever PROTO_MAX_MSG allows. Lock held. */
#define EVENTS_MSG (64u << 10)
static int send_events(struct ust_conn *c, size_t from)
{
	const size_t head = sizeof(struct proto_head);
	char *msg = malloc(EVENTS_MSG), *one = NULL;
	size_t len = head, n = 0;
	int rc = msg ? 0 : -1;

	for (size_t i = from; !rc && i <= nevents; i++) {
		n = 0;
		if (i < nevents && events[i]) {
			FILE *out = open_memstream(&one, &n);
			if (!out)
				rc = -1;
			else
				describe(out, events[i]);
			if (out && (fclose(out) || !one || n > EVENTS_MSG - head))
				rc = -1; /* an event larger than a message: the server cannot have
				            it */
		}
		if (!rc && len > head && (i == nevents || len + n > EVENTS_MSG)) {
			struct proto_head h = ipc_head(MSG_EVENTS, len);
			memcpy(msg, &h, head);
			rc = conn_send(c, msg, len, -1);
			len = head;
		}
		if (!rc && n)
			memcpy(msg + len, one, n);
		len += n;
		free(one);
		one = NULL;
	}
	free(msg);
	return rc;
}

/* ---- slots ---- */

static struct slot *slot_of(int ci, uint32_t remote)
{
	for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++)
		if (slots[s].conn == ci && slots[s].remote == remote)
			return &slots[s];
	return NULL;
}

static void slot_free(struct slot *sl)
{
	unsigned s = (unsigned) (sl - slots);

	sl->conn = -1;
	__atomic_store_n(&ust_slot_gen[s], UST_GEN_FREE, __ATOMIC_RELEASE);
	ust_rings_drop(s);
}

static bool power_of_two(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* A session joined, or changed. Absurd settings, or no slot left: ignored. */
static void on_session(int ci, const struct proto_session *m)
{
	if (m->slot >= PROTO_MAX_SLOTS)
		return;
	struct slot *sl = slot_of(ci, m->slot);
	if (!sl) {
		if (m->mode > RB_OVERWRITE || !power_of_two(m->num_subbufs) || m->num_subbufs < 2 ||
		    m->num_subbufs > RB_MAX_SUBBUFS || !power_of_two(m->subbuf_size) ||
		    m->subbuf_size < RB_MIN_SUBBUF || m->subbuf_size > RB_MAX_SUBBUF)
			return;
		for (unsigned s = 0; !sl && s < PROTO_MAX_SLOTS; s++)
			if (slots[s].conn < 0)
				sl = &slots[s];
		if (!sl)
			return; /* more sessions than this program holds */
		unsigned s = (unsigned) (sl - slots);
		sl->conn = ci;
		sl->remote = m->slot;
		sl->cfg = (struct ust_ring_cfg){
		    next_gen,       m->mode, m->num_subbufs,   ust_conns[ci].clock_kind,
		    m->subbuf_size, {0},     ust_conns[ci].efd};
		memcpy(sl->cfg.uuid, m->uuid, 16);
		next_gen += 2;
		__atomic_store_n(&ust_slot_gen[s], sl->cfg.gen, __ATOMIC_RELEASE);
	}
	sl->active = m->active != 0;
	memcpy(sl->patterns, m->patterns, sizeof(sl->patterns));
	sl->patterns[sizeof(sl->patterns) - 1] = '\0';
}

/* Every slot of a server freed. */
static void release_slots(int ci)
{
	for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++)
		if (slots[s].conn == ci)
			slot_free(&slots[s]);
}

int ust_slot_cfg(unsigned s, struct ust_ring_cfg *c)
{
	int rc = -1;

	pthread_mutex_lock(&lock);
	if (slots[s].conn >= 0) {
		*c = slots[s].cfg;
		rc = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

int ust_send_buffer(unsigned s, unsigned gen, int memfd, int tid, uint64_t size)
{
	const struct slot *sl = &slots[s];

	if (sl->conn < 0 || sl->cfg.gen != gen)
		return -1;
	struct proto_buffer b = {ipc_head(MSG_BUFFER, sizeof(b)), tid, sl->remote, size};
	return conn_send(&ust_conns[sl->conn], &b, sizeof(b), memfd);
}

/* ---- connections ---- */

/* Handshake done: the server gets the descriptors, then the events its sessions want are
 * on. Lock held. */
static int conn_ready(int ci)
{
	struct ust_conn *c = &ust_conns[ci];

	if (send_events(c, 0))
		return -1;
	c->state = CONN_READY;
	set_enabled(0);
	return 0;
}

static int on_hello_reply(int ci, const struct proto_hello_reply *m, int fd)
{
	struct ust_conn *c = &ust_conns[ci];

	if (c->state != CONN_HELLO || fd < 0 || m->clock_kind > CLOCK_KIND_MONOTONIC)
		return -1;
	/* Threads write to the doorbell without the lock: its number stays valid for the
	 * process's life, a later server's doorbell taking the place of this one's. */
	if (c->efd < 0) {
		c->efd = fd;
	} else {
		dup3(fd, c->efd, O_CLOEXEC);
		close(fd);
	}
	fcntl(c->efd, F_SETFL, O_NONBLOCK); /* never wait on a doorbell */
	c->clock_kind = m->clock_kind;
	c->sessions_left = m->nsessions;
	c->state = CONN_SESSIONS;
	return c->sessions_left ? 0 : conn_ready(ci);
}

/* One message from a server: 0, or -1 if it broke the protocol (the connection goes).
 * Lock held; fd is taken. */
static int on_message(int ci, const void *buf, size_t n, int fd)
{
	struct ust_conn *c = &ust_conns[ci];
	const struct proto_head *h = buf;
	int rc = -1;

	if (!ipc_head_ok(buf, n))
		goto out;
	if (h->type == MSG_HELLO_REPLY && n == sizeof(struct proto_hello_reply)) {
		rc = on_hello_reply(ci, buf, fd);
		fd = -1;
	} else if (h->type == MSG_SESSION && n == sizeof(struct proto_session) &&
	           c->state >= CONN_SESSIONS) {
		on_session(ci, buf);
		rc = 0;
		if (c->state == CONN_SESSIONS && !--c->sessions_left)
			rc = conn_ready(ci);
		else if (c->state == CONN_READY)
			set_enabled(0);
	} else if (h->type == MSG_SESSION_END && n == sizeof(struct proto_session_end) &&
	           c->state >= CONN_SESSIONS) {
		struct slot *sl = slot_of(ci, ((const struct proto_session_end *) buf)->slot);
		if (sl) {
			slot_free(sl);
			set_enabled(0);
		}
		rc = 0;
	}
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

void ust_conn_drop(int ci)
{
	struct ust_conn *c = &ust_conns[ci];

	if (c->sock >= 0)
		close(c->sock);
	c->sock = -1;
	c->state = CONN_DOWN;
	release_slots(ci);
	set_enabled(0);
}

int ust_conn_take(int ci, int timeout_ms)
{
	struct ust_conn *c = &ust_conns[ci];
	union {
		char b[2048];
		struct proto_session align;
	} buf;

	for (;;) {
		if (c->sock < 0)
			return -1;
		int fd, sock = c->sock;
		pthread_mutex_unlock(&lock);
		if (timeout_ms >= 0) {
			struct pollfd p = {sock, POLLIN, 0};
			if (poll(&p, 1, timeout_ms) != 1) {
				pthread_mutex_lock(&lock);
				return 0;
			}
		}
		ssize_t n = ipc_recv(sock, &buf, sizeof(buf), &fd, c->blocking ? 0 : MSG_DONTWAIT);
		pthread_mutex_lock(&lock);
		if (c->sock != sock) { /* dropped meanwhile */
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0 || on_message(ci, &buf, (size_t) n, fd)) {
			ust_conn_drop(ci);
			return -1;
		}
		if (c->blocking && c->state == CONN_READY)
			return 0; /* spoor record: the handshake is all there is */
	}
}

int ust_conn_open(int ci, const char *path, bool blocking)
{
	struct ust_conn *c = &ust_conns[ci];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (c->sock >= 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	c->blocking = blocking;
	c->sock =
	    socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | (blocking ? 0 : SOCK_NONBLOCK), 0);
	if (c->sock < 0)
		return -1;
	int rc;
	do
		rc = connect(c->sock, (struct sockaddr *) &sa, sizeof(sa));
	while (rc && errno == EINTR);
	int err = errno;
	if (rc) {
		close(c->sock);
		c->sock = -1;
		errno = err;
		return -1;
	}
	struct proto_hello hello = {ipc_head(MSG_HELLO, sizeof(hello)), getpid(), getppid(),
	                            getuid(), ""};
	memcpy(hello.procname, procname, sizeof(hello.procname));
	c->state = CONN_HELLO;
	if (conn_send(c, &hello, sizeof(hello), -1)) {
		ust_conn_drop(ci);
		return -1;
	}
	return 0;
}

/* ---- descriptors ---- */

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
	/* every server that has the earlier ones (dlopen); one that cannot take them goes */
	for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
		struct ust_conn *c = &ust_conns[ci];
		if (c->state != CONN_READY || !send_events(c, from))
			continue;
		if (c->blocking)
			ust_conn_drop(ci);
		else
			shutdown(c->sock, SHUT_RDWR); /* its listener drops it, off its poll */
	}
	set_enabled(from);
	pthread_mutex_unlock(&lock);
}

void spoor_unregister_events(struct spoor_event_desc *const *evs, size_t n)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nevents; k++)
			if (events[k] == evs[i]) {
				ust_enabled_change(evs[i], (int) UST_RECORD_BITS, 0);
				events[k] = NULL; /* ids are never reused */
			}
	pthread_mutex_unlock(&lock);
}

/* ---- start, and start over in a forked child ---- */

/* SPOOR_SESSION (spoor record): that server only, waited for as before. Lock held. */
static bool start_session(void)
{
	const char *path = secure_getenv("SPOOR_SESSION"); /* not for a setuid program */

	if (!path || !*path)
		return false;
	if (!ust_conn_open(0, path, true))
		ust_conn_take(0, -1);
	return true;
}

static void start(void)
{
	ust_pid = getpid();
	prctl(PR_GET_NAME, procname);
	pthread_mutex_lock(&lock);
	if (!start_session())
		ust_daemons_start();
	pthread_mutex_unlock(&lock);
}

static void before_fork(void)
{
	pthread_mutex_lock(&lock);
}

static void after_fork_in_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void after_fork_in_child(void)
{
	/* The child is a new process with its own traces: new connections, new rings (the
	 * slots' generations change, so every ring of the parent's is stale). Its only thread
	 * is this one, not inside an emit. */
	pthread_mutex_init(&lock, NULL);
	ust_rings_forget(); /* the parent's rings: the child leaves their memory alone */
	ust_daemons_forget();
	for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
		struct ust_conn *c = &ust_conns[ci];
		if (c->sock >= 0)
			close(c->sock);
		if (c->efd >= 0)
			close(c->efd);
		c->sock = c->efd = -1;
		c->state = CONN_DOWN;
		release_slots(ci);
	}
	set_enabled(0);
	start();
}

__attribute__((constructor)) static void ust_init(void)
{
	for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++)
		slots[s].conn = -1;
	for (int ci = 0; ci < UST_MAX_CONNS; ci++)
		ust_conns[ci] = (struct ust_conn){.sock = -1, .efd = -1};
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
	start();
}
