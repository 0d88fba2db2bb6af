#!/usr/bin/env python3
"""Small synthetic kernel traces for the analyses' tests, written with gen-ctf.py's
independent CTF writer (its types, headers and packet layout; LTTng's kernel layout).

    import gen_kernel
    gen_kernel.write(outdir, events, style="lttng", losses=None, declare=None, env=None)

events: (ts, cpu, name, {field: value, ...}) in any order; ts are clock cycles of the
1 GHz "monotonic" clock (gen-ctf.py's: ns since the epoch = gen_ctf.ns_since_epoch(ts)).
A field's type follows its first value: int -> int64, str -> string, (gen_ctf type, value)
-> that type (an enum, say: gen_kernel.G.Enum); its order, the dict's.
style "ftrace": each event also carries the context common_pid (the `tid` of the event's
dict under the key "common_pid", default -1), as spoor's kernel traces do; "lttng": no
task context, as lttng-modules without added contexts (analyses follow sched_switch);
"lttng_tid": LTTng's, with the context tid (`lttng add-context -k -t tid`), from the same key.
losses: {cpu: [(index, count), ...]}: `count` events lost just before the cpu's
index-th event (the stream gets a new packet there whose events_discarded grew by count;
index = the cpu's number of events: an empty packet after the last, as a recorder's last
read that found only a loss).
declare: {name: {field: value, ...}}: classes the metadata declares without any event
(the values give the types only), after those of the events.
env: {key: value}: more entries of the env block (e.g. tracer_major and tracer_minor: LTTng's
version), strings quoted, integers not.
Returns the path of the trace directory.

    gen_kernel.py --busy OUTDIR     writes busy(OUTDIR) (see there)
    gen_kernel.py --analyses OUTDIR writes analyses(OUTDIR): every SQL analysis table
    gen_kernel.py --spoor OUTDIR    writes spoor(OUTDIR): a trace as spoor record -k writes one
    gen_kernel.py --spoor-reads OUTDIR  spoor(OUTDIR, reads=True): its packets and more losses
"""
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("gen_ctf", os.path.join(_here, "gen-ctf.py"))
gen_ctf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_ctf)

G = gen_ctf
INT = G.Int(64, signed=True, align=8, base=10)
STR = G.String()
PTR = G.Int(64, signed=False, align=8, base=16)  # an address, as spoor writes a pointer


def _type_of(value):
    return value[0] if isinstance(value, tuple) else STR if isinstance(value, str) else INT


def _value(value):
    return value[1] if isinstance(value, tuple) else value


def _classes(events, declare):
    classes = {}
    for _, _, name, fields in events + [(0, 0, n, f) for n, f in declare.items()]:
        f = {k: v for k, v in fields.items() if k != "common_pid"}
        if name not in classes:
            classes[name] = (len(classes), [(k, _type_of(v)) for k, v in f.items()])
    return classes


def _metadata(classes, style, env):
    m = "/* CTF 1.8 */\n\n"
    m += G.tsdl_typealiases(G.BASE_ALIASES)
    m += G.tsdl_trace_block("le", G.TRACE_UUID, G.PACKET_HEADER)
    more = "".join("\t%s = %s;\n" % (k, v if isinstance(v, int) else '"%s"' % v)
                   for k, v in env.items())
    m += 'env {\n\thostname = "synth-host";\n\tdomain = "kernel";\n\ttracer_name = "%s";\n%s};\n\n' % (
        "lttng-modules" if style.startswith("lttng") else "spoor", more)
    m += G.tsdl_clock()
    m += G.tsdl_typealiases(G.CLOCK_ALIASES)
    m += G.PACKET_CONTEXT.definition()
    m += G.HDR_COMPACT.definition()
    m += "stream {\n\tid = 0;\n\tevent.header := struct event_header_compact;\n"
    m += "\tpacket.context := struct packet_context;\n"
    if style in _CTXS:
        m += "\tevent.context := %s;\n" % _CTXS[style].inline_spec("\t")
    m += "};\n\n"
    for name, (ev_id, fields) in sorted(classes.items(), key=lambda kv: kv[1][0]):
        m += G.tsdl_event(ev_id, name, None, None, G.Struct(fields) if fields else G.Struct([("_dummy", G.uint8_t)]))
    return m


_CTXS = {style: G.Struct([(name, G.Int(32, signed=True, align=8, base=10))])
         for style, name in (("ftrace", "_common_pid"), ("lttng_tid", "_tid"))}


def _stream(cpu, evs, classes, style, losses):
    """evs: this CPU's events in time order."""
    cuts = dict(losses.get(cpu, []))
    out = bytearray()
    discarded = 0
    start = 0
    bounds = sorted(set([0] + [i for i in cuts if 0 < i < len(evs)] + [len(evs)]))
    if 0 in cuts:
        discarded += cuts[0]
    for a, b in zip(bounds, bounds[1:]):
        chunk = evs[a:b]
        if a and a in cuts:
            discarded = (discarded + cuts[a]) % 2**64  # a 64-bit counter wraps
        ts_begin, ts_end = chunk[0][0], chunk[-1][0]
        clock = [ts_begin]
        writers = []
        for ts, _, name, fields in chunk:
            ev_id, ftypes = classes[name]
            kind, hdr = G.compact_header(ev_id, ts, clock[0])
            clock[0] = ts
            payload = {k: _value(fields[k]) for k, _ in ftypes} if ftypes else {"_dummy": 0}
            ftype = G.Struct(ftypes) if ftypes else G.Struct([("_dummy", G.uint8_t)])
            pid = fields.get("common_pid", -1)

            def write_event(w, hdr=hdr, payload=payload, ftype=ftype, pid=pid):
                w.align(8)
                G.HDR_COMPACT.write(w, hdr, {})
                if style in _CTXS:
                    ctx = _CTXS[style]
                    ctx.write(w, {ctx.fields[0][0]: pid}, {})
                ftype.write(w, payload, {})
            writers.append(write_event)
        hv = {"magic": G.CTF_MAGIC, "uuid": G.uuid_bytes(G.TRACE_UUID), "stream_id": 0}
        data, _ = G.build_packet("le", G.PACKET_HEADER, hv, G.PACKET_CONTEXT,
                                 {"timestamp_begin": ts_begin, "timestamp_end": ts_end,
                                  "events_discarded": discarded, "cpu_id": cpu}, writers)
        out += data
        start = b
    if evs and len(evs) in cuts:
        discarded = (discarded + cuts[len(evs)]) % 2**64
        hv = {"magic": G.CTF_MAGIC, "uuid": G.uuid_bytes(G.TRACE_UUID), "stream_id": 0}
        data, _ = G.build_packet("le", G.PACKET_HEADER, hv, G.PACKET_CONTEXT,
                                 {"timestamp_begin": evs[-1][0], "timestamp_end": evs[-1][0],
                                  "events_discarded": discarded, "cpu_id": cpu}, [])
        out += data
    return bytes(out)


def switch(ts, cpu, prev, nxt, comms, style="lttng", state=1):
    """A sched_switch event from task prev to task nxt, named by comms ({tid: name}), with
    the style's field names (LTTng's prev_tid, ftrace's prev_pid)."""
    k = "tid" if style.startswith("lttng") else "pid"
    return (ts, cpu, "sched_switch", {"prev_comm": comms[prev], "prev_" + k: prev,
                                      "prev_prio": 20, "prev_state": state,
                                      "next_comm": comms[nxt], "next_" + k: nxt, "next_prio": 20})


def write(outdir, events, style="lttng", losses=None, declare=None, env=None):
    assert style in ("lttng", "ftrace", "lttng_tid")
    losses = losses or {}
    events = sorted(events, key=lambda e: (e[0], e[1]))
    classes = _classes(events, declare or {})
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "metadata"), "w") as f:
        f.write(_metadata(classes, style, env or {}))
    for cpu in sorted({e[1] for e in events}):
        evs = [e for e in events if e[1] == cpu]
        with open(os.path.join(outdir, "channel0_%d" % cpu), "wb") as f:
            f.write(_stream(cpu, evs, classes, style, losses))
    return outdir


def busy(outdir):
    """A small stand-in for the LTTng 2.8 kernel trace many-threads (../shared/traces), for
    the tests that need an ordinary busy kernel trace: 4 CPUs, a state dump, switches,
    system calls, interrupts, a fork and an exec, about 6,000 events.

    - Process multithread (pid 1000, threads 1000-1003) runs thread 1000 + c on CPU c; a
      process worker-c (pid 2000 + c) takes CPU c every 8th round for a few system calls.
    - Every 1,000 ns (a round), on each CPU: read(3) and write(1) (entry and exit); every
      4th round an interrupt: irq 30 "i915" on CPU 0, irq 11 "eth0" elsewhere; the longest
      run of all is irq 30's, 550 ns in round 101.
    - Thread 1001 opens /tmp/target for writing (openat, fd 7), dup2s it to 9, closes 7 and
      writes to fd 7 (another file now), then to fd 9 (the file): who-modified.lua.
    - Thread 1000 forks 5000, which execs /bin/rm and unlinks /tmp/victim: who-deleted.lua.
    Returns the trace's path."""
    ev = []

    def add(ts, cpu, event, **f):
        ev.append((ts, cpu, event, f))

    def switch(ts, cpu, prev, prev_comm, nxt, nxt_comm):
        add(ts, cpu, "sched_switch", prev_comm=prev_comm, prev_tid=prev, prev_prio=20,
            prev_state=1, next_comm=nxt_comm, next_tid=nxt, next_prio=20)

    def call(ts, cpu, name, ret, dur=100, **args):
        add(ts, cpu, "syscall_entry_" + name, **args)
        add(ts + dur, cpu, "syscall_exit_" + name, ret=ret)

    for i, tid in enumerate(range(1000, 1004)):
        add(10 + i, 0, "lttng_statedump_process_state", tid=tid, pid=1000, ppid=1,
            name="multithread")
    for c in range(4):
        add(20 + c, 0, "lttng_statedump_process_state", tid=2000 + c, pid=2000 + c, ppid=1,
            name="worker-%d" % c)
    for c in range(4):
        switch(100 + c, c, 0, "swapper/%d" % c, 1000 + c, "multithread")
    for r in range(300):
        for c in range(4):
            t = 1000 + r * 1000 + c * 7
            call(t, c, "read", 100, 50 + 10 * c + r % 5, fd=3, count=100)
            call(t + 200, c, "write", 5, fd=1, count=5)
            if r % 4 == 1:
                irq, name = (30, "i915") if c == 0 else (11, "eth0")
                add(t + 400, c, "irq_handler_entry", irq=irq, name=name)
                add(t + 400 + (550 if (c, r) == (0, 101) else 300 + r % 7 + 20 * c),
                    c, "irq_handler_exit", irq=irq, ret=1)
            if r % 8 == 4:
                switch(t + 600, c, 1000 + c, "multithread", 2000 + c, "worker-%d" % c)
                call(t + 650, c, "getpid", 2000 + c, 20)
                switch(t + 700, c, 2000 + c, "worker-%d" % c, 1000 + c, "multithread")
    # who-modified: open for writing, dup2, close, writes (CPU 1, thread 1001, round 200)
    t = 1000 + 200 * 1000 + 7 + 800
    call(t, 1, "openat", 7, dfd=-100, filename="/tmp/target", flags=1 + 64, mode=0o644)
    call(t + 110, 1, "dup2", 9, 10, oldfd=7, newfd=9)
    call(t + 130, 1, "close", 0, 10, fd=7)
    call(t + 150, 1, "write", 1, 10, fd=7, count=1)
    call(t + 170, 1, "write", 1, 10, fd=9, count=1)
    # who-deleted: fork, exec, unlinkat (CPU 0, round 250)
    t = 1000 + 250 * 1000 + 800
    add(t, 0, "sched_process_fork", parent_comm="multithread", parent_tid=1000,
        parent_pid=1000, child_comm="multithread", child_tid=5000, child_pid=5000)
    switch(t + 20, 0, 1000, "multithread", 5000, "multithread")
    add(t + 40, 0, "sched_process_exec", filename="/bin/rm", tid=5000, old_tid=5000)
    call(t + 60, 0, "unlinkat", 0, 30, dfd=-100, pathname="/tmp/victim", flag=0)
    switch(t + 100, 0, 5000, "rm", 1000, "multithread")
    return write(outdir, ev)


def analyses(outdir):
    """A kernel trace with something for each of SQL's analysis tables (docs/sql.md): 2 CPUs,
    a state dump (threads and a block device), about 4,000 events.

    - Process server (pid 100; threads 100 and 101) and dd (pid 200). 100 runs on CPU 0 and
      makes read and write calls; every 4th round it blocks (prev_state S), 200 wakes it from
      CPU 1 (sched_waking) and it runs again after a latency that grows with the round.
    - On CPU 1, dd (200) inserts and issues a block request every round (alternately a read
      and a write of 8 sectors on nvme0n1, dev 259:0), completed in irq 40 "nvme0q1" on CPU 0
      4,000 ns to 6,000 ns later; every 5th round the block softirq runs after the irq.
      101 preempts 200 every 3rd round (prev_state R) for a getpid call.
    - 100 forks 300 in round 50, which execs /bin/ls on CPU 1, calls openat and exits.
    - A packet every 250 events of a CPU, nothing lost.
    Returns the trace's path."""
    ev = []
    comm = {0: "swapper", 100: "server", 101: "server", 200: "dd", 300: "server"}

    def add(ts, cpu, event, **f):
        ev.append((ts, cpu, event, f))

    def sw(ts, cpu, prev, nxt, state=1):
        ev.append(switch(ts, cpu, prev, nxt, comm, state=state))

    def call(ts, cpu, name, ret, dur, **args):
        add(ts, cpu, "syscall_entry_" + name, **(args or {"dummy": 0}))
        add(ts + dur, cpu, "syscall_exit_" + name, ret=ret)

    for tid, pid in ((100, 100), (101, 100), (200, 200)):
        add(10 + tid // 100, 0, "lttng_statedump_process_state", tid=tid, pid=pid, ppid=1,
            name=comm[tid])
    add(20, 0, "lttng_statedump_block_device", dev=259 << 20, diskname="nvme0n1")
    add(30, 0, "lttng_statedump_end", dummy=0)
    sw(100, 0, 0, 100)
    sw(100, 1, 0, 200)
    for r in range(200):
        t = 1000 + r * 10000
        call(t, 0, "read", 64 if r % 7 else -11, 100 + r % 9 * 10, fd=3, count=64)
        call(t + 300, 0, "write", 8, 50 + r % 4, fd=1, count=8)
        if r % 4 == 3:
            sw(t + 1000, 0, 100, 0)
            add(t + 1500 + r, 1, "sched_waking", comm="server", tid=100, prio=20,
                target_cpu=0)
            sw(t + 1600 + 2 * r, 0, 0, 100)
        rw = 4 if r % 2 else 1  # lttng-modules' RWBS flags: read 4, write 1
        add(t + 200, 1, "block_rq_insert", dev=259 << 20, sector=r * 8, nr_sector=8,
            bytes=4096, rwbs=rw)
        add(t + 250, 1, "block_rq_issue", dev=259 << 20, sector=r * 8, nr_sector=8,
            bytes=4096, rwbs=rw)
        done = t + 4250 + r * 10
        add(done - 20, 0, "irq_handler_entry", irq=40, name="nvme0q1")
        add(done, 0, "block_rq_complete", dev=259 << 20, sector=r * 8, nr_sector=8,
            error=0, rwbs=rw)
        add(done + 30 + r % 3, 0, "irq_handler_exit", irq=40, ret=1)
        if r % 5 == 0:
            add(done + 100, 0, "irq_softirq_entry", vec=4)
            add(done + 160 + r % 11, 0, "irq_softirq_exit", vec=4)
        if r % 3 == 0:
            sw(t + 2000, 1, 200, 101, state=0)
            call(t + 2100, 1, "getpid", 100, 20)
            sw(t + 2500, 1, 101, 200)
        if r == 50:
            add(t + 3000, 0, "sched_process_fork", parent_comm="server", parent_tid=100,
                parent_pid=100, child_comm="server", child_tid=300, child_pid=300)
            add(t + 3100, 1, "sched_wakeup_new", comm="server", tid=300, prio=20,
                target_cpu=1)
            sw(t + 3200, 1, 200, 300, state=0)
            add(t + 3300, 1, "sched_process_exec", filename="/bin/ls", tid=300, old_tid=300)
            call(t + 3400, 1, "openat", 3, 200, dfd=-100, filename="/etc/passwd", flags=0,
                 mode=0)
            add(t + 3700, 1, "sched_process_exit", comm="ls", tid=300, prio=20)
            comm[300] = "ls"
            sw(t + 3800, 1, 300, 200, state=16)
    # a packet every 250 events, none lost: a time range reads only some of them
    return write(outdir, ev, losses={c: [(i, 0) for i in range(250, 4000, 250)] for c in (0, 1)})


# clone flags of glibc's fork and pthread_create (CLONE_THREAD: 0x10000)
PROCESS, THREAD = 0x1200011, 0x3D0F00


def spoor(outdir, reads=False):
    """A kernel trace as `spoor record -k` writes one (style "ftrace": ftrace's event and
    field names, the context common_pid, a statedump_process dump, priorities as the
    kernel's 120, __syscall_nr in the per-call events, the recorder's env keys), for spoor
    convert: 2 CPUs, about 3,000 events, and a file .partitions as the recorder saves /proc/partitions.

    - Process app (pid 100; threads 100 and 101) and kworker/0:1 (tid 30, a child of
      kthreadd, 2) in the dump; 30 runs on CPU 0 first, then 100 and calls read and write; every 4th round
      it sleeps and 101 wakes it from CPU 1; irq 40 "nvme0q1" on CPU 0 every 3rd round, a
      softirq (raised, entered, left) after it; a block request of 8 sectors on nvme0n1
      (259:0) every 5th round (inserted, issued, completed; the kernel's field types, each
      with one of RWBS's texts in turn); an interrupt vector's handler (local_timer,
      reschedule, call_function_single in turn) every 7th round; clone, mmap, getcpu and
      socketpair once, and an exit; 100 forks 300, which execs /bin/ls; 101 makes a thread,
      102, on CPU 1, which forks 400 on CPU 0 later (each fork after its task_newtask:
      parent_pid and child_pid in the LTTng layout are 100, 100 and 100, 400).
    - -k libc: in round 20, 100's C library open of /etc/passwd (libc_open), then its
      openat (the path an address, as ftrace gives it).
    - CPU 1 lost 5 events before its 100th.
    reads: each stream in packets of 37 events, as the recorder's reads of the kernel's
    ring cut it, and more losses: CPU 0 lost 3 events before its first, 7 before its 185th
    and 2 before its 222nd (two packets in a row), 11 before its 740th, and 4 after its
    last (an empty packet).
    Returns the trace's path."""
    ev = []
    comm = {0: "swapper", 2: "kthreadd", 30: "kworker/0:1", 100: "app", 101: "app", 102: "app",
            300: "app", 400: "app"}

    def U16(v): return (G.Int(16, align=8), v)
    def U32(v): return (G.Int(32, align=8), v)
    def U64(v): return (G.Int(64, align=8), v)
    def S32(v): return (G.Int(32, signed=True, align=8), v)

    def text(v, n):  # a char[n] of the kernel's
        return (G.Array(G.utf8_char, n), v.encode().ljust(n, b"\0"))
    # blk_fill_rwbs's texts: a preflush F, the operation, then FUA F, read-ahead, sync, meta
    RWBS = ["R", "WS", "RA", "FWS", "WFS", "FF", "RM", "D", "DE", "N", "WSM", "F"]

    def add(ts, cpu, event, running, **f):
        ev.append((ts, cpu, event, dict(f, common_pid=running)))

    def sw(ts, cpu, prev, nxt, state=1):
        add(ts, cpu, "sched_switch", prev, prev_comm=comm[prev], prev_pid=prev, prev_prio=120,
            prev_state=state, next_comm=comm[nxt], next_pid=nxt, next_prio=120)

    def call(ts, cpu, tid, name, nr, ret, dur, **args):
        # readers drop one leading underscore: spoor's metadata says ___syscall_nr
        add(ts, cpu, "sys_enter_" + name, tid, ___syscall_nr=nr, **args)
        add(ts + dur, cpu, "sys_exit_" + name, tid, ___syscall_nr=nr, ret=ret)

    for tid, pid, ppid in ((2, 2, 0), (30, 30, 2), (100, 100, 1), (101, 100, 1)):
        add(10, 0, "statedump_process", tid, tid=tid, pid=pid, ppid=ppid, name=comm[tid])
    # CPU 0 runs the kworker when the trace begins: its dump's events say nothing of that
    sw(100, 0, 30, 100)
    sw(100, 1, 0, 101)
    for r in range(150):
        t = 1000 + r * 10000
        call(t, 0, 100, "read", 0, 64 if r % 7 else -11, 100 + r % 9 * 10, fd=3,
             buf=0x7F0000001000, count=64)
        call(t + 300, 0, 100, "write", 1, 8, 50 + r % 4, fd=1, buf=0x7F0000002000, count=8)
        if r % 4 == 3:
            sw(t + 1000, 0, 100, 0)
            add(t + 1500 + r, 1, "sched_waking", 101, comm="app", pid=100, prio=120,
                target_cpu=0)
            add(t + 1550 + r, 1, "sched_wakeup", 101, comm="app", pid=100, prio=120,
                target_cpu=0)
            sw(t + 1600 + 2 * r, 0, 0, 100)
        if r % 3 == 0:
            add(t + 4000, 0, "irq_handler_entry", 100, irq=40, name="nvme0q1")
            add(t + 4010, 0, "softirq_raise", 100, vec=4)
            add(t + 4040 + r % 5, 0, "irq_handler_exit", 100, irq=40, ret=1)
            add(t + 4100, 0, "softirq_entry", 100, vec=4)
            add(t + 4160 + r % 11, 0, "softirq_exit", 100, vec=4)
        if r % 5 == 0:
            # the kernel's types, as the recorder writes them; every kind of rwbs text
            rwbs = text(RWBS[r // 5 % len(RWBS)], 10)
            add(t + 1900, 0, "block_rq_insert", 100, dev=U32(259 << 20), sector=U64(r * 8),
                nr_sector=U32(8), bytes=U32(4096), ioprio=U16(0), rwbs=rwbs,
                comm=text("app", 16), cmd="")
            add(t + 2000, 1, "block_rq_issue", 101, dev=U32(259 << 20), sector=U64(r * 8),
                nr_sector=U32(8), bytes=U32(4096), ioprio=U16(0), rwbs=rwbs,
                comm=text("app", 16), cmd="")
            add(t + 6000, 1, "block_rq_complete", 101, dev=U32(259 << 20), sector=U64(r * 8),
                nr_sector=U32(8), error=S32(0), ioprio=U16(0), rwbs=rwbs, cmd="")
        if r % 7 == 1:  # x86's interrupt vectors
            vec, v = (("local_timer", 236), ("reschedule", 253),
                      ("call_function_single", 251))[r // 7 % 3]
            add(t + 5000, 0, vec + "_entry", 100, vector=S32(v))
            add(t + 5020 + r % 3, 0, vec + "_exit", 100, vector=S32(v))
        if r == 20:  # the calls whose arguments LTTng names otherwise
            call(t + 7000, 0, 100, "clone", 56, 301, 40, clone_flags=0x3D0F00,
                 newsp=0x7F0000100000, parent_tidptr=0x7F0000200000,
                 child_tidptr=0x7F0000200000, tls=0x7F0000300000)
            call(t + 7100, 0, 100, "mmap", 9, 0x7F0000400000, 20, addr=0, len=8192, prot=3,
                 flags=0x22, fd=-1, off=0)
            call(t + 7200, 0, 100, "getcpu", 309, 0, 10, cpup=0x7F0000001000,
                 nodep=0x7F0000001004, unused=0)
            call(t + 7300, 0, 100, "socketpair", 53, 0, 30, family=1, type=1, protocol=0,
                 usockvec=0x7F0000001008)
            add(t + 7400, 0, "sched_process_exit", 100, comm="app", pid=301, prio=120,
                group_dead=S32(1))
            # -k libc: the C library's open, then its call (the path an address)
            add(t + 5000, 0, "libc_open", 100, ___probe_ip=0x7F0000003000, path="/etc/passwd",
                flags=0)
            call(t + 5100, 0, 100, "openat", 257, 3, 200, dfd=-100,
                 filename=(PTR, 0x7F0000004000), flags=0, mode=0)
        if r == 50:
            add(t + 2990, 0, "task_newtask", 100, pid=300, comm="app", clone_flags=PROCESS,
                oom_score_adj=0)
            add(t + 3000, 0, "sched_process_fork", 100, parent_comm="app", parent_pid=100,
                child_comm="app", child_pid=300)
            add(t + 3100, 1, "sched_wakeup_new", 101, comm="app", pid=300, prio=120,
                target_cpu=1)
            sw(t + 3200, 1, 101, 300, state=0)
            add(t + 3300, 1, "sched_process_exec", 300, filename="/bin/ls", pid=300,
                old_pid=300)
            comm[300] = "ls"
            sw(t + 3800, 1, 300, 101, state=16)
        if r == 146:  # 101 makes a thread, on CPU 1 (its loss and last event stay put)
            add(t + 3000, 1, "task_newtask", 101, pid=102, comm="app", clone_flags=THREAD,
                oom_score_adj=0)
            add(t + 3001, 1, "sched_process_fork", 101, parent_comm="app", parent_pid=101,
                child_comm="app", child_pid=102)
        if r == 149:  # which forks a process on CPU 0: its stream is converted first
            sw(t + 2900, 0, 100, 102, state=0)
            add(t + 2950, 0, "task_newtask", 102, pid=400, comm="app", clone_flags=PROCESS,
                oom_score_adj=0)
            add(t + 2960, 0, "sched_process_fork", 102, parent_comm="app", parent_pid=102,
                child_comm="app", child_pid=400)
            sw(t + 3000, 0, 102, 100)
    # the env the recorder writes (kmeta.c), but for its values
    env = {"sysname": "Linux", "kernel_release": "6.1.0-synth", "kernel_version": "#1 SMP synth",
           "tracer_major": 0, "tracer_minor": 1, "tracer_patchlevel": 0, "trace_clock": "mono"}
    losses = {1: [(100, 5)]}
    if reads:
        n = {c: sum(1 for e in ev if e[1] == c) for c in (0, 1)}
        # the packets first: a loss's entry at the same index replaces its (index, 0)
        losses = {c: [(i, 0) for i in range(37, n[c], 37)] + losses.get(c, []) for c in n}
        losses[0] += [(0, 3), (185, 7), (222, 2), (740, 11), (n[0], 4)]
    write(outdir, ev, style="ftrace", losses=losses, env=env)
    with open(os.path.join(outdir, ".partitions"), "w") as f:
        f.write("major minor  #blocks  name\n\n 259        0   2000 nvme0n1\n"
                " 259        1   1000 nvme0n1p1\n")
    return outdir


USAGE = ("usage: gen_kernel.py [--busy | --analyses | --spoor | --spoor-reads] [OUTDIR]  "
         "(default /tmp/gen-kernel-demo)\n")


def main(argv):
    args = argv[1:]
    which = None
    if args and args[0] in ("--busy", "--analyses", "--spoor", "--spoor-reads"):
        which, args = args[0], args[1:]
    # an OUTDIR starting with '-' is an option mistyped (--help): never a trace named so
    if len(args) > 1 or (args and args[0].startswith("-")) or (which and not args):
        sys.stderr.write(USAGE)
        return 2
    if which == "--busy":
        print(busy(args[0]))
    elif which == "--analyses":
        print(analyses(args[0]))
    elif which == "--spoor":
        print(spoor(args[0]))
    elif which == "--spoor-reads":
        print(spoor(args[0], reads=True))
    else:
        # a self-check: two CPUs, an IRQ on each, babeltrace2 should read it
        print(write(args[0] if args else "/tmp/gen-kernel-demo", [
            (1000, 0, "irq_handler_entry", {"irq": 5, "name": "eth0"}),
            (1500, 0, "irq_handler_exit", {"irq": 5, "ret": 1}),
            (2000, 1, "softirq_entry", {"vec": 1}),
            (2600, 1, "softirq_exit", {"vec": 1}),
        ]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
