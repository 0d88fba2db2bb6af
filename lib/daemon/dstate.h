/* SPDX-License-Identifier: MIT */
/* dstate.h: the daemon's state, shared by the files of lib/daemon (daemon.h: the API). */
#ifndef DAEMON_DSTATE_H
#define DAEMON_DSTATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "daemon.h"
#include "ipc/proto.h"
#include "kernel/klayout.h"
#include "record/clock.h"
#include "record/record.h"

#define DAEMON_MAX_CONNS 1024
/* One user cannot lock the others out: per uid but root's, programs, control requests
 * (and watchers) and connections that have not spoken yet are capped, and the last
 * connections of the table are root's */
#define UID_MAX_APPS        (DAEMON_MAX_CONNS / 8)
#define UID_MAX_CTL         32
#define UID_MAX_NEW         32
#define ROOT_RESERVE        64
#define DAEMON_MAX_SESSIONS 256
#define DAEMON_IDLE_NS      (5 * 1000000000ll) /* a connection that says nothing is closed */
#define APP_MAX_EVENTS_TEXT (4u << 20)         /* event descriptions of one program */
#define UID_MAX_EVENTS_TEXT (64u << 20)        /* ... of all the programs of one uid */
#define APP_MAX_BUFFERS     4096               /* threads of one program, per session */
#define SESSION_NAME_MAX    64
#define SESSION_MAX_KERNEL  64 /* -k patterns and --filter expressions, each */
#define SESSION_MAX_GROUPS  64 /* the owner's supplementary groups kept; more: none */
#define SESSION_MAX_ENDED   64 /* programs ended whose rings a flight recorder keeps */

enum conn_kind { CONN_NEW, CONN_APP, CONN_CTL, CONN_WATCH };

struct dsession;
struct apptrace;

/* A session's place in a program: its slot (proto.h) and its trace there. */
struct app_slot {
	struct dsession *s; /* NULL: free */
	uint8_t uuid[16];
	struct apptrace *t; /* opened at the slot's first buffer */
	bool failed;        /* the trace could not be made: the slot's buffers are refused */
	uint32_t buffers;
};

struct app {
	int pid;
	uid_t uid;
	char procname[17];
	int bell;     /* its doorbell: an eventfd of its own (a program may clear its
	               * O_NONBLOCK or read it: it stalls only itself) */
	char *events; /* every EVENTS text it sent, in order */
	size_t events_len;
	struct app_slot slots[PROTO_MAX_SLOTS];
	unsigned next_slot; /* slots are taken round the table: a BUFFER sent for a slot just
	                     * ended does not land in the next session to take it */
};

struct dconn {
	int fd; /* -1: none (fuzzing): what is sent goes nowhere */
	enum conn_kind kind;
	struct daemon_creds cr;
	int64_t since_ns;         /* CLOCK_MONOTONIC, when accepted */
	struct app *app;          /* CONN_APP, after HELLO */
	struct dsession *watched; /* CONN_WATCH */
	int timer;                /* CONN_WATCH: its period, or -1 */
	bool done;                /* to be closed by the loop */
};

enum session_state { SESSION_CREATED, SESSION_STARTED, SESSION_STOPPED, SESSION_FAILED };

struct dsession {
	char name[SESSION_NAME_MAX + 1];
	uid_t owner;
	gid_t owner_gid;
	gid_t groups[SESSION_MAX_GROUPS]; /* the owner's supplementary groups, for its files */
	size_t ngroups;
	bool privileged; /* the creator's credentials: traces every uid's programs */
	char outdir[PATH_MAX];
	bool overwrite;
	uint64_t subbuf_size;
	uint32_t num_subbufs;
	uint64_t rotate_bytes, rotate_ns; /* --rotate-every, 0: not */
	int rotate_timer;                 /* timerfd for rotate_ns, or -1 */
	char patterns[1024];              /* user-space patterns, NUL-separated, as SESSION */
	size_t patterns_len;
	char *kevents[SESSION_MAX_KERNEL], *kfilters[SESSION_MAX_KERNEL];
	size_t nkevents, nkfilters;
	unsigned long kbuffer_kb;
	enum klayout klayout;    /* --layout: the names the kernel trace is written under */
	time_t created;          /* LTTng's trace_creation_datetime, in every chunk */
	struct ksession *kernel; /* made at the first start with kernel events */
	enum session_state state;
	char error[300]; /* why it failed */
	unsigned chunks, snapshots;
	/* A flight recorder keeps the rings of the programs that ended, oldest first, for
	 * the snapshots to come (a crash is what one is taken for); at destroy, or when more
	 * end, they are written into OUTDIR */
	struct ended {
		struct apptrace *t;
		int pid;
		char procname[17];
	} ended[SESSION_MAX_ENDED];
	size_t nended;
	struct record_totals totals;
	uint64_t chunk_bytes; /* totals.bytes when the current chunk began */
	struct dsession *next;
};

struct daemon {
	int listen_fd, sigfd, idle_timer;
	bool is_root;
	gid_t tracing_gid;
	bool have_tracing; /* a group `tracing` exists */
	struct rec_clock clock;
	struct dconn *conns[DAEMON_MAX_CONNS];
	size_t nconns;
	struct dsession *sessions;
	size_t nsessions;
};

int64_t daemon_mono_ns(void);
void daemon_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send one message (and a fd) on c without blocking; -1 when it could not go whole. */
int dconn_send(struct dconn *c, const void *msg, size_t len, int fd);

/* apps.c: programs */
/* The next slot that s holds in a program (*a: the program), from *it (0 to begin);
 * NULL after the last. */
struct app_slot *slot_next(const struct daemon *d, const struct dsession *s, struct app **a,
                           size_t *it);
int app_on_message(struct daemon *d, struct dconn *c, const void *msg, size_t len, int fd);
void app_gone(struct daemon *d, struct dconn *c);
/* Give s a slot in every program it may trace and has none in; tell every program of s
 * its slot's state (active, patterns) again. */
void apps_update_session(struct daemon *d, struct dsession *s);
/* Take s out of every program (its traces finished first). */
void apps_drop_session(struct daemon *d, struct dsession *s);
/* A flight recorder's programs that ended: their traces finished into OUTDIR. */
void apps_close_ended(struct daemon *d, struct dsession *s);
/* Reset a program's doorbell without ever waiting on it (the program holds it too). */
void app_bell_reset(int bell);
/* A doorbell rang: every discard session's closed packets out. */
void apps_drain(struct daemon *d);
/* What the programs' buffers hold now, packets in progress too (stop). */
void apps_flush_session(struct daemon *d, struct dsession *s);

/* sessions.c */
struct dsession *session_find(struct daemon *d, const char *name, const struct daemon_creds *cr);
bool session_may_trace(const struct dsession *s, uid_t uid);
/* s is active in the programs: started, with user-space events */
bool session_active(const struct dsession *s);
/* Switch to the session owner's file credentials around its file operations (a system
 * daemon writing a user's files); fsuid_end goes back. */
void fsuid_begin(const struct daemon *d, const struct dsession *s);
void fsuid_end(const struct daemon *d);
/* A write failed (the disk is full): the session stops, with its error for `list`. */
void session_check_write(struct daemon *d, struct dsession *s);
/* Stop everything: the programs' traces and the kernel's finished (again: nothing) */
void session_wind_up(struct daemon *d, struct dsession *s);
void session_finish(struct daemon *d, struct dsession *s); /* wound up, and freed */

/* verbs.c: a control request, answered on c; 0 when c stays open (watch) */
int ctl_on_message(struct daemon *d, struct dconn *c, const void *msg, size_t len);

/* watch.c: live readers of a session */
int watch_begin(struct daemon *d, struct dconn *c, struct dsession *s, uint64_t period_ns,
                char *err, size_t errlen);
void watch_tick(struct daemon *d, struct dconn *c);   /* c's period passed */
void watch_end(struct daemon *d, struct dsession *s); /* s stopped: its watchers told */

/* server.c: the programs' queued messages taken now */
void server_take_registrations(struct daemon *d);

#endif
