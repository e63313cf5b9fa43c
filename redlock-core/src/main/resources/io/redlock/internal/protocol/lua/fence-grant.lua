-- fence-grant: the rules of a grant's move of the fencing counter, written once and put in front of the scripts that
-- grant a token (acquire-fenced, acquire-read, acquire-permit), and in front of fence-counter, which uses them too;
-- behind clock, whose node_clock it reads.
-- fence_clock(): the clock floor now (docs/FENCING.md, "Restarts" and "Counters that expire"): unix_seconds * 2^20
--   from the node's TIME (node_clock), or 0 once that reaches 2^53 (exact in Lua's doubles until about the year
--   2242). A counter raised to it whenever it is lower comes back above every token it issued after it expired or was
--   lost, because it expires only when the node's own clock has passed its last write by the idle horizon.
-- fence_keep(key, ms): the counter lives ms more after a grant or commit; "0" keeps it forever.
-- fence_grant(key, floor, ms): the counter's move in a grant of one resource's lock (docs/FENCING.md step 1): raised
--   to the clock floor first if floor is "1" and it is lower, then INCR, then it lives ms more. Written as INCR first,
--   then a raise to the floor + 1 where INCR gave no more than the floor: the same change, with no GET. Returns the
--   new counter, the token.
-- fence_grant_if(fencing, key, floor, ms): fence_grant if fencing is "1"; else 1, and the counter is not touched.
local function fence_clock()
  local floor = tonumber(node_clock()[1]) * 1048576
  if floor >= 9007199254740992 then
    return 0
  end
  return floor
end
local function fence_keep(key, ms)
  if ms ~= '0' then
    redis.call('pexpire', key, ms)
  end
end
local function fence_grant(key, floor, ms)
  local clock = floor == '1' and fence_clock() or 0
  local token = redis.call('incr', key)
  if token <= clock then
    token = clock + 1
    redis.call('set', key, string.format('%d', token))
  end
  fence_keep(key, ms)
  return token
end
local function fence_grant_if(fencing, key, floor, ms)
  if fencing ~= '1' then
    return 1
  end
  return fence_grant(key, floor, ms)
end
