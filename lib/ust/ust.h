/* SPDX-License-Identifier: MIT */
/* ust.h: state shared by the files of the in-process tracer runtime (libspoor-ust). */
#ifndef UST_UST_H
#define UST_UST_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/tracepoint.h"

struct ust_state {
	int sock, efd;
	bool connected;
	int pid;
	unsigned generation; /* bumped in a forked child: thread buffers of the parent are stale */
	uint32_t clock_kind, mode, num_subbufs;
	uint64_t subbuf_size;
	uint8_t uuid[16];
	char patterns[1024];
	volatile int paused; /* spoor_tracing_off() */
};

extern struct ust_state ust;

int ust_send_buffer(int memfd, int tid, uint64_t size);
void ust_call_probes(const struct spoor_event_desc *ev, const void *payload, size_t size);

#endif
