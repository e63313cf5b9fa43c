-- announce: the release message, written once and put in front of the scripts that free a resource (release,
-- release-shared: Scripts.withRules); ReleaseNotifier reads it.
-- announce(queue, channel, message, only_queued, only_heard): publishes message, then ">" and the first waiter in queue
--   ("" if none), on channel; if only_queued is "1", only while someone waits in queue; if only_heard is "1", only
--   while a client of this node subscribes to channel (PUBSUB NUMSUB). A Redis Cluster delivers a message to the
--   subscribers of every one of its nodes, which a node's count does not see: there only_heard is "0".
local function announce(queue, channel, message, only_queued, only_heard)
  local head = nil
  if only_queued == '1' then
    head = redis.call('zrange', queue, 0, 0)[1]
    if not head then
      return
    end
  end
  if only_heard == '1' and redis.call('pubsub', 'numsub', channel)[2] == 0 then
    return
  end
  if only_queued ~= '1' then
    head = redis.call('zrange', queue, 0, 0)[1]
  end
  redis.call('publish', channel, message .. '>' .. (head or ''))
end
