/* SPDX-License-Identifier: MIT */
/*
 * test-ktgid.c: the threads' processes of the LTTng layout's forks (lib/kernel/ktgid.h):
 * facts in any order (a thread made by a thread made by a process, told child first),
 * a tid met again, namespaces noted, a loop of links in bad input, and the fallbacks: a
 * /proc of the test's own (its status file's NStgid), else the tid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kernel/ktgid.h"

int main(void)
{
	struct ktgid m;
	ktgid_init(&m, NULL);
	CHECK_EQ_S64(ktgid_get(&m, 42), 42); /* empty: the tid */

	/* 300 is a thread made by 200, itself a thread made by process 100: told backwards */
	ktgid_new_task(&m, 300, 200, KTGID_CLONE_THREAD | 0x3d0f00);
	CHECK_EQ_S64(ktgid_get(&m, 300), 200); /* 200 not known yet: itself */
	ktgid_new_task(&m, 200, 100, KTGID_CLONE_THREAD);
	ktgid_new_task(&m, 100, 1, 0x1200011); /* a process of its own */
	CHECK_EQ_S64(ktgid_get(&m, 300), 100);
	CHECK_EQ_S64(ktgid_get(&m, 200), 100);
	CHECK_EQ_S64(ktgid_get(&m, 100), 100);

	/* the dump's facts; a tid met again takes its new task's */
	ktgid_set(&m, 501, 500);
	CHECK_EQ_S64(ktgid_get(&m, 501), 500);
	ktgid_new_task(&m, 501, 7, 0x11);
	CHECK_EQ_S64(ktgid_get(&m, 501), 501);

	/* namespaces: noted, kept by the tgid, forgotten by a new task of the same tid */
	CHECK_EQ_U64(ktgid_ns(&m, 300), 0);
	ktgid_set_ns(&m, 300, 4026531836u);
	CHECK_EQ_U64(ktgid_ns(&m, 300), 4026531836u);
	CHECK_EQ_S64(ktgid_get(&m, 300), 100);
	ktgid_set_ns(&m, 900, 4026532000u); /* a namespace alone: the tgid still falls back */
	CHECK_EQ_S64(ktgid_get(&m, 900), 900);
	ktgid_new_task(&m, 300, 100, KTGID_CLONE_THREAD);
	CHECK_EQ_U64(ktgid_ns(&m, 300), 0);

	/* bad input: a loop of threads making each other, ids <= 0 */
	ktgid_new_task(&m, 600, 601, KTGID_CLONE_THREAD);
	ktgid_new_task(&m, 601, 600, KTGID_CLONE_THREAD);
	int32_t g = ktgid_get(&m, 600);
	CHECK(g == 600 || g == 601);
	ktgid_new_task(&m, -5, 1, 0);
	ktgid_set(&m, 0, 3);
	CHECK_EQ_S64(ktgid_get(&m, -5), -5);
	CHECK_EQ_S64(ktgid_get(&m, 0), 0);

	/* many: the table grows and keeps them */
	for (int32_t t = 10000; t < 30000; t++)
		ktgid_set(&m, t, t - t % 10);
	bool all = true;
	for (int32_t t = 10000; t < 30000; t++)
		all = all && ktgid_get(&m, t) == t - t % 10;
	CHECK(all);
	CHECK_EQ_S64(ktgid_get(&m, 300), 100);
	ktgid_free(&m);

	/* /proc's answer for a tid the map does not know */
	char root[64], dir[128];
	snprintf(root, sizeof(root), "/tmp/test-ktgid-XXXXXX");
	if (!CHECK(mkdtemp(root) != NULL))
		return check_done();
	snprintf(dir, sizeof(dir), "%s/77", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/77/status", root);
	FILE *f = fopen(dir, "w");
	if (f) {
		fputs("Name:\tworker\nTgid:\t70\nPid:\t77\nNStgid:\t70\nNSpid:\t77\n", f);
		fclose(f);
	}
	ktgid_init(&m, root);
	CHECK_EQ_S64(ktgid_get(&m, 77), 70);
	CHECK_EQ_S64(ktgid_get(&m, 78), 78);            /* not there either: the tid */
	ktgid_new_task(&m, 79, 77, KTGID_CLONE_THREAD); /* a thread of 77: /proc says 70 */
	CHECK_EQ_S64(ktgid_get(&m, 79), 70);
	ktgid_free(&m);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/77", root);
	rmdir(dir);
	rmdir(root);
	return check_done();
}
