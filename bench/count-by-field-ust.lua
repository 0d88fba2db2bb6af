-- count-by-field-ust.lua: bench/script-peers.sh's handler for `spoor script` on
-- bench/calls.c's trace: calls:enter events counted by their field fn (the function's name).
local by_fn = map("calls by fn")
function calls_enter(e) by_fn:count(e.fn) end
