-- commit-fence: raise the counter to the chosen token T while we hold the lock here (docs/FENCING.md step 3),
-- refusing if a grant we never saw already raised it past T. With the clock floor, a counter that expired (or was
-- lost) since our grant comes back at the floor first (fence_floor), above every token it issued: that may be above T.
-- KEYS[1] lock key    KEYS[2] fencing counter    ARGV[1] value    ARGV[2] T
-- ARGV[3] "1" with the clock floor    ARGV[4] how long the counter lives after this commit, in ms ("0": forever)
-- Returns 1 (committed), 0 (we do not hold the lock here) or -1 (counter above T).
if redis.call('get', KEYS[1]) ~= ARGV[1] then
  return 0
end
local current
if ARGV[3] == '1' and redis.call('exists', KEYS[2]) == 0 then
  current = fence_floor(KEYS[2])
else
  current = tonumber(redis.call('get', KEYS[2]) or '0')
end
local token = tonumber(ARGV[2])
if current < token then
  redis.call('set', KEYS[2], ARGV[2])
  current = token
end
fence_keep(KEYS[2], ARGV[4])
if current > token then
  return -1
end
return 1
