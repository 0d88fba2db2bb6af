/* SPDX-License-Identifier: MIT */
/*
 * test-statedump.c: the LTTng layout's state dump (lib/kernel/statedump-lttng.h), written
 * from a /proc and /sys tree made here (every value known) and from the machine's own, then
 * read by babeltrace2 (the reference: the events, fields and values as it prints them) and
 * by spoor's reader.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kernel/kmeta.h"
#include "kernel/statedump-lttng.h"
#include "record/clock.h"
#include "spoor/trace.h"

static char tmp[256];

static void put(const char *rel, const char *text)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	for (char *s = strchr(path + strlen(tmp) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_to(const char *rel, const char *target)
{
	char path[600];
	put(rel, "");
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	unlink(path);
	CHECK(symlink(target, path) == 0);
}

/* A thread's stat (39 fields: flags the 9th, processor the 39th), status and namespaces. */
static void thread(int pid, int tid, const char *comm, char state, int ppid, unsigned long flags,
                   int cpu, const char *nspid, const char *nstgid)
{
	char rel[200], text[600];
	int n = snprintf(text, sizeof(text), "%d (%s) %c %d 1 1 0 -1 %lu", tid, comm, state, ppid,
	                 flags);
	for (int field = 10; field < 39; field++)
		n += snprintf(text + n, sizeof(text) - (size_t) n, " 0");
	snprintf(text + n, sizeof(text) - (size_t) n, " %d 0 0\n", cpu);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	put(rel, text);
	snprintf(text, sizeof(text),
	         "Name:\t%s\nNStgid:\t%s\nNSpid:\t%s\nUid:\t7\t7\t7\t7\nGid:\t8\t8\t8\t8\n", comm,
	         nstgid, nspid);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, tid);
	put(rel, text);
	if (tid == pid) {
		snprintf(rel, sizeof(rel), "proc/%d/status", pid);
		put(rel, text);
	}
	static const char *const ns[] = {"pid", "user", "cgroup", "ipc", "mnt", "net", "uts"};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/ns/%s", pid, tid, ns[i]);
		put(rel, ""); /* no time: a kernel without time namespaces */
	}
}

static unsigned long inode_of(const char *rel)
{
	char path[600];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	return stat(path, &st) == 0 ? (unsigned long) st.st_ino : 0;
}

static void make_tree(void)
{
	thread(1, 1, "init (x)", 'S', 0, 0x400100, 0, "1", "1");
	link_to("proc/1/fd/0", "/dev/null");
	link_to("proc/1/fd/10", "socket:[123]");
	link_to("proc/1/fd/9", "/var/log/a log");
	put("proc/1/fdinfo/0", "pos:\t0\nflags:\t0100002\nmnt_id:\t20\n");
	put("proc/1/fdinfo/9", "pos:\t0\nflags:\t02102001\n");
	put("proc/1/fdinfo/10", "pos:\t0\nflags:\t0400000002\n"); /* FMODE_NONOTIFY: left out */
	thread(2, 2, "kthreadd", 'I', 0, 0x208040, 1, "2", "2");
	thread(30, 30, "irq/16-i801_smb", 'S', 2, 0x208040, 1, "30", "30");
	/* a container's process: two pid namespace levels; its second thread a zombie */
	thread(200, 200, "app", 'R', 1, 0x400000, 1, "200\t5", "200\t5");
	thread(200, 201, "app worker", 'Z', 1, 0x400000, 0, "201\t6", "200\t5");
	mkdir(strcat(strcpy((char[600]){0}, tmp), "/proc/200/fd"), 0755);
	put("proc/partitions", "major minor  #blocks  name\n\n   8        0   1000 sda\n"
	                       "   8        1    500 sda1\n 259        0   2000 nvme0n1\n");
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
	                    "model\t\t: 158\nmodel name\t: Intel(R) Core(TM) i7\nphysical id\t: 0\n"
	                    "core id\t\t: 0\ncpu cores\t: 2\n\nprocessor\t: 1\nvendor_id\t: "
	                    "GenuineIntel\ncpu family\t: 6\nmodel\t\t: 158\nmodel name\t: Intel(R) "
	                    "Core(TM) i7\nphysical id\t: 0\ncore id\t\t: 1\ncpu cores\t: 2\n");
	put("sys/kernel/irq/16/chip_name", "IO-APIC\n");
	put("sys/kernel/irq/16/actions", "i801_smbus\n");
	put("sys/kernel/irq/9/chip_name", "IO-APIC\n");
	put("sys/kernel/irq/9/actions", "acpi\n");
	put("sys/kernel/irq/1/chip_name", "\n");
	put("sys/kernel/irq/1/actions", "\n"); /* no action: no event */
	put("sys/kernel/irq/120/chip_name", "\n");
	put("sys/kernel/irq/120/actions", "eth0-rx,eth0-tx\n");
}

/* The dump of the tree at roots into DIR (metadata and one stream); threads dumped. */
static long write_dump(const char *dir, const struct sdl_roots *roots)
{
	struct kclasses cs;
	struct kevent_list none = {0};
	struct sdl_ids ids;
	struct rec_clock clock;
	struct kpacket p;
	char err[300] = "", path[600];
	uint8_t uuid[16] = {1, 2, 3};
	mkdir(dir, 0755);
	if (!CHECK(kclasses_build(NULL, &none, KLAYOUT_SPOOR, &cs, err, sizeof(err)) == 0))
		return -1;
	cs.context[0] = (struct spoor_field_desc){
	    .name = "common_pid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10};
	cs.ncontext = 1;
	CHECK(statedump_lttng_classes(&cs, &ids) == 0);
	rec_clock_calibrate(&clock);
	CHECK_CTX("%s", err);
	CHECK(kmeta_write(dir, NULL, &cs, uuid, &clock, NULL, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/statedump", dir);
	CHECK(kpacket_open(&p, path, uuid, 0, 0, 1 << 16) == 0);
	long n = statedump_lttng_write(&p, &cs, &ids, rec_clock_now(&clock), roots, NULL);
	CHECK(kpacket_close(&p) == 0);
	kclasses_free(&cs);
	return n;
}

/* babeltrace2's text of DIR, or NULL (the exit status must be 0). */
static char *bt2(const char *dir)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>&1", dir);
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 20, n = 0;
	char *out = calloc(1, cap + 1);
	while (f && out && n < cap) {
		size_t r = fread(out + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	int st = f ? pclose(f) : -1;
	CHECK_CTX("babeltrace2 %s: %s", dir, out ? out : "");
	if (!CHECK(st == 0)) {
		free(out);
		return NULL;
	}
	return out;
}

/* Each line of want appears in text, in this order. */
static void in_order(const char *text, const char *const *want, size_t n)
{
	const char *at = text;
	for (size_t i = 0; i < n && at; i++) {
		const char *hit = strstr(at, want[i]);
		CHECK_CTX("expected, in this order: %s", want[i]);
		if (CHECK(hit != NULL))
			at = hit + strlen(want[i]);
	}
}

static void from_tree(void)
{
	char dir[300], proc[300], sys[300], ns[10][160];
	snprintf(dir, sizeof(dir), "%s/trace", tmp);
	snprintf(proc, sizeof(proc), "%s/proc", tmp);
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	make_tree();
	struct sdl_roots roots = {proc, sys};
	CHECK_CTX("threads dumped");
	CHECK_EQ_S64(write_dump(dir, &roots), 5);
	char *out = bt2(dir);
	if (!out)
		return;
	snprintf(ns[0], sizeof(ns[0]), "ns_level = 0, ns_inum = %lu }",
	         inode_of("proc/1/task/1/ns/pid"));
	snprintf(ns[1], sizeof(ns[1]),
	         "{ tid = 1, vuid = 7, vgid = 8, ns_level = 0, ns_inum = %lu }",
	         inode_of("proc/1/task/1/ns/user"));
	snprintf(ns[2], sizeof(ns[2]), "{ tid = 1, ns_inum = %lu }",
	         inode_of("proc/1/task/1/ns/uts"));
	snprintf(ns[3], sizeof(ns[3]),
	         "{ tid = 200, vtid = 5, vpid = 5, vppid = 0, ns_level = 1, ns_inum = %lu }",
	         inode_of("proc/200/task/200/ns/pid"));
	const char *const want[] =
	{ "lttng_statedump_start: { cpu_id = 0 }, { common_pid = 0 }, { }",
	  /* pid 1: its state, namespaces, descriptors (in number order) */
	  "lttng_statedump_process_state: { cpu_id = 0 }, { common_pid = 1 }, { tid = 1, pid = 1, "
	  "ppid = 0, name = \"init (x)\", type = 0, mode = 5, submode = 0, status = 5, cpu = 0, "
	  "file_table_address = 0x1 }",
	  "lttng_statedump_process_pid_ns: { cpu_id = 0 }, { common_pid = 1 }, { tid = 1, vtid = "
	  "1, vpid = 1, vppid = 0, ",
	  ns[0],
	  ns[1],
	  "lttng_statedump_process_cgroup_ns",
	  "lttng_statedump_process_ipc_ns",
	  "lttng_statedump_process_mnt_ns",
	  "lttng_statedump_process_net_ns",
	  ns[2],
	  "lttng_statedump_file_descriptor: { cpu_id = 0 }, { common_pid = 1 }, { "
	  "file_table_address = 0x1, fd = 0, flags = 0100002, fmode = 0x3, filename = "
	  "\"/dev/null\", pid = 1 }",
	  "{ file_table_address = 0x1, fd = 9, flags = 02102001, fmode = 0x2, filename = "
	  "\"/var/log/a log\", pid = 1 }",
	  "{ file_table_address = 0x1, fd = 10, flags = 02, fmode = 0x3, filename = "
	  "\"socket:[123]\", pid = 1 }",
	  /* process 200: the deepest pid namespace first, then the initial one */
	  "{ tid = 200, pid = 200, ppid = 1, name = \"app\", type = 0, mode = 5, submode = 0, "
	  "status = 2, cpu = 1, file_table_address = 0xC8 }",
	  ns[3],
	  "{ tid = 200, vtid = 200, vpid = 200, vppid = 1, ns_level = 0, ",
	  "{ tid = 201, pid = 200, ppid = 1, name = \"app worker\", type = 0, mode = 5, submode = "
	  "0, status = 4, cpu = 0, file_table_address = 0x0 }",
	  "{ tid = 201, vtid = 6, vpid = 5, vppid = 0, ns_level = 1, ",
	  /* the machine's, in interrupt number order, one per action */
	  "lttng_statedump_interrupt: { cpu_id = 0 }, { common_pid = 0 }, { irq = 9, name = "
	  "\"IO-APIC\", action = \"acpi\", tid = 0 }",
	  "{ irq = 16, name = \"IO-APIC\", action = \"i801_smbus\", tid = 30 }",
	  "{ irq = 120, name = \"unnamed_irq_chip\", action = \"eth0-rx\", tid = 0 }",
	  "{ irq = 120, name = \"unnamed_irq_chip\", action = \"eth0-tx\", tid = 0 }",
	  "lttng_statedump_network_interface: { cpu_id = 0 }, { common_pid = 0 }, { name = \"lo\", "
	  "address_ipv4 = ",
	  "lttng_statedump_block_device: { cpu_id = 0 }, { common_pid = 0 }, { dev = 8388608, "
	  "diskname = \"sda\" }",
	  "{ dev = 8388609, diskname = \"sda1\" }",
	  "{ dev = 271581184, diskname = \"nvme0n1\" }",
#if defined(__x86_64__) || defined(__i386__)
	  "lttng_statedump_cpu_topology: { cpu_id = 0 }, { common_pid = 0 }, { architecture = "
	  "\"x86\", cpu_id = 0, vendor = \"GenuineIntel\", family = 6, model = 158, model_name = "
	  "\"Intel(R) Core(TM) i7\", physical_id = 0, core_id = 0, cores = 2 }",
	  "{ architecture = \"x86\", cpu_id = 1, vendor = \"GenuineIntel\", family = 6, model = "
	  "158, model_name = \"Intel(R) Core(TM) i7\", physical_id = 0, core_id = 1, cores = 2 }",
#endif
	  "lttng_statedump_end: { cpu_id = 0 }, { common_pid = 0 }, { }",
	};
	in_order(out, want, sizeof(want) / sizeof(want[0]));
	CHECK_CTX("kthreadd: a kernel thread, idle (waiting)");
	CHECK(strstr(out, "{ tid = 2, pid = 2, ppid = 0, name = \"kthreadd\", type = 1, mode = 5, "
	                  "submode = 0, status = 5, cpu = 1, file_table_address = 0x2 }") != NULL);
	CHECK_CTX("no time namespace where the kernel has none");
	CHECK(strstr(out, "time_ns") == NULL);
	free(out);
}

/* The machine's own: this process as it is, an open file, the devices. */
static void from_machine(void)
{
	char dir[300], want[300];
	snprintf(dir, sizeof(dir), "%s/machine", tmp);
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct sdl_roots roots = {"/proc", "/sys"};
	CHECK_CTX("the machine's threads");
	CHECK(write_dump(dir, &roots) > 0);
	char *out = bt2(dir);
	if (!out)
		return;
	snprintf(want, sizeof(want),
	         "{ tid = %d, pid = %d, ppid = %d, name = \"test-statedump\", type = 0, mode = 5, "
	         "submode = 0, status = 2, ",
	         getpid(), getpid(), getppid());
	CHECK_CTX("this process, running: %s", want);
	CHECK(strstr(out, want) != NULL);
	FILE *parts = fopen("/proc/partitions", "r");
	char text[300];
	int devices = 0, dumped = 0;
	while (parts && fgets(text, sizeof(text), parts))
		devices += text[0] == ' ';
	if (parts)
		fclose(parts);
	for (const char *s = out; (s = strstr(s, "lttng_statedump_block_device:")); s++)
		dumped++;
	CHECK_CTX("a block device event per line of /proc/partitions");
	CHECK_EQ_S64(dumped, devices);
	/* its flags: O_WRONLY and O_CLOEXEC, with O_LARGEFILE where the kernel adds it */
	char fd_is[40], pid_is[80];
	snprintf(fd_is, sizeof(fd_is), "fd = %d, flags = 0", fd);
	snprintf(pid_is, sizeof(pid_is), "filename = \"/dev/null\", pid = %d }", getpid());
	unsigned int flags = 0;
	bool found = false;
	for (char *line = strtok(out, "\n"); line && !found; line = strtok(NULL, "\n")) {
		const char *at = strstr(line, fd_is);
		found = at && strstr(line, pid_is) && strstr(line, "fmode = 0x2, ") &&
		        sscanf(at + strlen(fd_is) - 1, "%o", &flags) == 1;
	}
	CHECK_CTX("its descriptor: %s ... fmode = 0x2, %s", fd_is, pid_is);
	CHECK(found && (flags & ~0100000u) == (O_WRONLY | O_CLOEXEC));
	free(out);
	close(fd);

	/* spoor's reader: the dump's process_state names this process */
	struct spoor_reader *r = NULL;
	const char *paths[] = {dir};
	const struct spoor_event *ev;
	struct spoor_field f;
	int64_t v;
	bool self = false;
	CHECK_CTX("spoor's reader");
	if (!CHECK(spoor_reader_open(paths, 1, &r, NULL) == 0))
		return;
	while (spoor_reader_next(r, &ev) == 1)
		if (!strcmp(spoor_event_name(ev), "lttng_statedump_process_state") &&
		    spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "tid", &f) &&
		    spoor_field_int(&f, &v) && v == getpid())
			self = true;
	CHECK(self);
	spoor_reader_close(r);
}

int main(void)
{
	if (system("babeltrace2 --version >/dev/null 2>&1")) {
		printf("SKIP: no babeltrace2\n");
		return 77;
	}
	snprintf(tmp, sizeof(tmp), "/tmp/spoor-statedump-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	from_tree();
	from_machine();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (check_failed == 0 && system(cmd))
		printf("could not remove %s\n", tmp);
	return check_done();
}
