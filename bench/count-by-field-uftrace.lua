-- count-by-field-uftrace.lua: bench/script-peers.sh's handler for `uftrace script -S`:
-- uftrace's Lua (LuaJIT) scripting, function entries counted by function name (ctx.name),
-- printed at the end as `COUNT NAME` lines sorted by name.
local counts = {}

function uftrace_entry(ctx)
	local name = ctx.name
	counts[name] = (counts[name] or 0) + 1
end

function uftrace_end()
	local names = {}
	for name in pairs(counts) do names[#names + 1] = name end
	table.sort(names)
	for _, name in ipairs(names) do print(counts[name] .. " " .. name) end
end
