/* SPDX-License-Identifier: MIT */
/* disk.c: block request statistics per device (see disk.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disk.h"
#include "vocab/rwbs.h"

#define SECTOR_BYTES 512
#define DEV_CACHE    64 /* direct-mapped dev -> device index */

/* A request in flight, keyed by (dev, sector); open addressing, linear probing. */
struct req {
	uint64_t sector;
	uint32_t dev;
	bool used, issued;
	bool task_ok;  /* the task that queued it passes the filters */
	bool selected; /* and the CPU of its last issue */
	int64_t issue_ts;
	int64_t insert_ts, tid; /* for disk_analysis_on_request */
};

struct name {
	uint32_t dev;
	bool from_trace;
	char name[32];
};

struct disk_analysis {
	struct an_engine *e;
	struct disk_dev *devs;
	size_t ndevs, capdevs;
	int32_t cache[DEV_CACHE]; /* device index + 1 */
	struct req *reqs;
	size_t nreqs, capreqs; /* capreqs: a power of two */
	struct name *names;
	size_t nnames;
	bool filtering; /* a task or CPU filter: unmatched completions belong to no one */
	bool oom;
	disk_request_fn on_request;
	void *on_request_data;
};

enum disk_op disk_op_of_text(const char *rwbs, size_t len)
{
	/* the kernel's blk_fill_rwbs: [F]lush first, then W/D/R/N, then modifiers */
	for (size_t i = 0; i < len; i++)
		switch (rwbs[i]) {
		case 'D':
		case 'E':
		case 'N': return DISK_OTHER;
		case 'W': return DISK_WRITE;
		case 'R': return DISK_READ;
		}
	return DISK_OTHER;
}

enum disk_op disk_op_of_flags(int64_t rwbs)
{
	if (rwbs & VOCAB_RWBS_DISCARD)
		return DISK_OTHER;
	if (rwbs & VOCAB_RWBS_WRITE)
		return DISK_WRITE;
	return rwbs & VOCAB_RWBS_READ ? DISK_READ : DISK_OTHER;
}

int64_t disk_percentile(const int64_t *sorted, size_t n, double p)
{
	if (!n)
		return 0;
	double rank = p / 100.0 * (double) n; /* the smallest value with p% at or below it */
	size_t k = (size_t) rank;
	if ((double) k < rank)
		k++;
	return sorted[k ? k - 1 : 0];
}

static struct disk_dev *dev_of(struct disk_analysis *a, uint32_t dev)
{
	int32_t *c = &a->cache[(dev ^ (dev >> 20)) % DEV_CACHE];
	if (*c && a->devs[*c - 1].dev == dev)
		return &a->devs[*c - 1];
	for (size_t i = 0; i < a->ndevs; i++) /* a miss: a new device or a collision */
		if (a->devs[i].dev == dev) {
			*c = (int32_t) i + 1;
			return &a->devs[i];
		}
	if (a->ndevs == a->capdevs) {
		size_t cap = a->capdevs ? 2 * a->capdevs : 8;
		struct disk_dev *v = realloc(a->devs, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return NULL;
		}
		a->devs = v;
		a->capdevs = cap;
	}
	a->devs[a->ndevs] = (struct disk_dev){.dev = dev};
	*c = (int32_t) ++a->ndevs;
	return &a->devs[a->ndevs - 1];
}

static size_t req_hash(uint32_t dev, uint64_t sector, size_t cap)
{
	uint64_t h = (sector ^ ((uint64_t) dev << 32)) * 0x9e3779b97f4a7c15ull;
	return (size_t) (h >> 17) & (cap - 1);
}

/* The slot of (dev, sector): its entry, or the free slot where it would go. */
static struct req *req_slot(struct disk_analysis *a, uint32_t dev, uint64_t sector)
{
	size_t i = req_hash(dev, sector, a->capreqs);
	while (a->reqs[i].used && (a->reqs[i].dev != dev || a->reqs[i].sector != sector))
		i = (i + 1) & (a->capreqs - 1);
	return &a->reqs[i];
}

static bool req_grow(struct disk_analysis *a)
{
	size_t cap = a->capreqs ? 2 * a->capreqs : 1024;
	struct req *old = a->reqs, *v = calloc(cap, sizeof(*v));
	if (!v) {
		a->oom = true;
		return false;
	}
	size_t oldcap = a->capreqs;
	a->reqs = v;
	a->capreqs = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*req_slot(a, old[i].dev, old[i].sector) = old[i];
	free(old);
	return true;
}

/* Take an entry out; later entries of its probe run move back (no tombstones). */
static void req_remove(struct disk_analysis *a, struct req *r)
{
	size_t mask = a->capreqs - 1, hole = (size_t) (r - a->reqs), i = hole;
	a->reqs[hole].used = false;
	a->nreqs--;
	for (;;) {
		i = (i + 1) & mask;
		if (!a->reqs[i].used)
			return;
		size_t home = req_hash(a->reqs[i].dev, a->reqs[i].sector, a->capreqs);
		/* movable when its home is not in (hole, i], cyclically */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			a->reqs[hole] = a->reqs[i];
			a->reqs[i].used = false;
			hole = i;
		}
	}
}

static bool key_of(const struct an_event *ev, uint32_t *dev, uint64_t *sector)
{
	int64_t d, s;
	if (!kv_int(ev->ev, ev->cls, KS_DEV, &d) || !kv_int(ev->ev, ev->cls, KS_SECTOR, &s))
		return false;
	*dev = (uint32_t) d;
	*sector = (uint64_t) s;
	return true;
}

/* insert and issue: the request is (re)started; insert only names its task */
static void start(struct disk_analysis *a, const struct an_event *ev, bool issue)
{
	uint32_t dev;
	uint64_t sector;
	if (!key_of(ev, &dev, &sector))
		return;
	if (2 * (a->nreqs + 1) > a->capreqs && !req_grow(a))
		return;
	struct req *r = req_slot(a, dev, sector);
	if (!r->used) {
		*r = (struct req){.sector = sector, .dev = dev, .used = true, .insert_ts = -1};
		r->task_ok = an_task_selected(a->e, ev->tid);
		r->tid = ev->tid;
		a->nreqs++;
	} else if (!issue) { /* a new request where one was never completed */
		r->task_ok = an_task_selected(a->e, ev->tid);
		r->issued = false;
		r->tid = ev->tid;
	}
	if (!issue)
		r->insert_ts = ev->ts;
	if (issue) {
		r->issued = true;
		r->issue_ts = ev->ts;
		r->selected = r->task_ok && an_cpu_selected(a->e, ev->cpu);
	}
}

static void on_insert(void *data, const struct an_event *ev)
{
	start(data, ev, false);
}

static void on_issue(void *data, const struct an_event *ev)
{
	start(data, ev, true);
}

/* Kept for the percentiles. */
static void add_latency(struct disk_analysis *a, struct disk_dev *d, int64_t ns)
{
	if (d->nlats == d->caplats) {
		size_t cap = d->caplats ? 2 * d->caplats : 256;
		int64_t *v = realloc(d->lats, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return;
		}
		d->lats = v;
		d->caplats = cap;
	}
	d->lats[d->nlats++] = ns;
}

static const char *name_of(const struct disk_analysis *a, uint32_t dev)
{
	for (size_t k = 0; k < a->nnames; k++)
		if (a->names[k].dev == dev && a->names[k].from_trace)
			return a->names[k].name;
	return NULL;
}

/* A completed request's latency ns: counted, and told (on_request). */
static void count_latency(struct disk_analysis *a, struct disk_dev *d, const struct req *r,
                          enum disk_op op, int64_t nr, int64_t ns)
{
	welford_add(&d->lat, (double) ns);
	if (__builtin_expect(a->on_request == NULL, 1)) {
		add_latency(a, d, ns);
		return;
	}
	struct disk_request q = {
	    r->dev,       name_of(a, r->dev), r->sector, (uint64_t) nr * SECTOR_BYTES, op, r->tid,
	    r->insert_ts, r->issue_ts,        ns};
	a->on_request(a->on_request_data, &q);
}

static void on_complete(void *data, const struct an_event *ev)
{
	struct disk_analysis *a = data;
	uint32_t dev;
	uint64_t sector;
	int64_t nr = 0;
	if (!key_of(ev, &dev, &sector))
		return;
	kv_int(ev->ev, ev->cls, KS_NR_SECTOR, &nr);
	const char *s;
	size_t len;
	int64_t flags;
	enum disk_op op = DISK_OTHER;
	if (kv_str(ev->ev, ev->cls, KS_RWBS, &s, &len))
		op = disk_op_of_text(s, len);
	else if (kv_int(ev->ev, ev->cls, KS_RWBS, &flags))
		op = disk_op_of_flags(flags);
	if (nr <= 0)
		op = DISK_OTHER; /* a flush, or a request without data */
	struct req *r = a->capreqs ? req_slot(a, dev, sector) : NULL;
	bool matched = r && r->used && r->issued;
	if (matched ? !r->selected : a->filtering) {
		if (r && r->used)
			req_remove(a, r);
		return;
	}
	struct disk_dev *d = dev_of(a, dev);
	if (!d)
		return;
	d->count[op]++;
	d->bytes[op] += (uint64_t) (nr > 0 ? nr : 0) * SECTOR_BYTES;
	if (!matched)
		d->unmatched++;
	else if (ev->ts >= r->issue_ts)
		count_latency(a, d, r, op, nr > 0 ? nr : 0, ev->ts - r->issue_ts);
	if (r && r->used)
		req_remove(a, r);
}

static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct disk_analysis *a = data;
	(void) cpu;
	(void) count;
	(void) ts;
	for (size_t i = 0; i < a->capreqs; i++)
		if (a->reqs[i].used) {
			struct disk_dev *d = dev_of(a, a->reqs[i].dev);
			if (d && a->reqs[i].issued && a->reqs[i].selected)
				d->dropped++;
			a->reqs[i].used = false;
		}
	a->nreqs = 0;
}

static void add_name(struct disk_analysis *a, uint32_t dev, const char *s, size_t len,
                     bool from_trace)
{
	struct name *n = NULL;
	for (size_t i = 0; i < a->nnames && !n; i++)
		if (a->names[i].dev == dev)
			n = &a->names[i];
	if (n && n->from_trace && !from_trace)
		return;
	if (!n) {
		struct name *v = realloc(a->names, (a->nnames + 1) * sizeof(*v));
		if (!v) {
			a->oom = true;
			return;
		}
		a->names = v;
		n = &a->names[a->nnames++];
	}
	if (len >= sizeof(n->name))
		len = sizeof(n->name) - 1;
	n->dev = dev;
	n->from_trace = from_trace;
	memcpy(n->name, s, len);
	n->name[len] = '\0';
}

/* LTTng's state dump names each block device: once per device, never per request */
static void on_block_device(void *data, const struct an_event *ev)
{
	int64_t dev;
	const char *s;
	size_t len;
	if (kv_int(ev->ev, ev->cls, KS_DEV, &dev) &&
	    kv_str(ev->ev, ev->cls, KS_DISKNAME, &s, &len) && len)
		add_name(data, (uint32_t) dev, s, len, true);
}

int disk_analysis_load_names(struct disk_analysis *a, const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char line[256], name[64];
	unsigned major, minor;
	unsigned long long blocks;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %u %llu %63s", &major, &minor, &blocks, name) == 4 &&
		    major < 4096 && minor < (1u << 20))
			add_name(a, major << 20 | minor, name, strlen(name), false);
	fclose(f);
	return a->oom ? -ENOMEM : 0;
}

struct disk_analysis *disk_analysis_new(struct an_engine *e)
{
	struct disk_analysis *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->e = e;
	an_engine_want_threads(e); /* tasks are shown by name */
	/* -2 is no task and no CPU: only a filter rejects it */
	a->filtering = !an_cpu_selected(e, -2) || !an_task_selected(e, -2);
	if (an_engine_on(e, KEV_BLOCK_INSERT, on_insert, a) ||
	    an_engine_on(e, KEV_BLOCK_ISSUE, on_issue, a) ||
	    an_engine_on(e, KEV_BLOCK_COMPLETE, on_complete, a) ||
	    an_engine_on(e, KEV_BLOCK_DEVICE, on_block_device, a)) {
		free(a);
		return NULL;
	}
	an_engine_on_lost(e, on_lost, a);
	return a;
}

void disk_analysis_on_request(struct disk_analysis *a, disk_request_fn fn, void *data)
{
	a->on_request = fn;
	a->on_request_data = data;
}

int64_t disk_analysis_open_since(const struct disk_analysis *a)
{
	int64_t since = INT64_MAX;
	for (size_t i = 0; i < a->capreqs; i++)
		if (a->reqs[i].used && a->reqs[i].issued && a->reqs[i].issue_ts < since)
			since = a->reqs[i].issue_ts;
	return since;
}

void disk_analysis_free(struct disk_analysis *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->ndevs; i++)
		free(a->devs[i].lats);
	free(a->devs);
	free(a->reqs);
	free(a->names);
	free(a);
}

static int i64_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *) x, b = *(const int64_t *) y;
	return a < b ? -1 : a > b;
}

static int dev_cmp(const void *x, const void *y)
{
	const struct disk_dev *a = x, *b = y;
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

size_t disk_analysis_devices(struct disk_analysis *a, const struct disk_dev **devs)
{
	/* issued and never completed: pending at the end */
	for (size_t i = 0; i < a->capreqs; i++)
		if (a->reqs[i].used && a->reqs[i].issued && a->reqs[i].selected) {
			struct disk_dev *d = dev_of(a, a->reqs[i].dev);
			if (d)
				d->pending++;
		}
	if (a->reqs) /* NULL until the first request: memset must not see it, even for 0 */
		memset(a->reqs, 0, a->capreqs * sizeof(*a->reqs));
	a->nreqs = 0;
	for (size_t i = 0; i < a->ndevs; i++) {
		struct disk_dev *d = &a->devs[i];
		if (d->nlats > 1)
			qsort(d->lats, d->nlats, sizeof(*d->lats), i64_cmp);
		d->p50 = (double) disk_percentile(d->lats, d->nlats, 50);
		d->p90 = (double) disk_percentile(d->lats, d->nlats, 90);
		d->p99 = (double) disk_percentile(d->lats, d->nlats, 99);
		for (size_t k = 0; k < a->nnames; k++)
			if (a->names[k].dev == d->dev)
				memcpy(d->name, a->names[k].name, sizeof(d->name));
	}
	if (a->ndevs > 1)
		qsort(a->devs, a->ndevs, sizeof(*a->devs), dev_cmp);
	memset(a->cache, 0, sizeof(a->cache)); /* the indices no longer hold */
	*devs = a->devs;
	return a->ndevs;
}
