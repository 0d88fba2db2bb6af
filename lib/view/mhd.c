/* SPDX-License-Identifier: MIT */
/* mhd.c: libmicrohttpd loaded on demand (see mhd.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "view/mhd.h"

#ifndef SPOOR_MHD_SONAME
#error "SPOOR_MHD_SONAME: libmicrohttpd's soname (meson.build reads it from the library)"
#endif

const struct mhd_api *mhd_load(char *err, size_t errsize)
{
	static struct mhd_api api;
	static void *lib;

	if (lib)
		return &api;
	void *h = dlopen(SPOOR_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errsize, "cannot load libmicrohttpd: %s", dlerror());
		return NULL;
	}
	static const struct {
		const char *name;
		size_t at;
	} fns[] = {
#define FN(f) {"MHD_" #f, offsetof(struct mhd_api, f)}
	    FN(start_daemon),
	    FN(stop_daemon),
	    FN(create_response_from_buffer),
	    FN(add_response_header),
	    FN(queue_response),
	    FN(destroy_response),
	    FN(lookup_connection_value),
	    FN(get_connection_info),
	    FN(set_connection_option),
	    FN(http_unescape),
#undef FN
	};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		void *f = dlsym(h, fns[i].name);
		if (!f) {
			snprintf(err, errsize, "libmicrohttpd (%s) has no %s", SPOOR_MHD_SONAME,
			         fns[i].name);
			dlclose(h);
			return NULL;
		}
		/* a function pointer stored through its object representation (POSIX dlsym) */
		memcpy((char *) &api + fns[i].at, &f, sizeof(f));
	}
	lib = h;
	return &api;
}
