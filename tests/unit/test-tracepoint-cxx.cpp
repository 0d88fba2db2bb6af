// SPDX-License-Identifier: MIT
// test-tracepoint-cxx.cpp: every field kind of the SPOOR_EVENT API compiles as C++17, and a
// probe sees the emitted payload.
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

#include <cstdio>
#include <cstring>
#include <string>

static const struct spoor_enum_entry modes[] = {{"OFF", 0, 0}, {"ON", 1, 1}};

/* clang-format off */
SPOOR_EVENT(cxx, every,
	    SPOOR_ARGS(int8_t a, uint64_t b, double c, const std::string &s, const uint16_t *arr,
		       uint32_t n, int mode, uint32_t net),
	    SPOOR_FIELDS(spoor_field_int(int8_t, a, a)
			 spoor_field_hex(uint64_t, b, b)
			 spoor_field_float(double, c, c)
			 spoor_field_string(s, s.c_str())
                         /* clang-format on */
                         spoor_field_array(uint16_t, arr, arr, 2)
                             spoor_field_sequence(uint16_t, seq, arr, n)
                                 spoor_field_array_text(txt, s.data(), 2)
                                     spoor_field_sequence_text(stxt, s.data(), s.size())
                                         spoor_field_enum(int32_t, mode, mode, modes)
                                             spoor_field_network(uint32_t, net, net)))

static size_t seen_size;
static void probe(void *, const struct spoor_event_desc *, const void *, size_t size)
{
	seen_size = size;
}

int main()
{
	uint16_t arr[2] = {1, 2};
	std::string s = "cpp";
	spoor_probe_register(spoor_event_desc(cxx, every), probe, nullptr);
	spoor_trace(cxx, every, 1, 2, 3.0, s, arr, 2, 1, 0);
	spoor_probe_unregister(spoor_event_desc(cxx, every), probe, nullptr);
	// packed: a@0 b@1 c@9 s@17 ("cpp\0") arr@21 seqlen@25 seq@29 txt@33 stxtlen@35 stxt@39
	// mode@42 net@46
	bool ok = seen_size == 50 && spoor_event_desc(cxx, every)->nfields == 10;
	std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
	return ok ? 0 : 1;
}
