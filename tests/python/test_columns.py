# SPDX-License-Identifier: MIT
"""t.columns(): NumPy arrays equal to what iteration gives, their types, time ranges,
several classes of one name, and the errors of a bad request."""
import unittest

import numpy

import helpers
import spoor


def iterated(t, cls, names, **kw):
    rows = []
    for ev in t.events(names=cls, **kw):
        rows.append([ev.ts if n == "ts" else ev.cpu if n == "cpu" else ev[n] for n in names])
    return [list(col) for col in zip(*rows)] if rows else [[] for _ in names]


class Columns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        cls.busy = helpers.busy_trace(cls.tmp.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.close()

    def check_equal(self, t, cls, names, **kw):
        got = t.columns(cls, names, **kw)
        self.assertEqual(list(got), names)
        for name, want in zip(names, iterated(t, cls, names, **kw)):
            self.assertEqual(got[name].tolist(), want, (cls, name))
        return got

    def test_equal_to_iteration(self):
        t = spoor.open(self.busy)
        got = self.check_equal(t, "sched_switch",
                               ["ts", "cpu", "prev_tid", "next_tid", "prev_comm", "prev_state"])
        self.assertGreater(len(got["ts"]), 0)
        self.assertEqual(got["ts"].dtype, numpy.int64)
        self.assertEqual(got["prev_tid"].dtype, numpy.int64)
        self.assertEqual(got["prev_comm"].dtype, object)
        self.assertTrue((numpy.diff(got["ts"]) >= 0).all())  # time order

    def test_ust_types(self):
        t = spoor.open(helpers.data_trace("ust-types"))
        ints = self.check_equal(t, "spoor_fixture:integers",
                                ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "vtid"])
        self.assertEqual(ints["u64"].dtype, numpy.uint64)  # 64-bit unsigned: all of it
        self.assertEqual(ints["u32"].dtype, numpy.int64)
        self.assertEqual(ints["s64"].min(), -2 ** 63)
        floats = self.check_equal(t, "spoor_fixture:floats", ["f32", "f64"])
        self.assertEqual(floats["f64"].dtype, numpy.float64)
        self.check_equal(t, "spoor_fixture:strings", ["varying", "fixed", "indexed", "empty"])
        self.check_equal(t, "spoor_fixture:enums", ["ts", "cpu"] +
                         [k for k in next(iter(t.events(names="spoor_fixture:enums"))).fields()
                          if not k.startswith("_")][:2])

    def test_range(self):
        t = spoor.open(self.busy)
        ts = t.columns("syscall_entry_read", ["ts"])["ts"]
        b, e = int(ts[len(ts) // 4]), int(ts[len(ts) // 2])
        got = self.check_equal(t, "syscall_entry_read", ["ts", "fd"], begin=b, end=e)
        self.assertEqual(got["ts"].tolist(), [x for x in ts.tolist() if b <= x <= e])

    def test_empty(self):
        t = spoor.open(self.busy)
        got = t.columns("sched_switch", ["ts", "prev_comm"], begin=1, end=2)
        self.assertEqual((len(got["ts"]), len(got["prev_comm"])), (0, 0))

    def test_bad_requests(self):
        t = spoor.open(self.busy)
        with self.assertRaisesRegex(spoor.Error, "no event class named nothing"):
            t.columns("nothing", ["ts"])
        with self.assertRaisesRegex(spoor.Error, "has no field nope"):
            t.columns("sched_switch", ["nope"])
        with self.assertRaises(TypeError):
            t.columns("sched_switch", [3])
        u = spoor.open(helpers.data_trace("ust-types"))
        with self.assertRaisesRegex(spoor.Error, "not a number or text"):
            u.columns("spoor_fixture:sequences", ["seq_s16"])


if __name__ == "__main__":
    unittest.main()
