/* SPDX-License-Identifier: MIT */
/* scan-args.c: xFilter's arguments, the constraints' values, as the reader takes them: the
 * time range, the names, tids and CPU, applied exactly as SQLite would compare them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scan-plan.h"
#include "scan.h"
#include "util/grow.h"

/* A real bound as an integer one: ts > 1.5 is ts >= 2, ts < 1.5 is ts <= 1, ts = 1.5 is
 * nothing. Returns the role left (GE, LE or EQ), 0 when the bound restricts nothing, or 'x'
 * when nothing passes it. */
static char real_bound(char role, double d, int64_t *x)
{
	const double top = 9223372036854775808.0; /* 2^63 */
	double b;
	switch (role) {
	case ROLE_TS_EQ:
		if (d != floor(d) || d < -top || d >= top)
			return 'x';
		*x = (int64_t) d;
		return ROLE_TS_EQ;
	case ROLE_TS_GT:
		b = floor(d) + 1;
		role = ROLE_TS_GE;
		break;
	case ROLE_TS_GE: b = ceil(d); break;
	case ROLE_TS_LT:
		b = ceil(d) - 1;
		role = ROLE_TS_LE;
		break;
	default: b = floor(d); break;
	}
	bool lower = role == ROLE_TS_GE;
	if (b >= top)
		return lower ? 'x' : 0;
	if (b < -top)
		return lower ? 0 : 'x';
	*x = (int64_t) b;
	return role;
}

/* A bound of the range from a value: ts OP v. Integers and reals are exact; NULL (and NaN)
 * match nothing; text and blobs restrict nothing (their constraints are not omitted: SQLite
 * checks them). */
static void bound(struct sql_scan *s, char role, sqlite3_value *v)
{
	int64_t x = 0;
	switch (sqlite3_value_type(v)) {
	case SQLITE_NULL: s->empty = true; return;
	case SQLITE_INTEGER: x = sqlite3_value_int64(v); break;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(v);
		role = isnan(d) ? 'x' : real_bound(role, d, &x);
		break;
	}
	default: return;
	}
	if (role == 'x' || (role == ROLE_TS_GT && x == INT64_MAX) ||
	    (role == ROLE_TS_LT && x == INT64_MIN)) {
		s->empty = true;
		return;
	}
	if (!role)
		return;
	s->has_range = true;
	if (role == ROLE_TS_GT)
		role = ROLE_TS_GE, x++;
	else if (role == ROLE_TS_LT)
		role = ROLE_TS_LE, x--;
	if ((role == ROLE_TS_EQ || role == ROLE_TS_GE) && x > s->begin)
		s->begin = x;
	if ((role == ROLE_TS_EQ || role == ROLE_TS_LE) && x < s->end)
		s->end = x;
}

/* An integer as SQLite compares it with an INTEGER column: false when nothing equals it. */
static bool int_of(sqlite3_value *v, int64_t *x)
{
	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER: *x = sqlite3_value_int64(v); return true;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(v);
		if (d != floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
			return false;
		*x = (int64_t) d;
		return true;
	}
	default: return false;
	}
}

static int add_tid(struct sql_scan *s, sqlite3_value *v, size_t *cap)
{
	int64_t x;
	if (!int_of(v, &x))
		return 0;
	if (grow_one(&s->tids, s->ntids, cap, sizeof(*s->tids), 16))
		return -ENOMEM;
	s->tids[s->ntids++] = x;
	return 0;
}

int sql_scan_by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
	return (x > y) - (x < y);
}

/* The tids sorted, each once: a row's is found by bsearch (an IN list may be long). */
static void sort_tids(struct sql_scan *s)
{
	size_t n = 0;
	if (!s->ntids) /* no list: s->tids is NULL, which qsort may not take */
		return;
	qsort(s->tids, s->ntids, sizeof(*s->tids), sql_scan_by_value);
	for (size_t i = 0; i < s->ntids; i++)
		if (!n || s->tids[n - 1] != s->tids[i])
			s->tids[n++] = s->tids[i];
	s->ntids = n;
}

/* Classes named v (a name as text: SQLite's TEXT affinity gives numbers their text) join
 * the set. */
static void add_name(struct sql_scan *s, bool *named, sqlite3_value *v)
{
	int type = sqlite3_value_type(v);
	if (type == SQLITE_NULL || type == SQLITE_BLOB)
		return;
	const char *name = (const char *) sqlite3_value_text(v);
	int len = sqlite3_value_bytes(v);
	if (!name || (int) strlen(name) != len)
		return; /* a NUL inside: no class name holds one */
	for (size_t c = 0; c < s->nclasses; c++)
		if (!strcmp(sql_scan_class_name(s, c), name))
			named[c] = true;
}

int sql_scan_take_args(struct sql_scan *s, const char *roles, int argc, sqlite3_value **argv,
                       bool **named)
{
	size_t cap = 0; /* of s->tids */
	for (int i = 0; i < argc && roles && roles[i]; i++) {
		sqlite3_value *v = argv[i], *e;
		int rc = 0;
		switch (roles[i]) {
		case ROLE_NAME:
		case ROLE_NAME_IN:
			if (!*named && !(*named = calloc(s->nclasses + 1, sizeof(**named))))
				return -ENOMEM;
			if (roles[i] == ROLE_NAME)
				add_name(s, *named, v);
			else
				for (int k = sqlite3_vtab_in_first(v, &e); k == SQLITE_OK && e;
				     k = sqlite3_vtab_in_next(v, &e))
					add_name(s, *named, e);
			break;
		case ROLE_TID:
			rc = add_tid(s, v, &cap);
			s->empty |= !s->ntids;
			break;
		case ROLE_TID_IN:
			for (int k = sqlite3_vtab_in_first(v, &e); k == SQLITE_OK && e && !rc;
			     k = sqlite3_vtab_in_next(v, &e))
				rc = add_tid(s, e, &cap);
			s->empty |= !s->ntids;
			break;
		case ROLE_CPU: /* the reader's -1 (unknown) is NULL: no value equals it */
			s->has_cpu = true;
			s->empty |= !int_of(v, &s->cpu) || s->cpu < 0;
			break;
		default: bound(s, roles[i], v); break;
		}
		if (rc)
			return rc;
	}
	sort_tids(s);
	return 0;
}
