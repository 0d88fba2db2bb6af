#!/usr/bin/python3
"""calls-record-tree.py TRACE [--switch FUNC]: the call trees of a trace of `spoor record --calls`,
as babeltrace2 reads it, one thread after the other (in the order of their first call):
"thread N" then a function name per line, indented by depth. Names from the symbol tables
(nm) of the objects the load map events name; an address no object holds shows as hex.
An exit below the top of the stack (longjmp) pops to it, as a reader must. --calls-min's
spoor_calls:call events are placed at exit time - duration and nested by time.
--switch FUNC: also print whether the kernel switched the thread out (sched_switch, -k)
while FUNC ran."""
import bisect
import re
import subprocess
import sys

LINE = re.compile(r"^\[(\d+)\] .*? (\S+): \{ (.*?) \}, \{ (.*) \}$")


def fields(text):
    out = {}
    for m in re.finditer(r"(\w+) = (\"[^\"]*\"|[^,\[\]]+|\[[^\]]*\])", text):
        out[m.group(1)] = m.group(2).strip()
    return out


def num(s):
    return int(s, 0)


class Symbols:
    def __init__(self):
        self.objs = []  # (start, end, path, low_vaddr, addrs, names)

    def add(self, baddr, memsz, path):
        if path.startswith("["):
            return
        low = None
        try:
            ph = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
            for m in re.finditer(r"^\s*LOAD\s+\S+\s+(0x[0-9a-f]+)", ph, re.M):
                v = int(m.group(1), 16)
                low = v if low is None else min(low, v)
            nm = subprocess.run(["nm", "-n", "--defined-only", path], capture_output=True,
                                text=True).stdout
        except OSError:
            return
        addrs, names = [], []
        for line in nm.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "tTwW":
                addrs.append(int(p[0], 16))
                names.append(p[2])
        self.objs.append((baddr, baddr + memsz, path, low or 0, addrs, names))

    def name(self, addr):
        for start, end, path, low, addrs, names in self.objs:
            if start <= addr < end:
                a = addr - start + low
                i = bisect.bisect_right(addrs, a) - 1
                return names[i] if i >= 0 else hex(addr)
        return hex(addr)


def main():
    args = sys.argv[1:]
    switch_func = None
    if "--switch" in args:
        i = args.index("--switch")
        switch_func = args[i + 1]
        del args[i:i + 2]
    trace = args[0]
    # times in the clock's cycles: durations are in them, and -k's clock counts the same
    out = subprocess.run(["babeltrace2", "--clock-cycles", trace], capture_output=True,
                         text=True, check=True).stdout
    syms = Symbols()
    events = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        t = int(m.group(1))
        name, ctx, f = m.group(2), fields(m.group(3)), fields(m.group(4))
        if name.endswith(("statedump:bin_info", "lttng_ust_dl:dlopen")):
            syms.add(num(f["baddr"]), int(f["memsz"]), f["path"].strip('"'))
        events.append((t, name, ctx, f))
    # threads: their stacks, and the lines of their trees
    order, lines, stacks, spans, calls = [], {}, {}, {}, {}
    switched = {}
    for t, name, ctx, f in events:
        if name.endswith("sched_switch"):
            switched.setdefault(int(f.get("prev_tid", f.get("prev_pid", "-1"))), []).append(t)
            continue
        if "vtid" not in ctx:
            continue
        tid = int(ctx["vtid"])
        if name.startswith("lttng_ust_cyg_profile:") or name == "spoor_calls:call":
            if tid not in stacks:
                order.append(tid)
                stacks[tid], lines[tid], calls[tid] = [], [], []
            fn = syms.name(num(f["addr"]))
        if name == "lttng_ust_cyg_profile:func_entry":
            lines[tid].append("  " * len(stacks[tid]) + fn)
            stacks[tid].append((fn, t))
        elif name == "lttng_ust_cyg_profile:func_exit":
            st = stacks[tid]
            for i in range(len(st) - 1, -1, -1):
                if st[i][0] == fn:
                    spans.setdefault(tid, []).append((fn, st[i][1], t))
                    del st[i:]
                    break
        elif name == "spoor_calls:call":
            calls[tid].append((t - int(f["duration"]), t, fn))
    for tid in order:
        # --calls-min's calls: by begin time, nested by their spans
        st = []
        for b, e, fn in sorted(calls[tid], key=lambda c: (c[0], -c[1])):
            while st and st[-1] <= b:
                st.pop()
            lines[tid].append("  " * len(st) + fn)
            st.append(e)
    for n, tid in enumerate(order):
        print("thread %d" % (n + 1))
        for line in lines[tid]:
            print(line)
        if switch_func:
            inside = any(b <= s <= e for fn, b, e in spans.get(tid, []) if fn == switch_func
                         for s in switched.get(tid, []))
            print("switched out in %s: %s" % (switch_func, "yes" if inside else "no"))


if __name__ == "__main__":
    main()
