-- commit-fence: raise the counter to the chosen token T while we hold the lock here (docs/FENCING.md step 3),
-- refusing if a grant we never saw already raised it past T.
-- KEYS[1] lock key    KEYS[2] fencing counter    ARGV[1] value    ARGV[2] T
-- Returns 1 (committed), 0 (we do not hold the lock here) or -1 (counter above T).
if redis.call('get', KEYS[1]) ~= ARGV[1] then
  return 0
end
local current = tonumber(redis.call('get', KEYS[2]) or '0')
local token = tonumber(ARGV[2])
if current > token then
  return -1
end
if current < token then
  redis.call('set', KEYS[2], ARGV[2])
end
return 1
