/* SPDX-License-Identifier: MIT */
/* errors.c: messages for spoor's error codes, expanded from the one table in spoor.h. */
#include <string.h>

#include "spoor/spoor.h"

static const char *const error_messages[] = {
#define _SPOOR_ERR(code, msg) [code - SPOOR_EBASE - 1] = msg,
    SPOOR_ERRORS
#undef _SPOOR_ERR
};

const char *spoor_strerror(int negative_code)
{
	int code = -negative_code;

	if (code > SPOOR_EBASE && code < SPOOR_ELAST)
		return error_messages[code - SPOOR_EBASE - 1];
	if (code > 0)
		return strerror(code);
	return code == 0 ? "success" : "unknown error";
}

const char *spoor_version(void)
{
	return SPOOR_VERSION;
}
