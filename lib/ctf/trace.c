/* SPDX-License-Identifier: MIT */
/* trace.c: opens a trace directory: metadata to model, model to plans, and the stream list. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "meta-share.h"
#include "metadata-read.h"
#include "spoor/spoor.h"
#include "trace.h"
#include "tsdl-parse.h"

static const char *const role_names[ROLE_COUNT] = {
    [ROLE_MAGIC] = "magic",
    [ROLE_UUID] = "uuid",
    [ROLE_STREAM_ID] = "stream_id",
    [ROLE_STREAM_INSTANCE_ID] = "stream_instance_id",
    [ROLE_TIMESTAMP_BEGIN] = "timestamp_begin",
    [ROLE_TIMESTAMP_END] = "timestamp_end",
    [ROLE_CONTENT_SIZE] = "content_size",
    [ROLE_PACKET_SIZE] = "packet_size",
    [ROLE_EVENTS_DISCARDED] = "events_discarded",
    [ROLE_PACKET_SEQ_NUM] = "packet_seq_num",
    [ROLE_CPU_ID] = "cpu_id",
    [ROLE_EVENTS_OVERWRITTEN] = "events_overwritten",
};

static void find_roles(const struct ctf_type *t, int role[ROLE_COUNT])
{
	for (int r = 0; r < ROLE_COUNT; r++) {
		role[r] = t ? ctf_struct_find(t, role_names[r], t->s.n) : -1;
		if (role[r] >= 0) {
			const struct ctf_type *ft = t->s.fields[role[r]].type;
			bool ok = ft->kind == CTF_INT || ft->kind == CTF_ENUM ||
			          (r == ROLE_UUID && ft->kind == CTF_ARRAY);
			if (!ok)
				role[r] = -1;
		}
	}
}

/* The context scopes a later scope of the event refers to (event_class_plans.keep). */
static uint8_t referred_contexts(const struct event_class_plans *ep)
{
	uint8_t keep = 0;

	for (int k = SPOOR_SCOPE_EVENT_CONTEXT; k <= SPOOR_SCOPE_PAYLOAD; k++) {
		const struct plan *p = ep->scope[k];
		for (uint32_t i = 0; p && i < p->nrefs; i++) {
			int to = p->refs[i].scope;
			if (to >= SPOOR_SCOPE_STREAM_EVENT_CONTEXT && to < k)
				keep |= (uint8_t) (1u << to);
		}
	}
	return keep;
}

/* event_class_plans.pay_at, once pre[] and skip[] are known up to the payload. */
static uint32_t payload_at(const struct event_class_plans *ep)
{
	const struct plan *pay = ep->payload;
	unsigned pre = ep->pre[SPOOR_SCOPE_PAYLOAD];
	uint64_t bits = 0;

	if (!pay || !pay->nops || pay->ops[0].align > 8 || pre == PRE_VARIABLE)
		return PAY_AT_NONE;
	for (unsigned k = 0; k < pre; k++) {
		if (ep->skip[k].align > 8 || ep->skip[k].bits % 8)
			return PAY_AT_NONE;
		bits += ep->skip[k].bits;
	}
	return bits / 8 < PAY_AT_NONE ? (uint32_t) (bits / 8) : PAY_AT_NONE;
}

static void fill_skip(struct event_class_plans *ep, const struct plan *event_context)
{
	ep->scope[SPOOR_SCOPE_STREAM_EVENT_CONTEXT] = event_context;
	ep->scope[SPOOR_SCOPE_EVENT_CONTEXT] = ep->context;
	ep->scope[SPOOR_SCOPE_PAYLOAD] = ep->payload;
	ep->keep = referred_contexts(ep);
	ep->fixed = true;
	for (int k = 0; k < SPOOR_SCOPE_COUNT; k++)
		ep->pre[k] = PRE_VARIABLE;
	for (int k = SPOOR_SCOPE_STREAM_EVENT_CONTEXT; k <= SPOOR_SCOPE_PAYLOAD; k++) {
		const struct plan *p = ep->scope[k];
		ep->pre[k] = ep->nskip;
		if (!p || !p->nops)
			continue;
		if (!p->fixed || p->fixed_bits > UINT32_MAX) {
			ep->fixed = false;
			ep->pay_at = payload_at(ep); /* a payload of a variable layout too */
			return;
		}
		if (p->fixed_align > 1 || p->fixed_bits)
			ep->skip[ep->nskip++] =
			    (struct skip_step){p->fixed_align, (uint32_t) p->fixed_bits};
	}
	uint64_t bits = 0;
	ep->byte_skip = true;
	for (unsigned k = 0; k < ep->nskip; k++) {
		bits += ep->skip[k].bits;
		if (ep->skip[k].align > 8 || ep->skip[k].bits % 8)
			ep->byte_skip = false;
	}
	ep->byte_skip = ep->byte_skip && bits <= UINT32_MAX;
	const struct plan *pay = ep->payload;
	ep->pay_direct =
	    pay && pay->nops && pay->ops[0].align <= 8 && ep->pre[SPOOR_SCOPE_PAYLOAD] == 0;
	ep->pay_at = payload_at(ep);
	ep->skip_bits = (uint32_t) bits;
}

static int compile_stream_class(struct ctf_trace *t, struct ctf_stream_class *sc, char *err,
                                size_t errlen)
{
	struct arena *a = &t->meta.arena;
	struct stream_class_plans *p = arena_alloc(a, sizeof(*p));
	struct plan_scopes scopes = {0};
	int rc;

	if (!p)
		return -SPOOR_ELIMIT;
	scopes.type[PLAN_SCOPE_PACKET_HEADER] = t->meta.packet_header;
	scopes.type[SPOOR_SCOPE_PACKET_CONTEXT] = sc->packet_context;
	scopes.type[SPOOR_SCOPE_EVENT_HEADER] = sc->event_header;
	scopes.type[SPOOR_SCOPE_STREAM_EVENT_CONTEXT] = sc->event_context;
	if ((rc = plan_compile(a, &t->meta, &scopes, SPOOR_SCOPE_PACKET_CONTEXT, &p->packet_context,
	                       err, errlen)) ||
	    (rc = plan_compile(a, &t->meta, &scopes, SPOOR_SCOPE_EVENT_HEADER, &p->event_header,
	                       err, errlen)) ||
	    (rc = plan_compile(a, &t->meta, &scopes, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                       &p->event_context, err, errlen)))
		return rc;
	find_roles(sc->packet_context, p->role);
	if (p->role[ROLE_EVENTS_DISCARDED] >= 0) {
		const struct ctf_type *dt =
		    sc->packet_context->s.fields[p->role[ROLE_EVENTS_DISCARDED]].type;
		p->discarded_bits = dt->kind == CTF_ENUM ? dt->e.container->i.size : dt->i.size;
	}
	if (sc->clock) {
		uint64_t freq = sc->clock->freq, off = sc->clock->offset;
		int64_t off_s, off_ns;
		p->clock_freq = freq;
		if (__builtin_add_overflow(sc->clock->offset_s, (int64_t) (off / freq), &off_s) ||
		    __builtin_mul_overflow(off_s, (int64_t) 1000000000, &off_ns) ||
		    __builtin_add_overflow(off_ns, (int64_t) ctf_cycles_to_ns(freq, off % freq),
		                           &p->clock_offset_ns)) {
			snprintf(err, errlen, "clock '%s': offset out of range", sc->clock->name);
			return -SPOOR_EMETA_SEMANTIC;
		}
	}
	sc->plan = p;
	return 0;
}

static int compile_event_class(struct ctf_trace *t, struct ctf_event_class *ec, char *err,
                               size_t errlen)
{
	struct arena *a = &t->meta.arena;
	const struct ctf_stream_class *sc = ctf_meta_stream(&t->meta, ec->stream_id);
	struct event_class_plans *ep = arena_alloc(a, sizeof(*ep));
	struct plan_scopes scopes = {0};
	char sub[200] = "";
	int rc;

	if (!ep)
		return -SPOOR_ELIMIT;
	scopes.type[PLAN_SCOPE_PACKET_HEADER] = t->meta.packet_header;
	scopes.type[SPOOR_SCOPE_PACKET_CONTEXT] = sc->packet_context;
	scopes.type[SPOOR_SCOPE_EVENT_HEADER] = sc->event_header;
	scopes.type[SPOOR_SCOPE_STREAM_EVENT_CONTEXT] = sc->event_context;
	scopes.type[SPOOR_SCOPE_EVENT_CONTEXT] = ec->context;
	scopes.type[SPOOR_SCOPE_PAYLOAD] = ec->fields;
	if ((rc = plan_compile(a, &t->meta, &scopes, SPOOR_SCOPE_EVENT_CONTEXT, &ep->context, sub,
	                       sizeof(sub))) ||
	    (rc = plan_compile(a, &t->meta, &scopes, SPOOR_SCOPE_PAYLOAD, &ep->payload, sub,
	                       sizeof(sub)))) {
		snprintf(err, errlen, "event '%s': %s", ec->name, sub);
		return rc;
	}
	fill_skip(ep, ((const struct stream_class_plans *) sc->plan)->event_context);
	ec->plan = ep;
	return 0;
}

static void parse_error_text(const struct tsdl_error *perr, char *err, size_t errlen)
{
	if (perr->line)
		snprintf(err, errlen, "line %u, column %u: %s", perr->line, perr->col, perr->msg);
	else
		snprintf(err, errlen, "%s", perr->msg);
}

/* What ctf_event_class_ready says of a class, without the trace's "DIR/metadata: ". */
static const char *error_detail(const struct ctf_event_class *ec)
{
	const char *path = ec->trace->path;
	size_t skip = path ? strlen(path) + strlen("/metadata: ") : 0;

	if (!ec->error_msg)
		return spoor_strerror(ec->error);
	return strlen(ec->error_msg) >= skip ? ec->error_msg + skip : ec->error_msg;
}

int ctf_event_class_ready(struct ctf_event_class *ec)
{
	struct ctf_trace *t = ec->trace;
	struct tsdl_error perr;
	char msg[400] = "", full[4600];
	int rc;

	if (ec->plan || ec->error)
		return ec->error;
	if (ec->shared) { /* the model's class, ready once for every trace sharing it */
		if (!(rc = ctf_event_class_ready(ec->shared))) {
			ec->context = ec->shared->context;
			ec->fields = ec->shared->fields;
			ec->plan = ec->shared->plan;
			return 0;
		}
		snprintf(msg, sizeof(msg), "%s", error_detail(ec->shared));
	} else if ((rc = tsdl_parse_deferred(&t->meta, ec, &perr))) {
		parse_error_text(&perr, msg, sizeof(msg));
	} else if (!(rc = compile_event_class(t, ec, msg, sizeof(msg)))) {
		return 0;
	}
	/* as ctf_trace_open reports errors in the metadata */
	if (t->path)
		snprintf(full, sizeof(full), "%s/metadata: %s", t->path, msg);
	ec->error = rc;
	ec->error_msg = arena_strdup(&t->meta.arena, t->path ? full : msg);
	return rc;
}

int ctf_trace_ready_all(struct ctf_trace *t, char *err, size_t errlen)
{
	for (unsigned s = 0; s < t->meta.nstreams; s++)
		for (unsigned e = 0; e < t->meta.streams[s]->nevents; e++) {
			struct ctf_event_class *ec = t->meta.streams[s]->events[e];
			int rc = ctf_event_class_ready(ec);
			if (rc) {
				snprintf(err, errlen, "%s",
				         ec->error_msg ? ec->error_msg : spoor_strerror(rc));
				return rc;
			}
		}
	return 0;
}

/* A model, parsed or shared, to plans and the facts the reader takes from it. */
static int compile_trace(struct ctf_trace *t, char *err, size_t errlen)
{
	int rc;

	for (unsigned s = 0; s < t->meta.nstreams; s++)
		for (unsigned e = 0; e < t->meta.streams[s]->nevents; e++)
			t->meta.streams[s]->events[e]->trace = t;
	struct plan_scopes scopes = {0};
	scopes.type[PLAN_SCOPE_PACKET_HEADER] = t->meta.packet_header;
	rc = plan_compile(&t->meta.arena, &t->meta, &scopes, PLAN_SCOPE_PACKET_HEADER,
	                  &t->packet_header, err, errlen);
	if (rc)
		return rc;
	find_roles(t->meta.packet_header, t->header_role);
	for (unsigned i = 0; i < t->meta.nenv; i++) {
		const struct ctf_env_entry *e = &t->meta.env[i];
		if (e->is_string && !strcmp(e->key, "hostname")) {
			t->hostname = e->text;
			t->hostname_len = strlen(t->hostname);
		} else if (e->is_string && !strcmp(e->key, "procname")) {
			t->procname = e->text;
		} else if (!e->is_string && !strcmp(e->key, "vpid")) {
			t->has_vpid = true;
			t->vpid = e->value;
		}
	}
	for (unsigned s = 0; s < t->meta.nstreams && !rc; s++)
		rc = compile_stream_class(t, t->meta.streams[s], err, errlen);
	return rc;
}

int ctf_trace_load_metadata(struct ctf_trace *t, const char *text, size_t len, char *err,
                            size_t errlen)
{
	struct tsdl_error perr;
	int rc = tsdl_parse_lazy(text, len, &t->meta, &perr);

	if (rc) {
		parse_error_text(&perr, err, errlen);
		return rc;
	}
	return compile_trace(t, err, errlen);
}

/* Whether a known trace's model is one to compare with: not grown (its classes are its
 * text's), and its own, or one whose own trace grew (each model once, but then). */
static bool model_to_try(const struct ctf_trace *k)
{
	return !k->grafted && k->meta.text && (!k->model || k->model->grafted);
}

int ctf_trace_load_among(struct ctf_trace *t, struct ctf_trace *const *known, size_t nknown,
                         const char *text, size_t len, char *err, size_t errlen)
{
	for (size_t k = 0; k < nknown; k++) {
		if (!model_to_try(known[k]) || ctf_meta_share(&t->meta, &known[k]->meta, text, len))
			continue;
		t->model = known[k]->model ? known[k]->model : known[k];
		t->model->sharers++;
		return compile_trace(t, err, errlen);
	}
	return ctf_trace_load_metadata(t, text, len, err, errlen);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Stream files: every regular, non-hidden, non-empty file beside `metadata`. */
static int list_streams(struct ctf_trace *t, char *err, size_t errlen)
{
	DIR *d = opendir(t->path);
	size_t cap = 0;
	struct dirent *de;

	if (!d) {
		snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata"))
			continue;
		size_t n = strlen(t->path) + strlen(de->d_name) + 2;
		char *full = malloc(n);
		struct stat st;
		if (!full)
			break;
		snprintf(full, n, "%s/%s", t->path, de->d_name);
		if (stat(full, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
			free(full);
			continue;
		}
		if (t->nstream_paths == cap) {
			cap = cap ? cap * 2 : 16;
			char **bigger = realloc(t->stream_paths, cap * sizeof(char *));
			if (!bigger) {
				free(full);
				break;
			}
			t->stream_paths = bigger;
		}
		t->stream_paths[t->nstream_paths++] = full;
	}
	closedir(d);
	if (t->nstream_paths)
		qsort(t->stream_paths, t->nstream_paths, sizeof(char *), name_cmp);
	return 0;
}

int ctf_trace_open_among(const char *dir, struct ctf_trace *const *known, size_t nknown,
                         struct ctf_trace **out, char *err, size_t errlen)
{
	struct ctf_trace *t = calloc(1, sizeof(*t));
	char *text = NULL, *meta_path = NULL;
	size_t len;
	int rc;

	*out = NULL;
	if (!t || !(t->path = strdup(dir)) || !(meta_path = malloc(strlen(dir) + 10))) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", dir);
		goto fail;
	}
	sprintf(meta_path, "%s/metadata", dir);
	if ((rc = ctf_metadata_read(meta_path, &text, &len, err, errlen)))
		goto fail;
	char detail[400] = "";
	if ((rc = ctf_trace_load_among(t, known, nknown, text, len, detail, sizeof(detail)))) {
		snprintf(err, errlen, "%s: %s", meta_path, detail);
		goto fail;
	}
	if ((rc = list_streams(t, err, errlen)))
		goto fail;
	free(text);
	free(meta_path);
	*out = t;
	return 0;
fail:
	free(text);
	free(meta_path);
	ctf_trace_free(t);
	return rc;
}

int ctf_trace_open(const char *dir, struct ctf_trace **out, char *err, size_t errlen)
{
	return ctf_trace_open_among(dir, NULL, 0, out, err, errlen);
}

size_t ctf_trace_graft(struct ctf_trace *t, struct ctf_trace *newer)
{
	size_t added = 0;

	for (unsigned s = 0; s < newer->meta.nstreams; s++) {
		struct ctf_stream_class *from = newer->meta.streams[s];
		struct ctf_stream_class *to = ctf_meta_stream(&t->meta, from->id);
		unsigned n = 0;
		if (!to)
			continue; /* a stream class of its own: its streams could not be read */
		for (unsigned e = 0; e < from->nevents; e++)
			n += !ctf_stream_event(to, from->events[e]->id);
		if (!n)
			continue;
		struct ctf_event_class **v =
		    arena_alloc(&t->meta.arena, (to->nevents + n) * sizeof(*v));
		if (!v)
			break;
		memcpy(v, to->events, to->nevents * sizeof(*v));
		unsigned k = to->nevents;
		for (unsigned e = 0; e < from->nevents; e++)
			if (!ctf_stream_event(to, from->events[e]->id))
				v[k++] = from->events[e];
		to->events = v;
		added += k - to->nevents;
		to->nevents = to->cap_events = k;
		ctf_stream_index_ids(&t->meta.arena, to); /* none: the slow look-up */
	}
	newer->grafted = t->grafted;
	t->grafted = newer;
	return added;
}

static void trace_destroy(struct ctf_trace *t)
{
	struct ctf_trace *model = t->model;

	ctf_trace_free(t->grafted);
	for (size_t i = 0; i < t->nstream_paths; i++)
		free(t->stream_paths[i]);
	free(t->stream_paths);
	ctf_meta_free(&t->meta);
	free(t->path);
	free(t);
	if (model && !--model->sharers && model->released)
		trace_destroy(model);
}

void ctf_trace_free(struct ctf_trace *t)
{
	if (!t)
		return;
	if (t->sharers)
		t->released = true; /* its arena holds their types: it goes with the last */
	else
		trace_destroy(t);
}
