-- acquire-all: take the locks of several resources at once, all or none, with one fencing token for all
-- (docs/FENCING.md, "Locks of several resources"). A lock of several resources does not queue: it takes them only
-- when every one is free, whoever waits for them (it barges, like a caller that will not wait).
-- KEYS[1] lock key of the first resource    KEYS[2] its fencing counter    KEYS[2i-1], KEYS[2i] those of resource i
-- ARGV[1] value    ARGV[2] ttlMillis: the TTL in ms
-- ARGV[3] fencing: "1": the counters move; "0": the plain algorithm, no counter is touched
-- ARGV[4] clockFloor: "1" to apply the clock floor to each counter first (fence_floor)
-- ARGV[5] counterTtl: how long the counters live after this grant, in ms ("0": forever)
-- Returns minus the longest remaining ms among the held locks (0 if one has no expiry) if any is held, and writes
-- nothing. Else sets every lock key to the value with the TTL and, with fencing, sets every counter to t = 1 + the
-- largest of them (each counter grows, by at least 1: the grant of one resource's lock, as acquire-fenced increments
-- it); Returns t then, or 1 without fencing. A semaphore's resource among them: an error reply (shared_clash), nothing
-- written.
local n = #KEYS / 2
local held, unknown, longest = false, false, 0
for i = 1, n do
  local pttl = redis.call('pttl', KEYS[2 * i - 1])
  if pttl ~= -2 then
    local holder = redis.call('get', KEYS[2 * i - 1])
    if shared_permits(holder) then
      return shared_clash(holder, nil)
    end
    held = true
    unknown = unknown or pttl < 0
    longest = math.max(longest, pttl)
  end
end
if held then
  return unknown and 0 or -longest
end
for i = 1, n do
  redis.call('set', KEYS[2 * i - 1], ARGV[1], 'PX', ARGV[2])
end
if ARGV[3] ~= '1' then
  return 1
end
local token = 0
for i = 1, n do
  local current
  if ARGV[4] == '1' then
    current = fence_floor(KEYS[2 * i])
  else
    current = tonumber(redis.call('get', KEYS[2 * i]) or '0')
  end
  token = math.max(token, current)
end
token = token + 1
local text = string.format('%d', token)
for i = 1, n do
  redis.call('set', KEYS[2 * i], text)
  fence_keep(KEYS[2 * i], ARGV[5])
end
return token
