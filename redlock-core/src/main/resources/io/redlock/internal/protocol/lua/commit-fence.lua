-- commit-fence: raise the counter to the chosen token T while we hold the lock here (docs/FENCING.md step 3),
-- refusing if a grant we never saw already raised it past T. With the clock floor, a counter that expired (or was
-- lost) since our grant comes back at the floor first (fence_floor), above every token it issued: that may be above T.
-- KEYS[1] lock key    KEYS[2] fencing counter    ARGV[1] value    ARGV[2] token: T
-- ARGV[3] clockFloor: "1" with the clock floor
-- ARGV[4] counterTtl: how long the counter lives after this commit, in ms ("0": forever)
-- Returns 1 (committed), 0 (we do not hold the lock here) or -1 (counter above T).
if redis.call('get', KEYS[1]) ~= ARGV[1] then
  return 0
end
return fence_commit(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
