/* SPDX-License-Identifier: MIT */
/*
 * service.c: a long-running instrumented program for the session tests: it runs until
 * SIGTERM or SIGINT, and emits only when told, so a test knows exactly what it emitted.
 *
 *   service [--batch N] [--every-ms MS] STATUSFILE
 *
 * Each SIGUSR1 emits one batch: N rounds (default 100) of svc:request(seq, path) then
 * svc:tick(seq), seq counting rounds from 0 over the program's life. With --every-ms,
 * a round also every MS milliseconds. After start-up and after each batch the program
 * rewrites STATUSFILE (a new file renamed over it) with one line:
 *   pid PID batches B rounds R
 * so a test waits for the line it expects instead of sleeping.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* clang-format off */
SPOOR_EVENT(svc, request, SPOOR_ARGS(uint64_t seq, const char *path),
            SPOOR_FIELDS(spoor_field_int(uint64_t, seq, seq) spoor_field_string(path, path)))
SPOOR_EVENT(svc, tick, SPOOR_ARGS(uint64_t seq), SPOOR_FIELDS(spoor_field_int(uint64_t, seq, seq)))
/* clang-format on */

static uint64_t rounds, batches;

static void round_once(void)
{
	char path[48];

	snprintf(path, sizeof(path), "/svc/%llu", (unsigned long long) rounds);
	spoor_trace(svc, request, rounds, path);
	spoor_trace(svc, tick, rounds);
	rounds++;
}

static int write_status(const char *file)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "pid %d batches %llu rounds %llu\n", (int) getpid(),
	        (unsigned long long) batches, (unsigned long long) rounds);
	if (fclose(f))
		return -1;
	return rename(tmp, file);
}

int main(int argc, char **argv)
{
	long batch = 100, every_ms = 0;
	int a = 1;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--batch"))
			batch = atol(argv[a + 1]);
		else if (!strcmp(argv[a], "--every-ms"))
			every_ms = atol(argv[a + 1]);
		else
			break;
	}
	if (a + 1 != argc || batch < 0 || every_ms < 0) {
		fprintf(stderr, "usage: service [--batch N] [--every-ms MS] STATUSFILE\n");
		return 2;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (write_status(argv[a])) {
		perror(argv[a]);
		return 1;
	}
	struct timespec wait = {every_ms / 1000, (every_ms % 1000) * 1000000};
	for (;;) {
		int sig = every_ms ? sigtimedwait(&set, NULL, &wait) : sigwaitinfo(&set, NULL);
		if (sig < 0) {
			round_once(); /* the period passed (or a stray EINTR: one round more) */
			continue;
		}
		if (sig != SIGUSR1)
			return 0;
		for (long i = 0; i < batch; i++)
			round_once();
		batches++;
		if (write_status(argv[a])) {
			perror(argv[a]);
			return 1;
		}
	}
}
