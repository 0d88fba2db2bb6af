/* SPDX-License-Identifier: MIT */
/* list.h: what `spoor session list` and `destroy` print (list.c). */
#ifndef DAEMON_LIST_H
#define DAEMON_LIST_H

#include <stdio.h>

#include "dstate.h"

/* The sessions cr may see, or the one named in full; 0, or 1 (said on err) when the one
 * named is not there. *status gets the same. */
int list_sessions(const struct daemon *d, const struct daemon_creds *cr, const char *name,
                  FILE *out, FILE *err, int *status);
/* What a finished session wrote. */
void list_summary(const struct dsession *s, FILE *out);

#endif
