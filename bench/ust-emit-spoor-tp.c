/* SPDX-License-Identifier: MIT */
/* ust-emit-spoor-tp.c: defines and registers the descriptors of ust-emit-spoor-tp.h. */
#define SPOOR_CREATE_PROBES
#include "ust-emit-spoor-tp.h"
