/* SPDX-License-Identifier: MIT */
/* hello-tp.h: the events of the hello example, declared once. */
/* Event declarations are laid out by hand. */
/* clang-format off */
#ifndef HELLO_TP_H
#define HELLO_TP_H

#include <spoor/tracepoint.h>

static const struct spoor_enum_entry hello_state_entries[] = {
	{"IDLE", 0, 0},
	{"BUSY", 1, 1},
	{"DONE", 2, 9},
};

/* A request: the classic shape, an fd, a path and a length. */
SPOOR_EVENT(hello, request,
	    SPOOR_ARGS(int fd, const char *path, size_t len),
	    SPOOR_FIELDS(spoor_field_int(int32_t, fd, fd)
			 spoor_field_string(path, path)
			 spoor_field_hex(uint64_t, len, len)))

/* Two 64-bit integers: the benchmark's smallest event. */
SPOOR_EVENT(hello, tick,
	    SPOOR_ARGS(uint64_t a, uint64_t b),
	    SPOOR_FIELDS(spoor_field_int(uint64_t, a, a)
			 spoor_field_int(uint64_t, b, b)))

/* Every other kind of field. */
SPOOR_EVENT(hello, sample,
	    SPOOR_ARGS(int worker, double load, const uint16_t *hist, uint32_t nhist,
		       const char *tag, int state),
	    SPOOR_FIELDS(spoor_field_int(int8_t, worker, worker)
			 spoor_field_float(double, load, load)
			 spoor_field_array(uint16_t, first, hist, 2)
			 spoor_field_sequence(uint16_t, hist, hist, nhist)
			 spoor_field_array_text(tag, tag, 4)
			 spoor_field_sequence_text(label, tag, strlen(tag))
			 spoor_field_enum(int32_t, state, state, hello_state_entries)))

#endif
/* clang-format on */
