/* The program of tests/data/gen-tp/kinds.tp: its events through tracepoint(),
 * tracepoint_enabled() and do_tracepoint(), in both of LTTng-UST's APIs' names. */
#include <stddef.h>
#include <stdint.h>

#include "kinds.h"

int main(void)
{
	static const uint8_t bytes[] = {1, 2, 3, 250};
	static const int phases[] = {0, 1, 40, 41, 55, 60, 7};

	for (uint32_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		tracepoint(kinds, begin, i, phases[i], "worker");
		if (tracepoint_enabled(kinds, end))
			do_tracepoint(kinds, end, i, phases[i], "boss");
		lttng_ust_tracepoint(kinds, buffer, bytes, i % 5, 0.5 * i);
		if (lttng_ust_tracepoint_enabled(kinds, tick))
			lttng_ust_do_tracepoint(kinds, tick);
		tracepoint(kinds, tock);
	}
	return 0;
}
