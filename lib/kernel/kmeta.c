/* SPDX-License-Identifier: MIT */
/* kmeta.c: a kernel trace's CTF metadata (see kmeta.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ctf/meta-write.h"
#include "kmeta.h"
#include "record/clock.h"
#include "spoor/spoor.h"
#include "util/writeall.h"

int kmeta_write(const char *dir, const struct kclasses *cs, const uint8_t uuid[16],
                const struct rec_clock *clock, int *meta_fd, char *err, size_t errlen)
{
	char host[256] = "";
	struct utsname u;
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	const struct meta_env env[] = {
	    {"hostname", host, 0, 1},
	    {"domain", "kernel", 0, 1},
	    {"sysname", u.sysname, 0, 1},
	    {"kernel_release", u.release, 0, 1},
	    {"kernel_version", u.version, 0, 1},
	    {"tracer_name", "spoor", 0, 1},
	    {"tracer_major", NULL, SPOOR_VERSION_MAJOR, 0},
	    {"tracer_minor", NULL, SPOOR_VERSION_MINOR, 0},
	    {"tracer_patchlevel", NULL, SPOOR_VERSION_PATCH, 0},
	    {"trace_clock", rec_clock_kernel_name(clock), 0, 1},
	};
	static const char *const cpu_id[] = {"cpu_id"};
	struct meta_trace t = {.env = env,
	                       .nenv = sizeof(env) / sizeof(env[0]),
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
