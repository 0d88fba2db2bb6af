/* SPDX-License-Identifier: MIT */
/*
 * assets.h: the page's files, built into the command: web/embed.py writes assets.c from
 * every file under web/ at build time (meson custom_target), so spoor view reads no file to
 * answer a request.
 */
#ifndef VIEW_ASSETS_H
#define VIEW_ASSETS_H

#include <stddef.h>

struct view_asset {
	const char *name; /* its path under web/: "index.html" */
	const char *type; /* Content-Type */
	const unsigned char *data;
	size_t size;
};

extern const struct view_asset view_assets[];
extern const size_t view_asset_count;

#endif
