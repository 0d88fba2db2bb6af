#!/usr/bin/python3
"""graph-tree.py FILE THREAD NAMES [EVENTS]: the calls of one thread of a function graph (spoor
graph's or uftrace replay's) to the functions whose names match the regex NAMES, as `DEPTH
NAME` lines: the calls' lines (`name() {`, `name();`) of the lines whose first column holds
THREAD, their depth the count of such calls around them (calls to other functions, e.g. the
C library's, which uftrace shows, or a destructor's, do not count). With EVENTS, a regex,
also the comments of those events (`/* name: ... */`) as `DEPTH NAME` at their place."""
import re
import sys

path, thread, names = sys.argv[1:4]
mine_re = re.compile(names)
events_re = re.compile(sys.argv[4]) if len(sys.argv) > 4 else None
stack = []
for line in open(path):
    if thread not in line.split("|")[0]:
        continue
    c = events_re and re.search(r"\|( +)/\* ([\w:]+): ", line)
    if c and events_re.fullmatch(c.group(2)):
        depth = (len(c.group(1)) - 1) // 2
        while stack and stack[-1][0] >= depth:
            stack.pop()
        print(sum(k for _, k in stack), c.group(2))
        continue
    m = re.search(r"\|( +)([A-Za-z_][\w.:~]*)\(\)(;| \{)", line)
    if not m:
        continue
    depth, name = (len(m.group(1)) - 1) // 2, m.group(2)
    while stack and stack[-1][0] >= depth:
        stack.pop()
    mine = bool(mine_re.fullmatch(name))
    if mine:
        print(sum(k for _, k in stack), name)
    stack.append((depth, mine))
