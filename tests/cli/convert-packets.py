#!/usr/bin/env python3
"""`spoor convert --layout=lttng` writes each packet of its input as one packet: the same
bounds, losses and sequence numbers, so that every reader places each loss where the
input's packets placed it.

  convert-packets.py INPUT CONVERTED

Each stream file of INPUT and the file of the same name in CONVERTED, read twice:
- raw, their packet headers and contexts laid out as each trace's metadata declares them
  (both spoor's writer and gen-ctf.py's declare byte-aligned integers): the converted
  stream's packets are the input's (timestamp_begin, timestamp_end, events_discarded), but
  for an empty packet before them from the trace's beginning when the input's stream begins
  later, and one after them up to its end when it ends earlier (every converted stream
  spans the trace); their packet_seq_num counts from 0, as the input's, when it has one;
- by babeltrace2: the same discarded-events and discarded-packets messages (count,
  beginning and end), in the same order.
Prints what differs and a summary; exit 1 when anything does.
"""
import os
import re
import subprocess
import sys


def _aliases(meta):
    """{name: (bytes, align bytes)} of the metadata's integer typealiases."""
    out = {}
    for body, name in re.findall(r"typealias integer \{([^}]*)\} := ([\w ]+);", meta):
        size = int(re.search(r"size = (\d+)", body).group(1))
        align = int(re.search(r"align = (\d+)", body).group(1))
        out[name.strip()] = (size // 8 if size % 8 == 0 else None, max(align // 8, 1))
    return out


def _struct(meta, text):
    """[(name, bytes, align, count)] of a struct's body (or `struct NAME` declared apart)."""
    m = re.match(r"\s*struct (\w+)\s*;", text)
    if m:
        text = re.search(r"^struct %s \{(.*?)^\};" % m.group(1), meta, re.S | re.M).group(1)
    else:
        text = re.match(r"\s*struct \{(.*?)\n\t\}", text, re.S).group(1)
    types = _aliases(meta)
    fields = []
    for line in text.strip().splitlines():
        m = re.match(r"\s*([\w ]+?)\s+(\w+)(?:\[(\d+)\])?;", line)
        size, align = types[m.group(1)]
        fields.append((m.group(2), size, align, int(m.group(3) or 1)))
    return fields


def layout(trace):
    """The packet header's and context's fields, one list, with their byte offsets."""
    meta = open(os.path.join(trace, "metadata")).read()
    if "byte_order = le;" not in meta:
        sys.exit("%s: only little-endian traces are read here" % trace)
    header = re.search(r"packet\.header := (.*?;\n\t\}|struct \w+;)", meta, re.S).group(1)
    context = re.search(r"packet\.context := (.*?;\n\t\}|struct \w+;)", meta, re.S).group(1)
    out, at = {}, 0
    for name, size, align, count in _struct(meta, header) + _struct(meta, context):
        at = (at + align - 1) // align * align
        out[name] = (at, size, count)
        at += size * count
    return out


def packets(path, lay):
    """[{field: value}] of each packet of a stream file, and whether it is empty."""
    data = open(path, "rb").read()
    head = max(at + size * count for at, size, count in lay.values())
    out, off = [], 0
    while off < len(data):
        p = {}
        for name in ("timestamp_begin", "timestamp_end", "events_discarded", "packet_seq_num",
                     "content_size", "packet_size"):
            if name in lay:
                at, size, _ = lay[name]
                p[name] = int.from_bytes(data[off + at:off + at + size], "little")
        p["empty"] = p["content_size"] // 8 == head
        out.append(p)
        off += p["packet_size"] // 8
    return out


def compare_raw(inp, conv):
    bad = []
    lay_i, lay_c = layout(inp), layout(conv)
    streams = sorted(f for f in os.listdir(inp) if not f.startswith(".") and f != "metadata"
                     and os.path.isfile(os.path.join(inp, f)))
    ins = {f: packets(os.path.join(inp, f), lay_i) for f in streams}
    first = min(p[0]["timestamp_begin"] for p in ins.values() if p)
    last = max(p[-1]["timestamp_end"] for p in ins.values() if p)
    n = 0
    for f in streams:
        want, got = ins[f], packets(os.path.join(conv, f), lay_c)
        key = ("timestamp_begin", "timestamp_end", "events_discarded", "empty")
        w = [tuple(p[k] for k in key) for p in want]
        # the spans the converted stream adds: empty packets from the trace's first time to
        # the stream's, and from its last to the trace's
        if want and want[0]["timestamp_begin"] > first:
            w.insert(0, (first, want[0]["timestamp_begin"], 0, True))
        if want and want[-1]["timestamp_end"] < last:
            w.append((want[-1]["timestamp_end"], last, want[-1]["events_discarded"], True))
        g = [tuple(p[k] for k in key) for p in got]
        if w != g:
            i = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
            bad.append("%s: packet %d of %d (begin, end, events_discarded, empty): input %s, "
                       "converted %s"
                       % (f, i, len(w), w[i] if i < len(w) else "none",
                          g[i] if i < len(g) else "none"))
        seq = [p["packet_seq_num"] for p in got]
        if seq != list(range(len(got))):
            bad.append("%s: packet_seq_num %s, not 0, 1, 2..." % (f, seq[:10]))
        if "packet_seq_num" in lay_i and len(want) == len(got) and \
                [p["packet_seq_num"] for p in want] != seq:
            bad.append("%s: packet_seq_num not the input's" % f)
        n += len(got)
    return bad, "%d streams, %d packets" % (len(streams), n)


LOSS = re.compile(r"^\[[0-9,]+ ([0-9,]+)\] \[[0-9,]+ ([0-9,]+)\] \{\d+ (\d+ \d+)\} "
                  r"Discarded (events|packets)(?: \((\d+) \w+\))?")


def losses(trace):
    """{stream: [(kind, count, begin ns, end ns)]}: babeltrace2's discarded-events and
    discarded-packets messages (sink.text.details, as stream-bounds.py reads packets; the
    Python bindings of babeltrace2 2.0 give no counts)."""
    p = subprocess.run(["babeltrace2", "--component=sink.text.details",
                        "--params=with-metadata=false,compact=true", trace],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit("babeltrace2 %s: exit %d: %s" % (trace, p.returncode, p.stderr[-300:]))
    out = {}
    for line in p.stdout.splitlines():
        m = LOSS.match(line)
        if m:
            out.setdefault("stream " + m.group(3), []).append(
                (m.group(4), m.group(5), m.group(1), m.group(2)))
    return out


def main():
    inp, conv = sys.argv[1], sys.argv[2]
    bad, said = compare_raw(inp, conv)
    li, lc = losses(inp), losses(conv)
    for f in sorted(set(li) | set(lc)):
        a, b = li.get(f, []), lc.get(f, [])
        if a != b:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            bad.append("%s: babeltrace2's loss %d of %d (kind, count, begin, end): input %s, "
                       "converted %s" % (f, i, len(a), a[i] if i < len(a) else "none",
                                         b[i] if i < len(b) else "none"))
    for b in bad:
        print(b)
    print("%s, %d losses (babeltrace2): %s" % (said, sum(len(v) for v in li.values()),
                                               "differ" if bad else "the same"))
    return 1 if bad else 0


sys.exit(main())
