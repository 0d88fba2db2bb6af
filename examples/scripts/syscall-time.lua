-- syscall-time.lua: total time per system call of one process: PID=1234 spoor script ...
-- (entry to exit, per thread; a call still open at the end is not counted)
local pid = tonumber(os.getenv("PID") or "")
if not pid then error("set PID to the process to watch, e.g. PID=1234") end
local open = {}           -- tid -> {name, ts}
local total = map("ns per syscall")
local calls = map("calls")
local function enter(e, prefix)
  if e.pid == pid then open[e.tid] = {e.name:gsub(prefix, ""), e.ts} end
end
local function exit(e, prefix)
  local o = open[e.tid]
  if o and o[1] == e.name:gsub(prefix, "") then
    total:sum(o[1], e.ts - o[2])
    calls:count(o[1])
  end
  open[e.tid] = nil
end
on("sys_enter_*", function(e) enter(e, "^sys_enter_") end)
on("sys_exit_*", function(e) exit(e, "^sys_exit_") end)
on("syscall_entry_*", function(e) enter(e, "^syscall_entry_") end)
on("syscall_exit_*", function(e) exit(e, "^syscall_exit_") end)
