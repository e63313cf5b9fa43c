-- acquire-permit: take one permit of a semaphore, then increment the node's fencing counter (docs/FENCING.md,
-- "Semaphores"). A semaphore of n permits is n slots, each a mutex over the quorum: a permit is slot s held on a
-- majority of nodes, so there are never more than n holders (a count per node would not do: with 3 nodes and n = 2,
-- holders on nodes {1,2}, {2,3} and {1,3} count 2 on every node, yet are 3). A holder's value ends in "." and its
-- slot; the holders live in a sorted set by when each entry lapses, under the shared rules, and the lock key holds
-- the semaphore's mark, PERMITS_MARK .. n: a lock of one resource (ours or another Redlock client's SET NX) or a
-- reader is refused. The counter is the resource's own: tokens of a semaphore grow, and are unique as the commit is
-- strict (commit-shared: a counter already at T, raised there by another slot's grant, is refused).
-- KEYS[1] lock key    KEYS[2] fencing counter    KEYS[3] holders (value by lapse, node clock ms)
-- ARGV[1] value, ending in "." and the slot it asks for    ARGV[2] ttlMillis: the TTL in ms
-- ARGV[3] fencing: "1": the counter moves; "0": no counter is touched
-- ARGV[4] clockFloor: "1" to apply the clock floor first (fence_floor)
-- ARGV[5] counterTtl: how long the counter lives after this grant, in ms
-- ARGV[6] permits: n, the permits (the slot asked for is the value's, 0 to n - 1: shared_slot)
-- Returns the new counter (> 0; 1 without fencing), or a refusal when the slot is taken here:
-- -(2^51 + (f + 1) * 2^32 + ms), f the first slot after it that is free here (-1 if none), ms until the slot's holder
-- lapses (below 2^32). A lock key held by a lock of another kind, or by a semaphore of other permits: an error reply
-- (shared_clash), nothing written.
local mark = PERMITS_MARK .. ARGV[6]
local holder = redis.call('get', KEYS[1])
if holder and holder ~= mark then
  return shared_clash(holder, mark)
end
local now = shared_now()
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
local n, slot = tonumber(ARGV[6]), shared_slot(ARGV[1])
local lapses = {}
local longest = now
local entries = redis.call('zrange', KEYS[3], 0, -1, 'WITHSCORES')
for i = 1, #entries, 2 do
  local lapse = tonumber(entries[i + 1])
  local taken = shared_slot(entries[i])
  if taken then
    lapses[taken] = lapse
  end
  if entries[i] ~= ARGV[1] then
    longest = math.max(longest, lapse)
  end
end
if lapses[slot] then
  local free = -1
  for step = 1, n - 1 do
    local s = (slot + step) % n
    if not lapses[s] then
      free = s
      break
    end
  end
  return -(2251799813685248 + (free + 1) * 4294967296 + math.min(math.max(lapses[slot] - now, 0), 4294967295))
end
shared_add(KEYS[1], KEYS[3], mark, ARGV[1], ARGV[2], now, longest)
return fence_grant_if(ARGV[3], KEYS[2], ARGV[4], ARGV[5])
