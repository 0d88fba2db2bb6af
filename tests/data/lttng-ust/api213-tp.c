/* Tracepoint provider object for "api213" (see api213-tp.h), in 2.13's names. */
#define LTTNG_UST_COMPAT_API_VERSION 1
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "api213-tp.h"
