/* SPDX-License-Identifier: MIT */
/* scan-plan.h: how sql_scan_best_index hands its plan to sql_scan_filter: idxNum's bits,
 * and idxStr, one letter per xFilter argument saying what it is. */
#ifndef SQL_SCAN_PLAN_H
#define SQL_SCAN_PLAN_H

/* idxNum */
enum {
	PLAN_ORDER = 3,           /* the order, one of: */
	PLAN_ORDER_TIME = 0,      /* the reader's merge: time order */
	PLAN_ORDER_NONE = 1,      /* nobody sees the order: streams one after another */
	PLAN_ORDER_NAME = 2,      /* a pass per name, names ascending */
	PLAN_ORDER_NAME_DESC = 3, /* descending */
	PLAN_DISTINCT = 4,        /* a row per name will do */
	PLAN_TID = 8,             /* columns the query reads */
	PLAN_PID = 16,
	PLAN_COMM = 32,
	/* only the name is read (GROUP BY name, count(*)): the events are counted by name in
	 * one unordered pass, then each name gives as many rows, all alike */
	PLAN_CENSUS = 64,
};

/* idxStr's letters */
enum {
	ROLE_TS_EQ = 'e',
	ROLE_TS_GT = 'g',
	ROLE_TS_GE = 'a',
	ROLE_TS_LT = 'l',
	ROLE_TS_LE = 'b',
	ROLE_NAME = 'n',
	ROLE_NAME_IN = 'N',
	ROLE_TID = 't',
	ROLE_TID_IN = 'T',
	ROLE_CPU = 'c',
};

/* More names than this take SQLite's sorter rather than a pass each. */
#define PLAN_PASSES_MAX 32

#endif
