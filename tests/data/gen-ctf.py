#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
gen-ctf.py -- independent CTF 1.8 writer producing small synthetic traces.

This is a test-data generator for spoor's CTF reader.  It deliberately
shares no code with the C reader: it is written from the CTF 1.8.3
specification (diamon.org/ctf/v1.8.3) and checked against babeltrace2.
The expected decoded values of every event are documented in
tests/data/SYNTH.md (the "oracle" for unit tests).

Usage:
    gen-ctf.py OUTDIR            write the good traces:
                                   synth-le, synth-be, synth-large,
                                   synth-noclock, synth-packetized,
                                   synth-enums
    gen-ctf.py --bad OUTDIR      write damaged traces (derived from synth-le):
                                   bad-truncated, bad-magic, bad-header,
                                   bad-content-size, bad-metadata-syntax,
                                   bad-missing-stream, bad-empty,
                                   bad-not-a-trace
    gen-ctf.py --markdown        print the per-event tables used in SYNTH.md

Output is deterministic: the same command always writes byte-identical
files (fixed UUIDs, no wall-clock time, no randomness).  Each trace
directory is deleted and re-created, nothing else in OUTDIR is touched.

Only the Python 3 standard library is used.

Overview of the CTF encoding rules implemented here (spec section numbers
refer to CTF 1.8.3):

  * 4.1.2  Alignment is relative to the beginning of the *packet*.  Every
           field is aligned (padding bits are zero) before being written.
  * 4.1.5  Integers may have any size from 1 to 64 bits and any bit
           alignment.  Little endian: the value's bits are laid out LSB
           first, starting at the lowest free bit of the current byte
           (bit 0 = least significant bit of the byte).  Big endian: the
           value's bits are laid out MSB first, starting at the highest
           free bit of the current byte.  Thus consecutive bit-fields
           fill a byte from low to high bits in LE, high to low in BE.
  * 4.1.7  Floats are IEEE 754 binary32/binary64 written like a 32/64-bit
           integer holding their bit pattern.
  * 4.2.1  A structure is aligned on max(align attribute, alignment of
           its fields); there is no padding after the last field.
  * 4.2.2  A variant has no alignment of its own: the selected option is
           aligned on its own alignment.  (A variant does not contribute
           to the alignment of the enclosing structure.)
  * 4.2.3/4  Arrays and sequences are aligned on their element alignment.
           As in babeltrace2, the alignment is applied even when the
           sequence is empty (see sequences event in SYNTH.md).
  * 4.2.5  Strings are byte aligned and NUL terminated.
  * 5      Packet = trace.packet.header, stream.packet.context, events,
           padding up to packet_size.  content_size and packet_size are in
           bits and include the headers.
  * 6      Event = stream.event.header, stream.event.context,
           event.context, event.fields.  Each is a structure, so e.g. the
           payload is aligned on its largest field alignment (6.3.2).
  * 7.1    Packetized metadata: each metadata packet starts with a 37-byte
           packed header (magic 0x75D11D57, uuid, checksum, content_size,
           packet_size, compression/encryption/checksum schemes, major,
           minor), followed by TSDL text, followed by padding.
  * 8      An N-bit clock-mapped field updates only the N low bits of the
           stream's current clock value; if the new N-bit value is lower
           than the current one's N low bits, exactly one wrap (2^N) is
           assumed.  The current value starts at the packet context's
           timestamp_begin for every packet.
"""

import os
import shutil
import struct
import sys

# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------

CTF_MAGIC = 0xC1FC1FC1           # data stream packet magic (spec 5)
TSDL_MAGIC = 0x75D11D57          # packetized metadata magic (spec 7.1)

TRACE_UUID = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564"
CLOCK_UUID = "9a1d0e2c-5c1f-4e0f-9c4b-4a1f3b2c1d00"
LARGE_UUID = "5b0c4e51-1a3f-4e2e-a1b2-c3d4e5f60718"

CLOCK_FREQ = 1000000000
CLOCK_OFFSET_S = 1700000000
CLOCK_OFFSET = 123456789


def uuid_bytes(text):
    """'xxxxxxxx-xxxx-...' -> 16 raw bytes (as stored in packet headers)."""
    raw = bytes.fromhex(text.replace("-", ""))
    assert len(raw) == 16
    return raw


def ns_since_epoch(cycles):
    """Clock value (cycles of `monotonic`, 1 GHz) -> ns since the epoch."""
    assert CLOCK_FREQ == 1000000000
    return CLOCK_OFFSET_S * 1000000000 + CLOCK_OFFSET + cycles


# ---------------------------------------------------------------------------
# Bit-level writer
# ---------------------------------------------------------------------------

class BitWriter:
    """Append-only bit buffer; position 0 is the beginning of the packet.

    `native` is the trace byte order ("le" or "be"); it is used by types
    whose byte order is not given explicitly.
    """

    def __init__(self, native):
        assert native in ("le", "be")
        self.native = native
        self.buf = bytearray()
        self.pos = 0          # in bits

    def _grow(self, nbits):
        need = (self.pos + nbits + 7) // 8
        if len(self.buf) < need:
            self.buf.extend(bytes(need - len(self.buf)))

    def align(self, alignment):
        """Skip (zero) padding bits up to the next multiple of `alignment`."""
        pad = (-self.pos) % alignment
        self._grow(pad)
        self.pos += pad

    def write_bits(self, value, size, byte_order):
        """Write the `size`-bit unsigned `value` at the current position.

        Bit numbering inside a byte: LE fills from the least significant
        bit upwards and writes the value LSB first; BE fills from the most
        significant bit downwards and writes the value MSB first.  This is
        exactly the layout of spec 4.1.5 / babeltrace's bitfield.h, and it
        degenerates into ordinary little/big endian integers when the field
        is byte aligned and a multiple of 8 bits long.
        """
        assert 1 <= size <= 64 and 0 <= value < (1 << size), (value, size)
        self._grow(size)
        for i in range(size):
            p = self.pos + i
            if byte_order == "le":
                bit = (value >> i) & 1
                shift = p % 8
            else:
                bit = (value >> (size - 1 - i)) & 1
                shift = 7 - p % 8
            if bit:
                self.buf[p // 8] |= 1 << shift
        self.pos += size

    def write_bytes(self, data):
        assert self.pos % 8 == 0
        self._grow(8 * len(data))
        self.buf[self.pos // 8:self.pos // 8 + len(data)] = data
        self.pos += 8 * len(data)


# ---------------------------------------------------------------------------
# Type model.  Each type knows (a) how to print itself as TSDL and (b) how
# to serialize a Python value.  Values:
#   Int/Enum     -> int          Float  -> float     String -> str
#   Array/Seq    -> list (or bytes for 8-bit element arrays)
#   Struct       -> dict {field name: value} (all fields, in any order)
#   Variant      -> (option name, value)
# `scope` is a dict {field name: (type, value)} of the fields already
# written in the enclosing structure; variants and sequences look their
# tag / length up there (relative paths only, which is all we use).
# ---------------------------------------------------------------------------

IND = "\t"


class Type:
    alias = None      # name given with typealias / typedef, if any

    def spec(self, ind):
        """TSDL type specifier (uses the alias name when there is one)."""
        return self.alias if self.alias else self.inline_spec(ind)


class Int(Type):
    def __init__(self, size, signed=False, align=None, base=None,
                 encoding=None, byte_order=None, clock=None, alias=None):
        self.size = size
        self.signed = signed
        # Spec 4.1.2 default: bit-packed unless the size is a multiple of 8.
        self.align_ = align if align is not None else (8 if size % 8 == 0 else 1)
        self.base = base
        self.encoding = encoding
        self.byte_order = byte_order     # None = native; "le"/"be"/"network"
        self.clock = clock               # clock name for `map = clock.X.value`
        self.alias = alias

    def alignment(self):
        return self.align_

    def inline_spec(self, ind):
        parts = ["size = %d;" % self.size, "align = %d;" % self.align_,
                 "signed = %s;" % ("true" if self.signed else "false")]
        if self.base is not None:
            parts.append("base = %s;" % self.base)
        if self.encoding is not None:
            parts.append("encoding = %s;" % self.encoding)
        if self.byte_order is not None:
            parts.append("byte_order = %s;" % self.byte_order)
        if self.clock is not None:
            parts.append("map = clock.%s.value;" % self.clock)
        return "integer { " + " ".join(parts) + " }"

    def check(self, value):
        if self.signed:
            lo, hi = -(1 << (self.size - 1)), (1 << (self.size - 1)) - 1
        else:
            lo, hi = 0, (1 << self.size) - 1
        assert lo <= value <= hi, (value, self.size, self.signed)

    def write(self, w, value, scope):
        self.check(value)
        w.align(self.align_)
        bo = self.byte_order or w.native
        if bo == "network":
            bo = "be"
        w.write_bits(value & ((1 << self.size) - 1), self.size, bo)


class Float(Type):
    def __init__(self, size, align=None, alias=None):
        assert size in (32, 64)
        self.size = size
        self.align_ = align if align is not None else size
        self.alias = alias

    def alignment(self):
        return self.align_

    def inline_spec(self, ind):
        exp, mant = (8, 24) if self.size == 32 else (11, 53)
        return ("floating_point { exp_dig = %d; mant_dig = %d; align = %d; }"
                % (exp, mant, self.align_))

    def write(self, w, value, scope):
        w.align(self.align_)
        fmt = ">f" if self.size == 32 else ">d"
        bits = int.from_bytes(struct.pack(fmt, value), "big")
        w.write_bits(bits, self.size, w.native)


class Enum(Type):
    """mappings: list of (label, lo, hi).  lo=None means the value is
    omitted in the TSDL and implied (previous hi + 1, or 0), spec 4.1.8;
    hi=None means a single value."""

    def __init__(self, container, mappings, alias=None, name=None):
        self.container = container        # None: the `int` typealias (4.1.8)
        self.alias = alias
        self.name = name                  # named enum: `enum NAME`
        self.mappings = []        # resolved (label, lo, hi, explicit?)
        nxt = 0
        for label, lo, hi in mappings:
            explicit = lo is not None
            if lo is None:
                lo = nxt
            if hi is None:
                hi = lo
            self.mappings.append((label, lo, hi, explicit))
            nxt = hi + 1

    def int_type(self):
        return self.container or INT_ALIAS

    def alignment(self):
        return self.int_type().alignment()

    def labels(self, value):
        """Every label whose ranges hold value, each once, in the order of
        the labels' first declaration (babeltrace2's order)."""
        out = []
        for label, lo, hi, _ in self.mappings:
            if lo <= value <= hi and label not in out:
                out.append(label)
        return sorted(out, key=[m[0] for m in self.mappings].index)

    def body(self, ind):
        items = []
        for label, lo, hi, explicit in self.mappings:
            name = label if label.isidentifier() else c_escape(label)
            if not explicit:
                items.append(name)
            elif lo == hi:
                items.append("%s = %d" % (name, lo))
            else:
                items.append("%s = %d ... %d" % (name, lo, hi))
        head = " : " + self.container.spec(ind) if self.container else ""
        return "%s { %s }" % (head, ", ".join(items))

    def spec(self, ind):
        if self.name:
            return "enum " + self.name
        return Type.spec(self, ind)

    def inline_spec(self, ind):
        return "enum" + self.body(ind)

    def definition(self):
        """Top-level declaration of a named enum."""
        return "enum %s%s;\n\n" % (self.name, self.body(""))

    def write(self, w, value, scope):
        self.int_type().write(w, value, scope)


class String(Type):
    def alignment(self):
        return 8

    def inline_spec(self, ind):
        return "string"

    def write(self, w, value, scope):
        data = value.encode("utf-8")
        assert b"\0" not in data
        w.align(8)
        w.write_bytes(data + b"\0")


class Array(Type):
    def __init__(self, elem, length, alias=None):
        self.elem, self.length, self.alias = elem, length, alias

    def alignment(self):
        return self.elem.alignment()

    def write(self, w, value, scope):
        if isinstance(value, (bytes, bytearray)):
            value = list(value)
        assert len(value) == self.length, (len(value), self.length)
        w.align(self.alignment())
        for v in value:
            self.elem.write(w, v, {})


class Sequence(Type):
    def __init__(self, elem, length_field, alias=None):
        self.elem, self.length_field, self.alias = elem, length_field, alias

    def alignment(self):
        return self.elem.alignment()

    def write(self, w, value, scope):
        if isinstance(value, (bytes, bytearray)):
            value = list(value)
        _, n = scope[self.length_field]
        assert len(value) == n, ("sequence length mismatch", len(value), n)
        w.align(self.alignment())           # even when empty (babeltrace2)
        for v in value:
            self.elem.write(w, v, {})


class Struct(Type):
    def __init__(self, fields, min_align=1, name=None):
        self.fields = fields              # list of (name, type)
        self.min_align = min_align
        self.name = name                  # named struct: `struct NAME`

    def alignment(self):
        a = self.min_align
        for _, t in self.fields:
            if not isinstance(t, Variant):     # spec 4.2.2
                a = max(a, t.alignment())
        return a

    def spec(self, ind):
        if self.name:
            return "struct " + self.name
        return self.inline_spec(ind)

    def body(self, ind):
        out = "{\n"
        for fname, ftype in self.fields:
            out += field_decl(ftype, fname, ind + IND)
        out += ind + "}"
        if self.min_align > 1:
            out += " align(%d)" % self.min_align
        return out

    def inline_spec(self, ind):
        return "struct " + self.body(ind)

    def definition(self):
        """Top-level declaration of a named struct."""
        return "struct %s %s;\n\n" % (self.name, self.body(""))

    def write(self, w, value, scope):
        names = [f for f, _ in self.fields]
        assert sorted(value) == sorted(names), (sorted(value), names)
        w.align(self.alignment())
        local = {}
        for fname, ftype in self.fields:
            ftype.write(w, value[fname], local)
            local[fname] = (ftype, value[fname])


class Variant(Type):
    def __init__(self, tag, options):
        self.tag, self.options = tag, options   # options: list of (name, type)

    def alignment(self):
        return 1

    def inline_spec(self, ind):
        out = "variant <%s> {\n" % self.tag
        for oname, otype in self.options:
            out += field_decl(otype, oname, ind + IND)
        return out + ind + "}"

    def write(self, w, value, scope):
        option, v = value
        tag_type, tag_value = scope[self.tag]
        # The tag's label must select this option (spec 4.2.2): when several
        # labels hold the value, the first that names an option.
        names = [o for o, _ in self.options]
        chosen = [l for l in tag_type.labels(tag_value) if l in names]
        assert chosen and option == chosen[0], (option, tag_value)
        dict(self.options)[option].write(w, v, scope)


def field_decl(ftype, fname, ind):
    """One TSDL field declaration line: `type name[len];`."""
    suffix = ""
    t = ftype
    if isinstance(t, (Array, Sequence)) and not t.alias:
        suffix = "[%s]" % (t.length if isinstance(t, Array) else t.length_field)
        t = t.elem
        # Nested anonymous arrays are ambiguous in TSDL: use a typedef.
        assert not (isinstance(t, (Array, Sequence)) and not t.alias)
    return "%s%s %s%s;\n" % (ind, t.spec(ind), fname, suffix)


# ---------------------------------------------------------------------------
# LTTng-style common declarations (as lttng-modules writes them on x86:
# every byte-sized type is byte aligned, i.e. align = 8).
# ---------------------------------------------------------------------------

uint8_t = Int(8, align=8, alias="uint8_t")
uint16_t = Int(16, align=8, alias="uint16_t")
uint32_t = Int(32, align=8, alias="uint32_t")
uint64_t = Int(64, align=8, alias="uint64_t")
ulong_t = Int(64, align=8, alias="unsigned long")
uint5_t = Int(5, align=1, alias="uint5_t")
uint27_t = Int(27, align=1, alias="uint27_t")
BASE_ALIASES = [uint8_t, uint16_t, uint32_t, uint64_t, ulong_t, uint5_t,
                uint27_t]

u27_clk = Int(27, align=1, clock="monotonic", alias="uint27_clock_monotonic_t")
u32_clk = Int(32, align=8, clock="monotonic", alias="uint32_clock_monotonic_t")
u64_clk = Int(64, align=8, clock="monotonic", alias="uint64_clock_monotonic_t")
CLOCK_ALIASES = [u27_clk, u32_clk, u64_clk]

# LTTng "compact" event header (spec 6.1.1 / lttng-modules).
HDR_COMPACT = Struct([
    ("id", Enum(uint5_t, [("compact", 0, 30), ("extended", 31, None)])),
    ("v", Variant("id", [
        ("compact", Struct([("timestamp", u27_clk)])),
        ("extended", Struct([("id", uint32_t), ("timestamp", u64_clk)])),
    ])),
], min_align=8, name="event_header_compact")

# LTTng "large" event header (spec 6.1.2 / lttng-modules).
HDR_LARGE = Struct([
    ("id", Enum(uint16_t, [("compact", 0, 65534), ("extended", 65535, None)])),
    ("v", Variant("id", [
        ("compact", Struct([("timestamp", u32_clk)])),
        ("extended", Struct([("id", uint32_t), ("timestamp", u64_clk)])),
    ])),
], min_align=8, name="event_header_large")

PACKET_HEADER = Struct([
    ("magic", uint32_t),
    ("uuid", Array(uint8_t, 16)),
    ("stream_id", uint32_t),
])

PACKET_CONTEXT = Struct([
    ("timestamp_begin", u64_clk),
    ("timestamp_end", u64_clk),
    ("content_size", uint64_t),
    ("packet_size", uint64_t),
    ("events_discarded", ulong_t),
    ("cpu_id", uint32_t),
], name="packet_context")

# Stream event context, LTTng style (leading underscore: readers strip it).
STREAM_EVENT_CONTEXT = Struct([
    ("_vtid", Int(32, signed=True, align=8, base=10)),
])


def compact_header(ev_id, ts, clock):
    """LTTng's choice: compact form iff the id fits in 5 bits (0..30) and
    the timestamp can be reconstructed from its low 27 bits, i.e.
    0 <= ts - current_clock < 2^27."""
    if ev_id <= 30 and 0 <= ts - clock < (1 << 27):
        return "compact", {"id": ev_id,
                           "v": ("compact", {"timestamp": ts & ((1 << 27) - 1)})}
    return "extended", {"id": 31,
                        "v": ("extended", {"id": ev_id, "timestamp": ts})}


def large_header(ev_id, ts, clock):
    """Same rule with a 16-bit id (0..65534) and a 32-bit timestamp."""
    if ev_id <= 65534 and 0 <= ts - clock < (1 << 32):
        return "compact", {"id": ev_id,
                           "v": ("compact", {"timestamp": ts & 0xFFFFFFFF})}
    return "extended", {"id": 65535,
                        "v": ("extended", {"id": ev_id, "timestamp": ts})}


def reader_clock_update(cur, value, size):
    """What a CTF reader does with an N-bit clock field (spec 8); used to
    self-check that every event's timestamp is reconstructible."""
    mask = (1 << size) - 1
    if size == 64:
        return value
    if value < (cur & mask):
        cur += mask + 1                  # exactly one wrap-around
    return (cur & ~mask) | value


# ---------------------------------------------------------------------------
# Event classes of the synth-le / synth-be / synth-packetized traces
# ---------------------------------------------------------------------------

def I(size, signed=False, align=None, **kw):
    return Int(size, signed=signed, align=align, **kw)


utf8_char = Int(8, align=8, encoding="UTF8")
row3_t = Array(uint8_t, 3, alias="row3_t")      # declared with typedef

ENUM_U8 = Enum(I(8, align=8), [
    ("ZERO", 0, None), ("ONE_TO_TEN", 1, 10), ("with space", 42, None),
    ("LAST", 255, None)])
ENUM_S16 = Enum(I(16, True, 16), [
    ("NEG", -100, -1), ("ZERO", 0, None), ("POS", 1, 100)])
ENUM_AUTO = Enum(I(8, align=8), [            # implicit values, spec 4.1.8
    ("A", None, None), ("B", None, None), ("C", 10, None), ("D", None, None),
    ("E", 20, 29), ("F", None, None)])       # A=0 B=1 C=10 D=11 E=20..29 F=30
ENUM_U3 = Enum(I(3, align=1), [("RED", 0, None), ("GREEN", 1, None),
                               ("BLUE", 2, None)])
VARIANT_TAG = Enum(I(3, align=1), [
    ("INT", 0, None), ("STR", 1, None), ("DBL", 2, None), ("REC", 3, None)])

ALL_SIZES_FIELDS = ([("u%d" % n, I(n, align=1)) for n in range(1, 65)] +
                    [("s%d" % n, I(n, True, 1)) for n in range(1, 65)])

EVENT_CLASSES = [
    # (id, name, loglevel, context struct or None, fields struct)
    (0, "synth:ints", 13, None, Struct([
        ("i8", I(8, True, 8)),
        ("u8", I(8, align=8)),
        ("i16", I(16, True, 16)),
        ("u16", I(16, align=16)),
        ("i32", I(32, True, 32)),
        ("u32", I(32, align=32)),
        ("i64", I(64, True, 64)),
        ("u64", I(64, align=64)),
        ("minus_one", I(32, True, 8)),
        ("big", I(64, True, 8)),
        ("net32", I(32, align=32, byte_order="network")),
    ])),
    (1, "synth:bitfields", None, None, Struct([
        ("b_u1", I(1, align=1)),
        ("b_s3", I(3, True, 1)),
        ("b_u5", I(5, align=1)),
        ("b_s13", I(13, True, 1)),
        ("b_u27", I(27, align=1)),
        ("b_s33", I(33, True, 1)),
        ("b_u33", I(33, align=1)),
        ("b_u64", I(64, align=1)),
        ("b_s64", I(64, True, 1)),
        ("b_u7", I(7, align=1)),
        ("b_s1", I(1, True, 1)),
        ("b_u2", I(2, align=1)),
        ("after", I(8, align=8)),
    ])),
    (2, "synth:all_sizes", None, None, Struct(ALL_SIZES_FIELDS)),
    (3, "synth:bases", None, None, Struct([
        ("hex32", I(32, align=32, base=16)),
        ("hex64", I(64, align=64, base=16)),
        ("hex_neg", I(32, True, 32, base=16)),
        ("oct16", I(16, align=16, base=8)),
        ("oct_zero", I(8, align=8, base=8)),
        ("bin8", I(8, align=8, base=2)),
        ("bin13", I(13, align=1, base=2)),
        ("hex5", I(5, align=1, base=16)),
        ("hex_s13", I(13, True, 1, base=16)),
        ("dec_neg", I(16, True, 8, base=10)),
    ])),
    (4, "synth:enums", None, None, Struct([
        ("e_zero", ENUM_U8),
        ("e_range", ENUM_U8),
        ("e_quoted", ENUM_U8),
        ("e_unknown", ENUM_U8),
        ("e_neg", ENUM_S16),
        ("e_s_unknown", ENUM_S16),
        ("e_auto_f", ENUM_AUTO),
        ("e_auto_d", ENUM_AUTO),
        ("e_bits", ENUM_U3),
    ])),
    (5, "synth:floats", None, None, Struct([
        ("f32", Float(32)),
        ("f32_neg", Float(32)),
        ("f64", Float(64)),
        ("f64_tiny", Float(64)),
        ("f64_big", Float(64)),
        ("pad3", I(3, align=1)),
        ("f32_packed", Float(32, align=1)),
    ])),
    (6, "synth:strings", None, None, Struct([
        ("s_empty", String()),
        ("s_plain", String()),
        ("s_special", String()),
        ("s_utf8", String()),
        ("bits3", I(3, align=1)),
        ("s_after_bits", String()),
    ])),
    (7, "synth:arrays", None, None, Struct([
        ("a_u16", Array(I(16, align=16), 4)),
        ("a_s8", Array(I(8, True, 8), 3)),
        ("a_text", Array(utf8_char, 8)),
        ("a_text_full", Array(utf8_char, 8)),
        ("a_bits", Array(I(3, align=1), 5)),
        ("a_2d", Array(row3_t, 2)),
        ("a_hex", Array(I(8, align=8, base=16), 2)),
    ])),
    (8, "synth:sequences", None, None, Struct([
        ("len", uint8_t),
        ("seq_u32", Sequence(I(32, align=32), "len")),
        ("len0", uint8_t),
        ("seq_empty", Sequence(I(16, True, 16), "len0")),
        ("after_empty", uint8_t),
        ("tlen", uint16_t),
        ("seq_text", Sequence(utf8_char, "tlen")),
        ("slen", I(3, align=1)),
        ("seq_str", Sequence(String(), "slen")),
        ("seq_struct", Sequence(Struct([("a", uint8_t),
                                        ("b", I(16, True, 16))]), "len")),
    ])),
    (9, "synth:nested", None, None, Struct([
        ("outer", Struct([
            ("a", I(16, align=16)),
            ("inner", Struct([("b", I(32, True, 32)), ("c", String())])),
            ("arr", Array(uint8_t, 2)),
        ])),
        ("aligned", Struct([("x", uint8_t)], min_align=64)),
        ("tail", uint8_t),
    ])),
    (10, "synth:variant", None, None, Struct([
        ("tag", VARIANT_TAG),
        ("v", Variant("tag", [
            ("INT", I(32, True, 32)),
            ("STR", String()),
            ("DBL", Float(64)),
            ("REC", Struct([("n", uint8_t),
                            ("items", Sequence(I(16, align=16), "n"))])),
        ])),
        ("after", uint8_t),
    ])),
    (11, "synth:context", None, Struct([
        ("ctx_a", I(32, align=32)),
        ("ctx_s", String()),
    ]), Struct([("x", uint8_t)])),
    (12, "synth:empty", None, None, Struct([])),
    (13, "synth:tie", None, None, Struct([
        ("cpu", uint8_t),
        ("note", String()),
    ])),
    (40, "synth:big_id", None, None, Struct([("val", uint64_t)])),
]
EVENT_BY_NAME = {e[1]: e for e in EVENT_CLASSES}


def all_sizes_payload():
    """u<N> = top N bits of 0xFEDCBA9876543210;
    s<N> = top N bits of 0xDEADBEEFCAFEBABE read as an N-bit signed integer
    (its top bit is 1, so every s<N> is negative)."""
    p = {}
    for n in range(1, 65):
        p["u%d" % n] = 0xFEDCBA9876543210 >> (64 - n)
        raw = 0xDEADBEEFCAFEBABE >> (64 - n)
        p["s%d" % n] = raw - (1 << n) if raw >> (n - 1) else raw
    return p


# Clock values (cycles == ns since the clock origin).  B is 8 * 2^27, so the
# 27-bit compact timestamp wraps around between B - 1 and B.
B = 8 << 27                     # 1073741824

INTS_A = {"i8": -128, "u8": 255, "i16": -32768, "u16": 65535,
          "i32": -2147483648, "u32": 4294967295,
          "i64": -9223372036854775808, "u64": 18446744073709551615,
          "minus_one": -1, "big": 1234567890123, "net32": 0x12345678}
INTS_B = {"i8": 1, "u8": 2, "i16": 3, "u16": 4, "i32": 5, "u32": 6,
          "i64": 7, "u64": 8, "minus_one": 0, "big": -1234567890123,
          "net32": 0xA1B2C3D4}

# Streams of the synth-le trace.  Each packet: (timestamp_begin,
# timestamp_end, events_discarded, [events]); each event:
# (ts, event name, vtid, payload, event context or None).
SYNTH_STREAMS = [
    ("channel0_0", 0, [
        (B - 1000, B + 300, 0, [
            (B - 900, "synth:ints", 100, INTS_A, None),
            (B - 10, "synth:bitfields", 100, {
                "b_u1": 1, "b_s3": -3, "b_u5": 21, "b_s13": -4000,
                "b_u27": 100000000, "b_s33": -3000000000,
                "b_u33": 8589934591, "b_u64": 0xFEDCBA9876543210,
                "b_s64": -2, "b_u7": 100, "b_s1": -1, "b_u2": 2,
                "after": 0xAB}, None),
            (B + 5, "synth:bases", 100, {
                "hex32": 0xDEADBEEF, "hex64": 0xCAFEF00D, "hex_neg": -1,
                "oct16": 0o755, "oct_zero": 0, "bin8": 0b00100101,
                "bin13": 0b1000000000001, "hex5": 0x1F, "hex_s13": -2,
                "dec_neg": -42},
             None),
            (B + 100, "synth:enums", 100, {
                "e_zero": 0, "e_range": 7, "e_quoted": 42, "e_unknown": 99,
                "e_neg": -50, "e_s_unknown": 1000, "e_auto_f": 30,
                "e_auto_d": 11, "e_bits": 2}, None),
            (B + 200, "synth:floats", 100, {
                "f32": 1.5, "f32_neg": -0.1, "f64": 3.141592653589793,
                "f64_tiny": 1e-300, "f64_big": -2.5e10, "pad3": 5,
                "f32_packed": 0.25}, None),
        ]),
        (B + 1000, B + 200006000, 0, [
            (B + 1000, "synth:strings", 101, {
                "s_empty": "", "s_plain": "hello",
                "s_special": 'quote" backslash\\ newline\n tab\t end',
                "s_utf8": "h\u00e9llo w\u00f6rld \u20ac", "bits3": 5,
                "s_after_bits": "aligned"}, None),
            (B + 2000, "synth:arrays", 101, {
                "a_u16": [1, 2, 3, 65535], "a_s8": [-1, 0, 127],
                "a_text": b"abc\0\0\0\0\0", "a_text_full": b"ABCDEFGH",
                "a_bits": [0, 1, 2, 5, 7], "a_2d": [[1, 2, 3], [4, 5, 6]],
                "a_hex": [0xAB, 0x0F]}, None),
            (B + 5000, "synth:tie", 101, {"cpu": 0, "note": "tie-1"}, None),
            (B + 200005000, "synth:sequences", 101, {
                "len": 3, "seq_u32": [10, 20, 4000000000],
                "len0": 0, "seq_empty": [], "after_empty": 0x77,
                "tlen": 5, "seq_text": b"hello",
                "slen": 2, "seq_str": ["x", "yz"],
                "seq_struct": [{"a": 1, "b": -1}, {"a": 2, "b": -2},
                               {"a": 3, "b": -3}]}, None),
            (B + 200005100, "synth:big_id", 101,
             {"val": 0x0102030405060708}, None),
            (B + 200005200, "synth:nested", 101, {
                "outer": {"a": 1, "inner": {"b": -2, "c": "in"},
                          "arr": [3, 4]},
                "aligned": {"x": 5}, "tail": 6}, None),
        ]),
        (B + 300000000, B + 300002000, 5, [
            (B + 300000100, "synth:variant", 102,
             {"tag": 0, "v": ("INT", -7), "after": 0xEE}, None),
            (B + 300000200, "synth:variant", 102,
             {"tag": 1, "v": ("STR", "variant str"), "after": 0xEE}, None),
            (B + 300000300, "synth:variant", 102,
             {"tag": 2, "v": ("DBL", 0.5), "after": 0xEE}, None),
            (B + 300000300, "synth:variant", 102,
             {"tag": 3, "v": ("REC", {"n": 2, "items": [100, 200]}),
              "after": 0xEE}, None),
            (B + 300000400, "synth:context", 102, {"x": 9},
             {"ctx_a": 77, "ctx_s": "ctx"}),
            (B + 300000500, "synth:empty", 102, {}, None),
            (B + 300001000, "synth:tie", 102, {"cpu": 0, "note": "tie-2"},
             None),
        ]),
    ]),
    ("channel0_1", 1, [
        (B - 500, B + 6000, 0, [
            (B - 400, "synth:all_sizes", 200, all_sizes_payload(), None),
            (B + 5000, "synth:tie", 200, {"cpu": 1, "note": "tie-1"}, None),
        ]),
        (B + 100000000, B + 300001500, 0, [
            (B + 100000100, "synth:ints", 201, INTS_B, None),
            (B + 300001000, "synth:tie", 201, {"cpu": 1, "note": "tie-2"},
             None),
        ]),
    ]),
]


# ---------------------------------------------------------------------------
# Metadata (TSDL) rendering
# ---------------------------------------------------------------------------

def tsdl_typealiases(types):
    return "".join("typealias %s := %s;\n" % (t.inline_spec(""), t.alias)
                   for t in types) + "\n"


def tsdl_trace_block(byte_order, uuid, header):
    out = "trace {\n\tmajor = 1;\n\tminor = 8;\n"
    if uuid:
        out += '\tuuid = "%s";\n' % uuid
    out += "\tbyte_order = %s;\n" % byte_order
    out += "\tpacket.header := %s;\n};\n\n" % header.inline_spec("\t")
    return out


def tsdl_env(extra="", domain="synthetic"):
    return ('env {\n\thostname = "synth-host";\n\tdomain = "%s";\n'
            '\tsynth_version = 1;\n%s};\n\n' % (domain, extra))


def tsdl_clock():
    return ('clock {\n'
            '\tname = "monotonic";\n'
            '\tuuid = "%s";\n'
            '\tdescription = "Monotonic Clock";\n'
            '\tfreq = %d; /* Frequency, in Hz */\n'
            '\t/* clock value offset from Epoch is: offset_s + offset * (1/freq) */\n'
            '\toffset_s = %d;\n'
            '\toffset = %d;\n'
            '\tprecision = 1;\n'
            '\tabsolute = FALSE;\n'
            '};\n\n' % (CLOCK_UUID, CLOCK_FREQ, CLOCK_OFFSET_S, CLOCK_OFFSET))


def tsdl_event(ev_id, name, loglevel, context, fields, stream_id=0):
    out = 'event {\n\tname = "%s";\n\tid = %d;\n\tstream_id = %d;\n' % (
        name, ev_id, stream_id)
    if loglevel is not None:
        out += "\tloglevel = %d;\n" % loglevel
    if context is not None:
        out += "\tcontext := %s;\n" % context.inline_spec("\t")
    out += "\tfields := %s;\n};\n\n" % fields.inline_spec("\t")
    return out


def synth_metadata(byte_order):
    m = "/* CTF 1.8 */\n\n"
    m += ("/*\n * spoor synthetic test trace, written by tests/data/gen-ctf.py.\n"
          " * Layout follows lttng-modules (x86) with a compact event header.\n"
          " * Expected values: tests/data/SYNTH.md\n */\n\n")
    m += tsdl_typealiases(BASE_ALIASES)
    m += tsdl_trace_block(byte_order, TRACE_UUID, PACKET_HEADER)
    m += tsdl_env()
    m += tsdl_clock()
    m += tsdl_typealiases(CLOCK_ALIASES)
    m += PACKET_CONTEXT.definition()
    m += HDR_COMPACT.definition()
    m += "typedef %s %s[%d];\n\n" % (row3_t.elem.spec(""), row3_t.alias,
                                     row3_t.length)
    m += ("stream {\n\tid = 0;\n"
          "\tevent.header := struct event_header_compact;\n"
          "\tpacket.context := struct packet_context;\n"
          "\tevent.context := %s;\n};\n\n"
          % STREAM_EVENT_CONTEXT.inline_spec("\t"))
    for ev in EVENT_CLASSES:
        m += tsdl_event(*ev)
    return m


# ---------------------------------------------------------------------------
# Stream files
# ---------------------------------------------------------------------------

def round_up(n, m):
    return (n + m - 1) // m * m


def build_packet(native, header_type, header_value, ctx_type, ctx_value,
                 events, pad_bytes=128):
    """Serialize one packet.

    header_type/header_value: trace packet header type and its value.
    ctx_value: packet context dict without content_size / packet_size.
    events: list of callables f(writer) serializing one event each.
    The packet is serialized twice: the first pass measures content_size,
    the second writes the real sizes (fixed-width fields, same layout).
    The packet is padded with zero bytes so that packet_size is a multiple
    of `pad_bytes` bytes and strictly larger than content_size.
    """
    def once(content_size, packet_size):
        w = BitWriter(native)
        header_type.write(w, header_value, {})
        ctx = dict(ctx_value, content_size=content_size,
                   packet_size=packet_size)
        ctx_type.write(w, ctx, {})
        for ev in events:
            ev(w)
        return w

    content = once(0, 0).pos
    packet_bytes = round_up(content // 8 + 1, pad_bytes)
    w = once(content, packet_bytes * 8)
    assert w.pos == content
    data = bytes(w.buf) + bytes(packet_bytes - len(w.buf))
    return data, content


def synth_stream_file(byte_order, stream_id_in_header, packets, cpu,
                      by_name=EVENT_BY_NAME):
    """Serialize one stream file of the synth trace; also returns a list of
    per-packet info (offset, size, content) and per-event info for docs."""
    out = bytearray()
    info = []
    last_end = 0
    for ts_begin, ts_end, discarded, evs in packets:
        assert last_end <= ts_begin <= ts_end
        last_end = ts_end
        clock = [ts_begin]                 # reader's current clock value
        prev_ts = ts_begin
        writers = []
        ev_info = []
        for ts, name, vtid, payload, ctx in evs:
            assert ts_begin <= ts <= ts_end and ts >= prev_ts
            prev_ts = ts
            ev_id, _, _, ctx_type, fields_type = by_name[name]
            kind, hdr = compact_header(ev_id, ts, clock[0])
            # Self-check: decode the timestamp the way a reader does.
            if kind == "compact":
                got = reader_clock_update(clock[0], hdr["v"][1]["timestamp"], 27)
                wrapped = got >> 27 != clock[0] >> 27
            else:
                got = hdr["v"][1]["timestamp"]
                wrapped = False
            assert got == ts, (got, ts)
            clock[0] = ts
            rec = {"ts": ts, "name": name, "id": ev_id, "kind": kind,
                   "wrapped": wrapped, "vtid": vtid, "payload": payload,
                   "context": ctx}
            ev_info.append(rec)

            def write_event(w, hdr=hdr, vtid=vtid, ctx=ctx, payload=payload,
                            ctx_type=ctx_type, fields_type=fields_type,
                            rec=rec):
                w.align(8)                  # the header is align(8)
                rec["offset"] = w.pos // 8
                HDR_COMPACT.write(w, hdr, {})
                STREAM_EVENT_CONTEXT.write(w, {"_vtid": vtid}, {})
                if ctx_type is not None:
                    ctx_type.write(w, ctx, {})
                fields_type.write(w, payload, {})
                rec["end_bits"] = w.pos
            writers.append(write_event)
        hv = {"magic": CTF_MAGIC, "uuid": uuid_bytes(TRACE_UUID),
              "stream_id": stream_id_in_header}
        data, content = build_packet(
            byte_order, PACKET_HEADER, hv, PACKET_CONTEXT,
            {"timestamp_begin": ts_begin, "timestamp_end": ts_end,
             "events_discarded": discarded, "cpu_id": cpu},
            writers)
        info.append({"offset": len(out), "size": len(data),
                     "content_bits": content, "ts_begin": ts_begin,
                     "ts_end": ts_end, "discarded": discarded,
                     "events": ev_info})
        out += data
    return bytes(out), info


def synth_trace(byte_order, stream_id_override=None):
    """Files of synth-le / synth-be: {relative path: bytes}, plus info."""
    files = {"metadata": synth_metadata(byte_order).encode("utf-8")}
    infos = {}
    for fname, cpu, packets in SYNTH_STREAMS:
        sid = 0
        if stream_id_override and fname in stream_id_override:
            sid = stream_id_override[fname]
        files[fname], infos[fname] = synth_stream_file(byte_order, sid,
                                                       packets, cpu)
    return files, infos


# ---------------------------------------------------------------------------
# synth-enums: the enumeration cases of spec 4.1.8 that the spec leaves to
# readers ("overlapping ranges ... are implementation defined"), written as
# LTTng writes them and read as babeltrace2 reads them: a label on several
# ranges is one mapping, a value prints every label that holds it, in the
# order of the labels' first declaration.  Same layout as synth-le.
# ---------------------------------------------------------------------------

INT_ALIAS = Int(32, True, align=8, alias="int")     # container of `enum {}`

# lttng-modules' net_dev_queue `protocol` (the label on two ranges).
ENUM_PROTOCOL = Enum(uint8_t, [
    ("_unknown", 0, 5), ("_tcp", 6, None), ("_unknown", 7, 255)])
ENUM_OVERLAP = Enum(uint8_t, [("A", 10, 20), ("A", 15, 25), ("B", 30, None)])
ENUM_SEVERAL = Enum(uint8_t, [
    ("P", 0, None), ("Q", 1, None), ("Q", 99, None), ("P", 90, 100),
    ("R", 99, None), ("S", 200, 210)])
ENUM_SIGNED = Enum(I(16, True, 16), [
    ("NEG", -1000, -1), ("SMALL", -10, 10), ("ZERO", 0, None),
    ("BIG", 100, 32767), ("NEG", 500, None)])
ENUM_IMPLICIT = Enum(I(8, True, 8), [          # A=-3 B=-2 C=10..12 D=13 C=14
    ("A", -3, None), ("B", None, None), ("C", 10, 12), ("D", None, None),
    ("C", None, None)])
ENUM_PACKED = Enum(I(5, True, 1), [("M", -16, -1), ("P", 0, 15), ("M", 7, None)])
ENUM_S64 = Enum(I(64, True, 64), [
    ("MIN", -(1 << 63), None), ("MAX", (1 << 63) - 1, None),
    ("NEGS", -(1 << 63), -1)])
ENUM_U64 = Enum(I(64, align=64), [
    ("LOW", 0, (1 << 63) - 1), ("HIGH", 1 << 63, (1 << 64) - 1),
    ("TOP", (1 << 64) - 1, None)])
ENUM_INT = Enum(None, [("X", None, None), ("Y", None, None), ("X", 5, None)])
ENUM_NAMED = Enum(uint8_t, [("RED", None, None), ("GREEN", None, None),
                            ("RED", 9, None)], name="colour")
ENUM_HEX = Enum(I(8, align=8, base=16), [("H", 0xA0, 0xAF), ("H", 0xF0, None)])
ENUM_QUOTED = Enum(uint8_t, [('say "hi"', 1, None), ("two", 2, None),
                             ('say "hi"', 3, None)])
ENUM_TAG = Enum(uint8_t, [("A", 0, None), ("B", 1, None), ("A", 2, None),
                          ("NOOPT", 0, 2)])

ENUMS_EVENT_CLASSES = [
    (0, "enums:ranges", None, None, Struct([
        ("proto_low", ENUM_PROTOCOL), ("proto_tcp", ENUM_PROTOCOL),
        ("proto_high", ENUM_PROTOCOL), ("overlap", ENUM_OVERLAP),
        ("three", ENUM_SEVERAL), ("second_range", ENUM_SEVERAL),
        ("second_label", ENUM_SEVERAL), ("none", ENUM_SEVERAL),
    ])),
    (1, "enums:signed", None, None, Struct([
        ("two_neg", ENUM_SIGNED), ("two_zero", ENUM_SIGNED),
        ("later_range", ENUM_SIGNED), ("none", ENUM_SIGNED),
        ("implicit_b", ENUM_IMPLICIT), ("implicit_c", ENUM_IMPLICIT),
        ("range_c", ENUM_IMPLICIT), ("packed_min", ENUM_PACKED),
        ("packed_two", ENUM_PACKED), ("packed_p", ENUM_PACKED),
        ("s64_min", ENUM_S64), ("s64_max", ENUM_S64),
        ("u64_high", ENUM_U64), ("u64_top", ENUM_U64),
    ])),
    (2, "enums:forms", None, None, Struct([
        ("int_x", ENUM_INT), ("int_y", ENUM_INT),
        ("colour_a", ENUM_NAMED), ("colour_b", ENUM_NAMED),
        ("hex", ENUM_HEX), ("quoted", ENUM_QUOTED),
        ("arr", Array(ENUM_SEVERAL, 3)),
        ("n", uint8_t), ("seq", Sequence(ENUM_PROTOCOL, "n")),
    ])),
    (3, "enums:variant", None, None, Struct([
        ("tag", ENUM_TAG),
        ("v", Variant("tag", [("A", uint16_t), ("B", String())])),
        ("after", uint8_t),
    ])),
]
ENUMS_BY_NAME = {e[1]: e for e in ENUMS_EVENT_CLASSES}

ENUMS_PACKETS = [
    (B, B + 1000, 0, [
        (B + 100, "enums:ranges", 300, {
            "proto_low": 3, "proto_tcp": 6, "proto_high": 17, "overlap": 17,
            "three": 99, "second_range": 95, "second_label": 1, "none": 150},
         None),
        (B + 200, "enums:signed", 300, {
            "two_neg": -5, "two_zero": 0, "later_range": 500, "none": -32768,
            "implicit_b": -2, "implicit_c": 14, "range_c": 11,
            "packed_min": -16, "packed_two": 7, "packed_p": 3,
            "s64_min": -(1 << 63), "s64_max": (1 << 63) - 1,
            "u64_high": (1 << 63) + 5, "u64_top": (1 << 64) - 1}, None),
        (B + 300, "enums:forms", 300, {
            "int_x": 5, "int_y": 1, "colour_a": 9, "colour_b": 1,
            "hex": 0xF0, "quoted": 3, "arr": [99, 150, 1], "n": 2,
            "seq": [17, 6]}, None),
        (B + 400, "enums:variant", 300,
         {"tag": 2, "v": ("A", 0x1234), "after": 7}, None),
        (B + 500, "enums:variant", 300,
         {"tag": 1, "v": ("B", "bee"), "after": 8}, None),
        (B + 600, "enums:variant", 300,
         {"tag": 0, "v": ("A", 1), "after": 9}, None),
    ]),
]


def enums_trace():
    m = "/* CTF 1.8 */\n\n"
    m += ("/* spoor synthetic trace of enumeration cases, written by\n"
          " * tests/data/gen-ctf.py; see tests/data/SYNTH.md */\n\n")
    m += tsdl_typealiases(BASE_ALIASES + [INT_ALIAS])
    m += tsdl_trace_block("le", TRACE_UUID, PACKET_HEADER)
    m += tsdl_env()
    m += tsdl_clock()
    m += tsdl_typealiases(CLOCK_ALIASES)
    m += PACKET_CONTEXT.definition()
    m += HDR_COMPACT.definition()
    m += ENUM_NAMED.definition()
    m += ("stream {\n\tid = 0;\n"
          "\tevent.header := struct event_header_compact;\n"
          "\tpacket.context := struct packet_context;\n"
          "\tevent.context := %s;\n};\n\n"
          % STREAM_EVENT_CONTEXT.inline_spec("\t"))
    for ev in ENUMS_EVENT_CLASSES:
        m += tsdl_event(*ev)
    data, info = synth_stream_file("le", 0, ENUMS_PACKETS, 0, ENUMS_BY_NAME)
    return {"metadata": m.encode("utf-8"), "channel0_0": data}, info


# ---------------------------------------------------------------------------
# Packetized metadata (spec 7.1)
# ---------------------------------------------------------------------------

METADATA_HEADER_BYTES = 37     # packed: 4 + 16 + 4 + 4 + 4 + 1 * 5


def packetize_metadata(text, byte_order, uuid, nchunks=4, pad_bytes=256):
    """Split the TSDL text into `nchunks` metadata packets.  The split points
    are arbitrary byte offsets (they fall in the middle of tokens on
    purpose: a reader must concatenate the packet payloads before
    parsing).  Each packet is padded with zero bytes."""
    data = text.encode("utf-8")
    bo = "<" if byte_order == "le" else ">"
    bounds = [len(data) * i // nchunks for i in range(nchunks + 1)]
    out = bytearray()
    for i in range(nchunks):
        chunk = data[bounds[i]:bounds[i + 1]]
        content = METADATA_HEADER_BYTES + len(chunk)
        size = round_up(content + 1, pad_bytes)
        out += struct.pack(bo + "I16sIIIBBBBB", TSDL_MAGIC, uuid_bytes(uuid),
                           0,                 # checksum (unused)
                           content * 8,       # content_size, bits
                           size * 8,          # packet_size, bits
                           0, 0, 0,           # compression/encryption/checksum
                           1, 8)              # CTF major.minor
        out += chunk
        out += bytes(size - content)
    return bytes(out)


# ---------------------------------------------------------------------------
# synth-large: LTTng "large" event header
# ---------------------------------------------------------------------------

L = 1 << 32

LARGE_EVENT_CLASSES = [
    (0, "large:small_id", None, None, Struct([("seq", uint32_t)])),
    (1, "large:str", None, None, Struct([("s", String())])),
    (65535, "large:id_65535", None, None, Struct([("seq", uint32_t)])),
    (65536, "large:id_65536", None, None, Struct([("seq", uint32_t)])),
    (4000000000, "large:id_4000000000", None, None,
     Struct([("seq", uint32_t)])),
]
LARGE_BY_NAME = {e[1]: e for e in LARGE_EVENT_CLASSES}

LARGE_PACKETS = [
    # (ts_begin, ts_end, discarded, [(ts, name, payload)])
    (L - 100, L + 5000000100, 0, [
        (L - 50, "large:small_id", {"seq": 1}),
        (L + 10, "large:small_id", {"seq": 2}),       # 32-bit wrap
        (L + 20, "large:id_65535", {"seq": 3}),       # extended: id
        (L + 30, "large:id_65536", {"seq": 4}),       # extended: id
        (L + 5000000030, "large:str", {"s": "after a 5 s gap"}),  # ext: gap
    ]),
    (L + 6000000000, L + 6000000400, 0, [
        (L + 6000000100, "large:id_4000000000", {"seq": 5}),
        (L + 6000000200, "large:small_id", {"seq": 6}),
        (L + 6000000300, "large:str", {"s": "last"}),
    ]),
]


def large_header_metadata(what, uuid, classes, stream_extra=""):
    """A little-endian trace with LTTng's large event header (synth-large, synth-procs)."""
    m = "/* CTF 1.8 */\n\n"
    m += ("/* spoor synthetic trace (%s),\n"
          " * written by tests/data/gen-ctf.py; see tests/data/SYNTH.md */\n\n" % what)
    m += tsdl_typealiases(BASE_ALIASES)
    m += tsdl_trace_block("le", uuid, PACKET_HEADER)
    m += tsdl_env()
    m += tsdl_clock()
    m += tsdl_typealiases(CLOCK_ALIASES)
    m += PACKET_CONTEXT.definition()
    m += HDR_LARGE.definition()
    m += ("stream {\n\tid = 0;\n"
          "\tevent.header := struct event_header_large;\n"
          "\tpacket.context := struct packet_context;\n%s};\n\n" % stream_extra)
    for ev in classes:
        m += tsdl_event(*ev)
    return m


def large_metadata():
    return large_header_metadata("LTTng large event header", LARGE_UUID, LARGE_EVENT_CLASSES)


def large_trace():
    out = bytearray()
    infos = []
    for ts_begin, ts_end, discarded, evs in LARGE_PACKETS:
        clock = ts_begin
        writers, ev_info = [], []
        for ts, name, payload in evs:
            ev_id, _, _, _, fields_type = LARGE_BY_NAME[name]
            kind, hdr = large_header(ev_id, ts, clock)
            if kind == "compact":
                got = reader_clock_update(clock, hdr["v"][1]["timestamp"], 32)
                wrapped = got >> 32 != clock >> 32
            else:
                got, wrapped = hdr["v"][1]["timestamp"], False
            assert got == ts
            clock = ts
            rec = {"ts": ts, "name": name, "id": ev_id, "kind": kind,
                   "wrapped": wrapped, "vtid": None, "payload": payload,
                   "context": None}
            ev_info.append(rec)

            def write_event(w, hdr=hdr, payload=payload, ft=fields_type,
                            rec=rec):
                w.align(8)
                rec["offset"] = w.pos // 8
                HDR_LARGE.write(w, hdr, {})
                ft.write(w, payload, {})
                rec["end_bits"] = w.pos
            writers.append(write_event)
        hv = {"magic": CTF_MAGIC, "uuid": uuid_bytes(LARGE_UUID),
              "stream_id": 0}
        data, content = build_packet(
            "le", PACKET_HEADER, hv, PACKET_CONTEXT,
            {"timestamp_begin": ts_begin, "timestamp_end": ts_end,
             "events_discarded": discarded, "cpu_id": 0}, writers)
        infos.append({"offset": len(out), "size": len(data),
                      "content_bits": content, "ts_begin": ts_begin,
                      "ts_end": ts_end, "discarded": discarded,
                      "events": ev_info})
        out += data
    files = {"metadata": large_metadata().encode("utf-8"),
             "channel0_0": bytes(out)}
    return files, {"channel0_0": infos}


# ---------------------------------------------------------------------------
# synth-procs: LTTng-UST's contexts (vpid, vtid, procname), for spoor stats' count by
# process: two processes, one renamed by an exec, names whose char arrays carry
# different bytes after their NUL, a name of 16 characters, and a pid seen on two CPUs
# ---------------------------------------------------------------------------

PROCS_UUID = "6c1d5f62-2b4a-4f3f-b2c3-d4e5f6071829"
PROCS_CONTEXT = Struct([
    ("_vpid", Int(32, signed=True, align=8, base=10)),
    ("_vtid", Int(32, signed=True, align=8, base=10)),
    ("_procname", Array(utf8_char, 17)),
])
PROCS_EVENT_CLASSES = [
    (0, "procs:tick", None, None, Struct([("seq", uint32_t)])),
    (1, "procs:msg", None, None, Struct([("s", String())])),
]


def procname(text, after=b""):
    raw = text.encode("utf-8") + b"\0" + after
    return raw + bytes(17 - len(raw))


# per CPU: (pid, procname bytes, event name, payload); the rename of pid 100 happens on
# CPU 0 only, so its last name is the same in time order and in stream order
PROCS_EVENTS = {
    0: [(100, procname("app-one"), "procs:tick", {"seq": 1}),
        (100, procname("app-one", b"junk"), "procs:msg", {"s": "garbage after the NUL"}),
        (200, procname("sixteen-chars-ab"), "procs:tick", {"seq": 2}),
        (100, procname("app-one", b"x"), "procs:tick", {"seq": 3}),
        (100, procname("app-renamed"), "procs:msg", {"s": "after exec"}),
        (100, procname("app-renamed", b"zz"), "procs:tick", {"seq": 4})],
    1: [(200, procname("sixteen-chars-ab"), "procs:msg", {"s": "other cpu"}),
        (200, procname("sixteen-chars-ab"), "procs:tick", {"seq": 5}),
        (300, procname(""), "procs:tick", {"seq": 6})],
}


def procs_metadata():
    return large_header_metadata(
        "LTTng-UST contexts", PROCS_UUID, PROCS_EVENT_CLASSES,
        "\tevent.context := %s;\n" % PROCS_CONTEXT.inline_spec("\t"))


def procs_trace():
    by_name = {e[1]: e for e in PROCS_EVENT_CLASSES}
    files = {"metadata": procs_metadata().encode("utf-8")}
    for cpu, evs in PROCS_EVENTS.items():
        begin = 1000 + cpu
        writers = []
        for k, (pid, name, ev_name, payload) in enumerate(evs):
            ev_id, _, _, _, ft = by_name[ev_name]
            ts = begin + 100 * (k + 1)
            _, hdr = large_header(ev_id, ts, begin if k == 0 else ts - 100)

            def write_event(w, hdr=hdr, pid=pid, name=name, payload=payload, ft=ft):
                HDR_LARGE.write(w, hdr, {})
                PROCS_CONTEXT.write(w, {"_vpid": pid, "_vtid": pid, "_procname": name},
                                    {})
                ft.write(w, payload, {})
            writers.append(write_event)
        hv = {"magic": CTF_MAGIC, "uuid": uuid_bytes(PROCS_UUID), "stream_id": 0}
        data, _ = build_packet(
            "le", PACKET_HEADER, hv, PACKET_CONTEXT,
            {"timestamp_begin": begin, "timestamp_end": begin + 100 * (len(evs) + 1),
             "events_discarded": 0, "cpu_id": cpu}, writers)
        files["channel0_%d" % cpu] = data
    return files


# ---------------------------------------------------------------------------
# synth-noclock: no clock, no timestamps, no trace UUID
# ---------------------------------------------------------------------------

NOCLOCK_HEADER = Struct([("magic", uint32_t), ("stream_id", uint32_t)])
NOCLOCK_CONTEXT = Struct([("content_size", uint64_t), ("packet_size", uint64_t),
                          ("cpu_id", uint32_t)])
NOCLOCK_EVENT_HEADER = Struct([("id", uint16_t)])
NOCLOCK_EVENT_CLASSES = [
    (0, "noclock:msg", None, None, Struct([("msg", String())])),
    (1, "noclock:val", None, None, Struct([("v", I(32, True, 32))])),
]
NOCLOCK_PACKETS = [
    [("noclock:msg", {"msg": "first"}), ("noclock:val", {"v": 1})],
    [("noclock:val", {"v": -2}), ("noclock:msg", {"msg": "last"})],
]


def noclock_metadata():
    m = "/* CTF 1.8 */\n\n"
    m += ("/* spoor synthetic trace without any clock, written by\n"
          " * tests/data/gen-ctf.py; see tests/data/SYNTH.md */\n\n")
    m += tsdl_typealiases(BASE_ALIASES)
    m += tsdl_trace_block("le", None, NOCLOCK_HEADER)
    m += tsdl_env()
    m += ("stream {\n\tid = 0;\n\tevent.header := %s;\n"
          "\tpacket.context := %s;\n};\n\n"
          % (NOCLOCK_EVENT_HEADER.inline_spec("\t"),
             NOCLOCK_CONTEXT.inline_spec("\t")))
    for ev in NOCLOCK_EVENT_CLASSES:
        m += tsdl_event(*ev)
    return m


def noclock_trace():
    by_name = {e[1]: e for e in NOCLOCK_EVENT_CLASSES}
    out = bytearray()
    infos = []
    for evs in NOCLOCK_PACKETS:
        writers = []
        for name, payload in evs:
            ev_id, _, _, _, ft = by_name[name]

            def write_event(w, ev_id=ev_id, payload=payload, ft=ft):
                NOCLOCK_EVENT_HEADER.write(w, {"id": ev_id}, {})
                ft.write(w, payload, {})
            writers.append(write_event)
        hv = {"magic": CTF_MAGIC, "stream_id": 0}
        data, content = build_packet("le", NOCLOCK_HEADER, hv, NOCLOCK_CONTEXT,
                                     {"cpu_id": 3}, writers, pad_bytes=64)
        infos.append({"offset": len(out), "size": len(data),
                      "content_bits": content})
        out += data
    files = {"metadata": noclock_metadata().encode("utf-8"),
             "channel0_3": bytes(out)}
    return files, {"channel0_3": infos}


# ---------------------------------------------------------------------------
# Good and bad trace sets
# ---------------------------------------------------------------------------

def good_traces():
    le, _ = synth_trace("le")
    be, _ = synth_trace("be")
    packetized = dict(le)
    packetized["metadata"] = packetize_metadata(
        le["metadata"].decode("utf-8"), "le", TRACE_UUID)
    return {
        "synth-le": le,
        "synth-be": be,
        "synth-large": large_trace()[0],
        "synth-noclock": noclock_trace()[0],
        "synth-packetized": packetized,
        "synth-enums": enums_trace()[0],
        "synth-procs": procs_trace(),
    }


def packet_offsets(data, byte_order="le"):
    """Re-read (offset, size) of every packet of a synth stream file using
    the fixed layout of PACKET_HEADER + PACKET_CONTEXT (offsets in bytes:
    magic 0, uuid 4, stream_id 20, ts_begin 24, ts_end 32, content_size
    40, packet_size 48, events_discarded 56, cpu_id 64)."""
    bo = "<" if byte_order == "le" else ">"
    out, off = [], 0
    while off < len(data):
        content_bits, packet_bits = struct.unpack_from(bo + "QQ", data, off + 40)
        out.append((off, packet_bits // 8, content_bits // 8))
        off += packet_bits // 8
    return out


def bad_traces():
    le, _ = synth_trace("le")
    bad = {}

    # bad-truncated: channel0_0 cut in the middle of its 2nd packet.
    t = dict(le)
    off, size, content = packet_offsets(le["channel0_0"])[1]
    t["channel0_0"] = le["channel0_0"][:off + content // 2]
    bad["bad-truncated"] = t

    # bad-magic: magic of the 2nd packet of channel0_0 replaced.
    t = dict(le)
    data = bytearray(le["channel0_0"])
    off = packet_offsets(le["channel0_0"])[1][0]
    data[off:off + 4] = struct.pack("<I", 0xDEADBEEF)
    t["channel0_0"] = bytes(data)
    bad["bad-magic"] = t

    # bad-header: packet_size of the last packet of channel0_0 claims
    # 64 KiB (the file ends long before).
    t = dict(le)
    data = bytearray(le["channel0_0"])
    off = packet_offsets(le["channel0_0"])[-1][0]
    struct.pack_into("<Q", data, off + 48, 65536 * 8)
    t["channel0_0"] = bytes(data)
    bad["bad-header"] = t

    # bad-content-size: content_size > packet_size in the 1st packet of
    # channel0_1 (packet_size itself is right).
    t = dict(le)
    data = bytearray(le["channel0_1"])
    off, size, _ = packet_offsets(le["channel0_1"])[0]
    struct.pack_into("<Q", data, off + 40, (size + 8) * 8)
    t["channel0_1"] = bytes(data)
    bad["bad-content-size"] = t

    # bad-metadata-syntax: a missing ';' in the synth:floats event.  The
    # parser sees `fields := struct {` ... `pad3` declared as
    # `integer { size = 3; align = 1 signed = false; } pad3;`: the first
    # unexpected token is `signed`.  EXPECTED holds its LINE:COLUMN
    # (both 1-based, column counted in bytes, a tab counts as one).
    t = dict(le)
    text = le["metadata"].decode("utf-8")
    lines = text.split("\n")
    target = "integer { size = 3; align = 1; signed = false; } pad3;"
    idx = [i for i, l in enumerate(lines) if l.strip() == target]
    assert len(idx) == 1
    i = idx[0]
    lines[i] = lines[i].replace("align = 1; signed", "align = 1 signed")
    col = lines[i].index("signed") + 1
    t["metadata"] = "\n".join(lines).encode("utf-8")
    t["EXPECTED"] = ("%d:%d\n" % (i + 1, col)).encode()
    bad["bad-metadata-syntax"] = t

    # bad-missing-stream: channel0_1's packet headers say stream_id = 7,
    # which the metadata does not declare.
    bad["bad-missing-stream"] = synth_trace(
        "le", stream_id_override={"channel0_1": 7})[0]

    # bad-empty: an empty directory (git cannot store it, so it is made
    # here at run time).
    bad["bad-empty"] = {}

    # bad-not-a-trace: a directory holding only a text file.
    bad["bad-not-a-trace"] = {
        "README.txt": b"This directory is not a CTF trace.\n"}
    return bad


def write_traces(outdir, traces):
    os.makedirs(outdir, exist_ok=True)
    for name in sorted(traces):
        tdir = os.path.join(outdir, name)
        if os.path.isdir(tdir) and not os.path.islink(tdir):
            shutil.rmtree(tdir)
        elif os.path.lexists(tdir):
            os.remove(tdir)
        os.makedirs(tdir)
        for fname in sorted(traces[name]):
            with open(os.path.join(tdir, fname), "wb") as f:
                f.write(traces[name][fname])


# ---------------------------------------------------------------------------
# Markdown tables for SYNTH.md
# ---------------------------------------------------------------------------

def c_escape(text):
    """Escape a string the way C / babeltrace2 would print it."""
    out = ""
    for ch in text:
        if ch in '"\\':
            out += "\\" + ch
        elif ch == "\n":
            out += "\\n"
        elif ch == "\t":
            out += "\\t"
        elif ch == "\0":
            out += "\\0"
        else:
            out += ch
    return '"' + out + '"'


def fmt_value(v):
    """Compact human-readable rendering of a value for SYNTH.md."""
    if isinstance(v, dict):
        return "{" + ", ".join("%s=%s" % (k, fmt_value(x))
                               for k, x in v.items()) + "}"
    if isinstance(v, tuple):                     # variant (option, value)
        return "%s:%s" % (v[0], fmt_value(v[1]))
    if isinstance(v, (bytes, bytearray)):        # 8-bit text array/sequence
        return "bytes" + c_escape(bytes(v).decode("latin-1"))
    if isinstance(v, list):
        return "[" + ", ".join(fmt_value(x) for x in v) + "]"
    if isinstance(v, str):
        return c_escape(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def markdown():
    import datetime
    out = []

    def ts_str(cycles):
        ns = ns_since_epoch(cycles)
        t = datetime.datetime.fromtimestamp(ns // 1000000000,
                                            datetime.timezone.utc)
        return "%d | %s.%09d" % (ns, t.strftime("%H:%M:%S"), ns % 1000000000)

    def table(infos, with_vtid=True):
        out.append("| file | pkt | # | offset | end bit | cycles | "
                   "ns since epoch | GMT | event (id) | header | vtid | "
                   "payload |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for fname, pkts in infos.items():
            for pi, p in enumerate(pkts):
                for ei, e in enumerate(p["events"]):
                    pl = fmt_value(e["payload"])
                    if e["context"] is not None:
                        pl = "context " + fmt_value(e["context"]) + "; " + pl
                    if e["name"] == "synth:all_sizes":
                        pl = "see all_sizes table"
                    out.append("| %s | %d | %d | %d | %d | %d | %s | `%s` (%d) "
                               "| %s%s | %s | `%s` |" % (
                                   fname, pi, ei, e["offset"], e["end_bits"],
                                   e["ts"], ts_str(e["ts"]), e["name"],
                                   e["id"], e["kind"],
                                   " (wrap)" if e["wrapped"] else "",
                                   e["vtid"] if e["vtid"] is not None else "-",
                                   pl))
        out.append("")
        out.append("| file | pkt | offset | packet bytes | content bits | "
                   "timestamp_begin | timestamp_end | events_discarded |")
        out.append("|---|---|---|---|---|---|---|---|")
        for fname, pkts in infos.items():
            for pi, p in enumerate(pkts):
                out.append("| %s | %d | %d | %d | %d | %d | %d | %d |" % (
                    fname, pi, p["offset"], p["size"], p["content_bits"],
                    p["ts_begin"], p["ts_end"], p["discarded"]))
        out.append("")

    out.append("### synth-le / synth-be / synth-packetized\n")
    table(synth_trace("le")[1])
    out.append("### all_sizes\n")
    out.append("| N | uN (hex) | uN | sN |")
    out.append("|---|---|---|---|")
    p = all_sizes_payload()
    for n in range(1, 65):
        out.append("| %d | 0x%X | %d | %d |" % (n, p["u%d" % n], p["u%d" % n],
                                               p["s%d" % n]))
    out.append("")
    out.append("### synth-large\n")
    table(large_trace()[1])
    print("\n".join(out))


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------

def main(argv):
    args = argv[1:]
    if args == ["--markdown"]:
        markdown()
        return 0
    bad = False
    if args and args[0] == "--bad":
        bad = True
        args = args[1:]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: %s [--bad] OUTDIR | --markdown\n" % argv[0])
        return 2
    write_traces(args[0], bad_traces() if bad else good_traces())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
