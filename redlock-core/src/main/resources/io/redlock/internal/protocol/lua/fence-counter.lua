-- fence-counter: the rules of the fencing counter, written once and put in front of the scripts that write it
-- (acquire-fenced, commit-fence, acquire-all, commit-all, acquire-read, acquire-permit, commit-shared:
-- Scripts.withRules).
-- fence_floor(key): the clock floor (docs/FENCING.md, "Restarts" and "Counters that expire"): raises the counter to
--   unix_seconds * 2^20 from the node's TIME if it is lower, as long as that stays below 2^53 (exact in Lua's
--   doubles, until about the year 2242). A counter that expired or was lost comes back above every token it issued,
--   because it expires only when the node's own clock has passed its last write by the idle horizon.
--   Returns the counter.
-- fence_keep(key, ms): the counter lives ms more after a grant or commit; "0" keeps it forever.
-- fence_grant(key, floor, ms): the counter's move in a grant of one resource's lock (docs/FENCING.md step 1): the clock
--   floor first if floor is "1", then INCR, then the counter lives ms more. Written as INCR first, then a raise to
--   the floor + 1 where INCR gave no more than the floor: the same change, with no GET. Returns the new counter, the
--   token.
-- fence_held(key, floor): the counter as a holder's commit sees it: with the clock floor ("1"), a counter that
--   expired (or was lost) since the grant comes back at the floor first. Returns the counter.
-- fence_commit(key, T, floor, ms, strict): the commit of T to a holder's counter (docs/FENCING.md step 3): the counter
--   as fence_held sees it (which may put it above T); a counter below T is raised to T. Returns 1, or -1 if the
--   counter is above T (a grant the holder never saw) or, with strict "1", already at T: where leases hold together
--   (a semaphore's slots share the counter), a counter at T was raised there by another lease's grant, which holds T.
local function fence_floor(key)
  local floor = tonumber(redis.call('time')[1]) * 1048576
  local current = tonumber(redis.call('get', key) or '0')
  if current < floor and floor < 9007199254740992 then
    redis.call('set', key, string.format('%d', floor))
    return floor
  end
  return current
end
local function fence_keep(key, ms)
  if ms ~= '0' then
    redis.call('pexpire', key, ms)
  end
end
local function fence_held(key, floor)
  if floor == '1' and redis.call('exists', key) == 0 then
    return fence_floor(key)
  end
  return tonumber(redis.call('get', key) or '0')
end
local function fence_commit(key, token, floor, ms, strict)
  local current = fence_held(key, floor)
  local t = tonumber(token)
  local refused = current > t or (strict == '1' and current == t)
  if current < t then
    redis.call('set', key, token)
  end
  fence_keep(key, ms)
  if refused then
    return -1
  end
  return 1
end
local function fence_grant(key, floor, ms)
  local clock = floor == '1' and tonumber(redis.call('time')[1]) * 1048576 or 0
  local token = redis.call('incr', key)
  if token <= clock and clock < 9007199254740992 then
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
