/* SPDX-License-Identifier: MIT */
/*
 * open.h: spoor view --open: the browser opens a local file that sends it on to the URL,
 * so the token never appears on a command line (other users can read /proc/PID/cmdline).
 */
#ifndef VIEW_OPEN_H
#define VIEW_OPEN_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

struct view_open {
	char dir[PATH_MAX];  /* private folder (0700) */
	char file[PATH_MAX]; /* the redirecting page (0600) */
	pid_t pid;           /* the opener, or 0 */
};

/* Write the page (in $TMPDIR or /tmp) and run `$BROWSER FILE`, else `xdg-open FILE`.
 * 0; or -errno with a message in msg (the file may be left: view_open_cleanup). */
int view_open(const char *url, struct view_open *o, char *msg, size_t msgsize);
/* Remove the file and its folder (at the end: a browser may read the file late). */
void view_open_cleanup(struct view_open *o);

#endif
