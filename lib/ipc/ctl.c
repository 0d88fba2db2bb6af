/* SPDX-License-Identifier: MIT */
/* ctl.c: the control protocol's messages (see ctl.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ctl.h"

void ctl_request_begin(struct ctl_request *r, const char *verb)
{
	r->len = sizeof(struct proto_head);
	r->too_long = false;
	ctl_request_add(r, "verb", verb);
}

void ctl_request_add(struct ctl_request *r, const char *key, const char *value)
{
	size_t kl = strlen(key), vl = strlen(value);
	if (r->too_long || strchr(value, '\n') || r->len + kl + vl + 2 > sizeof(r->buf)) {
		r->too_long = true;
		return;
	}
	memcpy(r->buf + r->len, key, kl);
	r->buf[r->len + kl] = ' ';
	memcpy(r->buf + r->len + kl + 1, value, vl);
	r->buf[r->len + kl + 1 + vl] = '\n';
	r->len += kl + vl + 2;
}

void ctl_request_add_u64(struct ctl_request *r, const char *key, uint64_t value)
{
	char v[24];
	snprintf(v, sizeof(v), "%" PRIu64, value);
	ctl_request_add(r, key, v);
}

int ctl_request_end(struct ctl_request *r)
{
	if (r->too_long)
		return -1;
	struct proto_head h = {PROTO_MAGIC, PROTO_VERSION, MSG_CTL_REQUEST, (uint32_t) r->len};
	memcpy(r->buf, &h, sizeof(h));
	return 0;
}

int ctl_parse(struct ctl_parsed *p, const void *msg, size_t len, char *err, size_t errlen)
{
	struct proto_head h;
	p->n = 0;
	p->verb = NULL;
	if (len < sizeof(h) || len > sizeof(p->text)) {
		snprintf(err, errlen, "a request of %zu bytes", len);
		return -1;
	}
	memcpy(&h, msg, sizeof(h));
	if (h.magic != PROTO_MAGIC || h.version != PROTO_VERSION || h.type != MSG_CTL_REQUEST ||
	    h.length != len) {
		snprintf(err, errlen, "not a control request of this version");
		return -1;
	}
	size_t n = len - sizeof(h);
	memcpy(p->text, (const char *) msg + sizeof(h), n);
	if (memchr(p->text, '\0', n) || (n && p->text[n - 1] != '\n')) {
		snprintf(err, errlen, "a request must be lines of text");
		return -1;
	}
	for (char *line = p->text, *end = p->text + n; line < end;) {
		char *nl = memchr(line, '\n', (size_t) (end - line));
		char *sp = memchr(line, ' ', (size_t) (nl - line));
		if (!sp || sp == line || p->n == CTL_MAX_LINES) {
			snprintf(err, errlen,
			         p->n == CTL_MAX_LINES ? "too many lines in a request"
			                               : "a request line is not 'KEY VALUE'");
			return -1;
		}
		*sp = *nl = '\0';
		p->kv[p->n].key = line;
		p->kv[p->n++].value = sp + 1;
		line = nl + 1;
	}
	if (!p->n || strcmp(p->kv[0].key, "verb")) {
		snprintf(err, errlen, "a request starts with its verb");
		return -1;
	}
	p->verb = p->kv[0].value;
	return 0;
}

const char *ctl_get(const struct ctl_parsed *p, const char *key)
{
	for (size_t i = 1; i < p->n; i++)
		if (!strcmp(p->kv[i].key, key))
			return p->kv[i].value;
	return NULL;
}

/* Copy as much of text as fits in room, with a note at the end when cut. */
static size_t put_text(char *to, size_t room, const char *text, size_t len)
{
	static const char cut[] = "\n[... cut: the reply was too long]\n";
	if (len <= room) {
		memcpy(to, text, len);
		return len;
	}
	if (room < sizeof(cut))
		return 0;
	memcpy(to, text, room - (sizeof(cut) - 1));
	memcpy(to + room - (sizeof(cut) - 1), cut, sizeof(cut) - 1);
	return room;
}

size_t ctl_reply_build(void *buf, size_t cap, int status, const char *out, size_t outlen,
                       const char *err, size_t errlen)
{
	struct ctl_reply_head r = {{PROTO_MAGIC, PROTO_VERSION, MSG_CTL_REPLY, 0}, status, 0};
	char *p = (char *) buf + sizeof(r);
	size_t room = cap - sizeof(r);
	/* stderr gets its share first: an error must reach the user */
	size_t err_room = errlen < room / 2 ? errlen : room / 2;
	size_t o = put_text(p, room - err_room, out ? out : "", outlen);
	size_t e = put_text(p + o, room - o, err ? err : "", errlen);
	r.outlen = (uint32_t) o;
	r.h.length = (uint32_t) (sizeof(r) + o + e);
	memcpy(buf, &r, sizeof(r));
	return r.h.length;
}

int ctl_reply_parse(const void *msg, size_t len, int *status, const char **out, size_t *outlen,
                    const char **err, size_t *errlen)
{
	struct ctl_reply_head r;
	if (len < sizeof(r))
		return -1;
	memcpy(&r, msg, sizeof(r));
	if (r.h.magic != PROTO_MAGIC || r.h.version != PROTO_VERSION || r.h.type != MSG_CTL_REPLY ||
	    r.h.length != len || r.outlen > len - sizeof(r))
		return -1;
	*status = r.status;
	*out = (const char *) msg + sizeof(r);
	*outlen = r.outlen;
	*err = *out + r.outlen;
	*errlen = len - sizeof(r) - r.outlen;
	return 0;
}

int ctl_connect(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *) &sa, sizeof(sa))) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

int ctl_send(int fd, const struct ctl_request *r)
{
	ssize_t n;
	do
		n = send(fd, r->buf, r->len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t) r->len ? 0 : n < 0 ? -errno : -EIO;
}

long ctl_receive(int fd, void *buf, size_t cap)
{
	ssize_t n;
	do
		n = recv(fd, buf, cap, MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ECONNRESET; /* the daemon went away without a reply */
	return (size_t) n > cap ? -EMSGSIZE : (long) n;
}

long ctl_call(const char *path, const struct ctl_request *r, void *buf, size_t cap)
{
	int fd = ctl_connect(path);
	if (fd < 0)
		return fd;
	long rc = ctl_send(fd, r);
	if (!rc)
		rc = ctl_receive(fd, buf, cap);
	close(fd);
	return rc;
}
