/* SPDX-License-Identifier: MIT */
/* kconvert.c: a spoor kernel trace in the LTTng layout (see kconvert.h): the input checked,
 * its classes renamed through the vocabulary table, the metadata, then each stream. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf/meta-write.h"
#include "ctf/stream.h"
#include "cv-int.h"
#include "cvfields.h"
#include "kernel/kmeta.h"
#include "kernel/kpaths.h"
#include "record/outdir.h"
#include "spoor/spoor.h"
#include "util/writeall.h"
#include "vocab/lttng-kernel.h"

#define MAX_IDS (1u << 20)

static const struct ctf_env_entry *env(const struct ctf_trace *t, const char *key)
{
	for (unsigned i = 0; i < t->meta.nenv; i++)
		if (!strcmp(t->meta.env[i].key, key))
			return &t->meta.env[i];
	return NULL;
}

static bool env_is(const struct ctf_trace *t, const char *key, const char *value)
{
	const struct ctf_env_entry *e = env(t, key);
	return e && e->is_string && !strcmp(e->text, value);
}

/* Only what spoor's kernel recorder wrote: its env, one stream class with a cpu_id. */
static int check_input(const char *dir, struct cv *c, char *err, size_t errlen)
{
	const struct ctf_trace *t = c->in;
	const struct ctf_env_entry *tracer = env(t, "tracer_name");
	if (!env_is(t, "domain", "kernel") || !tracer || !tracer->is_string) {
		snprintf(err, errlen, "%s: not a kernel trace (its env has no domain = \"kernel\")",
		         dir);
		return -SPOOR_EUNSUPPORTED;
	}
	if (strcmp(tracer->text, "spoor") || env_is(t, "spoor_layout", "lttng")) {
		snprintf(err, errlen,
		         "%s: not a kernel trace in spoor's layout (tracer_name \"%s\"): spoor "
		         "convert reads what `spoor record -k` writes",
		         dir, tracer->text);
		return -SPOOR_EUNSUPPORTED;
	}
	if (t->meta.nstreams != 1 || !t->meta.streams[0]->clock) {
		snprintf(err, errlen,
		         "%s: %u stream classes: spoor's kernel traces have one, with a clock", dir,
		         t->meta.nstreams);
		return -SPOOR_EUNSUPPORTED;
	}
	c->sc = t->meta.streams[0];
	return 0;
}

/* The event context: integers only; the LTTng layout keeps common_pid alone, as tid. */
static int context_of(struct cv *c, char *err, size_t errlen)
{
	if (cv_fields(c->sc->event_context, &c->ctx, &c->nctx, &c->ctx_entries, err, errlen))
		return -SPOOR_EUNSUPPORTED;
	c->out.ncontext = 0;
	for (uint32_t i = 0; i < c->nctx; i++) {
		if (c->ctx[i].kind != SPOOR_FK_INT) {
			snprintf(err, errlen, "event context member %s: not one of spoor's",
			         c->ctx[i].name);
			return -SPOOR_EUNSUPPORTED;
		}
		if (!strcmp(c->ctx[i].name, "common_pid")) {
			c->tid_at = c->ctx_bytes;
			c->out.context[0] = c->ctx[i];
			c->out.context[0].name = "tid";
			c->out.ncontext = 1;
		}
		c->ctx_bytes += c->ctx[i].size;
	}
	return 0;
}

static int index_of(const struct cv_class *k, const char *name)
{
	for (uint32_t i = 0; i < k->nin; i++)
		if (!strcmp(k->in[i].name, name))
			return (int) i;
	return -1;
}

/* spoor's dump: tid, pid, ppid and name, integers and text, become LTTng's dump. */
static int dump_class(struct cv_class *k)
{
	static const char *const names[4] = {"tid", "pid", "ppid", "name"};
	for (int i = 0; i < 4; i++) {
		int at = index_of(k, names[i]);
		if (at < 0 || (i < 3 ? k->in[at].kind != SPOOR_FK_INT
		                     : k->in[at].kind != SPOOR_FK_STRING &&
		                           !(k->in[at].kind == SPOOR_FK_ARRAY && k->in[at].text)))
			return -1;
		k->dump[i] = at;
	}
	k->is_dump = true;
	return 0;
}

/* An integer field's index, or -1. */
static int int_field(const struct cv_class *k, const char *name)
{
	int at = index_of(k, name);
	return at >= 0 && k->in[at].kind == SPOOR_FK_INT && k->in[at].size <= 8 ? at : -1;
}

/* A text field's index (a string or a char array), or -1. */
static int text_field(const struct cv_class *k, const char *name)
{
	int at = index_of(k, name);
	return at >= 0 && (k->in[at].kind == SPOOR_FK_STRING ||
	                   (k->in[at].kind == SPOOR_FK_ARRAY && k->in[at].text))
	           ? at
	           : -1;
}

/* The classes the LTTng layout's fork needs (kfork.h): sched_process_fork with its comms
 * and tids, task_newtask with its pid and clone_flags. Others are converted as they are. */
static void fork_class(struct cv_class *k, const char *name)
{
	if (!strcmp(name, "sched_process_fork") || !strcmp(name, "sched:sched_process_fork")) {
		k->fork[0] = text_field(k, "parent_comm");
		k->fork[1] = int_field(k, "parent_pid");
		k->fork[2] = text_field(k, "child_comm");
		k->fork[3] = int_field(k, "child_pid");
		k->is_fork =
		    k->fork[0] >= 0 && k->fork[1] >= 0 && k->fork[2] >= 0 && k->fork[3] >= 0;
	} else if (!strcmp(name, "task_newtask") || !strcmp(name, "task:task_newtask")) {
		k->fork[0] = int_field(k, "pid");
		k->fork[1] = int_field(k, "clone_flags");
		k->is_newtask = k->fork[0] >= 0 && k->fork[1] >= 0;
	}
}

/* Output field k->nout: input field i (CV_FROM_TID: the context's common_pid) as f says. */
static void add_field(const struct cv *c, struct cv_class *k, uint32_t i, const char *name,
                      const struct vocab_field *f)
{
	struct spoor_field_desc *d = &k->out[k->nout];
	*d = i == CV_FROM_TID ? c->out.context[0] : k->in[i];
	d->name = name;
	k->from[k->nout] = i;
	k->delta[k->nout] = f ? f->delta : 0;
	/* rwbs as text (spoor's char array, or a string) becomes LTTng's flags */
	k->rwbs[k->nout] = f && f->rwbs && i != CV_FROM_TID &&
	                   (d->kind == SPOOR_FK_STRING || (d->kind == SPOOR_FK_ARRAY && d->text));
	if (k->rwbs[k->nout])
		*d = (struct spoor_field_desc){
		    .name = name, .kind = SPOOR_FK_INT, .size = 4, .base = 10};
	/* -k libc: a path-taking system call's paths as strings, as the recorder writes them
	 * (kclass.c: its `const char *` arguments, which are those calls' only pointers, the
	 * fields spoor's layout writes in hex) */
	k->path[k->nout] = -1;
	if (k->path_call >= 0 && k->npaths < 2 && i != CV_FROM_TID && d->kind == SPOOR_FK_INT &&
	    d->size == 8 && d->base == 16) {
		*d = (struct spoor_field_desc){.name = name, .kind = SPOOR_FK_STRING};
		k->path[k->nout] = k->npaths++;
	}
	k->nout++;
}

/* Its LTTng name and fields through the vocabulary: renamed, left out, values moved, or
 * in the row's order (the task's tid from the event context). */
static int lttng_class(const struct cv *c, struct cv_class *k, const char *in_name)
{
	char system[128] = "", buf[512];
	const char *name = in_name, *colon = strchr(in_name, ':');
	if (colon && (size_t) (colon - in_name) < sizeof(system)) { /* SYSTEM:NAME */
		memcpy(system, in_name, (size_t) (colon - in_name));
		system[colon - in_name] = '\0';
		name = colon + 1;
	}
	const struct vocab_event *e = vocab_by_ftrace(system[0] ? system : NULL, name);
	const char *lname = vocab_lttng_name(e, name, buf, sizeof(buf));
	size_t most = k->nin + 1;
	for (const char *const *l = e ? e->order : NULL; l && *l; l++)
		most++;
	k->name = strdup(lname ? lname : in_name);
	k->out = calloc(most, sizeof(*k->out));
	k->from = calloc(most, sizeof(*k->from));
	k->delta = calloc(most, sizeof(*k->delta));
	k->rwbs = calloc(most, sizeof(*k->rwbs));
	k->path = calloc(most, sizeof(*k->path));
	if (!k->name || !k->out || !k->from || !k->delta || !k->rwbs || !k->path)
		return -ENOMEM;
	k->path_fn = (int8_t) (c->out.libc ? kpaths_function(name) : -1);
	k->path_call =
	    (int8_t) (c->out.libc && e && e->prefix && !strcmp(e->ftrace, VOCAB_FTRACE_ENTRY)
	                  ? kpaths_call(name + strlen(VOCAB_FTRACE_ENTRY))
	                  : -1);
	if (e && e->order) {
		for (const char *const *l = e->order; *l; l++) {
			const char *f = vocab_field_ftrace(e, *l);
			int at = index_of(k, f);
			if (at >= 0)
				add_field(c, k, (uint32_t) at, *l, vocab_field_by_ftrace(e, f));
			else if (!strcmp(f, "common_pid") && c->out.ncontext)
				add_field(c, k, CV_FROM_TID, *l, NULL);
		}
		return 0;
	}
	for (uint32_t i = 0; i < k->nin; i++) {
		const struct vocab_field *f = vocab_field_by_ftrace(e, k->in[i].name);
		if (f && !f->lttng)
			continue; /* LTTng has no such field */
		add_field(c, k, i, f ? f->lttng : k->in[i].name, f);
	}
	return 0;
}

static void free_classes(struct cv *c)
{
	for (size_t i = 0; i < c->nids; i++) {
		struct cv_class *k = c->by_id[i];
		if (!k)
			continue;
		free(k->in);
		free(k->entries);
		free(k->out);
		free(k->from);
		free(k->delta);
		free(k->rwbs);
		free(k->path);
		free(k->name);
		free(k);
	}
	free(c->by_id);
	free(c->ctx);
	free(c->ctx_entries);
	kclasses_free(&c->out);
	kfork_free(&c->fork);
}

static int build_classes(struct cv *c, char *err, size_t errlen)
{
	struct kevent_list none = {0};
	int rc = kclasses_build(NULL, &none, KLAYOUT_LTTNG, &c->out, err, errlen);
	if (rc || (rc = context_of(c, err, errlen)))
		return rc;
	for (unsigned i = 0; i < c->sc->nevents; i++) {
		if (c->sc->events[i]->id >= c->nids)
			c->nids = c->sc->events[i]->id + 1;
		/* libc_* events recorded: their paths go into the system calls, as the
		 * recorder's LTTng layout writes them (kclasses_build) */
		if (kpaths_function(c->sc->events[i]->name) >= 0)
			c->out.libc = true;
	}
	if (c->nids > MAX_IDS) {
		snprintf(err, errlen, "event ids up to %zu: not one of spoor's kernel traces",
		         c->nids);
		return -SPOOR_EUNSUPPORTED;
	}
	c->by_id = calloc(c->nids + 1, sizeof(*c->by_id));
	if (!c->by_id)
		return -ENOMEM;
	for (unsigned i = 0; i < c->sc->nevents; i++) {
		const struct ctf_event_class *ec = c->sc->events[i];
		struct cv_class *k = calloc(1, sizeof(*k));
		if (!k)
			return -ENOMEM;
		c->by_id[ec->id] = k;
		char why[300] = "";
		if (ec->context ||
		    cv_fields(ec->fields, &k->in, &k->nin, &k->entries, why, sizeof(why)) ||
		    k->nin > CV_MAX_FIELDS) {
			snprintf(err, errlen, "event %s: %s", ec->name,
			         why[0]        ? why
			         : ec->context ? "an event context of its own"
			                       : "too many fields");
			return -SPOOR_EUNSUPPORTED;
		}
		if (!strcmp(ec->name, "statedump_process") && !dump_class(k))
			continue; /* its class is LTTng's dump's, declared below */
		if ((rc = lttng_class(c, k, ec->name)))
			return rc;
		fork_class(k, ec->name);
		int id = k->is_fork
		             ? kclasses_add_synthetic(&c->out, k->name, kfork_fields, KFORK_NFIELDS)
		             : kclasses_add_synthetic(&c->out, k->name, k->out, k->nout);
		if (id < 0)
			return -ENOMEM;
		k->id = (uint32_t) id;
	}
	return statedump_lttng_classes(&c->out, &c->dump) ? -ENOMEM : 0;
}

/* The input's env, its tracer's entries replaced by the LTTng layout's (the recorder's,
 * kmeta_lttng_env), and what says it was converted. */
static int write_metadata(struct cv *c, const char *dir, char *err, size_t errlen)
{
	const struct ctf_meta *m = &c->in->meta;
	struct meta_env *e = calloc(m->nenv + KMETA_LTTNG_NENV + 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	char name[KMETA_NAME_MAX], created[KMETA_CREATED_MAX];
	size_t n = 0;
	for (unsigned i = 0; i < m->nenv; i++) {
		if (!strcmp(m->env[i].key, "tracer_name")) /* check_input: there */
			n += kmeta_lttng_env(dir, NULL, e + n, name, created);
		if (strncmp(m->env[i].key, "tracer_", 7) && strncmp(m->env[i].key, "spoor_", 6))
			e[n++] = (struct meta_env){m->env[i].key,
			                           m->env[i].is_string ? m->env[i].text : NULL,
			                           m->env[i].value, m->env[i].is_string};
	}
	e[n++] = (struct meta_env){"spoor_converted", "spoor convert", 0, 1};
	const struct ctf_clock *ck = c->sc->clock;
	static const char *const cpu_id[] = {"cpu_id"};
	struct meta_trace t = {
	    .env = e,
	    .nenv = n,
	    .clock = {ck->name, ck->description, {0}, ck->freq, ck->offset_s, ck->offset},
	    .packed = 1,
	    .packet_u32 = cpu_id,
	    .npacket_u32 = 1,
	    .event_context = c->out.context,
	    .nevent_context = c->out.ncontext};
	memcpy(t.clock.uuid, ck->uuid, 16);
	memcpy(t.uuid, c->uuid, 16);
	const struct spoor_event_desc **descs = calloc(c->out.n + 1, sizeof(*descs));
	char *text = NULL, path[4100];
	size_t len = 0;
	int rc = descs ? 0 : -ENOMEM;
	for (size_t i = 0; !rc && i < c->out.n; i++)
		descs[i] = &c->out.v[i].desc;
	if (!rc && (rc = ctf_meta_write(&t, descs, c->out.n, &text, &len)))
		snprintf(err, errlen, "cannot describe the converted events in CTF: %s",
		         strerror(-rc));
	free(descs);
	free(e);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	int fd = rc ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (!rc && (fd < 0 || (rc = write_all(fd, text, len)) || close(fd))) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	}
	free(text);
	return rc;
}

static bool has_metadata(const char *dir)
{
	char path[4300];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/metadata", dir);
	return n > 0 && (size_t) n < sizeof(path) && stat(path, &st) == 0;
}

/* A recording's directory with user-space traces (spoor record's and LTTng's ust/). */
static bool has_ust(const char *dir)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof(path), "%s/ust", dir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The recording's directory holds the trace in kernel/: OUT gets it there too. */
static int find_trace(const char *in, const char *out, char *in_dir, char *out_dir, size_t cap)
{
	char path[4200];
	int n = snprintf(path, sizeof(path), "%s/kernel", in);
	bool sub = !has_metadata(in) && n > 0 && (size_t) n < sizeof(path) && has_metadata(path);
	int a = snprintf(in_dir, cap, sub ? "%s/kernel" : "%s", in);
	int b = snprintf(out_dir, cap, sub ? "%s/kernel" : "%s", out);
	return a < 0 || b < 0 || (size_t) a >= cap || (size_t) b >= cap ? -ENAMETOOLONG : 0;
}

/* Where the trace begins and ends: its streams' first packets' timestamp_begin, their last
 * packets' timestamp_end (damage is met later). */
static void trace_bounds(struct cv *c)
{
	struct ctf_trace *in = c->in;
	c->begin = UINT64_MAX;
	c->end = 0;
	for (size_t i = 0; i < in->nstream_paths; i++) {
		struct ctf_stream s;
		if (!ctf_stream_open(&s, in, in->stream_paths[i], i)) {
			ctf_stream_scan_to_end(&s);
			if (s.packets && s.first_begin < c->begin)
				c->begin = s.first_begin;
			c->end = s.prev_end > c->end ? s.prev_end : c->end;
		}
		ctf_stream_close(&s);
	}
	if (c->begin > c->end)
		c->begin = c->end;
}

static int convert(struct cv *c, const char *in_dir, const char *out_dir, struct kconvert_totals *t,
                   char *err, size_t errlen)
{
	int rc = build_classes(c, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		return rc;
	if (getrandom(c->uuid, 16, 0) != 16)
		return -EIO;
	c->uuid[6] = (uint8_t) ((c->uuid[6] & 0x0f) | 0x40); /* version 4, random */
	c->uuid[8] = (uint8_t) ((c->uuid[8] & 0x3f) | 0x80);
	trace_bounds(c);
	snprintf(c->partitions, sizeof(c->partitions), "%s/.partitions", in_dir);
	if (access(c->partitions, R_OK))
		c->partitions[0] = '\0';
	if ((rc = outdir_mkdirs(out_dir)) || (rc = write_metadata(c, out_dir, err, errlen))) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", out_dir, strerror(-rc));
		return rc;
	}
	return cv_streams(c, out_dir, t, err, errlen);
}

int kconvert_lttng(const char *in, const char *out, struct kconvert_totals *t, char *err,
                   size_t errlen)
{
	char in_dir[4000], out_dir[4000];
	struct cv c = {0};
	struct outdir od;
	kfork_init(&c.fork, NULL); /* /proc is not the recorded machine's */
	*t = (struct kconvert_totals){0};
	err[0] = '\0';
	if (find_trace(in, out, in_dir, out_dir, sizeof(in_dir))) {
		snprintf(err, errlen, "%s: path too long", in);
		return -ENAMETOOLONG;
	}
	if (!has_metadata(in_dir)) { /* a recording of user space only, or no trace at all */
		snprintf(err, errlen,
		         "%s: no kernel trace here (convert takes a trace's directory, with its "
		         "metadata file, or a recording's, with kernel/)%s",
		         in, has_ust(in) ? "; it holds user-space traces only" : "");
		return -ENOENT;
	}
	int rc = ctf_trace_open(in_dir, &c.in, err, errlen);
	if (!rc)
		rc = ctf_trace_ready_all(c.in, err, errlen);
	if (rc && !err[0])
		snprintf(err, errlen, "%s: %s", in_dir, spoor_strerror(rc));
	if (!rc)
		rc = check_input(in_dir, &c, err, errlen);
	if (!rc && (rc = outdir_claim(out, false, &od, err, errlen)) == 0) {
		rc = convert(&c, in_dir, out_dir, t, err, errlen);
		if (rc)
			outdir_undo(out, &od);
		else
			outdir_started(out, &od);
	}
	free_classes(&c);
	if (c.in)
		ctf_trace_free(c.in);
	return rc;
}
