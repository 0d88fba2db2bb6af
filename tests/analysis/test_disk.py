#!/usr/bin/env python3
"""spoor disk on small synthetic kernel traces (tests/data/gen_kernel.py), in both naming
styles, against numbers computed by hand (docs/analyses/disk.md explains the rules).
Env: SPOOR (the binary), SPOOR_TEST_DATA (tests/data)."""
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check_eq as check  # noqa: E402
import gen_kernel  # noqa: E402

SDA, SDB, SDC = 8 << 20, (8 << 20) | 16, (8 << 20) | 32
# lttng-modules' rwbs bits
W, D, R, SYNC, FLUSH = 1, 2, 4, 32, 256


def requests(style):
    """(ts, cpu, name, fields): the requests of the expected numbers below."""
    lt = style == "lttng"
    evs = []

    def rq(name, ts, cpu, dev, sector, nr, rwbs, pid=7):
        f = {"dev": dev, "sector": sector, "nr_sector": nr}
        if name == "block_rq_complete":
            f["errors" if lt else "error"] = 0
        else:
            f["bytes"] = 0 if lt else nr * 512  # lttng-modules: 0 but for SCSI commands
        f["rwbs"] = {"R": R, "W": W, "WS": W | SYNC, "FF": FLUSH, "D": D}[rwbs] if lt else rwbs
        if not lt:
            f["common_pid"] = pid
        evs.append((ts, cpu, name, f))

    ins, iss, com = "block_rq_insert", "block_rq_issue", "block_rq_complete"
    # sda: five matched requests, latencies 1000, 3000, 500, 200 (a flush), 2000 (re-issued)
    rq(ins, 1000, 0, SDA, 100, 8, "R", pid=42)
    rq(iss, 1500, 0, SDA, 100, 8, "R")
    rq(com, 2500, 1, SDA, 100, 8, "R", pid=0)
    rq(iss, 2000, 1, SDA, 200, 16, "WS")
    rq(com, 5000, 0, SDA, 200, 16, "WS", pid=0)
    rq(iss, 3000, 0, SDA, 300, 8, "W")
    rq(com, 3500, 0, SDA, 300, 8, "W")
    rq(iss, 4000, 0, SDA, 400, 0, "FF")
    rq(com, 4200, 0, SDA, 400, 0, "FF")
    rq(iss, 6000, 0, SDA, 500, 32, "R")
    rq(iss, 7000, 1, SDA, 500, 32, "R")  # requeued, issued again
    rq(com, 9000, 1, SDA, 500, 32, "R")
    rq(com, 1200, 1, SDA, 50, 8, "R")  # issued before the trace: unmatched
    rq(iss, 9500, 0, SDA, 600, 8, "W")  # never completed: pending
    # sdb: a discard, 10000 ns
    rq(iss, 1000, 1, SDB, 10, 8, "D")
    rq(com, 11000, 1, SDB, 10, 8, "D")
    # sdc: ten reads, 100..1000 ns, for the percentiles
    for k in range(10):
        rq(iss, 3000 + 10 * k, 0, SDC, 1000 + 8 * k, 8, "R")
        rq(com, 3000 + 10 * k + 100 * (k + 1), 0, SDC, 1000 + 8 * k, 8, "R")
    if lt:
        evs.append((900, 0, "lttng_statedump_block_device", {"dev": SDA, "diskname": "sda"}))
        evs.append((900, 0, "lttng_statedump_block_device", {"dev": SDB, "diskname": "sdb"}))
    return evs


def disk(trace, *opts, rc=0):
    p = common.spoor("disk", "--json", *opts, trace)
    check("spoor disk %s exit code" % " ".join(opts), p.returncode, rc)
    if p.returncode:
        return p
    return {d["dev"]: d for d in json.loads(p.stdout)["devices"]}, json.loads(p.stdout)


def whole(tmp, style):
    trace = gen_kernel.write(os.path.join(tmp, style), requests(style), style=style)
    if style == "ftrace":  # spoor record saves it; LTTng's state dump names them instead
        with open(os.path.join(trace, ".partitions"), "w") as f:
            f.write("major minor  #blocks  name\n\n   8        0   1000 sda\n"
                    "   8       16   1000 sdb\n")
    devs, top = disk(trace)
    span = 11000 - 900 if style == "lttng" else 11000 - 1000
    check(style + " span", top["span_s"], span / 1e9, 1e-12)
    a = devs["8:0"]
    check(style + " sda name", a["name"], "sda")
    check(style + " sda reads", a["reads"], 3)
    check(style + " sda read bytes", a["read_bytes"], (8 + 32 + 8) * 512)
    check(style + " sda writes", a["writes"], 2)
    check(style + " sda write bytes", a["write_bytes"], (16 + 8) * 512)
    check(style + " sda other (flush)", a["other"], 1)
    check(style + " sda read B/s", a["read_bytes_per_s"], 48 * 512 / (span / 1e9), 1e-3)
    lat = a["latency"]
    check(style + " sda latencies", lat["count"], 5)
    check(style + " sda min", lat["min_ns"], 200)
    check(style + " sda max", lat["max_ns"], 3000)
    check(style + " sda mean", lat["mean_ns"], 1340.0, 1e-6)
    check(style + " sda stddev", lat["stddev_ns"], math.sqrt(5312000 / 4), 1e-3)
    check(style + " sda p50", lat["p50_ns"], 1000)
    check(style + " sda p90", lat["p90_ns"], 3000)
    check(style + " sda p99", lat["p99_ns"], 3000)
    check(style + " sda unmatched", a["unmatched"], 1)
    check(style + " sda pending", a["pending"], 1)
    check(style + " sda dropped", a["dropped"], 0)
    b = devs["8:16"]
    check(style + " sdb name", b["name"], "sdb")
    check(style + " sdb discard is other", (b["other"], b["other_bytes"], b["writes"]),
          (1, 4096, 0))
    check(style + " sdb latency", b["latency"]["mean_ns"], 10000.0)
    c = devs["8:32"]
    check(style + " sdc unnamed", c["name"], "")
    check(style + " sdc reads", (c["reads"], c["read_bytes"]), (10, 10 * 4096))
    check(style + " sdc p50 p90 p99", (c["latency"]["p50_ns"], c["latency"]["p90_ns"],
                                       c["latency"]["p99_ns"]), (500, 900, 1000))
    check(style + " sdc mean", c["latency"]["mean_ns"], 550.0, 1e-6)
    return trace


def filters(trace):
    devs, _ = disk(trace, "--tid", "42")  # the task that inserted sda's first read
    check("--tid 42: the request it queued", (devs["8:0"]["reads"], devs["8:0"]["writes"],
                                              devs["8:0"]["latency"]["count"]), (1, 0, 1))
    check("--tid 42: nothing else", sorted(devs), ["8:0"])
    devs, _ = disk(trace, "--cpu", "1")  # the CPU of the issue
    check("--cpu 1: requests issued there", (devs["8:0"]["reads"], devs["8:0"]["writes"],
                                             devs["8:16"]["other"]), (1, 1, 1))
    check("--cpu 1: their latencies", devs["8:0"]["latency"]["mean_ns"], 2500.0)
    check("--cpu 1: no pending there", devs["8:0"]["pending"], 0)


def losses(tmp):
    """Events lost on CPU 1 while requests were in flight on both CPUs: both are dropped."""
    def rq(name, ts, cpu, sector):
        return (ts, cpu, name, {"dev": SDA, "sector": sector, "nr_sector": 8,
                                "bytes": 4096, "rwbs": "W", "common_pid": 5})
    evs = [rq("block_rq_issue", 1000, 0, 10), rq("block_rq_issue", 1100, 1, 20),
           rq("block_rq_issue", 2000, 1, 30), rq("block_rq_complete", 2500, 1, 30),
           rq("block_rq_complete", 3000, 0, 10), rq("block_rq_complete", 3100, 1, 20)]
    trace = gen_kernel.write(os.path.join(tmp, "lost"), evs, style="ftrace",
                             losses={1: [(1, 5)]})
    devs, top = disk(trace)
    a = devs["8:0"]
    check("lost: events reported", top["lost_events"], 5)
    check("lost: in flight dropped", a["dropped"], 2)
    check("lost: their completions unmatched", a["unmatched"], 2)
    check("lost: still counted in the bytes", (a["writes"], a["write_bytes"]), (3, 3 * 4096))
    check("lost: only the clean latency", (a["latency"]["count"], a["latency"]["mean_ns"]),
          (1, 500.0))


def no_block(tmp):
    trace = gen_kernel.write(os.path.join(tmp, "noblk"), [
        (1000, 0, "sched_switch", {"prev_comm": "a", "prev_tid": 1, "prev_prio": 20,
                                   "prev_state": 0, "next_comm": "b", "next_tid": 2,
                                   "next_prio": 20})])
    p = disk(trace, rc=1)
    check("no block events: names what to record", "spoor record -k block" in p.stderr, True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ft = whole(tmp, "ftrace")
        whole(tmp, "lttng")
        filters(ft)
        losses(tmp)
        no_block(tmp)
        p = common.spoor("disk", ft)
        check("text table names the device", " sda " in p.stdout and "pending" in p.stdout,
              True)
    return common.finish()


if __name__ == "__main__":
    sys.exit(main())
