-- release: compare-and-delete, then tell the waiters (SPEC S3, R5, R7).
-- Deletes the lock key only if it still holds our value, then publishes on the release channel whether a holder
-- released ("r:" + value) or a failed attempt cleaned up ("c:" + value), then ">" and the first waiter in this
-- node's queue ("" if none): a holder's release wakes that waiter only, not the whole queue. Every node sends its
-- own copy. With fencing every waiter queues, so the message is sent only while someone is queued: no cost when
-- nobody waits.
-- KEYS[1] lock key            KEYS[2] its waiter queue
-- ARGV[1] value               ARGV[2] message
-- ARGV[3] "1" to publish only while the queue exists
-- ARGV[4] the release channel (Keys.released())
-- Returns 1 (deleted) or 0 (not held with this value here).
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  local head = redis.call('zrange', KEYS[2], 0, 0)[1]
  if head or ARGV[3] ~= '1' then
    redis.call('publish', ARGV[4], ARGV[2] .. '>' .. (head or ''))
  end
  return 1
end
return 0
