/* SPDX-License-Identifier: MIT */
/*
 * sql-prompt.c: `spoor sql TRACE` on a terminal: a prompt (libedit: BSD-licensed, where
 * readline is GPL-3) that runs each statement once its ';' ends it, with the prompt's own
 * commands (sql-dot.c) and a history kept in $XDG_STATE_HOME/spoor/sql_history (else
 * ~/.local/state/spoor/sql_history), readable by its owner only. Ctrl-C stops a running
 * query, not the prompt.
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

static sqlite3 *running; /* what Ctrl-C interrupts */

static void on_sigint(int sig)
{
	(void) sig;
	if (running)
		sqlite3_interrupt(running);
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

int sql_prompt(struct sql_session *s)
{
	struct sigaction sa = {.sa_handler = on_sigint, .sa_flags = SA_RESTART}, old;
	char *hist = history_path(), *text = NULL, *line;
	size_t len = 0;

	rl_readline_name = "spoor-sql"; /* the name ~/.editrc's settings are under */
	using_history();
	stifle_history(HISTORY_MAX);
	if (hist)
		read_history(hist);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	s->source = "prompt";
	printf("spoor sql: SQLite %s over the traces; .help for help, .quit to leave\n",
	       sqlite3_libversion());
	while ((line = readline(text ? "   ...> " : "spoor> "))) {
		const char *p = line + strspn(line, " \t");
		if (!text && *p == '.') {
			int quit = sql_dot_command(s, p);
			if (!quit) /* so that Up, next time, brings the last command */
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
		bool ok = append(&text, &len, line);
		free(line);
		if (!ok) {
			fprintf(stderr, "spoor %s: out of memory\n", s->cmd->name);
			break;
		}
		if (!sqlite3_complete(text))
			continue;
		remember(text);
		running = s->h;
		s->results = 0;
		sql_run(s, text);
		running = NULL;
		fflush(s->out);
		free(text);
		text = NULL;
		len = 0;
	}
	if (!line)
		putchar('\n'); /* Ctrl-D: the shell's prompt on a line of its own */
	free(text);
	sigaction(SIGINT, &old, NULL);
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
