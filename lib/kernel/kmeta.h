/* SPDX-License-Identifier: MIT */
/*
 * kmeta.h: a kernel trace's CTF metadata: written whole when a trace (the first chunk, a
 * later one, a snapshot) begins, and grown by one event block for each event enabled while
 * tracing runs, before its first record can be written.
 */
#ifndef KERNEL_KMETA_H
#define KERNEL_KMETA_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kclass.h"

struct rec_clock;
struct meta_env;

#define KMETA_NAME_MAX    256 /* kmeta_lttng_env's name */
#define KMETA_CREATED_MAX 32  /* and created */
#define KMETA_LTTNG_NENV  9   /* the entries it gives */

/* The trace_name and trace_creation_datetime of the LTTng layout's env. lttng-sessiond
 * gives lttng-modules its session's name and creation time, the same in every chunk and
 * snapshot: a daemon's session gives its own. NULL (or name NULL, created 0): the
 * trace's directory's name (DIR/kernel's DIR) and now, as `spoor record` has no other. */
struct kmeta_origin {
	const char *name;
	time_t created;
};

/* DIR/metadata with every class of cs. With meta_fd, the file stays open there for
 * kmeta_append (the chunk's directory may be renamed meanwhile); else it is closed. */
int kmeta_write(const char *dir, const struct kmeta_origin *origin, const struct kclasses *cs,
                const uint8_t uuid[16], const struct rec_clock *clock, int *meta_fd, char *err,
                size_t errlen);
/* The LTTng layout's env entries that name the tracer, in place of spoor's tracer_*:
 * lttng-modules 2.13's (src/lttng-events.c: tracer_name to trace_creation_datetime, the
 * trace named and dated by origin) and spoor's own that say what wrote it (spoor_layout,
 * spoor_version). The recorder's and spoor convert's: into env (KMETA_LTTNG_NENV entries),
 * the values held in name and created; returns the count. */
size_t kmeta_lttng_env(const char *dir, const struct kmeta_origin *origin, struct meta_env *env,
                       char *name, char *created);
/* Declare one more class at the end of the open metadata. */
int kmeta_append(int meta_fd, const struct kclass *c, char *err, size_t errlen);

#endif
