/* SPDX-License-Identifier: MIT */
/* tp-fields.c: LTTng-UST's field macros and spoor's (tp-fields.h). */
#include "tp-fields.h"

#include <string.h>

static const struct tp_field_macro macros[] = {
    {"integer", TP_SHAPE_SCALAR, "spoor_field_int(T, N, E)"},
    {"integer_hex", TP_SHAPE_SCALAR, "spoor_field_hex(T, N, E)"},
    {"integer_network", TP_SHAPE_SCALAR, "spoor_field_network(T, N, E)"},
    {"integer_network_hex", TP_SHAPE_SCALAR, "spoor_field_network_hex(T, N, E)"},
    {"float", TP_SHAPE_SCALAR, "spoor_field_float(T, N, E)"},
    {"string", TP_SHAPE_STRING, "spoor_field_string(N, E)"},
    {"array", TP_SHAPE_ARRAY, "spoor_field_array(T, N, E, L)"},
    {"array_hex", TP_SHAPE_ARRAY, "spoor_field_array_hex(T, N, E, L)"},
    {"array_network", TP_SHAPE_ARRAY, "spoor_field_array_network(T, N, E, L)"},
    {"array_network_hex", TP_SHAPE_ARRAY, "spoor_field_array_network_hex(T, N, E, L)"},
    {"array_text", TP_SHAPE_ARRAY, "spoor_field_array_text_of(T, N, E, L)"},
    {"sequence", TP_SHAPE_SEQUENCE, "spoor_field_sequence_lt(T, N, E, Y, L)"},
    {"sequence_hex", TP_SHAPE_SEQUENCE, "spoor_field_sequence_lt_hex(T, N, E, Y, L)"},
    {"sequence_network", TP_SHAPE_SEQUENCE, "spoor_field_sequence_lt_network(T, N, E, Y, L)"},
    {"sequence_network_hex", TP_SHAPE_SEQUENCE,
     "spoor_field_sequence_lt_network_hex(T, N, E, Y, L)"},
    {"sequence_text", TP_SHAPE_SEQUENCE, "spoor_field_sequence_lt_text(N, E, Y, L)"},
    {"enum", TP_SHAPE_ENUM, "spoor_field_enum(T, N, E, P)"},
    {"unused", TP_SHAPE_UNUSED, NULL},
    {"integer_nowrite", TP_SHAPE_SCALAR, NULL},
    {"float_nowrite", TP_SHAPE_SCALAR, NULL},
    {"string_nowrite", TP_SHAPE_STRING, NULL},
    {"array_nowrite", TP_SHAPE_ARRAY, NULL},
    {"array_nowrite_hex", TP_SHAPE_ARRAY, NULL},
    {"array_network_nowrite", TP_SHAPE_ARRAY, NULL},
    {"array_network_nowrite_hex", TP_SHAPE_ARRAY, NULL},
    {"array_text_nowrite", TP_SHAPE_ARRAY, NULL},
    {"sequence_nowrite", TP_SHAPE_SEQUENCE, NULL},
    {"sequence_nowrite_hex", TP_SHAPE_SEQUENCE, NULL},
    {"sequence_network_nowrite", TP_SHAPE_SEQUENCE, NULL},
    {"sequence_network_nowrite_hex", TP_SHAPE_SEQUENCE, NULL},
    {"sequence_text_nowrite", TP_SHAPE_SEQUENCE, NULL},
    {"enum_nowrite", TP_SHAPE_ENUM, NULL},
    {"unused_nowrite", TP_SHAPE_UNUSED, NULL},
};

bool tp_field_suffix(const char *name, size_t len, const char **suffix, size_t *slen)
{
	static const char *const prefixes[] = {"ctf_", "lttng_ust_field_"};
	for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
		size_t pl = strlen(prefixes[p]);
		if (len > pl && !memcmp(name, prefixes[p], pl)) {
			*suffix = name + pl;
			*slen = len - pl;
			return true;
		}
	}
	return false;
}

const struct tp_field_macro *tp_field_macro(const char *name, size_t len)
{
	const char *s;
	size_t n;
	if (!tp_field_suffix(name, len, &s, &n))
		return NULL;
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++)
		if (strlen(macros[i].name) == n && !memcmp(macros[i].name, s, n))
			return &macros[i];
	return NULL;
}

unsigned tp_shape_nargs(unsigned shape)
{
	static const unsigned char nargs[] = {
	    [TP_SHAPE_SCALAR] = 3,   [TP_SHAPE_STRING] = 2, [TP_SHAPE_ARRAY] = 4,
	    [TP_SHAPE_SEQUENCE] = 5, [TP_SHAPE_ENUM] = 5,   [TP_SHAPE_UNUSED] = 1,
	};
	return shape < sizeof(nargs) ? nargs[shape] : 0;
}
