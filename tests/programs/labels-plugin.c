/* SPDX-License-Identifier: MIT */
/*
 * labels-plugin.c: a plug-in for tests/cli/plugin.sh that prints, for each event whose name
 * matches SPOOR_LABELS_EVENTS, the labels of the payload fields named in SPOOR_LABELS_FIELDS
 * (comma-separated), one `field=LABEL,LABEL` line each, through the host's field() and
 * field_label().
 */
#include <spoor/plugin.h>
#include <stdlib.h>
#include <string.h>

struct state {
	struct spoor_plugin_host *host;
	char *fields; /* a copy of SPOOR_LABELS_FIELDS */
};

static void on_event(void *data, const struct spoor_plugin_event *e)
{
	struct state *s = data;
	const char *at = s->fields;
	while (*at) {
		size_t n = strcspn(at, ",");
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int) n, at);
		at += n + (at[n] == ',');
		struct spoor_field f;
		if (!s->host->field(e->event, SPOOR_SCOPE_PAYLOAD, name, &f))
			continue;
		printf("%s=", name);
		const char *label;
		for (uint32_t i = 0; (label = s->host->field_label(&f, i)); i++)
			printf("%s%s", i ? "," : "", label);
		printf("\n");
	}
}

static void *init(struct spoor_plugin_host *h)
{
	const char *events = getenv("SPOOR_LABELS_EVENTS"), *fields = getenv("SPOOR_LABELS_FIELDS");
	struct state *s = calloc(1, sizeof(*s));
	if (!s || !events || !fields || h->size < sizeof(*h) || !(s->fields = strdup(fields))) {
		free(s);
		return NULL;
	}
	s->host = h;
	if (h->on_name(h, events, on_event, s)) {
		free(s->fields);
		free(s);
		return NULL;
	}
	return s;
}

static int report(void *data, struct spoor_plugin_host *h, FILE *out, bool json)
{
	(void) data, (void) h, (void) out, (void) json;
	return 0;
}

static void fini(void *data)
{
	struct state *s = data;
	free(s->fields);
	free(s);
}

SPOOR_PLUGIN_EXPORT const struct spoor_plugin spoor_plugin = {
    .size = sizeof(struct spoor_plugin),
    .abi = SPOOR_PLUGIN_ABI,
    .name = "labels",
    .summary = "enum labels of chosen fields (a test)",
    .init = init,
    .report = report,
    .fini = fini,
};
