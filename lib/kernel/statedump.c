/* SPDX-License-Identifier: MIT */
/* statedump.c: /proc's threads as statedump_process events (see statedump.h). */
#include "statedump.h"
#include "ksynth.h"
#include "procwalk.h"

const struct spoor_field_desc statedump_fields[4] = {
    {.name = "tid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "pid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "ppid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "name", .kind = SPOOR_FK_STRING},
};

struct dump {
	struct kpacket *p;
	const struct kclasses *cs;
	uint32_t id;
	uint64_t ts;
};

static int emit(const struct proc_task *t, void *data)
{
	struct dump *d = data;
	union ksynth_val v[4] = {{.i = t->tid}, {.i = t->pid}, {.i = t->ppid}, {.s = t->comm}};
	return ksynth_emit(d->p, d->cs, d->id, d->ts, t->tid, v);
}

long statedump_write(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts,
                     const char *proc_root)
{
	struct dump d = {p, cs, id, ts};
	return proc_walk(proc_root, emit, &d);
}
