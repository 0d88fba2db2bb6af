#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
gen-calls.py -- function-call traces of known call trees, for spoor graph's tests.

Usage:
    gen-calls.py --prog PROG --stripped STRIPPED --lib LIB OUTDIR

PROG is tests/programs/calls-tree.c built, STRIPPED a copy of it without symbols (strip -s),
LIB a shared library with a global function plugin_run (tests/programs/dl-provider.c):
their functions' addresses (nm) and build-ids (readelf -n) make the calls' addresses. The
traces are LTTng-UST's layout (CTF 1.8, gen-ctf.py's writer): the load map
(lttng_ust_statedump:bin_info, build_id; lttng_ust_dl:dlopen, build_id, dlclose), calls
(lttng_ust_cyg_profile:func_entry/func_exit, spoor_calls:call) and an app event, a stream
per thread, every time different. Written in OUTDIR:

    calls-tree/       two threads of one process: a tree, recursion, a longjmp (an exit
                      of a caller: the calls above it unwound), a signal handler nested in
                      the call it interrupted, app events as comments (and two of a thread
                      without calls, not shown, which renames itself between them), a
                      function of a library between its dlopen and dlclose, then the same
                      address after the dlclose
    calls-midstart/   a thread whose trace starts inside three calls and ends inside two,
                      in the stripped program (names as STRIPPED+0xOFFSET); then an event
                      of another thread without calls
    calls-whole/      the tree of calls-tree's first thread as spoor_calls:call events
                      (written at exits, post-order, with durations)
    calls-lost/       a thread whose stream lost events (a packet counting them): an exit
                      and an entry lost; then events lost after its last one (a last
                      packet with none)
    NAME.graph        the output `spoor graph NAME` must give: ftrace's function_graph
                      layout, rendered here from the calls themselves (an oracle that
                      shares no code with spoor)
    NAME.hits         per function, the calls that ended (the profile's hits), as JSON
    NAME.flame        the calls as spoor view's flame rows must hold them, as JSON: [tid,
                      depth, begin, end, name, flags] (ns from the trace's first event;
                      flags: 1 no entry, 2 no exit, 4 unwound), sorted
    NAME.names        the function each entry, exit and whole call event names, as spoor
                      view's event list must give it, as JSON: {"TID T": name} (T: ns from
                      the trace's first event)

Deterministic: the same inputs give the same files.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("genctf", os.path.join(HERE, "gen-ctf.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

UUID = "5f0c8a7e-22a1-4c55-9a3e-7d1f0b2c3e4d"
PROG_BASE = 0x555555554000
LIB_BASE = 0x7F1234560000
hex64 = g.Int(64, align=8, base=16)
u8 = g.uint8_t
u64 = g.uint64_t
CONTEXT = g.Struct([
    ("_vpid", g.Int(32, signed=True, align=8, base=10)),
    ("_vtid", g.Int(32, signed=True, align=8, base=10)),
    ("_procname", g.Array(g.utf8_char, 17)),
])
CLASSES = [
    (0, "lttng_ust_statedump:start", None, None, g.Struct([])),
    (1, "lttng_ust_statedump:bin_info", None, None, g.Struct([
        ("_baddr", hex64), ("_memsz", u64), ("_path", g.String()), ("_is_pic", u8),
        ("_has_build_id", u8), ("_has_debug_link", u8)])),
    (2, "lttng_ust_statedump:build_id", None, None, g.Struct([
        ("_baddr", hex64), ("__build_id_length", u64),
        ("_build_id", g.Sequence(g.Int(8, align=8, base=16), "__build_id_length"))])),
    (3, "lttng_ust_statedump:end", None, None, g.Struct([])),
    (4, "lttng_ust_dl:dlopen", None, None, g.Struct([
        ("_baddr", hex64), ("_memsz", u64), ("_flags", g.Int(32, signed=True, align=8, base=16)),
        ("_path", g.String()), ("_has_build_id", u8), ("_has_debug_link", u8)])),
    (5, "lttng_ust_dl:build_id", None, None, g.Struct([
        ("_baddr", hex64), ("__build_id_length", u64),
        ("_build_id", g.Sequence(g.Int(8, align=8, base=16), "__build_id_length"))])),
    (6, "lttng_ust_dl:dlclose", None, None, g.Struct([("_baddr", hex64)])),
    (7, "lttng_ust_cyg_profile:func_entry", None, None,
     g.Struct([("_addr", hex64), ("_call_site", hex64)])),
    (8, "lttng_ust_cyg_profile:func_exit", None, None,
     g.Struct([("_addr", hex64), ("_call_site", hex64)])),
    (9, "spoor_calls:call", None, None,
     g.Struct([("_addr", hex64), ("_call_site", hex64), ("_duration", u64)])),
    (10, "calls_test:mark", None, None, g.Struct([("_msg", g.String())])),
]
BY_NAME = {c[1]: c for c in CLASSES}


def symbols(path):
    out = subprocess.run(["nm", path], check=True, capture_output=True, text=True).stdout
    return {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^([0-9a-f]+) [tTW] (\S+)$", out, re.M)}


def build_id(path):
    out = subprocess.run(["readelf", "-n", path], check=True, capture_output=True,
                         text=True).stdout
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return bytes.fromhex(m.group(1)) if m else b""


class Trace:
    """Events in time order; each time is the last one plus a step (all different)."""

    def __init__(self):
        self.t = 1000
        self.events = []    # (ts, tid, vpid, comm, class, payload)
        self.ops = []       # for the oracle: (ts, tid, comm, op, name, extra)

    def add(self, dt, tid, vpid, comm, cls, payload):
        self.t += dt
        self.events.append((self.t, tid, vpid, comm, cls, payload))
        return self.t

    def op(self, tid, comm, op, name, extra=None):
        self.ops.append((self.t, tid, comm, op, name, extra))


class Thread:
    def __init__(self, tr, tid, vpid, comm, names):
        self.tr, self.tid, self.vpid, self.comm, self.names = tr, tid, vpid, comm, names

    def ev(self, dt, cls, payload):
        return self.tr.add(dt, self.tid, self.vpid, self.comm, cls, payload)

    def entry(self, addr, dt=100):
        self.ev(dt, "lttng_ust_cyg_profile:func_entry", {"_addr": addr, "_call_site": addr + 7})
        self.tr.op(self.tid, self.comm, "entry", self.names(addr))

    def exit(self, addr, dt=100):
        self.ev(dt, "lttng_ust_cyg_profile:func_exit", {"_addr": addr, "_call_site": addr + 7})
        self.tr.op(self.tid, self.comm, "exit", self.names(addr))

    def call(self, addr, dt_in=100, dt_out=100, body=None):
        self.entry(addr, dt_in)
        if body:
            body()
        self.exit(addr, dt_out)

    def lose(self, n):
        """The events written next were preceded by n the stream lost: a new packet whose
        context counts them."""
        self.tr.events.append((self.tr.t, self.tid, None, None, "__lost__", n))
        self.tr.op(self.tid, self.comm, "lost", None, n)

    def mark(self, msg, dt=50, shown=True):
        self.ev(dt, "calls_test:mark", {"_msg": msg})
        if shown:
            self.tr.op(self.tid, self.comm, "comment", "calls_test:mark: msg=" + msg)


def statedump(th, objects):
    th.ev(10, "lttng_ust_statedump:start", {})
    for base, path, bid in objects:
        th.ev(10, "lttng_ust_statedump:bin_info",
              {"_baddr": base, "_memsz": 0x100000, "_path": path, "_is_pic": 1,
               "_has_build_id": 1, "_has_debug_link": 0})
        th.ev(10, "lttng_ust_statedump:build_id",
              {"_baddr": base, "__build_id_length": len(bid), "_build_id": bid})
    th.ev(10, "lttng_ust_statedump:end", {})


# --- the traces --------------------------------------------------------------------------

def tree_trace(prog, lib):
    sym, lsym, bid, lbid = symbols(prog), symbols(lib), build_id(prog), build_id(lib)
    a = {n: PROG_BASE + v for n, v in sym.items()}
    plugin = LIB_BASE + lsym["plugin_run"]
    state = {"lib": False}

    def names(addr):
        for n, v in a.items():
            if v == addr or v + 4 == addr:
                return n
        if addr == plugin and state["lib"]:
            return "plugin_run"
        return "0x%x" % addr

    tr = Trace()
    main = Thread(tr, 101, 100, "calls-tree", names)
    other = Thread(tr, 102, 100, "calls-tree", names)
    quiet = Thread(tr, 103, 100, "calls-tree", names)
    statedump(main, [(PROG_BASE, prog, bid)])
    main.entry(a["main"], 1000)
    main.entry(a["ct_a"])
    main.call(a["ct_leaf1"], 200, 350)                 # 0.350 us
    main.mark("inside ct_a")
    quiet.mark("a thread without calls", shown=False)
    main.call(a["ct_b"], body=lambda: main.call(a["ct_leaf2"], 100, 12000))   # + mark
    main.exit(a["ct_a"], 150)
    # ! mark: 150 us; the address a -pg hook reports, the mcount call's, 4 bytes in
    main.call(a["ct_leaf1"] + 4, 100, 150000)
    # recursion
    main.call(a["ct_rec"], body=lambda: main.call(
        a["ct_rec"], body=lambda: main.call(a["ct_rec"], 100, 2000000)))     # # mark
    # longjmp: h leaves through g to f
    main.entry(a["ct_jump_f"])
    main.entry(a["ct_jump_g"])
    main.entry(a["ct_jump_h"])
    main.exit(a["ct_jump_f"], 300)
    tr.ops[-1] = tr.ops[-1][:3] + ("exit-longjmp", tr.ops[-1][4], ["ct_jump_h", "ct_jump_g"])
    # a signal handler nested in the call it interrupted
    main.call(a["ct_work"], body=lambda: main.call(
        a["ct_handler"], body=lambda: main.call(a["ct_leaf2"])))
    # a library loaded, called, unloaded; the same address called after
    main.ev(100, "lttng_ust_dl:dlopen", {"_baddr": LIB_BASE, "_memsz": 0x10000, "_flags": 1,
                                         "_path": lib, "_has_build_id": 1,
                                         "_has_debug_link": 0})
    main.ev(10, "lttng_ust_dl:build_id",
            {"_baddr": LIB_BASE, "__build_id_length": len(lbid), "_build_id": lbid})
    state["lib"] = True
    main.call(plugin, 100, 20000000)                   # * mark: 20 ms
    main.ev(100, "lttng_ust_dl:dlclose", {"_baddr": LIB_BASE})
    state["lib"] = False
    main.call(plugin)
    # the other thread, then main's end
    other.call(a["ct_thread"], body=lambda: (other.call(a["ct_leaf1"]),
                                             other.call(a["ct_leaf1"])))
    main.exit(a["main"], 1000)
    # the thread without calls renamed itself (prctl): its procname context changes
    Thread(tr, 103, 100, "ct-renamed", names).mark("renamed", shown=False)
    return tr


def midstart_trace(stripped):
    sym, bid = symbols_of_stripped(stripped), build_id(stripped)
    base = os.path.basename(stripped)
    a = {n: PROG_BASE + v for n, v in sym.items()}

    def names(addr):
        return "%s+0x%x" % (base, addr - PROG_BASE)

    tr = Trace()
    th = Thread(tr, 201, 200, "calls-tree", names)
    statedump(th, [(PROG_BASE, stripped, bid)])
    # the trace starts inside main > ct_a > ct_b > ct_leaf2
    th.exit(a["ct_leaf2"])
    th.exit(a["ct_b"])
    th.call(a["ct_leaf1"])
    th.exit(a["ct_a"])
    th.call(a["ct_rec"])
    # and ends inside ct_work > ct_handler
    th.entry(a["ct_work"])
    th.entry(a["ct_handler"])
    th.mark("last words")
    # another thread's event later: the calls left open end at their own thread's last
    Thread(tr, 202, 200, "calls-tree", names).mark("after 201's last", shown=False)
    return tr


def lost_trace(prog):
    """A thread whose stream lost events: ct_a's exit and ct_b's entry."""
    sym, bid = symbols(prog), build_id(prog)
    a = {n: PROG_BASE + v for n, v in sym.items()}
    names = {v: n for n, v in a.items()}.get
    tr = Trace()
    th = Thread(tr, 401, 400, "calls-tree", names)
    statedump(th, [(PROG_BASE, prog, bid)])
    th.entry(a["main"])
    th.entry(a["ct_a"])
    th.call(a["ct_leaf1"])
    th.lose(2)
    th.call(a["ct_leaf2"])      # inside ct_b, whose entry was lost: under ct_a here
    th.exit(a["ct_b"])          # an exit without entry after a loss: the stack stays
    th.call(a["ct_rec"])
    th.exit(a["main"])          # ct_a, whose exit was lost, ends there: exit lost
    th.lose(3)                  # after the stream's last event
    return tr


def symbols_of_stripped(stripped):
    # strip -s keeps no names: the unstripped program beside it (same build) has them
    return symbols(stripped[:-len("-stripped")] if stripped.endswith("-stripped") else stripped)


def whole_trace(tree):
    """tree's first thread, but as whole calls written at their exits (none for the calls a
    longjmp unwound: they never exit), and its load map events."""
    tr = Trace()
    stack = []
    for ts, tid, vpid, comm, cls, payload in tree.events:
        if tid != 101:
            continue
        if cls == "lttng_ust_cyg_profile:func_entry":
            stack.append((ts, payload))
        elif cls == "lttng_ust_cyg_profile:func_exit":
            while stack[-1][1]["_addr"] != payload["_addr"]:
                stack.pop()
            begin, p = stack.pop()
            tr.events.append((ts, tid, vpid, comm, "spoor_calls:call",
                              dict(p, _duration=ts - begin)))
        elif cls.startswith("lttng_ust_statedump") or cls.startswith("lttng_ust_dl"):
            tr.events.append((ts, tid, vpid, comm, cls, payload))
    tr.ops = whole_ops([o for o in tree.ops if o[1] == 101])
    return tr


def whole_ops(ops):
    """Calls-tree's ops without the calls a longjmp unwound (no whole call is written for
    them) and without comments (the whole calls come after them)."""
    out, open_ = [], []
    for o in ops:
        if o[3] == "entry":
            open_.append(len(out))
            out.append(o)
        elif o[3] == "exit":
            open_.pop()
            out.append(o)
        elif o[3] == "exit-longjmp":
            for _ in o[5]:
                del out[open_.pop()]
            open_.pop()
            out.append(o[:3] + ("exit", o[4], None))
    return out


# --- writing ------------------------------------------------------------------------------

def metadata():
    m = "/* CTF 1.8 */\n\n/* spoor graph's test trace, written by tests/data/gen-calls.py */\n\n"
    m += g.tsdl_typealiases(g.BASE_ALIASES)
    m += g.tsdl_trace_block("le", UUID, g.PACKET_HEADER)
    m += g.tsdl_env('\ttracer_name = "lttng-ust";\n', domain="ust")
    m += g.tsdl_clock()
    m += g.tsdl_typealiases(g.CLOCK_ALIASES)
    m += g.PACKET_CONTEXT.definition()
    m += g.HDR_LARGE.definition()
    m += ("stream {\n\tid = 0;\n\tevent.header := struct event_header_large;\n"
          "\tpacket.context := struct packet_context;\n"
          "\tevent.context := %s;\n};\n\n" % CONTEXT.inline_spec("\t"))
    for c in CLASSES:
        m += g.tsdl_event(*c)
    return m.encode()


def procname(comm):
    raw = comm.encode()[:16]
    return raw + bytes(17 - len(raw))


def streams(events):
    files = {"metadata": metadata()}
    tids = sorted({e[1] for e in events})
    for cpu, tid in enumerate(tids):
        evs = [e for e in events if e[1] == tid]
        packets, cur, discarded = [], [], 0
        for e in evs:
            if e[4] == "__lost__":
                packets.append((cur, discarded))
                cur, discarded = [], discarded + e[5]
            else:
                cur.append(e)
        packets.append((cur, discarded))
        data = b""
        for pevs, disc in packets:
            if pevs or disc:    # a last packet of no events: only its count of losses
                data += packet(tid, cpu, pevs, disc, evs[-1][0])
        files["channel0_%d" % cpu] = data
    return files


def packet(tid, cpu, evs, discarded, last):
    begin = evs[0][0] if evs else last
    writers, clock = [], begin
    for ts, _, vpid, comm, cls, payload in evs:
        ev_id, ft = BY_NAME[cls][0], BY_NAME[cls][4]
        _, hdr = g.large_header(ev_id, ts, clock)
        clock = ts

        def write(w, hdr=hdr, vpid=vpid, tid=tid, comm=comm, payload=payload, ft=ft):
            g.HDR_LARGE.write(w, hdr, {})
            CONTEXT.write(w, {"_vpid": vpid, "_vtid": tid, "_procname": procname(comm)}, {})
            ft.write(w, payload, {})
        writers.append(write)
    hv = {"magic": g.CTF_MAGIC, "uuid": g.uuid_bytes(UUID), "stream_id": 0}
    data, _ = g.build_packet("le", g.PACKET_HEADER, hv, g.PACKET_CONTEXT,
                             {"timestamp_begin": begin, "timestamp_end": evs[-1][0] if evs else last,
                              "events_discarded": discarded, "cpu_id": cpu}, writers)
    return data


# --- the oracle: ftrace's function_graph layout (kernel/trace/trace_functions_graph.c) ----

def duration(ns):
    us, rem = divmod(ns, 1000)
    s = str(us)
    if len(s) < 7:
        s += "." + ("%03d" % rem)[:min(3, 7 - len(s))]
    return s + " us " + " " * max(0, 8 - len(s))


def mark(ns):
    for over, sym in ((10**9, "$"), (10**8, "@"), (10**7, "*"), (10**6, "#"), (10**5, "!"),
                      (10**4, "+")):
        if ns > over:
            return sym
    return " "


def proc(comm, tid):
    s = "%s-%d" % (comm[:7], tid)
    sp = max(0, 14 - len(s))
    return " " * (sp // 2) + s + " " * (sp - sp // 2)


def render(ops, seeds=None):
    """ops in time order: (ts, tid, comm, op, name, extra). seeds: per tid, the calls open
    before the first op (as spoor's pre-pass counts them)."""
    out = ["# tracer: function_graph", "#",
           "#  TASK/PID         DURATION                  FUNCTION CALLS",
           "#   |    |           |   |                     |   |   |   |"]
    state = {"last": None, "pending": None}
    stacks, base, cur_depth, lost = {}, dict(seeds or {}), {}, {}
    losses, unshown = {}, {}    # per tid: losses so far; lost events not shown yet
    cpus = {tid: cpu for cpu, tid in enumerate(sorted({o[1] for o in ops}))}  # as streams()

    def show_lost(tid):
        # before the thread's next line, as ftrace prints a buffer's losses
        if unshown.get(tid):
            flush()
            out.append("CPU:%d [LOST %d EVENTS]" % (cpus[tid], unshown.pop(tid)))

    def line(tid, comm, dur, depth, text):
        if state["last"] is not None and state["last"][0] != tid:
            out.append(" ------------------------------------------")
            out.append(proc(state["last"][1], state["last"][0]) + " => " + proc(comm, tid))
            out.append(" ------------------------------------------")
            out.append("")
        state["last"] = (tid, comm)
        d = "              |  " if dur is None else mark(dur) + " " + duration(dur) + "|  "
        out.append(proc(comm, tid) + " | " + d + "  " * depth + text)

    def flush():
        p = state["pending"]
        if p:
            state["pending"] = None
            line(p[0], p[1], None, p[2], p[3] + "() {")

    def leave(tid, comm, depth, name, dur, tail=None):
        p = state["pending"]
        if p and p[0] == tid and p[2] == depth and tail is None:
            state["pending"] = None
            line(tid, comm, dur, depth, name + "();")
            return
        flush()
        line(tid, comm, dur if tail is None else None, depth,
             "}" if tail is None else "} /* %s%s */" % (name, tail))

    for ts, tid, comm, op, name, extra in ops:
        st = stacks.setdefault(tid, [])
        b = base.get(tid, 0)
        if op != "lost":
            show_lost(tid)
        if op == "entry":
            flush()
            state["pending"] = (tid, comm, b + len(st), name)
            st.append((name, ts, losses.get(tid, 0)))
            cur_depth[tid] = b + len(st)
        elif op in ("exit", "exit-longjmp"):
            names = [n for n, _, _ in st]
            if name in names:   # what lies above it was unwound (a longjmp), or lost its exit
                while st[-1][0] != name:
                    n, _, at = st.pop()
                    tail = " (exit lost)" if at != losses.get(tid, 0) else " (unwound)"
                    leave(tid, comm, b + len(st), n, None, tail)
                n, begin, _ = st.pop()
                leave(tid, comm, b + len(st), n, ts - begin)
            elif lost.get(tid):  # its entry was lost: where it is, the stack unchanged
                leave(tid, comm, b + len(st), name, None, "")
            else:
                while st:
                    n, _, _ = st.pop()
                    leave(tid, comm, b + len(st), n, None, " (unwound)")
                base[tid] = b - 1
                leave(tid, comm, b - 1, name, None, "")
            cur_depth[tid] = base.get(tid, 0) + len(st)
        elif op == "lost":
            lost[tid] = True
            losses[tid] = losses.get(tid, 0) + 1
            unshown[tid] = unshown.get(tid, 0) + extra
        elif op == "comment":
            flush()
            line(tid, comm, None, cur_depth.get(tid, 0), "/* %s */" % name)
    for tid in sorted(unshown, key=cpus.get):  # lost after a stream's last event
        show_lost(tid)
    flush()
    return "\n".join(out) + "\n"


def hits(ops):
    """The calls that ended: matched exits (not those without an entry, nor unwound)."""
    h, stacks = {}, {}
    for _, tid, _, op, name, extra in ops:
        st = stacks.setdefault(tid, [])
        if op == "entry":
            st.append(name)
        elif op in ("exit", "exit-longjmp") and name in st:
            while st.pop() != name:
                pass
            h[name] = h.get(name, 0) + 1
    return h


def flame(tr, seeds=None):
    """The calls by thread and depth (lib/timeline/flame.h's rules): a call open when the
    trace began starts at the trace's start, one whose entry was lost after the call before
    it at its depth (else at its thread's first call event), one open at the end ends at
    its thread's last event."""
    t0, t_end = tr.events[0][0], {}
    for e in tr.events:
        t_end[e[1]] = max(t_end.get(e[1], e[0]), e[0])
    base, stacks, lost, first, last_end, out = dict(seeds or {}), {}, {}, {}, {}, []

    def put(tid, depth, begin, end, name, flags):
        last_end[(tid, depth)] = end
        out.append([tid, depth, begin - t0, end - t0, name, flags])

    for ts, tid, comm, op, name, extra in tr.ops:
        st, b = stacks.setdefault(tid, []), base.get(tid, 0)
        if op in ("entry", "exit", "exit-longjmp"):
            first.setdefault(tid, ts)
        if op == "entry":
            st.append((name, ts))
        elif op in ("exit", "exit-longjmp"):
            if name in [n for n, _ in st]:
                while st[-1][0] != name:
                    n, begin = st.pop()
                    put(tid, b + len(st), begin, ts, n, 4)
                n, begin = st.pop()
                put(tid, b + len(st), begin, ts, n, 0)
            elif lost.get(tid):
                d = b + len(st)
                put(tid, d, last_end.get((tid, d), first[tid]), ts, name, 1)
            else:
                while st:
                    n, begin = st.pop()
                    put(tid, b + len(st), begin, ts, n, 4)
                base[tid] = b - 1
                put(tid, b - 1, t0, ts, name, 1)
        elif op == "lost":
            lost[tid] = True
    for tid, st in stacks.items():
        while st:
            n, begin = st.pop()
            put(tid, base.get(tid, 0) + len(st), begin, t_end[tid], n, 2)
    return sorted(out)


def event_names(tr):
    """The function each event of a call names: its op's (an op at an event's time is that
    event's; a whole call's trace keeps the ops of its entries, which have no event)."""
    t0 = tr.events[0][0]
    calls = {(e[1], e[0]) for e in tr.events if e[4].startswith(("lttng_ust_cyg", "spoor_calls"))}
    return {"%d %d" % (tid, ts - t0): name for ts, tid, comm, op, name, extra in tr.ops
            if op in ("entry", "exit", "exit-longjmp") and (tid, ts) in calls}


def main(argv):
    args, opts = [], {}
    it = iter(argv[1:])
    for a in it:
        if a in ("--prog", "--stripped", "--lib"):
            opts[a[2:]] = os.path.abspath(next(it))
        else:
            args.append(a)
    if len(args) != 1 or sorted(opts) != ["lib", "prog", "stripped"]:
        sys.stderr.write(__doc__)
        return 2
    tree = tree_trace(opts["prog"], opts["lib"])
    mid = midstart_trace(opts["stripped"])
    whole = whole_trace(tree)
    traces = {"calls-tree": (tree, None), "calls-midstart": (mid, {201: 3}),
              "calls-whole": (whole, None), "calls-lost": (lost_trace(opts["prog"]), None)}
    out = args[0]
    g.write_traces(out, {n: streams(t.events) for n, (t, _) in traces.items()})
    for n, (t, seeds) in traces.items():
        with open(os.path.join(out, n + ".graph"), "w") as f:
            f.write(render(t.ops, seeds))
        with open(os.path.join(out, n + ".hits"), "w") as f:
            json.dump(hits(t.ops), f, sort_keys=True)
        with open(os.path.join(out, n + ".flame"), "w") as f:
            json.dump(flame(t, seeds), f)
        with open(os.path.join(out, n + ".names"), "w") as f:
            json.dump(event_names(t), f, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
