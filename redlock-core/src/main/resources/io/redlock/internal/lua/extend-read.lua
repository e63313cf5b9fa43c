-- extend-read: a reader's compare-and-PEXPIRE (SPEC R8): its entry lapses TTL from now, and the lock key lives as long
-- as the longest reader. Only a live reader is extended; a lapsed one is never brought back.
-- KEYS[1] lock key    KEYS[2] readers    ARGV[1] value    ARGV[2] TTL in ms
-- Returns 1 (extended) or 0 (not a live reader here).
local now = read_now()
if not read_live(KEYS[2], ARGV[1], now) then
  return 0
end
redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
read_keep(KEYS[1], KEYS[2], now)
return 1
