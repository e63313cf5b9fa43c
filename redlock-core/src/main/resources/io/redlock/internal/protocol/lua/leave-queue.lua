-- leave-queue: take a waiter out of a resource's queue.
-- KEYS[1] waiter queue    KEYS[2] waiters' deadlines    ARGV[1] waiterId
-- Returns 1 if it was queued, else 0.
redis.call('zrem', KEYS[2], ARGV[1])
return redis.call('zrem', KEYS[1], ARGV[1])
