/* SPDX-License-Identifier: MIT */
/* sessions.h: what the control verbs do to sessions (sessions.c, kernel.c, chunks.c). */
#ifndef DAEMON_SESSIONS_H
#define DAEMON_SESSIONS_H

#include "dstate.h"

struct session_params {
	const char *name;
	const char *outdir; /* absolute */
	bool unique;        /* the default directory: made unique (-2, -3...) when taken */
	bool overwrite;
	uint64_t subbuf_size;
	uint32_t num_subbufs;
	uint64_t rotate_bytes, rotate_ns;
	unsigned long kbuffer_kb;
	enum klayout klayout;
	const gid_t *groups; /* the creator's supplementary groups (SO_PEERGROUPS) */
	size_t ngroups;
};

bool session_name_valid(const char *name);
struct dsession *session_create(struct daemon *d, const struct daemon_creds *cr,
                                const struct session_params *p, char *err, size_t errlen);
int session_enable_user(struct daemon *d, struct dsession *s, const char *const *pats, size_t n,
                        char *err, size_t errlen);
int session_disable_user(struct daemon *d, struct dsession *s, const char *const *pats, size_t n,
                         bool all, char *err, size_t errlen);
int session_start(struct daemon *d, struct dsession *s, char *err, size_t errlen);
int session_stop(struct daemon *d, struct dsession *s, char *err, size_t errlen);

/* kernel.c: the session's kernel events (a ksession made at the first start) */
int session_enable_kernel(struct daemon *d, struct dsession *s, const char *const *events, size_t n,
                          const char *const *filters, size_t nf, char *err, size_t errlen);
int session_disable_kernel(struct daemon *d, struct dsession *s, const char *const *events,
                           size_t n, char *err, size_t errlen);
int session_kernel_start(struct daemon *d, struct dsession *s, char *err, size_t errlen);
void session_kernel_pause(struct daemon *d, struct dsession *s);
void session_kernel_finish(struct daemon *d, struct dsession *s);

/* chunks.c: snapshots and rotation */
/* Arm (started, with --rotate-every TIME) or disarm the session's rotation timer. */
void session_rotate_timer(struct dsession *s);
/* The current chunk into OUTDIR/archives/chunk-NNN/; its path into done. */
int session_rotate(struct daemon *d, struct dsession *s, char *done, size_t donelen, char *err,
                   size_t errlen);
/* After a drain: rotate when the chunk has grown past --rotate-every SIZE. */
void session_rotate_if_full(struct daemon *d, struct dsession *s);
/* The session's timer rang (--rotate-every TIME). */
void session_on_timer(struct daemon *d, struct dsession *s);
/* The rings as a complete trace under dir (NULL: OUTDIR/snapshots/snapshot-N-DATE-TIME);
 * the directory made and the counts into the out parameters. */
int session_snapshot(struct daemon *d, struct dsession *s, const char *dir, char *done,
                     size_t donelen, uint64_t *overwritten, int64_t *kernel_lost, char *err,
                     size_t errlen);

#endif
