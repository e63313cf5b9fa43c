-- extend-shared: compare-and-PEXPIRE (SPEC R8) of a reader or a permit holder: its entry lapses TTL from now, and the
-- lock key lives as long as the longest holder. Only a live holder is extended, and only while the lock key holds
-- its mark: a lapsed holder is never brought back, and a lock key lost alone (evicted) is never written over.
-- KEYS[1] lock key    KEYS[2] holders (readers or permits)    ARGV[1] value    ARGV[2] ttlMillis: the TTL in ms
-- Returns 1 (extended) or 0 (not a live holder here).
local now = shared_now()
local mark = shared_mark(KEYS[1])
if not mark or not shared_live(KEYS[2], ARGV[1], now) then
  return 0
end
shared_add(KEYS[1], KEYS[2], mark, ARGV[1], ARGV[2], now)
return 1
