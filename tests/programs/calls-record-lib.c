/* SPDX-License-Identifier: MIT */
/* calls-record-lib.c: a library that calls-record.c opens with dlopen: lib_entry > lib_inner x n.
 */
#define NOINLINE __attribute__((noinline))

static volatile int sink;

NOINLINE static void lib_inner(int i)
{
	sink += i;
}

NOINLINE __attribute__((visibility("default"))) int lib_entry(int n);
int lib_entry(int n)
{
	for (int i = 0; i < n; i++)
		lib_inner(i);
	return sink;
}
