#!/usr/bin/env python3
"""analyses-spread.py [ROUNDS] [PAUSE_S]: how the analyses' speed spreads on this machine.

bench/analyses.sh reports the best of N back-to-back runs beside lttng-analyses. On a VM
whose host runs other guests, N back-to-back runs can all fall into one slow minute, so its
best moves from run to run. This runs irq --all-cpus, sched and syscalls once per round,
ROUNDS rounds (80) with PAUSE_S seconds between rounds (2), on one core (taskset -c 0), on
bench/analyses.sh's trace (/tmp/spoor-bench-lttng, made by it when missing), wall time per
run, and prints per analysis the best rate, the top decile (the rate a tenth of the runs
beat), the median and the worst, and the share of runs at 20 M events/s or more (the
issue's goal). It measures the machine as much as spoor, and has no peer beside it (the
ratio to lttng-analyses is bench/analyses.sh's). SPOOR: the binary (default build/spoor).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

TRACE = "/tmp/spoor-bench-lttng"
EVENTS = 3850304  # bench/replicate-trace.sh: 16 copies of many-threads
ANALYSES = ("irq --all-cpus", "sched", "syscalls")


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    built = os.environ.get("SPOOR", os.path.join(top, "build", "spoor"))
    if not os.path.isdir(TRACE):
        sys.exit("analyses-spread.py: no %s: run bench/analyses.sh once first" % TRACE)
    with tempfile.TemporaryDirectory() as work:
        spoor = shutil.copy(built, os.path.join(work, "spoor"))  # others may rebuild it
        times = {a: [] for a in ANALYSES}
        for _ in range(rounds):
            for a in ANALYSES:
                t = time.perf_counter()
                subprocess.run(["taskset", "-c", "0", spoor] + a.split() + [TRACE],
                               stdout=subprocess.DEVNULL, check=True)
                times[a].append(time.perf_counter() - t)
            time.sleep(pause)
    print("%d rounds over %.0f s, one core, M events/s of the %d-event trace:" %
          (rounds, rounds * pause + sum(sum(v) for v in times.values()), EVENTS))
    for a, v in times.items():
        rates = sorted((EVENTS / s / 1e6 for s in v), reverse=True)
        n = len(rates)
        print("  %-15s best %5.2f  top decile %5.2f  median %5.2f  worst %5.2f   runs >= 20 M ev/s: %d%%" %
              (a, rates[0], rates[n // 10], rates[n // 2], rates[-1],
               100 * sum(r >= 20 for r in rates) // n))


if __name__ == "__main__":
    main()
