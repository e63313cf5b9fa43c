-- release: compare-and-delete, then tell the waiters (SPEC S3, R5, R7).
-- Deletes each lock key of the lease that still holds our value (one for a lock of one resource, one per resource
-- for a lock of several), then publishes on that resource's release channel whether a holder released ("r:" +
-- value) or a failed attempt cleaned up ("c:" + value), then ">" and the first waiter in this node's queue of that
-- resource ("" if none): a holder's release wakes that waiter only, not the whole queue (and every waiter that does
-- not queue: readers, locks of several resources, permits). Every node sends its own copy. A holder's release is
-- sent while someone can hear it; with fencing, a failed attempt's clean-up only while someone is queued (Releases).
-- KEYS[1] lock key    KEYS[2] its waiter queue    (a lock of several: KEYS[2i-1], KEYS[2i] those of resource i)
-- ARGV[1] value               ARGV[2] message
-- ARGV[3] onlyQueued: "1" to publish only while the queue exists (a clean-up with fencing)
-- ARGV[4] onlyHeard: "1" to publish only while someone subscribes to the channel (see announce)
-- ARGV[5..] channels: the release channel (Keys.released())    (a lock of several: ARGV[4+i] that of resource i)
-- Returns 1 (deleted, every key or some) or 0 (none held with this value here).
local deleted = 0
for i = 1, #KEYS / 2 do
  local lock, queue = KEYS[2 * i - 1], KEYS[2 * i]
  if redis.call('get', lock) == ARGV[1] then
    redis.call('del', lock)
    deleted = 1
    announce(queue, ARGV[4 + i], ARGV[2], ARGV[3], ARGV[4])
  end
end
return deleted
