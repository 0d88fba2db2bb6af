"""What the tests in tests/analysis share: running spoor, the ok/FAIL/SKIP lines and their
counts, the closing line and exit code, recording a trace here, and lttng-analyses' tools.
Each test runs as `python3 tests/analysis/test_X.py` and puts this folder on sys.path first.

Environment: SPOOR (the binary); SPOOR_TEST_DATA (tests/data, where gen_kernel.py is) and
SHARED_TRACES when set."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SPOOR = os.environ["SPOOR"]
SHARED = os.environ.get("SHARED_TRACES", "")
if os.environ.get("SPOOR_TEST_DATA"):
    sys.path.insert(0, os.environ["SPOOR_TEST_DATA"])  # for `import gen_kernel`

counts = {"passed": 0, "failed": 0, "skipped": 0}


def check(what, ok):
    """One assertion: prints `ok - what` or `FAIL - what` and counts it."""
    counts["passed" if ok else "failed"] += 1
    print(("ok - " if ok else "FAIL - ") + what)
    return bool(ok)


def check_eq(what, got, want, tol=0.0):
    """got == want (within tol when want is a float), printing both."""
    ok = abs(got - want) <= tol if isinstance(want, float) else got == want
    counts["passed" if ok else "failed"] += 1
    print("%s - %s: got %r, want %r" % ("ok" if ok else "FAIL", what, got, want))
    return ok


def skip(what):
    """A part that could not be checked here."""
    counts["skipped"] += 1
    print("SKIP - " + what)


def skip_all(why):
    """Nothing can be checked here: exit 77, meson's skip."""
    print("SKIP: " + why)
    sys.exit(77)


def close(a, b, tol):
    """a within tol of b, relative (absolute below 1)."""
    return a is not None and abs(a - b) <= tol * max(1.0, abs(b))


def spoor(*args, **kw):
    """Runs spoor with args; the finished process, its output as text."""
    return subprocess.run([SPOOR, *args], capture_output=True, text=True, **kw)


def spoor_json(cmd, *args):
    """`spoor CMD --json ARGS`, parsed; None (its stderr shown) when it fails."""
    p = spoor(cmd, "--json", *args)
    if p.returncode:
        print(p.stderr, file=sys.stderr)
        return None
    return json.loads(p.stdout)


def record(out, kinds, work, timeout=120):
    """`spoor record -k KINDS -o OUT -- sh -c WORK`; OUT, or None after a skip when this
    machine cannot record (not root, no tracefs, no babeltrace2 to check against)."""
    if os.geteuid() != 0:
        skip("recording needs root")
        return None
    if not os.path.isdir("/sys/kernel/tracing") or not shutil.which("babeltrace2"):
        skip("no tracefs or no babeltrace2")
        return None
    p = spoor("record", "-k", kinds, "-o", out, "--", "sh", "-c", work, timeout=timeout)
    if p.returncode:
        skip("spoor record -k %s failed here: %s" % (kinds, p.stderr.strip()[-300:]))
        return None
    return out


def lttng_analysis(tool, *args, timeout=280):
    """Runs an lttng-analyses tool (lttng-irqstats, ...) with --no-progress --no-color; the
    finished process. meson sets MALLOC_PERTURB_, under which babeltrace 1's Python bindings
    print nothing, so it is left out of the tool's environment."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    return subprocess.run([tool, "--no-progress", "--no-color", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def finish(real=False):
    """The closing line; the exit code: 1 on a failure, else 0, or 77 (skip) for a test on
    real traces (real=True) that could check nothing here."""
    print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
    if counts["failed"]:
        return 1
    return 77 if real and not counts["passed"] else 0


def run_parts(prefix, *parts):
    """Runs each part(tmp) in one temporary folder, removed after; the exit code of
    finish(real=True)."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        for part in parts:
            part(tmp)
    finally:
        shutil.rmtree(tmp)
    return finish(real=True)
