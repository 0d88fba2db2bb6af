/* SPDX-License-Identifier: MIT */
/* cmd-record.c: `spoor record [options] -- CMD [ARGS]`: run CMD with user-space tracing on. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "record/record.h"

enum { OPT_EVENT, OPT_OUTPUT, OPT_OVERWRITE, OPT_BUFFER_SIZE, OPT_SUBBUFFERS, OPT_HELP };

static const struct cmd_option record_options[] = {
    [OPT_EVENT] = {"event", 'e', "PATTERN",
                   "record events whose provider:name matches PATTERN (repeatable; default: all)"},
    [OPT_OUTPUT] = {"output", 'o', "DIR",
                    "write the trace to DIR (default: ./spoor-trace-DATE-TIME)"},
    [OPT_OVERWRITE] = {"overwrite", 0, NULL,
                       "flight recorder: keep the latest data, overwriting the oldest"},
    [OPT_BUFFER_SIZE] = {"buffer-size", 'b', "SIZE",
                         "ring buffer per thread, e.g. 256k, 4m (default 256k)"},
    [OPT_SUBBUFFERS] = {"subbuffers", 0, "N",
                        "sub-buffers per ring buffer, a power of two (default 4)"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void) sig;
	stop_requested = 1;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int run_record(const struct command *cmd, int argc, char **argv)
{
	struct record_opts o = {.num_subbufs = 4};
	const char **patterns = NULL;
	uint64_t total = 256 << 10;
	char defdir[64];
	const char *arg;
	int first, row;

	optind = 1;
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		switch (row) {
		case OPT_EVENT:
			patterns = realloc(patterns, (o.npatterns + 1) * sizeof(*patterns));
			if (!patterns)
				return cmd_error(cmd, "out of memory");
			patterns[o.npatterns++] = arg;
			break;
		case OPT_OUTPUT: o.outdir = arg; break;
		case OPT_OVERWRITE: o.overwrite = true; break;
		case OPT_BUFFER_SIZE:
			if (parse_size(arg, &total))
				return cmd_usage_error(cmd, "invalid size '%s'", arg);
			break;
		case OPT_SUBBUFFERS: {
			char *end;
			unsigned long n = strtoul(arg, &end, 10);
			if (*end || !power_of_two(n) || n < 2 || n > 1024)
				return cmd_usage_error(cmd,
				                       "sub-buffers must be a power of two from 2 "
				                       "to 1024");
			o.num_subbufs = (uint32_t) n;
			break;
		}
		case OPT_HELP: cmd_help(cmd, stdout); return 0;
		default: return 2;
		}
	}
	o.patterns = patterns;
	o.subbuf_size = total / o.num_subbufs;
	if (!power_of_two(o.subbuf_size) || o.subbuf_size < 4096 || o.subbuf_size > (64u << 20)) {
		free(patterns);
		return cmd_usage_error(cmd,
		                       "buffer size / sub-buffers must be a power of two from "
		                       "4k to 64m (got %llu)",
		                       (unsigned long long) o.subbuf_size);
	}
	if (first >= argc) {
		free(patterns);
		return cmd_usage_error(cmd, "no command given (spoor record [options] -- CMD)");
	}
	if (!o.outdir) {
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(defdir, sizeof(defdir), "spoor-trace-%Y%m%d-%H%M%S", &tm);
		o.outdir = defdir;
	}
	char err[300];
	struct record_session *s;
	int rc = record_session_new(&o, &s, err, sizeof(err));
	if (rc) {
		free(patterns);
		return cmd_error(cmd, "%s", err);
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pid_t child = fork();
	if (child == 0) {
		setenv("SPOOR_SESSION", record_session_socket(s), 1);
		execvp(argv[first], argv + first);
		fprintf(stderr, "spoor record: cannot run %s: %s\n", argv[first], strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		record_session_free(s);
		free(patterns);
		return cmd_error(cmd, "fork: %s", strerror(errno));
	}
	rc = record_session_run(s, child, &stop_requested);
	if (stop_requested)
		kill(child, SIGTERM);
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	struct record_totals t;
	record_session_totals(s, &t);
	record_session_free(s);
	free(patterns);
	if (rc)
		return cmd_error(cmd, "%s", strerror(-rc));
	fprintf(stderr,
	        "spoor record: %u process(es), %u thread buffer(s), %llu packets, %llu bytes, "
	        "%llu events discarded%s; trace in %s\n",
	        t.processes, t.buffers, (unsigned long long) t.packets,
	        (unsigned long long) t.bytes, (unsigned long long) t.discarded,
	        t.damaged ? " (damaged packets skipped: see above)" : "", o.outdir);
	if (WIFSIGNALED(status))
		fprintf(stderr, "spoor record: %s was killed by signal %d\n", argv[first],
		        WTERMSIG(status));
	else if (WEXITSTATUS(status))
		fprintf(stderr, "spoor record: %s exited with status %d\n", argv[first],
		        WEXITSTATUS(status));
	return 0;
}

const struct command cmd_record = {
    .name = "record",
    .summary = "run a command with user-space tracing on and write its events as a CTF trace",
    .usage = "[options] -- CMD [ARGS...]",
    .options = record_options,
    .run = run_record,
};
