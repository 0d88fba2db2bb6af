-- syscalls-per-process.lua: system calls per process, named from the trace (its state
-- dump, then fork, exec and rename events). process(e) is printed with what the trace
-- said by the end: a thread that called before the trace named it or its process still
-- counts under its process and the process's name, in one row.
local by_proc = map("syscalls per process")
local function count(e) by_proc:count(process(e)) end
on("sys_enter_*", count)
on("syscall_entry_*", count)
