/* SPDX-License-Identifier: MIT */
/*
 * elf-events.h: the user-space events an executable or shared library declares with
 * SPOOR_EVENT (tracepoint.h), read from its spoor_events section without running it.
 */
#ifndef ELF_ELF_EVENTS_H
#define ELF_ELF_EVENTS_H

#include <stddef.h>

#include "spoor/tracepoint-types.h"

struct elf_events {
	/* In section order. Each descriptor, its fields (nfields + 1, the last all zero, as
	 * SPOOR_EVENT lays them out), their names and enum entries are malloc'd and owned by
	 * this struct: elf_events_free frees them. id is 0, enabled 0, probes NULL. */
	struct spoor_event_desc **evs;
	size_t n;
	char err[512]; /* why the last call failed */
};

/*
 * Read the events of the ELF file at path (mapped while reading), or of the file bytes
 * data[0, size) (only read). 0 with ev->n events (0 when the file has no spoor_events
 * section, or an empty one), or a negative code (-errno, -ENOEXEC for a malformed file,
 * -SPOOR_E*) with a message in ev->err and no events. ev needs no initialisation; free it
 * with elf_events_free in both cases.
 */
int elf_events_read_file(struct elf_events *ev, const char *path);
int elf_events_read(struct elf_events *ev, const unsigned char *data, size_t size);
void elf_events_free(struct elf_events *ev);

/* Free one descriptor as elf_events gives them (NULL: nothing), e.g. after taking it out of
 * ev->evs. */
void elf_event_free(struct spoor_event_desc *d);

#endif
