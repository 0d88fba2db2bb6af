-- who-modified.lua: who wrote to a file: FILE=/path spoor watch who-modified.lua -a (or
-- -- CMD), or spoor script on a trace. Follows the file from its opening for writing (the
-- path from spoor's libc uprobes, or LTTng's syscall_entry_open*), through the descriptor
-- the open returned, dup2/dup3 and fork, to the first write (or a truncating open); prints
-- the culprit's pid and name, then stops.
local file = os.getenv("FILE") or error("set FILE to the path to watch, e.g. FILE=/tmp/x")
local O_WRONLY, O_RDWR, O_TRUNC = 1, 2, 512
local opening = {}   -- tid -> true: an open of the file for writing, waiting for its fd
local fds = {}       -- pid -> {fd -> true}: descriptors on the file
local function same(path)
  return path == file or (path and path:sub(1, 1) ~= "/" and file:sub(-#path - 1) == "/" .. path)
end
local function culprit(e, how)
  print(string.format("%s was modified by %s (pid %d, tid %d): %s", file, e.comm or "?",
    e.pid, e.tid, how))
  spoor.stop()
end
local function open(e, path, flags)
  if not same(path) then return end
  local writes = flags % 4 == O_WRONLY or flags % 4 == O_RDWR
  if writes and math.floor(flags / O_TRUNC) % 2 == 1 then
    return culprit(e, "opened it with O_TRUNC")
  end
  if writes then opening[e.tid] = true end
end
local function opened(e, fd)
  if opening[e.tid] and fd >= 0 then
    fds[e.pid] = fds[e.pid] or {}
    fds[e.pid][fd] = true
  end
  opening[e.tid] = nil
end
local function write(e, fd)
  if fds[e.pid] and fds[e.pid][fd] then culprit(e, e.name .. " on fd " .. fd) end
end
local function dup(e, old, new)
  local t = fds[e.pid]
  if t then t[new] = t[old] end
end
local function close(e, fd) if fds[e.pid] then fds[e.pid][fd] = nil end end
-- spoor's traces: libc uprobes for the path, syscalls for the rest
function libc_open(e) open(e, e.path, e.flags) end
function libc_openat(e) open(e, e.path, e.flags) end
function libc_creat(e) open(e, e.path, O_WRONLY + O_TRUNC) end
on("sys_exit_open*", function(e) opened(e, e.ret) end)
function sys_exit_creat(e) opened(e, e.ret) end
on("sys_enter_*write*", function(e) write(e, e.fd) end)
function sys_enter_dup2(e) dup(e, e.oldfd, e.newfd) end
function sys_enter_dup3(e) dup(e, e.oldfd, e.newfd) end
function sys_enter_close(e) close(e, e.fd) end
-- LTTng's kernel traces
on("syscall_entry_open*", function(e) open(e, e.filename, e.flags) end)
on("syscall_exit_open*", function(e) opened(e, e.ret) end)
on("syscall_entry_*write*", function(e) write(e, e.fd) end)
function syscall_entry_dup2(e) dup(e, e.oldfd, e.newfd) end
function syscall_entry_dup3(e) dup(e, e.oldfd, e.newfd) end
function syscall_entry_close(e) close(e, e.fd) end
-- a child inherits its parent's descriptors
function sched_process_fork(e)
  local t = fds[e.parent_pid]
  if t then
    local c = {}
    for fd in pairs(t) do c[fd] = true end
    fds[e.child_pid] = c
  end
end
