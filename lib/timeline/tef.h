/* SPDX-License-Identifier: MIT */
/*
 * tef.h: the Trace Event Format's JSON (the format of chrome://tracing and Perfetto's JSON
 * importer), written a piece at a time into an outbuf: the file's frame, each event's
 * common members, and the values of its args. Names and strings are untrusted and go
 * through util/json.h. Times are ns relative to the trace's origin, written as the format's
 * microseconds with the ns as three decimals (trailing zeros dropped): a double holds them
 * exactly while the trace is shorter than 104 days, which absolute epoch ns never are.
 *
 * Write errors stay in the outbuf (o.error): once one happened, the rest is skipped.
 */
#ifndef TIMELINE_TEF_H
#define TIMELINE_TEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/outbuf.h"

struct spoor_field;

struct tef {
	struct outbuf o;
	uint64_t events; /* written so far */
	bool open;       /* an event's object is open: a member needs a comma */
};

/* Start the file on fd: `{"traceEvents":[`. 0 or -errno. */
int tef_open(struct tef *t, int fd);
/* An event: `{"ph":"X","pid":P,"tid":T,"ts":U` (its object stays open for more members).
 * false when the output failed. */
bool tef_event(struct tef *t, char ph, int64_t pid, int64_t tid, int64_t ts);
/* Members of the open object (the event, or an object of args): `,"key":value`. */
void tef_str(struct tef *t, const char *key, const char *s, size_t n);
void tef_int(struct tef *t, const char *key, int64_t v);
/* ns as the format's microseconds (`ts`, `dur`) */
void tef_us(struct tef *t, const char *key, int64_t ns);
/* v / 10^decimals, exactly (no double on the way) */
void tef_decimal(struct tef *t, const char *key, int64_t v, unsigned decimals);
/* `,"key":{` an object whose first member needs no comma; tef_close ends it (and the
 * event: `}`). */
void tef_object(struct tef *t, const char *key);
void tef_close(struct tef *t);
/* A trace field as a JSON value under key (untrusted: any name, any bytes, any depth the
 * reader allows): integers as numbers (an enumeration's label as a string), floats as
 * numbers (NaN and infinities as strings), text as strings, structures as objects,
 * arrays and sequences as arrays, a variant as its selected option. */
void tef_field(struct tef *t, const char *key, size_t keylen, const struct spoor_field *f);
/* End the events, add the top-level members after them (`other` holds the members of
 * "otherData", written by the callback), and flush. 0 or the output's error (-errno). */
int tef_finish(struct tef *t, void (*other)(struct tef *t, void *data), void *data);
void tef_free(struct tef *t);

#endif
