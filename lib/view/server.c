/* SPDX-License-Identifier: MIT */
/*
 * server.c: spoor view's HTTP server (see server.h).
 *
 * Access: the token (128 bits from getrandom) is the only secret between the user and the
 * traces: any local user can connect to 127.0.0.1. A request whose path does not begin
 * with /TOKEN/ gets 403 (compared in constant time); under it, only the embedded assets and
 * api/ answer, by exact name, and anything else gets 404, so no path can reach a file.
 *
 * Threads: a thread per connection (libmicrohttpd's MHD_USE_THREAD_PER_CONNECTION), so a
 * long request (range statistics: passes over the trace) does not hold up the spans a
 * zoom asks for; api.c gives each trace-reading request its own reader.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "view/assets.h"
#include "view/mhd.h"
#include "view/server.h"

enum {
	TOKEN_BYTES = 16,
	TOKEN_HEX = 2 * TOKEN_BYTES,
	/* a connection's memory, its request's line and headers included: libmicrohttpd's
	 * 32 KiB would refuse (414) the statistics of a few thousand threads */
	CONNECTION_MEMORY = 512 * 1024,
	/* connections at once: enough that idle ones of someone without the token (who can
	 * connect: any local user) do not lock the user out, each dropped after a short
	 * timeout until its request shows the token (then the long one) */
	CONNECTIONS_MAX = 512,
	TIMEOUT_STRANGER = 10, /* seconds */
	TIMEOUT_USER = 120,
};

/* libmicrohttpd's functions (mhd.h), loaded by the first view_server_start */
static const struct mhd_api *mhd;

struct view_server {
	struct MHD_Daemon *mhd;
	int fd; /* the listening socket (MHD's once it started) */
	struct view_api *api;
	char prefix[TOKEN_HEX + 3]; /* "/TOKEN/" */
	/* the Host headers a browser sends for our address: another (a DNS name rebound to
	 * 127.0.0.1 by a web page) is not ours */
	char host_ip[32], host_name[32];
	bool stopping; /* atomic: the requests in progress end */
};

/* A request's context for the API: its connection, and the server (stopping or not). */
struct request {
	struct view_server *s;
	struct MHD_Connection *c;
};

/* Every response: never cached (the token is in the URL, the data the user's), scripts
 * and styles from the page's own origin only, and no referrer to carry the token away. */
static const char *const security_headers[][2] = {
    {"Cache-Control", "no-store"},
    {"Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"Cross-Origin-Resource-Policy", "same-origin"},
};

static enum MHD_Result reply(struct MHD_Connection *c, int status, const char *type,
                             const void *body, size_t len, bool must_free)
{
	struct MHD_Response *r = mhd->create_response_from_buffer(
	    len, (void *) body, must_free ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (must_free)
			free((void *) body);
		return MHD_NO;
	}
	for (size_t i = 0; i < sizeof(security_headers) / sizeof(security_headers[0]); i++)
		mhd->add_response_header(r, security_headers[i][0], security_headers[i][1]);
	mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	enum MHD_Result ok = mhd->queue_response(c, (unsigned) status, r);
	mhd->destroy_response(r);
	return ok;
}

static enum MHD_Result send_text(struct MHD_Connection *c, int status, const char *text)
{
	return reply(c, status, "text/plain; charset=utf-8", text, strlen(text), false);
}

/* Whether url begins with the prefix, in a time that does not depend on where they
 * differ (only on the prefix's length). */
static bool has_prefix(const struct view_server *s, const char *url)
{
	size_t n = strnlen(url, sizeof(s->prefix) - 1);
	unsigned char diff = n != sizeof(s->prefix) - 1;
	for (size_t i = 0; i < sizeof(s->prefix) - 1; i++)
		diff |= (unsigned char) ((i < n ? url[i] : 0) ^ s->prefix[i]);
	return !diff;
}

static const struct view_asset *asset(const char *name)
{
	if (!*name)
		name = "index.html";
	for (size_t i = 0; i < view_asset_count; i++)
		if (!strcmp(view_assets[i].name, name))
			return &view_assets[i];
	return NULL;
}

static const char *arg_of(void *ctx, const char *name)
{
	const struct request *q = ctx;
	return mhd->lookup_connection_value(q->c, MHD_GET_ARGUMENT_KIND, name);
}

/* The client closed its side (a browser dropping a request, fetch's abort, does so), or
 * the server stops. */
static bool gone(void *ctx)
{
	const struct request *q = ctx;
	if (__atomic_load_n(&q->s->stopping, __ATOMIC_ACQUIRE))
		return true;
	const union MHD_ConnectionInfo *i =
	    mhd->get_connection_info(q->c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct pollfd p = {.fd = i ? i->connect_fd : -1, .events = POLLIN | POLLRDHUP};
	return i && poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
	struct view_server *s = cls;
	static int seen;
	if (!*con_cls) { /* headers read: answer on the next call, once the request is whole
		          * (answering now would cost the connection its keep-alive) */
		*con_cls = &seen;
		return MHD_YES;
	}
	if (*upload_size) { /* a GET's body: not ours to read */
		*upload_size = 0;
		return MHD_YES;
	}
	const char *host = mhd->lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
	if (!host || (strcmp(host, s->host_ip) && strcmp(host, s->host_name)))
		return send_text(c, MHD_HTTP_FORBIDDEN,
		                 "403 forbidden: spoor view answers requests for 127.0.0.1 "
		                 "or localhost and its port only\n");
	if (!has_prefix(s, url))
		return send_text(c, MHD_HTTP_FORBIDDEN,
		                 "403 forbidden: the URL lacks the token "
		                 "that spoor view printed\n");
	mhd->set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned) TIMEOUT_USER);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "405 method not allowed\n");
	const char *name = url + sizeof(s->prefix) - 1;
	if (!strncmp(name, "api/", 4)) {
		struct view_reply r;
		struct request q = {s, c};
		view_api_answer(s->api, name + 4, arg_of, gone, &q, &r);
		return reply(c, r.status, r.type, r.body, r.len, true);
	}
	const struct view_asset *a = asset(name);
	if (!a)
		return send_text(c, MHD_HTTP_NOT_FOUND, "404 not found\n");
	return reply(c, MHD_HTTP_OK, a->type, a->data, a->size, false);
}

/* After each request, its answer sent: the API opens a reader ahead (view_api_idle). */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
	struct view_server *s = cls;
	if (!__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE))
		view_api_idle(s->api);
}

/* The path stays as the client sent it (a "%2e%2e" or "%2f" is no name of ours: 404);
 * parameters are decoded. The path is the string that begins with '/'. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	return *s == '/' ? strlen(s) : mhd->http_unescape(s);
}

static int listen_local(uint16_t port, char *err, size_t errsize, uint16_t *bound)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errsize, "socket: %s", strerror(errno));
		return -errno;
	}
	struct sockaddr_in a = {.sin_family = AF_INET,
	                        .sin_port = htons(port),
	                        .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	if (bind(fd, (struct sockaddr *) &a, sizeof(a)) || listen(fd, SOMAXCONN) ||
	    getsockname(fd, (struct sockaddr *) &a, &len)) {
		int e = errno;
		snprintf(err, errsize, "cannot listen on 127.0.0.1:%u: %s", port, strerror(e));
		close(fd);
		return -e;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

int view_server_start(uint16_t port, struct view_api *api, struct view_server **out,
                      char url[VIEW_URL_MAX], char *err, size_t errsize)
{
	unsigned char random[TOKEN_BYTES];
	*out = NULL;
	if (!mhd && !(mhd = mhd_load(err, errsize)))
		return -ENOENT;
	if (getrandom(random, sizeof(random), 0) != (ssize_t) sizeof(random)) {
		snprintf(err, errsize, "getrandom: %s", strerror(errno));
		return -EIO;
	}
	struct view_server *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errsize, "out of memory");
		return -ENOMEM;
	}
	s->api = api;
	s->prefix[0] = '/';
	for (int i = 0; i < TOKEN_BYTES; i++)
		snprintf(s->prefix + 1 + 2 * i, 3, "%02x", random[i]);
	s->prefix[1 + TOKEN_HEX] = '/';
	uint16_t bound = 0;
	s->fd = listen_local(port, err, errsize, &bound);
	if (s->fd < 0) {
		int rc = s->fd;
		free(s);
		return rc;
	}
	snprintf(s->host_ip, sizeof(s->host_ip), "127.0.0.1:%u", bound);
	snprintf(s->host_name, sizeof(s->host_name), "localhost:%u", bound);
	s->mhd = mhd->start_daemon(
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, 0, NULL,
	    NULL, answer, s, MHD_OPTION_LISTEN_SOCKET, s->fd, MHD_OPTION_UNESCAPE_CALLBACK,
	    unescape, NULL, MHD_OPTION_CONNECTION_LIMIT, (unsigned) CONNECTIONS_MAX,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) CONNECTION_MEMORY,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned) TIMEOUT_STRANGER, MHD_OPTION_NOTIFY_COMPLETED,
	    completed, s, MHD_OPTION_END);
	if (!s->mhd) {
		snprintf(err, errsize, "libmicrohttpd would not start");
		close(s->fd);
		free(s);
		return -EIO;
	}
	snprintf(url, VIEW_URL_MAX, "http://127.0.0.1:%u%s", bound, s->prefix);
	*out = s;
	return 0;
}

void view_server_stop(struct view_server *s)
{
	if (!s)
		return;
	/* the requests in progress see it (gone) and end, which MHD_stop_daemon waits for */
	__atomic_store_n(&s->stopping, true, __ATOMIC_RELEASE);
	mhd->stop_daemon(s->mhd); /* closes the listening socket too */
	free(s);
}
