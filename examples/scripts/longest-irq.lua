-- longest-irq.lua: the longest hard interrupt handler run, per IRQ, and the longest of all
local start = {}          -- cpu -> {irq, ts}
local longest = map("longest run per irq, ns")
local worst = {ns = -1}
function irq_handler_entry(e) start[e.cpu] = {e.irq, e.ts, e:field("name")} end
function irq_handler_exit(e)
  local s = start[e.cpu]
  if s and s[1] == e.irq then
    local ns = e.ts - s[2]
    longest:max(string.format("%d %s", e.irq, s[3] or ""), ns)
    if ns > worst.ns then worst = {ns = ns, irq = e.irq, name = s[3], cpu = e.cpu, ts = s[2]} end
  end
  start[e.cpu] = nil
end
function finish()
  if worst.ns >= 0 then
    print(string.format("longest: irq %d (%s) on cpu %d, %d ns, at ts %d ns",
      worst.irq, worst.name or "?", worst.cpu, worst.ns, worst.ts))
  end
end
