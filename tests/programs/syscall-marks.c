/* SPDX-License-Identifier: MIT */
/*
 * syscall-marks.c: user-space events around system calls, to check that kernel and user
 * events land on one timeline: for every i, marks:before(i), then the kernel's
 * sys_enter_getppid and sys_exit_getppid of this thread, then marks:after(i).
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* clang-format off */
SPOOR_EVENT(marks, begin, SPOOR_ARGS(void), SPOOR_FIELDS())
SPOOR_EVENT(marks, before, SPOOR_ARGS(uint32_t i), SPOOR_FIELDS(spoor_field_int(uint32_t, i, i)))
SPOOR_EVENT(marks, after, SPOOR_ARGS(uint32_t i), SPOOR_FIELDS(spoor_field_int(uint32_t, i, i)))
/* clang-format on */

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned) atoi(argv[1]) : 100;
	spoor_trace(marks, begin); /* an event without fields */
	for (uint32_t i = 0; i < n; i++) {
		spoor_trace(marks, before, i);
		syscall(SYS_getppid);
		spoor_trace(marks, after, i);
	}
	return 0;
}
