#!/usr/bin/env python3
"""`spoor convert --layout=lttng` writes what `spoor record -k --layout=lttng` writes.

  convert-record-compare.py RECORDED CONVERTED

RECORDED: a kernel trace recorded in the LTTng layout; CONVERTED: one recorded in spoor's
layout with the same event selection, converted. Their metadata (plain text, as spoor
writes it) must declare the same env keys, with the same values but for those that
describe the trace itself (trace_name, trace_creation_datetime) and spoor_converted,
which only a converted trace has; the same stream (packet header and context, event
header and context); and the same events, each with the same name and fields (ids and
stream ids aside: they follow the order the classes were declared in). Prints what
differs; exit 1 when anything does.
"""
import difflib
import re
import sys

# env keys whose values describe the trace, not the layout (docs/cli.md, spoor convert)
OWN = {"trace_name", "trace_creation_datetime"}
CONVERTED_ONLY = {"spoor_converted"}


def block(text, head):
    m = re.search(r"^%s \{\n(.*?)^\};" % head, text, re.S | re.M)
    return m.group(1) if m else ""


def parse(path):
    text = open(path + "/metadata").read()
    env = dict(re.findall(r"^\t(\w+) = (.*);$", block(text, "env"), re.M))
    header = re.sub(r'uuid = "[^"]*";', "", block(text, "trace"))
    events = {}
    for m in re.finditer(r"^event \{\n(.*?)^\};", text, re.S | re.M):
        name = re.search(r'\tname = "([^"]*)";', m.group(1)).group(1)
        events[name] = re.sub(r"\t(id|stream_id) = \d+;\n", "", m.group(1))
    return env, header, block(text, "stream"), events


def main():
    rec, conv = parse(sys.argv[1]), parse(sys.argv[2])
    bad = []
    keys_r, keys_c = set(rec[0]), set(conv[0]) - CONVERTED_ONLY
    if keys_r != keys_c:
        bad.append("env keys: only recorded %s, only converted %s"
                   % (sorted(keys_r - keys_c), sorted(keys_c - keys_r)))
    for k in sorted((keys_r & keys_c) - OWN):
        if rec[0][k] != conv[0][k]:
            bad.append("env %s: recorded %s, converted %s" % (k, rec[0][k], conv[0][k]))
    if not CONVERTED_ONLY <= set(conv[0]):
        bad.append("env: the converted trace has no %s" % sorted(CONVERTED_ONLY))
    if rec[1] != conv[1]:
        bad.append("trace block (packet header) differs")
    if rec[2] != conv[2]:
        bad.append("stream block (packet context, event header, event context) differs:\n"
                   + "".join(difflib.unified_diff(rec[2].splitlines(True),
                                                  conv[2].splitlines(True), n=0)))
    names_r, names_c = set(rec[3]), set(conv[3])
    if names_r != names_c:
        bad.append("events: only recorded %s, only converted %s"
                   % (sorted(names_r - names_c)[:10], sorted(names_c - names_r)[:10]))
    differ = [n for n in sorted(names_r & names_c) if rec[3][n] != conv[3][n]]
    for n in differ[:5]:
        bad.append("event %s declared otherwise:\n%s" % (n, "".join(difflib.unified_diff(
            rec[3][n].splitlines(True), conv[3][n].splitlines(True), n=0))))
    if len(differ) > 5:
        bad.append("... %d events declared otherwise in all" % len(differ))
    for b in bad:
        print(b)
    print("%d env keys, %d events compared: %s" % (len(keys_r), len(names_r & names_c),
                                                   "differ" if bad else "the same"))
    return 1 if bad else 0


sys.exit(main())
