-- extend: compare-and-PEXPIRE (SPEC R8). Sets a new TTL only if the key still holds our value; never re-creates
-- an expired key.
-- KEYS[1] lock key    ARGV[1] value    ARGV[2] TTL in ms
-- Returns 1 (extended) or 0 (not held with this value here).
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
