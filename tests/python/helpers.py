# SPDX-License-Identifier: MIT
"""What the Python tests share: the project's traces (tests/data), a busy kernel trace
written by gen_kernel.py, and babeltrace2's view of a trace (python3-bt2) to compare with."""
import os
import shutil
import subprocess
import sys
import tempfile

DATA = os.environ.get("SPOOR_TEST_DATA",
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
sys.path.insert(0, DATA)
import gen_kernel  # noqa: E402

try:
    import bt2
except ImportError:  # python3-bt2 (the comparisons with babeltrace2 skip without it)
    bt2 = None

UST_TRACES = ["ust-types", "ust-discard", "ctx-ref", "ctx-ref-lttng"]


def data_trace(name):
    return os.path.join(DATA, "traces", name)


class TempDir:
    """A folder for a test class's traces, removed at the end."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="spoor-python-test.")

    def close(self):
        shutil.rmtree(self.path, ignore_errors=True)


def damaged_traces(folder):
    """gen-damaged.py's traces in folder/d: a clean one and one per kind of damage."""
    d = os.path.join(folder, "d")
    subprocess.run([sys.executable, os.path.join(DATA, "gen-damaged.py"), d], check=True)
    return d


def busy_trace(folder):
    """gen_kernel.busy: 4 CPUs, a state dump, switches, system calls, IRQs (LTTng's layout,
    no task context: tasks come from the switches)."""
    return gen_kernel.busy(os.path.join(folder, "busy"))


def ftrace_trace(folder):
    """A small trace in spoor's kernel layout (common_pid on every event), known values."""
    comms = {0: "swapper/0", 7: "seven", 9: "nine"}
    evs = [gen_kernel.switch(100, 0, 0, 7, comms, style="ftrace"),
           (150, 0, "sched_wakeup", {"comm": "nine", "pid": 9, "prio": 120, "target_cpu": 0,
                                     "common_pid": 7}),
           gen_kernel.switch(200, 0, 7, 9, comms, style="ftrace"),
           (250, 0, "irq_handler_entry", {"irq": 30, "name": "i915", "common_pid": 9}),
           (300, 0, "irq_handler_exit", {"irq": 30, "ret": 1, "common_pid": 9})]
    for e in evs:
        e[3].setdefault("common_pid", e[3].get("prev_pid", -1))
    return gen_kernel.write(os.path.join(folder, "ftrace"), evs, style="ftrace"), evs


def late_dump_trace(folder):
    """LTTng's layout with its state dump after the first events: thread 42 "worker" of
    process 40 makes a call, then the dump names it."""
    comms = {0: "swapper/0", 42: "worker"}
    return gen_kernel.write(os.path.join(folder, "late-dump"), [
        gen_kernel.switch(100, 0, 0, 42, comms),
        (200, 0, "syscall_entry_read", {"fd": 3, "count": 10}),
        (300, 0, "syscall_exit_read", {"ret": 10}),
        (400, 0, "lttng_statedump_process_state",
         {"tid": 42, "pid": 40, "ppid": 1, "name": "worker"}),
        (500, 0, "lttng_statedump_end", {"dummy": 0})])


def plain(f):
    """A babeltrace2 field as plain Python values (as spoor gives them)."""
    if f is None:
        return None
    if isinstance(f, bt2._StructureFieldConst):
        return {k: plain(v) for k, v in f.items()}
    if isinstance(f, bt2._VariantFieldConst):
        return plain(f.selected_option)
    if isinstance(f, bt2._StringFieldConst):
        # python3-bt2 2.0.4 gives an empty string field the text of an earlier one
        return str(f) if len(f) else ""

    if isinstance(f, bt2._ArrayFieldConst):
        return [plain(x) for x in f]
    if isinstance(f, bt2._RealFieldConst):
        return float(f)
    if isinstance(f, bt2._BoolFieldConst):
        return bool(f)
    return int(f)


def bt2_events(path):
    """(name, ns from origin, payload dict) of every event, in babeltrace2's order."""
    out = []
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is bt2._EventMessageConst:
            ev = m.event
            clocked = ev.stream.cls.default_clock_class is not None
            out.append((ev.name, m.default_clock_snapshot.ns_from_origin if clocked else 0,
                        plain(ev.payload_field) or {}))
    return out
