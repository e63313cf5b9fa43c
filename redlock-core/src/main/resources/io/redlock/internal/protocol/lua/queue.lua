-- queue: the rule of the fair queue's lapsed places, written once and put in front of the scripts that read the queue
-- before deciding (acquire-fenced, acquire-read: Scripts.withRules).
-- queue_prune(queue, deadlines, now): drops (at most 100 at a time) the waiters whose place lapsed before now (the
--   node's clock, ms) from the queue and its deadlines; returns whether a live waiter is left.
local function queue_prune(queue, deadlines, now)
  local lapsed = redis.call('zrangebyscore', deadlines, '-inf', '(' .. now, 'LIMIT', 0, 100)
  for _, id in ipairs(lapsed) do
    redis.call('zrem', queue, id)
    redis.call('zrem', deadlines, id)
  end
  return redis.call('zcard', queue) > 0
end
