/* SPDX-License-Identifier: MIT */
/*
 * test-daemon.c: the session daemon's message handling without its socket (daemon.h, as a
 * fuzzer drives it): control requests from users of their own, programs registering, the
 * SESSION messages they get as sessions come, change and go, and who may see what.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "daemon/daemon.h"
#include "ipc/ctl.h"

static char dir[] = "/tmp/spoor-test-daemon-XXXXXX";

/* A connection whose far end we read: returns the far end. */
static int connect_as(struct daemon *d, uid_t uid, bool privileged, struct dconn **c)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	struct daemon_creds cr = {.pid = 4242, .uid = uid, .gid = uid, .privileged = privileged};
	*c = daemon_conn_add(d, sv[0], &cr);
	return sv[1];
}

/* One request (lines "KEY VALUE", the first the verb) as uid: the status; stdout in out. */
static int request(struct daemon *d, uid_t uid, char *out, size_t cap, const char *verb, ...)
{
	static struct ctl_request r;
	static char reply[CTL_MAX_REPLY];
	struct dconn *c;
	int far = connect_as(d, uid, uid == 0, &c);
	va_list ap;
	ctl_request_begin(&r, verb);
	va_start(ap, verb);
	for (const char *k; (k = va_arg(ap, const char *));)
		ctl_request_add(&r, k, va_arg(ap, const char *));
	va_end(ap);
	ctl_request_end(&r);
	CHECK(daemon_conn_message(d, c, r.buf, r.len, -1) == -1); /* one request a connection */
	daemon_conn_gone(d, c);
	ssize_t n = recv(far, reply, sizeof(reply), 0);
	close(far);
	int status = -1;
	const char *o, *e;
	size_t ol, el;
	if (!CHECK(n > 0 && !ctl_reply_parse(reply, (size_t) n, &status, &o, &ol, &e, &el)))
		return -1;
	snprintf(out, cap, "%.*s%.*s", (int) ol, o, (int) el, e);
	return status;
}

/* The next message the daemon sent to a program; its type, or 0 when none waits. */
static uint32_t next(int far, void *buf, size_t cap, int *fd)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {buf, cap};
	struct msghdr mh = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
	ssize_t n = recvmsg(far, &mh, MSG_DONTWAIT);
	if (fd)
		*fd = -1;
	struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (c && c->cmsg_type == SCM_RIGHTS && fd)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	if (n < (ssize_t) sizeof(struct proto_head))
		return 0;
	return ((struct proto_head *) buf)->type;
}

static int hello(struct daemon *d, struct dconn *c, uid_t uid)
{
	struct proto_hello h = {
	    {PROTO_MAGIC, PROTO_VERSION, MSG_HELLO, sizeof(h)}, 77, 1, uid, "service"};
	return daemon_conn_message(d, c, &h, sizeof(h), -1);
}

int main(void)
{
	char out[4096], path[200];
	if (!CHECK(mkdtemp(dir)))
		return check_done();
	struct daemon *d = daemon_new();

	/* a session of root's, discard, then its events */
	snprintf(path, sizeof(path), "%s/a", dir);
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "create", "name", "a", "output", path,
	                     "subbuf-size", "4096", "subbuffers", "4", NULL),
	             0);
	CHECK(strstr(out, "session a created: trace in") != NULL);
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "enable", "name", "a", "u", "svc:*", NULL), 0);
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "start", "name", "a", NULL), 0);

	/* a program registers: one session, slot 0, active, its patterns, and the doorbell */
	struct dconn *app;
	int far = connect_as(d, 1000, false, &app);
	CHECK_EQ_S64(hello(d, app, 1000), 0);
	union {
		struct proto_hello_reply r;
		struct proto_session s;
		struct proto_session_end e;
		char b[2048];
	} m;
	int efd;
	CHECK_EQ_S64(next(far, &m, sizeof(m), &efd), MSG_HELLO_REPLY);
	CHECK_EQ_S64(m.r.nsessions, 1);
	CHECK(efd >= 0);
	if (efd >= 0)
		close(efd);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), MSG_SESSION);
	CHECK_EQ_S64(m.s.slot, 0);
	CHECK_EQ_S64(m.s.active, 1);
	CHECK_EQ_S64(m.s.mode, 0);
	CHECK_EQ_U64(m.s.subbuf_size, 4096);
	CHECK_STR(m.s.patterns, "svc:*");

	/* a second session, a flight recorder, not started: slot 1, off */
	snprintf(path, sizeof(path), "%s/b", dir);
	request(d, 0, out, sizeof(out), "create", "name", "b", "output", path, "overwrite", "1",
	        NULL);
	CHECK_EQ_S64(
	    request(d, 0, out, sizeof(out), "enable", "name", "b", "u", "svc:request", NULL), 0);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), MSG_SESSION);
	CHECK_EQ_S64(m.s.slot, 1);
	CHECK_EQ_S64(m.s.active, 0);
	CHECK_EQ_S64(m.s.mode, 1);
	CHECK_STR(m.s.patterns, "svc:request");
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "start", "name", "b", NULL), 0);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), MSG_SESSION);
	CHECK_EQ_S64(m.s.active, 1);

	/* disabling the last pattern turns the slot off; the list says so */
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "disable", "name", "a", "u", "svc:*", NULL),
	             0);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), MSG_SESSION);
	CHECK_EQ_S64(m.s.slot, 0);
	CHECK_EQ_S64(m.s.active, 0);
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "list", "name", "a", NULL), 0);
	CHECK(strstr(out, "user-space events: none") &&
	      strstr(out, "service (pid 4242, uid 1000)"));

	/* a buffer for a slot that has no session, or without its memfd: dropped */
	struct proto_buffer b = {{PROTO_MAGIC, PROTO_VERSION, MSG_BUFFER, sizeof(b)}, 1, 9, 4096};
	CHECK_EQ_S64(daemon_conn_message(d, app, &b, sizeof(b), -1), -1);

	/* destroy: the slot ends */
	CHECK_EQ_S64(request(d, 0, out, sizeof(out), "destroy", "name", "a", NULL), 0);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), MSG_SESSION_END);
	CHECK_EQ_S64(m.e.slot, 0);

	/* another user sees none of root's sessions, and cannot drive them */
	CHECK_EQ_S64(request(d, 1000, out, sizeof(out), "list", NULL), 0);
	CHECK_STR(out, "no sessions\n");
	CHECK_EQ_S64(request(d, 1000, out, sizeof(out), "stop", "name", "b", NULL), 1);
	CHECK(strstr(out, "no session 'b'") != NULL);
	CHECK_EQ_S64(request(d, 1000, out, sizeof(out), "enable", "name", "b", "k", "sched", NULL),
	             1);
	/* a user's session is made as that user (a root daemon), and traces that user's
	 * programs only */
	snprintf(path, sizeof(path), "%s/c", dir);
	if (geteuid() == 0) {
		CHECK_EQ_S64(
		    request(d, 2000, out, sizeof(out), "create", "name", "c", "output", path, NULL),
		    1);
		CHECK(strstr(out, "Permission denied") != NULL);
	}
	chmod(dir, 01777);
	CHECK_EQ_S64(
	    request(d, 2000, out, sizeof(out), "create", "name", "c", "output", path, NULL), 0);
	struct stat st;
	CHECK(!stat(path, &st) && st.st_uid == (geteuid() == 0 ? 2000 : geteuid()));
	CHECK_EQ_S64(request(d, 2000, out, sizeof(out), "enable", "name", "c", "u", "x:*", NULL),
	             0);
	CHECK_EQ_S64(next(far, &m, sizeof(m), NULL), 0); /* uid 1000's program: not attached */
	struct dconn *mine;
	int far2 = connect_as(d, 2000, false, &mine);
	CHECK_EQ_S64(hello(d, mine, 2000), 0);
	CHECK_EQ_S64(next(far2, &m, sizeof(m), &efd), MSG_HELLO_REPLY);
	CHECK_EQ_S64(m.r.nsessions, 2); /* its owner's, and root's b */
	if (efd >= 0)
		close(efd);

	/* a program describing events without end is dropped past 4 MiB, not kept */
	static char ev[200 << 10];
	struct proto_head eh = {PROTO_MAGIC, PROTO_VERSION, MSG_EVENTS, 0};
	size_t len = sizeof(eh);
	int id = 0;
	while (len + 300 < sizeof(ev))
		len += (size_t) snprintf(ev + len, sizeof(ev) - len, "event %d %0120d e 1 0\n",
		                         id++, 0);
	eh.length = (uint32_t) len;
	memcpy(ev, &eh, sizeof(eh));
	int rc = 0, sent = 0;
	for (; sent < 40 && !rc; sent++)
		rc = daemon_conn_message(d, mine, ev, len, -1);
	CHECK_EQ_S64(rc, -1);
	CHECK_EQ_S64(sent, (4 << 20) / (long) (len - sizeof(eh)) + 1);

	/* one uid's programs take at most 1/8 of the connections: room stays for the others' */
	struct daemon *full = daemon_new();
	struct daemon_creds u1 = {.pid = 1, .uid = 1000, .gid = 1000}, u2 = u1;
	u2.uid = 2000;
	int refused = -1;
	for (int i = 0; i < 800 && refused < 0; i++)
		if (hello(full, daemon_conn_add(full, -1, &u1), 1000))
			refused = i;
	CHECK_EQ_S64(refused, 128);
	CHECK_EQ_S64(hello(full, daemon_conn_add(full, -1, &u2), 2000), 0);
	daemon_free(full);

	/* malformed: a second HELLO, an unknown type, a control request on a program's
	 * connection, random bytes on a new one */
	CHECK_EQ_S64(hello(d, mine, 2000), -1);
	struct dconn *x;
	int far3 = connect_as(d, 3000, false, &x);
	char junk[100];
	memset(junk, 0x5a, sizeof(junk));
	CHECK_EQ_S64(daemon_conn_message(d, x, junk, sizeof(junk), -1), -1);
	CHECK_EQ_S64(daemon_conn_message(d, x, junk, 3, -1), -1);
	close(far3);

	close(far);
	close(far2);
	daemon_free(d); /* b finished, connections closed */
	snprintf(out, sizeof(out), "rm -rf %s", dir);
	CHECK_EQ_S64(system(out), 0);
	return check_done();
}
