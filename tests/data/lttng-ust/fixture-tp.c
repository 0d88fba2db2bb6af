/* Tracepoint provider object for "spoor_fixture" (see fixture-tp.h). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "fixture-tp.h"
