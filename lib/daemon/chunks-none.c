/* TEMPORARY until apptrace_snapshot & co land */
#include <stdio.h>
#include "dstate.h"
#include "sessions.h"
void session_rotate_timer(struct dsession *s)
{
}
int session_rotate(struct daemon *d, struct dsession *s, char *done, size_t donelen, char *err,
                   size_t errlen)
{
	snprintf(err, errlen, "not yet");
	return -1;
}
void session_rotate_if_full(struct daemon *d, struct dsession *s)
{
}
void session_on_timer(struct daemon *d, struct dsession *s)
{
}
int session_snapshot(struct daemon *d, struct dsession *s, const char *dir, char *done,
                     size_t donelen, uint64_t *overwritten, char *err, size_t errlen)
{
	snprintf(err, errlen, "not yet");
	return -1;
}
