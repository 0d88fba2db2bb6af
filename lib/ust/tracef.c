/* SPDX-License-Identifier: MIT */
/*
 * tracef.c: LTTng-UST's tracef() and tracelog() for programs built against spoor's
 * compatibility headers (include/lttng-ust-compat/lttng/tracef.h, tracelog.h): the
 * message formatted, then recorded as the events LTTng-UST 2.13 writes, names, fields and
 * types: `lttng_ust_tracef:event` { msg } and, per level,
 * `lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_*` { line, file, func, msg }, msg a
 * sequence of chars with a uint32 length and no NUL.
 *
 * An event registers at its first call, not when the library loads: every program links
 * this file, and a registered event takes an id, a line in every trace's metadata, and
 * the ids below 31 that the inline path needs are the program's own events' (ust.h).
 * Until then its `enabled` word holds PENDING, which the call site takes for "recorded".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng/tracef.h"
#include "lttng/tracelog.h"

#define TEXT_SEQ                                                                                   \
	{                                                                                          \
		"msg", SPOOR_FK_SEQUENCE, 1, (char) -1 < 0, 10, 0, 1, 0, NULL, 0, 0                \
	}

static const struct spoor_field_desc tracef_fields[] = {TEXT_SEQ};
static const struct spoor_field_desc tracelog_fields[] = {
    {"line", SPOOR_FK_INT, 4, 1, 10, 0, 0, 0, NULL, 0, 0},
    {"file", SPOOR_FK_STRING, 1, 0, 10, 0, 1, 0, NULL, 0, 0},
    {"func", SPOOR_FK_STRING, 1, 0, 10, 0, 1, 0, NULL, 0, 0},
    TEXT_SEQ,
};

/* A bit of `enabled` that the runtime never sets (ust.h). */
#define PENDING INT32_MIN

#define EVENT(prov, name, fields)                                                                  \
	{                                                                                          \
		sizeof(struct spoor_event_desc), PENDING, prov, name, fields,                      \
		    sizeof(fields) / sizeof((fields)[0]), 0, 1, NULL                               \
	}
#define LEVEL(name)                                                                                \
	EVENT("lttng_ust_tracelog", "LTTNG_UST_TRACEPOINT_LOGLEVEL_" name, tracelog_fields)

static struct spoor_event_desc events[16] = {
    LEVEL("EMERG"),          LEVEL("ALERT"),
    LEVEL("CRIT"),           LEVEL("ERR"),
    LEVEL("WARNING"),        LEVEL("NOTICE"),
    LEVEL("INFO"),           LEVEL("DEBUG_SYSTEM"),
    LEVEL("DEBUG_PROGRAM"),  LEVEL("DEBUG_PROCESS"),
    LEVEL("DEBUG_MODULE"),   LEVEL("DEBUG_UNIT"),
    LEVEL("DEBUG_FUNCTION"), LEVEL("DEBUG_LINE"),
    LEVEL("DEBUG"),          EVENT("lttng_ust_tracef", "event", tracef_fields),
};

struct spoor_event_desc *const spoor_lttng_tracelog_events[15] = {
    &events[0],  &events[1],  &events[2],  &events[3],  &events[4],
    &events[5],  &events[6],  &events[7],  &events[8],  &events[9],
    &events[10], &events[11], &events[12], &events[13], &events[14],
};
struct spoor_event_desc *const spoor_lttng_tracef_event = &events[15];

/* Whether a session records the event: registered first if not yet. */
static int recorded(struct spoor_event_desc *d)
{
	int en = __atomic_load_n(&d->enabled, __ATOMIC_RELAXED);

	if (en & PENDING) {
		spoor_register_events(&d, 1); /* a second thread's is taken as the same */
		en = __atomic_and_fetch(&d->enabled, ~PENDING, __ATOMIC_RELAXED);
	}
	return en != 0;
}

/* A message: on the stack when it fits, else on the heap (LTTng-UST has no limit). */
struct msg {
	char small[512];
	char *text;
	uint32_t len;
};

static void format(struct msg *m, const char *fmt, va_list ap)
{
	va_list again;

	va_copy(again, ap);
	int n = vsnprintf(m->small, sizeof(m->small), fmt, ap);
	m->text = m->small;
	m->len = n < 0 ? 0 : (uint32_t) n;
	if (n >= (int) sizeof(m->small)) {
		char *big = malloc((size_t) n + 1);
		if (big && vsnprintf(big, (size_t) n + 1, fmt, again) == n)
			m->text = big;
		else {
			free(big);
			m->len = sizeof(m->small) - 1; /* no memory: what fitted */
		}
	}
	va_end(again);
}

/* The event: `head` (the fields before msg), then msg's length and bytes. */
static void emit(struct spoor_event_desc *d, const char *head, size_t headlen, const struct msg *m)
{
	struct spoor_reservation r;

	if (!spoor_reserve(d, headlen + 4 + m->len, &r))
		return;
	if (headlen) /* tracef has none: no memcpy from NULL */
		memcpy(r.payload, head, headlen);
	memcpy(r.payload + headlen, &m->len, 4);
	memcpy(r.payload + headlen + 4, m->text, m->len);
	spoor_commit(&r);
}

void spoor_lttng_vtracef(const char *fmt, va_list ap)
{
	struct msg m;

	if (!recorded(spoor_lttng_tracef_event))
		return;
	format(&m, fmt, ap);
	emit(spoor_lttng_tracef_event, NULL, 0, &m);
	if (m.text != m.small)
		free(m.text);
}

void spoor_lttng_tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spoor_lttng_vtracef(fmt, ap);
	va_end(ap);
}

void spoor_lttng_vtracelog(int level, const char *file, int line, const char *func, const char *fmt,
                           va_list ap)
{
	if ((unsigned) level >= 15)
		return;
	struct spoor_event_desc *d = spoor_lttng_tracelog_events[level];
	if (!recorded(d))
		return;
	/* line, file and func, NUL-terminated; a path longer than this is cut */
	char head[4 + 2 * 1024];
	const char *s[2] = {file ? file : "(null)", func ? func : "(null)"};
	int32_t l = line;
	size_t o = 4;
	memcpy(head, &l, 4);
	for (int i = 0; i < 2; i++) {
		size_t n = strnlen(s[i], 1023);
		memcpy(head + o, s[i], n);
		head[o + n] = '\0';
		o += n + 1;
	}
	struct msg m;
	format(&m, fmt, ap);
	emit(d, head, o, &m);
	if (m.text != m.small)
		free(m.text);
}

void spoor_lttng_tracelog(int level, const char *file, int line, const char *func, const char *fmt,
                          ...)
{
	va_list ap;

	va_start(ap, fmt);
	spoor_lttng_vtracelog(level, file, line, func, fmt, ap);
	va_end(ap);
}
