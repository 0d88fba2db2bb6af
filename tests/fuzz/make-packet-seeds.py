#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz-packets: stream files of the trace whose metadata is
embedded in fuzz-packets.c (between the BEGIN/END METADATA markers).

    tests/fuzz/make-packet-seeds.py            # (re)writes its seeds in corpus/packets/
                                               # (regress-* inputs there are left alone)
    tests/fuzz/make-packet-seeds.py --check    # exit 1 if the committed seeds are stale
    tests/fuzz/make-packet-seeds.py --trace DIR
        # also writes DIR/<seed>/{metadata,channel0_0}: one trace per seed, to look at
        # them with `spoor dump` or `babeltrace2 --clock-gmt`

The metadata itself is copied to corpus/metadata/fuzz-packets.tsdl (a seed of
fuzz-metadata). Standard library only; the output is deterministic.

The event layouts below restate the metadata in Python (a small CTF writer: types, then
values). When an event class changes in fuzz-packets.c, change its description here and
check the seeds decode cleanly:  SPOOR_FUZZ_VERBOSE=1 build-fuzz/tests/fuzz/fuzz-packets SEED
"""
import argparse
import ast
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAGIC = 0xC1FC1FC1
UUID = bytes.fromhex("5f0dd3a17c2e4b8a9d610a1b2c3d4e5f")
MAX_SEED = 64 * 1024


def embedded_metadata():
    src = open(os.path.join(HERE, "fuzz-packets.c"), encoding="utf-8").read()
    m = re.search(r"/\* BEGIN METADATA \*/(.*?)/\* END METADATA \*/", src, re.S)
    if not m:
        sys.exit("fuzz-packets.c: no BEGIN/END METADATA markers")
    body = m.group(1).split("=", 1)[1]
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    return "".join(ast.literal_eval('"' + p + '"') for p in parts)


# ---- types ----

class Int:
    def __init__(self, size, align=8, signed=False, be=False):
        self.size, self.align, self.signed, self.be = size, align, signed, be


class Float:
    def __init__(self, bits, align, be=False):
        self.size, self.align, self.be = bits, align, be


class String:
    align = 8


class Struct:
    def __init__(self, fields, min_align=1):
        self.fields = fields  # [(name, type)]
        # A variant does not count in its struct's alignment (babeltrace2 and spoor).
        self.align = max([min_align] + [t.align for _, t in fields if not isinstance(t, Variant)])


class Array:
    def __init__(self, elem, n):
        self.elem, self.n, self.align = elem, n, elem.align


class Seq:  # the length is another field: the value is the list of elements
    def __init__(self, elem):
        self.elem, self.align = elem, elem.align


class Variant:  # value: (option name, option value)
    align = 1

    def __init__(self, options):
        self.options = dict(options)


def U(n, align=8):
    return Int(n, align)


def S(n, align=8):
    return Int(n, align, signed=True)


U8, U16, U32, U64 = U(8), U(16), U(32), U(64)


# ---- the bit writer (trace byte order: little endian) ----

class Writer:
    def __init__(self):
        self.buf = bytearray()
        self.pos = 0  # bits

    def _room(self, end_bits):
        need = (end_bits + 7) // 8
        if len(self.buf) < need:
            self.buf.extend(b"\0" * (need - len(self.buf)))

    def align(self, a):
        self.pos = (self.pos + a - 1) // a * a
        self._room(self.pos)

    def bits(self, value, size, be=False, at=None):
        pos = self.pos if at is None else at
        value &= (1 << size) - 1
        self._room(pos + size)
        if be:
            assert pos % 8 == 0 and size % 8 == 0, "big-endian fields here are byte aligned"
            self.buf[pos // 8:pos // 8 + size // 8] = value.to_bytes(size // 8, "big")
        else:
            for i in range(size):
                if value >> i & 1:
                    self.buf[(pos + i) // 8] |= 1 << ((pos + i) % 8)
        if at is None:
            self.pos += size

    def put(self, t, v):
        self.align(t.align)
        if isinstance(t, Int):
            self.bits(v, t.size, t.be)
        elif isinstance(t, Float):
            raw = struct.unpack("<I", struct.pack("<f", v))[0] if t.size == 32 else \
                struct.unpack("<Q", struct.pack("<d", v))[0]
            self.bits(raw, t.size, t.be)
        elif isinstance(t, String):
            for b in v.encode("utf-8") + b"\0":
                self.bits(b, 8)
        elif isinstance(t, Struct):
            assert len(v) == len(t.fields), (t.fields, v)
            for (_, ft), fv in zip(t.fields, v):
                self.put(ft, fv)
        elif isinstance(t, Array):
            if isinstance(v, (bytes, str)):
                v = list(v.encode() if isinstance(v, str) else v)
            assert len(v) == t.n
            for e in v:
                self.put(t.elem, e)
        elif isinstance(t, Seq):
            if isinstance(v, (bytes, str)):
                v = list(v.encode() if isinstance(v, str) else v)
            for e in v:
                self.put(t.elem, e)
        elif isinstance(t, Variant):
            name, ov = v
            self.put(t.options[name], ov)
        else:
            raise TypeError(t)


# ---- the event classes (as in fuzz-packets.c) ----

ROW3 = Array(U8, 3)
SEQ_ELEM = Struct([("a", U8), ("b", S(16, 16))])
EVENTS0 = {  # stream class 0: id -> (name, event context type or None, payload type)
    0: ("fuzz:ints", None, Struct([
        ("i8", S(8)), ("u8", U(8)), ("i16", S(16, 16)), ("u16", U(16, 16)),
        ("i32", S(32, 32)), ("u32", U(32, 32)), ("i64", S(64, 64)), ("u64", U(64, 64)),
        ("net32", Int(32, 8, be=True)), ("net_hex64", Int(64, 8, signed=True, be=True)),
        ("oct16", U(16)), ("bin8", U(8)), ("hex_neg", S(32))])),
    1: ("fuzz:bitfields", None, Struct([
        ("b_u1", U(1, 1)), ("b_s3", S(3, 1)), ("b_u5", U(5, 1)), ("b_s13", S(13, 1)),
        ("b_u27", U(27, 1)), ("b_s33", S(33, 1)), ("b_u64", U(64, 1)), ("b_s64", S(64, 1)),
        ("b_u7", U(7, 1)), ("after", U8)])),
    2: ("fuzz:floats", None, Struct([
        ("f32", Float(32, 32)), ("f64", Float(64, 64)), ("pad3", U(3, 1)),
        ("f32_packed", Float(32, 1)), ("f64_packed", Float(64, 1)),
        ("f64_be", Float(64, 8, be=True))])),
    3: ("fuzz:enums", None, Struct([
        ("e_u8", U8), ("e_s16", S(16, 16)), ("e_bits", U(3, 1)), ("e_u64", U64)])),
    4: ("fuzz:strings", None, Struct([
        ("s_first", String()), ("bits3", U(3, 1)), ("s_second", String()), ("after", U8)])),
    5: ("fuzz:arrays", None, Struct([
        ("a_text", Array(S(8), 8)), ("a_u16", Array(U(16, 16), 4)), ("a_bits", Array(U(3, 1), 5)),
        ("a_2d", Array(ROW3, 2)), ("a_hex", Array(U8, 2))])),
    6: ("fuzz:sequences", None, Struct([
        ("len", U8), ("seq_u32", Seq(U(32, 32))), ("tlen", U16), ("seq_text", Seq(U8)),
        ("slen", U(3, 1)), ("seq_str", Seq(String())), ("seq_struct", Seq(SEQ_ELEM)),
        ("seq_bits", Seq(U(5, 1)))])),
    7: ("fuzz:variant", None, Struct([
        ("tag", U(3, 1)),
        ("v", Variant({"INT": S(32, 32), "STR": String(), "DBL": Float(64, 64),
                       "REC": Struct([("n", U8), ("items", Seq(U(16, 16)))])})),
        ("after", U8)])),
    8: ("fuzz:nested", None, Struct([
        ("outer", Struct([("a", U(16, 16)),
                          ("inner", Struct([("b", S(32, 32)), ("c", Array(U8, 2))]))])),
        ("aligned", Struct([("x", U8)], min_align=64)), ("tail", U8)])),
    9: ("fuzz:empty", None, Struct([])),
    10: ("fuzz:context",
         Struct([("ctx_a", U32), ("ctx_s", String()), ("n", U8)]),
         Struct([("x", U8), ("vals", Seq(U16)), ("sel", U8),
                 ("choice", Variant({"NUM": U32, "TEXT": String()})),
                 ("per_cpu", Seq(S(32)))])),
    11: ("fuzz:seq_tail", None, Struct([
        ("tid", U32), ("n", U8), ("vals", Seq(S(32))), ("pid", S(32)), ("more", U16)])),
    12: ("fuzz:str_tail", None, Struct([("name", String()), ("flags", U32), ("mode", U16)])),
    13: ("fuzz:text_tail", None, Struct([("n", U16), ("t", Seq(U8)), ("after", U32)])),
    40: ("fuzz:big_id", None, Struct([("val", U64)])),
}
EVENTS1 = {
    0: ("slow:msg", None, Struct([("msg", String())])),
    1: ("slow:blob", None, Struct([("len", U32), ("data", Seq(U8))])),
    100000: ("slow:far", None, Struct([("v", S(64, 64))])),
}
VTID = Struct([("_vtid", S(32))])

HEADER = Struct([("magic", U32), ("uuid", Array(U8, 16)), ("stream_id", U32)])
CTX0 = Struct([("timestamp_begin", U64), ("timestamp_end", U64), ("content_size", U64),
               ("packet_size", U64), ("events_discarded", U64), ("cpu_id", U32)])
CTX1 = Struct([("timestamp_begin", U64), ("timestamp_end", U64), ("content_size", U64),
               ("packet_size", U64), ("packet_seq_num", U64), ("events_discarded", U16),
               ("cpu_id", U32)])


def reconstruct(cur, value, bits):
    mask = (1 << bits) - 1
    if value < (cur & mask):
        cur += 1 << bits
    return (cur & ~mask) | value


def packet(stream_id, events, ts_begin, ts_end=None, discarded=0, cpu=0, seq_num=0,
           pad_to=64, extra_packet_bytes=0):
    """One packet. events: [(id, ts, payload values, vtid, event context values)]."""
    w = Writer()
    w.put(HEADER, [MAGIC, UUID, stream_id])
    ctx = CTX0 if stream_id == 0 else CTX1
    ctx_at = w.pos
    if stream_id == 0:
        w.put(ctx, [ts_begin, 0, 0, 0, discarded, cpu])
    else:
        w.put(ctx, [ts_begin, 0, 0, 0, seq_num, discarded, cpu])
    cur, last = ts_begin, ts_begin
    classes = EVENTS0 if stream_id == 0 else EVENTS1
    for ev in events:
        eid, ts, payload = ev[0], ev[1], ev[2]
        vtid = ev[3] if len(ev) > 3 else 100
        evctx = ev[4] if len(ev) > 4 else None
        name, ctx_type, fields = classes[eid]
        w.align(8)
        if stream_id == 0:  # compact header: 5-bit id, 27-bit timestamp
            if eid <= 30 and reconstruct(cur, ts & ((1 << 27) - 1), 27) == ts:
                w.bits(eid, 5)
                w.bits(ts, 27)
            else:
                w.bits(31, 5)
                w.align(8)
                w.bits(eid, 32)
                w.bits(ts, 64)
        else:  # large header: 16-bit id, 32-bit timestamp
            if eid < 65535 and reconstruct(cur, ts & 0xFFFFFFFF, 32) == ts:
                w.bits(eid, 16)
                w.bits(ts, 32)
            else:
                w.bits(65535, 16)
                w.bits(eid, 32)
                w.bits(ts, 64)
        cur = last = ts
        if stream_id == 0:
            w.put(VTID, [vtid])
        if ctx_type is not None:
            w.put(ctx_type, evctx)
        w.put(fields, payload)
    content = w.pos
    size = ((content + 7) // 8 + pad_to - 1) // pad_to * pad_to + extra_packet_bytes
    w._room(size * 8)
    # patch the packet context
    off = ctx_at
    w.bits(ts_begin, 64, at=off)
    w.bits(ts_end if ts_end is not None else last, 64, at=off + 64)
    w.bits(content, 64, at=off + 128)
    w.bits(size * 8, 64, at=off + 192)
    return bytes(w.buf[:size])


# ---- the seeds ----

T0 = 1073740924  # near 2^30: compact timestamps wrap soon after


def ints_ev(ts, k=0):
    return (0, ts, [-128 + k, 255 - k, -32768, 65535, -2147483648, 4294967295,
                    -9223372036854775808, 18446744073709551615, 0x12345678,
                    -2, 0o755, 0b100101, -1])


def seed_all_events():
    p0 = packet(0, [
        ints_ev(T0),
        (1, T0 + 890, [1, -3, 21, -4000, 100000000, -3000000000, 0xFEDCBA9876543210, -2, 100, 171]),
        (2, T0 + 905, [1.5, 3.141592653589793, 5, 0.25, -2.5e10, 1e-300]),
        (3, T0 + 1000, [42, -50, 4, 18446744073709551615]),
        (4, T0 + 1100, ["hello", 5, "quote\" backslash\\ newline\n tab\t \u00e9\u20ac", 238]),
    ], ts_begin=T0 - 100, cpu=2)
    t1 = T0 + 2000
    p1 = packet(0, [
        (5, t1, [b"abc\0\0\0\0\0", [1, 2, 3, 65535], [0, 1, 2, 5, 7], [[1, 2, 3], [4, 5, 6]],
                 [0xAB, 0x0F]]),
        (6, t1 + 10, [3, [10, 20, 4000000000], 5, "hello", 2, ["x", "yz"],
                      [[1, -1], [2, -2], [3, -3]], [1, 17, 31]]),
        (6, t1 + 20, [0, [], 0, "", 0, [], [], []]),
        (40, t1 + 200000000, [0x0102030405060708]),  # extended: id > 30 and a long gap
        (8, t1 + 200000100, [[1, [-2, [3, 4]]], [5], 6]),
        (9, t1 + 200000200, []),
        (10, t1 + 200000300, [9, [7, 8], 0, ("NUM", 77), [11, -12]], 101, [77, "ctx", 2]),
        (10, t1 + 200000400, [10, [], 1, ("TEXT", "chosen"), [0, 1]], 101, [78, "", 0]),
    ], ts_begin=t1 - 5, cpu=2, discarded=0)
    t2 = t1 + 300000000
    p2 = packet(0, [
        (7, t2, [0, ("INT", -7), 238]),
        (7, t2 + 100, [1, ("STR", "variant str"), 238]),
        (7, t2 + 200, [2, ("DBL", 0.5), 238]),
        (7, t2 + 200, [3, ("REC", [2, [100, 200]]), 238]),
    ], ts_begin=t2, cpu=2, discarded=2)
    return p0 + p1 + p2


def seed_wrap():
    """Compact timestamps that wrap at 2^27 within a packet, every variant option."""
    base = (5 << 27) - 50
    evs = [
        (7, base, [0, ("INT", 2147483647), 1], 300),
        (7, base + 60, [1, ("STR", ""), 2], 300),  # crosses 5 << 27: a wrap
        (7, base + 70, [2, ("DBL", -0.0), 3], 300),
        (7, base + (1 << 27) - 1, [3, ("REC", [0, []]), 4], 300),
        ints_ev(base + (1 << 27) + 5, 1),
    ]
    return packet(0, evs, ts_begin=base - 10, cpu=3, discarded=0) + \
        packet(0, [(9, base + (2 << 27), [])], ts_begin=base + (2 << 27), cpu=3, discarded=1)


def seed_slow_clock():
    """Stream class 1: the large event header, a 32768 Hz clock, a 16-bit discarded counter
    that wraps, an event id above 65534 (extended header)."""
    t = 32768 * 5
    p0 = packet(1, [
        (0, t, ["first"]),
        (1, t + 3, [4, [0, 1, 254, 255]]),
        (100000, t + 4, [-1]),
        (0, t + (1 << 32) + 9, ["after a 32-bit gap"]),
    ], ts_begin=t, discarded=65530, cpu=1, seq_num=0)
    t2 = t + (1 << 32) + 100
    p1 = packet(1, [(0, t2, ["last"]), (1, t2 + 1, [0, []])],
                ts_begin=t2, discarded=3, cpu=1, seq_num=1)
    return p0 + p1


def seed_cut():
    """The file ends inside its second packet (a tracer killed mid-write)."""
    full = seed_all_events()
    p0 = int.from_bytes(full[48:56], "little") // 8  # packet_size of packet 0, in bytes
    p1 = int.from_bytes(full[p0 + 48:p0 + 56], "little") // 8
    return full[:p0 + p1 // 3]


def seed_no_events():
    """Packets with a header and context only, one with room left after its content."""
    return packet(0, [], ts_begin=1000, ts_end=2000, cpu=0) + \
        packet(0, [], ts_begin=2000, ts_end=3000, cpu=0, pad_to=8, extra_packet_bytes=24)


def seed_unaligned_end():
    """content_size not a multiple of 8: the last event ends with 5-bit elements."""
    return packet(0, [(6, 5000, [1, [42], 1, "z", 1, ["s"], [[9, -9]], [21]])],
                  ts_begin=4990, cpu=5)


def seed_mixed_classes():
    """A packet of stream class 0 then one of stream class 1 in the same file: the second
    is damage (a stream file holds one stream), after the first packet's events."""
    return packet(0, [(9, 7000, []), (4, 7001, ["a", 1, "b", 2])], ts_begin=7000, cpu=4) + \
        packet(1, [(0, 32768, ["other class"])], ts_begin=32768, cpu=4)


def seed_one_var():
    """Members after a sequence, a string and a text sequence, then a packet whose content
    ends inside the last event's members after its sequence."""
    evs = [
        (11, 9000, [7, 2, [-1, 5], -5, 0xBEEF]),
        (12, 9001, ["/etc/passwd", 0o2000, 0o644]),
        (13, 9002, [3, "xyz", 0xCAFE]),
        (11, 9003, [8, 0, [], 6, 1]),
        (12, 9004, ["", 1, 2]),
    ]
    cut = packet(0, [(11, 9100, [9, 3, [1, 2, 3], 4, 5])], ts_begin=9100, cpu=6)
    content = int.from_bytes(cut[40:48], "little") - 5 * 8  # one byte into pid
    cut = cut[:40] + content.to_bytes(8, "little") + cut[48:]
    return packet(0, evs, ts_begin=9000, cpu=6) + cut


SEEDS = {
    "all-events": seed_all_events,
    "wrap-variants": seed_wrap,
    "slow-clock": seed_slow_clock,
    "cut-packet": seed_cut,
    "no-events": seed_no_events,
    "unaligned-end": seed_unaligned_end,
    "mixed-classes": seed_mixed_classes,
    "one-var": seed_one_var,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files")
    ap.add_argument("--trace", metavar="DIR", help="also write one trace directory per seed")
    args = ap.parse_args()

    meta = embedded_metadata().encode("utf-8")
    outputs = {os.path.join(HERE, "corpus", "metadata", "fuzz-packets.tsdl"): meta}
    for name, fn in SEEDS.items():
        data = fn()
        assert len(data) < MAX_SEED, (name, len(data))
        outputs[os.path.join(HERE, "corpus", "packets", name)] = data
    stale = []
    for path, data in outputs.items():
        if args.check:
            try:
                same = open(path, "rb").read() == data
            except OSError:
                same = False
            if not same:
                stale.append(os.path.relpath(path, HERE))
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    if args.trace:
        for name in SEEDS:
            d = os.path.join(args.trace, name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "metadata"), "wb") as f:
                f.write(meta)
            with open(os.path.join(d, "channel0_0"), "wb") as f:
                f.write(outputs[os.path.join(HERE, "corpus", "packets", name)])
    if stale:
        print("stale seeds (run tests/fuzz/make-packet-seeds.py):", " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
