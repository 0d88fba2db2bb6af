#!/usr/bin/env python3
"""spoor disk on a block trace recorded here (root): its counts, bytes and matched
latencies equal an independent count over babeltrace2's text output. Skips (77) without
root, tracefs, babeltrace2, a real disk under the build directory, or block events.
Env: SPOOR, SPOOR_BUILD (a directory on a real disk)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check_eq as check, skip_all as skip  # noqa: E402


def op_of(rwbs):
    """The kernel's rwbs text: [F]lush, then W, D (discard), R or N, then modifiers."""
    for ch in rwbs:
        if ch in "DEN":
            return "other"
        if ch == "W":
            return "writes"
        if ch == "R":
            return "reads"
    return "other"


FIELD = re.compile(r"(\w+) = (\"[^\"]*\"|-?\d+)")


def bt2_counts(trace):
    """Per device: completions by op, bytes, and issue->complete pairs by (dev, sector)."""
    out = subprocess.run(["babeltrace2", trace], capture_output=True, text=True, check=True)
    devs, pending = {}, {}
    for line in out.stdout.splitlines():
        m = re.search(r" (block_rq_issue|block_rq_complete): ", line)
        if not m:
            continue
        f = dict(FIELD.findall(line.split(m.group(0), 1)[1]))
        dev, sector, nr = int(f["dev"]), int(f["sector"]), int(f["nr_sector"])
        key = "%d:%d" % (dev >> 20, dev & 0xFFFFF)
        if m.group(1) == "block_rq_issue":
            pending[(dev, sector)] = True
            continue
        d = devs.setdefault(key, {"reads": 0, "writes": 0, "other": 0, "read_bytes": 0,
                                  "write_bytes": 0, "matched": 0})
        op = "other" if nr <= 0 else op_of(f["rwbs"].strip('"'))
        d[op] += 1
        if op != "other":
            d[op[:-1] + "_bytes"] += nr * 512
        if pending.pop((dev, sector), None):
            d["matched"] += 1
    return devs


def main():
    if os.geteuid():
        skip("needs root (kernel tracing)")
    if not shutil.which("babeltrace2"):
        skip("babeltrace2 is not installed (apt-get install babeltrace2)")
    base = os.environ.get("SPOOR_BUILD") or os.getcwd()
    fs = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", "-T", base], capture_output=True,
                        text=True).stdout.strip()
    if fs in ("tmpfs", "ramfs", "overlay", ""):
        skip("%s is on %s, not a block device" % (base, fs or "an unknown file system"))
    tmp = tempfile.mkdtemp(prefix="disk-test.", dir=base)
    try:
        trace = os.path.join(tmp, "trace")
        data = os.path.join(tmp, "data")
        p = common.spoor("record", "-k", "block", "-o", trace, "--", "sh", "-c",
                         "dd if=/dev/zero of=%s bs=1M count=20 oflag=direct 2>/dev/null; "
                         "sync" % data)
        if p.returncode:
            skip("spoor record -k block failed: " + p.stderr.strip().splitlines()[-1])
        check("the device names were saved",
              os.path.exists(os.path.join(trace, "kernel", ".partitions")), True)
        want = bt2_counts(trace)
        if not want:
            skip("the workload produced no block_rq_complete events")
        top = common.spoor_json("disk", trace)
        check("spoor disk exit code", top is not None, True)
        got = {d["dev"]: d for d in top["devices"]}
        check("the same devices", sorted(got), sorted(want))
        for dev, w in sorted(want.items()):
            g = got.get(dev, {})
            for k in ("reads", "writes", "other", "read_bytes", "write_bytes"):
                check("%s %s" % (dev, k), g.get(k), w[k])
            if not top["lost_events"]:  # after a loss, spoor drops requests in flight
                check("%s latencies (matched pairs)" % dev,
                      g.get("latency", {}).get("count"), w["matched"])
        print("devices: " + ", ".join("%s %s" % (d, got[d]["name"]) for d in sorted(got)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return common.finish()


if __name__ == "__main__":
    sys.exit(main())
