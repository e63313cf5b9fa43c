-- extend: compare-and-PEXPIRE (SPEC R8). Sets a new TTL only if every lock key of the lease still holds our value;
-- never re-creates an expired key. One key for a lock of one resource; one per resource for a lock of several
-- (acquire-all), which is extended all together or not at all.
-- KEYS[1] lock key    (a lock of several: KEYS[i], that of resource i)    ARGV[1] value
-- ARGV[2] ttlMillis: the TTL in ms
-- Returns 1 (extended) or 0 (not held with this value here).
for _, key in ipairs(KEYS) do
  if redis.call('get', key) ~= ARGV[1] then
    return 0
  end
end
for _, key in ipairs(KEYS) do
  redis.call('pexpire', key, ARGV[2])
end
return 1
