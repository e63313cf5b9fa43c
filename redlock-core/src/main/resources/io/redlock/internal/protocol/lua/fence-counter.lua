-- fence-counter: the rules of the fencing counter's clock floor and of a holder's commit, written once and put in
-- front of the scripts that commit a token or take several counters at once (commit-fence, acquire-all, commit-all,
-- commit-shared: Scripts.withRules), behind fence-grant, whose fence_clock and fence_keep they use.
-- fence_floor(key): raises the counter to the clock floor (fence_clock) if it is lower. Returns the counter.
-- fence_held(key, floor): the counter as a holder's commit sees it: with the clock floor ("1"), a counter that
--   expired (or was lost) since the grant comes back at the floor first. Returns the counter.
-- fence_commit(key, T, floor, ms, strict): the commit of T to a holder's counter (docs/FENCING.md step 3): the counter
--   as fence_held sees it (which may put it above T); a counter below T is raised to T. Returns 1, or -1 if the
--   counter is above T (a grant the holder never saw) or, with strict "1", already at T: where leases hold together
--   (a semaphore's slots share the counter), a counter at T was raised there by another lease's grant, which holds T.
local function fence_floor(key)
  local floor = fence_clock()
  local current = tonumber(redis.call('get', key) or '0')
  if current < floor then
    redis.call('set', key, string.format('%d', floor))
    return floor
  end
  return current
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
