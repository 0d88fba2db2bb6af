/* SPDX-License-Identifier: MIT */
/*
 * check.h: a tiny test harness for spoor's unit tests (no external dependencies).
 *
 * Every CHECK* macro counts one assertion, prints file:line and the values involved when it
 * fails, and evaluates to true when it passed (so a test can skip what depends on it). An
 * optional context (CHECK_CTX) is printed with each failure, e.g. the event being checked.
 * check_done() prints the closing line "N passed, N failed" and returns the exit code.
 */
#ifndef SPOOR_TEST_CHECK_H
#define SPOOR_TEST_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned check_passed, check_failed;
static char check_context[200];

static inline void check_set_ctx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void check_set_ctx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(check_context, sizeof(check_context), fmt, ap);
	va_end(ap);
}
#define CHECK_CTX(...) check_set_ctx(__VA_ARGS__)

static inline bool check_result(bool ok, const char *file, int line)
{
	if (ok) {
		check_passed++;
		return true;
	}
	check_failed++;
	printf("FAIL %s:%d%s%s%s: ", file, line, check_context[0] ? " [" : "", check_context,
	       check_context[0] ? "]" : "");
	return false;
}

static inline bool check_bool(bool ok, const char *expr, const char *file, int line)
{
	if (!check_result(ok, file, line))
		printf("%s\n", expr);
	return ok;
}

static inline bool check_u64(uint64_t got, uint64_t want, const char *expr, const char *file,
                             int line)
{
	bool ok = got == want;
	if (!check_result(ok, file, line))
		printf("%s: got %" PRIu64 " (0x%" PRIx64 "), want %" PRIu64 " (0x%" PRIx64 ")\n",
		       expr, got, got, want, want);
	return ok;
}

static inline bool check_s64(int64_t got, int64_t want, const char *expr, const char *file,
                             int line)
{
	bool ok = got == want;
	if (!check_result(ok, file, line))
		printf("%s: got %" PRId64 ", want %" PRId64 "\n", expr, got, want);
	return ok;
}

/* Strings: NULL is a value of its own (equal only to NULL). got may be length-delimited. */
static inline bool check_strn(const char *got, size_t got_len, const char *want, const char *expr,
                              const char *file, int line)
{
	bool ok = (!got && !want) ||
	          (got && want && got_len == strlen(want) && !memcmp(got, want, got_len));
	if (!check_result(ok, file, line)) {
		if (got)
			printf("%s: got \"%.*s\" (%zu bytes), ", expr, (int) got_len, got, got_len);
		else
			printf("%s: got NULL, ", expr);
		printf(want ? "want \"%s\"\n" : "want NULL%s\n", want ? want : "");
	}
	return ok;
}

static inline bool check_str(const char *got, const char *want, const char *expr, const char *file,
                             int line)
{
	return check_strn(got, got ? strlen(got) : 0, want, expr, file, line);
}

static inline bool check_f64(double got, double want, const char *expr, const char *file, int line)
{
	bool ok = got == want;
	if (!check_result(ok, file, line))
		printf("%s: got %.17g, want %.17g\n", expr, got, want);
	return ok;
}

#define CHECK(cond) check_bool((cond) ? true : false, #cond, __FILE__, __LINE__)
#define CHECK_EQ_U64(got, want)                                                                    \
	check_u64((uint64_t) (got), (uint64_t) (want), #got, __FILE__, __LINE__)
#define CHECK_EQ_S64(got, want)                                                                    \
	check_s64((int64_t) (got), (int64_t) (want), #got, __FILE__, __LINE__)
#define CHECK_STR(got, want)       check_str((got), (want), #got, __FILE__, __LINE__)
#define CHECK_STRN(ptr, len, want) check_strn((ptr), (len), (want), #ptr, __FILE__, __LINE__)
#define CHECK_EQ_F64(got, want)    check_f64((got), (want), #got, __FILE__, __LINE__)

/* Prints the closing line; the exit code is non-zero when anything failed. */
static inline int check_done(void)
{
	printf("%u passed, %u failed\n", check_passed, check_failed);
	fflush(stdout);
	return check_failed ? 1 : 0;
}

#endif
