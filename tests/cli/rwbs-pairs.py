#!/usr/bin/env python3
"""rwbs-pairs.py SPOOR.txt LTTNG.txt [LOST [OWN]]: babeltrace2's text of two recordings of the same block
requests, one in spoor's layout (the kernel's rwbs text, common_pid) and one in the LTTng
layout (recorded at once: each request is in both). Every block event of the LTTng one has
lttng-modules 2.13's fields in its order (convert-check.py's BLOCK), its payload tid is its
context's, and the spoor recording has the same event (name, dev, sector, nr_sector, the
task the context names, comm) with the rwbs text whose flags (convert-check.py's
rwbs_flags) are its rwbs.
Needs a write and a read among them. LOST: the events spoor's recording lost ("unknown": any
number; as many may be missing from it; a request found there with other flags never may). OWN: the pid of
spoor's recorder, whose own records it leaves out (an interrupt's completion while it ran):
such events of the LTTng layout are not looked for. Prints what
differs, and the texts met with their flags; exit 1 when something differs."""
import collections
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "convert_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "convert-check.py"))
cc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cc)


def block_events(path):
    """(name, context fields, payload fields) of each block event, fields as dicts."""
    return [(name, dict(cc.FIELD.findall(ctx)), fields)
            for _, name, _, ctx, fields in cc.parse(path) if name in cc.BLOCK]


def main():
    sp, lt = block_events(sys.argv[1]), block_events(sys.argv[2])
    have, seen = collections.Counter(), set()
    texts = collections.Counter()
    lost = sys.argv[3] if len(sys.argv) > 3 else "0"
    lost = float("inf") if lost == "unknown" else int(lost)
    own = sys.argv[4] if len(sys.argv) > 4 else None
    missing = []
    for name, ctx, fields in sp:
        f = dict(fields)
        if "rwbs" not in f:
            continue
        text = f["rwbs"].strip('"')
        flags = cc.rwbs_flags(text)
        texts[(text, flags)] += 1
        key = (name, f.get("dev"), f.get("sector"), f.get("nr_sector"), ctx.get("common_pid"),
               f.get("comm"))
        have[key + (str(flags),)] += 1
        seen.add(key)
    bad, ops = [], set()
    for name, ctx, fields in lt:
        f = dict(fields)
        if [k for k, _ in fields] != [k for k in cc.BLOCK[name] if k in f]:
            bad.append("%s: fields %s, LTTng's %s" % (name, [k for k, _ in fields],
                                                      cc.BLOCK[name]))
            continue
        if "tid" in f and f["tid"] != ctx.get("tid"):
            bad.append("%s: tid %s, its context's %s" % (name, f["tid"], ctx.get("tid")))
        if "rwbs" not in f or ctx.get("tid") == own:
            continue
        flags = int(f["rwbs"])
        ops.add("write" if flags & 1 else "read" if flags & 12 else "other")
        key = (name, f.get("dev"), f.get("sector"), f.get("nr_sector"), ctx.get("tid"),
               f.get("comm"))
        if have[key + (f["rwbs"],)]:
            have[key + (f["rwbs"],)] -= 1
        elif key in seen:
            bad.append("%s %s: in spoor's layout with a text of other flags" % (name, f))
        else:
            missing.append("%s %s" % (name, f))
    # spoor's recording lost events: those may be the missing ones
    if len(missing) > lost:
        bad += ["%s: not in spoor's layout" % m for m in missing]
    elif missing:
        print("note - %d events not in spoor's layout, which lost %s: %s" %
              (len(missing), lost, missing[:3]))
    if not {"write", "read"} <= ops:
        bad.append("the requests in the LTTng layout hold no %s" %
                   " or ".join(sorted({"write", "read"} - ops)))
    print("note - %d block events in the LTTng layout, %d in spoor's; rwbs texts met: %s" %
          (len(lt), len(sp), ", ".join("%s=%d (%d)" % (t, f, n)
                                       for (t, f), n in sorted(texts.items()))))
    for line in bad[:20]:
        print("differs: " + line)
    return 1 if bad or not lt else 0


if __name__ == "__main__":
    sys.exit(main())
