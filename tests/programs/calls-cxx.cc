/* SPDX-License-Identifier: MIT */
/* calls-cxx.cc: C++ exceptions through traced functions, for `spoor record --calls`
 * (tests/cli/record-calls-cxx.sh), built with each kind of hook. With no argument, in each
 * of two threads (main, then cx_worker) and in this order:
 *   cx_catcher    a throw three calls down, through cx_guarded's destructor (a cleanup,
 *                 which calls cx_release), caught by type
 *   cx_rethrown   cx_rethrower catches (...) and rethrows (throw;); caught again above
 *   cx_any        a throw of an int through a try that does not match, caught by (...)
 *   cx_saved      std::exception_ptr kept, then std::rethrow_exception
 *   cx_middle(0)  no throw: calls go on as before
 * Each catch prints a line. "uncaught": cx_middle throws and nothing catches
 * (std::terminate). "pthread_exit": a thread, cx_exiter > cx_exit_guarded > cx_exit_deep,
 * ends in pthread_exit, whose unwinding runs cx_exit_guarded's destructor (it prints a line
 * and calls cx_release). "cxa": as with no argument, without cx_saved (the throws all
 * through __cxa_throw and __cxa_rethrow). The functions have C names (spoor graph shows symbols as they
 * are). */
#include <cstdio>
#include <cstring>
#include <exception>
#include <pthread.h>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))

static volatile int sink;

extern "C" {
NOINLINE void cx_leaf(void)
{
	sink++;
}

NOINLINE void cx_thrower(int kind)
{
	cx_leaf();
	if (kind == 1)
		throw std::runtime_error("boom");
	if (kind == 2)
		throw 42;
	sink++;
}

NOINLINE void cx_middle(int kind)
{
	cx_thrower(kind);
	sink++;
}

NOINLINE void cx_release(void)
{
	sink++;
}
}

struct guard {
	NOINLINE ~guard()
	{
		cx_release();
	}
};

extern "C" {
NOINLINE void cx_guarded(int kind)
{
	guard g;
	cx_middle(kind);
	sink++;
}

NOINLINE void cx_catcher(const char *who)
{
	try {
		cx_guarded(1);
	} catch (const std::exception &e) {
		cx_leaf();
		std::printf("%s: caught %s\n", who, e.what());
	}
}

NOINLINE void cx_rethrower(void)
{
	try {
		cx_middle(1);
	} catch (...) {
		cx_leaf();
		throw;
	}
}

NOINLINE void cx_rethrown(const char *who)
{
	try {
		cx_rethrower();
	} catch (const std::runtime_error &e) {
		cx_leaf();
		std::printf("%s: rethrown %s\n", who, e.what());
	}
}

NOINLINE void cx_any(const char *who)
{
	try {
		try {
			cx_middle(2);
		} catch (const std::exception &) {
			std::printf("%s: not this one\n", who);
		}
	} catch (...) {
		cx_leaf();
		std::printf("%s: caught (...)\n", who);
	}
}

NOINLINE void cx_saved(const char *who)
{
	std::exception_ptr p;
	try {
		cx_middle(1);
	} catch (...) {
		p = std::current_exception();
	}
	try {
		std::rethrow_exception(p);
	} catch (const std::exception &e) {
		cx_leaf();
		std::printf("%s: saved %s\n", who, e.what());
	}
}

static bool rethrow_saved = true;

NOINLINE void cx_all(const char *who)
{
	cx_catcher(who);
	cx_rethrown(who);
	cx_any(who);
	if (rethrow_saved)
		cx_saved(who);
	cx_middle(0);
	sink++;
}

NOINLINE void *cx_worker(void *arg)
{
	cx_all("worker");
	sink++;
	return arg;
}
}

struct exit_guard {
	NOINLINE ~exit_guard()
	{
		std::printf("pthread_exit: the destructor ran\n");
		cx_release();
	}
};

extern "C" {
NOINLINE void cx_exit_deep(void)
{
	cx_leaf();
	pthread_exit(nullptr);
}

NOINLINE void cx_exit_guarded(void)
{
	exit_guard g;
	cx_exit_deep();
	sink++;
}

NOINLINE void *cx_exiter(void *arg)
{
	cx_exit_guarded();
	sink++;
	return arg;
}
}

int main(int argc, char **argv)
{
	pthread_t th;
	if (argc > 1 && std::strcmp(argv[1], "uncaught") == 0) {
		cx_middle(1);
		return 0;
	}
	if (argc > 1 && std::strcmp(argv[1], "pthread_exit") == 0) {
		if (pthread_create(&th, nullptr, cx_exiter, nullptr) != 0 ||
		    pthread_join(th, nullptr) != 0)
			return 1;
		std::printf("pthread_exit: joined\n");
		return 0;
	}
	rethrow_saved = !(argc > 1 && std::strcmp(argv[1], "cxa") == 0);
	cx_all("main");
	if (pthread_create(&th, nullptr, cx_worker, nullptr) != 0 || pthread_join(th, nullptr) != 0)
		return 1;
	cx_middle(0);
	std::printf("done\n");
	return 0;
}
