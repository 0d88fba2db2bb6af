#!/usr/bin/env python3
"""Compare `spoor dump --format=babeltrace` output with babeltrace2's, line by line.

babeltrace2 2.0.4 has one known bug: where a recorded string (or text sequence) is empty,
it prints the previous event's value of that field (babeltrace 1.5 and spoor print "").
A differing line is excused only when the two lines are identical outside string literals
and every differing string literal is "" on spoor's side. Anything else fails.

usage: bt2-compare.py SPOOR_OUTPUT BABELTRACE2_OUTPUT
"""
import re
import sys

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def split(line):
    """Alternating non-string and string segments."""
    parts, pos = [], 0
    for m in STRING.finditer(line):
        parts.append(line[pos:m.start()])
        parts.append(m.group(0))
        pos = m.end()
    parts.append(line[pos:])
    return parts


def excused(spoor, bt2):
    a, b = split(spoor), split(bt2)
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        if i % 2 == 0 or x != '""':
            return False
    return True


def main():
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as f:
        spoor = f.read().split("\n")
    with open(sys.argv[2], encoding="utf-8", errors="surrogateescape") as f:
        bt2 = f.read().split("\n")
    if len(spoor) != len(bt2):
        print(f"line counts differ: spoor {len(spoor) - 1}, babeltrace2 {len(bt2) - 1}")
        return 1
    bad = excuses = 0
    for n, (x, y) in enumerate(zip(spoor, bt2), 1):
        if x == y:
            continue
        if excused(x, y):
            excuses += 1
            continue
        bad += 1
        if bad <= 5:
            print(f"line {n} differs:\n  spoor: {x[:300]}\n  bt2:   {y[:300]}")
    print(f"{len(spoor) - 1} lines, {excuses} excused (babeltrace2 empty-string bug), {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
