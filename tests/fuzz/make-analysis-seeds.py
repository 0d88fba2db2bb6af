#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz-analyses: stream files of the LTTng kernel trace whose
metadata is embedded in fuzz-analyses.c (between the BEGIN/END METADATA markers).

    tests/fuzz/make-analysis-seeds.py            # (re)writes its seeds in corpus/analyses/
                                                 # (regress-* inputs there are left alone)
    tests/fuzz/make-analysis-seeds.py --check    # exit 1 if the committed seeds are stale
    tests/fuzz/make-analysis-seeds.py --trace DIR
        # also writes DIR/<seed>/{metadata,channel0_0}: one trace per seed, to look at
        # them with `spoor dump`, `spoor sched` ... or `babeltrace2`

The event layouts are read from the metadata itself: every field there is byte aligned and
of a type named in TYPES (a text array, a sequence of an integer, a string), so a stream is
a run of little-endian struct.pack calls. Events give their fields by name without the
leading underscore; a field not given is 0 (or empty), a sequence's length field follows
the sequence. Standard library only; the output is deterministic.

Check a seed reads cleanly:  SPOOR_FUZZ_VERBOSE=1 build-fuzz/tests/fuzz/fuzz-analyses SEED
"""
import argparse
import ast
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAGIC = 0xC1FC1FC1
UUID = bytes.fromhex("69861fbafe442b41b75b39acaf6930ec")
MAX_SEED = 16 * 1024
TYPES = {"uint8_t": "B", "uint16_t": "H", "uint32_t": "I", "uint64_t": "Q", "int32_t": "i",
         "int64_t": "q", "utf8_t": "text"}


def embedded_metadata():
    src = open(os.path.join(HERE, "fuzz-analyses.c"), encoding="utf-8").read()
    m = re.search(r"/\* BEGIN METADATA \*/(.*?)/\* END METADATA \*/", src, re.S)
    if not m:
        sys.exit("fuzz-analyses.c: no BEGIN/END METADATA markers")
    body = m.group(1).split("=", 1)[1]
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    return "".join(ast.literal_eval('"' + p + '"') for p in parts)


def event_classes(meta):
    """{(stream_id, name): (id, [(field, type, length or None)])} from the event blocks."""
    classes = {}
    for block in re.findall(r"event \{(.*?)\n\};", meta, re.S):
        name = re.search(r'name = "([^"]+)"', block).group(1)
        ev_id = int(re.search(r"\bid = (\d+)", block).group(1))
        sid = int(re.search(r"stream_id = (\d+)", block).group(1))
        body = re.search(r"fields := struct \{(.*)\};", block, re.S).group(1)
        fields = []
        for decl in filter(None, (d.strip() for d in body.split(";"))):
            m = re.fullmatch(r"(\w+) (\w+)(?:\[\s*(\w+)\s*\])?", decl)
            assert m and (m.group(1) in TYPES or m.group(1) == "string"), decl
            length = m.group(3)
            fields.append((m.group(2).lstrip("_") if m.group(2) != "__vtids_length"
                           else "vtids_length", m.group(1),
                           int(length) if length and length.isdigit() else
                           length.lstrip("_") if length else None))
        classes[(sid, name)] = (ev_id, fields)
    return classes


CLASSES = event_classes(embedded_metadata())


def payload(sid, name, values):
    _, fields = CLASSES[(sid, name)]
    values = dict(values)
    for fname, _, length in fields:  # a sequence's length is its list's
        if isinstance(length, str):
            values[length] = len(values.get(fname, []))
    out = b""
    for fname, ftype, length in fields:
        v = values.pop(fname, None)
        if ftype == "string":
            out += (v or "").encode() + b"\0"
        elif ftype == "utf8_t":  # text array: NUL padded
            out += (v or "").encode()[:length].ljust(length, b"\0")
        elif length is not None:
            items = v or ([0] * length if isinstance(length, int) else [])
            out += b"".join(struct.pack("<" + TYPES[ftype], x) for x in items)
        else:
            out += struct.pack("<" + TYPES[ftype], v or 0)
    assert not values, (name, values)
    return out


def fits(cur, ts, bits):
    """Whether a reader rebuilds ts from its low bits (one wrap at most, CTF 1.8 s. 8)."""
    mask = (1 << bits) - 1
    low = ts & mask
    rebuilt = ((cur + (1 << bits) if low < (cur & mask) else cur) & ~mask) | low
    return rebuilt == ts


def header(sid, ev_id, ts, cur):
    if sid == 0:  # compact: 5-bit id, 27-bit time; else id 31 and the extended struct
        if ev_id <= 30 and fits(cur, ts, 27):
            return struct.pack("<I", ev_id | (ts & ((1 << 27) - 1)) << 5)
        return struct.pack("<BIQ", 31, ev_id, ts)
    if ev_id < 65535 and fits(cur, ts, 32):  # large: 16-bit id, 32-bit time
        return struct.pack("<HI", ev_id, ts & 0xFFFFFFFF)
    return struct.pack("<HIQ", 65535, ev_id, ts)


def packet(events, sid=0, cpu=0, discarded=0, seq=0, begin=None, end=None):
    """One packet. events: [(ts, name, {field: value}[, (tid, pid)])] in time order."""
    begin = events[0][0] if begin is None else begin
    end = events[-1][0] if end is None else end
    body = b""
    cur = begin
    for ev in events:
        ts, name, values = ev[0], ev[1], ev[2]
        ev_id = CLASSES[(sid, name)][0]
        body += header(sid, ev_id, ts, cur)
        cur = ts
        if sid == 1:
            body += struct.pack("<ii", *(ev[3] if len(ev) > 3 else (-1, -1)))
        body += payload(sid, name, values)
    content = 84 + len(body)
    size = (content + 15) // 16 * 16
    head = struct.pack("<I16sIQ", MAGIC, UUID, sid, cpu)
    ctx = struct.pack("<QQQQQQI", begin, end, content * 8, size * 8, seq, discarded, cpu)
    return (head + ctx + body).ljust(size, b"\0")


# ---- the seeds: times are cycles of the 1 GHz clock ----

T = 1000000


def switch(ts, prev, nxt, state=0, pcomm="", ncomm=""):
    return (ts, "sched_switch", {"prev_comm": pcomm or "t%d" % prev, "prev_tid": prev,
                                 "prev_prio": 20, "prev_state": state,
                                 "next_comm": ncomm or "t%d" % nxt, "next_tid": nxt,
                                 "next_prio": 20})


def wake(ts, tid, cpu=0, name="sched_wakeup"):
    return (ts, name, {"comm": "t%d" % tid, "tid": tid, "prio": 20, "target_cpu": cpu})


def dump(ts, tid, pid, name):
    return (ts, "lttng_statedump_process_state",
            {"tid": tid, "vtid": tid, "pid": pid, "vpid": pid, "ppid": 1, "vppid": 1,
             "name": name, "type": 1, "mode": 5, "submode": 0, "status": 5})


def sys_read(ts, ret, fd=3):
    return [(ts, "syscall_entry_read", {"fd": fd, "count": 4096}),
            (ts + 700, "syscall_exit_read", {"ret": ret, "buf": 0x7fff0000})]


def seed_irq_nested():
    """Nested hard IRQs, an IRQ inside a softirq, softirq raise/entry/exit, an exit without
    its entry, an entry still open at the end."""
    return packet([
        (T, "irq_handler_exit", {"irq": 5, "ret": 1}),  # entered before the trace
        (T + 100, "irq_handler_entry", {"irq": 16, "name": "eth0"}),
        (T + 200, "irq_handler_entry", {"irq": 17, "name": "ahci"}),
        (T + 900, "irq_handler_exit", {"irq": 17, "ret": 1}),
        (T + 1000, "irq_handler_exit", {"irq": 16, "ret": 1}),
        (T + 1100, "irq_softirq_raise", {"vec": 3}),
        (T + 1200, "irq_softirq_entry", {"vec": 3}),
        (T + 1300, "irq_handler_entry", {"irq": 16, "name": "eth0"}),
        (T + 1400, "irq_handler_exit", {"irq": 16, "ret": 1}),
        (T + 2200, "irq_softirq_exit", {"vec": 3}),
        (T + 5000, "irq_handler_entry", {"irq": 16, "name": "eth0"}),
        (T + 5300, "irq_handler_exit", {"irq": 16, "ret": 1}),
        (T + 300000000, "irq_softirq_entry", {"vec": 1}),  # a long gap: extended header
        (T + 300000400, "irq_softirq_exit", {"vec": 1}),
        (T + 300000500, "irq_handler_entry", {"irq": 30, "name": "timer"}),
    ], cpu=0)


def seed_sched_wakeups():
    """A state dump, switches with wake-ups (waking then wakeup), preemption, blocking and
    the idle task, a wake-up of a running task."""
    return packet([
        dump(T, 200, 200, "server"), dump(T + 10, 201, 200, "server-w"),
        dump(T + 20, 300, 300, "client"),
        switch(T + 1000, 0, 200, ncomm="server"),
        wake(T + 1500, 200),  # running: ignored
        switch(T + 2000, 200, 300, state=1),  # blocked
        (T + 2500, "sched_waking", {"comm": "server", "tid": 200, "prio": 20,
                                    "target_cpu": 1}),
        wake(T + 2600, 200, cpu=1),
        switch(T + 4000, 300, 200, state=0),  # preempted
        switch(T + 6000, 200, 201, state=1),
        wake(T + 6100, 300),
        switch(T + 7000, 201, 0, state=1),
        switch(T + 9000, 0, 300),
        wake(T + 9500, 200),
        switch(T + 12000, 300, 200, state=0x100),  # preempted, 4.14+ style
        wake(T + 12100, 300),  # more wake-ups than the 3 worst kept
        switch(T + 12200, 200, 300, state=1),
        wake(T + 12300, 200),
        switch(T + 19000, 300, 200, state=1),
    ], cpu=1)


def seed_fork_exec_exit():
    """fork, the child's wake-up and first run (its return from clone), exec, exit_group,
    exit and free."""
    return packet([
        dump(T, 100, 100, "bash"),
        switch(T + 100, 0, 100, ncomm="bash"),
        (T + 200, "syscall_entry_clone", {"clone_flags": 0x1200011}),
        (T + 800, "sched_process_fork", {"parent_comm": "bash", "parent_tid": 100,
                                         "parent_pid": 100, "child_comm": "bash",
                                         "child_tid": 101, "vtids": [101],
                                         "child_pid": 101}),
        wake(T + 900, 101, name="sched_wakeup_new"),
        (T + 1000, "syscall_exit_clone", {"ret": 101}),
        switch(T + 1100, 100, 101, state=1),
        (T + 1200, "syscall_exit_clone", {"ret": 0}),  # the child's return: no entry
        (T + 1300, "sched_process_exec", {"filename": "/bin/ls", "tid": 101, "old_tid": 101}),
        *sys_read(T + 1400, 512),
        (T + 3000, "syscall_entry_exit_group", {"error_code": 0}),
        (T + 3100, "sched_process_exit", {"comm": "ls", "tid": 101, "prio": 20}),
        switch(T + 3200, 101, 0, state=0x40),
        (T + 3300, "sched_process_free", {"comm": "ls", "tid": 101, "prio": 20}),
    ], cpu=0)


def seed_syscalls():
    """Read pairs, one returning an error, an exit without its entry, an entry superseded
    by another, raw calls (syscall_entry_unknown: extended headers), two threads."""
    return packet([
        dump(T, 400, 400, "reader"), dump(T + 1, 401, 400, "reader"),
        switch(T + 10, 0, 400),
        (T + 20, "syscall_exit_read", {"ret": 10}),  # entered before the trace
        *sys_read(T + 100, 4096),
        *sys_read(T + 1000, -11),  # EAGAIN
        (T + 2000, "syscall_entry_read", {"fd": 4}),  # its exit lost: superseded
        *sys_read(T + 2100, 0),
        (T + 3000, "syscall_entry_unknown", {"id": 450, "args": [1, 2, 3, 4, 5, 6]}),
        (T + 3400, "syscall_exit_unknown", {"id": 450, "ret": -38}),
        switch(T + 4000, 400, 401, state=0),
        *sys_read(T + 4100, -4096),  # not an errno
        (T + 5000, "syscall_entry_read", {"fd": 5}),  # still open at the end
    ], cpu=2)


def seed_block():
    """A named device, insert/issue/complete (read, write, flush), a completion without
    its issue, a re-issue, a request still pending."""
    sda, sdb = 8 << 20, 8 << 20 | 16
    def rq(ts, name, dev, sector, nr, rwbs, tid=500):
        v = {"dev": dev, "sector": sector, "nr_sector": nr, "rwbs": rwbs}
        if name != "block_rq_complete":
            v.update(bytes=nr * 512, tid=tid, comm="kworker")
        return (ts, name, v)
    return packet([
        (T, "lttng_statedump_block_device", {"dev": sda, "diskname": "sda"}),
        switch(T + 5, 0, 500, ncomm="kworker"),
        rq(T + 10, "block_rq_insert", sda, 2048, 8, 4),
        rq(T + 20, "block_rq_issue", sda, 2048, 8, 4),
        rq(T + 30, "block_rq_issue", sdb, 100, 16, 1),
        rq(T + 40, "block_rq_complete", sda, 999, 8, 4),  # issued before the trace
        rq(T + 25000, "block_rq_complete", sda, 2048, 8, 4),
        rq(T + 26000, "block_rq_issue", sdb, 100, 16, 1),  # re-issued
        rq(T + 90000, "block_rq_complete", sdb, 100, 16, 1),
        rq(T + 91000, "block_rq_issue", sda, 0, 0, 0),  # a flush
        rq(T + 92000, "block_rq_complete", sda, 0, 0, 0),
        rq(T + 93000, "block_rq_issue", sda, 4096, 8, 2),  # a discard, never completed
    ], cpu=3)


def seed_lost_events():
    """Three packets; the second says 5 events were lost, the third 7 more: runs, calls,
    requests and wake-ups in flight are dropped."""
    p0 = packet([
        switch(T, 0, 600), (T + 100, "irq_handler_entry", {"irq": 9, "name": "acpi"}),
        (T + 200, "syscall_entry_read", {"fd": 0}),
        (T + 300, "block_rq_issue", {"dev": 1 << 20, "sector": 8, "nr_sector": 1}),
        wake(T + 400, 601),
    ], cpu=1, seq=0)
    p1 = packet([
        (T + 5000, "irq_handler_exit", {"irq": 9, "ret": 1}),
        (T + 5100, "syscall_exit_read", {"ret": 1}),
        (T + 5200, "block_rq_complete", {"dev": 1 << 20, "sector": 8, "nr_sector": 1}),
        switch(T + 5300, 600, 601, state=1),
    ], cpu=1, discarded=5, seq=1)
    p2 = packet([switch(T + 9000, 601, 600), *sys_read(T + 9100, 3)],
                cpu=1, discarded=12, seq=2, end=T + 20000)
    return p0 + p1 + p2


def seed_context_tid():
    """Stream class 1: the large header and a tid/pid context, so the calls' thread is the
    context's; a 32-bit gap (extended large header)."""
    ctx = (700, 700)
    return packet([
        (T, "sched_switch", {"prev_tid": 0, "next_tid": 700, "next_comm": "ctx"}, (0, 0)),
        (T + 100, "syscall_entry_read", {"fd": 3}, ctx),
        (T + 900, "syscall_exit_read", {"ret": -9}, ctx),
        (T + 1000, "irq_handler_entry", {"irq": 4, "name": "serial"}, ctx),
        (T + 1200, "irq_handler_exit", {"irq": 4, "ret": 0}, ctx),
        (T + 2000, "syscall_entry_read", {"fd": 3}, (701, 700)),
        (T + (1 << 32) + 5, "syscall_exit_read", {"ret": 7}, (701, 700)),
        (T + (1 << 32) + 50, "sched_switch", {"prev_tid": 700, "next_tid": 0}, ctx),
    ], sid=1, cpu=4)


SEEDS = {
    "irq-nested": seed_irq_nested,
    "sched-wakeups": seed_sched_wakeups,
    "fork-exec-exit": seed_fork_exec_exit,
    "syscalls": seed_syscalls,
    "block": seed_block,
    "lost-events": seed_lost_events,
    "context-tid": seed_context_tid,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files")
    ap.add_argument("--trace", metavar="DIR", help="also write one trace directory per seed")
    args = ap.parse_args()

    meta = embedded_metadata().encode("utf-8")
    stale = []
    for name, fn in SEEDS.items():
        data = fn()
        assert len(data) < MAX_SEED, (name, len(data))
        path = os.path.join(HERE, "corpus", "analyses", name)
        if args.check:
            try:
                same = open(path, "rb").read() == data
            except OSError:
                same = False
            if not same:
                stale.append(name)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        if args.trace:
            d = os.path.join(args.trace, name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "metadata"), "wb") as f:
                f.write(meta)
            with open(os.path.join(d, "channel0_0"), "wb") as f:
                f.write(data)
    if stale:
        print("stale seeds (run tests/fuzz/make-analysis-seeds.py):", " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
