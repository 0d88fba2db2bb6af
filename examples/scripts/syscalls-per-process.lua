-- syscalls-per-process.lua: system calls per process, named from the trace (its state
-- dump, then fork, exec and rename events: a process is named as it was when it called)
local by_proc = map("syscalls per process")
local function count(e) by_proc:count(string.format("%s[%d]", e.comm or "?", e.pid)) end
on("sys_enter_*", count)
on("syscall_entry_*", count)
