#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""view-calls-check.py URL FLAME: spoor view's flame rows (api/meta's rows of kind "calls"
and its functions, api/spans' rects on them) against gen-calls.py's NAME.flame, exactly.

Each thread's call rows are read in windows at 10 ns a pixel: every call of the generated
traces lasts 100 ns or more, so each comes whole, clipped to the window, with its own begin
and end beside (which must agree with the clipped rect); pieces that a window's edge cut
are joined again. Prints the differences; exit 1 when there are any."""
import json
import sys
import urllib.request

PX = 16384
NS_PER_PX = 10


def get(url):
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def main(url, flame_path):
    want = json.load(open(flame_path))
    meta = get(url + "api/meta")
    rows = [r for r in meta["rows"] if r["kind"] == "calls"]
    names = meta["functions"]
    got = []
    for tid in sorted({r["tid"] for r in rows}):
        mine = [r for r in rows if r["tid"] == tid]
        depth = {r["id"]: r["depth"] for r in mine}
        lo, hi = min(r["first"] for r in mine), max(r["last"] for r in mine)
        pieces = {r["id"]: [] for r in mine}
        w = PX * NS_PER_PX
        for t0 in range(lo, hi, w):
            t1 = min(t0 + w, hi) if min(t0 + w, hi) > t0 else t0 + 1
            px = max(1, (t1 - t0) // NS_PER_PX)
            ans = get("%sapi/spans?rows=%s&t0=%d&t1=%d&px=%d" % (
                url, ",".join(str(i) for i in depth), t0, t1, px))
            for row in ans["rows"]:
                for rect in row["rects"]:
                    b, e, flags, fn, spans, first, last = rect
                    if spans != 1 or [b, e] != [max(first, t0), min(last, t1)]:
                        print("row %d: not one call, or not its own times clipped: %r in "
                              "[%d, %d]" % (row["id"], rect, t0, t1))
                        return 1
                    p = pieces[row["id"]]
                    if p and p[-1][1] == b == t0 and p[-1][2:] == [flags, fn]:
                        p[-1][1] = e    # cut by the window's edge: one call
                    else:
                        p.append([b, e, flags, fn])
        for rid, p in pieces.items():
            for b, e, flags, fn in p:
                got.append([tid, depth[rid], b, e, names[fn], flags])
    got.sort()
    if got == want:
        return 0
    print("flame rows differ: want, got")
    for i in range(max(len(got), len(want))):
        a = want[i] if i < len(want) else None
        b = got[i] if i < len(got) else None
        print(("   " if a == b else " ! ") + "%r  %r" % (a, b))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
