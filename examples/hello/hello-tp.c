/* SPDX-License-Identifier: MIT */
/* hello-tp.c: the one file that defines the hello events' descriptors and registers them. */
#define SPOOR_CREATE_PROBES
#include "hello-tp.h"
