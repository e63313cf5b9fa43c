-- acquire-fenced: take the lock, then increment the node's fencing counter, with a fair queue of waiters
-- (docs/FENCING.md step 1).
-- KEYS[1] lock key
-- KEYS[2] fencing counter (expires after ARGV[4] ms without a grant or commit)
-- KEYS[3] waiter queue: sorted set of waiter id by ticket (only with a place, ARGV[5..])
-- KEYS[4] waiters' deadlines: sorted set of waiter id by the node's clock in ms (only with a place)
-- ARGV[1] value    ARGV[2] ttlMillis: the TTL in ms
-- ARGV[3] clockFloor: "1" to apply the clock floor first (fence_floor)
-- ARGV[4] counterTtl: how long the counter lives after this grant, in ms ("0": forever)
-- ARGV[5..] place: a waiter's place in the queue: its id, its ticket (0 if it has none yet), and how long a place
--   lasts without a new attempt, in ms; none for a caller that will not wait
-- A caller that will not wait takes a free lock whoever is queued (it barges, like the untimed tryLock() of a fair
-- java.util.concurrent lock) and never touches the queue. For a waiter, lapsed places are dropped first, and a free
-- lock goes to it only if it is the first live waiter. A refused waiter keeps (or takes) its place: the larger of its
-- ticket here and ARGV[6], else one after the last waiter; tickets stop at 2^20 - 1, where waiters are ordered by id.
-- On success the caller leaves the queue.
-- Returns the new counter (> 0); a refused caller that does not wait gets minus the holder's remaining ms (0 if none
-- or unknown); a refused waiter gets -(2^52 + ticket * 2^32 + remaining ms), decoded by FencedReply. A semaphore's
-- resource: an error reply (shared_clash), nothing written.
local waiter = ARGV[5]
local now = nil
local function clock()
  if not now then
    now = shared_now()
  end
  return now
end
local queue = waiter ~= nil and redis.call('exists', KEYS[3]) == 1
local behind = false
if queue then
  queue_prune(KEYS[3], KEYS[4], clock())
  local head = redis.call('zrange', KEYS[3], 0, 0)[1]
  queue = head ~= nil
  behind = queue and head ~= waiter
end
if not behind and redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if queue then
    redis.call('zrem', KEYS[3], waiter)
    redis.call('zrem', KEYS[4], waiter)
  end
  return fence_grant(KEYS[2], ARGV[3], ARGV[4])
end
local holder = redis.call('get', KEYS[1])
if shared_permits(holder) then
  return shared_clash(holder, nil)
end
local pttl = math.max(redis.call('pttl', KEYS[1]), 0)
if waiter == nil then
  return -pttl
end
local ticket = math.max(tonumber(redis.call('zscore', KEYS[3], waiter) or '0'), tonumber(ARGV[6]))
if ticket == 0 then
  local last = redis.call('zrange', KEYS[3], -1, -1, 'WITHSCORES')[2]
  ticket = tonumber(last or '0') + 1
end
ticket = math.min(ticket, 1048575)
local lifetime = tonumber(ARGV[7])
redis.call('zadd', KEYS[3], ticket, waiter)
redis.call('zadd', KEYS[4], clock() + lifetime, waiter)
if redis.call('pttl', KEYS[3]) < lifetime then
  redis.call('pexpire', KEYS[3], lifetime)
  redis.call('pexpire', KEYS[4], lifetime)
end
return -(4503599627370496 + ticket * 4294967296 + math.min(pttl, 4294967295))
