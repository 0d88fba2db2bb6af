/*
 * tracef() and tracelog() under the names before LTTng-UST 2.13 (the default
 * LTTNG_UST_COMPAT_API_VERSION keeps them). LTTng-UST 2.13's tracelog() pastes its level
 * into a name, so it takes LTTNG_UST_TRACEPOINT_LOGLEVEL_* and not TRACE_*.
 */
#include <lttng/tracef.h>
#include <lttng/tracelog.h>

void old_names(unsigned i);

void old_names(unsigned i)
{
	tracef("old tracef %u", i);
	tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "old tracelog %u", i);
}
