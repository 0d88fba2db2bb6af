/* SPDX-License-Identifier: MIT */
/* cmd-record.c: `spoor record [options] -- CMD [ARGS]`: run CMD with user-space tracing on. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "record/record.h"

enum {
	OPT_EVENT,
	OPT_KERNEL,
	OPT_FILTER,
	OPT_FUNCTION,
	OPT_PID,
	OPT_ALL,
	OPT_DURATION,
	OPT_OUTPUT,
	OPT_OVERWRITE,
	OPT_BUFFER_SIZE,
	OPT_SUBBUFFERS,
	OPT_KERNEL_BUFFER,
	OPT_HELP
};

static const struct cmd_option record_options[] = {
    [OPT_EVENT] = {"event", 'e', "PATTERN",
                   "record events whose provider:name matches PATTERN (repeatable; default: all)"},
    [OPT_KERNEL] = {"kernel", 'k', "EVENTS",
                    "record kernel tracepoints: comma-separated SYSTEM, SYSTEM:EVENT or EVENT, "
                    "wildcards allowed (e.g. sched,irq:*,syscalls:sys_enter_openat)"},
    [OPT_FILTER] = {"filter", 0, "EVENT:EXPR",
                    "kernel filter for EVENT in the kernel's syntax, e.g. "
                    "'sched_switch:prev_pid != 0' (repeatable)"},
    [OPT_FUNCTION] = {"function", 'F', "PATTERN",
                      "run the kernel's function tracer on functions matching PATTERN "
                      "(begin*, *middle*, *end, :mod:NAME; '*' for all; repeatable)"},
    [OPT_PID] = {"pid", 'p', "PID", "kernel events and functions of this pid only (repeatable)"},
    [OPT_ALL] = {"all", 'a', NULL,
                 "no command: record the whole system (with -k) until "
                 "Ctrl-C, SIGTERM or --duration"},
    [OPT_DURATION] = {"duration", 'd', "TIME", "stop after TIME (e.g. 5s, 250ms)"},
    [OPT_OUTPUT] = {"output", 'o', "DIR",
                    "write the trace to DIR (default: ./spoor-trace-DATE-TIME)"},
    [OPT_OVERWRITE] = {"overwrite", 0, NULL,
                       "flight recorder: keep the latest data, overwriting the oldest"},
    [OPT_BUFFER_SIZE] = {"buffer-size", 'b', "SIZE",
                         "ring buffer per thread, e.g. 256k, 4m (default 256k)"},
    [OPT_SUBBUFFERS] = {"subbuffers", 0, "N",
                        "sub-buffers per ring buffer, a power of two (default 4)"},
    [OPT_KERNEL_BUFFER] = {"kernel-buffer", 0, "SIZE",
                           "kernel ring buffer per CPU, e.g. 4m (default: the kernel's)"},
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

/* 5s, 250ms, 1.5m, 100us, 2h; a bare number is seconds. */
static int parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !(v > 0))
		return -1;
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"", 1e9}, {"s", 1e9},  {"ms", 1e6},  {"us", 1e3},
	             {"ns", 1}, {"m", 60e9}, {"h", 3600e9}};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			double t = v * units[i].ns;
			if (t < 1 || t > 1e18)
				return -1;
			*ns = (uint64_t) t;
			return 0;
		}
	return -1;
}

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Append to a growing array; false when out of memory. */
static bool push(const char ***v, size_t *n, const char *s)
{
	const char **bigger = realloc(*v, (*n + 1) * sizeof(**v));
	if (!bigger)
		return false;
	*v = bigger;
	bigger[(*n)++] = s;
	return true;
}

struct record_args {
	struct record_opts o;
	struct kernel_opts k;
	const char **patterns, **kevents, **filters, **functions;
	size_t npatterns, nkevents, nfilters, nfunctions, npids;
	pid_t *pids;
	char *copies[64]; /* -k lists cut at commas */
	size_t ncopies;
	bool all;
	uint64_t buffer_total;
};

static void record_args_free(struct record_args *a)
{
	free(a->patterns);
	free(a->kevents);
	free(a->filters);
	free(a->functions);
	free(a->pids);
	for (size_t i = 0; i < a->ncopies; i++)
		free(a->copies[i]);
}

/* -k sched,irq: each comma-separated part is a pattern. */
static bool push_kernel_list(struct record_args *a, const char *list)
{
	if (a->ncopies == sizeof(a->copies) / sizeof(a->copies[0]))
		return false;
	char *copy = a->copies[a->ncopies++] = strdup(list);
	if (!copy)
		return false;
	for (char *save = NULL, *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (!push(&a->kevents, &a->nkevents, p))
			return false;
	return true;
}

/* One option; 0 to go on, else the exit code. */
static int take_option(const struct command *cmd, struct record_args *a, int row, const char *arg)
{
	switch (row) {
	case OPT_EVENT:
		if (!push(&a->patterns, &a->npatterns, arg))
			return cmd_error(cmd, "out of memory");
		return 0;
	case OPT_KERNEL:
		if (!push_kernel_list(a, arg))
			return cmd_usage_error(cmd, "too many -k options");
		return 0;
	case OPT_FILTER:
		if (!push(&a->filters, &a->nfilters, arg))
			return cmd_error(cmd, "out of memory");
		return 0;
	case OPT_FUNCTION:
		if (!push(&a->functions, &a->nfunctions, arg))
			return cmd_error(cmd, "out of memory");
		return 0;
	case OPT_PID: {
		char *end;
		long pid = strtol(arg, &end, 10);
		if (*end || pid <= 0 || pid > 0x3fffffff)
			return cmd_usage_error(cmd, "invalid pid '%s'", arg);
		pid_t *bigger = realloc(a->pids, (a->npids + 1) * sizeof(*bigger));
		if (!bigger)
			return cmd_error(cmd, "out of memory");
		a->pids = bigger;
		a->pids[a->npids++] = (pid_t) pid;
		return 0;
	}
	case OPT_ALL: a->all = true; return 0;
	case OPT_DURATION: {
		if (parse_duration(arg, &a->o.duration_ns))
			return cmd_usage_error(cmd, "invalid duration '%s' (e.g. 5s, 250ms)", arg);
		return 0;
	}
	case OPT_OUTPUT: a->o.outdir = arg; return 0;
	case OPT_OVERWRITE: a->o.overwrite = true; return 0;
	case OPT_BUFFER_SIZE:
		if (parse_size(arg, &a->buffer_total))
			return cmd_usage_error(cmd, "invalid size '%s'", arg);
		return 0;
	case OPT_KERNEL_BUFFER: {
		uint64_t bytes;
		if (parse_size(arg, &bytes) || bytes < 4096 || bytes > (4ull << 30))
			return cmd_usage_error(cmd, "invalid kernel buffer size '%s' (4k to 4g)",
			                       arg);
		a->k.buffer_kb = (unsigned long) (bytes >> 10);
		return 0;
	}
	case OPT_SUBBUFFERS: {
		char *end;
		unsigned long n = strtoul(arg, &end, 10);
		if (*end || !power_of_two(n) || n < 2 || n > 1024)
			return cmd_usage_error(cmd,
			                       "sub-buffers must be a power of two from 2 to 1024");
		a->o.num_subbufs = (uint32_t) n;
		return 0;
	}
	default: return 2;
	}
}

static int check_args(const struct command *cmd, struct record_args *a, int first, int argc)
{
	a->o.patterns = a->patterns;
	a->o.npatterns = a->npatterns;
	a->o.subbuf_size = a->buffer_total / a->o.num_subbufs;
	if (!power_of_two(a->o.subbuf_size) || a->o.subbuf_size < 4096 ||
	    a->o.subbuf_size > (64u << 20))
		return cmd_usage_error(cmd,
		                       "buffer size / sub-buffers must be a power of two from "
		                       "4k to 64m (got %llu)",
		                       (unsigned long long) a->o.subbuf_size);
	bool kernel = a->nkevents || a->nfunctions;
	if ((a->nfilters || a->npids || a->k.buffer_kb) && !kernel)
		return cmd_usage_error(cmd, "--filter, --pid and --kernel-buffer need -k or -F");
	if (a->all && !kernel)
		return cmd_usage_error(cmd, "-a records the kernel: give -k EVENTS (or -F)");
	if (first >= argc && !a->all)
		return cmd_usage_error(cmd, "no command given (spoor record [options] -- CMD, or "
		                            "-a -k EVENTS for the whole system)");
	if (kernel) {
		a->k.events = a->kevents;
		a->k.nevents = a->nkevents;
		a->k.filters = a->filters;
		a->k.nfilters = a->nfilters;
		a->k.function_tracer = a->nfunctions > 0;
		a->k.functions = a->functions;
		a->k.nfunctions = a->nfunctions;
		/* '*' means every function: no filter at all */
		if (a->nfunctions == 1 && !strcmp(a->functions[0], "*"))
			a->k.nfunctions = 0;
		a->k.pids = a->pids;
		a->k.npids = a->npids;
		a->o.kernel = &a->k;
	}
	return 0;
}

static void report(const struct record_opts *o, const struct record_totals *t)
{
	fprintf(stderr,
	        "spoor record: %u process(es), %u thread buffer(s), %llu packets, %llu bytes, "
	        "%llu events discarded%s\n",
	        t->processes, t->buffers, (unsigned long long) t->packets,
	        (unsigned long long) t->bytes, (unsigned long long) t->discarded,
	        t->damaged ? " (damaged packets skipped: see above)" : "");
	if (t->kernel) {
		const struct kernel_totals *k = &t->k;
		fprintf(
		    stderr,
		    "spoor record: kernel: %llu events on %u CPU(s), %llu lost (kernel counters: "
		    "%llu overrun, %llu dropped), %llu bytes, %llu threads in the state dump\n",
		    (unsigned long long) k->events, k->cpus, (unsigned long long) k->lost,
		    (unsigned long long) k->overrun, (unsigned long long) k->dropped,
		    (unsigned long long) k->bytes, (unsigned long long) k->statedump);
		if (k->lost) {
			fprintf(stderr, "spoor record: kernel: lost by CPU:");
			for (unsigned c = 0; c < k->cpus && c < KERNEL_TOTALS_CPUS; c++)
				fprintf(stderr, " cpu%u %llu", c,
				        (unsigned long long) k->lost_by_cpu[c]);
			fprintf(stderr, " (a bigger --kernel-buffer leaves more room)\n");
		}
		if (k->malformed || k->unknown)
			fprintf(
			    stderr,
			    "spoor record: warning: kernel: %llu records skipped (%llu malformed, "
			    "%llu of events not asked for)\n",
			    (unsigned long long) (k->malformed + k->unknown),
			    (unsigned long long) k->malformed, (unsigned long long) k->unknown);
		if (k->write_error)
			fprintf(
			    stderr,
			    "spoor record: error: kernel trace: %s: %llu events after it were not "
			    "written\n",
			    strerror(-k->write_error), (unsigned long long) k->unwritten);
	}
	fprintf(stderr, "spoor record: trace in %s\n", o->outdir);
}

static int run_record(const struct command *cmd, int argc, char **argv)
{
	struct record_args a = {.o = {.num_subbufs = 4}, .buffer_total = 256 << 10};
	char defdir[64];
	const char *arg;
	int first, row, rc;

	optind = 1;
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		if (row == OPT_HELP) {
			record_args_free(&a);
			cmd_help(cmd, stdout);
			return 0;
		}
		if ((rc = row < 0 ? 2 : take_option(cmd, &a, row, arg))) {
			record_args_free(&a);
			return rc;
		}
	}
	if ((rc = check_args(cmd, &a, first, argc))) {
		record_args_free(&a);
		return rc;
	}
	if (!a.o.outdir) {
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(defdir, sizeof(defdir), "spoor-trace-%Y%m%d-%H%M%S", &tm);
		a.o.outdir = defdir;
	}
	/* from here on a signal finishes the trace rather than killing spoor half-way */
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	char err[600];
	struct record_session *s;
	rc = record_session_new(&a.o, &s, err, sizeof(err));
	if (rc) {
		record_args_free(&a);
		return cmd_error(cmd, "%s", err);
	}
	pid_t child = 0;
	if (first < argc) {
		child = fork();
		if (child == 0) {
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			setenv("SPOOR_SESSION", record_session_socket(s), 1);
			execvp(argv[first], argv + first);
			fprintf(stderr, "spoor record: cannot run %s: %s\n", argv[first],
			        strerror(errno));
			_exit(127);
		}
		if (child < 0) {
			rc = errno;
			record_session_free(s);
			record_args_free(&a);
			return cmd_error(cmd, "fork: %s", strerror(rc));
		}
	}
	rc = record_session_run(s, child, &stop_requested);
	int status = 0;
	if (child > 0) {
		if (stop_requested || a.o.duration_ns)
			kill(child, SIGTERM);
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
	}
	struct record_totals t;
	record_session_totals(s, &t);
	record_session_free(s);
	if (rc) {
		record_args_free(&a);
		return cmd_error(cmd, "%s", strerror(-rc));
	}
	report(&a.o, &t);
	if (child > 0 && WIFSIGNALED(status))
		fprintf(stderr, "spoor record: %s was killed by signal %d\n", argv[first],
		        WTERMSIG(status));
	else if (child > 0 && WEXITSTATUS(status))
		fprintf(stderr, "spoor record: %s exited with status %d\n", argv[first],
		        WEXITSTATUS(status));
	record_args_free(&a);
	return t.kernel && t.k.write_error ? 1 : 0;
}

const struct command cmd_record = {
    .name = "record",
    .summary = "run a command with user-space (and kernel) tracing on; write a CTF trace",
    .usage = "[options] -- CMD [ARGS...]  |  -a -k EVENTS [options]",
    .options = record_options,
    .run = run_record,
};
