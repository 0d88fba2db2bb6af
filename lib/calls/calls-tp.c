/* SPDX-License-Identifier: MIT */
/* calls-tp.c: the descriptors of calls-tp.h's events, registered when the library loads. */
#define SPOOR_CREATE_PROBES
#include "calls-tp.h"
