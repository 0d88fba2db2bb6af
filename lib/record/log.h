/* SPDX-License-Identifier: MIT */
/* log.h: where the recorder's warnings go. spoor record prints them on stderr; a session
 * daemon keeps them in its log, saying which session speaks. */
#ifndef RECORD_LOG_H
#define RECORD_LOG_H

/* say(arg, text): one warning, the text alone (no prefix, no newline). A NULL log, or one
 * whose say is NULL, prints "spoor record: warning: TEXT" on stderr. */
struct rec_log {
	void (*say)(void *arg, const char *text);
	void *arg;
};

void rec_log_warn(const struct rec_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
