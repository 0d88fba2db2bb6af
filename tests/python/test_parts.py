# SPDX-License-Identifier: MIT
"""t.parts(): independent pieces of a trace (a stream's packets), each read alone; together
they are the whole trace; they pickle."""
import os
import pickle
import subprocess
import sys
import unittest

import numpy

import helpers
import spoor


def rows(evs):
    return [(ev.ts, ev.cpu, ev.name, tuple(sorted(ev.fields().items()))) for ev in evs]


class Parts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        # gen-damaged.py's clean trace: two CPUs, three packets each
        d = os.path.join(cls.tmp.path, "d")
        subprocess.run([sys.executable, os.path.join(helpers.DATA, "gen-damaged.py"), d],
                       check=True)
        cls.trace = os.path.join(d, "clean")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.close()

    def test_packets_listed(self):
        t = spoor.open(self.trace)
        parts = t.parts(max_bytes=1)  # a part per packet
        self.assertEqual(len(parts), 6)
        for stream in {p.stream for p in parts}:
            mine = [p for p in parts if p.stream == stream]
            self.assertEqual(mine[0].offset, 0)
            for a, b in zip(mine, mine[1:]):  # one after the other, in time order
                self.assertEqual(a.offset + a.size, b.offset)
                self.assertLessEqual(a.end, b.begin)
            self.assertEqual(mine[-1].offset + mine[-1].size, os.path.getsize(stream))
            self.assertTrue(all(p.packets == 1 and p.trace == self.trace for p in mine))
        self.assertEqual(len(t.parts()), 2)  # a part per stream, by default

    def test_parts_make_the_whole(self):
        t = spoor.open(self.trace)
        whole = rows(t.events())
        for max_bytes in (1, 30000, 1 << 30):
            with self.subTest(max_bytes=max_bytes):
                got = []
                for p in t.parts(max_bytes=max_bytes):
                    mine = rows(spoor.open(p.trace).events(part=p))
                    self.assertTrue(all(p.begin <= r[0] <= p.end for r in mine))
                    got.append(mine)
                for cpu in (0, 1):  # a stream per CPU: its parts in order are its events
                    self.assertEqual([r for g in got for r in g if r[1] == cpu],
                                     [r for r in whole if r[1] == cpu])
                self.assertEqual(sum(len(g) for g in got), len(whole))

    def test_columns_of_parts(self):
        t = spoor.open(self.trace)
        names = ["ts", "cpu", "prev_tid", "next_comm"]
        whole = t.columns("sched_switch", names)
        parts = [t.columns("sched_switch", names, part=p) for p in t.parts(max_bytes=1)]
        for n in names:
            got = numpy.concatenate([c[n] for c in parts])
            order = numpy.lexsort((got, numpy.concatenate([c["ts"] for c in parts])))
            want_order = numpy.lexsort((whole[n], whole["ts"]))
            self.assertEqual(got[order].tolist(), whole[n][want_order].tolist(), n)

    def test_range_and_names_in_a_part(self):
        t = spoor.open(self.trace)
        p = t.parts(max_bytes=1)[1]
        evs = [(ev.ts, ev.name) for ev in t.events(part=p)]
        b, e = evs[10][0], evs[-10][0]
        self.assertEqual([(ev.ts, ev.name) for ev in t.events(part=p, begin=b, end=e,
                                                               names="sched_switch")],
                         [x for x in evs if b <= x[0] <= e and x[1] == "sched_switch"])

    def test_pickle(self):
        t = spoor.open(self.trace)
        for p in t.parts(max_bytes=1):
            q = pickle.loads(pickle.dumps(p))
            self.assertEqual(q, p)
            self.assertIsInstance(q, spoor.Part)
            self.assertEqual(rows(t.events(part=q)), rows(t.events(part=p)))

    def test_bad_part(self):
        t = spoor.open(self.trace)
        p = t.parts()[0]
        with self.assertRaisesRegex(spoor.Error, "no stream file"):
            list(t.events(part=p._replace(stream=p.stream + "x")))
        with self.assertRaises(TypeError):
            list(t.events(part=(1, 2)))
        # a part whose range starts inside a packet: damage, no crash
        with self.assertRaises(spoor.Error):
            list(t.events(part=p._replace(offset=p.offset + 8), strict=True))


if __name__ == "__main__":
    unittest.main()
