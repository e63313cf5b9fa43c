-- announce: the release message, written once and put in front of the scripts that free a resource (release,
-- release-shared: Scripts.withRules); ReleaseNotifier reads it.
-- announce(queue, channel, message, only_queued): publishes message, then ">" and the first waiter in queue ("" if
--   none), on channel; if only_queued is "1", only while someone waits.
local function announce(queue, channel, message, only_queued)
  local head = redis.call('zrange', queue, 0, 0)[1]
  if head or only_queued ~= '1' then
    redis.call('publish', channel, message .. '>' .. (head or ''))
  end
end
