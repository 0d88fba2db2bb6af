-- count-by-field.lua: bench/script.sh's handler: sched_switch events counted by prev_comm
local by_comm = map("switches by prev_comm")
function sched_switch(e) by_comm:count(e.prev_comm) end
