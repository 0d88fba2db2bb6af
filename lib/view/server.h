/* SPDX-License-Identifier: MIT */
/*
 * server.h: spoor view's HTTP server (libmicrohttpd): 127.0.0.1 only, every path under a
 * random token, the embedded page (assets.h) and the JSON API (api.h). Nothing it serves
 * comes from the file system.
 */
#ifndef VIEW_SERVER_H
#define VIEW_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "view/api.h"

/* "http://127.0.0.1:65535/" + 32 hex digits + "/" */
#define VIEW_URL_MAX 64

struct view_server;

/* Listen on 127.0.0.1:port (0: any free port) and answer from threads of its own until
 * view_server_stop. *url gets the page's address, token included. 0, or -errno with a
 * message in err. */
int view_server_start(uint16_t port, struct view_api *api, struct view_server **out,
                      char url[VIEW_URL_MAX], char *err, size_t errsize);
/* Stop listening, end the connections, free. NULL is a no-op. */
void view_server_stop(struct view_server *s);

#endif
