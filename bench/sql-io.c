/* SPDX-License-Identifier: MIT */
/*
 * sql-io.c: one query of lib/sql on traces, and what it read: rows, seconds, and the bytes
 * and packets of the readers it opened (sql_db_io), for bench/sql.sh (push-down and the
 * model's pre-pass, measured).
 *
 *   bench-sql-io QUERY TRACE...    prints "rows R seconds S cpu C bytes B skipped_bytes K
 *                                  packets P skipped_packets Q" on one line (S wall, C CPU
 *                                  seconds of the query)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sql/sql.h"

int main(int argc, char **argv)
{
	struct sql_db *db;
	char *err = NULL;
	if (argc < 3) {
		fprintf(stderr, "usage: bench-sql-io QUERY TRACE...\n");
		return 2;
	}
	if (sql_db_open((const char *const *) argv + 2, (size_t) argc - 2, &db, &err)) {
		fprintf(stderr, "bench-sql-io: %s\n", err ? err : "cannot open the traces");
		return 1;
	}
	sqlite3_stmt *st;
	struct timespec a, b, ca, cb;
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	if (sqlite3_prepare_v2(sql_db_handle(db), argv[1], -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "bench-sql-io: %s\n", sqlite3_errmsg(sql_db_handle(db)));
		return 1;
	}
	unsigned long long rows = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		rows++;
	sqlite3_finalize(st);
	clock_gettime(CLOCK_MONOTONIC, &b);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "bench-sql-io: %s\n", sqlite3_errmsg(sql_db_handle(db)));
		return 1;
	}
	struct sql_io io;
	sql_db_io(db, &io);
	printf("rows %llu seconds %.6f cpu %.6f bytes %llu skipped_bytes %llu packets %llu "
	       "skipped_packets %llu\n",
	       rows, (double) (b.tv_sec - a.tv_sec) + (double) (b.tv_nsec - a.tv_nsec) / 1e9,
	       (double) (cb.tv_sec - ca.tv_sec) + (double) (cb.tv_nsec - ca.tv_nsec) / 1e9,
	       (unsigned long long) io.bytes, (unsigned long long) io.skipped_bytes,
	       (unsigned long long) io.packets, (unsigned long long) io.skipped_packets);
	sql_db_close(db);
	return 0;
}
