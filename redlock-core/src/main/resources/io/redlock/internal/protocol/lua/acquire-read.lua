-- acquire-read: take a read lock, then increment the node's fencing counter (docs/FENCING.md, "Read-write locks").
-- Many readers at once. None while the lock key holds anything but the readers' mark (a writer, or a lock of one
-- resource, ours or another Redlock client's), and none while a live waiter is queued for the resource: a writer
-- that waits is served before readers that come after it (writer preference: a stream of readers cannot starve a
-- writer). The counter is the resource's own, shared with writers: every grant raises it, so a writer's token is
-- above every reader's granted before it, and a reader's above every earlier writer's.
-- KEYS[1] lock key    KEYS[2] fencing counter    KEYS[3] readers (value by lapse, node clock ms)
-- KEYS[4] waiter queue    KEYS[5] waiters' deadlines
-- ARGV[1] value    ARGV[2] ttlMillis: the TTL in ms
-- ARGV[3] fencing: "1": the counter moves; "0": no counter is touched
-- ARGV[4] clockFloor: "1" to apply the clock floor first (fence_floor)
-- ARGV[5] counterTtl: how long the counter lives after this grant, in ms
-- Returns the new counter (> 0; 1 without fencing), or a refusal: minus the remaining ms of the key that holds the
-- resource, or 0 when a waiter is ahead (or the holder's expiry is unknown). A semaphore's resource: an error reply
-- (shared_clash), nothing written.
local holder = redis.call('get', KEYS[1])
if holder and holder ~= READ_MARK then
  if shared_mark(KEYS[1]) then
    return shared_clash(holder, READ_MARK)
  end
  return -math.max(redis.call('pttl', KEYS[1]), 0)
end
local now = shared_now()
if redis.call('exists', KEYS[4]) == 1 and queue_prune(KEYS[4], KEYS[5], now) then
  return 0
end
shared_add(KEYS[1], KEYS[3], READ_MARK, ARGV[1], ARGV[2], now)
return fence_grant_if(ARGV[3], KEYS[2], ARGV[4], ARGV[5])
