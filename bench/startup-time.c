/* SPDX-License-Identifier: MIT */
/*
 * startup-time.c: a program's start-up time, for bench/sessions.sh.
 *
 *   startup-time N PROG [ARG...]
 *
 * Runs PROG N times, one after the other, its stdout read through a pipe. PROG prints
 * "MAIN T" at its main's first line, T its CLOCK_MONOTONIC in ns (bench/sessions-app.h,
 * mode start). Per run, one line on stdout:
 *
 *   RUN main_ns=M exit_ns=E
 *
 * M: from just before fork to main's first line (exec, the dynamic loader, the tracer's
 * constructors: where a tracer registers with its daemon), E: from just before fork to
 * the wait that reaps it (its destructors too).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[1]) : 0;

	if (n < 1) {
		fprintf(stderr, "usage: startup-time N PROG [ARG...]\n");
		return 2;
	}
	for (long r = 0; r < n; r++) {
		int fd[2], status;
		char buf[128] = "";
		uint64_t t0, t_main = 0, t_exit;
		ssize_t got, len = 0;
		pid_t pid;

		if (pipe(fd))
			return perror("pipe"), 1;
		t0 = now_ns();
		pid = fork();
		if (pid < 0)
			return perror("fork"), 1;
		if (!pid) {
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			execvp(argv[2], argv + 2);
			perror(argv[2]);
			_exit(127);
		}
		close(fd[1]);
		while (len < (ssize_t) sizeof(buf) - 1 &&
		       (got = read(fd[0], buf + len, sizeof(buf) - 1 - (size_t) len)) > 0)
			len += got;
		close(fd[0]);
		if (waitpid(pid, &status, 0) < 0)
			return perror("waitpid"), 1;
		t_exit = now_ns();
		if (!WIFEXITED(status) || WEXITSTATUS(status) ||
		    sscanf(buf, "MAIN %" SCNu64, &t_main) != 1 || t_main < t0) {
			fprintf(stderr,
			        "startup-time: run %ld of %s failed (status %d, output '%s')\n", r,
			        argv[2], status, buf);
			return 1;
		}
		printf("RUN main_ns=%" PRIu64 " exit_ns=%" PRIu64 "\n", t_main - t0, t_exit - t0);
	}
	return 0;
}
