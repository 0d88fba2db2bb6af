/* SPDX-License-Identifier: MIT */
/* kmeta.c: a kernel trace's CTF metadata (see kmeta.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ctf/meta-write.h"
#include "kmeta.h"
#include "record/clock.h"
#include "spoor/spoor.h"
#include "util/writeall.h"

/* The trace's name as LTTng's env gives it: its directory's (DIR/kernel's DIR). */
static void trace_name(const char *dir, char *out, size_t cap)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", dir);
	char *slash = strrchr(copy, '/');
	if (slash && !strcmp(slash, "/kernel"))
		*slash = '\0';
	for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	snprintf(out, cap, "%s", slash ? slash + 1 : copy);
}

size_t kmeta_lttng_env(const char *dir, const struct kmeta_origin *origin, struct meta_env *env,
                       char *name, char *created)
{
	time_t when = origin && origin->created ? origin->created : time(NULL);
	struct tm tm;
	strftime(created, KMETA_CREATED_MAX, "%Y%m%dT%H%M%S%z", localtime_r(&when, &tm));
	if (origin && origin->name)
		snprintf(name, KMETA_NAME_MAX, "%s", origin->name);
	else
		trace_name(dir, name, KMETA_NAME_MAX);
	size_t n = 0;
	env[n++] = (struct meta_env){"tracer_name", "lttng-modules", 0, 1};
	env[n++] = (struct meta_env){"tracer_major", NULL, 2, 0};
	env[n++] = (struct meta_env){"tracer_minor", NULL, 13, 0};
	env[n++] = (struct meta_env){"tracer_patchlevel", NULL, 0, 0};
	env[n++] = (struct meta_env){"trace_buffering_scheme", "global", 0, 1};
	env[n++] = (struct meta_env){"trace_name", name, 0, 1};
	env[n++] = (struct meta_env){"trace_creation_datetime", created, 0, 1};
	env[n++] = (struct meta_env){"spoor_layout", "lttng", 0, 1};
	env[n++] = (struct meta_env){"spoor_version", SPOOR_VERSION, 0, 1};
	return n;
}

/* The env: spoor's, or in the LTTng layout lttng-modules 2.13's keys (kmeta_lttng_env). */
static size_t fill_env(const char *dir, const struct kmeta_origin *origin, enum klayout layout,
                       const struct rec_clock *clock, const struct utsname *u, struct meta_env *env,
                       char *host, char *name, char *created)
{
	gethostname(host, 255);
	size_t n = 0;
	env[n++] = (struct meta_env){"hostname", host, 0, 1};
	env[n++] = (struct meta_env){"domain", "kernel", 0, 1};
	env[n++] = (struct meta_env){"sysname", u->sysname, 0, 1};
	env[n++] = (struct meta_env){"kernel_release", u->release, 0, 1};
	env[n++] = (struct meta_env){"kernel_version", u->version, 0, 1};
	if (layout == KLAYOUT_LTTNG) {
		n += kmeta_lttng_env(dir, origin, env + n, name, created);
	} else {
		env[n++] = (struct meta_env){"tracer_name", "spoor", 0, 1};
		env[n++] = (struct meta_env){"tracer_major", NULL, SPOOR_VERSION_MAJOR, 0};
		env[n++] = (struct meta_env){"tracer_minor", NULL, SPOOR_VERSION_MINOR, 0};
		env[n++] = (struct meta_env){"tracer_patchlevel", NULL, SPOOR_VERSION_PATCH, 0};
	}
	env[n++] = (struct meta_env){"trace_clock", rec_clock_kernel_name(clock), 0, 1};
	return n;
}

int kmeta_write(const char *dir, const struct kmeta_origin *origin, const struct kclasses *cs,
                const uint8_t uuid[16], const struct rec_clock *clock, int *meta_fd, char *err,
                size_t errlen)
{
	char host[256] = "", name[KMETA_NAME_MAX] = "", created[KMETA_CREATED_MAX] = "";
	struct meta_env env[16];
	struct utsname u;
	uname(&u);
	size_t nenv = fill_env(dir, origin, cs->layout, clock, &u, env, host, name, created);
	static const char *const cpu_id[] = {"cpu_id"};
	struct meta_trace t = {.env = env,
	                       .nenv = nenv,
	                       .packed = 1,
	                       .packet_u32 = cpu_id,
	                       .npacket_u32 = 1,
	                       .event_context = cs->context,
	                       .nevent_context = cs->ncontext};
	memcpy(t.uuid, uuid, 16);
	rec_clock_meta(clock, &t.clock);
	const struct spoor_event_desc **descs = calloc(cs->n ? cs->n : 1, sizeof(*descs));
	if (!descs)
		return -ENOMEM;
	for (size_t i = 0; i < cs->n; i++)
		descs[i] = &cs->v[i].desc;
	char *text = NULL;
	size_t len = 0;
	int rc = ctf_meta_write(&t, descs, cs->n, &text, &len);
	free(descs);
	if (rc) {
		snprintf(err, errlen, "cannot describe the kernel events in CTF: %s",
		         strerror(-rc));
		return rc;
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/metadata", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	rc = fd < 0 ? -errno : write_all(fd, text, len);
	free(text);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (meta_fd)
		*meta_fd = fd;
	else if (close(fd)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	return rc;
}

int kmeta_append(int meta_fd, const struct kclass *c, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc = ctf_meta_write_event(&c->desc, 1, &text, &len);
	if (rc) {
		snprintf(err, errlen, "cannot describe kernel event %s in CTF: %s", c->desc.name,
		         strerror(-rc));
		return rc;
	}
	rc = write_all(meta_fd, text, len);
	free(text);
	if (rc)
		snprintf(err, errlen, "cannot declare kernel event %s in the trace's metadata: %s",
		         c->desc.name, strerror(-rc));
	return rc;
}
