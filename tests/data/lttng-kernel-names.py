#!/usr/bin/env python3
"""The names an LTTng kernel trace shows its readers, and spoor's reference of them
(tests/data/lttng-kernel-reference.txt), as babeltrace 1 reads them: through its Python
bindings (what lttng-analyses reads events with) and `babeltrace -o ctf-metadata` (how
lttng-analyses reads the env). Needs /usr/bin/python3 with python3-babeltrace.

  lttng-kernel-names.py names TRACE
      TRACE's names, a line each: `env KEY`, `packet.header F:K ...`, `packet.context ...`,
      `event.header ...`, `event.context ...` (both contexts: LTTng's stream event context
      and event context), `event NAME F:K ...` (payload fields in order; K: int, string,
      array, sequence, enum, struct, variant, float; a sequence's length field as
      babeltrace 1 names it, `_NAME_length`).
  lttng-kernel-names.py reference TRACE [LTTNG_MODULES_GIT TAG]
      the reference: "2.8 " + each line of `names TRACE` (the shared LTTng 2.8 trace
      many-threads; compat_ system calls left out: spoor writes none), then "2.13 " + the
      lines of lttng-modules 2.13 where they differ from 2.8's or that trace lacks them:
      ENV_2_13 and EVENTS_2_13 below, and the system calls of `syscalls-2.13` (without
      lttng-modules' git: those of the committed reference). A 2.13 line replaces the 2.8
      line of the same event.
  lttng-kernel-names.py check REFERENCE TRACE
      TRACE (`spoor record -k --layout=lttng`) against REFERENCE: ok/FAIL lines, exit 1 on a
      FAIL. Rules in docs/compatibility.md ("The names check").
  lttng-kernel-names.py syscalls-2.13 LTTNG_MODULES_GIT TAG
      LTTng's x86-64 system call events at TAG, from lttng-modules' headers
      (include/instrumentation/syscalls/headers/: the common overrides, then x86-64's):
      entry fields sc_in and sc_inout, exit fields sc_exit, sc_out and sc_inout, in order;
      each #if's first branch (the newest kernels), CONFIG_LTTNG_EXPERIMENTAL_BITWISE_ENUM
      off. Calls with custom fields (poll, select, ...) are left out. At v2.8.0 this gives
      exactly the many-threads trace's system calls.
"""
import os
import re
import subprocess
import sys

# lttng-modules 2.13 (v2.13.23), where it differs from the 2.8 trace or has what it lacks.
# src/lttng-events.c, _lttng_session_metadata_statedump(): env keys after tracer_patchlevel
# (product_uuid only where DMI has one: left out).
ENV_2_13 = ["env trace_buffering_scheme", "env trace_name", "env trace_creation_datetime"]
# include/instrumentation/events/: lttng-statedump.h: 2.12 moved the namespace fields of
# process_state to lttng_statedump_process_*_ns and added file_table_address, which the file
# descriptors name instead of pid; 2.10 added cpu; interrupts and file descriptors are not
# in the 2.8 trace. block.h (its branch for kernels >= 5.17): rwbs an integer (an enum with
# CONFIG_LTTNG_EXPERIMENTAL_BITWISE_ENUM), error (errors before 4.12), the task's tid in the
# events that name it. arch/x86/irq_vectors.h: x86_irq_vectors_*_entry and _exit, the
# vector (not enabled in the 2.8 trace). sched.h: exec and
# wakeup_new, not enabled in the 2.8 trace. The system calls: syscalls_2_13().
# src/lttng-context-*.c: the contexts `lttng add-context -k` adds to every event (what a
# trace's event.context may hold; perf counters and call stacks left out).
CONTEXTS_2_13 = ("contexts cgroup_ns cpu_id egid euid gid hostname interruptible ipc_ns "
                 "migratable mnt_ns need_reschedule net_ns nice pid_ns pid ppid preemptible "
                 "prio procname sgid suid tid time_ns uid user_ns uts_ns vegid veuid vgid vpid "
                 "vppid vsgid vsuid vtid vuid")
EVENTS_2_13 = [
    "event lttng_statedump_process_state tid:int pid:int ppid:int name:array type:int "
    "mode:int submode:int status:int cpu:int file_table_address:int",
    "event lttng_statedump_file_descriptor file_table_address:int fd:int flags:int fmode:int "
    "filename:string",
    "event lttng_statedump_interrupt irq:int name:string action:string tid:int",
    "event lttng_statedump_process_pid_ns tid:int vtid:int vpid:int vppid:int ns_level:int "
    "ns_inum:int",
    "event block_rq_issue dev:int sector:int nr_sector:int bytes:int tid:int rwbs:int "
    "comm:array",
    "event block_rq_insert dev:int sector:int nr_sector:int bytes:int tid:int rwbs:int "
    "comm:array",
    "event block_rq_complete dev:int sector:int nr_sector:int error:int rwbs:int",
    "event block_rq_merge dev:int sector:int nr_sector:int bytes:int tid:int rwbs:int "
    "comm:array",
    "event block_rq_requeue dev:int sector:int nr_sector:int rwbs:int",
    "event block_rq_remap dev:int sector:int nr_sector:int old_dev:int old_sector:int "
    "rwbs:int",
    "event block_bio_complete dev:int sector:int nr_sector:int error:int rwbs:int",
    "event block_bio_remap dev:int sector:int nr_sector:int rwbs:int old_dev:int "
    "old_sector:int",
    "event block_split dev:int sector:int rwbs:int new_sector:int tid:int comm:array",
    "event block_plug tid:int comm:array",
    "event block_unplug nr_rq:int tid:int comm:array",
] + ["event %s dev:int sector:int nr_sector:int rwbs:int tid:int comm:array" % e
     for e in ("block_bio_queue", "block_bio_backmerge", "block_bio_frontmerge",
               "block_bio_bounce", "block_getrq")] + [
    "event x86_irq_vectors_%s_%s vector:int" % (v, d)
    for v in ("local_timer", "reschedule", "spurious_apic", "error_apic", "ipi", "irq_work",
              "call_function", "call_function_single", "threshold_apic",
              "deferred_error_apic", "thermal_apic") for d in ("entry", "exit")] + [
    "event sched_process_exec filename:string tid:int old_tid:int",
    "event sched_wakeup_new comm:array tid:int prio:int target_cpu:int",
]

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "lttng-kernel-reference.txt")
# Differences spoor's LTTng layout has, as documented (docs/kernel.md, "What the layout does
# not promise"; docs/compatibility.md): event: (LTTng's fields it lacks, fields of its own).
KNOWN = {
    # what lttng-modules wrote until 2.11 and lttng-analyses 0.6.1 reads (docs/kernel.md)
    "lttng_statedump_file_descriptor": (set(), {"pid"}),
}
KINDS = {"Integer": "int", "String": "string", "Array": "array", "Sequence": "sequence",
         "Enumeration": "enum", "Structure": "struct", "Variant": "variant", "Float": "float"}
SCOPES = {0: "packet.header", 1: "packet.context", 2: "event.header", 3: "event.context",
          4: "event.context"}


def fail_exit(msg):
    print("lttng-kernel-names.py: " + msg, file=sys.stderr)
    sys.exit(2)


def env_keys(trace):
    """The env's keys, as lttng-analyses reads them: babeltrace 1's metadata text, or where
    that fails (it does on plain-text metadata, spoor's), the metadata file."""
    p = subprocess.run(["babeltrace", "-o", "ctf-metadata", trace], capture_output=True,
                       text=True)
    text = p.stdout
    if p.returncode:
        with open(os.path.join(trace, "metadata"), errors="replace") as f:
            text = f.read()
    m = re.search(r"^env \{(.*?)^\};", text, re.S | re.M)
    return re.findall(r"^\s*(\w+)\s*=", m.group(1), re.M) if m else []


def names(trace):
    """The lines of `names TRACE`."""
    try:
        import babeltrace
    except ImportError:
        fail_exit("no babeltrace 1 Python bindings (python3-babeltrace; run /usr/bin/python3)")
    tc = babeltrace.TraceCollection()
    h = tc.add_trace(trace, "ctf")
    if h is None:
        fail_exit("babeltrace 1 cannot open %s" % trace)
    lines = ["env " + k for k in env_keys(trace)]
    scopes, events = {}, []
    for e in h.events:
        by = {}
        for f in e.fields:
            k = "%s:%s" % (f.name, KINDS.get(type(f).__name__.replace("FieldDeclaration", ""),
                                             "?"))
            by.setdefault(f.scope, []).append(k)
        for s, name in SCOPES.items():
            # the same for every event of a stream: the first event's
            scopes.setdefault(name, set()).add(" ".join(by.get(s, [])))
        events.append("event %s %s" % (e.name, " ".join(by.get(5, []))))
    for name in ("packet.header", "packet.context", "event.header", "event.context"):
        for v in sorted(scopes.get(name, [""])):
            lines.append(("%s %s" % (name, v)).rstrip())
    return lines + sorted(x.rstrip() for x in events)


def reference(trace, git=None, tag=None):
    out = ["# The names of an LTTng kernel trace as babeltrace 1 reads them (lttng-analyses'",
           "# reader): `2.8` lines from ../shared/traces/lttng/many-threads (lttng-modules 2.8),",
           "# `2.13` lines from lttng-modules v2.13.23's sources where they differ or 2.8 lacks",
           "# them. Made by `tests/data/lttng-kernel-names.py reference TRACE",
           "# LTTNG_MODULES_GIT v2.13.23`; checked by tests/cli/lttng-layout.sh. Do not edit:",
           "# change the script."]
    old = [x for x in names(trace) if not re.match(r"event compat_syscall_", x)]
    # 2.13's system calls: those whose names differ from 2.8's, or that 2.8 lacks; without
    # lttng-modules at hand, the reference's own
    if git:
        sys13 = sorted(set(syscalls_2_13(git, tag)) - set(old))
    else:
        sys13 = [x[5:] for x in open(REFERENCE) if x.startswith("2.13 event syscall_")]
    return out + ["2.8 " + x for x in old] + \
        ["2.13 " + x.rstrip("\n") for x in ENV_2_13 + [CONTEXTS_2_13] + EVENTS_2_13 + sys13]


def parse_reference(path):
    """{key: (version, fields)}: key "env K", "packet.context", "event NAME"; 2.13 wins."""
    ref = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        ver, kind, rest = (line.rstrip("\n").split(" ", 2) + [""])[:3]
        if kind == "env":
            ref["env " + rest] = (ver, [])
        elif kind == "event":
            name, _, fields = rest.partition(" ")
            ref["event " + name] = (ver, fields.split())
        else:
            ref[kind] = (ver, rest.split())
    return ref


def parse_names(lines):
    got = {}
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "env":
            got["env " + rest] = []
        elif kind == "event":
            name, _, fields = rest.partition(" ")
            got["event " + name] = fields.split()
        else:
            got[kind] = rest.split()
    return got


def is_syscall(name):
    return re.match(r"syscall_(entry|exit)_", name)


def check(ref_path, trace):
    """TRACE against the reference; the number of failures."""
    ref, got = parse_reference(ref_path), parse_names(names(trace))
    bad = 0

    def say(ok, what):
        nonlocal bad
        bad += not ok
        print(("ok - " if ok else "FAIL - ") + what)

    missing = [k[4:] for k, (v, _) in ref.items() if k.startswith("env ") and v == "2.8"
               and k not in got]
    say(not missing, "env has every key of LTTng 2.8's %s" % (missing or ""))
    missing = [k[4:] for k, (v, _) in ref.items() if k.startswith("env ") and v == "2.13"
               and k not in got]
    print("note - env keys of 2.13 only, not written: %s" % (missing or "none"))
    for scope in ("packet.header", "packet.context", "event.header"):
        want = ref.get(scope, ("", []))[1]
        say(got.get(scope, []) == want, "%s: %s (LTTng: %s)" % (scope, got.get(scope), want))
    # none in LTTng's default; any of the contexts lttng add-context -k adds
    odd = [x for x in got.get("event.context", []) if x.split(":")[0] not in
           ref.get("contexts", ("", []))[1]]
    say(not odd, "event.context: %s, LTTng's context names %s" %
        (got.get("event.context", []), "" if not odd else "but " + " ".join(odd)))
    both = sorted(k for k in got if k.startswith("event ") and k in ref)
    say(len(both) > 0, "%d events both write" % len(both))
    calls = {}  # a system call's fields in LTTng, entry's and exit's: {name: kind}
    for k, (_, f) in ref.items():
        m = re.match(r"event syscall_(?:entry|exit)_(\w+)", k)
        if m:
            calls.setdefault(m.group(1), {}).update(x.split(":") for x in f)
    wrong, known, kinds = [], [], []
    for k in both:
        name = k[6:]
        mine = dict(x.split(":") for x in got[k])
        theirs = dict(x.split(":") for x in ref[k][1])
        if is_syscall(name):
            # spoor has the call's arguments as ftrace gives them, all at the entry; LTTng
            # splits them by direction: each of spoor's must be one of the call's in LTTng,
            # and an exit has its ret
            theirs = calls[name.split("_", 2)[2]]
            missing = {"ret"} - set(mine) if name.startswith("syscall_exit_") else set()
        else:
            missing = set(theirs) - set(mine)
        extra = set(mine) - set(theirs)
        kinds += ["%s.%s %s (LTTng %s)" % (name, f, mine[f], theirs[f]) for f in mine
                  if f in theirs and mine[f] != theirs[f]]
        if not missing and not extra:
            continue
        allowed = KNOWN.get(name)
        what = "%s: %s%s" % (name, " ".join("-" + f for f in sorted(missing)),
                             " ".join("+" + f for f in sorted(extra)))
        if allowed and missing <= allowed[0] and extra <= allowed[1]:
            known.append(what)
        else:
            wrong.append(what + " (LTTng %s: %s)" % (ref[k][0], " ".join(ref[k][1])))
    say(not wrong, "every event both write has LTTng's field names, but for the known "
        "differences (%d events differ otherwise)" % len(wrong))
    for w in wrong[:40]:
        print("  differs: " + w)
    print("note - known differences (-LTTng's missing, +spoor's own; KNOWN): %s" %
          ("; ".join(known) or "none"))
    for name, why in sorted(KNOWN.items()):
        if not any(x.startswith(name + ":") for x in known):
            print("note - %s no longer differs as KNOWN says" % name)
    print("note - %d fields of another kind than LTTng's (the kernel's types, "
          "docs/kernel.md): %s" % (len(kinds), "; ".join(kinds[:8])))
    lttngish = sorted(k[6:] for k in got if k.startswith("event ") and k not in ref and
                      re.match(r"(syscall_|lttng_statedump_|irq_|sched_|block_rq_)", k[6:]))
    print("note - events of LTTng's families the reference does not list: %d %s" %
          (len(lttngish), " ".join(lttngish[:12])))
    return bad


FIELD = re.compile(r"sc_(in|out|inout|exit)\(\s*ctf_(\w+)\(")


def header_fields(body):
    """[(direction, name, kind)] of the sc_*(ctf_*(...)) of one event's TP_FIELDS."""
    out = []
    for m in FIELD.finditer(body):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(body[i], 0)
            i += 1
        args = [a.strip() for a in re.sub(r"\([^()]*\)", "", body[m.end():i - 1]).split(",")]
        kind = m.group(2)
        # ctf_string(name, src); ctf_enum(provider, enum, type, name, src); else (type, name, ...)
        name = args[0] if "string" in kind else args[3] if "enum" in kind else args[1]
        k = ("string" if "string" in kind else "sequence" if "sequence" in kind else
             "array" if "array" in kind else "enum" if "enum" in kind else "int")
        out.append((m.group(1), name, k))
    return out


def first_branches(text):
    """text with each #if's first branch kept and the others dropped, but for
    CONFIG_LTTNG_EXPERIMENTAL_BITWISE_ENUM (off unless asked for at build): its #else."""
    out, stack = [], []  # per open #if: "keep", "wait" (for an #else) or "done"
    for line in text.splitlines():
        d = line.strip()
        if d.startswith("#if"):
            stack.append("wait" if "EXPERIMENTAL_BITWISE_ENUM" in d else "keep")
        elif d.startswith("#el") and stack:
            top = stack[-1]
            stack[-1] = "keep" if top == "wait" and d.startswith("#else") else \
                "wait" if top == "wait" else "done"
        elif d.startswith("#endif") and stack:
            stack.pop()
        elif all(s == "keep" for s in stack):
            out.append(line)
    return "\n".join(out)


def syscalls_2_13(git, tag):
    """LTTng's x86-64 system call events at TAG (overrides first), as reference lines."""
    def show(stem):
        for folder in ("include/instrumentation/syscalls/headers/",
                       "instrumentation/syscalls/headers/"):
            for name in (stem, stem.replace("x86-64-syscalls_", "x86-64-syscalls-3.10.0-rc7_")):
                p = subprocess.run(["git", "-C", git, "show", tag + ":" + folder + name + ".h"],
                                   capture_output=True, text=True)
                if not p.returncode:
                    return first_branches(p.stdout)
        fail_exit("no %s.h in %s at %s" % (stem, git, tag))
    calls = {}
    # the common overrides (execve, clone, getcpu, pipe2, mmap, ...), then x86-64's
    for stem in ("syscalls_pointers_override", "syscalls_integers_override",
                 "x86-64-syscalls_pointers_override", "x86-64-syscalls_integers_override",
                 "x86-64-syscalls_pointers", "x86-64-syscalls_integers"):
        text = show(stem)
        for name in re.findall(r"SC_LTTNG_TRACEPOINT_EVENT_INSTANCE_NOARGS\(\s*\w+,\s*(\w+)",
                               text):
            calls.setdefault(name, [])
        parts = re.split(r"SC_LTTNG_TRACEPOINT_EVENT(?:_CODE)?\(\s*(\w+)", text)
        for i in range(1, len(parts), 2):
            body = parts[i + 1].split("\n)\n")[0]
            # a custom field (poll's and select's fd sets, ...) has no plain name: left to
            # the 2.8 lines
            custom = "ctf_custom_field" in body or \
                re.search(r"LTTNG_SYSCALL_\w*field", body)
            calls.setdefault(parts[i], None if custom else header_fields(body))
    lines = []

    def fmt(fields):
        return " ".join(("_%s_length:int %s:sequence" % (n, n)) if k == "sequence" else
                        "%s:%s" % (n, k) for _, n, k in fields)
    for name, fields in sorted(calls.items()):
        if fields is None:
            continue
        entry = [f for f in fields if f[0] in ("in", "inout")]
        ex = [f for f in fields if f[0] in ("exit", "out", "inout")] or [("exit", "ret", "int")]
        lines.append(("event syscall_entry_%s %s" % (name, fmt(entry))).rstrip())
        lines.append("event syscall_exit_%s %s" % (name, fmt(ex)))
    return lines


def main(argv):
    if len(argv) == 3 and argv[1] == "names":
        print("\n".join(names(argv[2])))
    elif len(argv) in (3, 5) and argv[1] == "reference":
        print("\n".join(reference(*argv[2:])))
    elif len(argv) == 4 and argv[1] == "check":
        return 1 if check(argv[2], argv[3]) else 0
    elif len(argv) == 4 and argv[1] == "syscalls-2.13":
        print("\n".join(syscalls_2_13(argv[2], argv[3])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
