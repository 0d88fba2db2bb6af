#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make-daemon-seeds.py [DIR]: the seed corpus of fuzz-daemon (default tests/fuzz/corpus/daemon).

Each seed is a conversation with the session daemon in fuzz-daemon.c's input format (records
of op, 16-bit length, message; see there): sessions created, enabled, started, listed,
stopped, snapshotted and destroyed by their owner and refused to another user; a program's
HELLO, EVENTS and BUFFER (with a ring whose header is valid); and broken messages. The
layouts are lib/ipc/proto.h's and lib/rb/rb-abi.h's."""
import os
import struct
import sys

MAGIC, VERSION = 0x53504F53, 2
HELLO, EVENTS, BUFFER, SESSION_END, CTL = 1, 3, 4, 6, 16
ROOT, U1000, U1001, TRACING = 0, 1, 2, 3


def head(kind, body, length=None):
    return struct.pack("<4I", MAGIC, VERSION, kind, 16 + len(body) if length is None else length) + body


def ctl(verb, *kv):
    text = "verb %s\n" % verb + "".join("%s %s\n" % pair for pair in kv)
    return head(CTL, text.encode())


def hello(pid, name):
    return head(HELLO, struct.pack("<iiI16s", pid, 1, 0, name.encode()))


def events(text):
    return head(EVENTS, text.encode())


def ring(tid, subbuf=65536, n=4, mode=0):
    """A ring's header page: a valid header, nothing produced yet, packet 0 open."""
    hdr = struct.pack("<4IQ2IQ", 0x42525053, 112 + 32 * n, 2, mode, subbuf, n, tid, 4096)
    state = struct.pack("<8Q2I", 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)
    return hdr + state + bytes(32 * n)


def buffer(tid, slot):
    return head(BUFFER, struct.pack("<iIQ", tid, slot, 4096 + 4 * 65536))


def record(conn, user, msg, memfd=b"", close=False):
    op = conn | user << 3 | (0x20 if memfd else 0) | (0x40 if close else 0)
    data = msg + memfd
    return struct.pack("<BH", op, len(data)) + data


# tests/programs/service.c's events, as its runtime describes them (corpus/events/hello.txt)
EVENT_TEXT = ("event 0 svc request 8 2\n"
              "field seq 0 8 0 10 0 0 0 0\n"
              "field path 2 1 0 10 0 1 0 0\n"
              "event 1 svc tick 8 1\n"
              "field seq 0 8 0 10 0 0 0 0\n")


def life(user, out):
    return [record(0, user, ctl("create", ("name", "s1"), ("output", out))),
            record(0, user, ctl("enable", ("name", "s1"), ("u", "svc:*"))),
            record(0, user, ctl("start", ("name", "s1")))]


def seeds():
    yield "ctl-create-list", [record(0, ROOT, ctl("create", ("name", "s1"), ("output", "/a"))),
                              record(1, ROOT, ctl("list"))]
    yield "ctl-life", life(U1000, "/b") + [
        record(0, U1000, ctl("list", ("name", "s1"))),
        record(0, U1000, ctl("disable", ("name", "s1"), ("all", "1"))),
        record(0, U1000, ctl("stop", ("name", "s1"))),
        record(0, U1000, ctl("destroy", ("name", "s1")))]
    yield "ctl-other-user", life(U1000, "/c") + [
        record(1, U1001, ctl("list")),
        record(1, U1001, ctl("stop", ("name", "s1"))),
        record(1, U1001, ctl("snapshot", ("name", "s1"))),
        record(1, U1001, ctl("destroy", ("name", "s1"))),
        record(2, TRACING, ctl("enable", ("name", "s2"), ("k", "sched_switch")))]
    yield "ctl-watch", life(U1000, "/c") + [
        record(4, U1000, ctl("watch", ("name", "s1"), ("period-ns", "1000000"))),
        record(5, U1001, ctl("watch", ("name", "s1"))),
        record(0, U1000, ctl("stop", ("name", "s1"))),
        record(4, U1000, ctl("list"))]
    yield "ctl-overwrite", [
        record(0, ROOT, ctl("create", ("name", "f"), ("output", "/d"), ("overwrite", "1"),
                            ("subbuf-size", "4096"), ("subbuffers", "2"))),
        record(0, ROOT, ctl("enable", ("name", "f"), ("u", "svc:request"))),
        record(0, ROOT, ctl("start", ("name", "f"))),
        record(0, ROOT, ctl("snapshot", ("name", "f"), ("output", "/a"))),
        record(0, ROOT, ctl("rotate", ("name", "f")))]
    yield "ctl-layout", [
        record(0, ROOT, ctl("create", ("name", "k"), ("output", "/e"), ("layout", "lttng"),
                            ("kernel-buffer-kb", "1024"))),
        record(1, ROOT, ctl("create", ("name", "k2"), ("output", "/f"), ("layout", "ftrace"))),
        record(2, ROOT, ctl("list", ("name", "k")))]
    yield "app-session", life(ROOT, "/a") + [
        record(3, ROOT, hello(4242, "service")),
        record(3, ROOT, events(EVENT_TEXT)),
        record(3, ROOT, buffer(4242, 0), ring(4242)),
        record(0, ROOT, ctl("list")),
        record(3, ROOT, head(SESSION_END, struct.pack("<II", 0, 0))),
        record(0, ROOT, ctl("stop", ("name", "s1")))]
    yield "app-then-session", [
        record(3, U1000, hello(77, "early")),
        record(3, U1000, events(EVENT_TEXT))] + life(U1000, "/b") + [
        record(3, U1000, buffer(77, 0), ring(77)),
        record(3, U1000, buffer(78, 0), ring(78), close=True),
        record(0, U1000, ctl("destroy", ("name", "s1")))]
    yield "broken", [
        record(0, ROOT, struct.pack("<4I", MAGIC, VERSION, CTL, 1 << 30)),
        record(1, ROOT, b"\x00" * 7),
        record(2, ROOT, struct.pack("<4I", MAGIC, 1, HELLO, 16)),
        record(3, ROOT, hello(1, "x") + b"trailing"),
        record(4, ROOT, ctl("create", ("name", "../x"), ("output", "/a"))),
        record(5, ROOT, head(CTL, b"verb\n")),
        record(6, ROOT, events("event 0 a b 8 1\n"))]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "daemon")
    os.makedirs(out, exist_ok=True)
    for name, records in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"".join(records))


if __name__ == "__main__":
    main()
