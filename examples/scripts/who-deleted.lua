-- who-deleted.lua: who deleted a file: FILE=/path spoor watch who-deleted.lua -a (or -- CMD),
-- or spoor script on a trace. Prints the culprit's pid and name, then stops.
-- ftrace's syscall events carry the path as a pointer, so the path comes from spoor's libc
-- uprobes (libc_unlink, libc_unlinkat, libc_rmdir: `-k libc`, chosen by spoor watch on its
-- own); LTTng's kernel tracer records it in syscall_entry_unlink* itself.
local file = os.getenv("FILE") or error("set FILE to the path to watch, e.g. FILE=/tmp/x")
local function same(path)
  if not path then return false end
  -- a relative path: compare the ends (the cwd is not in the trace)
  return path == file or (path:sub(1, 1) ~= "/" and file:sub(-#path - 1) == "/" .. path)
end
local function deleted(e, path)
  if same(path) then
    print(string.format("%s was deleted by %s (pid %d, tid %d) with %s", file, e.comm or "?",
      e.pid, e.tid, e.name))
    spoor.stop()
  end
end
function libc_unlink(e) deleted(e, e.path) end
function libc_unlinkat(e) deleted(e, e.path) end
function libc_rmdir(e) deleted(e, e.path) end
function syscall_entry_unlink(e) deleted(e, e.pathname) end
function syscall_entry_unlinkat(e) deleted(e, e.pathname) end
function syscall_entry_rmdir(e) deleted(e, e.pathname) end
