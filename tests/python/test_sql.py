# SPDX-License-Identifier: MIT
"""t.sql() and t.sql_df(): queries through lib/sql (docs/sql.md), rows as tuples, SQLite's
errors as spoor.Error; the tables compared with iteration once they exist."""
import collections
import unittest

import helpers
import spoor

try:
    import pandas
except ImportError:
    pandas = None


class Sql(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        cls.busy = helpers.busy_trace(cls.tmp.path)
        cls.t = spoor.open(cls.busy)

    @classmethod
    def tearDownClass(cls):
        cls.t.close()
        cls.tmp.close()

    def has_table(self, name):
        return bool(self.t.sql("SELECT 1 FROM temp.sqlite_master WHERE name = ? UNION "
                               "SELECT 1 FROM pragma_module_list WHERE name = ?",
                               [name, name]))

    def test_values(self):
        self.assertEqual(self.t.sql("SELECT 1, 2.5, 'x', NULL, x'00ff'"),
                         [(1, 2.5, "x", None, b"\x00\xff")])
        self.assertEqual(self.t.sql("SELECT ? + 1, ?", [41, "é"]), [(42, "é")])
        self.assertEqual(self.t.sql("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                                    "FROM n WHERE i < 5) SELECT i FROM n"),
                         [(i,) for i in range(1, 6)])

    def test_several_statements(self):
        self.assertEqual(self.t.sql("CREATE TEMP TABLE x(a); INSERT INTO x VALUES (7), (8); "
                                    "SELECT sum(a) FROM x; -- the last one's rows"), [(15,)])
        self.assertEqual(self.t.sql("DROP TABLE x"), [])

    def test_errors(self):
        with self.assertRaisesRegex(spoor.Error, 'near "SELEC": syntax error'):
            self.t.sql("SELEC 1")
        with self.assertRaisesRegex(spoor.Error, "no such table: nosuchtable"):
            self.t.sql("SELECT * FROM nosuchtable")
        with self.assertRaisesRegex(spoor.Error, "takes 1 parameters"):
            self.t.sql("SELECT ?")
        with self.assertRaises(TypeError):
            self.t.sql("SELECT ?", [object()])
        self.assertEqual(self.t.sql("SELECT 3"), [(3,)])  # still usable

    @unittest.skipUnless(pandas, "pandas is not installed")
    def test_dataframe(self):
        df = self.t.sql_df("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'")
        self.assertEqual(list(df.columns), ["a", "b"])
        self.assertEqual(df["a"].tolist(), [1, 2])
        self.assertEqual(df["b"].tolist(), ["x", "y"])
        empty = self.t.sql_df("SELECT 1 AS a WHERE 0")
        self.assertEqual((list(empty.columns), len(empty)), (["a"], 0))

    def test_events_table(self):
        if not self.has_table("events"):
            self.skipTest("no events table yet")
        counts = collections.Counter(ev.name for ev in self.t.events())
        self.assertEqual(dict(self.t.sql("SELECT name, count(*) FROM events GROUP BY name")),
                         dict(counts))
        # the same events in the same order, their tasks as iteration tells them (one
        # model, model/tasks.h: a CPU's first switch is its prev_tid's in both)
        rows = self.t.sql("SELECT ts, name, cpu, tid, pid, comm FROM events")
        evs = [(ev.ts, ev.name, ev.cpu, ev.tid, ev.pid, ev.comm) for ev in self.t.events()]
        self.assertEqual(rows, evs)
        self.assertIn((0, "<idle>"), [(r[3], r[5]) for r in rows if r[1] == "sched_switch"])

    def test_class_table(self):
        if not self.has_table("sched_switch"):
            self.skipTest("no class tables yet")
        cols = self.t.columns("sched_switch", ["ts", "prev_tid", "next_tid"])
        self.assertEqual(self.t.sql('SELECT ts, prev_tid, next_tid FROM "sched_switch"'),
                         list(zip(*(cols[c].tolist() for c in cols))))

    def test_syscalls_table(self):
        if not self.has_table("syscalls"):
            self.skipTest("no syscalls table yet")
        # busy: every call has its entry and exit; a call's row per exit
        counts = collections.Counter(ev.name[len("syscall_exit_"):] for ev in
                                     self.t.events() if ev.name.startswith("syscall_exit_"))
        self.assertEqual(dict(self.t.sql("SELECT name, count(*) FROM syscalls GROUP BY name")),
                         dict(counts))
        # the durations of read, as columns give them: exit minus entry on each CPU
        entry = self.t.columns("syscall_entry_read", ["ts", "cpu"])
        exit_ = self.t.columns("syscall_exit_read", ["ts", "cpu"])
        durs = []
        for cpu in set(entry["cpu"].tolist()):
            durs += (exit_["ts"][exit_["cpu"] == cpu] - entry["ts"][entry["cpu"] == cpu]).tolist()
        self.assertEqual(sorted(d for (d,) in self.t.sql(
            "SELECT dur FROM syscalls WHERE name = 'read'")), sorted(durs))


if __name__ == "__main__":
    unittest.main()
