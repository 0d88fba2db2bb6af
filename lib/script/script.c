/* SPDX-License-Identifier: MIT */
/* script.c: Lua handlers on the analysis engine (see script.h). */
#include <errno.h>
#include <fnmatch.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "script.h"
#include "util/outbuf.h"

#define EVENT_MT "spoor.event"

struct class_handlers {
	int *refs; /* Lua registry references of the handler functions */
	size_t n;
};

struct script {
	lua_State *L;
	struct an_engine *e;
	struct class_handlers *classes;
	size_t nclasses;
	const struct an_event *cur; /* the event being handled */
	int event_ref;              /* the one event object handlers get */
	int64_t first_ts;
	bool have_first;
	char error[1024];
	unsigned long long calls;
	bool stopped;    /* spoor.stop() */
	script_snapshot_fn *snapshot; /* spoor.snapshot(NAME): the host's, or none */
	void *snapshot_arg;
	int defined_ref; /* the global functions the script itself defines: name -> true */
};

static struct script *self(lua_State *L)
{
	return *(struct script **) lua_touserdata(L, lua_upvalueindex(1));
}

/* ---- values ---- */

static void push_field(lua_State *L, const struct spoor_field *f, int depth)
{
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED: lua_pushnumber(L, (lua_Number) f->v.s); return;
	case SPOOR_FIELD_UNSIGNED: lua_pushnumber(L, (lua_Number) f->v.u); return;
	case SPOOR_FIELD_FLOAT: lua_pushnumber(L, f->v.f); return;
	case SPOOR_FIELD_STRING: {
		const char *nul = memchr(f->v.str.ptr, '\0', f->v.str.len);
		lua_pushlstring(L, f->v.str.ptr,
		                nul ? (size_t) (nul - f->v.str.ptr) : f->v.str.len);
		return;
	}
	case SPOOR_FIELD_STRUCT:
	case SPOOR_FIELD_ARRAY:
	case SPOOR_FIELD_VARIANT:
		if (depth > 16) {
			lua_pushnil(L);
			return;
		}
		lua_createtable(L, (int) f->count, 0);
		for (uint32_t i = 0; i < f->count; i++) {
			struct spoor_field c;
			if (!spoor_field_child(f, i, &c))
				break;
			if (f->kind == SPOOR_FIELD_STRUCT && c.name)
				lua_pushstring(L, c.name);
			else
				lua_pushinteger(L, (lua_Integer) i + 1);
			push_field(L, &c, depth + 1);
			lua_settable(L, -3);
		}
		return;
	default: lua_pushnil(L); return;
	}
}

static const enum spoor_scope field_scopes[] = {SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_EVENT_CONTEXT,
                                                SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
                                                SPOOR_SCOPE_PACKET_CONTEXT};

/* The event's field KEY: payload first, then the contexts. */
static bool named_field(const struct an_event *a, const char *key, struct spoor_field *f)
{
	for (int i = 0; i < 4; i++)
		if (spoor_event_field(a->ev, field_scopes[i], key, f))
			return true;
	return false;
}

/* That field's value; nil when it has none. */
static int push_named_field(lua_State *L, const struct an_event *a, const char *key)
{
	struct spoor_field f;
	if (named_field(a, key, &f))
		push_field(L, &f, 0);
	else
		lua_pushnil(L);
	return 1;
}

/* e:field(NAME): a field even where a context name (pid, comm...) would shadow it. */
static int event_field(lua_State *L)
{
	struct script *s = self(L);
	const char *key = luaL_checkstring(L, 2);
	if (!s->cur)
		return luaL_error(L, "an event is only valid inside its handler");
	return push_named_field(L, s->cur, key);
}

/* e:labels(NAME): an enumeration field's labels, every one whose ranges hold its value, in
 * the order of their first declaration (babeltrace2's); {} for none, nil without the field. */
static int event_labels(lua_State *L)
{
	struct script *s = self(L);
	const char *key = luaL_checkstring(L, 2);
	struct spoor_field f;
	if (!s->cur)
		return luaL_error(L, "an event is only valid inside its handler");
	if (!named_field(s->cur, key, &f)) {
		lua_pushnil(L);
		return 1;
	}
	lua_newtable(L);
	const char *label;
	for (uint32_t i = 0; (label = spoor_field_label(&f, i)); i++) {
		lua_pushstring(L, label);
		lua_rawseti(L, -2, (int) i + 1);
	}
	return 1;
}

/* e.KEY: the context first (a few fixed names), then the event's fields. */
static int event_index(lua_State *L)
{
	struct script *s = self(L);
	const struct an_event *a = s->cur;
	size_t len;
	const char *key = luaL_checklstring(L, 2, &len);
	if (!a)
		return luaL_error(L, "an event is only valid inside its handler");
	switch (key[0]) {
	case 'n':
		if (!strcmp(key, "name")) {
			lua_pushstring(L, spoor_event_name(a->ev));
			return 1;
		}
		break;
	case 't':
		if (!strcmp(key, "ts")) {
			lua_pushnumber(L, (lua_Number) (a->ts - s->first_ts));
			return 1;
		}
		if (!strcmp(key, "tid")) {
			lua_pushnumber(L, (lua_Number) a->tid);
			return 1;
		}
		if (!strcmp(key, "time")) {
			lua_pushnumber(L, (lua_Number) a->ts / 1e9);
			return 1;
		}
		break;
	case 'c':
		if (!strcmp(key, "cpu")) {
			lua_pushnumber(L, (lua_Number) a->cpu);
			return 1;
		}
		if (!strcmp(key, "comm")) {
			const char *comm = an_task_comm(s->e, a->tid);
			if (comm)
				lua_pushstring(L, comm);
			else
				lua_pushnil(L);
			return 1;
		}
		break;
	case 'f':
		if (!strcmp(key, "field")) {
			lua_pushvalue(L, lua_upvalueindex(2));
			return 1;
		}
		break;
	case 'l':
		if (!strcmp(key, "labels")) {
			lua_pushvalue(L, lua_upvalueindex(3));
			return 1;
		}
		break;
	case 'p':
		if (!strcmp(key, "pid")) {
			lua_pushnumber(L, (lua_Number) an_task_pid(s->e, a->tid));
			return 1;
		}
		break;
	}
	return push_named_field(L, a, key);
}

/* ---- the spoor table and on() ---- */

static int l_stop(lua_State *L)
{
	struct script *s = self(L);
	s->stopped = true;
	if (s->e)
		an_engine_stop(s->e);
	return 0;
}

/* spoor.snapshot(NAME): session NAME's flight recorder written out now, by the host (spoor
 * watch asks the session daemon). Returns the host's report, or nil and why. */
static int l_snapshot(lua_State *L)
{
	struct script *s = self(L);
	const char *name = luaL_checkstring(L, 1);
	char text[1024];
	if (!s->snapshot) {
		lua_pushnil(L);
		lua_pushstring(L, "spoor.snapshot works in spoor watch only");
		return 2;
	}
	if (s->snapshot(s->snapshot_arg, name, text, sizeof(text))) {
		lua_pushnil(L);
		lua_pushstring(L, text);
		return 2;
	}
	lua_pushstring(L, text);
	return 1;
}

void script_on_snapshot(struct script *s, script_snapshot_fn *fn, void *arg)
{
	s->snapshot = fn;
	s->snapshot_arg = arg;
}

static int l_comm(lua_State *L)
{
	struct script *s = self(L);
	const char *comm = s->e ? an_task_comm(s->e, (int64_t) luaL_checknumber(L, 1)) : NULL;
	if (comm)
		lua_pushstring(L, comm);
	else
		lua_pushnil(L);
	return 1;
}

/* spoor.pid(tid): the thread's process as the trace tells it so far (the tid itself when
 * it has not said). */
static int l_pid(lua_State *L)
{
	struct script *s = self(L);
	int64_t tid = (int64_t) luaL_checknumber(L, 1);
	lua_pushnumber(L, (lua_Number) (s->e ? an_task_pid(s->e, tid) : tid));
	return 1;
}

/* spoor.now(): the wall clock in seconds, to compare with e.time (latency, live). */
static int l_now(lua_State *L)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	lua_pushnumber(L, (lua_Number) t.tv_sec + (lua_Number) t.tv_nsec / 1e9);
	return 1;
}

/* on(PATTERN, FN): kept in the registry table spoor_on, matched to classes after load. */
static int l_on(lua_State *L)
{
	luaL_checkstring(L, 1);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_getfield(L, LUA_REGISTRYINDEX, "spoor_on");
	size_t n = lua_objlen(L, -1);
	lua_createtable(L, 2, 0);
	lua_pushvalue(L, 1);
	lua_rawseti(L, -2, 1);
	lua_pushvalue(L, 2);
	lua_rawseti(L, -2, 2);
	lua_rawseti(L, -2, (int) n + 1);
	return 0;
}

static void add_closure(lua_State *L, struct script *s, const char *name, lua_CFunction fn)
{
	struct script **box = lua_newuserdata(L, sizeof(*box));
	*box = s;
	lua_pushcclosure(L, fn, 1);
	lua_setfield(L, -2, name);
}

static void open_api(struct script *s)
{
	lua_State *L = s->L;
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, "spoor_on");
	lua_pushcfunction(L, l_on);
	lua_setglobal(L, "on");
	lua_newtable(L);
	add_closure(L, s, "stop", l_stop);
	add_closure(L, s, "comm", l_comm);
	add_closure(L, s, "snapshot", l_snapshot);
	add_closure(L, s, "pid", l_pid);
	lua_pushcfunction(L, l_now);
	lua_setfield(L, -2, "now");
	lua_setglobal(L, "spoor");
	/* the one event object, its fields read through __index */
	lua_newuserdata(L, 1);
	luaL_newmetatable(L, EVENT_MT);
	struct script **box = lua_newuserdata(L, sizeof(*box));
	*box = s;
	lua_pushvalue(L, -1);
	lua_pushcclosure(L, event_field, 1);
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, event_labels, 1);
	lua_pushcclosure(L, event_index, 3); /* upvalues: the script, e:field, e:labels */
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	s->event_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* ---- calling handlers ---- */

static int traceback(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	lua_pushstring(L, msg ? msg : "(error object is not a string)");
	return 1;
}

/* Call the function on the stack with nargs arguments; false with s->error set on failure. */
static bool call(struct script *s, int nargs, const char *what)
{
	lua_State *L = s->L;
	int base = lua_gettop(L) - nargs;
	lua_pushcfunction(L, traceback);
	lua_insert(L, base);
	int rc = lua_pcall(L, nargs, 0, base);
	if (rc) {
		snprintf(s->error, sizeof(s->error), "%s%s%s", lua_tostring(L, -1), what ? " " : "",
		         what ? what : "");
		lua_pop(L, 1);
	}
	lua_remove(L, base);
	return rc == 0;
}

static void on_event(void *data, const struct an_event *a)
{
	struct script *s = data;
	size_t c = spoor_event_class_index(spoor_event_class(a->ev));
	if (s->error[0] || c >= s->nclasses)
		return;
	if (!s->have_first) {
		s->first_ts = a->ts;
		s->have_first = true;
	}
	s->cur = a;
	const struct class_handlers *h = &s->classes[c];
	for (size_t i = 0; i < h->n; i++) {
		lua_rawgeti(s->L, LUA_REGISTRYINDEX, h->refs[i]);
		lua_rawgeti(s->L, LUA_REGISTRYINDEX, s->event_ref);
		s->calls++;
		if (!call(s, 1, NULL)) {
			char where[300], at[OUTBUF_TIME_MAX + 1] = "";
			if (spoor_event_has_timestamp(a->ev)) /* as spoor dump prints it */
				at[outbuf_fmt_time(at, a->ts)] = '\0';
			snprintf(where, sizeof(where), " (in the handler of %s%s%s)",
			         spoor_event_name(a->ev), at[0] ? ", at " : "", at);
			size_t n = strlen(s->error);
			snprintf(s->error + n, sizeof(s->error) - n, "%s", where);
			an_engine_stop(s->e);
			break;
		}
	}
	s->cur = NULL;
}

static int add_ref(struct class_handlers *h, int ref)
{
	int *v = realloc(h->refs, (h->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[h->n++] = ref;
	h->refs = v;
	return 0;
}

/* A global function named after the class: NAME, or PROVIDER_NAME for "PROVIDER:NAME". */
static int global_handler(struct script *s, const char *name, struct class_handlers *h)
{
	char ident[256];
	size_t n = strlen(name);
	if (n >= sizeof(ident))
		return 0;
	for (size_t i = 0; i <= n; i++)
		ident[i] = name[i] == ':' || name[i] == '.' || name[i] == '-' ? '_' : name[i];
	lua_getglobal(s->L, ident);
	if (lua_type(s->L, -1) != LUA_TFUNCTION) {
		lua_pop(s->L, 1);
		return 0;
	}
	return add_ref(h, luaL_ref(s->L, LUA_REGISTRYINDEX));
}

/* on() patterns: "SYSTEM:EVENT" also matches a kernel event named EVENT (spoor and LTTng
 * kernel traces name events without their system). */
static bool matches(const char *pattern, const char *name)
{
	if (!fnmatch(pattern, name, 0))
		return true;
	const char *colon = strchr(pattern, ':');
	return colon && !strchr(name, ':') && !fnmatch(colon + 1, name, 0);
}

/* Bind the handlers of classes [first, end): at attach, then for classes a live trace
 * gains (an_engine_on_classes). */
static int bind_handlers(void *data, size_t first, size_t end)
{
	struct script *s = data;
	const struct spoor_reader *r = an_reader(s->e);
	struct class_handlers *bigger = realloc(s->classes, (end + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	memset(bigger + s->nclasses, 0, (end + 1 - s->nclasses) * sizeof(*bigger));
	s->classes = bigger;
	s->nclasses = end;
	lua_getfield(s->L, LUA_REGISTRYINDEX, "spoor_on");
	size_t non = lua_objlen(s->L, -1);
	for (size_t c = first; c < end; c++) {
		const char *name = spoor_event_class_name(spoor_reader_event_class(r, c));
		struct class_handlers *h = &s->classes[c];
		if (global_handler(s, name, h))
			return -ENOMEM;
		for (size_t i = 1; i <= non; i++) {
			lua_rawgeti(s->L, -1, (int) i);
			lua_rawgeti(s->L, -1, 1);
			bool hit = matches(lua_tostring(s->L, -1), name);
			lua_pop(s->L, 1);
			if (hit) {
				lua_rawgeti(s->L, -1, 2);
				if (add_ref(h, luaL_ref(s->L, LUA_REGISTRYINDEX)))
					return -ENOMEM;
			}
			lua_pop(s->L, 1);
		}
		if (h->n && an_engine_on_class(s->e, c, on_event, s))
			return -ENOMEM;
	}
	lua_pop(s->L, 1);
	return 0;
}

/* Call a global hook function if the script defines it. */
static bool call_global(struct script *s, const char *name)
{
	lua_getglobal(s->L, name);
	if (lua_type(s->L, -1) != LUA_TFUNCTION) {
		lua_pop(s->L, 1);
		return true;
	}
	char what[64];
	snprintf(what, sizeof(what), "(in %s())", name);
	return call(s, 0, what);
}

/* The names of the globals before the script ran: what it defines is the rest. */
static void snapshot_globals(struct script *s)
{
	lua_State *L = s->L;
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, LUA_GLOBALSINDEX)) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_pushboolean(L, 1);
		lua_settable(L, -4);
	}
	s->defined_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

int script_open(const char *path, struct script **out, char *err, size_t errlen)
{
	struct script *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s || !(s->L = luaL_newstate())) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	luaL_openlibs(s->L);
	open_api(s);
	int rc = 0;
	if (luaL_loadbuffer(s->L, script_prelude, strlen(script_prelude), "=prelude") ||
	    !call(s, 0, NULL)) {
		snprintf(err, errlen, "spoor's Lua prelude failed: %s", s->error);
		rc = -EINVAL;
	} else if (snapshot_globals(s), luaL_loadfile(s->L, path)) {
		snprintf(err, errlen, "%s", lua_tostring(s->L, -1));
		rc = -EINVAL;
	} else if (!call(s, 0, NULL)) {
		snprintf(err, errlen, "%s", s->error);
		rc = -EINVAL;
	}
	if (rc) {
		script_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* Whether global `ident` is a function the script defined (not a library's). */
static bool defines(struct script *s, const char *ident)
{
	lua_State *L = s->L;
	lua_getglobal(L, ident);
	bool fn = lua_type(L, -1) == LUA_TFUNCTION;
	lua_rawgeti(L, LUA_REGISTRYINDEX, s->defined_ref);
	lua_getfield(L, -1, ident);
	bool before = lua_toboolean(L, -1);
	lua_pop(L, 3);
	return fn && !before;
}

bool script_handles(struct script *s, const char *name, bool catch_all)
{
	char ident[256];
	size_t n = strlen(name);
	if (n >= sizeof(ident))
		return false;
	for (size_t i = 0; i <= n; i++)
		ident[i] = name[i] == ':' || name[i] == '.' || name[i] == '-' ? '_' : name[i];
	if (defines(s, ident))
		return true;
	lua_State *L = s->L;
	lua_getfield(L, LUA_REGISTRYINDEX, "spoor_on");
	bool hit = false;
	for (size_t i = 1; !hit && i <= lua_objlen(L, -1); i++) {
		lua_rawgeti(L, -1, (int) i);
		lua_rawgeti(L, -1, 1);
		const char *p = lua_tostring(L, -1);
		hit = (catch_all || strspn(p, "*?:") != strlen(p)) && matches(p, name);
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
	return hit;
}

/* Append "pattern\0" to out; false when it does not fit. */
static bool add_pattern(char *out, size_t cap, size_t *len, const char *p)
{
	size_t n = strlen(p) + 1;
	if (*len + n >= cap)
		return false;
	memcpy(out + *len, p, n);
	*len += n;
	return true;
}

size_t script_event_patterns(struct script *s, char *out, size_t cap)
{
	lua_State *L = s->L;
	size_t len = 0;
	bool ok = true;

	lua_getfield(L, LUA_REGISTRYINDEX, "spoor_on");
	for (size_t i = 1; ok && i <= lua_objlen(L, -1); i++) {
		lua_rawgeti(L, -1, (int) i);
		lua_rawgeti(L, -1, 1);
		ok = add_pattern(out, cap, &len, lua_tostring(L, -1));
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
	/* a handler PROVIDER_NAME stands for PROVIDER:NAME (or . or -): each _ may be any */
	lua_pushnil(L);
	while (ok && lua_next(L, LUA_GLOBALSINDEX)) {
		lua_pop(L, 1);
		const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		char p[1024];
		size_t n = 0;
		if (!k || !defines(s, k) || !strcmp(k, "start") || !strcmp(k, "finish"))
			continue;
		for (const char *c = k; *c && n + 8 < sizeof(p); c++)
			n += (size_t) snprintf(p + n, sizeof(p) - n, "%s",
			                       *c == '_' ? "[_:.-]" : (char[]){*c, 0});
		ok = add_pattern(out, cap, &len, p);
	}
	if (!ok) {
		lua_settop(L, 0);
		return 0;
	}
	return len;
}

int script_attach(struct script *s, struct an_engine *e, char *err, size_t errlen)
{
	s->e = e;
	an_engine_want_threads(e); /* e.comm, spoor.comm() */
	if (!call_global(s, "start")) {
		snprintf(err, errlen, "%s", s->error);
		return -EINVAL;
	}
	if (bind_handlers(s, 0, spoor_reader_event_class_count(an_reader(e)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	an_engine_on_classes(e, bind_handlers, s);
	return 0;
}

int script_load(struct an_engine *e, const char *path, struct script **out, char *err,
                size_t errlen)
{
	int rc = script_open(path, out, err, errlen);
	if (!rc && (rc = script_attach(*out, e, err, errlen))) {
		script_free(*out);
		*out = NULL;
	}
	return rc;
}

bool script_stopped(const struct script *s)
{
	return s->stopped;
}

int script_error(const struct script *s, char *err, size_t errlen)
{
	if (!s->error[0])
		return 0;
	snprintf(err, errlen, "%s", s->error);
	return -1;
}

int script_finish(struct script *s, char *err, size_t errlen)
{
	if (!call_global(s, "finish") || !call_global(s, "spoor_print_maps")) {
		snprintf(err, errlen, "%s", s->error);
		return -1;
	}
	fflush(stdout);
	return 0;
}

unsigned long long script_calls(const struct script *s)
{
	return s->calls;
}

void script_free(struct script *s)
{
	if (!s)
		return;
	for (size_t c = 0; s->classes && c < s->nclasses; c++)
		free(s->classes[c].refs);
	free(s->classes);
	if (s->L)
		lua_close(s->L);
	free(s);
}
