/* SPDX-License-Identifier: MIT */
/* record-args.c: the options of a recording session (see record-args.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record-args.h"
#include "record/outdir.h"
#include "util/lossadvice.h"

int record_parse_size(const char *s, uint64_t *out)
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

int record_parse_duration(const char *s, uint64_t *ns)
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

bool record_push(const char ***v, size_t *n, const char *s)
{
	const char **bigger = realloc(*v, (*n + 1) * sizeof(**v));
	if (!bigger)
		return false;
	*v = bigger;
	bigger[(*n)++] = s;
	return true;
}

void record_args_free(struct record_args *a)
{
	free(a->patterns);
	free(a->kevents);
	free(a->filters);
	free(a->functions);
	free(a->pids);
	for (size_t i = 0; i < a->ncopies; i++)
		free(a->copies[i]);
	for (size_t i = 0; i < a->nchild_env; i++)
		free(a->child_env[i]);
}

bool record_push_kernel(struct record_args *a, const char *list)
{
	if (a->ncopies == sizeof(a->copies) / sizeof(a->copies[0]))
		return false;
	char *copy = a->copies[a->ncopies++] = strdup(list);
	if (!copy)
		return false;
	for (char *save = NULL, *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (!record_push(&a->kevents, &a->nkevents, p))
			return false;
	return true;
}

int record_take_option(const struct command *cmd, struct record_args *a, int row, const char *arg)
{
	switch (row) {
	case OPT_EVENT:
		if (!record_push(&a->patterns, &a->npatterns, arg))
			return cmd_error(cmd, "out of memory");
		return 0;
	case OPT_KERNEL:
		if (!record_push_kernel(a, arg))
			return cmd_usage_error(cmd, "too many -k options");
		return 0;
	case OPT_FILTER:
		if (!record_push(&a->filters, &a->nfilters, arg))
			return cmd_error(cmd, "out of memory");
		return 0;
	case OPT_FUNCTION:
		if (!record_push(&a->functions, &a->nfunctions, arg))
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
		if (record_parse_duration(arg, &a->o.duration_ns))
			return cmd_usage_error(cmd, "invalid duration '%s' (e.g. 5s, 250ms)", arg);
		return 0;
	}
	case OPT_OUTPUT: a->o.outdir = arg; return 0;
	case OPT_FORCE: a->force = true; return 0;
	case OPT_OVERWRITE: a->o.overwrite = true; return 0;
	case OPT_BUFFER_SIZE:
		if (record_parse_size(arg, &a->buffer_total))
			return cmd_usage_error(cmd, "invalid size '%s'", arg);
		return 0;
	case OPT_KERNEL_BUFFER: {
		uint64_t bytes;
		if (record_parse_size(arg, &bytes) || bytes < 4096 || bytes > (4ull << 30))
			return cmd_usage_error(cmd, "invalid kernel buffer size '%s' (4k to 4g)",
			                       arg);
		a->k.buffer_kb = (unsigned long) (bytes >> 10);
		return 0;
	}
	case OPT_LAYOUT:
		if (klayout_parse(arg, &a->k.layout))
			return cmd_usage_error(cmd, "unknown layout '%s' (spoor or lttng)", arg);
		a->layout = true;
		return 0;
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

int record_check_geometry(const struct command *cmd, struct record_args *a)
{
	a->o.subbuf_size = a->buffer_total / a->o.num_subbufs;
	if (!power_of_two(a->o.subbuf_size) || a->o.subbuf_size < 4096 ||
	    a->o.subbuf_size > (64u << 20))
		return cmd_usage_error(cmd,
		                       "buffer size / sub-buffers must be a power of two from "
		                       "4k to 64m (got %llu)",
		                       (unsigned long long) a->o.subbuf_size);
	return 0;
}

int record_check_args(const struct command *cmd, struct record_args *a, int first, int argc)
{
	a->o.patterns = a->patterns;
	a->o.npatterns = a->npatterns;
	int rc = record_check_geometry(cmd, a);
	if (rc)
		return rc;
	bool kernel = a->nkevents || a->nfunctions;
	if ((a->nfilters || a->npids || a->k.buffer_kb || a->layout) && !kernel)
		return cmd_usage_error(
		    cmd, "--filter, --pid, --kernel-buffer and --layout need -k or -F");
	if (a->all && !kernel)
		return cmd_usage_error(cmd, "-a records the kernel: give -k EVENTS (or -F)");
	if (first >= argc && !a->all)
		return cmd_usage_error(cmd, "no command given (spoor %s %s)", cmd->name,
		                       cmd->usage);
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

void record_report(const char *prefix, const struct record_opts *o, const struct record_totals *t)
{
	fprintf(stderr,
	        "%s: %u process(es), %u thread buffer(s), %llu packets, %llu bytes, "
	        "%llu events discarded",
	        prefix, t->processes, t->buffers, (unsigned long long) t->packets,
	        (unsigned long long) t->bytes, (unsigned long long) t->discarded);
	if (o->overwrite)
		fprintf(stderr, ", %llu overwritten", (unsigned long long) t->overwritten);
	fprintf(stderr, "%s\n", t->damaged ? " (damaged packets skipped: see above)" : "");
	if (t->worst_lost && t->counted_events) {
		struct loss_seen l = {
		    .ring = o->subbuf_size * o->num_subbufs,
		    .option = "-b",
		    .per = "thread",
		    .lost = t->worst_lost,
		    .bytes_per_event = (double) t->counted_bytes / (double) t->counted_events,
		};
		char advice[200];
		loss_advice_text(advice, sizeof(advice), &l);
		if (advice[0])
			fprintf(stderr, "%s: %s\n", prefix, advice);
	}
	if (t->kernel) {
		const struct kernel_totals *k = &t->k;
		fprintf(stderr,
		        "%s: kernel: %llu events on %u CPU(s), %llu lost (kernel counters: "
		        "%llu overrun, %llu dropped), %llu bytes, %llu threads in the state dump\n",
		        prefix, (unsigned long long) k->events, k->cpus,
		        (unsigned long long) k->lost, (unsigned long long) k->overrun,
		        (unsigned long long) k->dropped, (unsigned long long) k->bytes,
		        (unsigned long long) k->statedump);
		if (k->lost) {
			uint64_t worst = 0;
			fprintf(stderr, "%s: kernel: lost by CPU:", prefix);
			for (unsigned c = 0; c < k->cpus && c < KERNEL_TOTALS_CPUS; c++) {
				fprintf(stderr, " cpu%u %llu", c,
				        (unsigned long long) k->lost_by_cpu[c]);
				if (k->lost_by_cpu[c] > worst)
					worst = k->lost_by_cpu[c];
			}
			struct loss_seen l = {
			    .ring = o->kernel ? (uint64_t) o->kernel->buffer_kb << 10 : 0,
			    .option = "--kernel-buffer",
			    .per = "CPU",
			    .lost = worst ? worst : k->lost,
			    .bytes_per_event =
			        k->events ? (double) k->bytes / (double) k->events : 0,
			};
			char advice[200];
			loss_advice_text(advice, sizeof(advice), &l);
			fprintf(stderr, "\n%s: kernel: %s\n", prefix,
			        advice[0] ? advice : "a bigger --kernel-buffer leaves more room");
		}
		if (k->malformed || k->unknown)
			fprintf(stderr,
			        "%s: warning: kernel: %llu records skipped (%llu malformed, "
			        "%llu of events not asked for)\n",
			        prefix, (unsigned long long) (k->malformed + k->unknown),
			        (unsigned long long) k->malformed, (unsigned long long) k->unknown);
		if (k->write_error)
			fprintf(stderr,
			        "%s: error: kernel trace: %s: %llu events after it were not "
			        "written\n",
			        prefix, strerror(-k->write_error),
			        (unsigned long long) k->unwritten);
	}
	record_report_write_error(prefix, t);
	fprintf(stderr, "%s: trace in %s\n", prefix, o->outdir);
}

void record_report_write_error(const char *prefix, const struct record_totals *t)
{
	if (t->write_error)
		fprintf(stderr,
		        "%s: error: user-space trace: %s: %llu packets were not written (each "
		        "stream ends at its last whole packet)\n",
		        prefix, strerror(-t->write_error), (unsigned long long) t->unwritten);
}

bool record_failed(const struct record_totals *t)
{
	return t->write_error || (t->kernel && t->k.write_error);
}

int record_claim_outdir(const struct command *cmd, struct record_args *a, char *buf, size_t cap)
{
	char err[4400];
	if (a->o.outdir) {
		int rc = outdir_claim(a->o.outdir, a->force, &a->out, err, sizeof(err));
		if (rc == -EEXIST && !a->force)
			return cmd_error(cmd, "%s, or --force to replace the trace in it", err);
		if (rc)
			return cmd_error(cmd, "%s", err);
		return 0;
	}
	char prefix[64];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(prefix, sizeof(prefix), "spoor-trace-%Y%m%d-%H%M%S", &tm);
	int rc = outdir_make_unique(prefix, buf, cap);
	if (rc)
		return cmd_error(cmd, "cannot make %s: %s", prefix, strerror(-rc));
	a->o.outdir = buf;
	a->out = (struct outdir){.made = true};
	return 0;
}

/* In the child: run the command; if that fails, tell the parent why through `report`
 * (closed on a successful exec) and end as a shell would. */
static void exec_command(struct record_session *s, const struct record_args *a, char **argv,
                         int report)
{
	for (size_t i = 0; i < a->nchild_env; i++)
		putenv(a->child_env[i]);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	setenv("SPOOR_SESSION", record_session_socket(s), 1);
	execvp(argv[0], argv);
	int err = errno;
	if (write(report, &err, sizeof(err)) != sizeof(err))
		fprintf(stderr, "spoor: cannot run %s: %s\n", argv[0], strerror(err));
	_exit(err == ENOENT ? 127 : 126);
}

int record_run_command(struct record_session *s, struct record_args *a, char **argv, int first,
                       int argc, volatile sig_atomic_t *stop, struct record_child *c)
{
	pid_t child = 0;
	*c = (struct record_child){0};
	if (first < argc) {
		int report[2];
		if (pipe2(report, O_CLOEXEC))
			return -errno;
		child = fork();
		if (child == 0)
			exec_command(s, a, argv + first, report[1]);
		int rc = child < 0 ? -errno : 0;
		close(report[1]);
		while (!rc && read(report[0], &c->exec_errno, sizeof(c->exec_errno)) < 0 &&
		       errno == EINTR)
			;
		close(report[0]);
		if (rc)
			return rc;
		if (c->exec_errno) { /* nothing to record */
			while (waitpid(child, &c->status, 0) < 0 && errno == EINTR)
				;
			return 0;
		}
	}
	c->started = true;
	outdir_started(a->o.outdir, &a->out);
	int rc = record_session_run(s, child, stop);
	c->signal = *stop > 0 ? (int) *stop : 0;
	if (child > 0) {
		if (a->o.duration_ns || *stop) {
			kill(child, SIGTERM);
			c->stopped = true;
		}
		while (waitpid(child, &c->status, 0) < 0 && errno == EINTR)
			;
	}
	return rc;
}

int record_cannot_run(const struct command *cmd, const char *name, int err)
{
	/* as bash says it */
	struct stat st;
	if (err == EACCES && strchr(name, '/') && !stat(name, &st) && S_ISDIR(st.st_mode))
		err = EISDIR;
	if (err == ENOENT && !strchr(name, '/'))
		fprintf(stderr, "spoor %s: %s: command not found\n", cmd->name, name);
	else
		fprintf(stderr, "spoor %s: %s: %s\n", cmd->name, name, strerror(err));
	return err == ENOENT ? 127 : 126;
}

int record_command_exit(const struct command *cmd, char **argv, int first, int argc,
                        const struct record_child *c, bool summary)
{
	if (first >= argc)
		return 0;
	if (WIFSIGNALED(c->status)) {
		int sig = WTERMSIG(c->status);
		bool sent = c->stopped && sig == SIGTERM;
		bool shared = !sent && c->signal && sig == c->signal; /* Ctrl-C: both got it */
		if (summary || !(sent || shared))
			fprintf(stderr, "spoor %s: %s was killed by signal %d%s\n", cmd->name,
			        argv[first], sig,
			        sent     ? " (stopped by spoor)"
			        : shared ? " (as spoor was: the recording stopped)"
			                 : "");
		return sent || shared ? 0 : 128 + sig;
	}
	if (WEXITSTATUS(c->status))
		fprintf(stderr, "spoor %s: %s exited with status %d\n", cmd->name, argv[first],
		        WEXITSTATUS(c->status));
	return WEXITSTATUS(c->status);
}
