#!/usr/bin/env python3
"""spoor irq on real traces, against independent counts:
  1. the LTTng 2.8 kernel trace SHARED_TRACES/lttng/many-threads, against lttng-irqstats
     (lttng-analyses 0.6.1): numbers pinned below (from that tool), and the tool run live when
     installed. lttng-analyses only knows the event names softirq_entry/exit, not this trace's
     irq_softirq_*, so its softirq figures come from a copy whose metadata renames them
     (babeltrace2 --output-format=ctf-metadata, then sed; the stream files are symlinked);
  2. a trace recorded here (`spoor record -k irq,sched`, needs root and tracefs): runs per
     (cpu, irq) and (cpu, vec) against pairs counted over babeltrace2's text output.

Environment: SPOOR, SHARED_TRACES. Exit 77 (skip) when nothing could be checked."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import SHARED, check, skip  # noqa: E402

# lttng-irqstats --no-progress kernel (0.6.1; the renamed copy for softirqs):
# number: count, min, avg, max, stdev (us)
PINNED_HARD = {26: (141, 1.826, 2.193, 4.169, 0.380), 28: (8, 1.354, 1.608, 1.900, 0.207),
               30: (4, 7.569, 8.852, 10.722, 1.460)}
PINNED_SOFT = {1: (1019, 0.099, 0.619, 13.250, 0.789), 3: (8, 2.855, 10.609, 24.898, 8.375),
               4: (141, 2.679, 5.287, 17.878, 3.278), 7: (778, 0.840, 2.523, 25.049, 1.264),
               9: (4096, 0.251, 2.863, 91.903, 5.320)}


def spoor_lines(*args):
    return (common.spoor_json("irq", *args) or {"lines": []})["lines"]


def as_us(x):
    """A spoor line as lttng-irqstats prints it: count, min, avg, max, stdev in us, 3 places."""
    return (x["count"], round(x["min_ns"] / 1e3, 3), round(x["mean_ns"] / 1e3, 3),
            round(x["max_ns"] / 1e3, 3), round(x["stddev_ns"] / 1e3, 3))


def irqstats(trace_dir):
    """Runs lttng-irqstats on a folder named kernel; {("irq"|"softirq", n): figures}."""
    p = common.lttng_analysis("lttng-irqstats", trace_dir, timeout=240)
    if not p.stdout.strip():
        print(p.stderr, file=sys.stderr)
    out, kind = {}, None
    for ln in p.stdout.splitlines():
        if ln.startswith("Hard IRQ"):
            kind = "irq"
        elif ln.startswith("Soft IRQ"):
            kind = "softirq"
        m = re.match(r"(\d+):\s+<[^>]*>\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", ln)
        if m and kind:
            g = m.groups()
            out[(kind, int(g[0]))] = (int(g[1]),) + tuple(float(v) for v in g[2:6])
    return out


def renamed_copy(src, dst):
    """src with irq_softirq_* renamed softirq_* in a plain-text metadata; streams symlinked."""
    os.makedirs(dst)
    meta = subprocess.run(["babeltrace2", "--output-format=ctf-metadata", src],
                          capture_output=True, text=True, check=True).stdout
    with open(os.path.join(dst, "metadata"), "w") as f:
        f.write("/* CTF 1.8 */\n" + meta.replace('name = "irq_softirq_', 'name = "softirq_'))
    for n in os.listdir(src):
        if n.startswith("channel"):
            os.symlink(os.path.join(src, n), os.path.join(dst, n))


def compare(what, mine, theirs):
    check("%s: has figures" % what, len(theirs) > 0)
    for key, want in sorted(theirs.items()):
        got = mine.get(key)
        check("%s: %s %d: %s = %s" % (what, key[0], key[1], got, want), got == want)
    check("%s: same IRQs and vectors" % what, set(mine) == set(theirs))


def lttng_part(tmp):
    trace = os.path.join(SHARED, "lttng", "many-threads")
    if not os.path.isdir(trace):
        skip("no %s" % trace)
        return
    mine = {(x["kind"], x["irq" if x["kind"] == "irq" else "vec"]): as_us(x)
            for x in spoor_lines("--all-cpus", trace)}
    pinned = {("irq", k): v for k, v in PINNED_HARD.items()}
    pinned.update({("softirq", k): v for k, v in PINNED_SOFT.items()})
    compare("pinned lttng-irqstats", mine, pinned)
    # the per-CPU lines merged by hand give the same counts
    per_cpu = {}
    for x in spoor_lines(trace):
        k = (x["kind"], x["irq" if x["kind"] == "irq" else "vec"])
        per_cpu[k] = per_cpu.get(k, 0) + x["count"]
    check("per-CPU counts add up to the all-CPU ones",
          per_cpu == {k: v[0] for k, v in mine.items()})
    if not shutil.which("lttng-irqstats") or not shutil.which("babeltrace2"):
        skip("lttng-irqstats or babeltrace2 not installed: pinned numbers only")
        return
    live = os.path.join(tmp, "renamed", "kernel")
    renamed_copy(trace, live)
    compare("live lttng-irqstats", mine, irqstats(live))


def bt_pairs(trace):
    """Runs per (kind, cpu, number) counted over babeltrace2's text: an exit closes the
    innermost open entry of the same number on its CPU."""
    p = subprocess.run(["babeltrace2", trace], capture_output=True, text=True, check=True)
    counts, stacks = {}, {}
    pat = re.compile(r"(irq_handler|softirq)_(entry|exit): \{ cpu_id = (\d+) \}.*?"
                     r"\{ (?:irq|vec) = (\d+)")
    for ln in p.stdout.splitlines():
        m = pat.search(ln)
        if not m:
            continue
        kind = "irq" if m.group(1) == "irq_handler" else "softirq"
        cpu, num = int(m.group(3)), int(m.group(4))
        st = stacks.setdefault((kind, cpu), [])
        if m.group(2) == "entry":
            st.append(num)
        elif num in st:
            i = len(st) - 1 - st[::-1].index(num)
            del st[i:]
            counts[(kind, cpu, num)] = counts.get((kind, cpu, num), 0) + 1
    return counts


def record_part(tmp):
    work = ("for i in $(seq 200); do cat /proc/interrupts >/dev/null; done; "
            "dd if=/dev/zero of=%s/f bs=64k count=64 oflag=direct 2>/dev/null; sync; sleep 0.2"
            % tmp)
    rec = common.record(os.path.join(tmp, "rec"), "irq,sched", work)
    if not rec:
        return
    want = bt_pairs(rec)
    got = {(x["kind"], x["cpu"], x["irq" if x["kind"] == "irq" else "vec"]): x["count"]
           for x in spoor_lines(rec) if x["count"]}
    check("recorded: some runs (%d lines)" % len(want), len(want) > 0)
    check("recorded: runs per (cpu, irq/vec) = babeltrace2's pairs: %s" %
          ("same" if got == want else "%s != %s" % (got, want)), got == want)


if __name__ == "__main__":
    sys.exit(common.run_parts("spoor-irq-real.", lttng_part, record_part))
