/* SPDX-License-Identifier: MIT */
/*
 * mhd.h: libmicrohttpd's functions that spoor view calls, loaded when the server starts
 * (dlopen of the library's soname, which meson reads from it at build time). Every other
 * command of the `spoor` binary starts without loading it and the nine libraries it
 * pulls in (GnuTLS, p11-kit, nettle, ...), about 1.2 ms of each command's start-up.
 */
#ifndef VIEW_MHD_H
#define VIEW_MHD_H

#include <microhttpd.h>
#include <stddef.h>

struct mhd_api {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_set_connection_option) *set_connection_option;
	__typeof__(MHD_http_unescape) *http_unescape;
};

/* The functions, loaded at the first call (not thread-safe: call it before any thread
 * uses them); NULL with a message in err when the library or one of them is missing. */
const struct mhd_api *mhd_load(char *err, size_t errsize);

#endif
