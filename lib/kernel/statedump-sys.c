/* SPDX-License-Identifier: MIT */
/*
 * statedump-sys.c: the machine's part of the LTTng-layout state dump, after the threads:
 * interrupts (/sys/kernel/irq/N: chip_name, actions), network interfaces (getifaddrs, the
 * recorder's network namespace), block devices (/proc/partitions, which lists the devices
 * lttng-modules dumps: disks with a capacity, not hidden, and their partitions that have
 * sectors) and, on x86, the CPUs (/proc/cpuinfo).
 */
#include <dirent.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statedump-lttng-int.h"

/* A small sysfs file's first line, without its newline; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int) cap, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static int by_number(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *) a, y = *(const unsigned int *) b;
	return (x > y) - (x < y);
}

/* The kernel thread "irq/N-ACTION" (a threaded handler's; its comm cut at 15 bytes). */
static int irq_thread(const struct sdl *d, unsigned int irq, const char *action)
{
	char prefix[32];
	int n = snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
	for (size_t i = 0; i < d->nirqt; i++) {
		const char *c = d->irqt[i].comm;
		if (!strncmp(c, prefix, (size_t) n) && c[n] &&
		    !strncmp(action, c + n, strlen(c + n)))
			return d->irqt[i].tid;
	}
	return 0;
}

void sdl_interrupts(struct sdl *d)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/kernel/irq", d->roots->sys);
	DIR *dir = opendir(path);
	if (!dir)
		return; /* a kernel without it (no CONFIG_SPARSE_IRQ): no interrupts */
	unsigned int *irqs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		char *end;
		unsigned long irq = strtoul(e->d_name, &end, 10);
		if (*end || e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (n == cap) {
			unsigned int *v = realloc(irqs, (cap = cap * 2 + 64) * sizeof(*v));
			if (!v)
				break;
			irqs = v;
		}
		irqs[n++] = (unsigned int) irq;
	}
	closedir(dir);
	if (n)
		qsort(irqs, n, sizeof(*irqs), by_number);
	for (size_t i = 0; i < n; i++) {
		char chip[256], actions[4096], file[700];
		snprintf(file, sizeof(file), "%s/kernel/irq/%u/chip_name", d->roots->sys, irqs[i]);
		read_line(file, chip, sizeof(chip));
		snprintf(file, sizeof(file), "%s/kernel/irq/%u/actions", d->roots->sys, irqs[i]);
		read_line(file, actions, sizeof(actions));
		/* one event per action, as lttng-modules; an interrupt without one has none */
		for (char *save = NULL, *a = strtok_r(actions, ",", &save); a;
		     a = strtok_r(NULL, ",", &save)) {
			union ksynth_val v[] = {{.i = irqs[i]},
			                        {.s = chip[0] ? chip : "unnamed_irq_chip"},
			                        {.s = a},
			                        {.i = irq_thread(d, irqs[i], a)}};
			sdl_emit(d, SDL_INTERRUPT, 0, v);
		}
	}
	free(irqs);
}

/* getifaddrs lists each interface's link (AF_PACKET) first, in index order, then its
 * addresses: an interface up gets one event per IPv4 address, one down a single event
 * with address 0, as lttng-modules writes them. */
void sdl_network_interfaces(struct sdl *d)
{
	struct ifaddrs *all;
	if (getifaddrs(&all))
		return;
	for (struct ifaddrs *link = all; link; link = link->ifa_next) {
		if (!link->ifa_addr || link->ifa_addr->sa_family != AF_PACKET)
			continue;
		if (!(link->ifa_flags & IFF_UP)) {
			union ksynth_val v[] = {{.s = link->ifa_name}, {.i = 0}};
			sdl_emit(d, SDL_NETWORK_INTERFACE, 0, v);
			continue;
		}
		for (struct ifaddrs *a = all; a; a = a->ifa_next) {
			if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET ||
			    strcmp(a->ifa_name, link->ifa_name))
				continue;
			uint32_t be = ((const struct sockaddr_in *) (const void *) a->ifa_addr)
			                  ->sin_addr.s_addr; /* network order, as the field's */
			union ksynth_val v[] = {{.s = link->ifa_name}, {.i = be}};
			sdl_emit(d, SDL_NETWORK_INTERFACE, 0, v);
		}
	}
	freeifaddrs(all);
}

void sdl_block_devices(struct sdl *d, const char *file)
{
	char path[4200], line[512], name[256];
	if (d->roots->proc[0])
		snprintf(path, sizeof(path), "%s/%s", d->roots->proc, file);
	else
		snprintf(path, sizeof(path), "%s", file);
	FILE *f = fopen(path, "re");
	unsigned int major, minor;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " %u %u %*u %255s", &major, &minor, name) == 3) {
			/* the kernel's dev_t: 12 bits of major, 20 of minor */
			union ksynth_val v[] = {{.i = (int64_t) ((major << 20) | minor)},
			                        {.s = name}};
			sdl_emit(d, SDL_BLOCK_DEVICE, 0, v);
		}
	if (f)
		fclose(f);
}

/* One CPU's lines of /proc/cpuinfo, as lttng_statedump_cpu_topology's fields. */
struct cpu {
	int64_t id, family, model, physical_id, core_id, cores;
	char vendor[64], model_name[128];
	int seen;
};

static void emit_cpu(struct sdl *d, const struct cpu *c)
{
	if (!c->seen)
		return;
	union ksynth_val v[] = {{.s = "x86"},
	                        {.i = c->id},
	                        {.s = c->vendor[0] ? c->vendor : "unknown"},
	                        {.i = c->family},
	                        {.i = c->model},
	                        {.s = c->model_name[0] ? c->model_name : "unknown"},
	                        {.i = c->physical_id},
	                        {.i = c->core_id},
	                        {.i = c->cores}};
	sdl_emit(d, SDL_CPU_TOPOLOGY, 0, v);
}

static void take(struct cpu *c, const char *key, const char *val)
{
	const struct {
		const char *key;
		int64_t *to;
	} ints[] = {{"cpu family", &c->family},
	            {"model", &c->model},
	            {"physical id", &c->physical_id},
	            {"core id", &c->core_id},
	            {"cpu cores", &c->cores}};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (!strcmp(key, ints[i].key)) {
			*ints[i].to = strtoll(val, NULL, 10);
			return;
		}
	if (!strcmp(key, "vendor_id"))
		snprintf(c->vendor, sizeof(c->vendor), "%s", val);
	else if (!strcmp(key, "model name"))
		snprintf(c->model_name, sizeof(c->model_name), "%s", val);
}

void sdl_cpu_topology(struct sdl *d)
{
	if (d->ids->id[SDL_CPU_TOPOLOGY] == UINT32_MAX)
		return;
	char path[600], line[1024];
	snprintf(path, sizeof(path), "%s/cpuinfo", d->roots->proc);
	FILE *f = fopen(path, "re");
	struct cpu c = {0};
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *key = line, *val = colon + 1, *k_end = colon;
		while (k_end > key && (k_end[-1] == ' ' || k_end[-1] == '\t'))
			k_end--;
		*k_end = '\0';
		val += strspn(val, " \t");
		val[strcspn(val, "\n")] = '\0';
		if (!strcmp(key, "processor")) { /* a new CPU's lines begin */
			emit_cpu(d, &c);
			c = (struct cpu){.id = strtoll(val, NULL, 10), .seen = 1};
		} else {
			take(&c, key, val);
		}
	}
	emit_cpu(d, &c);
	if (f)
		fclose(f);
}
