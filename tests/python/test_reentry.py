# SPDX-License-Identifier: MIT
"""Python code that the C calls back (a DamageWarning's handler, a signal's) and what it may
do meanwhile: re-entering a running call raises RuntimeError (as a running generator
does), never a use-after-free; Ctrl-C stops a runaway query; parts name absolute paths;
parameters are a sequence of values, not a string's characters (REVIEW20)."""
import os
import pickle
import subprocess
import sys
import unittest
import warnings

import helpers
import spoor
from spoor import _spoor


class Reentry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = helpers.TempDir()
        cls.d = helpers.damaged_traces(cls.tmp.path)
        cls.damaged = os.path.join(cls.d, "unknown-id")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.close()

    def on_warning(self, fn):
        """Run fn in the DamageWarning's handler; what it raised, in order."""
        raised = []

        def show(*args, **kw):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 (what re-entry raises is the point)
                raised.append(e)
        return raised, show

    def test_iteration_advanced_from_its_warning(self):
        it = spoor.open(self.damaged).events()
        raised, show = self.on_warning(lambda: list(it))
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            names = [ev.name for ev in it]
        self.assertTrue(names)
        self.assertEqual([type(e) for e in raised], [RuntimeError])
        self.assertIn("already running", str(raised[0]))

    def test_sql_reentered_from_its_warning(self):
        t = spoor.open(self.damaged)
        raised, show = self.on_warning(lambda: (t.sql("SELECT 1"), t.close()))
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            rows = t.sql("SELECT count(*) FROM events; SELECT 2")
        self.assertEqual(rows, [(2,)])
        self.assertEqual([type(e) for e in raised], [RuntimeError])
        self.assertIn("already running", str(raised[0]))
        self.assertEqual(t.sql("SELECT 3"), [(3,)])  # still open, still usable
        t.close()

    def test_columns_list_cleared_from_its_warning(self):
        # column names made at run time, held by nothing but the list
        names = ["".join(["t", "s"]), "".join(["c", "p", "u"])]
        raised, show = self.on_warning(names.clear)
        classes = {ev.name for ev in spoor.open(os.path.join(self.d, "clean")).events()}
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            cols = _spoor.columns([self.damaged], sorted(classes)[0], names)
        self.assertEqual(sorted(cols), ["cpu", "ts"])
        self.assertEqual(names, [])

    def test_interrupt_stops_a_runaway_query(self):
        # Ctrl-C's handler (run by SIGALRM here: a thread's os.kill would wait for the GIL)
        # during a query that never ends by itself: a KeyboardInterrupt, and the database
        # still usable. A process of its own: without the fix the query runs until the
        # timeout.
        script = (
            "import signal, spoor\n"
            "t = spoor.open(%r)\n"
            "signal.signal(signal.SIGALRM, signal.default_int_handler)\n"
            "signal.setitimer(signal.ITIMER_REAL, 0.3)\n"
            "try:\n"
            "    t.sql('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) '\n"
            "          'SELECT count(*) FROM c')\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', t.sql('SELECT 1'))\n" % os.path.join(self.d, "clean"))
        out = subprocess.run([sys.executable, "-X", "dev", "-c", script], timeout=120,
                             capture_output=True, text=True)
        self.assertEqual((out.returncode, out.stdout, out.stderr), (0, "interrupted [(1,)]\n", ""))

    def test_params_are_not_a_string(self):
        t = spoor.open(os.path.join(self.d, "clean"))
        for params in ["ab", b"ab", bytearray(b"ab")]:
            with self.subTest(params=params), self.assertRaisesRegex(TypeError, "sequence"):
                t.sql("SELECT ?, ?", params)
        self.assertEqual(t.sql("SELECT ?, ?", ("ab", "c")), [("ab", "c")])
        t.close()

    def test_parts_work_from_another_folder(self):
        here = os.getcwd()
        try:
            os.chdir(self.d)
            t = spoor.open("clean")
            parts = pickle.loads(pickle.dumps(t.parts(max_bytes=1)))
            whole = [(ev.ts, ev.name) for ev in t.events()]
            os.chdir(self.tmp.path)
            self.assertTrue(all(os.path.isabs(p.trace) and os.path.isabs(p.stream)
                                for p in parts))
            got = sorted((ev.ts, ev.name) for p in parts for ev in t.events(part=p))
            self.assertEqual(got, sorted(whole))
            self.assertEqual([(ev.ts, ev.name) for ev in t.events()], whole)
            self.assertEqual(len(spoor.open(parts[0]).parts()), 2)
        finally:
            os.chdir(here)


if __name__ == "__main__":
    unittest.main()
