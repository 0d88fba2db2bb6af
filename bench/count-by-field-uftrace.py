# count-by-field-uftrace.py: bench/count-by-field-uftrace.lua in uftrace's Python
# scripting (`uftrace script -S`): function entries counted by function name, printed at
# the end as `COUNT NAME` lines sorted by name.
counts = {}


def uftrace_entry(ctx):
    name = ctx["name"]
    counts[name] = counts.get(name, 0) + 1


def uftrace_end():
    for name in sorted(counts):
        print(counts[name], name)
