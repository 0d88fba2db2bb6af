# SPDX-License-Identifier: MIT
"""t.events(): every event in babeltrace2's order with its values; names, time ranges;
the task of each event; an event's fields only while it is current."""
import collections
import unittest

import helpers
import spoor


class Events(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        cls.busy = helpers.busy_trace(cls.tmp.path)
        cls.ftrace, cls.ftrace_events = helpers.ftrace_trace(cls.tmp.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.close()

    def traces(self):
        return [helpers.data_trace(n) for n in helpers.UST_TRACES] + [self.busy, self.ftrace]

    @unittest.skipUnless(helpers.bt2, "python3-bt2 is not installed")
    def test_same_events_as_babeltrace2(self):
        for path in self.traces():
            with self.subTest(trace=path):
                want = helpers.bt2_events(path)
                got = [(ev.name, ev.ts, {k: v for k, v in ev.fields().items()
                                         if k in want_fields})
                       for ev, (_, _, want_fields) in zip(spoor.open(path).events(), want)]
                self.assertEqual(len(list(spoor.open(path).events())), len(want))
                self.assertEqual(got, want)

    def test_counts_per_name_of_the_generator(self):
        t = spoor.open(self.ftrace)
        counts = collections.Counter(ev.name for ev in t.events())
        self.assertEqual(counts, collections.Counter(e[2] for e in self.ftrace_events))

    def test_fields_and_tasks_ftrace_layout(self):
        t = spoor.open(self.ftrace)
        seen = []
        for ev, (ts, cpu, name, fields) in zip(t.events(), sorted(self.ftrace_events)):
            self.assertEqual((ev.name, ev.cpu), (name, cpu))
            for k, v in fields.items():
                self.assertEqual(ev[k], v, (name, k))
            seen.append((ev.name, ev.tid, ev.comm))
        # common_pid gives the task; names from the switches
        self.assertEqual(seen[0], ("sched_switch", 0, "<idle>"))
        self.assertEqual(seen[1], ("sched_wakeup", 7, "seven"))
        self.assertEqual(seen[3], ("irq_handler_entry", 9, "nine"))

    def test_tasks_from_switches_and_state_dump(self):
        # busy: no task context; CPU c runs 1000 + c of process 1000 "multithread"
        t = spoor.open(self.busy)
        found = {}
        for ev in t.events(names="syscall_entry_read"):
            found.setdefault(ev.cpu, (ev.tid, ev.pid, ev.comm))
        self.assertEqual(found, {c: (1000 + c, 1000, "multithread") for c in range(4)})
        # a switch happens in the task it switches out (its prev_tid)
        switches = [(ev.tid, ev["prev_tid"]) for ev in t.events(names="sched_switch")]
        self.assertEqual([a for a, _ in switches], [b for _, b in switches])
        self.assertEqual(switches[0][0], 0)

    def test_tasks_before_a_late_state_dump(self):
        # LTTng's dump comes some time in: it is read ahead, as the analyses do (and SQL)
        tmp = helpers.TempDir()  # (not beside the class's traces: test_folder_of_traces)
        self.addCleanup(tmp.close)
        t = spoor.open(helpers.late_dump_trace(tmp.path))
        self.addCleanup(t.close)
        got = [(ev.tid, ev.pid, ev.comm) for ev in t.events(names="syscall_entry_read")]
        self.assertEqual(got, [(42, 40, "worker")])
        self.assertEqual(t.sql("SELECT tid, pid, comm FROM events "
                               "WHERE name = 'syscall_entry_read'"), got)
        begin = t.sql("SELECT ts FROM events WHERE name = 'syscall_entry_read'")[0][0]
        self.assertEqual([(ev.tid, ev.pid) for ev in t.events(begin=begin, end=begin)],
                         [(42, 40)])

    def test_ust_contexts(self):
        ev = next(iter(spoor.open(helpers.data_trace("ust-types")).events()))
        f = ev.fields()
        self.assertEqual((ev.tid, ev.pid, ev.comm), (f["vtid"], f["vpid"], f["procname"]))

    def test_names_filter(self):
        t = spoor.open(self.busy)
        every = [(ev.ts, ev.name) for ev in t.events()]
        want = {"sched_switch", "irq_handler_entry"}
        got = [(ev.ts, ev.name) for ev in t.events(names=want)]
        self.assertEqual(got, [e for e in every if e[1] in want])
        self.assertEqual([ev.name for ev in t.events(names="no such event")], [])

    def test_range(self):
        t = spoor.open(self.busy)
        every = [ev.ts for ev in t.events()]
        b, e = every[len(every) // 3], every[2 * len(every) // 3]
        self.assertEqual([ev.ts for ev in t.events(begin=b, end=e)],
                         [ts for ts in every if b <= ts <= e])
        self.assertEqual([ev.ts for ev in t.events(begin=b)], [ts for ts in every if ts >= b])

    def test_range_tasks_equal_a_whole_read(self):
        # tid, pid and comm of a range's events are those a whole read gives: the model
        # reads the part before begin first (never blank because of push-down)
        t = spoor.open(self.busy)
        whole = [(ev.ts, ev.name, ev.tid, ev.pid, ev.comm) for ev in t.events()]
        for at in (len(whole) // 3, len(whole) // 2, len(whole) - 5):
            begin, end = whole[at][0], whole[at + 4][0]
            with self.subTest(begin=begin):
                got = [(ev.ts, ev.name, ev.tid, ev.pid, ev.comm)
                       for ev in t.events(begin=begin, end=end)]
                self.assertEqual(got, [w for w in whole if begin <= w[0] <= end])
                self.assertTrue(any(g[2] is not None for g in got))

    def test_fields_only_while_current(self):
        it = spoor.open(self.busy).events()
        first = next(it)
        name, ts = first.name, first.ts
        kept = first.fields()
        next(it)
        self.assertEqual((first.name, first.ts), (name, ts))  # copied
        with self.assertRaises(spoor.Error):
            first["tid"]
        with self.assertRaises(spoor.Error):
            first.fields()
        self.assertEqual(kept["tid"], 1000)
        with self.assertRaises(KeyError):
            next(it)["no such field"]

    def test_several_iterations_at_once(self):
        t = spoor.open(self.ftrace)
        a, b = t.events(), t.events()
        self.assertEqual([(x.name, x.ts) for x in a], [(y.name, y.ts) for y in b])

    def test_folder_of_traces(self):
        t = spoor.open(self.tmp.path)  # both traces under one folder
        n = sum(1 for _ in t.events())
        self.assertEqual(n, sum(1 for _ in spoor.open(self.busy).events()) +
                         len(self.ftrace_events))


if __name__ == "__main__":
    unittest.main()
