/* SPDX-License-Identifier: MIT */
/* vt-analyses.c: the models' and analyses' tables (docs/sql.md), each from its own file on
 * the engine-driven cursor (vt-engine.h). */
#include "vt-analyses.h"

int sql_analyses_register(struct sql_db *db, char **errmsg)
{
	static const struct vt_table *const tables[] = {&vt_threads,       &vt_sched_slices,
	                                                &vt_thread_states, &vt_irqs,
	                                                &vt_syscalls,      &vt_disk_requests};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		int rc = vt_engine_register(db, tables[i], errmsg);
		if (rc)
			return rc;
	}
	return 0;
}
