/* SPDX-License-Identifier: MIT */
/*
 * many-events.c: 64 events whose descriptions, each with an enum of 90 long labels, take
 * more than one protocol message (PROTO_MAX_MSG, 256 KiB) together; each is emitted once,
 * with its number as the value.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

/* macro lists, which clang-format would fold into the code after them */
/* clang-format off */
#define E(n) {"a_label_long_enough_that_the_descriptions_outgrow_one_message_" #n, n, n},
#define L10(d) E(d##0) E(d##1) E(d##2) E(d##3) E(d##4) E(d##5) E(d##6) E(d##7) E(d##8) E(d##9)
static const struct spoor_enum_entry labels[] = {L10(1) L10(2) L10(3) L10(4) L10(5) L10(6) L10(7)
                                                     L10(8) L10(9)};

#define EV(n) SPOOR_EVENT(many, e##n, SPOOR_ARGS(int v), SPOOR_FIELDS(spoor_field_enum(int, v, v, labels)))
#define EV8(d) EV(d##0) EV(d##1) EV(d##2) EV(d##3) EV(d##4) EV(d##5) EV(d##6) EV(d##7)
EV8(1) EV8(2) EV8(3) EV8(4) EV8(5) EV8(6) EV8(7) EV8(8)
#define T(n) spoor_trace(many, e##n, n);
#define T8(d) T(d##0) T(d##1) T(d##2) T(d##3) T(d##4) T(d##5) T(d##6) T(d##7)

int main(void)
{
	T8(1) T8(2) T8(3) T8(4) T8(5) T8(6) T8(7) T8(8)
	return 0;
}
