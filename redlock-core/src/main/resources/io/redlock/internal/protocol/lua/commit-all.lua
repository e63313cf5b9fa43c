-- commit-all: commit-fence for a lock of several resources (docs/FENCING.md step 3, "Locks of several resources"):
-- raise every counter to the chosen token T while we hold every lock here, all or none. Nothing is raised unless we
-- hold every lock and no counter is above T; with the clock floor, a counter that expired (or was lost) since our
-- grant comes back at the floor first, as commit-fence does, which may put it above T.
-- KEYS[1] lock key of the first resource    KEYS[2] its fencing counter    KEYS[2i-1], KEYS[2i] those of resource i
-- ARGV[1] value    ARGV[2] token: T    ARGV[3] clockFloor: "1" with the clock floor
-- ARGV[4] counterTtl: how long the counters live after this commit, in ms ("0": forever)
-- Returns 1 (committed), 0 (we do not hold every lock here) or -1 (a counter above T).
local n = #KEYS / 2
for i = 1, n do
  if redis.call('get', KEYS[2 * i - 1]) ~= ARGV[1] then
    return 0
  end
end
local token = tonumber(ARGV[2])
local above = false
local current = {}
for i = 1, n do
  current[i] = fence_held(KEYS[2 * i], ARGV[3])
  above = above or current[i] > token
end
for i = 1, n do
  if not above and current[i] < token then
    redis.call('set', KEYS[2 * i], ARGV[2])
  end
  fence_keep(KEYS[2 * i], ARGV[4])
end
if above then
  return -1
end
return 1
