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
index-th event (the stream gets a new packet there whose events_discarded grew by count).
declare: {name: {field: value, ...}}: classes the metadata declares without any event
(the values give the types only), after those of the events.
env: {key: value}: more entries of the env block (e.g. tracer_major and tracer_minor: LTTng's
version), strings quoted, integers not.
Returns the path of the trace directory.
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


if __name__ == "__main__":
    # a self-check: two CPUs, an IRQ on each, babeltrace2 should read it
    d = write(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gen-kernel-demo", [
        (1000, 0, "irq_handler_entry", {"irq": 5, "name": "eth0"}),
        (1500, 0, "irq_handler_exit", {"irq": 5, "ret": 1}),
        (2000, 1, "softirq_entry", {"vec": 1}),
        (2600, 1, "softirq_exit", {"vec": 1}),
    ])
    print(d)
