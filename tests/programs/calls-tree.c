/* SPDX-License-Identifier: MIT */
/*
 * calls-tree.c: a program of known call structure, for spoor graph's tests. Its functions'
 * addresses name the calls of the generated traces (tests/data/gen-calls.py reads them with
 * nm); built with -finstrument-functions or -pg and run, its calls are these:
 *   main { ct_a { ct_leaf1; ct_b { ct_leaf2 } }; ct_leaf1; ct_rec(3) { ct_rec { ct_rec } };
 *          ct_jump_f { ct_jump_g { ct_jump_h, which longjmps back to ct_jump_f } };
 *          ct_work { ct_handler (SIGUSR1, raised inside) { ct_leaf2 } } }
 * and a second thread: ct_thread { ct_leaf1 ×2 }. Each function counts its calls; the
 * program prints the counts (the profile's hits must equal them).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static volatile int sink;
static unsigned n_a, n_b, n_leaf1, n_leaf2, n_rec, n_f, n_g, n_h, n_work, n_handler, n_thread;
static jmp_buf back;

__attribute__((noinline)) static void ct_leaf1(void)
{
	n_leaf1++;
	sink++;
}

__attribute__((noinline)) static void ct_leaf2(void)
{
	n_leaf2++;
	sink += 2;
}

__attribute__((noinline)) static void ct_b(void)
{
	n_b++;
	ct_leaf2();
}

__attribute__((noinline)) void ct_a(void);
__attribute__((noinline)) void ct_a(void)
{
	n_a++;
	ct_leaf1();
	ct_b();
}

__attribute__((noinline)) static void ct_rec(int n)
{
	n_rec++;
	if (n > 1)
		ct_rec(n - 1);
	sink += n;
}

__attribute__((noinline)) static void ct_jump_h(void)
{
	n_h++;
	longjmp(back, 1);
}

__attribute__((noinline)) static void ct_jump_g(void)
{
	n_g++;
	ct_jump_h();
	sink++;
}

__attribute__((noinline)) static void ct_jump_f(void)
{
	n_f++;
	if (!setjmp(back))
		ct_jump_g();
}

__attribute__((noinline)) static void ct_handler(int sig)
{
	n_handler++;
	sink += sig;
	ct_leaf2();
}

__attribute__((noinline)) static void ct_work(void)
{
	n_work++;
	raise(SIGUSR1);
}

__attribute__((noinline)) static void *ct_thread(void *arg)
{
	n_thread++;
	ct_leaf1();
	ct_leaf1();
	return arg;
}

int main(void)
{
	pthread_t th;
	signal(SIGUSR1, ct_handler);
	ct_a();
	ct_leaf1();
	ct_rec(3);
	ct_jump_f();
	ct_work();
	pthread_create(&th, NULL, ct_thread, NULL);
	pthread_join(th, NULL);
	printf("ct_a %u\nct_b %u\nct_leaf1 %u\nct_leaf2 %u\nct_rec %u\nct_jump_f %u\n"
	       "ct_jump_g %u\nct_jump_h %u\nct_work %u\nct_handler %u\nct_thread %u\n",
	       n_a, n_b, n_leaf1, n_leaf2, n_rec, n_f, n_g, n_h, n_work, n_handler, n_thread);
	return 0;
}
