# SPDX-License-Identifier: MIT
"""Damaged traces (tests/data/gen-damaged.py) and bad paths: a spoor.Error or a
spoor.DamageWarning with the reader's message, every event before the damage, never a crash."""
import os
import unittest
import warnings

import helpers
import spoor

CASES = ["backwards", "before-begin", "packet-backwards", "after-end", "end-before-begin",
         "out-of-range", "unknown-id", "packet-past-file", "field-past-content", "random"]


class Damage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        cls.d = helpers.damaged_traces(cls.tmp.path)
        cls.clean = [(ev.ts, ev.cpu, ev.name) for ev in spoor.open(cls.path("clean")).events()]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.close()

    @classmethod
    def path(cls, case):
        return os.path.join(cls.d, case)

    def expect(self, case):
        with open(self.path(case) + ".expect") as f:
            return [int(x) for x in f.read().split()]

    def read_all(self, case):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            evs = [(ev.ts, ev.cpu, ev.name) for ev in spoor.open(self.path(case)).events()]
        return evs, [w for w in caught if issubclass(w.category, spoor.DamageWarning)]

    def test_iteration_warns_and_keeps_what_came_before(self):
        for case in CASES:
            with self.subTest(case=case):
                evs, warned = self.read_all(case)
                self.assertEqual(len(warned), 1)
                msg = str(warned[0].message)
                self.assertIn(os.path.join(self.path(case), "channel0_0") + ": offset ", msg)
                if case == "random":
                    lo, hi, before = self.expect(case)
                    at = int(msg.split(": offset ")[1].split(":")[0])
                    self.assertTrue(lo <= at < hi, msg)
                else:
                    at, before = self.expect(case)
                    self.assertIn(": offset %d: " % at, msg)
                cpu0 = [e for e in evs if e[1] == 0]
                clean0 = [e for e in self.clean if e[1] == 0]
                self.assertEqual(cpu0[:before], clean0[:before])
                # an event whose header is whole but its payload not is delivered (its
                # fields are read lazily), the damage reported when it is stepped over
                if case == "field-past-content":
                    self.assertEqual(len(cpu0), before + 1)
                elif case != "random":
                    self.assertEqual(len(cpu0), before)
                self.assertEqual([e for e in evs if e[1] == 1],
                                 [e for e in self.clean if e[1] == 1])
                self.assertEqual(evs, sorted(evs, key=lambda e: e[0]))

    def test_strict_raises(self):
        for case in ["backwards", "packet-past-file", "unknown-id"]:
            with self.subTest(case=case):
                t = spoor.open(self.path(case))
                with self.assertRaisesRegex(spoor.Error, "channel0_0: offset"):
                    for _ in t.events(strict=True):
                        pass
                with self.assertRaisesRegex(spoor.Error, "channel0_0: offset"):
                    t.columns("sched_switch", ["ts", "next_tid"], strict=True)

    def test_columns_warn(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = spoor.open(self.path("backwards")).columns("sched_switch", ["ts", "cpu"])
        self.assertEqual(sum(issubclass(w.category, spoor.DamageWarning) for w in caught), 1)
        self.assertGreater(len(got["ts"]), 0)

    def test_warning_as_error(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", spoor.DamageWarning)
            with self.assertRaises(spoor.DamageWarning):
                list(spoor.open(self.path("after-end")).events())

    def test_truncated_file(self):
        # a stream file cut in the middle of its first packet, and an empty one
        trace = os.path.join(self.tmp.path, "cut")
        os.makedirs(trace)
        for name in ("metadata", "channel0_0", "channel0_1"):
            with open(os.path.join(self.path("clean"), name), "rb") as f:
                data = f.read()
            cut = {"channel0_0": 100, "channel0_1": 0}.get(name, len(data))
            with open(os.path.join(trace, name), "wb") as f:
                f.write(data[:cut])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            evs = [(ev.ts, ev.cpu, ev.name) for ev in spoor.open(trace).events()]
            parts = spoor.open(trace).parts()
            from_parts = [(ev.ts, ev.cpu, ev.name) for p in parts
                          for ev in spoor.open(trace).events(part=p)]
        self.assertEqual(evs, [e for e in self.clean if e[1] == 0][:len(evs)])
        self.assertTrue(any("cut/channel0_0: offset " in
                            str(w.message) for w in caught))
        self.assertEqual(from_parts, evs)

    def test_bad_paths(self):
        with self.assertRaisesRegex(spoor.Error, "/no/such/trace: No such file"):
            spoor.open("/no/such/trace")
        with self.assertRaisesRegex(spoor.Error, "no CTF trace here"):
            spoor.open(os.path.dirname(os.path.abspath(__file__)))
        with self.assertRaisesRegex(spoor.Error, "No such file"):
            spoor.open(b"/no/such/\xff")  # bytes that are no UTF-8: os.fsencode's
        with self.assertRaisesRegex(spoor.Error, "No such file"):
            spoor.open("/no/such/\udcff")  # the same as os.fsdecode gives it
        with self.assertRaises(ValueError):
            spoor.open([])
        with self.assertRaises(TypeError):
            spoor.open([3])

    def test_bad_metadata(self):
        trace = os.path.join(self.tmp.path, "badmeta")
        os.makedirs(trace)
        with open(os.path.join(trace, "metadata"), "w") as f:
            f.write("/* CTF 1.8 */\ntrace { major = 1; minor = 8; ;;; nonsense\n")
        with self.assertRaisesRegex(spoor.Error, "metadata"):
            spoor.open(trace)


if __name__ == "__main__":
    unittest.main()
