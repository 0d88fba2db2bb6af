/* SPDX-License-Identifier: MIT */
/*
 * spoor.h: version, error codes and their messages, shared by every part of libspoor.
 *
 * Fallible calls return 0 (or a positive count) on success and a negative code on failure:
 * either -errno or one of the SPOOR_E* codes below. spoor_strerror() names both kinds.
 */
#ifndef SPOOR_SPOOR_H
#define SPOOR_SPOOR_H

#ifdef __cplusplus
extern "C" {
#endif

#define SPOOR_VERSION_MAJOR 0
#define SPOOR_VERSION_MINOR 1
#define SPOOR_VERSION_PATCH 0
#define SPOOR_VERSION       "0.1.0"

#if defined(__GNUC__)
#define SPOOR_API __attribute__((visibility("default")))
#else
#define SPOOR_API
#endif

/*
 * One table for the codes and their messages, expanded twice so the two cannot drift.
 * Codes start at 1000 to stay clear of errno values.
 */
#define SPOOR_ERRORS                                                                               \
	_SPOOR_ERR(SPOOR_ENOTTRACE, "not a CTF trace (no metadata file)")                          \
	_SPOOR_ERR(SPOOR_EMETA_SYNTAX, "syntax error in the trace metadata")                       \
	_SPOOR_ERR(SPOOR_EMETA_SEMANTIC, "invalid trace metadata")                                 \
	_SPOOR_ERR(SPOOR_EMETA_PACKET, "corrupt metadata packet")                                  \
	_SPOOR_ERR(SPOOR_EUNSUPPORTED, "unsupported trace feature")                                \
	_SPOOR_ERR(SPOOR_EMAGIC, "bad packet magic number")                                        \
	_SPOOR_ERR(SPOOR_EPACKET, "corrupt packet header or context")                              \
	_SPOOR_ERR(SPOOR_ETRUNCATED, "truncated stream data")                                      \
	_SPOOR_ERR(SPOOR_EDECODE, "corrupt event data")                                            \
	_SPOOR_ERR(SPOOR_ELIMIT, "input exceeds a reader limit")                                   \
	_SPOOR_ERR(SPOOR_ENOSTREAM, "stream references an undeclared stream class")                \
	_SPOOR_ERR(SPOOR_ENOEVENT, "event references an undeclared event class")                   \
	_SPOOR_ERR(SPOOR_EEMPTY, "no trace found")                                                 \
	_SPOOR_ERR(SPOOR_EUSAGE, "invalid argument")                                               \
	_SPOOR_ERR(SPOOR_ECHANGED, "the trace changed since it was opened: open it again")

enum spoor_error {
	SPOOR_EBASE = 999,
#define _SPOOR_ERR(code, msg) code,
	SPOOR_ERRORS
#undef _SPOOR_ERR
	    SPOOR_ELAST
};

/* The message for a negative return code (-errno or -SPOOR_E*). Never NULL. */
SPOOR_API const char *spoor_strerror(int negative_code);

/* The library's version string, for checks against SPOOR_VERSION. */
SPOOR_API const char *spoor_version(void);

#ifdef __cplusplus
}
#endif
#endif
