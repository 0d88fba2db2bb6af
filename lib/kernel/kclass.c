/* SPDX-License-Identifier: MIT */
/* kclass.c: kernel event formats as CTF classes, and the per-record conversion
 * (layout in kclass.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "kclass.h"
#include "kfork.h"
#include "vocab/lttng-kernel.h"
#include "vocab/rwbs.h"

static bool is_char_type(const struct tep_format_field *f)
{
	const char *t = f->type;
	if (!strncmp(t, "const ", 6))
		t += 6;
	if (!strncmp(t, "unsigned ", 9) || !strncmp(t, "signed ", 7))
		return false;
	return !strncmp(t, "char", 4) && (t[4] == ' ' || t[4] == '[' || t[4] == '\0');
}

static bool int_size(unsigned s)
{
	return s == 1 || s == 2 || s == 4 || s == 8;
}

/* The CTF description of one format field. */
static void describe(const struct tep_format_field *f, struct spoor_field_desc *d)
{
	*d = (struct spoor_field_desc){.name = f->name, .base = 10};
	d->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (is_char_type(f) || (f->flags & TEP_FIELD_IS_STRING)) {
			d->kind = SPOOR_FK_STRING;
			return;
		}
		d->kind = SPOOR_FK_SEQUENCE;
		d->size = int_size(f->elementsize) ? (uint8_t) f->elementsize : 1;
		if (d->size == 1)
			d->is_signed = false;
		return;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		d->kind = SPOOR_FK_ARRAY;
		if (is_char_type(f)) {
			d->size = 1;
			d->text = 1;
			d->is_signed = false;
			d->length = (uint32_t) f->size;
		} else if (int_size(f->elementsize) && f->arraylen &&
		           f->arraylen * f->elementsize == (unsigned) f->size) {
			d->size = (uint8_t) f->elementsize;
			d->length = f->arraylen;
		} else {
			d->size = 1;
			d->is_signed = false;
			d->length = (uint32_t) f->size;
		}
		return;
	}
	if (int_size((unsigned) f->size)) {
		d->kind = SPOOR_FK_INT;
		d->size = (uint8_t) f->size;
		if (f->flags & TEP_FIELD_IS_POINTER) {
			d->base = 16;
			d->is_signed = false;
		}
		return;
	}
	d->kind = SPOOR_FK_ARRAY;
	d->size = 1;
	d->is_signed = false;
	d->length = (uint32_t) f->size;
}

/* The ops for one field: a fixed field extends the previous copy when contiguous. */
static void plan_field(const struct tep_format_field *f, struct kop *ops, uint32_t *nops)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		bool str = is_char_type(f) || (f->flags & TEP_FIELD_IS_STRING);
		unsigned elem = int_size(f->elementsize) ? f->elementsize : 1;
		ops[(*nops)++] = (struct kop){str ? KOP_STRING : KOP_SEQ,
		                              (uint8_t) elem,
		                              (f->flags & TEP_FIELD_IS_RELATIVE) != 0,
		                              (uint16_t) f->offset,
		                              (uint16_t) f->size,
		                              0};
		return;
	}
	struct kop *last = *nops ? &ops[*nops - 1] : NULL;
	if (last && last->kind == KOP_COPY && last->off + last->len == f->offset) {
		last->len = (uint16_t) (last->len + f->size);
		return;
	}
	ops[(*nops)++] = (struct kop){KOP_COPY, 0, 0, (uint16_t) f->offset, (uint16_t) f->size, 0};
}

/* The events the kernel's pid filter keeps when either task in them is traced. */
static bool names_other(const struct tep_event *ev)
{
	static const char *const names[] = {"sched_switch", "sched_waking", "sched_wakeup",
	                                    "sched_wakeup_new"};
	if (strcmp(ev->system, "sched"))
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(ev->name, names[i]))
			return true;
	return false;
}

/* Whether a common field is in the event context: all but common_type (the event id);
 * in the LTTng layout common_pid alone, as LTTng's tid context. */
static bool context_kept(enum klayout layout, const char *name)
{
	return layout == KLAYOUT_LTTNG ? !strcmp(name, "common_pid") : strcmp(name, "common_type");
}

/* The LTTng layout's name of ev when it is not the kernel's: *name malloc'd. */
static int lttng_name(const struct vocab_event *row, const struct tep_event *ev, char **name)
{
	size_t cap = strlen(row->lttng) + strlen(ev->name) + 1;
	if (!(*name = malloc(cap)))
		return -ENOMEM;
	vocab_lttng_name(row, ev->name, *name, cap);
	return 0;
}

/* A `const char *` argument: a path, where the C library's is known (kpaths.h). */
static bool is_char_pointer(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_POINTER) && f->size == 8 && strstr(f->type, "char");
}

/* The payload's fields in the order the layout writes them, into out (*n): the kernel's,
 * or the row's (LTTng's, each by its ftrace name; a field this kernel has not is left
 * out). */
static void payload_fields(struct tep_event *ev, const struct vocab_event *row,
                           struct tep_format_field **out, size_t *n)
{
	*n = 0;
	if (!row || !row->order) {
		for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
			out[(*n)++] = f;
		return;
	}
	for (const char *const *l = row->order; *l; l++) {
		const char *name = vocab_field_ftrace(row, *l);
		struct tep_format_field *f = tep_find_field(ev, name);
		if (f || (f = tep_find_common_field(ev, name)))
			out[(*n)++] = f;
	}
}

/* One field's ops, and its descriptor when it is the payload's (payload true). */
static int plan_one(struct tep_event *ev, struct kclass *c, struct tep_format_field *f,
                    const struct vocab_event *row, bool payload, int *npaths, char *err,
                    size_t errlen)
{
	const struct vocab_field *vf = payload ? vocab_field_by_ftrace(row, f->name) : NULL;
	if (vf && !vf->lttng)
		return 0; /* a field LTTng has not */
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* a string gains its NUL, a sequence its uint32 length */
		c->extra += 4 + 1;
		if (f->size != 4) {
			snprintf(err, errlen, "%s:%s: dynamic field %s of size %d", ev->system,
			         ev->name, f->name, f->size);
			return -EINVAL;
		}
	}
	if (payload && c->path_call >= 0 && *npaths < 2 && is_char_pointer(f)) {
		/* a path: the string the C library was called with */
		c->ops[c->nops++] = (struct kop){.kind = KOP_PATH,
		                                 .elem = (uint8_t) (*npaths)++,
		                                 .off = (uint16_t) f->offset,
		                                 .len = (uint16_t) f->size};
		c->extra += KPATH_MAX;
		c->fields[c->desc.nfields++] =
		    (struct spoor_field_desc){.name = f->name, .kind = SPOOR_FK_STRING};
		return 0;
	}
	bool fixed = !(f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY));
	if (vf && vf->rwbs && (f->flags & TEP_FIELD_IS_ARRAY) &&
	    !(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		/* the kernel's text, as LTTng's flags */
		c->ops[c->nops++] = (struct kop){
		    .kind = KOP_RWBS, .off = (uint16_t) f->offset, .len = (uint16_t) f->size};
		c->extra += 4;
		c->fields[c->desc.nfields++] = (struct spoor_field_desc){
		    .name = vf->lttng, .kind = SPOOR_FK_INT, .size = 4, .base = 10};
		return 0;
	}
	if (vf && vf->delta && f->size == 4 && fixed)
		c->ops[c->nops++] = (struct kop){
		    .kind = KOP_ADD32, .off = (uint16_t) f->offset, .len = 4, .delta = vf->delta};
	else
		plan_field(f, c->ops, &c->nops);
	if (payload) {
		describe(f, &c->fields[c->desc.nfields]);
		if (vf)
			c->fields[c->desc.nfields].name = vf->lttng;
		c->desc.nfields++;
	}
	return 0;
}

/* Where a named field lies, as an op that reads it: a string (KOP_STRING) or char array,
 * or an integer of `size` bytes (KOP_COPY). False when the format has no such field. */
static bool field_at(struct tep_event *ev, const char *name, unsigned size, struct kop *op)
{
	const struct tep_format_field *f = tep_find_field(ev, name);
	if (!f)
		return false;
	bool dyn = (f->flags & TEP_FIELD_IS_DYNAMIC) != 0;
	*op = (struct kop){.kind = dyn ? KOP_STRING : KOP_COPY,
	                   .relative = (f->flags & TEP_FIELD_IS_RELATIVE) != 0,
	                   .off = (uint16_t) f->offset,
	                   .len = (uint16_t) f->size};
	if (size)
		return !dyn && !(f->flags & TEP_FIELD_IS_ARRAY) && (unsigned) f->size == size;
	if (dyn)
		return (is_char_type(f) || (f->flags & TEP_FIELD_IS_STRING)) && f->size == 4;
	return is_char_type(f) && (f->flags & TEP_FIELD_IS_ARRAY);
}

/* The LTTng layout's fork (kfork.h): sched_process_fork written with its tgids, from the
 * task_newtask before it. A kernel whose formats differ keeps the plain conversion. */
static void fork_hooks(struct tep_event *ev, struct kclass *c)
{
	if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_process_fork") &&
	    field_at(ev, "parent_comm", 0, &c->at[0]) && field_at(ev, "parent_pid", 4, &c->at[1]) &&
	    field_at(ev, "child_comm", 0, &c->at[2]) && field_at(ev, "child_pid", 4, &c->at[3])) {
		c->hook |= KHOOK_FORK;
		c->desc.fields = kfork_fields;
		c->desc.nfields = KFORK_NFIELDS;
	}
	if (!strcmp(ev->system, "task") && !strcmp(ev->name, "task_newtask") &&
	    field_at(ev, "pid", 4, &c->at[0]) &&
	    (field_at(ev, "clone_flags", 8, &c->at[1]) ||
	     field_at(ev, "clone_flags", 4, &c->at[1])))
		c->hook |= KHOOK_NEWTASK;
}

static int build_one(struct tep_event *ev, struct kclass *c, uint32_t id, enum klayout layout,
                     bool libc, char *err, size_t errlen)
{
	size_t nf = 0, nc = 0, norder = 0;
	const struct vocab_event *row =
	    layout == KLAYOUT_LTTNG ? vocab_by_ftrace(ev->system, ev->name) : NULL;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		nf++;
	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		nc++;
	for (const char *const *l = row ? row->order : NULL; l && *l; l++)
		norder++;
	size_t most = nf > norder ? nf : norder;
	struct tep_format_field **payload = calloc(most + 1, sizeof(*payload));
	c->fields = calloc(most + 1, sizeof(*c->fields));
	c->ops = calloc(most + nc + 1, sizeof(*c->ops));
	if (!payload || !c->fields || !c->ops || (row && lttng_name(row, ev, &c->name))) {
		free(payload);
		return -ENOMEM;
	}
	c->path_fn = c->path_call = -1;
	if (libc) {
		c->path_fn = (int8_t) kpaths_function(ev->name);
		if (row && row->prefix && !strcmp(row->ftrace, VOCAB_FTRACE_ENTRY))
			c->path_call = (int8_t) kpaths_call(ev->name + strlen(VOCAB_FTRACE_ENTRY));
	}
	int npaths = 0, rc = 0;
	uint32_t fixed_end = 0;
	struct tep_format_field *all[2] = {ev->format.common_fields, ev->format.fields};
	for (int part = 0; part < 2; part++)
		for (struct tep_format_field *f = all[part]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 || f->offset + f->size > 0xffff) {
				snprintf(err, errlen, "%s:%s: field %s has offset %d, size %d",
				         ev->system, ev->name, f->name, f->offset, f->size);
				free(payload);
				return -EINVAL;
			}
			if ((uint32_t) (f->offset + f->size) > fixed_end)
				fixed_end = (uint32_t) (f->offset + f->size);
		}
	for (struct tep_format_field *f = ev->format.common_fields; f && !rc; f = f->next)
		if (context_kept(layout, f->name))
			rc = plan_one(ev, c, f, NULL, false, &npaths, err, errlen);
	size_t np;
	payload_fields(ev, row, payload, &np);
	for (size_t i = 0; i < np && !rc; i++)
		rc = plan_one(ev, c, payload[i], row, true, &npaths, err, errlen);
	free(payload);
	if (rc)
		return rc;
	c->min_size = fixed_end;
	c->kernel_id = ev->id;
	c->names_other = names_other(ev);
	c->desc.struct_size = sizeof(c->desc);
	c->desc.provider = "";
	c->desc.name = c->name ? c->name : ev->name;
	c->desc.fields = c->fields;
	c->desc.id = id;
	c->desc.max_align = 1;
	if (c->path_fn >= 0 || c->path_call >= 0)
		c->hook |= KHOOK_PATHS;
	if (layout == KLAYOUT_LTTNG)
		fork_hooks(ev, c);
	return 0;
}

/* The stream-wide event context: the first event's common fields but common_type. */
static int build_context(struct tep_event *ev, struct kclasses *cs, char *err, size_t errlen)
{
	cs->ncontext = 0;
	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next) {
		if (!context_kept(cs->layout, f->name))
			continue;
		if (cs->ncontext == sizeof(cs->context) / sizeof(cs->context[0]) ||
		    !int_size((unsigned) f->size) || (f->flags & TEP_FIELD_IS_ARRAY)) {
			snprintf(err, errlen, "unexpected common field %s in the kernel's formats",
			         f->name);
			return -EINVAL;
		}
		if (!strcmp(f->name, "common_pid") && f->size == 4 && f->offset > 0)
			cs->pid_off = (uint16_t) f->offset;
		describe(f, &cs->context[cs->ncontext]);
		if (cs->layout == KLAYOUT_LTTNG)
			cs->context[cs->ncontext].name = "tid"; /* common_pid: LTTng's context */
		cs->ncontext++;
	}
	return 0;
}

/* Room for `more` classes. */
static int reserve(struct kclasses *cs, size_t more)
{
	if (cs->n + more <= cs->cap)
		return 0;
	size_t cap = 2 * (cs->n + more);
	struct kclass *v = realloc(cs->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	cs->v = v;
	cs->cap = cap;
	return 0;
}

/* A recorded event's format, or NULL with err set. */
static struct tep_event *find_event(struct tep_handle *tep, const struct kevent_ref *r, char *err,
                                    size_t errlen)
{
	struct tep_event *ev = tep_find_event_by_name(tep, r->system, r->name);
	if (!ev || ev->id < 0 || ev->id > 65535) {
		snprintf(err, errlen, "no usable format for kernel event %s:%s", r->system,
		         r->name);
		return NULL;
	}
	return ev;
}

int kclasses_build(struct tep_handle *tep, const struct kevent_list *events, enum klayout layout,
                   struct kclasses *out, char *err, size_t errlen)
{
	int rc = 0;

	*out = (struct kclasses){.layout = layout};
	out->cap = events->n + 8;
	out->v = calloc(out->cap, sizeof(*out->v));
	out->by_kernel_id = calloc(65536, sizeof(*out->by_kernel_id));
	if (!out->v || !out->by_kernel_id) {
		kclasses_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; layout == KLAYOUT_LTTNG && i < events->n; i++)
		if (kpaths_function(events->v[i].name) >= 0)
			out->libc = true;
	for (size_t i = 0; i < events->n && !rc; i++) {
		struct tep_event *ev = find_event(tep, &events->v[i], err, errlen);
		if (!ev) {
			rc = -ENOENT;
			break;
		}
		if (i == 0 && (rc = build_context(ev, out, err, errlen)))
			break;
		rc = build_one(ev, &out->v[out->n], (uint32_t) out->n, layout, out->libc, err,
		               errlen);
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		out->n++;
		out->by_kernel_id[ev->id] = (uint16_t) out->n;
	}
	/* the same name in two systems: name them SYSTEM:NAME */
	for (size_t i = 0; i < out->n && !rc; i++)
		for (size_t j = i + 1; j < out->n; j++)
			if (!strcmp(out->v[i].desc.name, out->v[j].desc.name)) {
				out->v[i].desc.provider = events->v[i].system;
				out->v[j].desc.provider = events->v[j].system;
			}
	if (rc)
		kclasses_free(out);
	return rc;
}

int kclasses_append(struct tep_handle *tep, const struct kevent_ref *event, struct kclasses *cs,
                    char *err, size_t errlen)
{
	struct tep_event *ev = find_event(tep, event, err, errlen);
	if (!ev)
		return -ENOENT;
	if (reserve(cs, 1)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	struct kclass *c = &cs->v[cs->n];
	*c = (struct kclass){0};
	int rc = build_one(ev, c, (uint32_t) cs->n, cs->layout, cs->libc, err, errlen);
	if (rc) {
		free(c->fields);
		free(c->ops);
		free(c->name);
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		return rc;
	}
	/* the classes declared before keep their names: the new one takes its system's */
	for (size_t i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].desc.name, c->desc.name))
			c->desc.provider = event->system;
	cs->n++;
	cs->by_kernel_id[ev->id] = (uint16_t) cs->n;
	return 0;
}

int kclasses_add_synthetic(struct kclasses *cs, const char *name,
                           const struct spoor_field_desc *fields, uint32_t nfields)
{
	if (!cs->v || reserve(cs, 1))
		return -1;
	struct kclass *c = &cs->v[cs->n];
	*c = (struct kclass){.kernel_id = -1, .path_fn = -1, .path_call = -1};
	c->desc.struct_size = sizeof(c->desc);
	c->desc.provider = "";
	c->desc.name = name;
	c->desc.fields = fields;
	c->desc.nfields = nfields;
	c->desc.id = (uint32_t) cs->n;
	c->desc.max_align = 1;
	return (int) cs->n++;
}

void kclasses_free(struct kclasses *cs)
{
	for (size_t i = 0; cs->v && i < cs->n; i++) {
		free(cs->v[i].fields);
		free(cs->v[i].ops);
		free(cs->v[i].name);
	}
	free(cs->v);
	free(cs->by_kernel_id);
	*cs = (struct kclasses){0};
}

/* Where a dynamic field's bytes lie in the record (empty when outside it). */
static const uint8_t *dynamic_at(const struct kop *op, const uint8_t *rec, size_t size, size_t *len)
{
	uint32_t loc;
	memcpy(&loc, rec + op->off, 4);
	size_t off = loc & 0xffff, n = loc >> 16;
	if (op->relative)
		off += (size_t) op->off + op->len;
	if (off > size || n > size - off)
		n = 0; /* points outside the record: shown empty */
	*len = n;
	return rec + off;
}

/* A string or char array's text, cut at its NUL. */
static void text_at(const struct kop *op, const uint8_t *rec, size_t size, const char **s,
                    size_t *len)
{
	const uint8_t *p = rec + op->off;
	*len = op->len;
	if (op->kind == KOP_STRING)
		p = dynamic_at(op, rec, size, len);
	const uint8_t *nul = memchr(p, '\0', *len);
	if (nul)
		*len = (size_t) (nul - p);
	*s = (const char *) p;
}

void kclass_strings(const struct kclass *c, const uint8_t *rec, size_t size, const char *s[2],
                    size_t len[2])
{
	int n = 0;
	s[0] = s[1] = "";
	len[0] = len[1] = 0;
	for (uint32_t i = 0; i < c->nops && n < 2 && size >= c->min_size; i++)
		if (c->ops[i].kind == KOP_STRING) {
			text_at(&c->ops[i], rec, size, &s[n], &len[n]);
			n++;
		}
}

bool kclass_fork_tasks(const struct kclass *c, const uint8_t *rec, size_t size,
                       struct kfork_task *parent, struct kfork_task *child)
{
	if (size < c->min_size)
		return false;
	text_at(&c->at[0], rec, size, &parent->comm, &parent->len);
	text_at(&c->at[2], rec, size, &child->comm, &child->len);
	memcpy(&parent->tid, rec + c->at[1].off, 4);
	memcpy(&child->tid, rec + c->at[3].off, 4);
	return true;
}

bool kclass_newtask(const struct kclass *c, const uint8_t *rec, size_t size, int32_t *tid,
                    uint64_t *clone_flags)
{
	if (size < c->min_size)
		return false;
	uint64_t flags = 0;
	memcpy(tid, rec + c->at[0].off, 4);
	memcpy(&flags, rec + c->at[1].off, c->at[1].len); /* little-endian: 4 or 8 bytes */
	*clone_flags = flags;
	return true;
}

long kclass_convert(const struct kclass *c, const uint8_t *rec, size_t size, uint8_t *dst,
                    size_t cap, const struct kpath_slot *paths)
{
	uint8_t *o = dst, *end = dst + cap;

	if (size < c->min_size)
		return -1;
	for (uint32_t i = 0; i < c->nops; i++) {
		const struct kop *op = &c->ops[i];
		if (op->kind == KOP_COPY) {
			if ((size_t) (end - o) < op->len)
				return -2;
			memcpy(o, rec + op->off, op->len);
			o += op->len;
			continue;
		}
		if (op->kind == KOP_ADD32) {
			int32_t v;
			if (end - o < 4)
				return -2;
			memcpy(&v, rec + op->off, 4);
			v = (int32_t) ((uint32_t) v + (uint32_t) op->delta);
			memcpy(o, &v, 4);
			o += 4;
			continue;
		}
		if (op->kind == KOP_RWBS) {
			if (end - o < 4)
				return -2;
			uint32_t v = vocab_rwbs_flags((const char *) rec + op->off, op->len);
			memcpy(o, &v, 4);
			o += 4;
			continue;
		}
		if (op->kind == KOP_PATH) {
			size_t n = paths ? paths->len[op->elem] : 0;
			if ((size_t) (end - o) < n + 1)
				return -2;
			memcpy(o, paths ? paths->s[op->elem] : "", n);
			o[n] = '\0';
			o += n + 1;
			continue;
		}
		size_t len;
		const uint8_t *src = dynamic_at(op, rec, size, &len);
		if ((size_t) (end - o) < len + 5)
			return -2;
		if (op->kind == KOP_STRING) {
			const uint8_t *nul = memchr(src, '\0', len);
			if (nul)
				len = (size_t) (nul - src);
			memcpy(o, src, len);
			o += len;
			*o++ = '\0';
		} else {
			uint32_t count = (uint32_t) (len / op->elem);
			memcpy(o, &count, 4);
			memcpy(o + 4, src, (size_t) count * op->elem);
			o += 4 + (size_t) count * op->elem;
		}
	}
	return (long) (o - dst);
}
