/* SPDX-License-Identifier: MIT */
/*
 * verbs.c: the control requests (lib/ipc/ctl.h): take the request apart, check who asks,
 * do it, and answer with the exit status, stdout and stderr texts of `spoor session VERB`.
 * A session is seen and driven only by its owner and root; kernel events need root or the
 * group `tracing`, and a daemon running as root.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "dstate.h"
#include "ipc/ctl.h"
#include "list.h"
#include "sessions.h"

struct answer {
	FILE *out, *err;
	int status;
	bool keep; /* watch: the connection stays, answered already */
};

static int fail(struct answer *a, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct answer *a, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(a->err, fmt, ap);
	va_end(ap);
	fputc('\n', a->err);
	a->status = status;
	return status;
}

/* The values of every line with key, into v (up to cap). */
static size_t get_all(const struct ctl_parsed *p, const char *key, const char **v, size_t cap)
{
	size_t n = 0;
	for (size_t i = 1; i < p->n && n < cap; i++)
		if (!strcmp(p->kv[i].key, key))
			v[n++] = p->kv[i].value;
	return n;
}

static bool get_u64(const struct ctl_parsed *p, const char *key, uint64_t *v)
{
	const char *s = ctl_get(p, key);
	char *end;
	if (!s)
		return true; /* absent: the default stays */
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return false;
	*v = x;
	return true;
}

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int verb_create(struct daemon *d, const struct dconn *c, const struct ctl_parsed *p,
                       struct answer *a, const char *name)
{
	struct session_params sp = {.name = name, .subbuf_size = 64 << 10, .num_subbufs = 4};
	uint64_t sub = sp.subbuf_size, n = sp.num_subbufs, kb = 0;
	sp.outdir = ctl_get(p, "output");
	sp.unique = ctl_get(p, "unique") != NULL;
	sp.overwrite = ctl_get(p, "overwrite") != NULL;
	if (!sp.outdir || sp.outdir[0] != '/')
		return fail(a, 2, "create needs an absolute output directory");
	if (!get_u64(p, "subbuf-size", &sub) || !get_u64(p, "subbuffers", &n) ||
	    !get_u64(p, "rotate-bytes", &sp.rotate_bytes) ||
	    !get_u64(p, "rotate-ns", &sp.rotate_ns) || !get_u64(p, "kernel-buffer-kb", &kb))
		return fail(a, 2, "invalid number in the request");
	if (!power_of_two(sub) || sub < 4096 || sub > (64u << 20) || !power_of_two(n) || n < 2 ||
	    n > 1024 || kb > (4u << 20))
		return fail(a, 2,
		            "invalid buffer geometry: sub-buffers of 4k to 64m, 2 to 1024 "
		            "of them, powers of two");
	/* the client's floors (cmd-session.c), for a request that did not come through it: a
	 * timer of a microsecond would keep the daemon rotating and nothing else */
	if ((sp.rotate_ns && sp.rotate_ns < CTL_ROTATE_MIN_NS) ||
	    (sp.rotate_bytes && sp.rotate_bytes < CTL_ROTATE_MIN_BYTES))
		return fail(a, 2, "invalid --rotate-every: 10ms or more, or a size of 4k or more");
	if (sp.overwrite && (sp.rotate_bytes || sp.rotate_ns))
		return fail(a, 2,
		            "--rotate-every needs a discard session: a flight recorder "
		            "(--overwrite) is written by snapshots");
	sp.subbuf_size = sub;
	sp.num_subbufs = (uint32_t) n;
	sp.kbuffer_kb = (unsigned long) kb;
	const char *layout = ctl_get(p, "layout");
	if (layout && klayout_parse(layout, &sp.klayout))
		return fail(a, 2, "unknown layout '%s' (spoor or lttng)", layout);
	/* the owner's files are written with its supplementary groups too (a folder shared
	 * with its group); more than SESSION_MAX_GROUPS: its primary group only */
	gid_t groups[SESSION_MAX_GROUPS];
	socklen_t glen = sizeof(groups);
	if (c->fd >= 0 && !getsockopt(c->fd, SOL_SOCKET, SO_PEERGROUPS, groups, &glen)) {
		sp.groups = groups;
		sp.ngroups = glen / sizeof(gid_t);
	}
	char err[4400];
	struct dsession *s = session_create(d, &c->cr, &sp, err, sizeof(err));
	if (!s)
		return fail(a, 1, "%s", err);
	fprintf(a->out, "session %s created: trace in %s\n", s->name, s->outdir);
	return 0;
}

static int verb_enable(struct daemon *d, const struct dconn *c, const struct ctl_parsed *p,
                       struct answer *a, struct dsession *s, bool enable)
{
	const char *u[CTL_MAX_LINES], *k[CTL_MAX_LINES], *f[CTL_MAX_LINES];
	size_t nu = get_all(p, "u", u, CTL_MAX_LINES), nk = get_all(p, "k", k, CTL_MAX_LINES);
	size_t nf = get_all(p, "filter", f, CTL_MAX_LINES);
	bool all = ctl_get(p, "all") != NULL;
	char err[600];
	if (!nu && !nk && !all)
		return fail(a, 2, "%s: give -u PATTERN or -k EVENTS",
		            enable ? "enable" : "disable");
	if (nf && !nk)
		return fail(a, 2, "--filter needs -k");
	if (nk && !c->cr.privileged)
		return fail(a, 1, "kernel events need root or the group 'tracing'");
	if (nk && !d->is_root)
		return fail(a, 1,
		            "kernel events need the system daemon (this daemon does not "
		            "run as root)");
	if (s->state == SESSION_FAILED)
		return fail(a, 1, "session %s failed (%s): destroy it", s->name, s->error);
	int rc = 0;
	if (enable) {
		rc = nk ? session_enable_kernel(d, s, k, nk, f, nf, err, sizeof(err)) : 0;
		if (!rc && nu)
			rc = session_enable_user(d, s, u, nu, err, sizeof(err));
	} else {
		rc = nk ? session_disable_kernel(d, s, k, nk, err, sizeof(err)) : 0;
		if (!rc && (nu || all))
			rc = session_disable_user(d, s, u, nu, all, err, sizeof(err));
	}
	if (rc)
		return fail(a, 1, "%s", err);
	return 0;
}

static int verb_snapshot(struct daemon *d, const struct ctl_parsed *p, struct answer *a,
                         struct dsession *s)
{
	char err[4400], dir[PATH_MAX];
	uint64_t overwritten = 0;
	int64_t kernel_lost = -1;
	const char *to = ctl_get(p, "output");
	if (to && to[0] != '/')
		return fail(a, 2, "snapshot needs an absolute output directory");
	if (session_snapshot(d, s, to, dir, sizeof(dir), &overwritten, &kernel_lost, err,
	                     sizeof(err)))
		return fail(a, 1, "%s", err);
	/* the user-space rings' count is exact; the kernel's rings say what they lost */
	fprintf(a->out, "snapshot of session %s in %s: %" PRIu64 " events overwritten before it",
	        s->name, dir, overwritten);
	if (kernel_lost >= 0)
		fprintf(a->out, " (user space); kernel: %" PRId64 " events lost", kernel_lost);
	fputc('\n', a->out);
	return 0;
}

static int verb_rotate(struct daemon *d, struct answer *a, struct dsession *s)
{
	char err[4400], dir[PATH_MAX];
	if (session_rotate(d, s, dir, sizeof(dir), err, sizeof(err)))
		return fail(a, 1, "%s", err);
	fprintf(a->out, "session %s: chunk closed in %s\n", s->name, dir);
	return 0;
}

static int run(struct daemon *d, struct dconn *c, const struct ctl_parsed *p, struct answer *a)
{
	const char *verb = p->verb, *name = ctl_get(p, "name");
	if (!strcmp(verb, "list"))
		return list_sessions(d, &c->cr, name, a->out, a->err, &a->status);
	if (!name || !session_name_valid(name))
		return fail(a, 2, "a session name is letters, digits, '_', '-' and '.' (up to %d)",
		            SESSION_NAME_MAX);
	if (!strcmp(verb, "create"))
		return verb_create(d, c, p, a, name);
	struct dsession *s = session_find(d, name, &c->cr);
	if (!s)
		return fail(a, 1, "no session '%s' (spoor session list shows yours)", name);
	char err[600];
	if (!strcmp(verb, "enable") || !strcmp(verb, "disable"))
		return verb_enable(d, c, p, a, s, !strcmp(verb, "enable"));
	if (!strcmp(verb, "start")) {
		if (session_start(d, s, err, sizeof(err)))
			return fail(a, 1, "%s", err);
		fprintf(a->out, "session %s started: trace in %s\n", s->name, s->outdir);
		return 0;
	}
	if (!strcmp(verb, "stop")) {
		if (session_stop(d, s, err, sizeof(err)))
			return fail(a, 1, "%s", err);
		fprintf(a->out, "session %s stopped: trace in %s\n", s->name, s->outdir);
		return 0;
	}
	if (!strcmp(verb, "snapshot"))
		return verb_snapshot(d, p, a, s);
	if (!strcmp(verb, "rotate"))
		return verb_rotate(d, a, s);
	if (!strcmp(verb, "watch")) {
		uint64_t period = 0;
		if (!get_u64(p, "period-ns", &period))
			return fail(a, 2, "invalid period-ns");
		if (watch_begin(d, c, s, period, err, sizeof(err)))
			return fail(a, 1, "%s", err);
		a->keep = true;
		return 0;
	}
	if (!strcmp(verb, "destroy")) {
		session_wind_up(d, s);
		list_summary(s, a->out);
		session_finish(d, s);
		return 0;
	}
	return fail(a, 2, "unknown verb '%s'", verb);
}

int ctl_on_message(struct daemon *d, struct dconn *c, const void *msg, size_t len)
{
	static struct ctl_parsed p;
	static char reply[CTL_MAX_REPLY];
	char *out = NULL, *err = NULL;
	size_t outlen = 0, errlen = 0;
	struct answer a = {open_memstream(&out, &outlen), open_memstream(&err, &errlen), 0, false};
	char why[200];

	if (!a.out || !a.err) {
		a.status = 1;
	} else if (ctl_parse(&p, msg, len, why, sizeof(why))) {
		fail(&a, 2, "bad request: %s", why);
	} else {
		run(d, c, &p, &a);
	}
	if (a.out)
		fclose(a.out);
	if (a.err)
		fclose(a.err);
	size_t n = ctl_reply_build(reply, sizeof(reply), a.status, out, out ? outlen : 0, err,
	                           err ? errlen : 0);
	free(out);
	free(err);
	if (a.keep)
		return 0;
	dconn_send(c, reply, n, -1);
	return -1; /* one request a connection */
}
