/* SPDX-License-Identifier: MIT */
/*
 * ksynth.h: one event of a class spoor writes itself (a state dump's), from values, in the
 * kernel streams' layout (kclass.h): the event context (common_pid, or the LTTng layout's
 * tid: the task it is about, the other members 0), then the payload packed, field by field as
 * its class declares:
 *   SPOOR_FK_INT   the value's low `size` bytes (a big_endian field: given in network order)
 *   text ARRAY     the string, cut to `length` - 1 bytes (a task's comm: the kernel's 15
 *                  and its NUL; /proc says more of a kworker's) and padded with NULs
 *   SPOOR_FK_STRING the string and its NUL
 *   SPOOR_FK_SEQUENCE of integers: the count in length_size bytes (0: 4), then the elements
 *                  (given in the field's size each, little-endian)
 * Other kinds are not written (-1).
 */
#ifndef KERNEL_KSYNTH_H
#define KERNEL_KSYNTH_H

#include <stdint.h>

#include "kclass.h"
#include "kpacket.h"

union ksynth_val {
	int64_t i;
	const char *s; /* NULL: "" */
	struct {
		const void *v;
		uint32_t n;
	} seq;
};

/* Event `id` of cs (its values in field order) at ts. 0, or -1 (not written). */
int ksynth_emit(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts, int32_t tid,
                const union ksynth_val *v);

#endif
