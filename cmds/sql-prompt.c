/* SPDX-License-Identifier: MIT */
/*
 * sql-prompt.c: `spoor sql TRACE` reading lines: on a terminal, a prompt (libedit:
 * BSD-licensed, where readline is GPL-3) with a history kept in
 * $XDG_STATE_HOME/spoor/sql_history (else ~/.local/state/spoor/sql_history), readable by
 * its owner only, where Ctrl-C stops a running query or drops the line being typed; else
 * standard input, line by line. Each statement runs once its ';' ends it; a line starting
 * with '.' is a command of sql-dot.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "sql-cli.h"

#define HISTORY_MAX 1000

static struct sql_db *running; /* what Ctrl-C interrupts */
static volatile sig_atomic_t interrupted;

/* Ctrl-C: stop the running statement, or drop the line being typed (readline returns NULL).
 * sql_db_interrupt (async-signal-safe) also stops a table's pass that has no row for SQLite
 * yet, which sqlite3_interrupt alone would let run to its end. */
static void on_sigint(int sig)
{
	(void) sig;
	interrupted = 1;
	if (running)
		sql_db_interrupt(running);
}

/* sqlite3_interrupt is forgotten by a statement not yet stepped: this catches a Ctrl-C
 * that came between its prepare and its first step */
static int stop_if_interrupted(void *data)
{
	(void) data;
	return interrupted;
}

/* mkdir -p of path's folders, private ones for those it makes */
static void make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
}

/* The history file's path (malloc'd), NULL when there is no home to keep it in. */
static char *history_path(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *path = NULL;
	int n;

	if (state && state[0] == '/')
		n = asprintf(&path, "%s/spoor/sql_history", state);
	else if (home && home[0] == '/')
		n = asprintf(&path, "%s/.local/state/spoor/sql_history", home);
	else
		return NULL;
	return n < 0 ? NULL : path;
}

/* line appended to the statement being typed; false when out of memory */
static bool append(char **text, size_t *len, const char *line)
{
	size_t n = strlen(line);
	char *t = realloc(*text, *len + n + 2);
	if (!t)
		return false;
	memcpy(t + *len, line, n);
	t[*len + n] = '\n';
	t[*len + n + 1] = '\0';
	*len += n + 1;
	*text = t;
	return true;
}

/* A history entry of a statement: its lines joined, so that one Up brings it whole. */
static void remember(const char *text)
{
	char *entry = strdup(text);
	if (!entry)
		return;
	size_t n = strlen(entry);
	while (n && (entry[n - 1] == '\n' || entry[n - 1] == ' '))
		entry[--n] = '\0';
	for (char *p = entry; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (*entry)
		add_history(entry);
	free(entry);
}

/* The next line (malloc'd, without its newline): the prompt's, or standard input's. */
static char *next_line(bool tty, const char *prompt)
{
	if (tty)
		return readline(prompt);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, stdin);
	if (n < 0) {
		free(line);
		return NULL;
	}
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return line;
}

int sql_lines(struct sql_session *s, bool tty)
{
	struct sigaction sa = {.sa_handler = on_sigint, .sa_flags = SA_RESTART}, old;
	char *hist = tty ? history_path() : NULL, *text = NULL, *line;
	size_t len = 0;
	unsigned lines = 0; /* read so far */
	int rc = 0;

	if (tty) {
		rl_readline_name = "spoor-sql"; /* the name ~/.editrc's settings are under */
		using_history();
		stifle_history(HISTORY_MAX);
		if (hist)
			read_history(hist);
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old);
		sqlite3_progress_handler(s->h, 1000, stop_if_interrupted, NULL);
		s->source = "prompt";
		printf("spoor sql: SQLite %s over the traces; .help for help, .quit to leave\n",
		       sqlite3_libversion());
	}
	for (;;) {
		interrupted = 0;
		if (!(line = next_line(tty, text ? "   ...> " : "spoor> "))) {
			if (!interrupted)
				break;
			putchar('\n'); /* Ctrl-C: a new statement, on a new line */
			free(text);
			text = NULL;
			len = 0;
			continue;
		}
		lines++;
		const char *p = line + strspn(line, " \t");
		if (!text && *p == '.') {
			int quit = sql_dot_command(s, p);
			if (tty && !quit) /* so that Up, next time, brings the last command */
				add_history(p);
			free(line);
			if (quit)
				break;
			continue;
		}
		if (!text && !*p) {
			free(line);
			continue;
		}
		if (!text) /* errors count lines from the file's first, the prompt's from 1 */
			s->first_line = tty ? 1 : lines;
		bool ok = append(&text, &len, line);
		free(line);
		if (!ok) {
			rc = cmd_error(s->cmd, "out of memory");
			break;
		}
		if (!sqlite3_complete(text))
			continue;
		if (tty)
			remember(text);
		running = s->db;
		if (tty)
			s->results = 0;
		rc = sql_run(s, text);
		running = NULL;
		fflush(s->out);
		free(text);
		text = NULL;
		len = 0;
		if (rc && !tty)
			break; /* as with -c and --file: the first error ends the statements */
		rc = 0;
	}
	if (text && !rc) /* the last statement lacks its ';' */
		rc = sql_run(s, text);
	free(text);
	if (!tty)
		return rc;
	if (!line)
		putchar('\n'); /* Ctrl-D: the shell's prompt on a line of its own */
	sigaction(SIGINT, &old, NULL);
	sqlite3_progress_handler(s->h, 0, NULL, NULL);
	if (hist) {
		make_parents(hist);
		mode_t mask = umask(077);
		if (write_history(hist) == 0)
			chmod(hist, 0600);
		umask(mask);
	}
	free(hist);
	return 0;
}
