/* SPDX-License-Identifier: MIT */
/* list-kernel.c: `spoor list -k`: the kernel's tracepoints, from tracefs (and with -v their
 * fields, from the format files libtraceevent parses). */
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <traceevent/event-parse.h>

#include "kernel/instance.h"
#include "kernel/select.h"
#include "kernel/upaths.h"
#include "list-kernel.h"

static void print_fields(struct tep_handle *tep, const struct kevent_ref *r, FILE *out)
{
	struct tep_event *ev = tep ? tep_find_event_by_name(tep, r->system, r->name) : NULL;
	if (!ev) {
		fprintf(out, "    (no format)\n");
		return;
	}
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		bool dyn = (f->flags & TEP_FIELD_IS_DYNAMIC) != 0;
		/* libtraceevent keeps the format's "__data_loc" (or "__rel_loc") in the type */
		bool said =
		    !strncmp(f->type, "__data_loc", 10) || !strncmp(f->type, "__rel_loc", 9);
		fprintf(out, "    %s%s %s", dyn && !said ? "__data_loc " : "", f->type, f->name);
		if (dyn)
			fprintf(out, " (variable length)\n");
		else
			fprintf(out, " (%d byte%s%s)\n", f->size, f->size == 1 ? "" : "s",
			        f->flags & TEP_FIELD_IS_SIGNED ? ", signed" : "");
	}
}

int list_kernel(bool verbose, FILE *out)
{
	char root[512], err[512];
	struct kevent_list all = {0};

	if (kinstance_find_tracefs(root, sizeof(root), err, sizeof(err))) {
		fprintf(stderr, "spoor list: %s\n", err);
		return 1;
	}
	if (kevents_all(root, &all) || !all.n) {
		fprintf(stderr, "spoor list: cannot list the kernel's events under %s/events\n",
		        root);
		kevents_free(&all);
		return 1;
	}
	struct tep_handle *tep = verbose ? tracefs_local_events(root) : NULL;
	for (size_t i = 0; i < all.n; i++) {
		fprintf(out, "%s:%s\n", all.v[i].system, all.v[i].name);
		if (verbose)
			print_fields(tep, &all.v[i], out);
	}
	/* not tracefs's: uprobes spoor makes on demand (lib/kernel/upaths.h) */
	for (const char *const *f = upaths_functions; *f; f++)
		fprintf(out, "%s:%s%s\n", UPATHS_SYSTEM, *f,
		        verbose ? " (uprobe on the C library's function: its path arguments "
		                  "as strings)"
		                : "");
	if (tep)
		tep_free(tep);
	kevents_free(&all);
	return 0;
}
