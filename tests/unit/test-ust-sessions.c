/* SPDX-License-Identifier: MIT */
/*
 * test-ust-sessions.c: the traced program's side of sessions (lib/ust), driven by a session
 * server written here, on a private socket (SPOOR_USER_SOCKET; SPOOR_SYSTEM_SOCKET names a
 * missing path, or the same one). The programs are real: tests/programs/service.c, which
 * emits only when told, and examples/hello (fork). The server writes what the rings hold
 * with lib/record/apptrace, one trace per session, and the traces are read back with
 * spoor's reader (babeltrace2 agrees on one).
 *
 * The server knows when the program has taken a message in: the socket's send queue is
 * empty (SIOCOUTQ: a unix socket's unread bytes stay charged to the sender) and the
 * program's listener thread is back in poll() (/proc/PID/task/TID/syscall).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ipc/msg.h"
#include "rb/rb-abi.h"
#include "record/apptrace.h"
#include "spoor/trace.h"

#define MAXS    4
#define WAIT_MS 20000 /* only against hanging: nothing is timed */
#define MAX_SEQ 1024
#define SUBBUF  (64u << 10)
#define NSUBBUF 4u

struct sess {
	uint32_t slot;
	struct apptrace *t;
	struct rec_buffer_geometry g;
};

struct app {
	int fd, pid;
	char procname[17];
	struct sess s[MAXS];
	int ns;
	char *events; /* every EVENTS text so far, for sessions added later */
	size_t events_len;
	bool eof;
	int ring_fd[PROTO_MAX_SLOTS]; /* the first ring of each slot: is its memory there? */
};

static char tmp[200];
static struct rec_clock clk;
static int efd;
static struct record_totals totals;

static void msleep(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static int listen_at(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (!CHECK(fd >= 0 && !bind(fd, (struct sockaddr *) &sa, sizeof(sa)) && !listen(fd, 8)))
		return -1;
	return fd;
}

static bool readable(int fd, int ms)
{
	struct pollfd p = {fd, POLLIN, 0};
	return poll(&p, 1, ms) == 1;
}

/* A program that connected: its HELLO read. */
static bool accept_app(int lfd, struct app *a)
{
	union {
		struct proto_hello h;
		char b[512];
	} m;
	int fd;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	for (int s = 0; s < PROTO_MAX_SLOTS; s++)
		a->ring_fd[s] = -1;
	if (!CHECK(readable(lfd, WAIT_MS)))
		return false;
	a->fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (!CHECK(a->fd >= 0 && readable(a->fd, WAIT_MS)))
		return false;
	ssize_t n = ipc_recv(a->fd, &m, sizeof(m), &fd, 0);
	if (!CHECK(n == sizeof(m.h) && ipc_head_ok(&m, (size_t) n) && m.h.h.type == MSG_HELLO))
		return false;
	a->pid = m.h.pid;
	memcpy(a->procname, m.h.procname, 16);
	return true;
}

static void reply(struct app *a, uint32_t nsessions)
{
	struct proto_hello_reply r = {ipc_head(MSG_HELLO_REPLY, sizeof(r)), clk.kind, nsessions};
	CHECK(!ipc_send(a->fd, &r, sizeof(r), efd, 0));
}

static struct sess *sess_of(struct app *a, uint32_t slot)
{
	for (int i = 0; i < a->ns; i++)
		if (a->s[i].slot == slot && a->s[i].t)
			return &a->s[i];
	return NULL;
}

/* SESSION for slot: a new session writing under outdir, or (outdir NULL) a change. */
static void session(struct app *a, uint32_t slot, bool active, bool overwrite, const char *patterns,
                    const char *outdir)
{
	struct proto_session m;
	struct sess *s = sess_of(a, slot);
	char err[256];

	if (outdir && CHECK(!s && a->ns < MAXS)) {
		s = &a->s[a->ns++];
		s->slot = slot;
		s->g = (struct rec_buffer_geometry){SUBBUF, NSUBBUF, overwrite, false};
		struct apptrace_id id = {a->pid, a->procname, NULL};
		if (!CHECK(!apptrace_open(&s->t, outdir, &id, &clk, &s->g, err, sizeof(err))))
			return;
		if (a->events_len)
			CHECK(!apptrace_events(s->t, a->events, a->events_len, err, sizeof(err)));
	}
	if (!CHECK(s != NULL))
		return;
	memset(&m, 0, sizeof(m));
	m.h = ipc_head(MSG_SESSION, sizeof(m));
	m.slot = slot;
	m.active = active;
	m.mode = s->g.overwrite ? RB_OVERWRITE : RB_DISCARD;
	m.num_subbufs = NSUBBUF;
	m.subbuf_size = SUBBUF;
	memcpy(m.uuid, apptrace_uuid(s->t), 16);
	if (patterns)
		snprintf(m.patterns, sizeof(m.patterns), "%s", patterns);
	CHECK(!ipc_send(a->fd, &m, sizeof(m), -1, 0));
}

/* Every message the program has sent so far. */
static void pump(struct app *a)
{
	static char buf[PROTO_MAX_MSG];
	char err[4400];
	int fd;

	while (!a->eof && readable(a->fd, 0)) {
		ssize_t n = ipc_recv(a->fd, buf, sizeof(buf), &fd, MSG_DONTWAIT);
		const struct proto_head *h = (const struct proto_head *) buf;
		if (n <= 0) {
			a->eof = true;
			break;
		}
		if (!CHECK(ipc_head_ok(buf, (size_t) n)))
			continue;
		if (h->type == MSG_EVENTS) {
			size_t len = (size_t) n - sizeof(*h);
			a->events = realloc(a->events, a->events_len + len);
			memcpy(a->events + a->events_len, buf + sizeof(*h), len);
			a->events_len += len;
			for (int i = 0; i < a->ns; i++)
				if (a->s[i].t)
					CHECK(!apptrace_events(a->s[i].t, buf + sizeof(*h), len,
					                       err, sizeof(err)));
		} else if (CHECK(h->type == MSG_BUFFER && n == sizeof(struct proto_buffer))) {
			const struct proto_buffer *b = (const struct proto_buffer *) buf;
			struct sess *s = sess_of(a, b->slot);
			CHECK_CTX("buffer of slot %u", b->slot);
			if (CHECK(s && fd >= 0))
				CHECK(!apptrace_add_buffer(s->t, fd, b->tid, err, sizeof(err)));
			if (s && fd >= 0 && a->ring_fd[b->slot] < 0)
				a->ring_fd[b->slot] = dup(fd);
			CHECK_CTX("%s", "");
		}
		if (fd >= 0)
			close(fd);
	}
}

/* The listener thread of the program: its tid, by name. */
static int listener_tid(int pid)
{
	char path[300], comm[32];
	int tid = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	for (struct dirent *e; d && !tid && (e = readdir(d));) {
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", pid, e->d_name);
		FILE *f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "spoor-ust\n"))
			tid = atoi(e->d_name);
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return tid;
}

static bool in_poll(int pid, int tid)
{
	char path[64], line[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return !strncmp(line, "7 ", 2); /* poll, x86-64 */
}

/* Wait until the program took in everything sent to it (fd >= 0), or its connection
 * ended (fd < 0: no socket left in the program), and its listener thread (there once the
 * program's start is over) sleeps again. */
static void settle(int pid, int fd)
{
	for (int i = 0, tid = 0; i < WAIT_MS; i++) {
		if (!tid && !(tid = listener_tid(pid))) { /* made at the end of the start */
			msleep(1);
			continue;
		}
		int queued = 0;
		bool taken;
		if (fd >= 0) {
			taken = !ioctl(fd, SIOCOUTQ, &queued) && !queued;
		} else {
			char path[64], link[64];
			taken = true;
			for (int k = 0; k < 64; k++) {
				snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, k);
				ssize_t n = readlink(path, link, sizeof(link) - 1);
				if (n > 0 && !strncmp(link, "socket:", 7))
					taken = false;
			}
		}
		if (taken && in_poll(pid, tid))
			return;
		msleep(1);
	}
	CHECK(!"the program took its messages in");
}

static void close_traces(struct app *a)
{
	for (int i = 0; i < a->ns; i++) {
		apptrace_close(a->s[i].t, &totals);
		a->s[i].t = NULL;
	}
}

/* The sessions' traces written and closed, and the connection. */
static void end_sessions(struct app *a)
{
	close_traces(a);
	free(a->events);
	a->events = NULL;
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

static void close_rings(struct app *a)
{
	for (int s = 0; s < PROTO_MAX_SLOTS; s++)
		if (a->ring_fd[s] >= 0)
			close(a->ring_fd[s]);
}

/* The memory of slot's first ring: bytes the program has in it (the server has unmapped
 * its own by then). */
static long long ring_bytes(const struct app *a, uint32_t slot)
{
	struct stat st;
	if (a->ring_fd[slot] < 0 || fstat(a->ring_fd[slot], &st))
		return -1;
	return (long long) st.st_blocks * 512;
}

static void session_end(struct app *a, uint32_t slot)
{
	struct sess *s = sess_of(a, slot);
	struct proto_session_end m = {ipc_head(MSG_SESSION_END, sizeof(m)), slot, 0};

	if (!CHECK(s != NULL))
		return;
	pump(a);
	apptrace_close(s->t, &totals); /* drained first, as a daemon does */
	s->t = NULL;
	CHECK(!ipc_send(a->fd, &m, sizeof(m), -1, 0));
}

/* ---- the programs ---- */

static pid_t start_prog(char *const argv[], const char *user_sock, const char *system_sock)
{
	pid_t pid = fork();

	if (pid == 0) {
		unsetenv("SPOOR_SESSION");
		setenv("SPOOR_USER_SOCKET", user_sock, 1);
		setenv("SPOOR_SYSTEM_SOCKET", system_sock, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static unsigned status_batches(const char *file)
{
	unsigned pid, b = 0;
	unsigned long long r;
	FILE *f = fopen(file, "r");
	if (f) {
		if (fscanf(f, "pid %u batches %u rounds %llu", &pid, &b, &r) != 3)
			b = 0;
		fclose(f);
	}
	return b;
}

static bool wait_batches(const char *file, unsigned b)
{
	for (int i = 0; i < WAIT_MS; i++) {
		if (!access(file, F_OK) && status_batches(file) >= b)
			return true;
		msleep(1);
	}
	return false;
}

static void batch(pid_t pid, const char *file, unsigned *nb)
{
	kill(pid, SIGUSR1);
	CHECK(wait_batches(file, ++*nb));
}

/* ---- reading the traces back ---- */

struct seen {
	unsigned req[MAX_SEQ], tick[MAX_SEQ];
	unsigned other, total;
	int64_t fd3, fd103;    /* hello:request of the parent, of the forked child */
	unsigned plugin, late; /* dl-late's events: plugin:loaded, late:mark */
};

static void read_traces(const char *dir, struct seen *s)
{
	struct spoor_reader *r;
	const struct spoor_event *ev;
	struct spoor_field f;
	int64_t v;

	memset(s, 0, sizeof(*s));
	if (!CHECK(!spoor_reader_open(&dir, 1, &r, NULL)))
		return;
	while (spoor_reader_next(r, &ev) > 0) {
		const char *name = spoor_event_name(ev);
		s->total++;
		s->plugin += !strcmp(name, "plugin:loaded");
		s->late += !strcmp(name, "late:mark");
		if (!strcmp(name, "hello:request") &&
		    spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "fd", &f) &&
		    spoor_field_int(&f, &v)) {
			s->fd3 += v == 3;
			s->fd103 += v == 103;
		}
		bool req = !strcmp(name, "svc:request"), tick = !strcmp(name, "svc:tick");
		if ((req || tick) && spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "seq", &f) &&
		    spoor_field_int(&f, &v) && v >= 0 && v < MAX_SEQ)
			(req ? s->req : s->tick)[v]++;
		else if (req || tick)
			s->other++;
	}
	CHECK(spoor_reader_damaged(r) == 0);
	spoor_reader_close(r);
}

/* Seqs [lo, hi) once each, in the ranges given, and none outside. */
static bool exactly(const unsigned *seqs, const unsigned (*ranges)[2], size_t nranges)
{
	for (unsigned q = 0; q < MAX_SEQ; q++) {
		unsigned want = 0;
		for (size_t i = 0; i < nranges; i++)
			want += q >= ranges[i][0] && q < ranges[i][1];
		if (seqs[q] != want) {
			printf("  seq %u: %u events, %u expected\n", q, seqs[q], want);
			return false;
		}
	}
	return true;
}
#define RANGES(...)                                                                                \
	(const unsigned[][2]){__VA_ARGS__},                                                        \
	    sizeof((const unsigned[][2]){__VA_ARGS__}) / sizeof(unsigned[2])

static unsigned bt2_count(const char *dir)
{
	char cmd[512];
	unsigned n = 0;
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>/dev/null | wc -l", dir);
	FILE *p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%u", &n) != 1)
			n = 0;
		pclose(p);
	}
	return n;
}

static const char *at(const char *name)
{
	static char paths[16][300];
	static int next;
	char *p = paths[next++ % 16];
	snprintf(p, 300, "%s/%s", tmp, name);
	return p;
}

/* SIGTERM, a clean exit, then what the server still has to read, and the traces closed. */
static void stop_service(pid_t pid, int lfd, struct app *a, struct app *b)
{
	int st;

	kill(pid, SIGTERM);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (struct app *x = a; x; x = x == a ? b : NULL) {
		if (x->fd >= 0)
			pump(x);
		end_sessions(x);
		close_rings(x);
	}
	if (lfd >= 0)
		close(lfd);
}

/* service: a daemon that appears after the program (its folder too), two sessions of
 * different patterns and modes, patterns and active changed while it runs, a session
 * ended and one added, the daemon gone (end of file), and a new daemon. */
static void test_service(const char *service)
{
	char sock[300], status[300];
	unsigned nb = 0;
	struct app a = {.fd = -1}, b = {.fd = -1};

	snprintf(sock, sizeof(sock), "%s/later/user.sock", tmp);
	snprintf(status, sizeof(status), "%s/status", tmp);
	char *argv[] = {(char *) service, "--batch", "50", status, NULL};
	pid_t pid = start_prog(argv, sock, at("none/system.sock"));
	if (!CHECK(wait_batches(status, 0)))
		return;
	/* the daemon's folder and socket appear: the program registers */
	mkdir(at("later"), 0700);
	int lfd = listen_at(sock);
	if (!CHECK(lfd >= 0 && accept_app(lfd, &a)))
		goto out;
	CHECK_EQ_S64(a.pid, pid);
	CHECK_STR(a.procname, "service");
	reply(&a, 2);
	session(&a, 3, true, false, "svc:request", at("a3"));
	session(&a, 9, true, true, "svc:*", at("a9"));
	settle(pid, a.fd);
	pump(&a);
	batch(pid, status, &nb); /* rounds 0-49 */
	/* slot 3 records the ticks instead, slot 9 stops */
	session(&a, 3, true, false, "svc:tick", NULL);
	session(&a, 9, false, true, "svc:*", NULL);
	settle(pid, a.fd);
	batch(pid, status, &nb); /* 50-99 */
	pump(&a);
	/* slot 3 ends (its memory goes back), slot 9 records the requests again, a session
	 * joins in slot 5 */
	CHECK(ring_bytes(&a, 3) > 0);
	session_end(&a, 3);
	session(&a, 9, true, true, "svc:request", NULL);
	session(&a, 5, true, false, "svc:tick", at("a5"));
	settle(pid, a.fd);
	CHECK_EQ_S64(ring_bytes(&a, 3), 0);
	batch(pid, status, &nb); /* 100-149 */
	pump(&a);
	/* the daemon goes, having written what the rings held: the program gives their memory
	 * back, records nothing more, and runs on */
	end_sessions(&a);
	unlink(sock);
	close(lfd);
	settle(pid, -1);
	CHECK_EQ_S64(ring_bytes(&a, 5), 0);
	CHECK_EQ_S64(ring_bytes(&a, 9), 0);
	close_rings(&a);
	batch(pid, status, &nb); /* 150-199 */
	/* a new daemon: the program registers again */
	lfd = listen_at(sock);
	if (!CHECK(lfd >= 0 && accept_app(lfd, &b)))
		goto out;
	reply(&b, 1);
	session(&b, 0, true, false, NULL, at("b0"));
	settle(pid, b.fd);
	pump(&b);
	batch(pid, status, &nb); /* 200-249 */
out:
	stop_service(pid, lfd, &a, &b);

	struct seen s;
	read_traces(at("a3"), &s);
	CHECK_CTX("slot 3: requests, then ticks, then ended");
	CHECK(exactly(s.req, RANGES({0, 50})));
	CHECK(exactly(s.tick, RANGES({50, 100})));
	read_traces(at("a9"), &s);
	CHECK_CTX("slot 9, overwrite: all, stopped, requests");
	CHECK(exactly(s.req, RANGES({0, 50}, {100, 150})));
	CHECK(exactly(s.tick, RANGES({0, 50})));
	CHECK_EQ_U64(bt2_count(at("a9")), s.total);
	read_traces(at("a5"), &s);
	CHECK_CTX("slot 5, added while running");
	CHECK(exactly(s.req, RANGES({0, 0})));
	CHECK(exactly(s.tick, RANGES({100, 150})));
	read_traces(at("b0"), &s);
	CHECK_CTX("a new daemon");
	CHECK(exactly(s.req, RANGES({200, 250})));
	CHECK(exactly(s.tick, RANGES({200, 250})));
	CHECK_EQ_U64(s.other, 0);
	CHECK_CTX("%s", "");
	char dir[400];
	snprintf(dir, sizeof(dir), "%s/ust/pid/service-%d", at("b0"), (int) pid);
	CHECK(!access(dir, F_OK));
}

/* A server that breaks the rules: slot numbers out of range and absurd geometry are
 * ignored, a message of the wrong size ends the connection; the program runs on, and
 * registers again. */
static void test_hostile(const char *service)
{
	char status[300];
	const char *sock = at("x.sock");
	unsigned nb = 0;
	struct app a = {.fd = -1}, b = {.fd = -1};
	int lfd = listen_at(sock);

	snprintf(status, sizeof(status), "%s/xstatus", tmp);
	char *argv[] = {(char *) service, "--batch", "10", status, NULL};
	pid_t pid = start_prog(argv, sock, at("none/system.sock"));
	if (!CHECK(lfd >= 0 && accept_app(lfd, &a)))
		goto out;
	reply(&a, 3);
	struct proto_session m;
	memset(&m, 0, sizeof(m));
	m.h = ipc_head(MSG_SESSION, sizeof(m));
	m.slot = PROTO_MAX_SLOTS; /* out of range */
	m.active = 1;
	m.num_subbufs = NSUBBUF;
	m.subbuf_size = SUBBUF;
	CHECK(!ipc_send(a.fd, &m, sizeof(m), -1, 0));
	m.slot = 1;
	m.subbuf_size = 1ull << 40; /* absurd */
	CHECK(!ipc_send(a.fd, &m, sizeof(m), -1, 0));
	m.subbuf_size = SUBBUF;
	m.num_subbufs = 3; /* not a power of two */
	CHECK(!ipc_send(a.fd, &m, sizeof(m), -1, 0));
	settle(pid, a.fd);
	CHECK(wait_batches(status, 0)); /* SIGUSR1 is the program's from then on */
	batch(pid, status, &nb);
	pump(&a);
	CHECK(!a.eof);
	/* a valid session in slot 1 records; then a SESSION cut short ends the connection */
	session(&a, 1, true, false, "svc:tick", at("x1"));
	settle(pid, a.fd);
	batch(pid, status, &nb); /* rounds 10-19 */
	pump(&a);
	close_traces(&a); /* written, then a SESSION cut short */
	CHECK(!ipc_send(a.fd, &m, sizeof(m) - 8, -1, 0));
	/* the program hangs up, and comes back (the socket is still there) */
	for (int i = 0; i < WAIT_MS && !a.eof; i++) {
		pump(&a);
		msleep(1);
	}
	CHECK(a.eof);
	if (!CHECK(accept_app(lfd, &b)))
		goto out;
	CHECK_EQ_S64(b.pid, pid);
	reply(&b, 0);
	settle(pid, b.fd);
	batch(pid, status, &nb); /* 20-29: no session */
out:
	stop_service(pid, lfd, &a, &b);
	struct seen s;
	read_traces(at("x1"), &s);
	CHECK(exactly(s.req, RANGES({0, 0})));
	CHECK(exactly(s.tick, RANGES({10, 20})));
}

static bool all_eof(const struct app *apps, int n)
{
	for (int k = 0; k < n; k++)
		if (!apps[k].eof)
			return false;
	return true;
}

/* Run a program to its end, serving every process of it: join() gives each its sessions.
 * Returns how many processes registered. */
static int serve(char *const argv[], const char *sock, void (*join)(struct app *))
{
	struct app apps[4];
	int napps = 0, st = 0, lfd = listen_at(sock);
	bool exited = false;

	if (lfd < 0)
		return 0;
	pid_t pid = start_prog(argv, sock, sock); /* the same path twice: registered once */
	for (int i = 0; i < WAIT_MS && !(exited && all_eof(apps, napps)); i++) {
		if (readable(lfd, 0) && CHECK(napps < 4) && accept_app(lfd, &apps[napps]))
			join(&apps[napps++]);
		for (int k = 0; k < napps; k++)
			pump(&apps[k]);
		if (!exited && waitpid(pid, &st, WNOHANG) == pid)
			exited = true;
		else
			msleep(1);
	}
	CHECK(exited && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (int k = 0; k < napps; k++) {
		pump(&apps[k]);
		end_sessions(&apps[k]);
	}
	close(lfd);
	return napps;
}

static void join_hello(struct app *a)
{
	reply(a, 1);
	session(a, 2, true, false, "", at("h"));
}

/* hello: registered at start, so its first event (a printf in main) is recorded; its
 * forked child registers on its own. */
static void test_hello_fork(const char *hello)
{
	char *argv[] = {(char *) hello, "20", "1", "fork", NULL};
	struct seen s;

	CHECK_EQ_S64(serve(argv, at("h.sock"), join_hello), 2); /* parent and child, once each */
	read_traces(at("h"), &s);
	CHECK_EQ_U64(s.fd3, 20);
	CHECK_EQ_U64(s.fd103, 20);
	CHECK_EQ_U64(s.total, 2 + 3 * 20 + 3 * 20); /* two printfs, the parent's first */
	CHECK_EQ_U64(bt2_count(at("h")), s.total);
}

static void join_dl(struct app *a)
{
	reply(a, 2);
	session(a, 0, true, false, "plugin:*", at("d0"));
	session(a, 4, true, true, "", at("d4"));
}

/* A provider dlopen()ed while the program runs: its descriptors go to the daemon, and its
 * events to the sessions whose patterns they match. */
static void test_dlopen(const char *dl_late, const char *provider)
{
	char *argv[] = {(char *) dl_late, (char *) provider, "0", NULL};
	struct seen s0, s4;

	CHECK_EQ_S64(serve(argv, at("d.sock"), join_dl), 1);
	read_traces(at("d0"), &s0);
	read_traces(at("d4"), &s4);
	CHECK_EQ_U64(s0.plugin, 3);
	CHECK_EQ_U64(s0.total, 3);
	CHECK_EQ_U64(s4.plugin, 3);
	CHECK_EQ_U64(s4.late, 4);
	CHECK_EQ_U64(s4.total, 7);
	CHECK_EQ_U64(bt2_count(at("d4")), s4.total);
}

int main(void)
{
	const char *service = getenv("SERVICE"), *hello = getenv("HELLO"),
	           *dl_late = getenv("DL_LATE"), *provider = getenv("DL_PROVIDER");

	if (!service || !hello || !dl_late || !provider) {
		printf("SERVICE, HELLO, DL_LATE and DL_PROVIDER name the programs\n");
		return 1;
	}
	strcpy(tmp, "/tmp/test-ust-sessions-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	rec_clock_calibrate(&clk);
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	test_service(service);
	test_hello_fork(hello);
	test_hostile(service);
	test_dlopen(dl_late, provider);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (!check_failed && system(cmd))
		printf("cannot remove %s\n", tmp);
	return check_done();
}
