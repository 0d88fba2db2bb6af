/* SPDX-License-Identifier: MIT */
/* log.c: the recorder's warnings, to stderr or to whoever asked for them (log.h). */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

void rec_log_warn(const struct rec_log *log, const char *fmt, ...)
{
	char text[4608]; /* room for a path (PATH_MAX) and its message */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (log && log->say)
		log->say(log->arg, text);
	else
		fprintf(stderr, "spoor record: warning: %s\n", text);
}
