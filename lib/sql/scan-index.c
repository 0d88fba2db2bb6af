/* SPDX-License-Identifier: MIT */
/* scan-index.c: xBestIndex of the tables that read events: what a query can push down to
 * the reader (see scan.h), and what it costs. */
#include <string.h>

#include "scan-plan.h"
#include "scan.h"

/* Whether a constraint's right-hand side is known now and is an integer: then applying it
 * in the reader is exact, and SQLite need not check it again. */
static bool rhs_integer(sqlite3_index_info *info, int i)
{
	sqlite3_value *v = NULL;
	return sqlite3_vtab_rhs_value(info, i, &v) == SQLITE_OK &&
	       sqlite3_value_type(v) == SQLITE_INTEGER;
}

/* Whether a text constraint compares bytes (no COLLATE NOCASE, ...): then it is exact. */
static bool binary(sqlite3_index_info *info, int i)
{
	const char *coll = sqlite3_vtab_collation(info, i);
	return !coll || !sqlite3_stricmp(coll, "BINARY");
}

static char ts_role(unsigned char op)
{
	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ: return ROLE_TS_EQ;
	case SQLITE_INDEX_CONSTRAINT_GT: return ROLE_TS_GT;
	case SQLITE_INDEX_CONSTRAINT_GE: return ROLE_TS_GE;
	case SQLITE_INDEX_CONSTRAINT_LT: return ROLE_TS_LT;
	case SQLITE_INDEX_CONSTRAINT_LE: return ROLE_TS_LE;
	default: return 0;
	}
}

static bool used(const sqlite3_index_info *info, int col)
{
	return info->colUsed & ((sqlite3_uint64) 1 << (col < 63 ? col : 63));
}

int sql_scan_best_index(const struct sql_scan_table *t, sqlite3_index_info *info)
{
	char roles[64];
	int nargs = 0, plan = 0;
	bool lo = false, hi = false, eq = false, name = false, tid = false, cpu = false;
	int name_col = -1;

	for (int i = 0; i < info->nConstraint && nargs < 60; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		struct sqlite3_index_constraint_usage *u = &info->aConstraintUsage[i];
		if (!c->usable || c->iColumn < 0 || c->iColumn >= t->ncols)
			continue;
		char role = 0;
		bool omit = false, is_eq = c->op == SQLITE_INDEX_CONSTRAINT_EQ;
		switch (t->cols[c->iColumn]) {
		case SQL_COL_TS:
			if ((role = ts_role(c->op))) {
				omit = rhs_integer(info, i);
				lo |= role != ROLE_TS_LT && role != ROLE_TS_LE;
				hi |= role != ROLE_TS_GT && role != ROLE_TS_GE;
				eq |= role == ROLE_TS_EQ;
			}
			break;
		case SQL_COL_NAME:
			if (is_eq && !name && binary(info, i)) {
				name = omit = true;
				role = sqlite3_vtab_in(info, i, 1) ? ROLE_NAME_IN : ROLE_NAME;
			}
			break;
		case SQL_COL_TID:
			if (is_eq && !tid) {
				tid = true;
				bool in = sqlite3_vtab_in(info, i, 1);
				role = in ? ROLE_TID_IN : ROLE_TID;
				omit = in || rhs_integer(info, i);
			}
			break;
		case SQL_COL_CPU:
			if (is_eq && !cpu) {
				cpu = true;
				role = ROLE_CPU;
				omit = rhs_integer(info, i);
			}
			break;
		default: break;
		}
		if (!role)
			continue;
		roles[nargs++] = role;
		u->argvIndex = nargs;
		u->omit = omit;
	}
	roles[nargs] = '\0';

	for (int col = 0; col < t->ncols; col++) {
		if (!used(info, col))
			continue;
		if (t->cols[col] == SQL_COL_TID)
			plan |= PLAN_TID;
		else if (t->cols[col] == SQL_COL_PID)
			plan |= PLAN_PID;
		else if (t->cols[col] == SQL_COL_COMM)
			plan |= PLAN_COMM;
		else if (t->cols[col] == SQL_COL_NAME)
			name_col = col;
	}

	/* the order: the reader's (time), a pass per name, or none when nobody sees it */
	if (info->nOrderBy == 1) {
		const struct sqlite3_index_orderby *ob = &info->aOrderBy[0];
		enum sql_col col = ob->iColumn >= 0 && ob->iColumn < t->ncols ? t->cols[ob->iColumn]
		                                                              : SQL_COL_OTHER;
		if (col == SQL_COL_TS && !ob->desc && t->clocked) {
			info->orderByConsumed = 1;
		} else if (col == SQL_COL_NAME) {
			/* a pass per name; or, when nothing but the name is read, a count per name
			 */
			sqlite3_uint64 others =
			    name_col < 0 ? info->colUsed
			                 : info->colUsed & ~((sqlite3_uint64) 1 << name_col);
			if (!others || t->nnames <= PLAN_PASSES_MAX) {
				info->orderByConsumed = 1;
				plan |= ob->desc ? PLAN_ORDER_NAME_DESC : PLAN_ORDER_NAME;
				plan |= others ? 0 : PLAN_CENSUS;
				/* DISTINCT name alone: a row per name */
				if (sqlite3_vtab_distinct(info) >= 2 && !others)
					plan |= PLAN_DISTINCT;
			}
		}
	} else if (!info->nOrderBy && !info->colUsed && !nargs) {
		plan |= PLAN_ORDER_NONE;
	}

	double rows = t->rows;
	if (name)
		rows /= 10;
	if (eq)
		rows = 10;
	else if (lo && hi)
		rows /= 10;
	else if (lo || hi)
		rows /= 2;
	if (tid)
		rows /= 50;
	if (cpu)
		rows /= 4;
	if (rows < 1)
		rows = 1;
	info->estimatedRows = (sqlite3_int64) rows;
	info->estimatedCost = rows + 10;
	info->idxNum = plan;
	if (nargs) {
		info->idxStr = sqlite3_mprintf("%s", roles);
		info->needToFreeIdxStr = 1;
		if (!info->idxStr)
			return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}
