/* SPDX-License-Identifier: MIT */
/*
 * loadmap.h: the objects each traced process had loaded, at each moment, from LTTng-UST's
 * load map events (which spoor record --calls writes too): lttng_ust_statedump:bin_info and
 * build_id at the start, lttng_ust_dl:dlopen (dlmopen), build_id and dlclose as the
 * program runs. An address of a process then names its function: the object holding it,
 * that object's functions read from its file (lib/elf/elf-symtab.h, found by the path the
 * event gave, its build-id checked against the event's), the function holding the address.
 * A file that is missing, not ELF, of another build-id or stripped of its symbols leaves
 * names as OBJECT+0xOFFSET; an address in no object, as 0xADDRESS.
 *
 * A process is its trace and its vpid (LTTng's per-UID traces hold several). A trace
 * without load map events (LTTng's cyg-profile traces from before it) may be given nm's
 * output of its program instead (loadmap_add_nm): absolute addresses, for every process.
 */
#ifndef ANALYSIS_LOADMAP_H
#define ANALYSIS_LOADMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/trace.h"

struct loadmap;

/* debug_root: where separate debug files are looked for (elf-symtab.h; NULL: the
 * system's). NULL when out of memory. */
struct loadmap *loadmap_new(const struct spoor_reader *r, const char *debug_root);
void loadmap_free(struct loadmap *lm);

/* Whether the class is one of the load map's events (decided once per class). */
bool loadmap_reads(struct loadmap *lm, size_t class_index);
/* Learn from one of them (in time order: a name asked for a time before the last event
 * learnt holds the map of that time). 0 or -ENOMEM. */
int loadmap_update(struct loadmap *lm, const struct spoor_event *ev);

/* The process of any event: its trace and vpid context (0 without one). */
uint64_t loadmap_process(struct loadmap *lm, const struct spoor_event *ev);

/* The name of the code at addr in process proc at time ts (the map of that moment, so a
 * call printed after a later dlclose still has its name): "function" for any address
 * inside it (a -pg hook reports the address of its mcount call, a few bytes in), else as
 * above. Valid until the next loadmap call; NULL when
 * out of memory. Each (process, address) is resolved once while the map stays the same. */
const char *loadmap_name(struct loadmap *lm, uint64_t proc, uint64_t addr, int64_t ts);
/* The same name as a number that stays its own for the load map's life (the same text may
 * have several: one per process), -ENOMEM; and its text, valid as loadmap_name's. */
int64_t loadmap_name_id(struct loadmap *lm, uint64_t proc, uint64_t addr, int64_t ts);
const char *loadmap_name_text(const struct loadmap *lm, int64_t id);

/* nm's output (ADDRESS TYPE NAME lines; functions: types t, T, w, W, i) for addresses no
 * object of the load map holds. 0, or a negative code with a message in err. */
int loadmap_add_nm(struct loadmap *lm, const char *path, char *err, size_t errlen);

/* Objects whose file could not give names (missing, another build-id, not ELF): each said
 * once, through warn (a line each, without a newline). */
void loadmap_set_warn(struct loadmap *lm, void (*warn)(void *data, const char *msg), void *data);

#endif
