# SPDX-License-Identifier: MIT
"""The shared real LTTng traces (../shared/traces/lttng, when there; they only add cases to
the project's own): every event and its payload as babeltrace2's Python bindings give them,
and the parts of a kernel trace of many packets read alone."""
import os
import unittest

import helpers
import spoor

SHARED = os.path.join(os.environ.get("SHARED_TRACES", os.path.join(
    helpers.DATA, "..", "..", "..", "shared", "traces")), "lttng")


def shared(name):
    path = os.path.join(SHARED, name)
    if not os.path.isdir(path):
        raise unittest.SkipTest("no shared trace " + path)
    return path


class Shared(unittest.TestCase):
    @unittest.skipUnless(helpers.bt2, "python3-bt2 is not installed")
    def test_same_events_as_babeltrace2(self):
        for name in ("cyg-profile", "flipping-endianness", "ros2", "many-threads"):
            with self.subTest(trace=name):
                path = shared(name)
                want = helpers.bt2_events(path)
                got = [(ev.name, ev.ts, ev.fields()) for ev in spoor.open(path).events()]
                self.assertEqual(len(got), len(want))
                for (n, ts, fields), w in zip(got, want):
                    # the payload's fields (fields() has the contexts' too)
                    self.assertEqual((n, ts, {k: fields[k] for k in w[2]}), w)

    def test_parts_of_a_kernel_trace(self):
        path = shared("many-threads")
        t = spoor.open(path)
        parts = t.parts(max_bytes=1)
        self.assertGreater(len(parts), len({p.stream for p in parts}))  # packets, not streams
        whole = [(ev.ts, ev.cpu, ev.name) for ev in t.events()]
        got = [(ev.ts, ev.cpu, ev.name) for p in parts for ev in t.events(part=p)]
        self.assertEqual(sorted(got), sorted(whole))
        cpus = {e[1] for e in whole}
        for cpu in cpus:  # a stream per CPU: its parts in order are its events in order
            self.assertEqual([e for e in got if e[1] == cpu], [e for e in whole if e[1] == cpu])


if __name__ == "__main__":
    unittest.main()
