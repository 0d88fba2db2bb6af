/* SPDX-License-Identifier: MIT */
/* daemons.c: registration with the session daemons (to come). */
#include "session.h"

void ust_daemons_start(void)
{
}

void ust_daemons_forget(void)
{
}
