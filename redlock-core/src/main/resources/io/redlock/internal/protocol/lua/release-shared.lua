-- release-shared: a reader or a permit holder leaves (SPEC S3, R7 for a shared lock). The lock key then lives as long
-- as the longest holder left; the last reader to leave deletes it and announces the release on the resource's
-- channel, as release does, naming the first waiter in this node's queue. A permit holder's leaving frees a permit
-- whoever stays, and permits do not queue: it is always announced.
-- KEYS[1] lock key    KEYS[2] holders (readers or permits)    KEYS[3] waiter queue
-- ARGV[1] value    ARGV[2] message    ARGV[3] onlyQueued: "1" to publish only while the queue exists
-- ARGV[4] onlyHeard: "1" to publish only while someone subscribes to the channel (see announce)
-- ARGV[5..] channels: the release channel (one: the resource's)
-- Returns 1 (it was a holder here) or 0.
if redis.call('zrem', KEYS[2], ARGV[1]) == 0 then
  return 0
end
local mark = shared_mark(KEYS[1])
local left = shared_left(KEYS[1], KEYS[2], mark)
if shared_permits(mark) then
  announce(KEYS[3], ARGV[5], ARGV[2], '0', ARGV[4])
elseif not left then
  announce(KEYS[3], ARGV[5], ARGV[2], ARGV[3], ARGV[4])
end
return 1
