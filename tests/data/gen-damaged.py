#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Damaged copies of a small LTTng-style kernel trace, one per kind of damage a reader must
catch (docs/compatibility.md, "Damaged traces"), for tests/cli/damage.sh.

    gen-damaged.py OUTDIR

writes OUTDIR/clean (written by gen_kernel.py: two CPUs, three packets each, sched, syscall,
irq, softirq and block events, one gap long enough for an extended event header in the
middle of CPU 0's second packet) and, for each case, OUTDIR/CASE: the same trace with bytes
of channel0_0 overwritten, and OUTDIR/CASE.expect: the byte offset of the damage in
channel0_0 (where a reader must stop) and the number of that stream's events before it
(for the random case, see below).
Deterministic: the random case uses a fixed seed.
"""
import os
import random
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_kernel  # noqa: E402

HEADER = 24            # packet header: magic, uuid[16], stream_id
CTX = {"timestamp_begin": 24, "timestamp_end": 32, "content_size": 40, "packet_size": 48}
FIRST_EVENT = 72       # after the packet context (68 bytes), aligned to 8 bits: no padding


# thirteen system calls: with the others, 32 classes, so that every compact id (0 to 30) is
# declared, as in a kernel trace
CALLS = ["read", "write", "openat", "close", "mmap", "futex", "poll", "ioctl", "lseek",
         "fstat", "brk", "fcntl", "dup"]


def events():
    """(ts, cpu, name, fields) of the clean trace, 600 per CPU, 10 us apart."""
    evs = []
    for cpu in (0, 1):
        ts = 1000 + cpu * 3
        for i in range(600):
            tid = 100 + cpu * 10 + i % 3
            k = i % 10
            if k == 0:
                evs.append((ts, cpu, "sched_switch", {
                    "prev_comm": "t%d" % (tid - 1), "prev_tid": tid - 1, "prev_prio": 20,
                    "prev_state": 1, "next_comm": "t%d" % tid, "next_tid": tid, "next_prio": 20}))
            elif k == 1:
                evs.append((ts, cpu, "sched_wakeup", {"comm": "t%d" % tid, "tid": tid,
                                                      "prio": 20, "target_cpu": cpu}))
            elif k in (2, 4):
                call = CALLS[(i // 10 + k) % len(CALLS)]
                evs.append((ts, cpu, "syscall_entry_" + call, {"fd": 3, "buf": 4096, "count": 64}))
            elif k in (3, 5):
                call = CALLS[(i // 10 + k - 1) % len(CALLS)]
                evs.append((ts, cpu, "syscall_exit_" + call, {"ret": 64}))
            elif k == 6:
                evs.append((ts, cpu, "irq_handler_entry", {"irq": 5, "name": "eth0"}))
            elif k == 7:
                evs.append((ts, cpu, "irq_handler_exit", {"irq": 5, "ret": 1}))
            elif k == 8:
                evs.append((ts, cpu, "block_rq_issue", {
                    "dev": 8 << 20, "sector": 100 + i, "nr_sector": 8, "bytes": 4096,
                    "tid": tid, "rwbs": 1, "comm": "t%d" % tid}))
            else:
                evs.append((ts, cpu, "block_rq_complete", {
                    "dev": 8 << 20, "sector": 100 + i - 1, "nr_sector": 8, "errors": 0,
                    "rwbs": 1}))
            # a 0.3 s gap on CPU 0 in its second packet: the next header is extended
            ts += 300000000 if (cpu, i) == (0, 290) else 10000
    return evs


def layout(trace, evs):
    """channel0_0's packets: [(offset, size, [(event offset, ts, extended), ...]), ...],
    walked with the generator's own knowledge of each class's fields."""
    classes = gen_kernel._classes(evs, {})
    mine = [e for e in sorted(evs, key=lambda e: (e[0], e[1])) if e[1] == 0]
    data = open(os.path.join(trace, "channel0_0"), "rb").read()
    packets, off, n = [], 0, 0
    while off < len(data):
        content, size = struct.unpack_from("<QQ", data, off + CTX["content_size"])
        pos, evlist = off + FIRST_EVENT, []
        while pos < off + content // 8:
            ts, _, name, fields = mine[n]
            ext = data[pos] & 31 == 31
            evlist.append((pos, ts, ext))
            pos += 13 if ext else 4
            for key, ftype in classes[name][1]:
                if ftype is gen_kernel.STR:
                    pos = data.index(b"\0", pos) + 1
                else:
                    pos += 8
            n += 1
        assert pos == off + content // 8
        packets.append((off, size // 8, evlist))
        off += size // 8
    return data, packets


def put(path, at, fmt, value):
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(struct.pack(fmt, value))


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.stderr.write("usage: gen-damaged.py OUTDIR\n")
        return 2
    out = sys.argv[1]
    evs = events()
    clean = os.path.join(out, "clean")
    shutil.rmtree(clean, ignore_errors=True)
    gen_kernel.write(clean, evs, style="lttng", losses={0: [(200, 0), (400, 0)],
                                                       1: [(200, 0), (400, 0)]})
    data, packets = layout(clean, evs)
    p0, p1 = packets[0], packets[1]
    before_p1 = len(p0[2])
    ext = [i for i, (_, _, x) in enumerate(p1[2]) if x and i > 0][0]
    ext_at, ext_ts = p1[2][ext][0], p1[2][ext][1]
    last_at = p1[2][-1][0]
    nclasses = len(gen_kernel._classes(evs, {}))
    cases = {}

    def case(name, at, before, patch):
        d = os.path.join(out, name)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(clean, d)
        patch(os.path.join(d, "channel0_0"))
        cases[name] = (at, before)

    # an extended header's 64-bit time before the event ahead of it (after its packet's begin)
    case("backwards", ext_at, before_p1 + ext,
         lambda f: put(f, ext_at + 5, "<Q", p1[2][ext - 1][1] - 1))
    # the same header's time before its packet's timestamp_begin
    case("before-begin", ext_at, before_p1 + ext,
         lambda f: put(f, ext_at + 5, "<Q", p1[2][0][1] - 5000))
    # the second packet's timestamp_begin before the first packet's last event
    case("packet-backwards", p1[0], before_p1,
         lambda f: put(f, p1[0] + CTX["timestamp_begin"], "<Q", p0[2][-1][1] - 1))
    # the second packet's timestamp_end before its extended event: the events from there on
    # lie past the packet's end
    case("after-end", ext_at, before_p1 + ext,
         lambda f: put(f, p1[0] + CTX["timestamp_end"], "<Q", ext_ts - 1))
    # the second packet's timestamp_end before its timestamp_begin
    case("end-before-begin", p1[0], before_p1,
         lambda f: put(f, p1[0] + CTX["timestamp_end"], "<Q", p1[2][0][1] - 1))

    # an extended header's time whose ns from the origin do not fit in 64 bits (its packet's
    # timestamp_end too)
    def out_of_range(f):
        put(f, ext_at + 5, "<Q", 1 << 63)
        put(f, p1[0] + CTX["timestamp_end"], "<Q", (1 << 64) - 1)
    case("out-of-range", ext_at, before_p1 + ext, out_of_range)
    # an extended header naming an event id the metadata does not declare
    case("unknown-id", ext_at, before_p1 + ext,
         lambda f: put(f, ext_at + 1, "<I", nclasses + 100))
    # the first packet's packet_size runs past the end of the file: its events are read (as
    # when a tracer was killed mid-write), then the packet is reported
    case("packet-past-file", p0[0], before_p1,
         lambda f: put(f, p0[0] + CTX["packet_size"], "<Q", (len(data) + 4096) * 8))
    # the second packet's content ends inside its last event's first field (after a compact
    # header: 4 bytes)
    assert not p1[2][-1][2]
    case("field-past-content", last_at + 4, before_p1 + len(p1[2]) - 1,
         lambda f: put(f, p1[0] + CTX["content_size"], "<Q", (last_at + 8 - p1[0]) * 8))

    # the second packet's content ends inside the string of its last event that has one
    # (no NUL left): the reader that prints fields in place (format/) decodes it instead, and
    # reports the same damage
    classes = gen_kernel._classes(evs, {})
    mine = [e for e in sorted(evs, key=lambda e: (e[0], e[1])) if e[1] == 0]
    k = max(i for i in range(len(p1[2]))
            if not p1[2][i][2] and any(t is gen_kernel.STR
                                       for _, t in classes[mine[before_p1 + i][2]][1]))
    str_at = p1[2][k][0] + 4
    for _, ftype in classes[mine[before_p1 + k][2]][1]:
        if ftype is gen_kernel.STR:
            break
        str_at += 8
    case("string-past-content", str_at, before_p1 + k,
         lambda f: put(f, p1[0] + CTX["content_size"], "<Q", (str_at + 2 - p1[0]) * 8))

    for name, (at, before) in cases.items():
        with open(os.path.join(out, name + ".expect"), "w") as f:
            f.write("%d %d\n" % (at, before))

    # 2,000 random bytes over the middle of the second packet, as in issue 19: where a
    # reader stops depends on the bytes. random.expect: the first and past the last byte
    # overwritten, and how many events of the stream end before them.
    mid = p1[0] + p1[1] // 2 - 1000

    def noise(f):
        rnd = random.Random(1)
        with open(f, "r+b") as fh:
            fh.seek(mid)
            fh.write(bytes(rnd.getrandbits(8) for _ in range(2000)))
    case("random", mid, 0, noise)
    whole = before_p1 + [i for i, (at, _, _) in enumerate(p1[2]) if at >= mid][0] - 1
    with open(os.path.join(out, "random.expect"), "w") as f:
        f.write("%d %d %d\n" % (mid, mid + 2000, whole))


if __name__ == "__main__":
    sys.exit(main())
