/* SPDX-License-Identifier: MIT */
/*
 * metadata-read.c: CTF 1.8 section 7.1: metadata is either plain TSDL text or a sequence
 * of metadata packets (magic 0x75D11D57, header of 37 bytes, then text), as LTTng writes it.
 * The packet header's byte order is found from the magic.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metadata-read.h"
#include "spoor/spoor.h"
#include "tsdl-parse.h"
#include "util/mapfile.h"

#define META_MAGIC      0x75D11D57u
#define META_HEADER_LEN 37

static uint32_t load32(const unsigned char *p, int be)
{
	return be ? (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3]
	          : (uint32_t) p[3] << 24 | (uint32_t) p[2] << 16 | (uint32_t) p[1] << 8 | p[0];
}

static int packetized(const unsigned char *data, size_t size, char **text, size_t *len, char *err,
                      size_t errlen)
{
	int be = load32(data, 1) == META_MAGIC;
	size_t off = 0, n = 0;
	char *out = malloc(size + 1);

	if (!out)
		return -ENOMEM;
	while (off < size) {
		if (size - off < META_HEADER_LEN) {
			snprintf(
			    err, errlen,
			    "offset %zu: the metadata ends early, inside a packet header (%zu of "
			    "its %d bytes are there)",
			    off, size - off, META_HEADER_LEN);
			goto bad;
		}
		const unsigned char *h = data + off;
		if (load32(h, be) != META_MAGIC) {
			snprintf(err, errlen, "offset %zu: bad metadata packet magic 0x%08x", off,
			         load32(h, be));
			goto bad;
		}
		uint32_t content = load32(h + 24, be), packet = load32(h + 28, be);
		if (h[32] || h[33] || h[34]) {
			snprintf(err, errlen,
			         "offset %zu: compressed, encrypted or checksummed "
			         "metadata is not supported",
			         off);
			free(out);
			return -SPOOR_EUNSUPPORTED;
		}
		if (content % 8 || packet % 8 || content > packet ||
		    content < META_HEADER_LEN * 8) {
			snprintf(
			    err, errlen,
			    "offset %zu: metadata packet sizes out of bounds (content %u bits, "
			    "packet %u bits, %zu bytes left)",
			    off, content, packet, size - off);
			goto bad;
		}
		if (packet / 8 > size - off) {
			snprintf(
			    err, errlen,
			    "offset %zu: the metadata ends early, inside a packet (%zu of its %u "
			    "bytes are there)",
			    off, size - off, packet / 8);
			goto bad;
		}
		size_t body = content / 8 - META_HEADER_LEN;
		memcpy(out + n, h + META_HEADER_LEN, body);
		n += body;
		off += packet / 8;
	}
	out[n] = '\0';
	*text = out;
	*len = n;
	return 0;
bad:
	free(out);
	return -SPOOR_EMETA_PACKET;
}

int ctf_metadata_decode(const unsigned char *data, size_t size, char **text, size_t *len, char *err,
                        size_t errlen)
{
	if (size > TSDL_MAX_TEXT) {
		snprintf(err, errlen, "metadata larger than %u bytes", TSDL_MAX_TEXT);
		return -SPOOR_ELIMIT;
	}
	if (size >= 4 && (load32(data, 0) == META_MAGIC || load32(data, 1) == META_MAGIC))
		return packetized(data, size, text, len, err, errlen);
	char *out = malloc(size + 1);
	if (!out)
		return -ENOMEM;
	memcpy(out, data, size);
	out[size] = '\0';
	*text = out;
	*len = size;
	return 0;
}

int ctf_metadata_read(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct mapfile mf;
	int rc = mapfile_open(&mf, path);

	if (rc) {
		snprintf(err, errlen, "%s: %s", path, spoor_strerror(rc));
		return rc;
	}
	char detail[256] = "";
	rc = ctf_metadata_decode(mf.data, mf.size, text, len, detail, sizeof(detail));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, detail[0] ? detail : spoor_strerror(rc));
	mapfile_close(&mf);
	return rc;
}
