# SPDX-License-Identifier: MIT
"""docs/python.md's walk-through runs: its ```python cells, in order, as one script, on
gen_kernel.py's busy trace (TRACE), so that the guide cannot rot."""
import os
import re
import subprocess
import sys
import unittest

import helpers

DOC = os.path.join(helpers.DATA, "..", "..", "docs", "python.md")


class Doc(unittest.TestCase):
    def test_walk_through_runs(self):
        with open(DOC) as f:
            cells = re.findall(r"^```python\n(.*?)^```", f.read(), re.S | re.M)
        self.assertGreater(len(cells), 8)
        tmp = helpers.TempDir()
        try:
            script = os.path.join(tmp.path, "walk.py")
            with open(script, "w") as f:
                f.write("TRACE = %r\n" % helpers.busy_trace(tmp.path))
                f.write("\n".join(cells))
            out = subprocess.run([sys.executable, "-X", "dev", script], capture_output=True,
                                 text=True, env=dict(os.environ, PYTHONWARNINGS="error"))
        finally:
            tmp.close()
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("/no/such/trace: No such file or directory", out.stdout)
        self.assertIn('near "SELEC": syntax error', out.stdout)
        self.assertIn("\n[(0, ", out.stdout)  # switches per CPU, from the parts


if __name__ == "__main__":
    unittest.main()
