-- syscalls-by-name.lua: system calls by name, from their entries (spoor: sys_enter_*,
-- LTTng: syscall_entry_*)
local calls = map("syscalls")
local function count(e, prefix)
  calls:count((e.name:gsub(prefix, "")))
end
on("sys_enter_*", function(e) count(e, "^sys_enter_") end)
on("syscall_entry_*", function(e) count(e, "^syscall_entry_") end)
