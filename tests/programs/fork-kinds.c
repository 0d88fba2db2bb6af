/* SPDX-License-Identifier: MIT */
/*
 * fork-kinds.c: the forks that sched_process_fork's parent_pid and child_pid tell apart
 * (lttng-layout.sh): the process P makes a thread T; T makes a thread T2 and forks a
 * process C. Prints "P T T2 C" once all are done.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long t_tid, t2_tid, c_pid;

static void *inner(void *arg)
{
	t2_tid = syscall(SYS_gettid);
	return arg;
}

static void *outer(void *arg)
{
	pthread_t t2;
	t_tid = syscall(SYS_gettid);
	if (pthread_create(&t2, NULL, inner, NULL) || pthread_join(t2, NULL))
		return NULL;
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	if (c > 0 && waitpid(c, NULL, 0) == c)
		c_pid = c;
	return arg;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, outer, NULL) || pthread_join(t, NULL) || !c_pid)
		return 1;
	printf("%d %ld %ld %ld\n", (int) getpid(), t_tid, t2_tid, c_pid);
	return 0;
}
