# count-by-field-perf.py: bench/script-peers.sh's handler for `perf script -s`: perf's
# Python scripting, sched:sched_switch events counted by prev_comm, printed at the end as
# `COUNT NAME` lines sorted by name (bench/count-by-field.lua's job, on perf's own trace).
counts = {}


def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, prev_comm, prev_pid,
                        prev_prio, prev_state, next_comm, next_pid, next_prio,
                        perf_sample_dict=None):
    counts[prev_comm] = counts.get(prev_comm, 0) + 1


def trace_end():
    for comm in sorted(counts):
        print(counts[comm], comm)
