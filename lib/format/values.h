/* SPDX-License-Identifier: MIT */
/* values.h: babeltrace2-compatible printing of decoded values. */
#ifndef FORMAT_VALUES_H
#define FORMAT_VALUES_H

#include <stdbool.h>
#include <string.h>

#include "ctf/decode.h"
#include "ctf/types.h"
#include "util/outbuf.h"

/* Would babeltrace2 show this type / this struct member / this scope at all? */
bool fmt_type_shown(const struct ctf_type *t, int depth);
bool fmt_member_shown(const struct ctf_type *st, unsigned i, bool packet_context_root);
bool fmt_scope_shown(const struct ctf_type *st, bool packet_context_root);
/* A quoted string with babeltrace2's escapes. */
int fmt_string(struct outbuf *o, const char *s, size_t n);
int fmt_value(struct outbuf *o, const struct ctf_type *t, const struct val_table *tab, uint32_t vi,
              int depth);
int fmt_struct(struct outbuf *o, const struct ctf_type *t, const struct val_table *tab, uint32_t vi,
               bool packet_context_root, int depth);

#endif
