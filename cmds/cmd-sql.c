/* SPDX-License-Identifier: MIT */
/*
 * cmd-sql.c: `spoor sql TRACE... [-c QUERY | --file FILE.sql]` (docs/sql.md): SQL over the
 * traces, through lib/sql's database. The statements of -c or --file run in order; without
 * either, those of standard input, line by line, or of a prompt on a terminal
 * (sql-prompt.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-args.h"
#include "sql-cli.h"

enum { SQL_OPT_COMMAND, SQL_OPT_FILE, SQL_OPT_FORMAT, SQL_OPT_MAX_MEMORY, SQL_OPT_HELP };

static const struct cmd_option sql_options[] = {
    [SQL_OPT_COMMAND] = {"command", 'c', "QUERY",
                         "run QUERY's statements (several, separated by ';', run in order)"},
    [SQL_OPT_FILE] = {"file", 0, "FILE.sql", "run the statements of FILE.sql"},
    [SQL_OPT_FORMAT] = {"format", 'f', "FORMAT",
                        "print results as table (aligned columns, the default), csv or json"},
    [SQL_OPT_MAX_MEMORY] = {"max-memory", 0, "SIZE",
                            "stop a statement with \"out of memory\" when SQLite's memory would "
                            "pass SIZE (256m, 4g; 0: no limit; default: half the RAM)"},
    [SQL_OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* The whole of a file, NUL-terminated; NULL with errno set. */
static char *read_all(FILE *f)
{
	size_t len = 0, cap = 0;
	char *text = NULL;

	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			char *t = realloc(text, cap);
			if (!t) {
				free(text);
				errno = ENOMEM;
				return NULL;
			}
			text = t;
		}
		size_t n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(text);
		errno = EIO;
		return NULL;
	}
	if (memchr(text, '\0', len)) {
		free(text);
		errno = EILSEQ; /* SQL is text: a NUL byte would cut it */
		return NULL;
	}
	text[len] = '\0';
	return text;
}

/* Half the machine's RAM: a runaway recursive query or TEMP table fails before it takes
 * the machine (0, no limit, when sysconf cannot say). */
static uint64_t default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (uint64_t) pages * (uint64_t) page / 2 : 0;
}

static void warn(void *data, const char *message)
{
	const struct command *cmd = data;
	fflush(stdout);
	fprintf(stderr, "spoor %s: warning: %s\n", cmd->name, message);
}

/* The options and TRACE operands, in any order ("--" ends the options). 0, 2 for a usage
 * error (said), -1 after --help. */
static int parse_args(const struct command *cmd, int argc, char **argv, const char ***traces,
                      size_t *ntraces, const char **query, const char **file,
                      enum sql_format *format, uint64_t *max_memory)
{
	const char *arg;
	int row, next;

	*traces = calloc((size_t) argc, sizeof(**traces));
	if (!*traces)
		return cmd_error(cmd, "out of memory");
	optind = 1;
	while (optind < argc) {
		int before = optind;
		while ((row = cmd_getopt(cmd, argc, argv, &arg, &next)) != -1) {
			switch (row) {
			case SQL_OPT_COMMAND:
			case SQL_OPT_FILE:
				if (*query || *file)
					return cmd_usage_error(cmd,
					                       "give one -c QUERY or --file FILE");
				*(row == SQL_OPT_COMMAND ? query : file) = arg;
				break;
			case SQL_OPT_FORMAT:
				if (sql_format_parse(arg, format))
					return cmd_usage_error(
					    cmd, "unknown format '%s' (table, csv or json)", arg);
				break;
			case SQL_OPT_MAX_MEMORY:
				if (record_parse_size(arg, max_memory) || *max_memory > INT64_MAX)
					return cmd_usage_error(
					    cmd, "invalid size '%s' (256m, 4g, or 0 for no limit)",
					    arg);
				break;
			case SQL_OPT_HELP: cmd_help(cmd, stdout); return -1;
			default: return 2;
			}
			before = optind;
		}
		if (next > before && !strcmp(argv[next - 1], "--")) {
			while (next < argc)
				(*traces)[(*ntraces)++] = argv[next++];
			break;
		}
		if (next < argc)
			(*traces)[(*ntraces)++] = argv[next++];
		optind = next;
	}
	if (!*ntraces)
		return cmd_usage_error(cmd, "no trace given");
	return 0;
}

/* The statements of -c or --file; NULL for standard input's lines (*rc 0) or after an
 * error (*rc 1, said). */
static char *statements(const struct command *cmd, const char *query, const char *file,
                        const char **source, int *rc)
{
	*rc = 0;
	*source = query ? "query" : file ? file : "stdin";
	if (query) {
		char *t = strdup(query);
		if (!t)
			*rc = cmd_error(cmd, "out of memory");
		return t;
	}
	if (!file)
		return NULL;
	FILE *f = fopen(file, "r");
	char *text = f ? read_all(f) : NULL;
	if (!text)
		*rc = cmd_error(cmd, "cannot read %s: %s", file,
		                errno == EILSEQ ? "it holds a NUL byte" : strerror(errno));
	if (f)
		fclose(f);
	return text;
}

static int run_sql(const struct command *cmd, int argc, char **argv)
{
	struct sql_session s = {.cmd = cmd, .out = stdout, .format = SQL_TABLE};
	const char **traces = NULL, *query = NULL, *file = NULL;
	size_t ntraces = 0;
	char *err = NULL, *text = NULL;
	struct sql_losses losses = {0};
	uint64_t max_memory = default_max_memory();
	int rc =
	    parse_args(cmd, argc, argv, &traces, &ntraces, &query, &file, &s.format, &max_memory);

	if (rc) {
		free(traces);
		return rc < 0 ? 0 : rc;
	}
	text = statements(cmd, query, file, &s.source, &rc);
	if (rc)
		goto out;
	if ((rc = sql_db_open(traces, ntraces, &s.db, &err))) {
		rc = cmd_error(cmd, "%s", err ? err : "cannot open the traces");
		goto out;
	}
	sql_db_set_warn(s.db, warn, (void *) cmd);
	sql_db_set_reader_done(s.db, sql_losses_seen, &losses);
	/* Process-wide, so set here and never in lib/sql, which Python's module shares with
	 * Python's own sqlite3. After the tables are made: it bounds what the statements add. */
	sqlite3_hard_heap_limit64((sqlite3_int64) max_memory);
	/* one thread writes: stdio's lock per fputc costs more than the row's text */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
	s.h = sql_db_handle(s.db);
	rc = text ? sql_run(&s, text) : sql_lines(&s, isatty(STDIN_FILENO));
	if (fflush(stdout) || ferror(stdout))
		rc = cmd_error(cmd, "cannot write the output: %s", strerror(errno));
	sql_losses_warn(cmd, &losses);
	rc = cmd_damage_status(cmd, sql_db_damaged(s.db), rc,
	                       "the results cover the events before the damage");
out:
	sql_db_close(s.db);
	sql_losses_warn(NULL, &losses); /* frees (said above, or nothing to say) */
	free(err);
	free(text);
	free(traces);
	return rc;
}

const struct command cmd_sql = {
    .name = "sql",
    .summary = "ask SQL questions about traces: each event class, the models and the "
               "analyses are tables",
    .description = "Runs SQL (SQLite's) over the traces, whose tables read them as the "
                   "query asks, with no import step: events, a table per event class and "
                   "the tables of the thread model and the analyses. The statements of -c "
                   "or --file run in order, else those of standard input; on a terminal, "
                   "a prompt with history. A query reaches the traces and nothing else: "
                   "ATTACH, extensions and writes to files are refused (docs/sql.md).",
    .usage = "[options] TRACE... [-c QUERY | --file FILE.sql]",
    .options = sql_options,
    .run = run_sql,
};
