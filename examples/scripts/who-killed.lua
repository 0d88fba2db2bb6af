-- who-killed.lua: who sent a fatal signal to a process (PID=1234 spoor script ..., or
-- every process without PID). signal_generate happens in the sender: e.comm, e.pid and
-- e.tid are the sender's; the target's own fields are read with e:field().
local pid = tonumber(os.getenv("PID") or "")
local fatal = {[2] = "SIGINT", [3] = "SIGQUIT", [6] = "SIGABRT", [9] = "SIGKILL", [15] = "SIGTERM"}
function signal_generate(e)
  local target = e:field("pid")
  if fatal[e.sig] and (not pid or target == pid) then
    print(string.format("%s (pid %d) was sent %s by %s (pid %d, tid %d)", e:field("comm"),
      target, fatal[e.sig], e.comm or "?", e.pid, e.tid))
    spoor.stop()
  end
end
