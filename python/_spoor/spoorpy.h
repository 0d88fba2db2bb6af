/* SPDX-License-Identifier: MIT */
/*
 * spoorpy.h: what the files of Python's `_spoor` extension share (docs/python.md). The
 * package `spoor` (python/spoor/__init__.py) wraps it: its Trace calls these functions with
 * the trace's paths, or a part.
 */
#ifndef SPOORPY_H
#define SPOORPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include "spoor/trace.h"

extern PyObject *spy_error;          /* spoor.Error */
extern PyObject *spy_damage_warning; /* spoor.DamageWarning */

/* ---- read.c: a reader for one call ---- */

/* What a call reads: the traces' paths, or one part of one trace (part.stream set). */
struct spy_source {
	const char **paths;
	size_t npaths;
	struct {
		const char *trace, *stream;
		uint64_t begin, end;
	} part;
	PyObject *keep; /* a list of the bytes objects the strings above live in */
};
/* paths (a str or a list of str: file system paths, os.fsencode's bytes) and part (None or
 * a tuple (trace, stream, begin, end)): 0, or -1 with an exception set. spy_source_free
 * drops it. */
int spy_source_get(struct spy_source *src, PyObject *paths, PyObject *part);
void spy_source_free(struct spy_source *src);

/* Damage met while reading: the reader's messages, kept until they can be raised (strict)
 * or given to warnings.warn (spoor.DamageWarning) with the interpreter in a safe state. */
struct spy_damage {
	PyObject *messages; /* a list, NULL until the first */
	bool strict;
	bool failed; /* no memory for a message */
};
void spy_damage_note(void *data, const char *message); /* a spoor_warn_fn */
/* The messages noted so far, warned or raised: 0, or -1 with an exception set. */
int spy_damage_flush(struct spy_damage *d);

/* spoor.Error with a message from C (text as spy_text makes it). */
void spy_raise(const char *message);
/* A reader of src with its damage noted in d: 0, or -1 with spoor.Error set (the reader's
 * message: the file, what is wrong). */
int spy_reader_open(const struct spy_source *src, struct spy_damage *d, struct spoor_reader **out);
/* begin, end: None or an int (ns from the clock origin): 0 or -1 with an exception set. */
int spy_range_get(PyObject *begin, PyObject *end, bool *has, int64_t *b, int64_t *e);

/* ---- values.c: trace values as Python objects ---- */

/* Text from a trace: UTF-8, with bytes that are not as surrogates (surrogateescape), so
 * that nothing is lost. */
PyObject *spy_text(const char *s, size_t len);
/* A field as a Python value: int, float, str, dict (struct), list (array), the chosen
 * option (variant). Enumerations are their integer. */
PyObject *spy_field_value(const struct spoor_field *f);

/* ---- events.c, event.c: iteration ---- */

/* An iteration over events (t.events()): its reader, and what the events share. */
struct spy_events {
	PyObject_HEAD struct spoor_reader *r;
	struct tasks *tasks; /* model/tasks.h: ev.tid, ev.pid, ev.comm */
	struct spy_damage damage;
	bool *deliver; /* per class: delivered (names=); NULL: all */
	size_t nclasses;
	bool done;
	bool busy;    /* in events_next: Python code it calls (warnings) must not re-enter */
	uint64_t gen; /* events handed out: an event is current while its gen is this one */
	const struct spoor_event *ev; /* the current event */
	PyObject **names;             /* per class: its name as a str, made at its first event */
	PyObject **fields; /* per class: {name: scope << 16 | index}, made at the first look-up */
};

/* One event (ev): its facts copied, its fields read from the trace while it is current. */
struct spy_event {
	PyObject_HEAD struct spy_events *it; /* a reference */
	uint64_t gen;
	size_t class_index, stream;
	int64_t ts, cpu, tid;
};

extern PyTypeObject spy_events_type, spy_event_type;
PyObject *spy_events(PyObject *self, PyObject *args, PyObject *kw);
/* The reader's event when ev is still the current one; else NULL with spoor.Error set. */
const struct spoor_event *spy_event_current(const struct spy_event *ev);

/* ---- columns.c, sql.c, parts.c ---- */

PyObject *spy_columns(PyObject *self, PyObject *args, PyObject *kw);
int spy_columns_init(void); /* NumPy's C API: 0, or -1 with an exception set */
extern PyTypeObject spy_db_type;
PyObject *spy_packets(PyObject *self, PyObject *args, PyObject *kw);

#endif
