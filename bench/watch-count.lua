-- watch-count.lua: bench/watch.sh's handler for `spoor watch`: ust_emit:ints events
-- counted by their field b; finish() prints "by_b B COUNT" lines and "handled TOTAL".
local c = {}
function ust_emit_ints(e)
  local b = e.b
  c[b] = (c[b] or 0) + 1
end
function finish()
  local total = 0
  for b, n in pairs(c) do
    total = total + n
    print(("by_b %d %d"):format(b, n))
  end
  print(("handled %d"):format(total))
end
