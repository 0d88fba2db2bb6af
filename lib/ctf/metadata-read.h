/* SPDX-License-Identifier: MIT */
/* metadata-read.h: a trace's metadata file to TSDL text, plain or packetized. */
#ifndef CTF_METADATA_READ_H
#define CTF_METADATA_READ_H

#include <stddef.h>

/* Read path's metadata into a malloc'd, NUL-terminated text. On failure returns a negative
 * code and writes a message naming the file and offset into err. */
int ctf_metadata_read(const char *path, char **text, size_t *len, char *err, size_t errlen);
/* The same from bytes in memory (used by the fuzzers). */
int ctf_metadata_decode(const unsigned char *data, size_t size, char **text, size_t *len, char *err,
                        size_t errlen);

#endif
